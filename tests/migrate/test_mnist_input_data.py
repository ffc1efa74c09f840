"""`tensorflow.examples.tutorials.mnist.input_data` migrated to estimator_bridge.compat.mnist_input_data reads
what TF 1.15 read (oracle test).

tests/migrate/programs/mnist_input_data.py (the tutorials of heldout5: hunkim/DeepLearningZeroToAll,
Hvass-Labs/TensorFlow-Tutorials; idx files written locally, 40 train / 12 test digits): one-hot float32 and
raw uint8 readings, a validation split, six seeded next_batch calls across an epoch boundary and an
unshuffled batch. Before, the import line was a MIG306 error (TF 2 ships no tensorflow.examples). Measured:
every number, label, shape and dtype equal to TF 1.15's.
"""

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, oracle_python, run_current_json, run_json

PROGRAM = REPO_ROOT / "tests" / "migrate" / "programs" / "mnist_input_data.py"


def test_the_import_goes_and_the_reader_is_the_bridges():
    migrated, findings = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    code = migrated.split('"""')[2]  # after the docstring, which names the original import
    assert "tensorflow.examples" not in code and "import estimator_bridge.compat.mnist_input_data" in code
    assert "estimator_bridge.compat.mnist_input_data.read_data_sets(folder, one_hot=True" in migrated
    assert findings == []


@pytest.mark.oracle
def test_the_migrated_reader_and_the_runner_give_tf_1_15s_batches(tmp_path):
    """The runner serves the same reader to the unchanged import (it raised ModuleNotFoundError:
    No module named 'tensorflow.examples'; found on a 2017 contrib.learn Experiment MNIST tutorial)."""
    migrated, _ = migrate_text(PROGRAM.read_text(), str(PROGRAM))
    path = tmp_path / PROGRAM.name
    path.write_text(migrated)
    expected = run_json(oracle_python("tf115"), PROGRAM)
    ours = run_current_json(path)
    runner = run_current_json("-m", "estimator_bridge.run", str(PROGRAM), cwd=tmp_path)
    assert (expected.pop("tensorflow"), ours.pop("tensorflow")[0], runner.pop("tensorflow")[0]) == ("1.15.0", "2", "2")
    assert ours == expected
    assert runner == expected
