"""One call of the user's model_fn inside a trace: params injected, spec normalised.

TPUEstimator's `_ModelFnWrapper` added `batch_size` (the per-replica batch) and `use_tpu` to a
deep copy of params, accepted a TPUEstimatorSpec or a plain EstimatorSpec, and on the CPU path
called `scaffold_fn`. `ModelOutputs` is the single shape the loops consume, whatever the spec.
"""

from __future__ import annotations

import contextlib
import dataclasses

import tensorflow as tf

from estimator_bridge.contract import calling
from estimator_bridge.spec import EstimatorSpec, TPUEstimatorSpec


@dataclasses.dataclass
class ModelOutputs:
    """A model_fn's spec, normalised.

    Attributes:
      loss: scalar loss tensor (None in PREDICT).
      train_op: the train op (TRAIN).
      eval_metrics: `(metric_fn, tensors)` to run on the host, or None.
      eval_metric_ops: `{name: (value, update_op)}` built inside model_fn, or None.
      host_call: `(fn, tensors)` or None.
      predictions: predictions (PREDICT).
      hooks: the spec's hooks for this mode.
      spec: the spec model_fn returned.
    """

    loss: object
    train_op: object
    eval_metrics: object
    eval_metric_ops: object
    host_call: object
    predictions: object
    hooks: tuple
    spec: object


class ModelFunction:
    """Calls model_fn with the params TPUEstimator would have passed.

    Args:
      model_fn: the user's model_fn.
      params: the user's params (copied per call).
      config: the RunConfig passed to model_fn if it declares `config`.
      use_tpu: the value injected as params['use_tpu'] (False on the CPU path).
      around_user_code: a context manager factory entered around every call of user code
        (model_fn, scaffold_fn); the runtime passes `warm_start.intercepting`.
    """

    def __init__(self, model_fn, *, params, config, use_tpu: bool,
                 around_user_code=contextlib.nullcontext):
        self._model_fn = model_fn
        self._params = dict(params)
        self._config = config
        self._use_tpu = use_tpu
        self._around_user_code = around_user_code

    def __call__(self, features, labels, mode, *, batch_size) -> ModelOutputs:
        params = dict(self._params)
        if batch_size is not None:
            params["batch_size"] = batch_size
        params["use_tpu"] = self._use_tpu
        spec = calling.call_model_fn(self._model_fn, features=features, labels=labels, mode=mode,
                                     params=params, config=self._config,
                                     around_user_code=self._around_user_code)
        return _normalise(spec, mode, self._model_fn, self._around_user_code)


def _normalise(spec, mode, model_fn, around_user_code=contextlib.nullcontext) -> ModelOutputs:
    if isinstance(spec, TPUEstimatorSpec):
        if spec.scaffold_fn is not None:
            with around_user_code():  # BERT: init_from_checkpoint in scaffold_fn
                spec.scaffold_fn()
        hooks = {"train": spec.training_hooks, "eval": spec.evaluation_hooks,
                 "infer": spec.prediction_hooks}[mode]
        return ModelOutputs(spec.loss, spec.train_op, spec.eval_metrics, None, spec.host_call,
                            spec.predictions, tuple(hooks), spec)
    if isinstance(spec, EstimatorSpec) or _looks_like_estimator_spec(spec):
        hooks = {"train": spec.training_hooks, "eval": spec.evaluation_hooks,
                 "infer": spec.prediction_hooks}[mode]
        return ModelOutputs(spec.loss, spec.train_op, None, spec.eval_metric_ops, None,
                            spec.predictions, tuple(hooks or ()), spec)
    raise TypeError(
        f"model_fn ({getattr(model_fn, '__name__', model_fn)}) returned {type(spec).__name__} "
        f"{spec!r:.200}; it must return estimator_bridge.TPUEstimatorSpec or EstimatorSpec.")


def _looks_like_estimator_spec(spec) -> bool:
    """A tf.estimator.EstimatorSpec from another package (e.g. under the compat runner)."""
    return all(hasattr(spec, field) for field in ("eval_metric_ops", "train_op", "loss",
                                                  "training_hooks", "scaffold"))


def zeros_like_spec(tensor_spec: tf.TensorSpec) -> tf.Tensor:
    """A zero-length batch with the spec's other dimensions (unknown ones become 0)."""
    dims = [0] + [d if d is not None else 0 for d in tensor_spec.shape.as_list()[1:]]
    return tf.zeros(dims, tensor_spec.dtype)
