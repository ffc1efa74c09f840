"""Shared steps of the oracle tests of legacy-Keras `fit` programs (tests/migrate/programs/keras_fit_*.py).

Such a program prints one JSON line `{"tensorflow": VERSION, "cases": {NAME: CASE}}`, a CASE being
`{"history", "kernel", "next_draw"}` or `{"error": "Type: message"}`. `oracle_cases` runs it on an
oracle, `migrated_cases` migrates it for one Keras target and runs it on current TensorFlow,
`assert_same_training` compares one case, `largest_difference` says by how much two cases differ
(what docs/results report as "before").
"""

from __future__ import annotations

import numpy as np

from migrate.engine import migrate_text
from migrate.keras_target import ENVIRONMENT
from tests.support.oracles import oracle_python, run_current_json, run_json

ORACLE_VERSIONS = {"tf115": "1.15.0", "tf215": "2.15.1"}


def oracle_cases(program, oracle: str = "tf115") -> dict:
    result = run_json(oracle_python(oracle), program)
    assert result["tensorflow"].startswith(ORACLE_VERSIONS[oracle][:4])
    return result["cases"]


def migrated_text(program, target: str):
    """(text, findings) of estimator-migrate on `program` for the Keras target `target` ("3" or "2")."""
    import pytest

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENVIRONMENT, target)
        return migrate_text(program.read_text(), str(program))


def migrated_cases(program, target: str, folder) -> dict:
    text, _ = migrated_text(program, target)
    path = folder / program.name
    path.write_text(text)
    return run_current_json(path)["cases"]


def assert_same_training(theirs: dict, ours: dict) -> None:
    """The same error, or the same history (1e-6 relative), kernel (1e-5) and next numpy draw."""
    if "error" in theirs:
        assert "error" in ours and ours["error"].split(":")[0] == theirs["error"].split(":")[0], ours
        return
    assert "error" not in ours, ours.get("error")
    assert ours["next_draw"] == theirs["next_draw"]   # the numpy stream is where the oracle left it
    assert sorted(ours["history"]) == sorted(theirs["history"])
    for key, values in theirs["history"].items():
        np.testing.assert_allclose(ours["history"][key], values, rtol=1e-6, atol=1e-7, err_msg=key)
    np.testing.assert_allclose(ours["kernel"], theirs["kernel"], rtol=1e-5, atol=1e-7)


def largest_difference(theirs: dict, ours: dict) -> str:
    """How far `ours` is from `theirs`: the largest relative difference of a history entry, or the error."""
    if "error" in ours or "error" in theirs:
        return f"oracle: {theirs.get('error', 'runs')}; ours: {ours.get('error', 'runs')}"
    worst, where = 0.0, None
    for key, values in theirs["history"].items():
        if key not in ours["history"]:
            return f"no {key}"
        difference = np.max(np.abs(np.subtract(ours["history"][key], values)) / np.maximum(np.abs(values), 1e-12))
        if difference > worst:
            worst, where = float(difference), key
    draw = "draw equal" if ours["next_draw"] == theirs["next_draw"] else "draw differs"
    return f"{where} {worst:.2g}; {draw}" if where else f"equal; {draw}"
