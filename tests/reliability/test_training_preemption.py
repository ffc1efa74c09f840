"""SIGTERM (preemption) during train(): finish the loop, checkpoint at that step, stop cleanly.

In process, a SessionRunHook sends SIGTERM to this process between loops (hooks run once per
loop, as on TPU); in the slow test a real training subprocess gets SIGTERM from outside, as a
TPU VM's preemption notice arrives, and must exit with status 143 and the message. Either way
the resumed run continues from the saved step and ends with exactly the weights and loss of an
uninterrupted bridge run that stopped at that step (`train(max_steps=k)`) and resumed.

Bridge against bridge: no oracle runs here. That a bridge stop-and-resume equals TF 1.15's is
shown against the oracle in test_core_regression.py::test_resume_continues_where_the_first_train_
call_stopped.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny
from tests.reliability.test_training_crash import (assert_loadable, start_training_process,
                                                   train_in_process, wait_for_first_loop)

tf1 = tf.compat.v1


class SigtermAtStep(tf1.train.SessionRunHook):
    """Sends SIGTERM to this process once the global step reaches `step` (between loops)."""

    def __init__(self, step):
        self._step = step
        self.sent = False

    def begin(self):
        self._global_step = tf1.train.get_global_step()

    def before_run(self, run_context):
        return tf1.train.SessionRunArgs(self._global_step)

    def after_run(self, run_context, run_values):
        if not self.sent and run_values.results >= self._step:
            self.sent = True
            os.kill(os.getpid(), signal.SIGTERM)


def checkpoint_tensors(model_dir):
    reader = tf.train.load_checkpoint(tf.train.latest_checkpoint(str(model_dir)))
    return {name: reader.get_tensor(name) for name in reader.get_variable_to_shape_map()}


def assert_resumes_like_stop_and_resume(tmp_path, *, stopped_at, max_steps, **estimator_kwargs):
    """Resumes tmp_path/preempted to max_steps; its checkpoint must equal, bit for bit, that of
    a bridge reference run stopped at `stopped_at` on purpose and resumed."""
    tiny.make_estimator(tmp_path / "preempted", **estimator_kwargs).train(
        tiny.input_fn, max_steps=max_steps)
    reference = tiny.make_estimator(tmp_path / "reference", **estimator_kwargs)
    reference.train(tiny.input_fn, max_steps=stopped_at)
    reference.train(tiny.input_fn, max_steps=max_steps)
    resumed, expected = checkpoint_tensors(tmp_path / "preempted"), checkpoint_tensors(
        tmp_path / "reference")
    assert int(resumed["global_step"]) == max_steps
    for name in expected:
        np.testing.assert_array_equal(resumed[name], expected[name], err_msg=name)


def test_sigterm_saves_at_the_current_step_and_raises_training_preempted(tmp_path, caplog):
    previous_handler = signal.getsignal(signal.SIGTERM)
    # save_checkpoints_steps=1000: the only checkpoint after step 0 is the preemption's.
    estimator = tiny.make_estimator(tmp_path / "preempted", iterations_per_loop=4,
                                    save_checkpoints_steps=1000)
    hook = SigtermAtStep(8)
    with caplog.at_level("WARNING", logger="estimator_bridge"):
        with pytest.raises(tpu.TrainingPreempted) as raised:
            estimator.train(tiny.input_fn, max_steps=40, hooks=[hook])
    # The signal arrived after the loop ending at step 8; the handler asks to stop after the
    # next loop boundary the controller sees, which is that same boundary.
    assert raised.value.step == 8
    assert raised.value.code == tpu.PREEMPTED_EXIT_CODE == 143
    assert isinstance(raised.value, SystemExit) and not isinstance(raised.value, Exception)
    assert raised.value.checkpoint_path == str(tmp_path / "preempted" / "model.ckpt-8")
    assert assert_loadable(tmp_path / "preempted") == 8
    assert re.search(r"training preempted \(SIGTERM\): stopped after the loop ending at global "
                     r"step 8 and saved checkpoint .*model.ckpt-8\. Run train\(\) again with the "
                     r"same model_dir to resume from step 8", caplog.text)
    assert signal.getsignal(signal.SIGTERM) is previous_handler

    assert_resumes_like_stop_and_resume(tmp_path, stopped_at=8, max_steps=40, iterations_per_loop=4)


def test_preemption_saves_even_without_periodic_checkpoints(tmp_path):
    estimator = tiny.make_estimator(tmp_path, iterations_per_loop=2,
                                    save_checkpoints_steps=None, save_checkpoints_secs=None)
    with pytest.raises(tpu.TrainingPreempted) as raised:
        estimator.train(tiny.input_fn, max_steps=20, hooks=[SigtermAtStep(4)])
    assert raised.value.step == 4
    assert assert_loadable(tmp_path) == 4


def test_train_in_another_thread_leaves_sigterm_alone(tmp_path):
    """signal.signal works only in the main thread: train() elsewhere installs nothing."""
    previous_handler = signal.getsignal(signal.SIGTERM)
    seen_handlers, errors = [], []

    class RecordHandler(tf1.train.SessionRunHook):
        def after_run(self, run_context, run_values):
            seen_handlers.append(signal.getsignal(signal.SIGTERM))

    def train():
        try:
            tiny.make_estimator(tmp_path).train(tiny.input_fn, max_steps=4,
                                                hooks=[RecordHandler()])
        except BaseException as error:  # surfaced below, in the test's thread
            errors.append(error)

    thread = threading.Thread(target=train)
    thread.start()
    thread.join()
    assert errors == []
    assert seen_handlers and all(handler is previous_handler for handler in seen_handlers)
    assert assert_loadable(tmp_path) == 4


@pytest.mark.slow
def test_sigterm_from_outside_exits_143_with_the_message_and_resumes_exactly(tmp_path):
    process = start_training_process(tmp_path / "preempted", max_steps=400,
                                     iterations_per_loop=5, save_checkpoints_steps=1000,
                                     keep_checkpoint_max=5)
    try:
        assert wait_for_first_loop(process) is not None, process.stderr.read()
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == tpu.PREEMPTED_EXIT_CODE, stderr
    assert "finished" not in stdout
    match = re.search(r"training preempted \(SIGTERM\): stopped after the loop ending at global "
                      r"step (\d+) and saved checkpoint .*model\.ckpt-(\d+)\. Run train\(\) "
                      r"again with the same model_dir to resume from step \d+; exit code 143\.",
                      stdout)
    assert match, stdout[-2000:]
    step = int(match.group(1))
    assert step == int(match.group(2)) and step % 5 == 0 and 0 < step < 400
    assert "Traceback" not in stderr
    assert assert_loadable(tmp_path / "preempted") == step

    resumed_loss, resumed = train_in_process(tmp_path / "preempted", 400)
    train_in_process(tmp_path / "reference", step)
    reference_loss, reference = train_in_process(tmp_path / "reference", 400)
    assert resumed_loss == reference_loss
    for name in reference:
        np.testing.assert_array_equal(resumed[name], reference[name], err_msg=name)


@pytest.mark.slow
def test_preemption_on_two_emulated_tpu_cores_resumes_exactly(tmp_path):
    """The same contract under MirroredStrategy: the checkpoint holds the replicas' common value."""
    estimator = tiny.make_estimator(tmp_path / "preempted", replicas=2, iterations_per_loop=3,
                                    save_checkpoints_steps=1000)
    with pytest.raises(tpu.TrainingPreempted) as raised:
        estimator.train(tiny.input_fn, max_steps=30, hooks=[SigtermAtStep(6)])
    assert raised.value.step == 6
    assert assert_loadable(tmp_path / "preempted") == 6
    assert_resumes_like_stop_and_resume(tmp_path, stopped_at=6, max_steps=30, replicas=2,
                                        iterations_per_loop=3)
