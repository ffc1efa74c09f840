"""Multi-worker training from TF_CONFIG (MultiWorkerMirroredStrategy), and TPU connection errors."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT

WORKER_PROGRAM = """
import json, sys
import estimator_bridge as tpu
from tests.estimator_bridge import interop_model as model
from tests.support.events import read_scalars
model_dir, max_steps = sys.argv[1], int(sys.argv[2])
config = tpu.RunConfig(model_dir=model_dir, save_summary_steps=1, save_checkpoints_steps=4,
                       tpu_config=tpu.TPUConfig(iterations_per_loop=4))
estimator = tpu.TPUEstimator(
    model_fn=model.make_model_fn(tpu.TPUEstimatorSpec, tpu.CrossShardOptimizer),
    config=config, use_tpu=True, train_batch_size=16)
estimator.train(model.input_fn, max_steps=max_steps)
result = {"task": [config.task_type, config.task_id], "is_chief": config.is_chief,
          "replicas": estimator._deployment.num_replicas}
if config.is_chief:
    result["losses"] = read_scalars(model_dir, "loss")
    result["variables"] = {name: estimator.get_variable_value(name).tolist()
                           for name in estimator.get_variable_names()}
print(json.dumps(result))
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_worker(model_dir, max_steps, tf_config=None):
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONPATH": str(REPO_ROOT)}
    env.pop("TF_CONFIG", None)
    if tf_config is not None:
        env["TF_CONFIG"] = json.dumps(tf_config)
    return subprocess.Popen([sys.executable, "-c", WORKER_PROGRAM, str(model_dir), str(max_steps)],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def result_of(process, timeout=600):
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        raise
    assert process.returncode == 0, stderr[-4000:]
    return json.loads(stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_two_workers_match_one_process_at_the_same_global_batch(tmp_path):
    addresses = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    workers = [start_worker(tmp_path / "two_workers", 8, {
        "cluster": {"worker": addresses}, "task": {"type": "worker", "index": index}})
        for index in range(2)]
    chief, other = [result_of(worker) for worker in workers]
    single = result_of(start_worker(tmp_path / "one_process", 8))
    assert chief["is_chief"] and not other["is_chief"] and other["task"] == ["worker", 1]
    assert chief["replicas"] == 2 and single["replicas"] == 1
    # Measured: the all-reduce sums the two half-batch gradients in another order than one
    # process sums the whole batch; losses differ by <= 1.2e-7 (relative 1.1e-7) and weights
    # by <= 3e-8 (float32 ulps), compared by tests/support/numbers.py (relative to the
    # variable's RMS, no atol). 1e-6 is far below one step's change (0.1 and more here).
    for step, loss in single["losses"].items():
        assert_close(chief["losses"][step], loss, rtol=1e-6, what=f"loss at step {step}")
    assert sorted(chief["losses"]) == sorted(single["losses"]) and len(single["losses"]) == 8
    assert sorted(chief["variables"]) == sorted(single["variables"])
    for name, value in single["variables"].items():
        assert_close(chief["variables"][name], value, rtol=1e-6, what=name)
    # Only the chief wrote into model_dir: one event file, one series of checkpoints.
    written = sorted(os.listdir(tmp_path / "two_workers"))
    assert len([name for name in written if name.startswith("events.")]) == 1
    assert [name for name in written if name.endswith(".index")] == [
        "model.ckpt-0.index", "model.ckpt-4.index", "model.ckpt-8.index"]


# ---- a TPU that is not there: a quick, clear error ---------------------------------------------

def _closed_port_master():
    return f"grpc://127.0.0.1:{free_port()}"  # bound, then released: nothing listens there


@pytest.mark.parametrize("config_kwargs", [
    lambda: {"master": _closed_port_master()},
    lambda: {"cluster": tf.distribute.cluster_resolver.TPUClusterResolver(
        tpu=_closed_port_master())},
], ids=["master", "TPUClusterResolver"])
@pytest.mark.timeout(120)
def test_an_unreachable_tpu_fails_with_the_address_and_the_fix(tmp_path, config_kwargs):
    """The connection attempt is bounded, so the error comes instead of a hang; a hang fails this
    test at its timeout with a stack (no wall-clock assertion: the machine is shared)."""
    config = tpu.RunConfig(model_dir=str(tmp_path), **config_kwargs())
    estimator = tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=config, use_tpu=True,
                                 train_batch_size=16)
    with pytest.raises(RuntimeError, match=r"RunConfig names the TPU at 'grpc://127.0.0.1:\d+', "
                                           r"but it is not reachable.*pass use_tpu=False"):
        estimator.train(tiny.input_fn, max_steps=1)
