"""Parsing only the statement lines a codemod can reach (migrate/partial_parse.py) never changes
the result: the engine with partial parsing and the engine parsing every line give byte-identical
output and the same findings.

Checked over every fixture (inputs and expected outputs), every legacy example, the test
programs, layouts chosen to break the splice (line endings, comments a block owns, `;`, tabs,
continuations, decorators, a docstring before added imports) and generated modules mixing TF1
statements, migrated statements and hypothesmith's Python.
"""

from __future__ import annotations

import ast
import re

import libcst as cst
import pytest
from hypothesis import assume, given

from migrate import partial_parse
from migrate.codemods.base import WATCHED_PACKAGES
from migrate.engine import TF1_PIPELINE, SkipFile, migrate_text
from migrate.names import import_survey
from tests.migrate.test_line_skipping import PROGRAMS
from tests.migrate.test_prefilter import CORPUS, FAST, REPO, _parses, mixed_modules


def both_ways(text: str, name: str):
    """(result with partial parsing, result parsing every line); a result is (text, findings)
    or the SkipFile finding."""
    results = []
    for enabled in (True, False):
        partial_parse.ENABLED = enabled
        try:
            results.append(migrate_text(text, name, prefilter=False))
        except SkipFile as skipped:
            results.append(skipped.finding)
        finally:
            partial_parse.ENABLED = True
    return results


def partial_of(text: str) -> partial_parse.Partial | None:
    tree = ast.parse(text)
    return partial_parse.parse(text, tree, TF1_PIPELINE, import_survey(tree, WATCHED_PACKAGES))


@pytest.mark.parametrize("path", CORPUS + PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_partial_parsing_changes_nothing_on_the_fixtures(path):
    partial, whole = both_ways(path.read_text(), path.name)
    assert partial == whole


def test_most_fixtures_take_the_partial_path():
    """The agreement above means something only if the splice is exercised."""
    taken = [path for path in CORPUS + PROGRAMS if _parses(path.read_text()) and partial_of(path.read_text())]
    assert len(taken) >= len(CORPUS + PROGRAMS) // 3


_HEAD = "import tensorflow as tf\n"
LAYOUTS = {
    "crlf": _HEAD.replace("\n", "\r\n") + "x = 1\r\ny = [1,\r\n     2]\r\nz = tf.contrib.layers.flatten(x)\r\n",
    "lone cr": _HEAD + "x = 1\ry = 2\nz = tf.contrib.layers.flatten(x)\n",
    "no trailing newline": _HEAD + "z = tf.contrib.layers.flatten(1)\nx = (1,\n     2)  # end",
    "trailing comments": _HEAD + "x = 1  # one\ny = {'a':\n     2}  # two\nz = tf.contrib.layers.flatten(x)  # three\n",
    "semicolons": _HEAD + "a = 1; b = 2\nc = 3; d = tf.contrib.layers.flatten(c)\ne = (4,\n 5); f = 6\n",
    "comments a block owns": (_HEAD + "import tensorflow.contrib.slim as slim\n"
                              "def f():\n    x = 1\n    # owned by the block\n\n    # this too\n"
                              "# not this one\ny = tf.contrib.layers.flatten(2)\n"),
    "tabs": _HEAD + "def f():\n\tx = 1\n\tif x:\n\t\ty = 2\n\treturn tf.contrib.layers.flatten(x)\n",
    "backslash": _HEAD + "x = 1 + \\\n    2\nz = tf.contrib.layers.flatten(x)\n",
    "form feed": _HEAD + "\x0cx = 1\n\x0c\nz = tf.contrib.layers.flatten(x)\n",
    "decorators and nesting": (_HEAD + "@property\n@other(1,\n       2)\ndef f(a, b=3):\n    '''doc'''\n"
                               "    class C:\n        u = 1\n        v = tf.contrib.layers.flatten(u)\n"
                               "    for i in range(3):\n        pass\n    else:\n        w = 2\n    return C\n"),
    "docstring before added imports": ('"""Module doc."""\nfrom __future__ import print_function\n'
                                       "import tensorflow as tf\nx = 1\nhead = tf.contrib.tpu.TPUEstimator\n"),
    "two-space indent": _HEAD + "def f():\n  a = 1\n  with tf.Session() as s:\n    b = 2\n  return a\n",
    "unicode": _HEAD + "é = 'ü'\nz = tf.contrib.layers.flatten(é)  # ß\n",
    "alias of a dead module": ("import tensorflow as tf\nlayers = tf.contrib.layers\nx = 1\n"
                               "y = layers.flatten(x)\n"),
    "an empty tuple statement on a kept line": _HEAD + "x = 1\ntf.contrib.layers.flatten(x); ()\n",
    "a handler that re-raises": (_HEAD + "try:\n    b = tf.contrib.rnn.LayerNormBasicLSTMCell(4)\n"
                                 "except AttributeError:\n    x = 1\n    raise RuntimeError('needs TF 1.x')\n"),
    "a comment a replaced block would own, before a removed import": (
        _HEAD + "def f():\n    return 1\n    # the block of f owns this comment\n"
        "import tensorflow.contrib.layers as layers\ny = layers.flatten(tf.constant(1))\n"),
    "a whitespace-only line a replaced block would own, before a removed import": (
        _HEAD + "def f():\n  return 1\n\n  \n\t\n"
        "import tensorflow.contrib.layers as layers\ny = layers.flatten(tf.constant(1))\n"),
    "compound statements without a reference a rule acts on": (
        _HEAD + "@decorate(1,\n          2)\nclass C:\n    \"doc\"\n    def f(self, x=tf.nn.relu):\n"
        "        return tf.nn.relu(x)\n\n\nif x:\n    y = 1\nelse:\n    y = 2\n\n"
        "def g():\n    return tf.contrib.layers.flatten(1)\n"),
    "try and match": (_HEAD + "try:\n    a = 1\nexcept ValueError as e:\n    b = 2\nfinally:\n    c = 3\n"
                      "match a:\n    case 1:\n        d = tf.contrib.layers.flatten(a)\n    case _:\n        e = 5\n"),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_layouts_that_could_break_the_splice(name):
    text = LAYOUTS[name]
    assert partial_of(text) is not None, "the partial path is not taken: nothing is tested"
    partial, whole = both_ways(text, "module.py")
    assert partial == whole
    assert partial[0] != text or partial[1], "expected a rewrite or a finding"


def test_a_placeholder_lost_falls_back_to_the_whole_parse():
    """`Partial.code` refuses a module whose placeholders are not the ones made (the engine then
    parses the whole file); it never writes a wrong splice."""
    text = _HEAD + "x = 1\ny = 2\nz = tf.contrib.layers.flatten(x)\n"
    partial = partial_of(text)
    assert partial is not None and partial.code(partial.module) == text
    fewer = partial.module.with_changes(body=[s for i, s in enumerate(partial.module.body) if i != 1])
    assert partial.code(fewer) is None
    more = partial.module.with_changes(body=[*partial.module.body, cst.parse_statement("()\n")])
    assert partial.code(more) is None


def test_unreachable_lines_are_not_parsed():
    text = _HEAD + "def f(a):\n    b = [a, a]\n    return tf.contrib.layers.flatten(b)\nc = {1: 2}\n"
    partial = partial_of(text)
    assert partial is not None
    assert partial.text == _HEAD + "def f(a):\n    ()\n    return tf.contrib.layers.flatten(b)\n()\n"


@FAST
@given(mixed_modules())
def test_generated_modules_agree(source):
    assume(_parses(source))
    partial, whole = both_ways(source, "module.py")
    assert partial == whole


# ---- the statement-level selection (partial_parse._Claims) ------------------------------------

def by_name_and_by_statement(text: str, name: str, flag: str = "BY_STATEMENT"):
    """(result keeping only the statements with a reference some rule acts on, result keeping
    every statement that names a reach name); both with the partial parse. `flag` "COMPOUNDS":
    (result replacing such compound statements whole, result replacing only simple statements)."""
    results = []
    for on in (True, False):
        setattr(partial_parse, flag, on)
        try:
            results.append(migrate_text(text, name, prefilter=False))
        except SkipFile as skipped:
            results.append(skipped.finding)
        finally:
            setattr(partial_parse, flag, True)
    return results


@pytest.mark.parametrize("path", CORPUS + PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_keeping_only_statements_a_rule_acts_on_changes_nothing_on_the_fixtures(path):
    by_statement, by_name = by_name_and_by_statement(path.read_text(), path.name)
    assert by_statement == by_name


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_keeping_only_statements_a_rule_acts_on_changes_nothing_on_the_layouts(name):
    by_statement, by_name = by_name_and_by_statement(LAYOUTS[name], "module.py")
    assert by_statement == by_name


@FAST
@given(mixed_modules())
def test_keeping_only_statements_a_rule_acts_on_agrees_on_generated_modules(source):
    assume(_parses(source))
    by_statement, by_name = by_name_and_by_statement(source, "module.py")
    assert by_statement == by_name


def test_statements_whose_references_no_rule_acts_on_are_not_parsed():
    """A TensorFlow reference that means the same in TF 2 (`tf.nn.relu`, `tf.reduce_mean` called
    with TF 2's arguments) does not keep its statement; one a rule renames, reports or reaches
    through a dead module (`slim`) does, and so does a keyword only TF 1.x had."""
    text = ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\nx = tf.constant(1)\n"
            "y = tf.reduce_mean(x, axis=0)\nw = tf.reduce_mean(x, keep_dims=True)\nv = tf.nn.relu(x)\n"
            "u = tf.layers.dense(x, 3)\nt = slim.conv2d(x)\nz = tf.contrib.layers.flatten(x)\n")
    partial = partial_of(text)
    assert partial is not None
    assert partial.text == ("import tensorflow as tf\nimport tensorflow.contrib.slim as slim\n()\n()\n"
                            "w = tf.reduce_mean(x, keep_dims=True)\n()\nu = tf.layers.dense(x, 3)\n"
                            "t = slim.conv2d(x)\nz = tf.contrib.layers.flatten(x)\n")
    by_statement, by_name = by_name_and_by_statement(text, "module.py")
    assert by_statement == by_name and by_statement[0] != text


def test_a_module_alias_keeps_its_statements():
    """`layers = tf.contrib.layers`: every line naming the alias stays (migrate/names.py follows
    it), even where the watched name alone would not keep it."""
    text = ("import tensorflow as tf\nlayers = tf.contrib.layers\nx = tf.nn.relu(1)\n"
            "y = layers.flatten(x)\nz = 2\n")
    partial = partial_of(text)
    assert partial is not None
    assert partial.text == "import tensorflow as tf\nlayers = tf.contrib.layers\n()\ny = layers.flatten(x)\n()\n"


# ---- compound statements replaced whole (partial_parse._whole_compound) -----------------------

@pytest.mark.parametrize("path", CORPUS + PROGRAMS, ids=lambda p: str(p.relative_to(REPO)))
def test_replacing_compound_statements_whole_changes_nothing_on_the_fixtures(path):
    whole_compounds, simple_only = by_name_and_by_statement(path.read_text(), path.name, "COMPOUNDS")
    assert whole_compounds == simple_only


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_replacing_compound_statements_whole_changes_nothing_on_the_layouts(name):
    whole_compounds, simple_only = by_name_and_by_statement(LAYOUTS[name], "module.py", "COMPOUNDS")
    assert whole_compounds == simple_only


@FAST
@given(mixed_modules())
def test_replacing_compound_statements_whole_agrees_on_generated_modules(source):
    assume(_parses(source))
    whole_compounds, simple_only = by_name_and_by_statement(source, "module.py", "COMPOUNDS")
    assert whole_compounds == simple_only


def test_compound_statements_no_rule_acts_in_are_one_placeholder():
    """Decorators, header and blocks: one placeholder over the same lines. Not a statement with a
    reference a rule acts on, nor one a comment line follows (the comment may be its block's:
    without this, the comment went with the import the pass removed after it)."""
    partial = partial_of(LAYOUTS["compound statements without a reference a rule acts on"])
    assert partial is not None
    assert partial.text == (_HEAD + "(\n\n\n\n\n)\n\n\n(\n\n\n)\n\n"
                            "def g():\n    return tf.contrib.layers.flatten(1)\n")
    partial = partial_of(LAYOUTS["a comment a replaced block would own, before a removed import"])
    assert partial is not None
    assert partial.text.startswith(_HEAD + "def f():\n    ()\n    # the block of f owns this comment\n")


def test_one_scan_finds_what_a_search_of_each_range_of_lines_found():
    """partial_parse.Matches answers `pattern.findall(text, start, end)` for whole lines from one
    scan of the text (names never span lines), on every fixture and layout, for every range of
    lines of up to 6 lines."""
    pattern = re.compile(r"\b(?:tf|import|value|slim|layers)\b")
    checked = 0
    for text in [path.read_text() for path in CORPUS + PROGRAMS] + list(LAYOUTS.values()):
        lines = partial_parse._lines(text)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        matches = partial_parse.Matches(pattern, text)
        for first in range(len(lines)):
            for last in range(first, min(first + 6, len(lines))):
                assert matches.findall(text, offsets[first], offsets[last + 1]) == \
                    pattern.findall(text, offsets[first], offsets[last + 1])
                checked += 1
    assert checked > 10_000
