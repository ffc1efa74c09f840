"""SessionRunHooks run between loops, once per iterations_per_loop steps, as on a TPU."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge import hooks as bridge_hooks
from tests.estimator_bridge import tiny
from tests.support.events import read_scalars
from tests.support.oracles import REPO_ROOT

tf1 = tf.compat.v1


class RecordingHook(tf1.train.SessionRunHook):
    """Records every call with the global step it fetched (a variable fetch)."""

    def __init__(self):
        self.calls = []

    def begin(self):
        self.global_step = tf1.train.get_global_step()
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append(("after_create_session", int(session.run(self.global_step))))

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs({"step": self.global_step, "kernel": "dense/kernel:0"})

    def after_run(self, run_context, run_values):
        self.calls.append(("after_run", int(run_values.results["step"]),
                           run_values.results["kernel"].shape))

    def end(self, session):
        self.calls.append(("end", int(session.run(self.global_step))))


def test_hooks_run_once_per_loop_with_variable_fetches(tmp_path):
    hook = RecordingHook()
    tiny.make_estimator(tmp_path, iterations_per_loop=4).train(tiny.input_fn, max_steps=12,
                                                               hooks=[hook])
    assert hook.calls == ["begin", ("after_create_session", 0),
                          ("after_run", 4, (8, 3)), ("after_run", 8, (8, 3)),
                          ("after_run", 12, (8, 3)), ("end", 12)]


def _log_loss_and_step(features, labels, logits, loss):
    return {"training_hooks": [
        tf1.train.LoggingTensorHook({"loss": loss, "step": tf1.train.get_global_step()},
                                    every_n_iter=1),
        LastValues({"loss": loss, "rows": tf.shape(features)[0], "first_feature": features[0, 0]})]}


class LastValues(tf1.train.SessionRunHook):
    """A hook made inside model_fn that keeps model tensors; records what it is given."""

    def __init__(self, tensors):
        self.tensors = tensors
        self.seen = []

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(self.tensors)

    def after_run(self, run_context, run_values):
        self.seen.append({k: np.asarray(v).item() for k, v in run_values.results.items()})


def _spec_hook(estimator):
    (loop,) = estimator._loops.values()
    (hook,) = [h for h in loop.hook_tensors.hooks if isinstance(h, LastValues)]
    return hook, loop


def test_spec_hook_tensors_are_the_last_step_of_each_loop(tmp_path):
    estimator = tiny.make_estimator(
        tmp_path, iterations_per_loop=4, save_summary_steps=1,
        model_fn=tiny.make_model_fn(spec_kwargs=_log_loss_and_step))
    estimator.train(tiny.input_fn, max_steps=8)
    hook, loop = _spec_hook(estimator)
    summary_losses = read_scalars(tmp_path, "loss")  # every step's loss, written by the bridge
    assert [seen["loss"] for seen in hook.seen] == [np.float32(summary_losses[4]),
                                                    np.float32(summary_losses[8])]
    assert [seen["rows"] for seen in hook.seen] == [16, 16]
    assert loop.trace_count == 1  # tracing before begin() did not cost a second trace


def test_spec_hook_tensors_come_from_replica_zero(tmp_path):
    estimator = tiny.make_estimator(
        tmp_path, replicas=2, iterations_per_loop=2,
        model_fn=tiny.make_model_fn(spec_kwargs=_log_loss_and_step))
    estimator.train(tiny.input_fn, max_steps=4)
    hook, _ = _spec_hook(estimator)
    assert [seen["rows"] for seen in hook.seen] == [8, 8]  # 16 rows split over 2 replicas
    # Steps 2 and 4 (loop ends) take global batches 1 and 3 (rows 16-31, 48-63); replica 0
    # gets the first 8 rows of each, replica 1 the next 8 (rows 24, 56 would start its shards).
    assert [seen["first_feature"] for seen in hook.seen] == [
        np.float32(tiny.FEATURES[16, 0]), np.float32(tiny.FEATURES[48, 0])]


class LoggedValues(tf1.train.LoggingTensorHook):
    """TF1's LoggingTensorHook, recording what it would log."""

    def __init__(self, tensors):
        super().__init__(tensors, every_n_iter=1)
        self.logged = []

    def _log_tensors(self, tensor_values):
        self.logged.append({tag: np.asarray(value).copy() for tag, value in tensor_values.items()})


def _name_the_loss(features, labels, logits, loss):
    tf.identity(loss, name="loss_for_hooks")  # the TF1 tutorial's "softmax_tensor" pattern
    return {}


def test_logging_tensor_hook_fetches_model_fn_tensors_by_name(tmp_path):
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=4, save_summary_steps=1,
                                    model_fn=tiny.make_model_fn(spec_kwargs=_name_the_loss))
    hook = LoggedValues({"loss": "loss_for_hooks", "step": "global_step"})
    estimator.train(tiny.input_fn, max_steps=8, hooks=[hook])
    summary_losses = read_scalars(tmp_path, "loss")
    assert [(float(entry["loss"]), int(entry["step"])) for entry in hook.logged] == [
        (np.float32(summary_losses[4]), 4), (np.float32(summary_losses[8]), 8)]
    with pytest.raises(bridge_hooks.HookFetchError,
                       match=r"fetch the tensors named \['logits'\], but this estimator's "
                             r"training loop was traced .* without them"):
        estimator.train(tiny.input_fn, max_steps=12, hooks=[LoggedValues({"x": "logits"})])


def test_stop_at_step_hook_stops_at_the_loop_boundary(tmp_path):
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=4)
    estimator.train(tiny.input_fn, max_steps=100, hooks=[tf1.train.StopAtStepHook(num_steps=6)])
    # A TPU stops at a loop boundary: 6 requested steps end the run after the loop ending at 8.
    assert estimator.get_variable_value("global_step") == 8
    assert estimator.latest_checkpoint().endswith("model.ckpt-8")


def test_nan_tensor_hook_from_model_fn_raises_and_writes_no_final_checkpoint(tmp_path):
    def nan_loss(labels, logits):
        return tf1.losses.sparse_softmax_cross_entropy(labels, logits) * np.float32("nan")

    estimator = tiny.make_estimator(
        tmp_path, iterations_per_loop=2, save_checkpoints_steps=100,
        model_fn=tiny.make_model_fn(
            loss_fn=nan_loss,
            spec_kwargs=lambda f, l, g, loss: {"training_hooks": [tf1.train.NanTensorHook(loss)]}))
    with pytest.raises(tf1.train.NanLossDuringTrainingError):
        estimator.train(tiny.input_fn, max_steps=6)
    assert estimator.latest_checkpoint().endswith("model.ckpt-0")


def test_tf1_checkpoint_saver_hook_writes_tf1_checkpoints_where_asked(tmp_path):
    other_dir = tmp_path / "hook_checkpoints"
    estimator = tiny.make_estimator(tmp_path / "model", iterations_per_loop=2,
                                    save_checkpoints_steps=100)
    estimator.train(tiny.input_fn, max_steps=10, hooks=[
        tf1.train.CheckpointSaverHook(str(other_dir), save_steps=4)])
    steps = sorted(int(p.split("-")[-1].split(".")[0])
                   for p in os.listdir(other_dir) if p.endswith(".index"))
    assert steps == [0, 4, 8, 10]  # start, every 4 steps at loop boundaries, the end
    hook_kernel = tf.train.load_checkpoint(str(other_dir / "model.ckpt-10")).get_tensor(
        "dense/kernel")
    np.testing.assert_array_equal(hook_kernel, estimator.get_variable_value("dense/kernel"))


def test_profiler_and_timing_hooks(tmp_path):
    profiler = bridge_hooks.ProfilerHook(save_steps=4, output_dir=str(tmp_path / "profile"))
    timing = bridge_hooks.LoopTimingHook()
    tiny.make_estimator(tmp_path / "model", iterations_per_loop=2).train(
        tiny.input_fn, max_steps=8, hooks=[profiler, timing])
    assert [step for step, _, _ in timing.loops] == [2, 4, 6, 8]
    assert all(seconds > 0 for _, seconds, _ in timing.loops)
    assert profiler.profiled_steps == [1, 5]
    # A run directory is named by the second it started in: two quick loops may share one.
    traces = [name for _, _, names in os.walk(tmp_path / "profile") for name in names
              if name.endswith(".xplane.pb")]
    assert traces


def test_evaluation_hooks_run_once_per_evaluate_call(tmp_path):
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=4)
    estimator.train(tiny.input_fn, max_steps=4)
    hook = RecordingHook()
    estimator.evaluate(tiny.input_fn, steps=3, hooks=[hook])
    # TPU evaluation runs all steps in one Session.run: one before_run/after_run per call.
    assert hook.calls == ["begin", ("after_create_session", 4), ("after_run", 4, (8, 3)),
                          ("end", 4)]


# ---- what cannot be honoured: clear errors -----------------------------------------------------

class FetchByName(tf1.train.SessionRunHook):
    def before_run(self, run_context):
        return tf1.train.SessionRunArgs("softmax_tensor:0")


class Feeds(tf1.train.SessionRunHook):
    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(tf1.train.get_global_step(), feed_dict={"x:0": 1.0})


class ReadsSessionGraph(tf1.train.SessionRunHook):
    def after_create_session(self, session, coord):
        session.graph.get_operations()


class FetchForeignTensor(tf1.train.SessionRunHook):
    def begin(self):
        with tf.Graph().as_default():
            self.tensor = tf1.placeholder(tf.float32, name="outside")

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(self.tensor)


@pytest.mark.parametrize("hook, message", [
    (FetchByName(), r"hook FetchByName fetches the tensor named 'softmax_tensor:0'.*create the "
                    r"hook inside model_fn"),
    (Feeds(), r"hook Feeds returned SessionRunArgs with feed_dict \['x:0'\].*Remove the feeds"),
    (ReadsSessionGraph(), r"hook ReadsSessionGraph reads session.graph.*Use "
                          r"tf.compat.v1.train.get_global_step\(\)"),
    (FetchForeignTensor(), r"hook FetchForeignTensor fetches tensor 'outside:0'.*Create the hook "
                           r"inside model_fn"),
    (tf1.train.SummarySaverHook(save_steps=1, output_dir="/tmp", summary_op=tf.constant("")),
     r"hook SummarySaverHook runs v1 summary ops.*use host_call"),
])
def test_unsupported_hook_features_name_the_hook_the_fetch_and_the_fix(tmp_path, hook, message):
    with pytest.raises(bridge_hooks.HookFetchError, match=message):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, max_steps=4, hooks=[hook])


def test_a_non_hook_is_rejected_with_the_legacy_message(tmp_path):
    with pytest.raises(TypeError, match=r"All hooks must be SessionRunHook instances, given: 3"):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, max_steps=4, hooks=[3])


@pytest.mark.slow  # a TensorFlow subprocess: about 30 s on the shared 2-core machine
def test_benchmark_bridge_workload_runs_its_global_step_hook():
    completed = subprocess.run(
        [sys.executable, "-m", "bench.core_workloads", "bridge", "--steps", "40",
         "--steps-per-loop", "10"], capture_output=True, text=True, timeout=300, cwd=REPO_ROOT,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
    assert completed.returncode == 0, completed.stderr[-3000:]
    result = json.loads(completed.stdout.strip().splitlines()[-1])
    assert result["timed_steps"] > 0 and result["steps_per_sec"] > 0


class StopAfterBatches(tf1.train.SessionRunHook):
    def __init__(self, batches):
        self.batches = batches
        self.runs = 0

    def after_run(self, run_context, run_values):
        self.runs += 1
        if self.runs == self.batches:
            run_context.request_stop()


def test_predict_hooks_run_once_per_batch_and_can_stop_prediction(tmp_path):
    from tests.estimator_bridge import interop_model

    def model_fn(features, labels, mode, params):
        spec = interop_model.make_model_fn(tpu.TPUEstimatorSpec)(features, labels, mode, params)
        if mode == tpu.ModeKeys.PREDICT:
            spec = spec._replace(prediction_hooks=(StopAfterBatches(2),))
        return spec

    config = tpu.RunConfig(model_dir=str(tmp_path), tpu_config=tpu.TPUConfig(iterations_per_loop=4))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                 train_batch_size=16, predict_batch_size=4)
    estimator.train(interop_model.input_fn, max_steps=4)

    def predict_input_fn(params):
        return tf.data.Dataset.from_tensor_slices(interop_model.FEATURES[:20]).batch(
            params["batch_size"])

    recording = RecordingHook()
    predictions = list(estimator.predict(predict_input_fn, hooks=[recording]))
    # The spec's hook asked to stop after the 2nd batch: 2 batches of 4 rows were yielded.
    assert len(predictions) == 8
    assert recording.calls == ["begin", ("after_create_session", 4), ("after_run", 4, (8, 3)),
                               ("after_run", 4, (8, 3)), ("end", 4)]


def test_evaluation_hooks_from_model_fn_see_the_last_eval_step(tmp_path):
    def eval_hook(features, labels, logits, loss):
        return {"evaluation_hooks": [LastValues({"loss": loss, "rows": tf.shape(features)[0]})]}

    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=4,
                                    model_fn=tiny.make_model_fn(spec_kwargs=eval_hook))
    estimator.train(tiny.input_fn, max_steps=4)
    results = estimator.evaluate(tiny.input_fn, steps=1)
    (loop,) = [loop for key, loop in estimator._loops.items() if key[0] == tpu.ModeKeys.EVAL]
    (hook,) = loop.hook_tensors.hooks
    # One eval step: the reported loss (the mean over steps) is that step's loss.
    assert hook.seen == [{"loss": np.float32(results["loss"]), "rows": 16}]
