"""The emulated Session hooks see: `BridgeSession.run` and the scope hook methods run in.

There is no tf.compat.v1.Session in the bridge; hooks get a `BridgeSession` whose `run`
answers what `FetchResolver` can provide, and each hook method runs inside `tf1_view`, which
makes TF1's hook code find the bridge's global step and `Saver.restore(session, path)` restore
into the model's variables.
"""

from __future__ import annotations

import contextlib

import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks
from tensorflow.python.training import training_util as _tf1_training_util
from tensorflow.python.training.saving import saveable_object_util

from estimator_bridge.hooks import HookFetchError
from estimator_bridge.runtime import checkpoints
from estimator_bridge.runtime.hook_fetches import FetchResolver, hook_name

tf1 = tf.compat.v1


class BridgeSession:
    """What hooks get as `session`: `run(fetches)` for what `FetchResolver` can provide.

    There is no tf.compat.v1.Session behind it: feeds, options and run_metadata raise.

    Args:
      resolver: the fetches' FetchResolver.
      hook: the hook this session is handed to (for messages).
      graph_variables: `((graph variable, name), ...)` of the build graph hooks' begin() ran in.
      strategy: the tf.distribute strategy the model's variables live in.
    """

    def __init__(self, resolver: FetchResolver, hook=None, *, graph_variables=(), strategy=None):
        self._resolver = resolver
        self._hook = hook
        self._graph_variables = tuple(graph_variables)
        self._strategy = strategy

    def for_hook(self, hook) -> "BridgeSession":
        return BridgeSession(self._resolver, hook, graph_variables=self._graph_variables,
                             strategy=self._strategy)

    def restore_saver(self, saver, save_path):
        """`saver.restore(session, save_path)` for a Saver a hook built in begin() (or one model_fn
        built over its own variables, for a spec hook: `slim.assign_from_checkpoint_fn` in a
        fine-tuning model_fn's restore hook): each of its graph variables is the model variable
        of the same cache name, assigned the checkpoint
        tensor the Saver maps it to (`{'dense/kernel/ExponentialMovingAverage': kernel}` loads
        the average into the kernel), as TF1's restore op did in the hook's Session."""
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        var_list = saver._var_list  # pylint: disable=protected-access  (what the Saver was given)
        if var_list is None:
            var_list = [variable for variable, _ in self._graph_variables]
        stored = (dict(var_list) if isinstance(var_list, dict)
                  else saveable_object_util.op_list_to_dict(list(var_list)))
        variables, stored_names = {}, {}
        for key, graph_variable in stored.items():
            name = next((name for known, name in self._graph_variables if known is graph_variable), None)
            if name is None:  # a Saver model_fn built (a spec hook's) holds the model's variables
                name = self._model_variable_name(graph_variable)
            if name is None or name not in self._resolver.variables:
                raise HookFetchError(
                    f"hook {hook_name(self._hook)} restores a Saver over {key!r} "
                    f"({type(graph_variable).__name__}), which is not a variable model_fn created; "
                    "the bridge restores only the model's variables. Build the Saver in begin() "
                    "over variables of tf.compat.v1.global_variables().")
            variables[name] = self._resolver.variables[name]
            stored_names[name] = key
        checkpoints.restore(variables, save_path, self._strategy or tf.distribute.get_strategy(),
                            stored_names=stored_names)

    def _model_variable_name(self, variable):
        """The name of the model variable that `variable` is (or is a replica's component of)."""
        for name, model_variable in self._resolver.variables.items():
            components = getattr(model_variable, "_values", None) or (model_variable,)
            if variable is model_variable or any(variable is c for c in components):
                return name
        return None

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if feed_dict or options is not None or run_metadata is not None:
            raise HookFetchError(
                f"hook {hook_name(self._hook)} calls session.run with feed_dict/options/"
                "run_metadata; the bridge has no Session to feed or trace. Drop them (for "
                "profiles use estimator_bridge.hooks.ProfilerHook).")
        return self._resolver.resolve(fetches, self._hook)

    @property
    def graph(self):
        raise HookFetchError(
            f"hook {hook_name(self._hook)} reads session.graph; the bridge runs traced "
            "tf.functions and has no Session graph. Use tf.compat.v1.train.get_global_step() "
            "or tensors of model_fn held by a hook returned in training_hooks.")


# ---- the scope hook methods run in ------------------------------------------------------------

@contextlib.contextmanager
def tf1_view(global_step):
    """Makes TF1 hook code find the bridge's global step, and keep tensors as given.

    TF1's hooks call `training_util._get_or_create_global_step_read()` (builds a read op in a
    graph) and LoggingTensorHook converts its tensors with `_as_graph_element` (needs a graph);
    a hook restoring a Saver calls `Saver.restore(session, path)`, which feeds the Session: all
    three are replaced for the duration of one hook method (`Saver.restore` only for a
    BridgeSession; a real Session still gets TF's), in this thread only by design (hook
    methods run in the main thread between loops).
    """
    graph = ops.get_default_graph()
    collection = graph.get_collection_ref(tf1.GraphKeys.GLOBAL_STEP)
    saved_collection = list(collection)
    saved_read = _tf1_training_util._get_or_create_global_step_read
    saved_element = _tf1_hooks._as_graph_element
    saved_restore = tf1.train.Saver.restore

    def restore(saver, sess, save_path):
        if isinstance(sess, BridgeSession):
            return sess.restore_saver(saver, save_path)
        return saved_restore(saver, sess, save_path)

    collection[:] = [global_step] if global_step is not None else []
    _tf1_training_util._get_or_create_global_step_read = lambda graph=None: global_step
    _tf1_hooks._as_graph_element = lambda obj: obj
    tf1.train.Saver.restore = restore
    try:
        yield
    finally:
        collection[:] = saved_collection
        _tf1_training_util._get_or_create_global_step_read = saved_read
        _tf1_hooks._as_graph_element = saved_element
        tf1.train.Saver.restore = saved_restore
