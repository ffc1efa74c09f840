"""predict(): model_fn in PREDICT mode over input_fn's batches, yielding numpy predictions.

One traced step per call (`strategy.run` of a pruned TF1-style graph: only the predictions are
fetched, as TF1's `session.run(predictions)`), predictions gathered from the replicas in replica
order; or, fused (predict_fusion.py), several batches per call (`run_batches`). With R emulated TPU cores every batch must have the global batch size, so a short last
batch is zero-padded to it and the padding rows are dropped on the host (TPUEstimator's
`_PaddingSignals`, docs/semantics.md section 3); users never see them.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from estimator_bridge.runtime import graph_step
from estimator_bridge.runtime.bound_call import BoundLoop
from estimator_bridge.contract import metrics as metrics_lib


def pad_batches(dataset, global_batch_size):
    """(features, labels) batches -> ((padded features, padded labels), mask of real rows)."""
    def pad(features, labels):
        rows = tf.shape(tf.nest.flatten(features)[0])[0]

        def pad_one(tensor):
            padding = [[0, global_batch_size - rows]] + [[0, 0]] * (tensor.shape.rank - 1)
            padded = tf.pad(tensor, padding)
            return tf.ensure_shape(padded, [global_batch_size] + tensor.shape.as_list()[1:])

        mask = tf.ensure_shape(tf.pad(tf.ones([rows], tf.int32),
                                      [[0, global_batch_size - rows]]), [global_batch_size])
        return (tf.nest.map_structure(pad_one, features),
                tf.nest.map_structure(pad_one, labels)), mask
    return dataset.map(pad)


class PredictLoop:
    """`loop(iterator) -> {name: numpy batch}` (or one numpy batch), one trace for all calls;
    `loop.run_batches(iterator, n)`: up to n such batches in one call (fewer where the data
    ends)."""

    def __init__(self, *, deployment, cache, model_function, has_labels, padded: bool):
        self._deployment = deployment
        self._cache = cache
        self._model_function = model_function
        self._has_labels = has_labels
        self._padded = padded
        self._structure = None
        self.hooks = ()
        self._function = tf.function(self._step, autograph=False)
        self._batches_function = tf.function(self._batches, autograph=False)
        self._output_specs = None  # (flat prediction specs, rows spec) of the traced step
        # (input specs, pruned replica step) of the first trace: the fused loop's trace calls
        # the same step instead of building model_fn a second time (one replica only).
        self._pruned_step = None
        self._bound = None  # the BoundLoop of run_batches on the current predict()'s iterator

    def trace(self, iterator) -> None:
        """Traces the step without running it (model_fn's prediction_hooks exist afterwards)."""
        if self._structure is None:
            with self._cache.scope():
                concrete = self._function.get_concrete_function(iterator)
            predictions, rows = concrete.structured_outputs
            self._output_specs = ([tf.TensorSpec(t.shape, t.dtype)
                                   for t in tf.nest.flatten(predictions)], rows)

    @property
    def prediction_specs(self) -> list:
        """The flat predictions' specs (after `trace`)."""
        return self._output_specs[0]

    def run_batches(self, iterator, max_batches: int) -> list:
        """Up to `max_batches` predicted batches, as `__call__` gives each, in one traced call;
        fewer where the data ends (none: it had ended). Each batch runs only once it arrived,
        so nothing runs past the end of the data."""
        if self._bound is None or self._bound.iterator is not iterator:
            with self._cache.scope():
                self._bound = BoundLoop(self._batches_function, iterator)
        concatenated, lengths, rows = self._bound(max_batches)
        lengths, rows = lengths.numpy(), rows.numpy()
        # Batch b of prediction i is rows offsets[b, i]:offsets[b, i] + lengths[b, i] of its
        # concatenation, cut to the batch's real rows as __call__ cuts it.
        offsets = np.cumsum(lengths, axis=0) - lengths
        flat = [np.asarray(value) for value in concatenated]
        return [tf.nest.pack_sequence_as(self._structure, [
            value[offsets[b, i]:offsets[b, i] + lengths[b, i]][:int(rows[b])]
            for i, value in enumerate(flat)]) for b in range(len(rows))]

    def unbind(self) -> None:
        """Forgets the iterator of the predict() that ended."""
        self._bound = None

    def __call__(self, iterator):
        with self._cache.scope():
            predictions, rows = self._function(iterator)
        flat = [np.asarray(value)[:int(rows)] for value in tf.nest.flatten(predictions)]
        return tf.nest.pack_sequence_as(self._structure, flat)

    def _replica_step(self, features, labels):
        flat_inputs = tf.nest.flatten((features, labels))
        input_specs = [tf.TensorSpec(tensor.shape, tensor.dtype) for tensor in flat_inputs]
        if self._pruned_step is not None and self._pruned_step[0] == input_specs:
            pruned = self._pruned_step[1]
        else:
            built = {}

            def fetch_predictions(step_features, step_labels):
                outputs = graph_step.call_model_fn(
                    cache=self._cache, model_function=self._model_function,
                    features=step_features, labels=step_labels if self._has_labels else None)
                built["structure"] = outputs.predictions
                self.hooks = outputs.hooks
                return [tf.identity(t) for t in tf.nest.flatten(outputs.predictions)]

            pruned = graph_step.pruned_step(fetch_predictions, (features, labels))
            self._structure = built["structure"]
            if self._deployment.num_replicas == 1:
                # Several replicas each build their own step (their own variable copies).
                self._pruned_step = (input_specs, pruned)
        return tf.nest.pack_sequence_as(self._structure, list(pruned(*flat_inputs)))

    def _step(self, iterator):
        self._cache.begin_trace()
        return self._predict(iterator.get_next())

    def _predict(self, element):
        strategy = self._deployment.strategy
        if self._padded:
            (features, labels), mask = element
        else:
            (features, labels), mask = element, None
        predictions = strategy.run(self._replica_step, args=(features, labels))
        gathered = metrics_lib.gather_replicas(strategy, predictions, tpu_semantics=False,
                                               name="predictions")
        if mask is None:
            rows = tf.shape(tf.nest.flatten(gathered)[0])[0]
        else:  # padding rows are at the end of the global batch
            rows = tf.reduce_sum(metrics_lib.gather_replicas(
                strategy, mask, tpu_semantics=False, name="padding mask"))
        return gathered, rows


    def _batches(self, iterator, max_batches):
        """The fused loop: per batch that arrived, its flat predictions (concatenated along
        the batch axis over the batches), their lengths and the batch's real rows."""
        self._cache.begin_trace()
        flat_specs, _ = self._output_specs

        def concatenable(spec):
            return tf.TensorArray(spec.dtype, size=0, dynamic_size=True, infer_shape=False,
                                  element_shape=tf.TensorShape([None]).concatenate(spec.shape[1:]))

        def body(index, predictions, lengths, rows, _):
            batch = iterator.get_next_as_optional()
            arrived = batch.has_value()

            def run_batch():
                # The optional's value forgets the static shapes; model_fn sees what
                # get_next() would give (loops.EvalLoop._loop_to_end).
                element = tf.nest.map_structure(
                    lambda value, spec: tf.ensure_shape(value, spec.shape),
                    batch.get_value(), iterator.element_spec)
                batch_predictions, batch_rows = self._predict(element)
                flat = tf.nest.flatten(batch_predictions)
                return (index + 1,
                        [array.write(index, value) for array, value in zip(predictions, flat)],
                        lengths.write(index, tf.stack([tf.shape(value)[0] for value in flat])),
                        rows.write(index, tf.cast(batch_rows, tf.int32)))

            index, predictions, lengths, rows = tf.cond(
                arrived, run_batch, lambda: (index, predictions, lengths, rows))
            return index, predictions, lengths, rows, arrived

        batches, predictions, lengths, rows, _ = tf.while_loop(
            lambda index, *rest: tf.logical_and(rest[-1], index < max_batches), body,
            (tf.constant(0), [concatenable(spec) for spec in flat_specs],
             tf.TensorArray(tf.int32, size=0, dynamic_size=True,
                            element_shape=tf.TensorShape([len(flat_specs)])),
             tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=tf.TensorShape([])),
             tf.constant(True)))

        def concatenated(array, spec):
            # TensorArray.concat of no batch has no shape to give; say it.
            return tf.cond(batches > 0, array.concat,
                           lambda: tf.zeros([0] * spec.shape.rank, spec.dtype))

        return ([concatenated(array, spec) for array, spec in zip(predictions, flat_specs)],
                lengths.stack(), rows.stack())


def select_keys(predictions, predict_keys):
    """Filters dict predictions by predict_keys, with TF1's errors."""
    if predict_keys is None:
        return predictions
    if not isinstance(predictions, dict):
        raise ValueError("predict_keys argument is not valid in case of non-dict predictions. "
                         f"model_fn returned a {type(predictions).__name__}; drop predict_keys or "
                         "return predictions={'name': tensor}.")
    keys = [predict_keys] if isinstance(predict_keys, str) else list(predict_keys)
    missing = [key for key in keys if key not in predictions]
    if missing:
        raise ValueError(f"Expected to run at least one output from {sorted(predictions)}, "
                         f"provided {keys}. Unknown: {missing}.")
    return {key: predictions[key] for key in keys}


def examples(batch, yield_single_examples: bool):
    """Yields the batch whole, or example by example (dict rows or tensor rows)."""
    if not yield_single_examples:
        yield batch
        return
    if isinstance(batch, dict):
        lengths = {key: value.shape[0] for key, value in batch.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError(f"Batch length of predictions should be same. {lengths} have "
                             "different batch length. Return predictions with one row per "
                             "example, or pass yield_single_examples=False.")
        for index in range(next(iter(lengths.values()), 0)):
            yield {key: value[index] for key, value in batch.items()}
    else:
        yield from batch
