"""Calling input_fn and model_fn by signature introspection, with params injected as TPUEstimator did.

TPUEstimator passes only the arguments a function declares (`features` always; `labels`, `mode`,
`params`, `config` when present), requires `params` (the batch size travels in it) and hands
every call a deep copy of the user's params (TPUESTIMATOR_SEMANTICS.md sections 3 and 4).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import inspect

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
