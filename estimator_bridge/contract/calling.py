"""Calling input_fn and model_fn as TPUEstimator did: arguments by signature, params injected.

TPUEstimator passes only the arguments a function declares (`features` always; `labels`, `mode`,
`params`, `config` when present), requires `params` (the batch size travels in it) and hands
every call a deep copy of the user's params (docs/semantics.md sections 3 and 4). Its
`_ModelFnWrapper` added `batch_size` (the per-replica batch) and `use_tpu` to that copy,
accepted a TPUEstimatorSpec or a plain EstimatorSpec, and on the CPU path called `scaffold_fn`.
`ModelFunction` binds all of that once (params, config, mode, batch size); `ModelOutputs` is
the single shape the loops consume, whatever the spec.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import inspect

import tensorflow as tf

from tensorflow.python.framework.func_graph import FuncGraph

from estimator_bridge.spec import (EstimatorSpec, TPUEstimatorSpec, check_scaffold,
                                   session_init_of)

_MODEL_FN_ARGS = {"features", "labels", "mode", "params", "config", "self"}


def fn_args(fn) -> tuple:
    """Names of the arguments `fn` takes, seeing through functools.partial and bound methods."""
    if isinstance(fn, functools.partial):
        bound = set(fn.keywords or {})
        names = fn_args(fn.func)[len(fn.args):]
        return tuple(name for name in names if name not in bound)
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(fn, "__call__", fn)
    parameters = inspect.signature(target).parameters.values()
    return tuple(p.name for p in parameters
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def _name(fn) -> str:
    return getattr(fn, "__name__", None) or repr(fn)


def verify_model_fn_args(model_fn, params, *, require_params: bool) -> None:
    """The checks of `estimator._verify_model_fn_args` plus TPUEstimator's `params` requirement."""
    args = set(fn_args(model_fn))
    if "features" not in args:
        raise ValueError(f"model_fn ({_name(model_fn)}) must include features argument. Declare "
                         "it as model_fn(features, labels, mode, params).")
    if require_params and "params" not in args:
        raise ValueError(
            f"model_fn ({_name(model_fn)}) does not include params argument, required by "
            "TPUEstimator to pass batch size as params['batch_size']. Add `params` to its "
            "signature: model_fn(features, labels, mode, params).")
    if params and "params" not in args:
        raise ValueError(f"model_fn ({_name(model_fn)}) does not include params argument, but "
                         f"params ({params!r}) is passed to Estimator. Add `params` to its "
                         "signature or drop params=.")
    unexpected = sorted(args - _MODEL_FN_ARGS)
    if unexpected:
        raise ValueError(f"model_fn ({_name(model_fn)}) has following not expected args: "
                         f"{unexpected}. A model_fn may only take features, labels, mode, params "
                         "and config.")


def call_input_fn(input_fn, *, mode, params, config, require_params: bool):
    """Calls input_fn with a deep copy of params (plus the batch size) and what else it declares."""
    args = fn_args(input_fn)
    kwargs = {}
    if "params" in args:
        kwargs["params"] = copy.deepcopy(params)
    elif require_params:
        raise ValueError(
            f"input_fn ({_name(input_fn)}) does not include params argument, required by "
            "TPUEstimator to pass batch size as params[\"batch_size\"]. Add `params` to its "
            "signature: input_fn(params).")
    if "mode" in args:
        kwargs["mode"] = mode
    if "config" in args:
        kwargs["config"] = config
    if "input_context" in args:
        kwargs["input_context"] = None
    unfilled = _required_args(input_fn, exclude=kwargs)
    if unfilled:
        raise ValueError(
            f"input_fn ({_name(input_fn)}) requires argument(s) {unfilled} that the estimator "
            "does not pass: it calls input_fn with params, mode, config and input_context only, "
            "when declared. Give them defaults or bind them first: "
            "functools.partial(input_fn, ...).")
    return input_fn(**kwargs)


def _required_args(fn, *, exclude) -> list:
    """Arguments of fn without a default, other than `exclude` (what the caller passes)."""
    try:
        target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) or isinstance(
            fn, functools.partial) else getattr(fn, "__call__", fn)
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return []
    return [p.name for p in parameters
            if p.default is p.empty and p.name not in exclude
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def call_model_fn(model_fn, *, features, labels, mode, params, config,
                  around_user_code=contextlib.nullcontext):
    """Calls model_fn as `_ModelFnWrapper._call_model_fn` did: only the arguments it declares.

    `around_user_code` is entered around the call: the runtime passes
    `warm_start.intercepting`, so that init_from_checkpoint is applied once, not per step.
    """
    args = fn_args(model_fn)
    kwargs = {}
    if "labels" in args:
        kwargs["labels"] = labels
    elif labels is not None:
        raise ValueError("model_fn does not take labels, but input_fn returns labels. Add "
                         f"`labels` to the signature of {_name(model_fn)} or return features only.")
    if "mode" in args:
        kwargs["mode"] = mode
    if "params" in args:
        kwargs["params"] = copy.deepcopy(params)
    if "config" in args:
        kwargs["config"] = copy.deepcopy(config)
    with around_user_code():
        return model_fn(features=features, **kwargs)


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
      restore_map: `{checkpoint name: variable}` of the scaffold's Saver (evaluation and
        prediction restore through it, as TF1's did), or None.
      session_init: the Scaffold scaffold_fn returned when it sets init_op/init_feed_dict/
        init_fn (the build pass runs them: runtime/scaffold_init.py), else None.
    """

    loss: object
    train_op: object
    eval_metrics: object
    eval_metric_ops: object
    host_call: object
    predictions: object
    hooks: tuple
    spec: object
    restore_map: dict | None = None
    session_init: object = None


class ModelFunction:
    """model_fn bound to what TPUEstimator passed it in one mode: `outputs = bound(features, labels)`.

    Args:
      model_fn: the user's model_fn.
      params: the user's params (deep-copied for every call).
      config: the RunConfig passed to model_fn if it declares `config`.
      mode: the ModeKeys value of every call.
      batch_size: params['batch_size'] (the per-replica batch), or None to leave it out.
      use_tpu: params['use_tpu'] (False on TPUEstimator's CPU path); None for
        tf.estimator.Estimator, which passes params unchanged (neither key added).
      around_user_code: a context manager factory entered around every call of user code
        (model_fn, scaffold_fn); the runtime passes `warm_start.intercepting`.
    """

    def __init__(self, model_fn, *, params, config, mode, batch_size=None, use_tpu=None,
                 around_user_code=contextlib.nullcontext):
        self.model_fn = model_fn
        self.mode = mode
        self.batch_size = batch_size
        self._params = dict(params)
        if use_tpu is not None:  # TPUEstimator's _ModelFnWrapper
            if batch_size is not None:
                self._params["batch_size"] = batch_size
            self._params["use_tpu"] = use_tpu
        self._config = config
        self._around_user_code = around_user_code

    def __call__(self, features, labels) -> ModelOutputs:
        spec = call_model_fn(self.model_fn, features=features, labels=labels, mode=self.mode,
                             params=self._params, config=self._config,
                             around_user_code=self._around_user_code)
        return _normalise(spec, self.mode, self.model_fn, self._around_user_code,
                          is_chief=getattr(self._config, "is_chief", True))


def _normalise(spec, mode, model_fn, around_user_code=contextlib.nullcontext, *,
               is_chief=True) -> ModelOutputs:
    if isinstance(spec, TPUEstimatorSpec):
        restore_map = session_init = None
        if spec.scaffold_fn is not None and not _in_traced_function():
            with around_user_code():  # BERT: init_from_checkpoint in scaffold_fn
                scaffold = spec.scaffold_fn()
            restore_map = check_scaffold(scaffold, "the Scaffold returned by scaffold_fn", mode,
                                         session_init=True)
            session_init = session_init_of(scaffold)
        hooks = {"train": spec.training_hooks, "eval": spec.evaluation_hooks,
                 "infer": spec.prediction_hooks}[mode]
        return ModelOutputs(spec.loss, spec.train_op, spec.eval_metrics, None, spec.host_call,
                            spec.predictions, tuple(hooks), spec, restore_map, session_init)
    if isinstance(spec, EstimatorSpec) or _looks_like_estimator_spec(spec):
        restore_map = check_scaffold(getattr(spec, "scaffold", None),
                                     "EstimatorSpec(scaffold=...)", mode)
        hooks = {"train": spec.training_hooks, "eval": spec.evaluation_hooks,
                 "infer": spec.prediction_hooks}[mode]
        hooks = tuple(hooks or ())
        if mode == "train" and is_chief:
            # TF1's MonitoredTrainingSession ran chief_only_hooks after the others.
            hooks += tuple(getattr(spec, "training_chief_hooks", None) or ())
        return ModelOutputs(spec.loss, spec.train_op, None, spec.eval_metric_ops, None,
                            spec.predictions, hooks, spec, restore_map)
    raise TypeError(
        f"model_fn ({getattr(model_fn, '__name__', model_fn)}) returned {type(spec).__name__} "
        f"{spec!r:.200}; it must return estimator_bridge.TPUEstimatorSpec or EstimatorSpec.")


def _in_traced_function() -> bool:
    """model_fn is being traced into a step (a FuncGraph), not built in a plain graph.

    TF1 called scaffold_fn once per graph, so what it builds (a Saver, an init_op's assigns)
    never ran in a step. The bridge calls it where the graph is plain: the build pass of each
    mode (which keeps its Saver's restore map and runs its init ops once) and export; a traced
    step never calls it, or its assigns would run at every step.
    """
    return isinstance(tf.compat.v1.get_default_graph(), FuncGraph)


def _looks_like_estimator_spec(spec) -> bool:
    """A tf.estimator.EstimatorSpec from another package (e.g. under the compat runner)."""
    return all(hasattr(spec, field) for field in ("eval_metric_ops", "train_op", "loss",
                                                  "training_hooks", "scaffold"))


def zeros_like_spec(tensor_spec: tf.TensorSpec) -> tf.Tensor:
    """A zero-length batch with the spec's other dimensions (unknown ones become 0)."""
    dims = [0] + [d if d is not None else 0 for d in tensor_spec.shape.as_list()[1:]]
    return tf.zeros(dims, tensor_spec.dtype)
