"""Property tests of the codemod: for any module (hypothesmith's generated Python, and shuffles of
the real TF1 statements of the codemod's own fixtures mixed with generated code), migrating

  - never raises and never reports an internal error (MIG004/MIG006),
  - returns code that parses (libcst) and compiles (CPython) whenever the input did,
  - is a fixed point: the output migrates to itself,
  - returns a module without TensorFlow names byte-identical, even when the words
    tensorflow/keras appear in its comments (so the full parse-and-rewrite path runs).

Default runs keep `max_examples` small (the machine is shared); the `slow` variants run the same
properties with many more examples.
"""

from __future__ import annotations

import ast
import json
import warnings
from pathlib import Path

import hypothesmith
import libcst as cst
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from migrate.engine import migrate_bytes
from migrate.notebooks import migrate_notebook

FIXTURES = Path(__file__).resolve().parents[1] / "migrate" / "fixtures"
INTERNAL_ERRORS = {"MIG004", "MIG006"}
FAST = settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _top_level_statements() -> list[str]:
    """Every top-level statement of the fixtures' TF1 inputs (real patterns: imports, estimator
    construction, model_fns, contrib calls), as source text."""
    found: dict[str, None] = {}
    for path in sorted(FIXTURES.rglob("*.before.py")):
        module = cst.parse_module(path.read_text())
        for statement in module.body:
            found[module.code_for_node(statement).strip("\n") + "\n"] = None
    return list(found)


TF1_STATEMENTS = _top_level_statements()
IPYTHON_LINES = ["!pip install -q tensorflow==1.15\n", "%matplotlib inline\n", "%load_ext tensorboard\n",
                 "files = !ls\n", "tf.train.AdamOptimizer?\n", "%tensorflow_version 1.x\n"]


def _parses(text: str) -> bool:
    try:
        cst.parse_module(text)
        with warnings.catch_warnings():  # generated code such as `'a'()` warns; only errors matter
            warnings.simplefilter("ignore", SyntaxWarning)
            compile(text, "<generated>", "exec", dont_inherit=True, flags=ast.PyCF_ONLY_AST)
        return True
    except Exception:
        return False


def assert_migration_is_sound(text: str) -> bytes | None:
    """The four properties for one module; returns the migrated bytes (None: unchanged)."""
    data = text.encode("utf-8", "surrogatepass")
    result = migrate_bytes(data, "generated.py")
    assert not {f.code for f in result.findings} & INTERNAL_ERRORS, result.findings
    if result.skipped:
        assert not _parses(text), f"a valid module was skipped: {result.findings}"
        return None
    if result.migrated is None:
        return None
    migrated = result.migrated.decode("utf-8")
    assert _parses(migrated), migrated
    again = migrate_bytes(result.migrated, "generated.py")
    assert again.migrated is None, f"not a fixed point:\n{migrated}\n---\n{again.migrated.decode()}"
    return result.migrated


def mixed_modules():
    """Modules made of real TF1 statements and generated Python, in any order."""
    part = st.one_of(st.sampled_from(TF1_STATEMENTS), st.sampled_from(TF1_STATEMENTS),
                     hypothesmith.from_grammar().map(lambda s: s if s.endswith("\n") else s + "\n"))
    return st.lists(part, min_size=1, max_size=10).map("".join)


def _no_tensorflow_property(source: str) -> None:
    assume("tensorflow" not in source and "keras" not in source and "tensor2tensor" not in source)
    for text in (source, "# tensorflow and keras, mentioned in a comment only\n" + source):
        data = text.encode("utf-8", "surrogatepass")
        result = migrate_bytes(data, "plain.py")
        assert result.migrated is None, "a module without TensorFlow names was changed"
        assert not {f.code for f in result.findings} & INTERNAL_ERRORS


def _notebook(cells: list[list[str]]) -> bytes:
    document = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": lines} for lines in cells],
                "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4,
                "nbformat_minor": 5}
    return (json.dumps(document, indent=1) + "\n").encode()


def notebooks():
    line = st.one_of(st.sampled_from(TF1_STATEMENTS), st.sampled_from(IPYTHON_LINES))
    return st.lists(st.lists(line, min_size=1, max_size=4), min_size=1, max_size=5).map(_notebook)


def _notebook_property(data: bytes) -> None:
    result = migrate_notebook(data, "generated.ipynb")
    assert not {f.code for f in result.findings} & INTERNAL_ERRORS, result.findings
    if result.migrated is None:
        return
    before, after = json.loads(data), json.loads(result.migrated)
    assert len(after["cells"]) == len(before["cells"])
    assert [c["outputs"] for c in after["cells"]] == [c["outputs"] for c in before["cells"]]
    assert migrate_notebook(result.migrated, "generated.ipynb").migrated is None, "notebook not a fixed point"


# ---------------------------------------------------------------- default run (small)

@FAST
@given(hypothesmith.from_grammar())
def test_generated_python_with_tf_imports_is_migrated_soundly(source):
    assert_migration_is_sound("import tensorflow as tf\nfrom tensorflow.contrib import tpu\n" + source)


@FAST
@given(hypothesmith.from_node())
def test_generated_cst_modules_are_migrated_soundly(source):
    assert_migration_is_sound("import tensorflow as tf\n" + source)


@FAST
@given(mixed_modules())
def test_real_tf1_statements_in_any_order_are_migrated_soundly(source):
    assume(_parses(source))
    assert_migration_is_sound(source)


@FAST
@given(hypothesmith.from_grammar())
def test_modules_without_tensorflow_come_back_byte_identical(source):
    _no_tensorflow_property(source)


@FAST
@given(notebooks())
def test_generated_notebooks_are_migrated_soundly(data):
    _notebook_property(data)


def test_the_statement_pool_is_real_tf1_code():
    """The mixed strategy draws from the fixtures: enough of them, and they do need migrating."""
    assert len(TF1_STATEMENTS) > 50
    assert assert_migration_is_sound("".join(TF1_STATEMENTS)) is not None


# ---------------------------------------------------------------- slow profile (many examples)

@pytest.mark.slow
@SLOW
@given(mixed_modules())
def test_slow_real_tf1_statements_in_any_order(source):
    assume(_parses(source))
    assert_migration_is_sound(source)


@pytest.mark.slow
@SLOW
@given(hypothesmith.from_grammar())
def test_slow_generated_python_with_tf_imports(source):
    assert_migration_is_sound("import tensorflow as tf\n" + source)


@pytest.mark.slow
@SLOW
@given(hypothesmith.from_grammar())
def test_slow_modules_without_tensorflow_byte_identical(source):
    _no_tensorflow_property(source)


@pytest.mark.slow
@SLOW
@given(notebooks())
def test_slow_generated_notebooks(data):
    _notebook_property(data)


# ---------------------------------------------------------------- regressions found by the properties

def test_regression_whitespace_only_last_line_is_kept_byte_identical():
    """hypothesmith found `globalA\\n\\n ` changed to `globalA\\n ` by libcst's round trip, although
    nothing was rewritten; unchanged modules now always keep their bytes."""
    data = (Path(__file__).resolve().parent / "fixtures_codemod" / "whitespace_last_line.py").read_bytes()
    assert data.endswith(b"\n\n ")
    assert migrate_bytes(data, "whitespace_last_line.py").migrated is None
