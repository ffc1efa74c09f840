"""predict(): model_fn in PREDICT mode over input_fn's batches, yielding numpy predictions.

One traced step per call (`strategy.run` of a pruned TF1-style graph: only the predictions are
fetched, as TF1's `session.run(predictions)`), predictions gathered from the replicas in replica
order. With R emulated TPU cores every batch must have the global batch size, so a short last
batch is zero-padded to it and the padding rows are dropped on the host (TPUEstimator's
`_PaddingSignals`, docs/semantics.md section 3); users never see them.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from estimator_bridge.runtime import graph_step
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
    """`loop(iterator) -> {name: numpy batch}` (or one numpy batch), one trace for all calls."""

    def __init__(self, *, deployment, cache, model_function, has_labels, padded: bool):
        self._deployment = deployment
        self._cache = cache
        self._model_function = model_function
        self._has_labels = has_labels
        self._padded = padded
        self._structure = None
        self.hooks = ()
        self._function = tf.function(self._step, autograph=False)

    def trace(self, iterator) -> None:
        """Traces the step without running it (model_fn's prediction_hooks exist afterwards)."""
        if self._structure is None:
            with self._cache.scope():
                self._function.get_concrete_function(iterator)

    def __call__(self, iterator):
        with self._cache.scope():
            predictions, rows = self._function(iterator)
        flat = [np.asarray(value)[:int(rows)] for value in tf.nest.flatten(predictions)]
        return tf.nest.pack_sequence_as(self._structure, flat)

    def _replica_step(self, features, labels):
        built = {}

        def fetch_predictions(step_features, step_labels):
            outputs = graph_step.call_model_fn(
                cache=self._cache, model_function=self._model_function, features=step_features,
                labels=step_labels if self._has_labels else None)
            built["structure"] = outputs.predictions
            self.hooks = outputs.hooks
            return [tf.identity(t) for t in tf.nest.flatten(outputs.predictions)]

        predictions = graph_step.call_pruned(fetch_predictions, (features, labels))
        self._structure = built["structure"]
        return tf.nest.pack_sequence_as(self._structure, predictions)

    def _step(self, iterator):
        self._cache.begin_trace()
        strategy = self._deployment.strategy
        element = iterator.get_next()
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
