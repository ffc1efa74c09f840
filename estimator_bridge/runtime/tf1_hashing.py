"""Graph tensors and variables hashable by identity while a TF1 model_fn is traced.

TF 1.x hashed a Tensor or Variable by identity, so TF1 model code keeps them in sets and dicts
(`list(set(ema_vars))`; TF's own `ExponentialMovingAverage.variables_to_restore()` runs
`set(global_variables())`). TF 2.x
raises `TypeError: Variable is unhashable` there (inside `tf.function` too). The compat runner
switches TF1 Tensor equality on for the whole process; a migrated program has no such switch,
and turning equality off process-wide would change `==` for TF2 code. So while the bridge runs a
model_fn (the variable cache's `scope()`), `__hash__` of graph tensors and variables answers
`id(self)`, as it always did when it did not raise: code that worked keeps its behaviour, code
that raised gets TF1's.

`==` and `!=` between variables are identity there too, as in TF 1.15 (and in TF 2's own graph
mode): TF1 model code finds variables in lists with `in` (`if var in trainable_variables[j]`),
which compares with `==`; TF 2.x compares elementwise inside the trace and `in` then asks a
symbolic tensor for its truth ("Using a symbolic `tf.Tensor` as a Python `bool`"). Tensors keep
TF 2's elementwise `==`: no program seen relies on their identity, and TF 2-era op code traced
inside a model_fn may compare tensors with `==`.

A depth counter, not a thread-local: MirroredStrategy runs each replica's model_fn in its own
thread, inside the scope the main thread entered.

The same identity rule for the one graph collection TF's own v1 code searches with `in`: a v1
optimizer's `apply_gradients` runs `if apply_updates not in get_collection_ref(TRAIN_OP)`, which
under TF 2.x's Tensor equality compares the new op with the first optimizer's step tensor
elementwise and fails ("Expected int64 passed to parameter 'y' of op 'Equal'") for a model_fn
with two optimizers (GANs, separately trained heads). `identity_train_op_collection()` gives the trace's TRAIN_OP collection TF1's identity membership.
"""

from __future__ import annotations

import contextlib
import threading

from tensorflow.python.framework import ops as _ops
from tensorflow.python.framework import tensor as _tensor
from tensorflow.python.ops import variables as _variables

_lock = threading.Lock()
_depth = 0


@contextlib.contextmanager
def hashable_by_identity():
    """Within: graph tensors and variables hash by identity (TF1), in every thread."""
    global _depth
    with _lock:
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1


class _IdentityMembership(list):
    """A collection list whose `in` is by identity, as TF1's was for tensors and ops."""

    def __contains__(self, item):
        return any(known is item for known in self)


def identity_train_op_collection() -> None:
    """The current graph's TRAIN_OP collection, with TF1's identity membership (see above)."""
    graph = _ops.get_default_graph()
    key = _ops.GraphKeys.TRAIN_OP
    current = graph.get_collection_ref(key)
    if type(current) is list:  # pylint: disable=unidiomatic-typecheck  (exactly TF's plain list)
        graph._collections[key] = _IdentityMembership(current)  # pylint: disable=protected-access


def _by_identity_when_tracing(original):
    def __hash__(self):
        if _depth:
            return id(self)
        return original(self)

    __hash__.__doc__ = original.__doc__
    __hash__._estimator_bridge_original = original
    return __hash__


def _identity_when_tracing(original, equal: bool):
    def compare(self, other):
        if _depth:
            return (self is other) is equal
        return original(self, other)

    compare.__doc__ = original.__doc__
    compare._estimator_bridge_original = original
    return compare


def _install() -> None:
    for cls in (_tensor.Tensor, _variables.Variable):
        if not hasattr(cls.__hash__, "_estimator_bridge_original"):
            cls.__hash__ = _by_identity_when_tracing(cls.__hash__)
    variable = _variables.Variable
    if not hasattr(variable.__eq__, "_estimator_bridge_original"):
        variable.__eq__ = _identity_when_tracing(variable.__eq__, True)
        variable.__ne__ = _identity_when_tracing(variable.__ne__, False)


_install()
