"""The emulated Session hooks see: `BridgeSession.run` and the scope hook methods run in.

There is no tf.compat.v1.Session in the bridge; hooks get a `BridgeSession` whose `run`
answers what `FetchResolver` can provide, and each hook method runs inside `tf1_view`, which
makes TF1's hook code find the bridge's global step.
"""

from __future__ import annotations

import contextlib

import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks
from tensorflow.python.training import training_util as _tf1_training_util

from estimator_bridge.hooks import HookFetchError
from estimator_bridge.runtime.hook_fetches import FetchResolver, hook_name

tf1 = tf.compat.v1


class BridgeSession:
    """What hooks get as `session`: `run(fetches)` for what `FetchResolver` can provide.

    There is no tf.compat.v1.Session behind it: feeds, options and run_metadata raise.
    """

    def __init__(self, resolver: FetchResolver, hook=None):
        self._resolver = resolver
        self._hook = hook

    def for_hook(self, hook) -> "BridgeSession":
        return BridgeSession(self._resolver, hook)

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
    graph) and LoggingTensorHook converts its tensors with `_as_graph_element` (needs a graph):
    both are replaced for the duration of one hook method, in this thread only by design (hook
    methods run in the main thread between loops).
    """
    graph = ops.get_default_graph()
    collection = graph.get_collection_ref(tf1.GraphKeys.GLOBAL_STEP)
    saved_collection = list(collection)
    saved_read = _tf1_training_util._get_or_create_global_step_read
    saved_element = _tf1_hooks._as_graph_element
    collection[:] = [global_step] if global_step is not None else []
    _tf1_training_util._get_or_create_global_step_read = lambda graph=None: global_step
    _tf1_hooks._as_graph_element = lambda obj: obj
    try:
        yield
    finally:
        collection[:] = saved_collection
        _tf1_training_util._get_or_create_global_step_read = saved_read
        _tf1_hooks._as_graph_element = saved_element
