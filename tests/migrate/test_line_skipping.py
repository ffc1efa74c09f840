"""Skipping statement lines never changes the result: the fused pass with line skipping (what the
engine runs) and the same pass visiting every line give byte-identical output and the same
findings.

The pass skips a statement line that holds no name bound by a TensorFlow import (nor a module
alias of one), no import, and none of the names the codemods on for the module declare
(`Codemod.reach`, codemods/registry.py). A codemod that acts on lines without such a name but
declares nothing would show here as a difference. Checked over every fixture (inputs and
expected outputs), every legacy example, the migrated-code corpus of real patterns under
tests/migrate/programs, and generated modules mixing TF1 statements, migrated statements and
hypothesmith's Python (the pre-filter test's generator).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given

from migrate.codemods import fused
from migrate.engine import SkipFile, migrate_text
from tests.migrate.test_prefilter import CORPUS, FAST, REPO, _parses, mixed_modules

PROGRAMS = sorted((REPO / "tests" / "migrate" / "programs").rglob("*.py"))


def both_ways(text: str, name: str):
    """(result with line skipping, result visiting every line); a result is (text, findings) or
    the SkipFile finding."""
    results = []
    for skip in (True, False):
        fused.SKIP_LINES = skip
        try:
            results.append(migrate_text(text, name, prefilter=False))
        except SkipFile as skipped:
            results.append(skipped.finding)
        finally:
            fused.SKIP_LINES = True
    return results


@pytest.mark.parametrize("path", CORPUS + PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_skipping_lines_changes_nothing_on_the_fixtures(path):
    skipping, every_line = both_ways(path.read_text(), path.name)
    assert skipping == every_line


@pytest.mark.parametrize("source, reason", [
    ("import tensorflow as tf\nx = tf.zeros([1])\nd = x.shape[0].value\n", "a Dimension read, no TF name on its line"),
    ("import tensorflow as tf\nsummary = tf.contrib.summary\ny = 1\nsummary.scalar('a', y)\n", "a module alias"),
    ("import tensorflow as tf\nm = tf.contrib.tpu.keras_to_tpu_model(model, strategy=s)\nm.compile(optimizer='sgd')\n",
     "the compile of a converted model"),
    ("import tensorflow as tf\nstrategy.experimental_run_v2(step)\n", "a renamed strategy method"),
    ("import tensorflow as tf\nmodel.fit_generator(gen, steps_per_epoch=2)\n", "a Keras 2 method on any receiver"),
])
def test_lines_without_a_tensorflow_name_that_a_codemod_acts_on_are_visited(source, reason):
    skipping, every_line = both_ways(source, "module.py")
    assert skipping == every_line, reason
    assert skipping[0] != source, f"{reason}: expected a rewrite"


@FAST
@given(mixed_modules())
def test_generated_modules_agree(source):
    assume(_parses(source))
    skipping, every_line = both_ways(source, "module.py")
    assert skipping == every_line
