"""TF1 optimizers given to Keras compile keep TF 1.x's numbers after estimator-migrate (oracle test).

tests/migrate/programs/keras_tf1_optimizers.py compiles small Keras models with TF1 optimizers
(a dense model, and one that starts with an Embedding, whose gradient is sparse) and trains each
8 steps from fixed weights. TF 1.15 runs it as written; TF 2.21 runs the codemod's output (TF 1.x's
optimizers as Keras 3 optimizers, estimator_bridge.compat.keras_tf1_optimizers, and Keras' SGD for
plain gradient descent). One run of each side serves every case.

Before the compat optimizers (Keras 3's own RMSprop, Adam, SGD(momentum), Adagrad, Adadelta, Ftrl),
measured: RMSProp losses 0.06-0.11 apart and weights 0.37-0.62 of their RMS (its accumulator
started at 0, TF 1.x's at 1); with the Embedding Adam 8.5e-2, Momentum 3.4e-2, Adadelta 2.9e-3,
Adagrad 1.9e-3, Ftrl 1.9 (rows summed after squaring, rows the batch did not touch moved).
"""

import importlib
import inspect
import json
import subprocess

import numpy as np
import pytest

from migrate.engine import migrate_text
from migrate.tables.keras import TF1_OPTIMIZERS
from tests.support.oracles import REPO_ROOT, oracle_env, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "keras_tf1_optimizers.py"
CASES = [name + suffix for name in ("adam", "adam_positional", "sgd", "momentum", "nesterov", "adagrad",
                                    "adagrad_initial", "adadelta", "rmsprop", "rmsprop_momentum",
                                    "rmsprop_centered", "ftrl")
         for suffix in ("", "_embedding") if (name, suffix) != ("adam_positional", "_embedding")]
# Measured (TF 2.21 + Keras 3.15 vs TF 1.15, CPU, oneDNN off; the oracle repeats itself exactly): the
# optimizers run TF 1.x's kernels, the forward and backward passes round differently (plain SGD:
# losses 9.8e-8, weights 1.1e-7 of their RMS). Every case: per-step losses within 1.4e-7 relative,
# final weights within 2.3e-7 of their tensor's RMS, except Ftrl: 2.0e-6 (dense) and 5.9e-6 (Embedding),
# because its weight is -linear / (sqrt(accum) / lr + 2 l2) with linear the running sum of
# g - sigma * weight, which cancels on weights near zero and enlarges the gradients' rounding.
LOSS_RTOL = 1e-6
WEIGHT_RTOL = {"ftrl": 1e-5, "ftrl_embedding": 1e-5}

pytestmark = pytest.mark.oracle


@pytest.fixture(scope="module")
def migrated_program(tmp_path_factory):
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    assert "tf.train." not in migrated and "compat.v1.train" not in migrated
    # Every TF1 optimizer of the program has a faithful rewrite: no Keras finding (MIG206 before).
    assert [f.code for f in findings if f.code.startswith("MIG20")] == []
    path = tmp_path_factory.mktemp("migrated") / PROGRAM.name
    path.write_text(migrated)
    return path


@pytest.fixture(scope="module")
def oracle_cases():
    oracle = run_json(oracle_python("tf115"), PROGRAM, *CASES)
    assert oracle["tensorflow"] == "1.15.0"
    return oracle["cases"]


@pytest.fixture(scope="module")
def current_cases(migrated_program):
    return run_current_json(migrated_program, *CASES)["cases"]


def _largest_differences(ours, theirs):
    losses = np.abs(np.subtract(ours["losses"], theirs["losses"])) / np.abs(theirs["losses"])
    weights = max(float(np.max(np.abs(np.subtract(a, b))) / np.sqrt(np.mean(np.square(b))))
                  for a, b in zip(ours["weights"], theirs["weights"]))
    return float(losses.max()), weights


@pytest.mark.parametrize("case", CASES)
def test_the_migrated_optimizer_reproduces_the_tf1_update(oracle_cases, current_cases, case):
    losses, weights = _largest_differences(current_cases[case], oracle_cases[case])
    print(f"{case}: losses {losses:.2e}, weights {weights:.2e}")
    assert losses <= LOSS_RTOL and weights <= WEIGHT_RTOL.get(case, 1e-6), (case, losses, weights)


def test_table_signatures_are_tf_1_15s():
    code = ("import inspect, json, tensorflow as tf\n"
            "print(json.dumps({n: list(inspect.signature(getattr(tf.train, n).__init__).parameters)[1:] "
            f"for n in {[key.rsplit('.', 1)[1] for key in TF1_OPTIMIZERS]!r}}}))\n")
    completed = subprocess.run([str(oracle_python("tf115")), "-c", code], capture_output=True, text=True,
                               env=oracle_env(), timeout=300, check=True)
    signatures = json.loads(completed.stdout.strip().splitlines()[-1])
    for key, entry in TF1_OPTIMIZERS.items():
        assert tuple(signatures[key.rsplit(".", 1)[1]]) == entry.signature, key


def test_target_parameters_exist():
    for key, entry in TF1_OPTIMIZERS.items():
        module, _, name = entry.target.replace("tensorflow.keras.", "keras.").rpartition(".")
        parameters = inspect.signature(getattr(importlib.import_module(module), name).__init__).parameters
        for parameter in [entry.rename.get(n, n) for n in entry.signature if n not in entry.dropped] + list(entry.defaults):
            assert parameter in parameters, (key, parameter)
