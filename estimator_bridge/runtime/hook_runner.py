"""The hook runner: begin / before_run / after_run / end around the traced loops.

One before_run/after_run per loop, as TPUEstimator's hooks saw one Session.run per
iterations_per_loop steps (see `estimator_bridge.hooks` for the rules). TF1 hooks that need a
Session are swapped for their bridge versions (CheckpointSaverHook) or refused with the fix
(SummarySaverHook).
"""

from __future__ import annotations

import os

from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks

from estimator_bridge import arguments
from estimator_bridge.hooks import (CheckpointSaverHook, HookFetchError, SessionRunArgs,
                                    SessionRunContext, SessionRunHook, SessionRunValues)
from estimator_bridge.runtime.hook_fetches import FetchResolver, hook_name
from estimator_bridge.runtime.hook_session import BridgeSession, tf1_view


def _from_tf1_checkpoint_saver(hook):
    arguments.check_all("CheckpointSaverHook", {
        "saver": getattr(hook, "_saver", None), "scaffold": getattr(hook, "_scaffold", None),
        "checkpoint_basename": os.path.basename(getattr(hook, "_save_path", "model.ckpt"))})
    replacement = CheckpointSaverHook.__new__(CheckpointSaverHook)
    replacement.__dict__.update(hook.__dict__)
    return replacement


def _refuse_summary_saver(hook):
    raise HookFetchError(
        f"hook {hook_name(hook)} runs v1 summary ops in a Session, which the bridge does not "
        "have. The bridge writes the `loss` summary every save_summary_steps itself; for other "
        "summaries use host_call=(fn, tensors) with tf.summary (or tf.compat.v2.summary) in "
        "TPUEstimatorSpec, and remove the SummarySaverHook.")


# TF1 classes replaced by bridge versions (exact types only: subclasses keep their own code).
_REPLACEMENTS = {
    _tf1_hooks.CheckpointSaverHook: _from_tf1_checkpoint_saver,
    _tf1_hooks.SummarySaverHook: _refuse_summary_saver,
}

def _bridge_version(hook):
    replace = _REPLACEMENTS.get(type(hook))
    return replace(hook) if replace is not None else hook


# ---- the runner -------------------------------------------------------------------------------

class HookRunner:
    """Calls the hooks around the loops of one train()/evaluate() call.

    Args:
      hooks: SessionRunHooks (train(hooks=...) first, then the spec's).
      variables: TF1 name -> model variable.
      global_step: the global step variable.
      strategy: the tf.distribute strategy (for checkpoints written by hooks).
      spec_tensors: the loop's `SpecHookTensors` (or None).
      step_after_loop: `() -> int`, the global step the loop returned (None: read the
        variable). Every hook's global-step fetch gets the step at the end of the loop, as
        TF1 fetched all hooks' tensors in the Session.run itself, before any after_run.
      build_graph: `(graph, ((graph variable, name), ...))` of the mode's build pass, or None.
        `begin()` runs with that graph as the default graph, as TF1 called it with the graph
        model_fn built (the only hook method allowed to add ops to it), e.g. a Saver of
        `ExponentialMovingAverage.variables_to_restore()` restored in after_create_session
        (hook_session.py maps the Saver's graph variables to the model's).
    """

    def __init__(self, hooks, *, variables, global_step, strategy, spec_tensors=None,
                 step_after_loop=None, build_graph=None):
        self._hooks = [_bridge_version(hook) for hook in hooks]
        for hook in self._hooks:
            if not isinstance(hook, SessionRunHook):
                raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook!r:.200}."
                                " Subclass tf.compat.v1.train.SessionRunHook.")
        self._global_step = global_step
        self._step_after_loop = step_after_loop
        self._resolver = FetchResolver(variables, spec_tensors, strategy)
        self._graph, graph_variables = build_graph if build_graph is not None else (None, ())
        self._session = BridgeSession(self._resolver, graph_variables=graph_variables,
                                      strategy=strategy)
        self._stop_requested = False

    def __bool__(self):
        return bool(self._hooks)

    @property
    def hooks(self):
        return tuple(self._hooks)

    def stop_requested(self) -> bool:
        return self._stop_requested

    def _call(self, hook, method, *args):
        with tf1_view(self._global_step):
            return getattr(hook, method)(*args)

    def begin(self):
        """begin() (in the build graph) then after_create_session(session, coord=None) on every hook."""
        for hook in self._hooks:
            if self._graph is None:
                self._call(hook, "begin")
            else:
                with self._graph.as_default():
                    self._call(hook, "begin")
        for hook in self._hooks:
            self._call(hook, "after_create_session", self._session.for_hook(hook), None)

    def run_loop(self, run):
        """before_run on every hook, `run()`, then after_run with the fetched values."""
        contexts, requests = [], []
        for hook in self._hooks:
            context = SessionRunContext(original_args=SessionRunArgs(None),
                                        session=self._session.for_hook(hook))
            request = self._call(hook, "before_run", context)
            if request is not None:
                if request.feed_dict:
                    raise HookFetchError(
                        f"hook {hook_name(hook)} returned SessionRunArgs with feed_dict "
                        f"{sorted(map(str, request.feed_dict))[:5]}; the bridge feeds nothing "
                        "(input comes from input_fn). Remove the feeds.")
                if request.options is not None:
                    raise HookFetchError(
                        f"hook {hook_name(hook)} returned SessionRunArgs with RunOptions; the "
                        "bridge cannot trace a Session.run. Use estimator_bridge.hooks."
                        "ProfilerHook to profile loops.")
            contexts.append(context)
            requests.append(request)
        result = run()
        step = None
        if self._step_after_loop is not None and self._global_step is not None:
            step = (self._global_step, self._step_after_loop())
        for hook, context, request in zip(self._hooks, contexts, requests):
            fetched = (self._resolver.resolve(request.fetches, hook, global_step=step)
                       if request is not None else None)
            self._call(hook, "after_run", context,
                       SessionRunValues(results=fetched, options=None, run_metadata=None))
            if context.stop_requested:
                self._stop_requested = True
        return result

    def session_for(self, owner) -> BridgeSession:
        """The emulated Session handed to `owner` (a hook or a CheckpointSaverListener)."""
        return self._session.for_hook(owner)

    def end(self):
        for hook in self._hooks:
            self._call(hook, "end", self._session.for_hook(hook))
