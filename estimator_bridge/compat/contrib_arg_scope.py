"""`tf.contrib.framework.arg_scope` and `add_arg_scope`: TF 1.15's code, pure Python.

Image models of 2018-2020 (UDA, Inception/ResNet ports, AutoAugment) declare their own layer
functions with `@add_arg_scope` and set shared keyword defaults with `with arg_scope([fn, ...],
decay=..., is_training=...)`. TF 2 has no arg_scope (tf-slim kept a copy); this is TF 1.15's
tensorflow/contrib/framework/python/ops/arg_scope.py with the same stack and keys, so nesting,
re-entering a saved scope (a dict) and the errors behave as in TF 1.15. Keyword arguments
given at the call win over the scope's.
"""

from __future__ import annotations

import contextlib
import functools

__all__ = ["arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope",
           "arg_scoped_arguments", "arg_scope_func_key"]

# The stack of scopes (dicts: function key -> keyword defaults) and every decorated function's
# keyword parameter names. Module state, as in TF 1.15 (scopes are process-wide, not per thread).
_ARGSTACK = [{}]
_DECORATED_OPS = {}


def _get_arg_stack():
    if not _ARGSTACK:
        _ARGSTACK.append({})
    return _ARGSTACK


def current_arg_scope():
    """The innermost scope: {function key: keyword defaults}."""
    return _get_arg_stack()[-1]


def arg_scope_func_key(op):
    return getattr(op, "_key_op", str(op))


def _name_op(op):
    return (op.__module__, op.__name__)


def _kwarg_names(func):
    kwargs_length = len(func.__defaults__) if func.__defaults__ else 0
    return func.__code__.co_varnames[-kwargs_length:func.__code__.co_argcount]


@contextlib.contextmanager
def arg_scope(list_ops_or_scope, **kwargs):
    """Sets keyword defaults for the listed `@add_arg_scope` functions inside the block.

    `list_ops_or_scope` is a list/tuple of decorated functions, or a scope (the dict an
    earlier `with arg_scope(...) as scope` yielded) to re-enter without kwargs.
    """
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a"
                             "dictionary, kwargs must be empty.")
        current_scope = list_ops_or_scope.copy()
        try:
            _get_arg_stack().append(current_scope)
            yield current_scope
        finally:
            _get_arg_stack().pop()
        return
    if not isinstance(list_ops_or_scope, (list, tuple)):
        raise TypeError("list_ops_or_scope must either be a list/tuple or reused "
                        "scope (i.e. dict)")
    try:
        current_scope = current_arg_scope().copy()
        for op in list_ops_or_scope:
            key = arg_scope_func_key(op)
            if not has_arg_scope(op):
                raise ValueError(f"{_name_op(op)} is not decorated with @add_arg_scope")
            if key in current_scope:
                current_kwargs = current_scope[key].copy()
                current_kwargs.update(kwargs)
                current_scope[key] = current_kwargs
            else:
                current_scope[key] = kwargs.copy()
        _get_arg_stack().append(current_scope)
        yield current_scope
    finally:
        _get_arg_stack().pop()


def add_arg_scope(func):
    """Decorates `func` so that arg_scope can set its keyword arguments."""

    @functools.wraps(func)
    def func_with_args(*args, **kwargs):
        current_scope = current_arg_scope()
        current_args = kwargs
        key_func = arg_scope_func_key(func)
        if key_func in current_scope:
            current_args = current_scope[key_func].copy()
            current_args.update(kwargs)
        return func(*args, **current_args)

    _DECORATED_OPS[arg_scope_func_key(func)] = _kwarg_names(func)
    func_with_args._key_op = arg_scope_func_key(func)
    return func_with_args


def has_arg_scope(func):
    """Whether `func` was decorated with `@add_arg_scope`."""
    return arg_scope_func_key(func) in _DECORATED_OPS


def arg_scoped_arguments(func):
    """The keyword parameter names of a decorated function."""
    assert has_arg_scope(func)
    return _DECORATED_OPS[arg_scope_func_key(func)]
