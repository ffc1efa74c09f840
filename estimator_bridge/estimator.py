"""TPUEstimator and Estimator: the legacy facades, wiring inputs, build, loops and checkpoints.

No loop code lives here: `train()` reads as make the input, build the variables, restore,
run the controller; `evaluate()` as make the input, build, restore, run the eval loop, report.
"""

from __future__ import annotations

import copy
import logging
import os
import tempfile
import time

import numpy as np
import tensorflow as tf

from estimator_bridge.contract import calling
from estimator_bridge.contract.calling import ModelFunction
from estimator_bridge.runtime import build, checkpoints, controller, distribute, inputs, loops
from estimator_bridge.runtime import input_release, loss_tag
from estimator_bridge.runtime import predict as predict_lib
from estimator_bridge import export as export_lib
from estimator_bridge.runtime.hook_fetches import tensor_names_wanted
from estimator_bridge.runtime.hook_runner import HookRunner
from estimator_bridge.runtime import predict_fusion, step_fusion, step_rate, warm_start
from estimator_bridge import arguments
from estimator_bridge.config import InputPipelineConfig, RunConfig
from estimator_bridge.spec import ModeKeys
from estimator_bridge.runtime.summaries import ScalarWriter
from estimator_bridge.runtime.variables import VariableCache

logger = logging.getLogger("estimator_bridge")

_RESERVED_PARAMS_KEYS = ["batch_size", "context"]


def _check_steps(steps, max_steps):
    if steps is not None and max_steps is not None:
        raise ValueError(f"Can not provide both steps and max_steps. Got steps={steps}, "
                         f"max_steps={max_steps}: pass one of them.")
    if steps is not None and steps <= 0:
        raise ValueError(f"Must specify steps > 0, given: {steps}")
    if max_steps is not None and max_steps <= 0:
        raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")


def _check_input_deployment(config, use_tpu):
    """PER_SHARD_V1/BROADCAST on several emulated cores fail here, not at the first train().

    A TPU named by master/cluster gives its replica count only when it is reached; then
    runtime/inputs.py refuses them at the first call.
    """
    tpu_config = config.tpu_config
    num_shards = tpu_config.num_shards or 1
    if use_tpu and num_shards > 1 and tpu_config.input_deployment in (
            InputPipelineConfig.PER_SHARD_V1, InputPipelineConfig.BROADCAST):
        raise NotImplementedError(
            f"TPUConfig(per_host_input_for_training="
            f"{tpu_config.per_host_input_for_training!r}) on {num_shards} replicas is not "
            "supported by estimator_bridge: per-shard input_fn calls and broadcast input have "
            "no tf.distribute input mode that gives each replica TF1's batches. To run: pass "
            "per_host_input_for_training=True (PER_HOST_V1: input_fn builds the global batch) "
            "or InputPipelineConfig.PER_HOST_V2 (input_fn builds one replica's batch).")


class _EstimatorBase:
    """Shared train/evaluate flow; subclasses decide params, batch sizes and the deployment."""

    _require_params = False

    def __init__(self, model_fn, model_dir, config, params, *, use_tpu):
        if config is None:
            config = RunConfig()
        if model_dir is not None and config.model_dir is not None and \
                os.path.normpath(str(model_dir)) != os.path.normpath(config.model_dir):
            raise ValueError(
                "`model_dir` are set both in constructor and `RunConfig`, but with different "
                f"values. In constructor: '{model_dir}', in `RunConfig`: '{config.model_dir}'. "
                "Set it in one place only.")
        model_dir = str(model_dir) if model_dir is not None else config.model_dir
        if model_dir is None:
            model_dir = tempfile.mkdtemp()
            logger.warning("Using temporary folder as model directory: %s", model_dir)
        self._config = config.replace(model_dir=model_dir) if config.model_dir != model_dir else config
        self._model_dir = model_dir
        self._params = copy.deepcopy(params or {})
        self._model_fn = model_fn
        self._use_tpu = use_tpu
        self._deployment = None
        self._cache = None
        self._host_cache = None
        self._built_modes = set()
        self._loops = {}
        self._warm_start_settings = None
        self._init_from_checkpoint = {}  # mode -> Assignments recorded in the build pass
        self._restore_names = {}  # mode -> {variable name: checkpoint name} of its scaffold Saver
        self._warm_started_in_build = {}  # mode -> a scaffold init op ran after the warm starts
        self._loss_tags = {}  # mode -> the tag of the Estimator's loss summary (runtime/loss_tag.py)
        self._build_graphs = {}  # mode -> (build graph, its (variable, name) pairs): hooks' begin()

    # ---- public properties ---------------------------------------------------------------
    model_dir = property(lambda self: self._model_dir)
    config = property(lambda self: copy.copy(self._config))
    params = property(lambda self: copy.deepcopy(self._params))
    model_fn = property(lambda self: self._model_fn)

    def latest_checkpoint(self):
        """The newest checkpoint prefix in model_dir, or None."""
        return checkpoints.latest_checkpoint(self._model_dir)

    def get_variable_names(self):
        """Names of the variables in the latest checkpoint."""
        return sorted(tf.train.load_checkpoint(self._latest_or_raise()).get_variable_to_shape_map())

    def get_variable_value(self, name):
        """A variable's value in the latest checkpoint (numpy)."""
        return tf.train.load_checkpoint(self._latest_or_raise()).get_tensor(name)

    def _latest_or_raise(self):
        latest = self.latest_checkpoint()
        if latest is None:
            raise ValueError(f"Could not find trained model in model_dir: {self._model_dir}.")
        return latest

    # ---- export --------------------------------------------------------------------------
    def export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=None,
                           as_text=False, checkpoint_path=None,
                           experimental_mode=ModeKeys.PREDICT):
        """Writes a timestamped SavedModel for serving (see `estimator_bridge.export`).

        Returns:
          the export directory (bytes, as TF1 returned it).

        Raises:
          NotImplementedError: experimental_mode TRAIN or EVAL (only the serving metagraph).
        """
        if experimental_mode != ModeKeys.PREDICT:
            raise NotImplementedError(
                f"export_saved_model(experimental_mode={experimental_mode!r}) is not supported "
                "by estimator_bridge: it exports the serving (PREDICT) metagraph only; TRAIN and "
                "EVAL metagraphs held TF1 Session training/eval ops. To run: drop "
                "experimental_mode (PREDICT is the default).")
        self._check_export_targets()
        if not checkpoint_path and self.latest_checkpoint() is None and \
                self._warm_start_settings is not None:
            # TF1's export without a trained model exports the warm-start checkpoint.
            checkpoint_path = warm_start.checkpoint_prefix(
                self._warm_start_settings.ckpt_to_initialize_from)
        return export_lib.export_saved_model(
            model_function=self._export_model_function(), model_dir=self._model_dir,
            serving_input_receiver_fn=serving_input_receiver_fn,
            export_dir_base=export_dir_base, assets_extra=assets_extra, as_text=as_text,
            checkpoint_path=checkpoint_path, tf_random_seed=self._config.tf_random_seed)

    export_savedmodel = export_saved_model

    def _check_export_targets(self):
        pass

    def _export_model_function(self):
        """TPUEstimator's export runs model_fn on the CPU path: no batch_size, use_tpu False."""
        return ModelFunction(self._model_fn, params=self._params, config=self._config,
                             mode=ModeKeys.PREDICT, use_tpu=False,
                             around_user_code=warm_start.intercepting)

    # ---- subclass decisions --------------------------------------------------------------
    def _model_params_use_tpu(self):
        raise NotImplementedError

    def _global_batch_size(self, mode):
        raise NotImplementedError

    def _choose_deployment(self):
        raise NotImplementedError

    # ---- wiring --------------------------------------------------------------------------
    def _ensure_deployment(self):
        if self._deployment is None:
            self._deployment = self._choose_deployment()
            logger.info("estimator_bridge runs on %s", self._deployment.description)
            self._host_cache = VariableCache(strategy=None)
            self._cache = VariableCache(self._deployment.strategy, local_cache=self._host_cache)
        return self._deployment

    def _model_function(self, mode, batch_size):
        """model_fn bound to `mode` and the per-replica batch size, as this estimator calls it."""
        return ModelFunction(self._model_fn, params=self._params, config=self._config, mode=mode,
                             batch_size=batch_size, use_tpu=self._model_params_use_tpu(),
                             around_user_code=warm_start.intercepting)

    def _make_input(self, input_fn, mode):
        return inputs.make_input(input_fn, mode=mode, params=self._params, config=self._config,
                                 deployment=self._deployment,
                                 global_batch_size=self._global_batch_size(mode),
                                 require_params=self._require_params)

    def _build(self, mode, data):
        if mode in self._built_modes:
            return
        if self._config.tf_random_seed is not None and not self._built_modes:
            tf.random.set_seed(self._config.tf_random_seed)
        with warm_start.recording() as init_from_checkpoint:
            built = build.build_variables(
                cache=self._cache,
                model_function=self._model_function(mode, data.per_replica_batch_size),
                element_spec=data.element_spec, has_labels=data.has_labels,
                tf_random_seed=self._config.tf_random_seed, train=mode == ModeKeys.TRAIN,
                warm_start_values=lambda graph_variables: warm_start.values_of(
                    settings=self._warm_start_settings, recorded=init_from_checkpoint,
                    variables=graph_variables))
        self._restore_names[mode] = built.restore_names
        # A scaffold init op ran after the warm starts (build.py): its values are the start.
        self._init_from_checkpoint[mode] = init_from_checkpoint
        self._warm_started_in_build[mode] = built.warm_started
        self._loss_tags[mode] = built.loss_tag
        self._build_graphs[mode] = (built.graph, built.graph_variables)
        self._built_modes.add(mode)

    def _model_variables(self):
        return self._cache.variables

    def _warm_start(self, mode):
        """Warm starts as TF1 applied them in every mode when no checkpoint was restored.

        TF 1.15's train(), evaluate() and predict() all call `_maybe_warm_start` after model_fn
        (warm_start_from), and `init_from_checkpoint` in model_fn overrides the initializers
        of that mode's graph: a fresh model_dir evaluates/predicts the warm-started weights.
        """
        if self._warm_started_in_build.get(mode):
            return  # already part of the initial values, before the scaffold's init_op
        warm_start.apply(settings=self._warm_start_settings,
                         recorded=self._init_from_checkpoint.get(mode, []),
                         variables=self._model_variables(), strategy=self._deployment.strategy)

    def _initialize_without_checkpoint(self, mode):
        """evaluate()/predict() without a checkpoint: TF1 ran the initializers, warm starts
        included (a new Session's values, not whatever an earlier call left)."""
        with self._deployment.strategy.scope():
            self._cache.reset_to_initial_values()
        self._warm_start(mode)

    def _restore(self, prefix, mode=None):
        """Restores by TF1 names; evaluate()/predict() through their scaffold Saver's map."""
        if prefix is None:
            return
        checkpoints.restore(self._model_variables(), prefix, self._deployment.strategy,
                            stored_names=self._restore_names.get(mode))

    def _restore_or_initialize(self, mode, checkpoint_path):
        """evaluate()/predict(): checkpoint_path or the latest checkpoint, else fresh weights."""
        prefix = checkpoint_path or self.latest_checkpoint()
        if prefix is None:
            # TF1 logged this at WARNING in predict() and at INFO in evaluate().
            log = logger.warning if mode == ModeKeys.PREDICT else logger.info
            log("Could not find trained model in model_dir: %s, running initialization to %s.",
                self._model_dir, "predict" if mode == ModeKeys.PREDICT else "evaluate")
            self._initialize_without_checkpoint(mode)
        self._restore(prefix, mode)

    def _global_step(self):
        return int(self._cache["global_step"].numpy())

    def _loop(self, mode, data, factory, variant=None):
        key = (mode, data.per_replica_batch_size, data.has_labels, variant)
        if key not in self._loops:
            self._loops[key] = factory()
        return self._loops[key]

    # ---- train ---------------------------------------------------------------------------
    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains on input_fn's batches: `steps` more steps, up to `max_steps`, or to the data end.

        Resumes from the latest checkpoint in model_dir (a model_dir holding only a TF1
        `model.ckpt-0` starts at step 0 with its weights). Writes `model.ckpt-N` at the start,
        every save_checkpoints_steps/secs and at the end, `loss` summaries every
        save_summary_steps, and one log line per loop.

        Raises:
          ValueError: both steps and max_steps, or non-positive values.
          NanLossDuringTrainingError: a NaN loss (no final checkpoint).
        """
        _check_steps(steps, max_steps)
        listeners = checkpoints.check_saving_listeners(
            saving_listeners, saving=bool(self._config.save_checkpoints_steps)
            or self._config.save_checkpoints_secs is not None)
        latest = self.latest_checkpoint()
        if max_steps is not None and latest is not None:
            restored_step = checkpoints.checkpoint_step(latest)
            if restored_step >= max_steps:
                logger.info("Skipping training since max_steps has already saved.")
                return self
        deployment = self._ensure_deployment()
        data = self._make_input(input_fn, ModeKeys.TRAIN)
        self._build(ModeKeys.TRAIN, data)
        if latest is None:  # TF1 warm-started through initializers: only without a checkpoint
            self._warm_start(ModeKeys.TRAIN)
        self._restore(latest)
        start_step = self._global_step()
        last_step = max_steps if max_steps is not None else (
            start_step + steps if steps is not None else None)
        summary_writer = self._train_summary_writer()
        runs_to_end = self._train_runs_to_end(data)
        train_loop = self._loop(ModeKeys.TRAIN, data, lambda: loops.TrainLoop(
            deployment=deployment, cache=self._cache,
            model_function=self._model_function(ModeKeys.TRAIN, data.per_replica_batch_size),
            has_labels=data.has_labels, summary_writer=summary_writer.writer,
            save_summary_steps=self._config.save_summary_steps, runs_to_end=runs_to_end),
            variant=runs_to_end)
        # TF1's new session: local variables (a TRAIN model_fn's streaming metrics) start again,
        # and the SummarySaverHook fires on this call's first step.
        self._host_cache.reset_to_initial_values()
        train_loop.model_fn_summaries.start_call(start_step)
        writer = checkpoints.CheckpointWriter(self._output_dir(),
                                              self._config.keep_checkpoint_max)
        global_batch = self._global_batch_size(ModeKeys.TRAIN)
        plan = controller.TrainPlan(
            start_step=start_step, last_step=last_step,
            steps_per_loop=self._steps_per_loop(),
            data_steps=data.steps_available,
            save_checkpoints_steps=self._config.save_checkpoints_steps,
            save_checkpoints_secs=self._config.save_checkpoints_secs,
            save_summary_steps=self._config.save_summary_steps,
            global_batch_size=global_batch if isinstance(global_batch, int) else None,
            loss_tag=self._train_loss_tag(train_loop), **self._rate_cadence())
        global_step = self._cache["global_step"]
        # The input pipeline lives exactly as long as this call (input_release.py).
        with input_release.OwnedInput(data, loops=[train_loop]) as pipeline:
            hook_runner = self._hook_runner(hooks, train_loop, pipeline.iterator, ModeKeys.TRAIN,
                                            step_after_loop=lambda: train_loop.last_global_step)
            saver = checkpoints.ListenedSaver(
                lambda step: writer.save(self._model_variables(), step, deployment.strategy),
                listeners, session=hook_runner.session_for)
            tf.summary.experimental.set_step(global_step)
            # TF1's infeed thread slept this long before feeding the first batch.
            time.sleep(self._config.tpu_config.initial_infeed_sleep_secs or 0)
            try:
                controller.run_training(
                    plan,
                    run_loop=lambda num_steps, stop_at_nan=False: hook_runner.run_loop(
                        lambda: self._run_train_loop(train_loop, pipeline.iterator, num_steps,
                                                     stop_at_nan)),
                    read_step=lambda: train_loop.last_global_step,
                    save_checkpoint=saver.save, summary_writer=summary_writer,
                    should_stop=lambda: hook_runner.stop_requested() or saver.stop_requested,
                    fusion=step_fusion.decide(
                        steps_per_loop=plan.steps_per_loop,
                        data_steps_known=data.steps_available != inputs.UNKNOWN_STEPS,
                        hooks=hook_runner.hooks, loss_tensors=train_loop.loss_tensors,
                        strategy=deployment.strategy, runs_to_end=runs_to_end))
                hook_runner.end()
                saver.end(self._global_step())
            finally:
                tf.summary.experimental.set_step(None)
                summary_writer.flush()
        return self

    def _train_runs_to_end(self, data) -> bool:
        """Whether train() on data of unknown length runs a loop that ends with the data (so
        that one step per loop can be fused, step_fusion.py); as for evaluate(), not with
        fusion off, nor on several replicas, nor with longer loops of the program's own."""
        return (data.steps_available == inputs.UNKNOWN_STEPS and step_fusion.enabled()
                and self._deployment.num_replicas == 1 and self._steps_per_loop() == 1)

    def _train_loss_tag(self, train_loop):
        """The tag of the Estimator's own loss series; None where model_fn's `loss` summary,
        written by the train loop, is the series (TF 1.15 added none then: loss_tag.py)."""
        graph = self._build_graphs.get(ModeKeys.TRAIN, (None,))[0]
        if (train_loop.model_fn_summaries.first_step is not None and graph is not None
                and loss_tag.has_own_loss_summary(graph)):
            return None
        return self._loss_tags.get(ModeKeys.TRAIN, "loss")

    def _train_summary_writer(self):
        """One writer per estimator: the traced train loop captures it for host_call fns."""
        if getattr(self, "_summary_writer", None) is None:
            self._summary_writer = ScalarWriter(self._output_dir())
        return self._summary_writer

    def _output_dir(self):
        """model_dir on the chief and on the evaluator task (TF1 wrote its evaluations into
        model_dir/eval, where BestExporter and TensorBoard read them); a scratch directory on
        other workers (only the chief writes)."""
        if self._config.is_chief or self._config.task_type == "evaluator":
            return self._model_dir
        if getattr(self, "_worker_scratch_dir", None) is None:
            self._worker_scratch_dir = tempfile.mkdtemp(
                prefix=f"estimator_bridge_{self._config.task_type}{self._config.task_id}_")
        return self._worker_scratch_dir

    def _run_train_loop(self, train_loop, iterator, num_steps, stop_at_nan=False):
        return train_loop(iterator, num_steps, stop_at_nan)

    def _steps_per_loop(self) -> int:
        """Steps per traced loop before fusion: TPUConfig's iterations_per_loop."""
        return self._config.tpu_config.iterations.steps_per_loop

    def _hook_runner(self, hooks, loop, iterator, mode, step_after_loop=None):
        """train(hooks=...)/evaluate(hooks=...) then the spec's hooks, begun (see runtime/hook_runner.py)."""
        loop.hook_tensors.require_names(tensor_names_wanted(hooks or ()))
        loop.trace(iterator)  # model_fn's hooks exist once the loop is traced
        runner = HookRunner(
            list(hooks or ()) + list(loop.hook_tensors.hooks),
            variables=self._model_variables(), global_step=self._cache["global_step"],
            strategy=self._deployment.strategy, spec_tensors=loop.hook_tensors,
            step_after_loop=step_after_loop, build_graph=self._build_graphs.get(mode))
        runner.begin()
        return runner

    def _rate_cadence(self) -> dict:
        """When TF1's Estimator reported global_step/sec: its StepCounterHook, every
        log_step_count_steps steps, into model_dir."""
        every = self._config.log_step_count_steps
        if not every or every <= 0:
            return {}
        return {"rate_every_steps": every, "write_rates": True}

    # ---- predict -------------------------------------------------------------------------
    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None,
                yield_single_examples=True):
        """Yields predictions for input_fn's batches from the latest checkpoint (or checkpoint_path).

        Per example (a dict of numpy rows, or rows of a single tensor) or, with
        yield_single_examples=False, per batch. With R emulated TPU cores a short last batch is
        padded to predict_batch_size and the padding is dropped before yielding.

        Raises:
          ValueError: predict_keys with non-dict predictions or unknown keys; predictions of
            different batch lengths; a missing predict_batch_size on several TPU cores.
        """
        deployment = self._ensure_deployment()
        global_batch = self._global_batch_size(ModeKeys.PREDICT)
        pad_to = None
        if deployment.tpu_semantics and deployment.num_replicas > 1:
            if global_batch is None:
                raise ValueError("predict_batch_size in TPUEstimator constructor cannot be `None` "
                                 "if .predict is running on TPU. Pass predict_batch_size=... .")
            pad_to = global_batch
        data = inputs.make_input(input_fn, mode=ModeKeys.PREDICT, params=self._params,
                                 config=self._config, deployment=deployment,
                                 global_batch_size=global_batch,
                                 require_params=self._require_params, pad_to_batch=pad_to)
        self._build(ModeKeys.PREDICT, data)
        self._restore_or_initialize(ModeKeys.PREDICT, checkpoint_path)
        loop = self._loop(ModeKeys.PREDICT, data, lambda: predict_lib.PredictLoop(
            deployment=deployment, cache=self._cache,
            model_function=self._model_function(ModeKeys.PREDICT, data.per_replica_batch_size),
            has_labels=data.has_labels, padded=pad_to is not None))
        # The input pipeline lives exactly as long as this generator runs: exhausted, closed
        # or dropped, it is released (input_release.py).
        with input_release.OwnedInput(data) as pipeline:
            loop.trace(pipeline.iterator)  # model_fn's prediction_hooks exist once traced
            # Hooks run once per predicted batch (one Session.run per batch in TF1); prediction
            # hooks may fetch variables, not tensors of the pruned predict step.
            hook_runner = HookRunner(
                list(hooks or ()) + list(loop.hooks), variables=self._model_variables(),
                global_step=self._cache["global_step"], strategy=deployment.strategy,
                build_graph=self._build_graphs.get(ModeKeys.PREDICT))
            hook_runner.begin()
            run_batches, sizer = None, None
            if predict_fusion.decline_reason(hooks=hook_runner.hooks,
                                             num_replicas=deployment.num_replicas,
                                             prediction_specs=loop.prediction_specs) is None:
                # Several batches per call (predict_fusion.py): no hook sees each batch.
                run_batches = lambda size: hook_runner.run_loop(  # noqa: E731
                    lambda: loop.run_batches(pipeline.iterator, size))
                sizer = predict_fusion.BatchSizer()
            try:
                for batch in controller.run_prediction(
                        run_batch=lambda: hook_runner.run_loop(lambda: loop(pipeline.iterator)),
                        data_steps=data.steps_available, should_stop=hook_runner.stop_requested,
                        run_batches=run_batches, sizer=sizer):
                    yield from predict_lib.examples(predict_lib.select_keys(batch, predict_keys),
                                                    yield_single_examples)
            finally:
                loop.unbind()
            hook_runner.end()

    # ---- evaluate ------------------------------------------------------------------------
    def _check_evaluate(self, steps):
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")

    def _eval_run_loop(self, hook_runner, eval_loop, iterator, data_steps):
        """`num_steps -> loss sum` of the eval loops; with data of unknown length (run one step
        per call until OutOfRange) the call that finds the data exhausted leaves the metric
        variables as they were: a traced step runs every stateful op that does not wait for the
        input (`tf.compat.v1.metrics.mean` adds a static batch size to its count), where TF1's
        last session.run stopped at the iterator."""
        def run_loop(num_steps):
            before = (self._host_cache.snapshot() if data_steps == inputs.UNKNOWN_STEPS
                      else None)
            try:
                return hook_runner.run_loop(lambda: eval_loop(iterator, num_steps))
            except tf.errors.OutOfRangeError:
                if before is not None:
                    self._host_cache.restore(before)
                raise
        return run_loop

    def _eval_runs_to_end(self, data) -> bool:
        """Whether evaluate() runs data of unknown length in one loop that ends with the data;
        not with step fusion off, nor on several replicas (a short last batch is split across
        them one step at a time): there each step is one call until OutOfRange."""
        return (data.steps_available == inputs.UNKNOWN_STEPS and step_fusion.enabled()
                and self._deployment.num_replicas == 1)

    def _eval_run_to_end(self, hook_runner, eval_loop, iterator):
        """`max_steps -> (loss sum, steps)` when the loop runs to the data's end, else None."""
        if not eval_loop.runs_to_end:
            return None
        return lambda max_steps: hook_runner.run_loop(
            lambda: eval_loop.run_to_end(iterator, max_steps))

    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Evaluates the latest checkpoint (or `checkpoint_path`) on input_fn's batches.

        Returns:
          dict of the metrics, `loss` (the unweighted float32 mean of the per-step losses) and
          `global_step` (the restored step), as numpy scalars.
        """
        self._check_evaluate(steps)
        deployment = self._ensure_deployment()
        data = self._make_input(input_fn, ModeKeys.EVAL)
        self._build(ModeKeys.EVAL, data)
        self._restore_or_initialize(ModeKeys.EVAL, checkpoint_path)
        eval_loop = self._loop(ModeKeys.EVAL, data, lambda: loops.EvalLoop(
            deployment=deployment, cache=self._cache, host_cache=self._host_cache,
            model_function=self._model_function(ModeKeys.EVAL, data.per_replica_batch_size),
            has_labels=data.has_labels))
        self._host_cache.reset_to_initial_values()
        eval_loop.runs_to_end = self._eval_runs_to_end(data)
        # The input pipeline lives exactly as long as this call (input_release.py).
        with input_release.OwnedInput(data, loops=[eval_loop]) as pipeline:
            hook_runner = self._hook_runner(hooks, eval_loop, pipeline.iterator, ModeKeys.EVAL)
            loss, _ = controller.run_evaluation(
                run_loop=self._eval_run_loop(hook_runner, eval_loop, pipeline.iterator,
                                             data.steps_available),
                num_steps=steps, data_steps=data.steps_available,
                run_to_end=self._eval_run_to_end(hook_runner, eval_loop, pipeline.iterator))
            hook_runner.end()
        results = {key: np.asarray(value)[()] for key, value in eval_loop.final_values().items()}
        results["loss"] = np.float32(loss)
        results["global_step"] = np.int64(self._global_step())
        controller.write_evaluation_summaries(results, output_dir=self._output_dir(), name=name)
        return results


class TPUEstimator(_EstimatorBase):
    """`tf.contrib.tpu.TPUEstimator` / `tf.compat.v1.estimator.tpu.TPUEstimator` on tf.distribute.

    Same constructor and methods. `use_tpu=False` runs TPUEstimator's CPU path on one device
    (params['batch_size'] = the global batch, params['use_tpu'] = False). `use_tpu=True` runs
    R replicas with TPU semantics (`estimator_bridge.runtime.distribute` says how R is chosen):
    params['batch_size'] = G/R per replica, static input shapes required, eval_metrics tensors
    concatenated across replicas, evaluate(steps=...) required.

    Raises (constructor, in TF 1.15's order): ValueError for a missing/plain RunConfig,
    reserved params keys, invalid batch sizes (use_tpu=True), model_fn without `features` or
    `params`, model_dir conflicts.
    """

    _require_params = True

    def __init__(self, model_fn=None, model_dir=None, config=None, params=None, use_tpu=True,
                 train_batch_size=None, eval_batch_size=None, predict_batch_size=None,
                 batch_axis=None, eval_on_tpu=True,
                 export_to_tpu=export_lib.EXPORT_TO_TPU_DEFAULT, export_to_cpu=True,
                 warm_start_from=None, embedding_config_spec=None,
                 export_saved_model_api_version=1):
        if config is None or not isinstance(config, RunConfig):
            raise ValueError(
                "`config` must be provided with type `tpu_config.RunConfig`; got "
                f"{type(config).__name__}. Pass config=estimator_bridge.RunConfig(...).")
        if params is not None and any(key in params for key in _RESERVED_PARAMS_KEYS):
            raise ValueError(f"{_RESERVED_PARAMS_KEYS} are reserved keys but existed in params "
                             f"{params}. Rename those keys: TPUEstimator sets them.")
        if use_tpu:
            if train_batch_size is None:
                raise ValueError("`train_batch_size` cannot be `None`; pass the global training "
                                 "batch size, e.g. train_batch_size=1024.")
            for field, value in (("train_batch_size", train_batch_size),
                                 ("eval_batch_size", eval_batch_size),
                                 ("predict_batch_size", predict_batch_size)):
                if value is None:
                    continue
                if not isinstance(value, int) or isinstance(value, bool):
                    raise TypeError(f"{field} must be int, got {type(value)}")
                if value <= 0:
                    raise ValueError(f"{field} must be positive, got {value}")
        if model_fn is None:
            raise ValueError("model_fn must be provided to TPUEstimator.")
        calling.verify_model_fn_args(model_fn, params, require_params=True)
        if export_saved_model_api_version not in (1, 2):
            raise ValueError("export_saved_model_api_version should be 1 or 2; got "
                             f"{export_saved_model_api_version!r}.")
        arguments.check_all("TPUEstimator", {"batch_axis": batch_axis,
                                             "embedding_config_spec": embedding_config_spec})
        _check_input_deployment(config, use_tpu)
        warm_start_settings = warm_start.settings_from(warm_start_from)
        super().__init__(model_fn, model_dir, config, params, use_tpu=use_tpu)
        self._warm_start_settings = warm_start_settings
        self._train_batch_size = train_batch_size
        self._eval_batch_size = eval_batch_size
        self._predict_batch_size = predict_batch_size
        self._eval_on_tpu = eval_on_tpu
        self._export_to_tpu = export_to_tpu
        self._export_to_cpu = export_to_cpu

    def _check_export_targets(self):
        export_lib.check_export_targets(self._export_to_tpu, self._export_to_cpu)

    def _model_params_use_tpu(self):
        return bool(self._use_tpu)

    def _global_batch_size(self, mode):
        return {ModeKeys.TRAIN: self._train_batch_size, ModeKeys.EVAL: self._eval_batch_size,
                ModeKeys.PREDICT: self._predict_batch_size}[mode]

    def _rate_cadence(self) -> dict:
        """TPUEstimator's ExamplesPerSecondHook: every ceil(log_step_count_steps /
        iterations_per_loop) steps, into model_dir only with save_summary_steps."""
        every_steps, every_secs = step_rate.tpu_estimator_cadence(
            self._config.log_step_count_steps, self._config.tpu_config.iterations)
        return {"rate_every_steps": every_steps, "rate_every_secs": every_secs,
                "write_rates": bool(self._config.save_summary_steps)}

    def _choose_deployment(self):
        return distribute.choose_deployment(self._config, use_tpu=self._use_tpu)

    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """As `Estimator.evaluate`; `eval_on_tpu=False` evaluates on TPUEstimator's CPU path.

        With use_tpu=True, eval_on_tpu=False and several cores, TF1 evaluated on the CPU: one
        device, params['batch_size'] = eval_batch_size, params['use_tpu'] = False, a plain
        EstimatorSpec accepted. The bridge does the same by evaluating the checkpoint with a
        use_tpu=False twin of this estimator (same model_dir, model_fn, params, batch sizes).
        With one core TF1 ignored eval_on_tpu (`_OneCoreTPUContext`), and so does the bridge.
        """
        if self._use_tpu and not self._eval_on_tpu and (self._config.tpu_config.num_shards or 1) > 1:
            return self._cpu_twin().evaluate(input_fn, steps=steps, hooks=hooks,
                                             checkpoint_path=checkpoint_path, name=name)
        return super().evaluate(input_fn, steps=steps, hooks=hooks,
                                checkpoint_path=checkpoint_path, name=name)

    def _cpu_twin(self):
        if getattr(self, "_cpu_path_twin", None) is None:
            self._cpu_path_twin = TPUEstimator(
                model_fn=self._model_fn, config=self._config, params=self._params or None,
                use_tpu=False, train_batch_size=self._train_batch_size,
                eval_batch_size=self._eval_batch_size,
                predict_batch_size=self._predict_batch_size)
        return self._cpu_path_twin

    def _check_evaluate(self, steps):
        super()._check_evaluate(steps)
        if self._use_tpu:
            if steps is None:
                raise ValueError("Evaluate `steps` must be set on TPU. Cannot be `None`. Pass "
                                 "steps=num_eval_examples // eval_batch_size.")
            if self._eval_batch_size is None:
                raise ValueError("eval_batch_size in TPUEstimator constructor cannot be `None` "
                                 "if .evaluate is running on TPU. Pass eval_batch_size=... .")


class Estimator(_EstimatorBase):
    """`tf.estimator.Estimator` (TF1) on one device or on `RunConfig(train_distribute=...)`.

    model_fn may take (features, labels, mode, params, config); params are passed unchanged
    (no batch_size). input_fn may take no arguments.
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        if config is not None and not isinstance(config, RunConfig):
            raise ValueError(f"config must be an estimator_bridge.RunConfig, got "
                             f"{type(config).__name__}.")
        calling.verify_model_fn_args(model_fn, params, require_params=False)
        warm_start_settings = warm_start.settings_from(warm_start_from)
        super().__init__(model_fn, model_dir, config, params, use_tpu=False)
        self._warm_start_settings = warm_start_settings

    def _model_params_use_tpu(self):
        return None  # params reach model_fn unchanged

    def _steps_per_loop(self) -> int:
        """One: TF1's Estimator ran one Session.run, and its hooks, per step (step fusion,
        runtime/step_fusion.py, runs the steps no observer needs in one loop)."""
        return 1

    def _global_batch_size(self, mode):
        return None

    def _export_model_function(self):
        return self._model_function(ModeKeys.PREDICT, None)

    def _choose_deployment(self):
        return distribute.choose_deployment(self._config, use_tpu=False)
