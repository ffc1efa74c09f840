"""SessionRunHooks between traced loops: begin / before_run / after_run / end, as on a TPU.

TPUEstimator on a TPU ran one `Session.run` per `iterations_per_loop` steps, so user hooks saw
one before_run/after_run per loop (docs/semantics.md section 7). The bridge has no
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

import logging
import time

import tensorflow as tf
from tensorflow.python.training import basic_session_run_hooks as _tf1_hooks

logger = logging.getLogger("estimator_bridge")

tf1 = tf.compat.v1

SessionRunHook = tf1.train.SessionRunHook
SessionRunArgs = tf1.train.SessionRunArgs
SessionRunContext = tf1.train.SessionRunContext
SessionRunValues = tf1.train.SessionRunValues
LoggingTensorHook = tf1.train.LoggingTensorHook
StopAtStepHook = tf1.train.StopAtStepHook
NanTensorHook = tf1.train.NanTensorHook
# train(saving_listeners=...) and train_and_evaluate call them around checkpoint saves.
CheckpointSaverListener = tf1.train.CheckpointSaverListener
NanLossDuringTrainingError = tf1.train.NanLossDuringTrainingError


class HookFetchError(ValueError):
    """A hook asked for something the bridge cannot compute between loops."""


# ---- bridge versions of hooks that need a Session -------------------------------------------

class CheckpointSaverHook(_tf1_hooks.CheckpointSaverHook):
    """TF1's CheckpointSaverHook on the bridge: name-based TF1 checkpoints at loop boundaries.

    Same arguments; `saver`, `scaffold` and another `checkpoint_basename` raise (the bridge
    saves every model variable under its TF1 name into model.ckpt-<step>; docs/arguments.md),
    `listeners` get `before_save/after_save(session, step)` with a BridgeSession. Saves at the
    first loop boundary where `save_steps`/`save_secs` elapsed, and at the end.
    """

    def __init__(self, checkpoint_dir, save_secs=None, save_steps=None, saver=None,
                 checkpoint_basename="model.ckpt", scaffold=None, listeners=None,
                 save_graph_def=True):
        from estimator_bridge import arguments
        arguments.check_all("CheckpointSaverHook", {
            "saver": saver, "scaffold": scaffold, "checkpoint_basename": checkpoint_basename})
        super().__init__(checkpoint_dir, save_secs=save_secs, save_steps=save_steps,
                         checkpoint_basename=checkpoint_basename, listeners=listeners,
                         save_graph_def=save_graph_def)

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
