"""The pre-filter never hides work: wherever it answers "nothing to do", the full libcst pipeline
leaves the text byte-identical and reports nothing but the TF2-marker note and the final name
check's findings (MIG305/MIG306), which both paths compute the same way.

Checked over every fixture (inputs and expected outputs), every legacy example and its migrated
form (what a no-op re-run sees), generated modules mixing real TF1 statements, already migrated
statements and hypothesmith's Python, and (slow) every module of the installed Keras package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import keras
from migrate.engine import TF1_PIPELINE, TF2_PIPELINE, SkipFile, decode, migrate_text, tf2_marker
from migrate.prefilter import nothing_to_do
from migrate.tables.contrib import UNSUPPORTED

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "migrate" / "fixtures"
# Findings the engine computes on both paths (the TF2 marker, the final name check of the output).
FINAL_PASS_CODES = {"MIG101", "MIG210", "MIG305", "MIG306", "MIG307"}
# The final check names a name reached through a served contrib module (`x = estimator_bridge.compat.v1.
# contrib.X`, a migrated file) with the contrib table's own code, on both paths too.
SERVED_CODES = {entry.code for entry in UNSUPPORTED.values()}
CORPUS = sorted(FIXTURES.rglob("*.py")) + sorted((REPO / "legacy_examples").rglob("*.py"))


def full_pipeline(text: str, name: str):
    """(text, findings) of the libcst pipeline alone, or the SkipFile finding it raises."""
    try:
        return migrate_text(text, name, prefilter=False)
    except SkipFile as skip:
        return skip.finding


def assert_both_paths_agree(text: str, name: str = "module.py") -> bool:
    """Where the pre-filter answers alone, the engine's answer equals the full pipeline's and is
    "unchanged, no findings" (MIG101 and the final name check aside); returns whether it answered alone. (Elsewhere the
    engine runs the full pipeline itself, so there is nothing to compare.)"""
    marker = tf2_marker(text)
    cleared = nothing_to_do(text, TF2_PIPELINE if marker else TF1_PIPELINE)
    if cleared:
        full = full_pipeline(text, name)
        assert not isinstance(full, Exception) and full[0] == text, f"{name}: pre-filter skipped a file that changes"
        assert all(f.code in FINAL_PASS_CODES | SERVED_CODES for f in full[1]), \
            f"{name}: pre-filter skipped findings {full[1]}"
        assert migrate_text(text, name) == full, name
    return cleared


# Files the pipeline leaves alone that the pre-filter still sends to libcst: it has no scope
# analysis, so a watched name shadowed locally looks like work to it (conservative, not wrong).
# keras2_apis.after.py: the keras text trigger sees `Input(tensor=` (a comment, the helper) and a
# whole-model ModelCheckpoint("....h5") Keras 3 accepts; it became quiet when `reset_states()`
# was rewritten instead of reported (MIG207).
# run_time_paths.after.py: its Estimator `evaluate(input_fn, steps=n / 8)` and an integer `n // 32` are
# a steps keyword beside a division, which the text trigger of KerasRemovedMethods cannot tell apart.
CONSERVATIVE = {"shadowed_names.py", "final_names.after.py", "keras2_apis.after.py", "run_time_paths.after.py"}


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(REPO)))
def test_prefilter_clears_exactly_the_files_the_pipeline_leaves_alone(path):
    """Each file takes one of two branches and both assert: cleared -> the full pipeline agrees
    (unchanged, no findings); not cleared -> the pipeline really acts on it (rewrites or reports),
    unless the file is a listed conservative case. (Measured: 18 of the 60 files are cleared.)"""
    text = decode(path.read_bytes()).text
    cleared = assert_both_paths_agree(text, str(path))
    if not cleared:
        assert not _quiet(text, str(path)) or path.name in CONSERVATIVE, (
            f"{path}: the pipeline leaves it alone but the pre-filter sent it to libcst")
    else:
        assert path.name not in CONSERVATIVE


@pytest.mark.parametrize("path", sorted((REPO / "legacy_examples").rglob("*.py")), ids=lambda p: p.name)
def test_a_migrated_example_agrees_too_and_is_cleared_without_libcst(path):
    """What a no-op re-run sees: the migrated example. The pre-filter must clear it (that is the
    speed of the re-run) and agree with the pipeline (that is its soundness)."""
    migrated, _ = migrate_text(decode(path.read_bytes()).text, str(path), prefilter=False)
    assert assert_both_paths_agree(migrated, str(path)), f"{path}: migrated output still goes through libcst"


def _quiet(text: str, name: str) -> bool:
    """The pipeline leaves `text` as it is and reports nothing (the TF2 marker note aside)."""
    full = full_pipeline(text, name)
    return not isinstance(full, Exception) and full[0] == text and all(f.code in FINAL_PASS_CODES for f in full[1])


def test_expected_outputs_of_the_fixtures_are_cleared():
    """Every fixture's expected output that the pipeline leaves alone (some keep findings for what
    it cannot rewrite) is cleared without libcst; only files whose names are shadowed locally
    (the pre-filter has no scope analysis) still need libcst to see that."""
    paths = sorted(FIXTURES.rglob("*.after.py")) + sorted((FIXTURES / "noop").glob("*.py"))
    quiet = [p for p in paths if _quiet(p.read_text(), str(p))]
    needs_libcst = {p.name for p in quiet if not assert_both_paths_agree(p.read_text(), str(p))}
    assert len(quiet) >= 10
    # final_names' `def not_tensorflow(tf): return tf.keras.backend.set_learning_phase(1)`: a
    # parameter shadowing `tf` in front of a name the keras codemod rewrites by its key.
    assert needs_libcst == CONSERVATIVE


@pytest.mark.parametrize("source, reason", [
    ("import tensorflow as tf\ntf.Session()\n", "a TF1 name"),
    ("import tensorflow.compat.v1 as tf\ntf.estimator.Estimator(model_fn)\n", "estimator through compat.v1"),
    ("from tensorflow.contrib import tpu as contrib_tpu\nx = 1\n", "an unused import of a dead module"),
    ("import tensorflow as tf\nx = tf.argmax\n", "a TF1/TF2 name not called (its meaning depends on the call)"),
    ("import tensorflow as tf\ny = tf.argmax(x, dimension=1)\n", "a call whose keyword TF2 does not accept"),
    ("import keras\nopt = keras.optimizers.Adam(lr=0.1)\n", "a Keras 2 keyword"),
    ("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n", "a renamed strategy method on any object"),
    ("import tensorflow as tf\ndef f(tf=tf.layers):\n    return tf\n", "a watched name in a default"),
    ("try:\n    import tensorflow.compat.v1 as tf\nexcept ImportError:\n    import tensorflow as tf\ntf.Session\n",
     "two bindings of one name"),
    ("import tensorflow as tf\nimport tensorflow as tf2\nprint(f'{tf2.contrib.data.AUTOTUNE}')\n", "inside an f-string"),
    ("import tensorflow as tf\ntf.disable_v2_behavior()\nest = tf.estimator.Estimator\n", "eager switch in estimator code"),
])
def test_files_the_pipeline_acts_on_are_never_cleared(source, reason):
    assert not nothing_to_do(source, TF1_PIPELINE), reason
    assert_both_paths_agree(source)


@pytest.mark.parametrize("source", [
    "import tensorflow as tf\ny = tf.argmax(x, axis=1)\n",
    "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n",
    "import keras\nopt = keras.optimizers.Adam(learning_rate=0.1)\n",
    "import estimator_bridge\nimport tensorflow as tf\nest = estimator_bridge.TPUEstimator(model_fn=f)\n",
])
def test_already_migrated_code_is_cleared(source):
    assert nothing_to_do(source, TF1_PIPELINE)
    assert_both_paths_agree(source)


def test_unparsable_text_goes_to_the_full_pipeline():
    """CPython cannot parse it, so the pipeline must be the one to report MIG001/MIG002."""
    assert not nothing_to_do("import tensorflow as tf\nprint 'hello'\n", TF1_PIPELINE)
    assert not nothing_to_do("import tensorflow as tf\nx = 1\0\n", TF1_PIPELINE)


# ---------------------------------------------------------------- generated corpus

def _statements(pattern: str) -> list[str]:
    found: dict[str, None] = {}
    for path in sorted(FIXTURES.rglob(pattern)):
        module = cst.parse_module(path.read_text())
        for statement in module.body:
            found[module.code_for_node(statement).strip("\n") + "\n"] = None
    return list(found)


TF1_STATEMENTS = _statements("*.before.py")
MIGRATED_STATEMENTS = _statements("*.after.py") + _statements("noop/*.py")
# Health checks stay on except speed and size (hypothesmith's grammar is slow to draw from):
# filter_too_much must fail a run whose examples are mostly assumed away.
QUIET_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=QUIET_CHECKS)
SLOW = settings(max_examples=400, deadline=None, suppress_health_check=QUIET_CHECKS)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
        cst.parse_module(text)
        return True
    except Exception:
        return False


def mixed_modules():
    """Mostly migrated statements (the pre-filter clears them), some TF1 ones and generated code."""
    part = st.one_of(st.sampled_from(MIGRATED_STATEMENTS), st.sampled_from(MIGRATED_STATEMENTS),
                     st.sampled_from(TF1_STATEMENTS),
                     hypothesmith.from_grammar().map(lambda s: s if s.endswith("\n") else s + "\n"))
    return st.lists(part, min_size=1, max_size=8).map("".join)


@FAST
@given(mixed_modules())
def test_generated_modules_the_prefilter_clears_agree(source):
    """Only examples the pre-filter clears count (assume): elsewhere the engine runs the full
    pipeline itself and there is nothing to compare. Measured: 77 of 100 drawn modules cleared."""
    assume(_parses(source))
    assume(assert_both_paths_agree(source))


@pytest.mark.audit
@SLOW
@given(mixed_modules())
def test_slow_generated_modules_the_prefilter_clears_agree(source):
    assume(_parses(source))
    assume(assert_both_paths_agree(source))


@pytest.mark.audit
def test_slow_every_cleared_keras_module_is_left_alone_by_the_pipeline():
    """Keras 3 (904 modules of real, modern Python importing `keras` everywhere): each module the
    pre-filter clears goes through the full pipeline too, which must leave it alone."""
    root = Path(keras.__file__).resolve().parent
    cleared = 0
    for path in sorted(root.rglob("*.py")):
        try:
            text = decode(path.read_bytes()).text
        except SkipFile:
            continue
        marker = tf2_marker(text)
        if nothing_to_do(text, TF2_PIPELINE if marker else TF1_PIPELINE):
            cleared += 1
            full = full_pipeline(text, str(path))
            assert not isinstance(full, Exception) and full[0] == text, path
            assert all(f.code in FINAL_PASS_CODES for f in full[1]), (path, full[1])
    assert cleared > 0
