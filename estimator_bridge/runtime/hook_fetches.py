"""What a hook's fetches get between loops: model variables and the tensors model_fn's hooks hold.

The rules are those of `estimator_bridge.hooks` (its docstring lists what a fetch may be).
`SpecHookTensors` notices, while a loop is traced, the tensors that model_fn's hooks keep in
their attributes (and the tensors LoggingTensorHooks name) and keeps their last-step values in
host variables; `FetchResolver` turns a fetch into a numpy value or a `HookFetchError` naming
the hook, the fetch and what to do instead.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops

from estimator_bridge.hooks import HookFetchError, LoggingTensorHook, SessionRunHook


def hook_name(hook) -> str:
    return type(hook).__name__


def _describe_fetch(fetch) -> str:
    name = getattr(fetch, "name", None)
    if isinstance(fetch, str):
        return repr(fetch)
    if name is not None:
        kind = "tensor" if isinstance(fetch, tf.Tensor) else type(fetch).__name__
        return f"{kind} {name!r}"
    return f"{type(fetch).__name__} {fetch!r:.120}"


# ---- tensors held by spec hooks: noticed at trace time, last-step values kept on the host ----

def _tensors_held_by(value, found, depth=0):
    """Appends the graph tensors in `value` (attributes, dicts, lists, tuples), in order."""
    if depth > 4:
        return
    if isinstance(value, tf.Tensor) and not hasattr(value, "numpy") and \
            value.graph is ops.get_default_graph():
        if not any(value is seen for seen in found):
            found.append(value)
    elif isinstance(value, dict):
        for item in value.values():
            _tensors_held_by(item, found, depth + 1)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _tensors_held_by(item, found, depth + 1)
    elif isinstance(value, SessionRunHook):
        for name in sorted(vars(value)):
            _tensors_held_by(vars(value)[name], found, depth + 1)


class SpecHookTensors:
    """The tensors that model_fn's hooks hold, kept from the last step of every loop.

    In the replica function `collect(hooks)` returns the tensors the spec hooks hold (one list
    per replica, same order); in the loop body `store(strategy, per_replica)` assigns replica
    0's values to host variables (created once, on the first trace, with an unknown shape).
    After the loop `value_of(tensor)` reads them. `hooks` are replica 0's hook objects: the
    ones the hook runner calls.
    """

    def __init__(self):
        self.hooks = ()
        self._tensors = []
        self._slots = []
        self._names = frozenset()
        self._by_name = {}
        self._traced_names = None

    def require_names(self, names) -> None:
        """Tensor names (e.g. LoggingTensorHook({'probabilities': 'softmax_tensor'})) to keep.

        Raises:
          HookFetchError: the loop was already traced without some of them.
        """
        names = frozenset(names)
        if self._traced_names is not None and not names <= self._traced_names:
            raise HookFetchError(
                f"hooks fetch the tensors named {sorted(names - self._traced_names)}, but this "
                "estimator's training loop was traced (by an earlier train() call) without "
                f"them (it keeps {sorted(self._traced_names)}). Pass the same named-tensor "
                "hooks on the first train() call, or create the hook inside model_fn with the "
                "tensors themselves.")
        self._names = self._names | names

    def collect(self, hooks) -> list:
        context = tf.distribute.get_replica_context()
        replica_id = getattr(context, "_replica_id_in_sync_group", 0)
        if not isinstance(replica_id, int):
            replica_id = tf.get_static_value(replica_id) or 0
        found = []
        for hook in hooks:
            _tensors_held_by(hook, found)
        by_name = {}
        graph = ops.get_default_graph()
        # model_fn ran inside the loop's name scope ("while/", "while/replica_1/"): TF1 names
        # are relative to it.
        scope = graph.get_name_scope()
        for name in sorted(self._names):
            tensor_name = name if ":" in name else name + ":0"
            tensor = None
            for candidate in ([f"{scope}/{tensor_name}"] if scope else []) + [tensor_name]:
                try:
                    tensor = graph.get_tensor_by_name(candidate)
                    break
                except (KeyError, ValueError):
                    continue
            if tensor is None:
                continue  # not a tensor of model_fn: the resolver says so when it is fetched
            by_name[name] = tensor
            if not any(tensor is seen for seen in found):
                found.append(tensor)
        if replica_id == 0:
            self.hooks = tuple(hooks)
            self._tensors = list(found)
            self._by_name = by_name
            self._traced_names = self._names
        return found

    def store(self, strategy, per_replica) -> list:
        """Ops assigning replica 0's tensors to the host slots (run every step)."""
        values = [strategy.experimental_local_results(item)[0] for item in per_replica]
        assigns = []
        for index, value in enumerate(values):
            if index >= len(self._slots):
                with tf.init_scope(), tf.device("/cpu:0"):
                    zeros = np.zeros([d or 0 for d in value.shape.as_list()]
                                     if value.shape.rank is not None else [0],
                                     value.dtype.as_numpy_dtype)
                    from tensorflow.python.ops import resource_variable_ops
                    self._slots.append(resource_variable_ops.ResourceVariable(
                        zeros, trainable=False, shape=tf.TensorShape(None),
                        name=f"hook_fetch_{index}"))
            assigns.append(self._slots[index].assign(value, read_value=False))
        return assigns

    def value_of(self, tensor):
        if isinstance(tensor, str):
            tensor = self._by_name[tensor]
        for index, known in enumerate(self._tensors):
            if known is tensor:
                return self._slots[index].numpy()
        raise KeyError(tensor)


def tensor_names_wanted(hooks) -> set:
    """Names that LoggingTensorHooks will fetch (looked up in model_fn's graph at trace time)."""
    names = set()
    for hook in hooks:
        if isinstance(hook, LoggingTensorHook):
            names.update(value for value in getattr(hook, "_tensors", {}).values()
                         if isinstance(value, str))
    return names


# ---- resolving fetches -----------------------------------------------------------------------

_GLOBAL_STEP_NAMES = ("global_step", "global_step:0")


class FetchResolver:
    """Turns a hook's fetches into numpy values (see the module docstring for what is allowed).

    Args:
      variables: TF1 name -> variable of the model (the VariableCache's).
      spec_tensors: a `SpecHookTensors` of the loop (or None before any loop ran).
    """

    def __init__(self, variables: dict, spec_tensors=None, strategy=None):
        self._variables = variables
        self._spec_tensors = spec_tensors
        self.variables = variables
        self.strategy = strategy

    def resolve(self, fetches, hook, global_step=None):
        """`global_step`: (variable, value after the loop) to answer its fetches without a read."""
        if fetches is None:
            return None
        return tf.nest.map_structure(lambda fetch: self._resolve_one(fetch, hook, global_step),
                                     fetches)

    def _resolve_one(self, fetch, hook, global_step=None):
        if global_step is not None and (fetch is global_step[0] or (
                isinstance(fetch, str) and fetch in _GLOBAL_STEP_NAMES)):
            return np.asarray(global_step[1], dtype=np.int64)
        if isinstance(fetch, tf.Variable) or hasattr(fetch, "_distribute_strategy"):
            return np.asarray(fetch.numpy())
        if isinstance(fetch, str):
            name = fetch[:-2] if fetch.endswith(":0") else fetch
            if name in self._variables:
                return np.asarray(self._variables[name].numpy())
            if self._spec_tensors is not None:
                try:
                    return self._spec_tensors.value_of(fetch)
                except KeyError:
                    pass
            raise HookFetchError(
                f"hook {hook_name(hook)} fetches the tensor named {fetch!r}, which the bridge "
                "cannot compute between loops: it is neither a model variable "
                f"({sorted(self._variables)[:8]}...) nor a tensor of model_fn that a "
                "LoggingTensorHook named before the loop was traced. To log a tensor of "
                "model_fn, name it in a LoggingTensorHook (tf.nn.softmax(logits, name="
                "'softmax_tensor') with LoggingTensorHook({'p': 'softmax_tensor'})), or create "
                "the hook inside model_fn with the tensor itself, e.g. training_hooks=["
                "tf.compat.v1.train.LoggingTensorHook({'loss': loss}, every_n_iter=1)].")
        if tf.is_tensor(fetch) and hasattr(fetch, "numpy"):
            return fetch.numpy()
        if isinstance(fetch, tf.Tensor) and self._spec_tensors is not None:
            try:
                return self._spec_tensors.value_of(fetch)
            except KeyError:
                pass
        raise HookFetchError(
            f"hook {hook_name(hook)} fetches {_describe_fetch(fetch)}, which the bridge cannot "
            "provide: it runs iterations_per_loop steps per traced call and can only return "
            "model variables (e.g. tf.compat.v1.train.get_global_step()) and the tensors that "
            "hooks returned by model_fn (TPUEstimatorSpec.training_hooks) hold as attributes. "
            "Create the hook inside model_fn with the tensor it needs, or fetch a variable.")
