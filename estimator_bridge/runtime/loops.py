"""The traced inner loops: `num_steps` train or eval steps in one tf.function call.

As in Orbit, the inner loop is traced and the outer loop is Python: one `tf.function`
(autograph off: TF1 model_fns are graph code) runs a `tf.while_loop` whose trip count is a
tensor argument, so asking for 10 or 3 steps never retraces. Each step runs
`strategy.run(model_fn)` on every replica. The train loop returns the per-step losses as a
vector (the controller writes TF1's `loss` summaries from it and checks every step for NaN).
"""

from __future__ import annotations

import contextlib

import numpy as np
import tensorflow as tf

from estimator_bridge.runtime import fetched_updates, graph_step
from estimator_bridge.runtime.bound_call import NUM_STEPS_SPEC, STOP_AT_NAN_SPEC, BoundLoop
from estimator_bridge.runtime.hook_fetches import SpecHookTensors
from estimator_bridge.contract import metrics as metrics_lib
from estimator_bridge.runtime import step_reads, summaries

_MEAN = tf.distribute.ReduceOp.MEAN


def _labels_or_none(labels, has_labels):
    return labels if has_labels else None


def _distinct(ops) -> list:
    """The ops (or tensors) in order, each once: replicas often share one grouped train_op."""
    unique = []
    for op in ops:
        if not any(op is seen for seen in unique):
            unique.append(op)
    return unique


def _global_step_reads(deployment):
    """CPU path: model_fn's unordered global-step reads after the increment see the step's
    start, as TF 1.15's session.run did (step_reads.py); TPU cores keep program order."""
    if deployment.tpu_semantics:
        return contextlib.nullcontext()
    return step_reads.reads_at_step_start(tf.compat.v1.train.get_global_step(),
                                          deployment.strategy)


class TrainLoop:
    """`loop(iterator, num_steps, stop_at_nan=False) -> float32 losses[steps run]`, one trace.

    Runs `num_steps` steps; with `stop_at_nan` (a fused loop, step_fusion.py) it stops after
    the first step whose loss is NaN, as one-step loops would have stopped there, so fewer
    losses come back. `last_global_step` is the global step after the last call's steps.
    With `runs_to_end` (data of unknown length, fused) each step takes its batch from
    `get_next_as_optional` and the loop also ends where the data does; a call that finds the
    data already ended raises OutOfRangeError, as one step per call did.

    Args:
      deployment: the `distribute.Deployment`.
      cache: the model's `VariableCache`.
      model_function: a `calling.ModelFunction` bound to TRAIN and the per-replica batch.
      has_labels: whether the input has labels.
      summary_writer: a tf.summary writer made default around host_call fns (or None).
      save_summary_steps: the cadence of model_fn's v1 summaries on the CPU path
        (summaries.ModelFnSummaries; None or 0: not written, as TF1 without a SummarySaverHook).
      runs_to_end: the loop may end before `num_steps` where the data ends (above).
    """

    def __init__(self, *, deployment, cache, model_function, has_labels, summary_writer=None,
                 save_summary_steps=None, runs_to_end=False):
        self.runs_to_end = runs_to_end
        self._deployment = deployment
        self._cache = cache
        self._model_function = model_function
        self._has_labels = has_labels
        self._summary_writer = summary_writer
        self._host_call_fn = None
        self._host_call_writers = []  # writers host_call fns opened; see summaries.writers_kept_in
        self._model_fn_writers = []  # and the ones model_fn opened (tf.summary v2 in TRAIN)
        # TF1's SummarySaverHook ran model_fn's v1 summaries on the CPU path only (TPU cores
        # dropped them).
        self.model_fn_summaries = summaries.ModelFnSummaries(
            None if deployment.tpu_semantics else summary_writer, save_summary_steps)
        self.hooks = ()
        self.loss_tensors = []  # each replica's spec loss in the last trace (step_fusion.py)
        self.hook_tensors = SpecHookTensors()
        self.trace_count = 0
        self._function = tf.function(self._loop, autograph=False)
        self._bound = None  # the BoundLoop of the iterator of the current train()
        self.last_global_step = None

    def __call__(self, iterator, num_steps: int, stop_at_nan: bool = False) -> np.ndarray:
        if self._bound is None or self._bound.iterator is not iterator:
            with self._deployment.strategy.scope(), self._cache.scope():
                self._bound = BoundLoop(self._function, iterator, (STOP_AT_NAN_SPEC,))
        losses, global_step = self._bound(num_steps, bool(stop_at_nan))
        for writer in self._host_call_writers + self._model_fn_writers:
            writer.flush()
        self.last_global_step = int(global_step.numpy())
        losses = losses.numpy()
        if self.runs_to_end and len(losses) == 0 and num_steps > 0:
            # The data had ended: what one step per call met as OutOfRange (hooks' after_run
            # is not called for that call, the controller stops).
            raise tf.errors.OutOfRangeError(None, None, "End of sequence")
        return losses

    def unbind(self) -> None:
        """Forgets the iterator of the call that ended (input_release.py)."""
        self._bound = None

    def trace(self, iterator) -> None:
        """Traces the loop without running a step (model_fn's hooks exist afterwards)."""
        if self.trace_count:
            return
        with self._deployment.strategy.scope(), self._cache.scope():
            self._function.get_concrete_function(iterator, NUM_STEPS_SPEC, STOP_AT_NAN_SPEC)

    def _replica_step(self, features, labels):
        with self._cache.scope(), _global_step_reads(self._deployment), \
                summaries.writers_kept_in(self._model_fn_writers):
            with self.model_fn_summaries.collect():
                outputs = self._model_function(features, _labels_or_none(labels, self._has_labels))
            self.hooks = outputs.hooks
            self.loss_tensors.append(outputs.loss)
            hook_tensors = self.hook_tensors.collect(outputs.hooks)
            loss = tf.cast(outputs.loss, tf.float32)
            written = self.model_fn_summaries.written_after(
                outputs.train_op, tf.compat.v1.train.get_global_step(),
                fetched=[loss, hook_tensors])
            if written is not None:
                with tf.control_dependencies([written]):
                    loss = tf.identity(loss)
            host_tensors = ()
            self._host_call_fn = None
            if outputs.host_call is not None:
                self._host_call_fn, host_tensors = outputs.host_call
                with tf.control_dependencies([outputs.train_op]):
                    host_tensors = tf.nest.map_structure(tf.identity, host_tensors)
        return loss, host_tensors, hook_tensors, outputs.train_op

    def _loop(self, iterator, num_steps, stop_at_nan):
        self.trace_count += 1
        self.loss_tensors = []
        strategy = self._deployment.strategy
        self._cache.begin_trace()
        global_step = tf.compat.v1.train.get_or_create_global_step()

        def body(step_index, losses, last_loss_is_nan, _):
            if not self.runs_to_end:
                return step(step_index, losses, iterator.get_next())
            batch = iterator.get_next_as_optional()
            # A step runs only on a batch that arrived (EvalLoop._loop_to_end); the loop
            # ends where the data does, with the losses of the steps that ran.
            return tf.cond(
                batch.has_value(),
                lambda: step(step_index, losses, tf.nest.map_structure(
                    lambda value, spec: tf.ensure_shape(value, spec.shape),
                    batch.get_value(), iterator.element_spec)),
                lambda: (step_index, losses, last_loss_is_nan, tf.constant(False)))

        def step(step_index, losses, element):
            features, labels = element
            # At the root name scope, as TF1 built a CPU model_fn: name-scoped things it makes
            # (a tf.summary v2 tag, google-research/simclr) must not become "while/...".
            graph = tf.compat.v1.get_default_graph()
            first_op = len(graph.get_operations())
            with tf.compat.v1.name_scope(None):
                replica_outputs = strategy.run(self._replica_step, args=(features, labels))
            # Only what TF 1.15's session.run(train_op, loss) reached updates variables: a
            # train_op that does not wait for UPDATE_OPS leaves the moving averages alone there.
            fetched_updates.leave_out_unfetched_updates(graph, first_op, tf.nest.map_structure(
                strategy.experimental_local_results, replica_outputs))
            replica_loss, host_tensors, hook_tensors, train_op = replica_outputs
            loss = strategy.reduce(_MEAN, replica_loss, axis=None)
            # The step's loss waits for train_op, as TF1's session.run([train_op, loss]) ran
            # both. Once per step, not per replica: a v1 optimizer's train_op groups the
            # updates of every device, and a control edge from it into each replica's loss
            # cost 8 replicas ~10% of their steps/s (measured, docs/core.md).
            with tf.control_dependencies(_distinct(strategy.experimental_local_results(train_op))
                                         + self.hook_tensors.store(strategy, hook_tensors)):
                # Spec hooks' tensors: replica 0's values of this step, read after the loop.
                loss = tf.identity(loss)
            if self._host_call_fn is not None:
                gathered = metrics_lib.gather_replicas(
                    strategy, host_tensors, tpu_semantics=self._deployment.tpu_semantics,
                    name="host_call")
                with tf.control_dependencies([loss]):
                    host_ops = self._run_host_call(gathered)
                with tf.control_dependencies(tf.nest.flatten(host_ops)):
                    loss = tf.identity(loss)
            return (step_index + 1, losses.write(step_index, loss), tf.math.is_nan(loss),
                    tf.constant(True))

        def more_steps(index, _, last_loss_is_nan, arrived):
            return tf.logical_and(
                tf.logical_and(arrived, index < num_steps),
                tf.logical_not(tf.logical_and(stop_at_nan, last_loss_is_nan)))

        losses = tf.TensorArray(tf.float32, size=num_steps, element_shape=tf.TensorShape([]))
        steps_run, losses, _, _ = tf.while_loop(
            more_steps, body, (tf.constant(0), losses, tf.constant(False), tf.constant(True)))
        losses = losses.stack()[:steps_run]
        # The step after the loop comes back with the losses: the controller and the hooks'
        # global-step fetches need it, and a separate eager read costs ~0.1 ms per loop.
        with tf.control_dependencies([losses]):
            return losses, tf.identity(global_step.read_value())

    def _run_host_call(self, gathered):
        # At the root name scope: TF1 called host_call fns outside any loop, so a summary
        # named "host_loss" must not become "while/host_loss".
        with tf.compat.v1.name_scope(None), summaries.writers_kept_in(self._host_call_writers):
            if self._summary_writer is None:
                result = metrics_lib.call_with_tensors(self._host_call_fn, gathered)
            else:
                with self._summary_writer.as_default(), tf.summary.record_if(True):
                    result = metrics_lib.call_with_tensors(self._host_call_fn, gathered)
        return [op for op in tf.nest.flatten(result) if op is not None]


class EvalLoop:
    """`loop(iterator, num_steps) -> (loss_sum float32, steps)`; metric updates on the host.

    Runs outside `strategy.scope()`: v1 metrics need a replica context and fail under a
    cross-replica scope (docs/architecture.md, "Metrics on the host"). metric_fn's variables live in
    `host_cache`.
    """

    def __init__(self, *, deployment, cache, host_cache, model_function, has_labels):
        self._deployment = deployment
        self._cache = cache
        self._host_cache = host_cache
        self._model_function = model_function
        self._has_labels = has_labels
        self._metric_fn = None
        self._metric_specs = None
        self._model_fn_metrics = False
        self._input_specs = None
        self.hooks = ()
        self.hook_tensors = SpecHookTensors()
        self.trace_count = 0
        self._function = tf.function(self._loop, autograph=False)
        self._to_end_function = tf.function(self._loop_to_end, autograph=False)
        self.runs_to_end = False  # this evaluate() runs run_to_end (set before trace())
        self._bound = None  # the BoundLoop of the iterator of the current evaluate()

    def __call__(self, iterator, num_steps: int):
        if self._bound is None or self._bound.iterator is not iterator:
            with self._cache.scope():
                self._bound = BoundLoop(self._function, iterator)
        loss_sum = self._bound(num_steps)
        return np.float32(loss_sum.numpy())

    def run_to_end(self, iterator, max_steps: int) -> tuple[np.float32, int]:
        """(loss sum, steps run): up to `max_steps` steps in one call, ending early where the
        data ends. For input of unknown length, which otherwise takes one call per step to
        find its end; a step runs only on a batch that arrived, so nothing of it (a metric's
        count that does not wait for the input) runs past the end, as in TF1's last
        `session.run`, which stopped at the iterator."""
        with self._cache.scope():
            loss_sum, steps = self._to_end_function(
                iterator, tf.constant(max_steps, tf.int32))
        return np.float32(loss_sum.numpy()), int(steps.numpy())

    def unbind(self) -> None:
        """Forgets the iterator of the call that ended (input_release.py)."""
        self._bound = None

    def trace(self, iterator) -> None:
        """Traces the loop this evaluate() will run (`runs_to_end`: run_to_end's), without
        running a step: model_fn's hooks exist afterwards, and the loop is traced once."""
        if self.trace_count:
            return
        function = self._to_end_function if self.runs_to_end else self._function
        with self._cache.scope():
            function.get_concrete_function(iterator, NUM_STEPS_SPEC)

    def _replica_step(self, features, labels):
        """One replica's eval step, built with TF1 graph semantics (only what is fetched runs).

        TF1 ran `loss`, the metric tensors and the metric update ops of an EVAL model_fn and
        nothing else; a tf.function runs every stateful op, so a train_op that model_fn builds
        in every mode would train during evaluation. Building the step with
        `tf.compat.v1.wrap_function` and pruning it to the fetches restores TF1's behaviour.
        """
        if self._input_specs is None:
            self._input_specs = metrics_lib.spec_of((features, labels))
        built = {}

        def fetch_eval_tensors(step_features, step_labels):
            outputs = graph_step.call_model_fn(
                cache=self._cache, model_function=self._model_function, features=step_features,
                labels=_labels_or_none(step_labels, self._has_labels))
            built["outputs"] = outputs
            update_ops = []
            if outputs.eval_metric_ops is not None:
                update_ops = metrics_lib.update_ops(metrics_lib.check_metric_dict(
                    outputs.eval_metric_ops, "model_fn eval_metric_ops"))
            with tf.control_dependencies(update_ops):
                loss = tf.identity(tf.cast(outputs.loss, tf.float32))
            metric_tensors = outputs.eval_metrics[1] if outputs.eval_metrics is not None else ()
            built["metric_structure"] = metric_tensors
            hook_tensors = self.hook_tensors.collect(outputs.hooks)
            built["num_hook_tensors"] = len(hook_tensors)
            return ([loss] + [tf.identity(t) for t in tf.nest.flatten(metric_tensors)]
                    + [tf.identity(t) for t in hook_tensors])

        results = graph_step.call_pruned(fetch_eval_tensors, (features, labels))
        outputs = built["outputs"]
        self.hooks = outputs.hooks
        self._model_fn_metrics = outputs.eval_metric_ops is not None
        self._metric_fn = outputs.eval_metrics[0] if outputs.eval_metrics is not None else None
        num_hook_tensors = built["num_hook_tensors"]
        num_metric_tensors = len(results) - 1 - num_hook_tensors
        metric_tensors = tf.nest.pack_sequence_as(built["metric_structure"],
                                                  list(results[1:1 + num_metric_tensors]))
        hook_tensors = list(results[1 + num_metric_tensors:])
        return results[0], metric_tensors, hook_tensors

    def _begin_trace(self):
        self.trace_count += 1
        self._cache.begin_trace()
        with self._cache.scope():
            tf.compat.v1.train.get_or_create_global_step()

    def _step(self, features, labels):
        """One eval step on one global batch: its loss, after the metric updates."""
        strategy = self._deployment.strategy
        replica_loss, metric_tensors, hook_tensors = strategy.run(
            self._replica_step, args=(features, labels))
        loss = strategy.reduce(_MEAN, replica_loss, axis=None)
        with tf.control_dependencies(self.hook_tensors.store(strategy, hook_tensors)):
            loss = tf.identity(loss)
        if self._metric_fn is not None:
            gathered = metrics_lib.gather_replicas(
                strategy, metric_tensors, tpu_semantics=self._deployment.tpu_semantics,
                name="eval_metrics")
            self._metric_specs = metrics_lib.spec_of(gathered)
            # At the graph's top name scope, where TF1 built metric_fn: v1 metrics name
            # some variables by their full name scope (recall_at_k's
            # `metric_variable(name=scope)`), which inside this loop began with "while/"
            # and so differed from the variables final_values() reads (NaN recall_at_k in
            # tensorflow/tpu's squeezenet_main.py).
            with self._host_cache.scope(), tf.compat.v1.name_scope(None):
                metrics = metrics_lib.check_metric_dict(
                    metrics_lib.call_with_tensors(self._metric_fn, gathered), "metric_fn")
            with tf.control_dependencies(metrics_lib.update_ops(metrics)):
                loss = tf.identity(loss)
        return loss

    def _loop(self, iterator, num_steps):
        self._begin_trace()

        def body(step_index, loss_sum):
            features, labels = iterator.get_next()
            return step_index + 1, loss_sum + self._step(features, labels)

        _, loss_sum = tf.while_loop(lambda index, _: index < num_steps, body,
                                    (tf.constant(0), tf.constant(0.0, tf.float32)))
        return loss_sum

    def _loop_to_end(self, iterator, max_steps):
        self._begin_trace()

        def body(step_index, loss_sum, _):
            batch = iterator.get_next_as_optional()
            arrived = batch.has_value()

            def run_step():
                # The optional's value forgets the static shapes (tf.distribute takes any
                # first axis for a partial batch); model_fn sees what get_next() would give.
                features, labels = tf.nest.map_structure(
                    lambda value, spec: tf.ensure_shape(value, spec.shape),
                    batch.get_value(), iterator.element_spec)
                return step_index + 1, loss_sum + self._step(features, labels)

            step_index, loss_sum = tf.cond(arrived, run_step, lambda: (step_index, loss_sum))
            return step_index, loss_sum, arrived

        steps, loss_sum, _ = tf.while_loop(
            lambda index, _, arrived: tf.logical_and(arrived, index < max_steps), body,
            (tf.constant(0), tf.constant(0.0, tf.float32), tf.constant(True)))
        return loss_sum, steps

    def final_values(self) -> dict:
        """The metrics' values after the updates so far ({} when the spec had none).

        metric_fn (or model_fn, for eval_metric_ops) is built once more in a TF1-style graph
        (`tf.compat.v1.wrap_function`) on zero-length inputs and only its value tensors are
        fetched: as in TF1's final `session.run(value_ops)`, no update op runs.
        """
        if self._metric_fn is None and not self._model_fn_metrics:
            return {}
        names = []

        def graph_values():
            values = {}
            self._cache.begin_trace()
            if self._metric_fn is not None:
                with self._host_cache.scope():
                    metrics = metrics_lib.call_with_tensors(
                        self._metric_fn, metrics_lib.zero_length_inputs(self._metric_specs))
                values.update(metrics_lib.value_tensors(metrics))
            if self._model_fn_metrics:
                features, labels = metrics_lib.zero_length_inputs(self._input_specs)
                with self._cache.scope():
                    tf.compat.v1.train.get_or_create_global_step()
                    outputs = self._model_function(
                        features, _labels_or_none(labels, self._has_labels))
                values.update(metrics_lib.value_tensors(outputs.eval_metric_ops))
            names.extend(values)
            return [tf.identity(values[name]) for name in names]

        with self._cache.scope():
            wrapped = tf.compat.v1.wrap_function(graph_values, [])
            # Calling the wrapped function itself would run every stateful op in it, update
            # ops included (a counter metric_fn's assign_add); the pruned one runs only what
            # the values need.
            values = wrapped.prune(feeds=[], fetches=wrapped.structured_outputs)()
        return {name: value.numpy() for name, value in zip(names, values)}
