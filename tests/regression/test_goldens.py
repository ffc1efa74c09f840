"""The committed goldens are complete, consistent with the catalog, and start where they say.

Fast checks (no oracle, no training): every shipped example has a golden recorded by the oracle
it claims, with the flags the catalog runs today, the numbers a comparison needs, and start-state
files whose tensors are exactly the ones the oracle run began from (the sha256 the oracle's
harvest took of its own model.ckpt-0).
"""

import json

import numpy as np
import pytest

from verify import harvest
from legacy_examples.catalog import EXAMPLES
from verify.environments import ORACLE_VERSIONS
from verify.compare import flatten_numbers, load_golden

EXAMPLE_NAMES = [example.name for example in EXAMPLES]


def test_six_examples_cover_both_oracles():
    assert len(EXAMPLES) >= 6
    assert {example.oracle for example in EXAMPLES} == {"tf115", "tf215"}
    assert len(set(EXAMPLE_NAMES)) == len(EXAMPLE_NAMES)


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_NAMES)
def test_golden_was_recorded_by_its_oracle_with_todays_flags(example):
    golden = load_golden(example.golden_path)
    assert golden["example"] == example.name
    assert golden["oracle"] == example.oracle
    assert golden["tensorflow"] == ORACLE_VERSIONS[example.oracle]
    assert golden["flags"] == list(example.flags)
    assert golden["runs_compared"] >= 2  # recorded only after two identical oracle runs


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_NAMES)
def test_golden_holds_losses_metrics_predictions_and_variables(example):
    result = load_golden(example.golden_path)["result"]
    loss_tag = example.tags[0] if example.tags else None  # the Estimator's loss summary
    losses = (result.get("scalars", {}).get(loss_tag) or result.get("train_losses", {}).get("rows")
              or result.get("history", {}).get("rows"))  # a notebook keeps Keras' per-epoch History
    assert losses, "no training loss recorded"
    assert result["eval"], "no eval metrics recorded"
    assert result["predictions"]["rows"], "no predictions recorded"
    assert sorted(result["variables"]) == sorted(example.variables)
    numbers = flatten_numbers(result)
    assert all(np.isfinite(value) for value in numbers.values())


@pytest.mark.parametrize("example", EXAMPLES, ids=EXAMPLE_NAMES)
def test_golden_stays_small(example):
    # Goldens are reviewed in diffs; a few KB of JSON each (start-state files are separate).
    assert example.golden_path.stat().st_size < 16_000


@pytest.mark.parametrize("example", [e for e in EXAMPLES if "model.ckpt-0.index" in e.start_state],
                         ids=lambda e: e.name)
def test_committed_ckpt0_is_the_checkpoint_the_oracle_started_from(example):
    golden = load_golden(example.golden_path)
    digest = harvest.checkpoint_digest(str(example.folder / "model.ckpt-0"))
    assert digest == golden["result"]["ckpt0_sha256"]


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.start_state == ("initial_weights.npz",)],
                         ids=lambda e: e.name)
def test_keras_initial_weights_load_and_match_the_golden_layout(example):
    golden = load_golden(example.golden_path)["result"]
    with np.load(example.folder / "initial_weights.npz") as initial:
        shapes = [list(initial[f"arr_{i}"].shape) for i in range(len(initial.files))]
        last = f"arr_{len(initial.files) - 2}"  # the last kernel
        start = [float(v) for v in initial[last].reshape(-1)[:16]]
    assert shapes == [golden["variables"][f"arr_{i}"]["shape"] for i in range(len(shapes))]
    # Training moved every weight away from its start: the golden is not the initial state.
    assert start != golden["variables"][last]["values"]


def test_golden_files_are_plain_sorted_json():
    for example in EXAMPLES:
        text = example.golden_path.read_text()
        assert json.dumps(json.loads(text), indent=1, sort_keys=True) + "\n" == text


def test_program_environment_drops_what_importing_current_tensorflow_sets(monkeypatch):
    from verify.environments import program_env

    import tensorflow  # noqa: F401  (sets TF2_BEHAVIOR=1 in os.environ)

    monkeypatch.setenv("TF2_BEHAVIOR", "1")
    assert "TF2_BEHAVIOR" not in program_env()
    assert program_env(onednn=False)["TF_ENABLE_ONEDNN_OPTS"] == "0"
