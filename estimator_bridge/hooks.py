"""SessionRunHooks between traced loops: begin / before_run / after_run / end, as on a TPU.

TPUEstimator on a TPU ran one `Session.run` per `iterations_per_loop` steps, so user hooks saw
one before_run/after_run per loop (TPUESTIMATOR_SEMANTICS.md section 7). The bridge has no
Session: a loop is one traced `tf.function` call. Hooks run in Python around that call, once
per loop, with TF1's own objects (`SessionRunArgs`, `SessionRunContext`, `SessionRunValues`):

* `begin()` once per train()/evaluate()/predict() call, after the variables exist and the
  checkpoint is restored (predict: one loop per batch; its hooks may fetch variables only); `after_create_session(session, coord)` right after it; `before_run` /
  `after_run` around every loop; `end(session)` after the last loop of a call that finished
  normally (not after an exception, as in TF1).
* `run_context.request_stop()` ends training after the current loop (a StopAtStepHook with
  last_step=25 and iterations_per_loop=10 stops at 30: a TPU stops at loop boundaries too).
* `session` is a `BridgeSession`: its `run(fetches)` answers what the bridge can provide
  (below) and raises `HookFetchError` for the rest.

What a fetch (in `SessionRunArgs.fetches`, or `session.run`) may be, and the value it gets:

* a variable of the model (`tf.compat.v1.train.get_global_step()`, which works inside hook
  methods, or a variable model_fn created): its value after the loop;
* a string naming such a variable: `'global_step'`, `'global_step:0'`, `'dense/kernel'`;
* a string naming a tensor of model_fn that a `LoggingTensorHook` passed to train()/evaluate()
  asks for (TF1's tutorial: `tf.nn.softmax(logits, name='softmax_tensor')` and
  `LoggingTensorHook({'probabilities': 'softmax_tensor'})`): the loop looks the name up when it
  is traced and keeps the last step's value (replica 0's); names first asked for after the
  loop was traced (a later train() call) raise;
* a tensor that a hook returned by model_fn (`training_hooks`) holds, e.g.
  `LoggingTensorHook({'loss': loss})` or `NanTensorHook(loss)`: the bridge notices the tensors
  a spec hook keeps in its attributes while the loop is traced and returns their values of
  the loop's **last step** (replica 0's on several replicas, as TPUEstimator reported shard 0).

Not honoured (each raises `HookFetchError` naming the hook, the fetch and what to do instead):
graph tensors or ops a hook builds itself, or finds by a name no LoggingTensorHook declared
before the loop was traced (there is no graph to run them in), `feed_dict`, `RunOptions`/`RunMetadata` (use the bridge's `ProfilerHook`), and
`SummarySaverHook` (v1 summary ops; the bridge writes the `loss` summaries itself, use
host_call for more). TF 1.15's `CheckpointSaverHook` needs a Session; given one, the bridge
runs its own version, configured from the original (same directory,
same cadence); TF1's `ProfilerHook` cannot even be constructed under eager TensorFlow 2 (its
v1 FileWriter), use `estimator_bridge.hooks.ProfilerHook`. TF1 hooks otherwise run unchanged: while a hook method runs, the global step is
visible to `get_global_step()` and TF1's internal global-step read, and `LoggingTensorHook`
keeps the tensors it was given instead of converting them to graph elements.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import ops
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks
from tensorflow.python.training import training_util as _tf1_training_util

logger = logging.getLogger("estimator_bridge")

tf1 = tf.compat.v1

SessionRunHook = tf1.train.SessionRunHook
SessionRunArgs = tf1.train.SessionRunArgs
SessionRunContext = tf1.train.SessionRunContext
SessionRunValues = tf1.train.SessionRunValues
LoggingTensorHook = tf1.train.LoggingTensorHook
StopAtStepHook = tf1.train.StopAtStepHook
NanTensorHook = tf1.train.NanTensorHook
NanLossDuringTrainingError = tf1.train.NanLossDuringTrainingError


class HookFetchError(ValueError):
    """A hook asked for something the bridge cannot compute between loops."""


def _hook_name(hook) -> str:
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
                f"hook {_hook_name(hook)} fetches the tensor named {fetch!r}, which the bridge "
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
            f"hook {_hook_name(hook)} fetches {_describe_fetch(fetch)}, which the bridge cannot "
            "provide: it runs iterations_per_loop steps per traced call and can only return "
            "model variables (e.g. tf.compat.v1.train.get_global_step()) and the tensors that "
            "hooks returned by model_fn (TPUEstimatorSpec.training_hooks) hold as attributes. "
            "Create the hook inside model_fn with the tensor it needs, or fetch a variable.")


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
                f"hook {_hook_name(self._hook)} calls session.run with feed_dict/options/"
                "run_metadata; the bridge has no Session to feed or trace. Drop them (for "
                "profiles use estimator_bridge.hooks.ProfilerHook).")
        return self._resolver.resolve(fetches, self._hook)

    @property
    def graph(self):
        raise HookFetchError(
            f"hook {_hook_name(self._hook)} reads session.graph; the bridge runs traced "
            "tf.functions and has no Session graph. Use tf.compat.v1.train.get_global_step() "
            "or tensors of model_fn held by a hook returned in training_hooks.")


# ---- the scope hook methods run in ------------------------------------------------------------

@contextlib.contextmanager
def _tf1_view(global_step):
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


# ---- bridge versions of hooks that need a Session -------------------------------------------

class CheckpointSaverHook(_tf1_hooks.CheckpointSaverHook):
    """TF1's CheckpointSaverHook on the bridge: name-based TF1 checkpoints at loop boundaries.

    Same arguments; `saver`/`scaffold` are not used (the bridge saves every model variable
    under its TF1 name), `listeners` get `before_save/after_save(session, step)` with a
    BridgeSession. Saves at the first loop boundary where `save_steps`/`save_secs` elapsed,
    and at the end.
    """

    def begin(self):
        self._global_step_tensor = tf1.train.get_global_step()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use CheckpointSaverHook.")
        for listener in self._listeners:
            listener.begin()

    def after_create_session(self, session, coord):
        # TF 1.15 saves the state at the starting step here too.
        step = int(session.run(self._global_step_tensor))
        self._save(session, step)
        self._timer.update_last_triggered_step(step)

    def before_run(self, run_context):
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        step = int(run_values.results)
        if self._timer.should_trigger_for_step(step):
            self._timer.update_last_triggered_step(step)
            if self._save(run_context.session, step):
                run_context.request_stop()

    def end(self, session):
        step = int(session.run(self._global_step_tensor))
        if step != self._timer.last_triggered_step():
            self._save(session, step)
        for listener in self._listeners:
            listener.end(session, step)

    def _save(self, session, step):
        from estimator_bridge.runtime import checkpoints
        writer = checkpoints.CheckpointWriter(self._checkpoint_dir, keep_checkpoint_max=None)
        for listener in self._listeners:
            listener.before_save(session, step)
        resolver = session._resolver
        writer.save(resolver.variables, step, resolver.strategy)
        logger.info("Saved checkpoint for step %d into %s.", step, self._checkpoint_dir)
        should_stop = False
        for listener in self._listeners:
            if listener.after_save(session, step):
                should_stop = True
        return should_stop


class ProfilerHook(SessionRunHook):
    """TF1's ProfilerHook on the bridge: a TensorFlow profile of a whole loop every N steps.

    TF1 traced one Session.run into a Chrome trace (`timeline-N.json`) through RunOptions. The
    bridge cannot trace a Session.run; it records the next loop after every `save_steps`
    (`save_secs`) with `tf.profiler.experimental` into `output_dir` (TensorBoard's profile
    plugin reads it) and logs each loop's wall time and steps/sec.
    """

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True,
                 show_memory=False):
        self._timer = _tf1_hooks.SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)
        self._output_dir = output_dir
        self.loop_seconds = []
        self.profiled_steps = []

    def begin(self):
        self._global_step = tf1.train.get_global_step()
        self._profiling = False

    def before_run(self, run_context):
        step = int(self._global_step.numpy())
        if self._timer.should_trigger_for_step(step + 1):
            tf.profiler.experimental.start(self._output_dir)
            self._profiling = True
            self._timer.update_last_triggered_step(step)
            self.profiled_steps.append(step + 1)
        self._started = time.monotonic()
        return None

    def after_run(self, run_context, run_values):
        self.loop_seconds.append(time.monotonic() - self._started)
        if self._profiling:
            tf.profiler.experimental.stop()
            self._profiling = False

    def end(self, session):
        if self._profiling:
            tf.profiler.experimental.stop()
            self._profiling = False


class LoopTimingHook(SessionRunHook):
    """Records each loop's wall time and steps/sec (TF1's StepCounterHook, per loop).

    Attributes:
      loops: list of `(global_step_after_loop, seconds, steps_per_sec)`.
    """

    def __init__(self):
        self.loops = []

    def begin(self):
        self._global_step = tf1.train.get_global_step()

    def before_run(self, run_context):
        self._step_before = int(self._global_step.numpy())
        self._started = time.monotonic()
        return None

    def after_run(self, run_context, run_values):
        seconds = time.monotonic() - self._started
        step = int(self._global_step.numpy())
        rate = (step - self._step_before) / seconds if seconds > 0 else float("inf")
        self.loops.append((step, seconds, rate))
        logger.info("hooks | step: %d | loop seconds: %.4f | steps/sec: %.1f", step, seconds, rate)


def _from_tf1_checkpoint_saver(hook):
    replacement = CheckpointSaverHook.__new__(CheckpointSaverHook)
    replacement.__dict__.update(hook.__dict__)
    return replacement


def _refuse_summary_saver(hook):
    raise HookFetchError(
        f"hook {_hook_name(hook)} runs v1 summary ops in a Session, which the bridge does not "
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
    """

    def __init__(self, hooks, *, variables, global_step, strategy, spec_tensors=None,
                 step_after_loop=None):
        self._hooks = [_bridge_version(hook) for hook in hooks]
        for hook in self._hooks:
            if not isinstance(hook, SessionRunHook):
                raise TypeError(f"All hooks must be SessionRunHook instances, given: {hook!r:.200}."
                                " Subclass tf.compat.v1.train.SessionRunHook.")
        self._global_step = global_step
        self._step_after_loop = step_after_loop
        self._resolver = FetchResolver(variables, spec_tensors, strategy)
        self._session = BridgeSession(self._resolver)
        self._stop_requested = False

    def __bool__(self):
        return bool(self._hooks)

    @property
    def hooks(self):
        return tuple(self._hooks)

    def stop_requested(self) -> bool:
        return self._stop_requested

    def _call(self, hook, method, *args):
        with _tf1_view(self._global_step):
            return getattr(hook, method)(*args)

    def begin(self):
        """begin() then after_create_session(session, coord=None) on every hook."""
        for hook in self._hooks:
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
                        f"hook {_hook_name(hook)} returned SessionRunArgs with feed_dict "
                        f"{sorted(map(str, request.feed_dict))[:5]}; the bridge feeds nothing "
                        "(input comes from input_fn). Remove the feeds.")
                if request.options is not None:
                    raise HookFetchError(
                        f"hook {_hook_name(hook)} returned SessionRunArgs with RunOptions; the "
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

    def end(self):
        for hook in self._hooks:
            self._call(hook, "end", self._session.for_hook(hook))
