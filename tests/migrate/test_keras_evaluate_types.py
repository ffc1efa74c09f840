"""What `evaluate` returns in a TF 1.x Keras program: on the runner and after estimator-migrate (oracle tests).

TF 1.15 (on NumPy 1.x) returned the loss as numpy.float64, a subclass of Python's float that json.dumps
takes, and a metric as numpy.float32 (tests/migrate/programs/keras_evaluate_types.py, on arrays, a
dataset, a Sequence and a generator). The runner's tf-keras v1 loops sum the same float32 step losses
into 0.0 under NumPy 2, which keeps float32: before this fix `evaluate` returned numpy.float32 and the
program's `json.dumps(model.evaluate(...))` raised "TypeError: Object of type float32 is not JSON
serializable". compat/tf_keras_tf1_float64.py makes the sum float64 as it was: the runner's type names
are TF 1.15's. Keras 3 and tf-keras in TF 2 mode (the migrated sides) return Python floats: a float
wherever TF 1.15's was one, the metric a float where TF 1.15's float32 was not (json takes both).
"""

import numpy as np
import pytest

from tests.support.three_sides import run_side

PROGRAM = __import__("pathlib").Path(__file__).parent / "programs" / "keras_evaluate_types.py"
CASES = [f"{name}_{metrics}" for name in ("arrays", "dataset", "sequence", "generator") for metrics in (0, 1)]


def test_the_runners_loops_sum_the_loss_in_float64():
    from tf_keras.src.engine import training_utils_v1

    from estimator_bridge.compat import tf_keras_tf1_float64

    tf_keras_tf1_float64.install()
    tf_keras_tf1_float64.install()   # once is enough: a second install changes nothing
    aggregator = training_utils_v1.MetricsAggregator(use_steps=False, num_samples=3)
    aggregator.create([np.float32(0.5), np.float32(2.0)])
    aggregator.aggregate([np.float32(0.1), np.float32(2.0)], 0, 2)
    aggregator.aggregate([np.float32(0.7), np.float32(3.0)], 2, 3)
    aggregator.finalize()
    loss, metric = aggregator.results
    assert type(loss) is np.float64 and type(metric) is np.float32
    assert loss == (np.float64(np.float32(0.1)) * 2 + np.float64(np.float32(0.7))) / 3


def _close(ours, oracle, label):
    for case in CASES:
        assert ours[case]["list"] == oracle[case]["list"], (label, case)
        np.testing.assert_allclose(ours[case]["values"], oracle[case]["values"], rtol=1e-6, err_msg=f"{label} {case}")


@pytest.mark.oracle
def test_the_runners_evaluate_returns_tf_1_15s_types(tmp_path):
    oracle = run_side("oracle", PROGRAM, [], tmp_path)
    runner = run_side("runner", PROGRAM, [], tmp_path)
    assert oracle.returncode == 0 and oracle.result["tensorflow"] == "1.15.0", oracle.stderr[-2000:]
    assert runner.returncode == 0, runner.stderr[-3000:]
    for case in CASES:
        assert runner.result[case]["types"] == oracle.result[case]["types"], case
    _close(runner.result, oracle.result, "runner")
    assert float(runner.result["json"]) == pytest.approx(float(oracle.result["json"]), rel=1e-6)


@pytest.mark.oracle
@pytest.mark.parametrize("target", ["3", "2"])
def test_the_migrated_evaluate_returns_floats_where_tf_1_15_did(tmp_path, monkeypatch, target):
    from migrate.keras_target import ENVIRONMENT

    oracle = run_side("oracle", PROGRAM, [], tmp_path)
    monkeypatch.setenv(ENVIRONMENT, target)
    migrated = run_side("migrated", PROGRAM, [], tmp_path)
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    for case in CASES:
        assert all(ours or not theirs for ours, theirs in zip(migrated.result[case]["float"], oracle.result[case]["float"])), case
    _close(migrated.result, oracle.result, f"--keras {target}")
