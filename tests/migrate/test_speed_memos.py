"""Answers the fused pass asks again and again are computed once per module (the codemod's speed
on real code, bench/migrate_bench.py), and stay the same answers.

Found by profiling the codemod on the 74-file real-code corpus (bench/corpus/manifest.json): a
search of the whole source for every statement line (KerasTensorSchedules' history-key pattern)
cost 8 of 13 CPU seconds, and `ModuleNames.import_names` was asked 75,559 times for far fewer
references.
"""

from __future__ import annotations

import ast
import multiprocessing
from pathlib import Path

import libcst as cst
import pytest

from migrate import api, engine, final_check
from migrate.codemods import keras_lr_scheduler
from migrate.names import ModuleNames

# A file where the history-key rename is on (a callback and a `history['lr']` read), with many
# statement lines the fused pass visits.
LR_FILE = "import tensorflow as tf\n" \
          "callback = tf.keras.callbacks.ReduceLROnPlateau()\n" \
          + "".join(f"v{i} = tf.constant({i})\n" for i in range(60)) \
          + "for step in range(3):\n    rates = history.history['lr']\n" \
          + "if 'lr' in history.history:\n    print(tf.compat.v1.train.get_global_step())\n"


def test_a_source_test_of_a_statement_handler_runs_once_per_module(monkeypatch):
    calls = []
    real = keras_lr_scheduler.lr_key_to_rename

    def counted(text):
        calls.append(text)
        return real(text)

    # looked up at call time by the statement and header handlers and by the codemod's reach
    # (asked by the partial parse and by the pass's line names); the trigger holds the real one
    monkeypatch.setattr(keras_lr_scheduler, "lr_key_to_rename", counted)
    migrated, _ = engine.migrate_text(LR_FILE, "lr.py")
    assert "history.history['learning_rate']" in migrated
    assert "'learning_rate' in history.history" in migrated
    assert len(calls) == 3  # was 66: once more per statement line and header


def test_import_names_answers_once_per_node_with_a_fresh_set():
    text = "import tensorflow as tf\nx = tf.contrib.tpu.TPUEstimator\ny = tf.contrib.tpu.TPUEstimator\n"
    module = cst.parse_module(text)
    names = ModuleNames(module, text)
    first = module.body[1].body[0].value
    other = module.body[2].body[0].value
    computed = []
    real = names._import_names
    names._import_names = lambda node: computed.append(node) or real(node)
    answer = names.import_names(first)
    assert answer == {"tensorflow.contrib.tpu.TPUEstimator"}
    answer.add("changed by a caller")
    assert names.import_names(first) == {"tensorflow.contrib.tpu.TPUEstimator"}
    assert names.import_names(other) == {"tensorflow.contrib.tpu.TPUEstimator"}
    assert computed == [first, other]


def test_workers_are_forked_from_a_process_that_loaded_the_pipeline(tmp_path, monkeypatch):
    """-j N: the pipeline's imports and tables are loaded once, before the workers fork."""
    if multiprocessing.get_start_method() != "fork":
        pytest.skip(f"start method {multiprocessing.get_start_method()!r}: spawned workers import "
                    "everything themselves, so nothing is loaded for them before they start")
    warmed = []
    real = api.warm_up_before_fork
    monkeypatch.setattr(api, "warm_up_before_fork", lambda: warmed.append(1) or real())
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", "off")
    for index in range(5):
        (tmp_path / f"m{index}.py").write_text(f"import tensorflow as tf\nx{index} = tf.contrib.tpu.RunConfig()\n")
    files = sorted(tmp_path.glob("*.py"))
    parallel = list(api.migrate_paths(files, jobs=2))
    assert warmed == [1]
    assert [r.migrated for r in parallel] == [r.migrated for r in api.migrate_paths(files, jobs=1)]
    assert all(r.migrated for r in parallel)


class _NodeVisitorChains(ast.NodeVisitor):
    """final_check._Chains as it was before its own dispatch: an ast.NodeVisitor."""
    __init__ = final_check._Chains.__init__
    _function = final_check._Chains._function
    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function
    visit_Attribute = final_check._Chains.visit_Attribute


def test_the_final_checks_chain_walk_finds_what_ast_node_visitor_found_in_its_order():
    root = Path(__file__).parents[2]
    sources = sorted((root / "tests" / "migrate").rglob("*.py")) + sorted((root / "legacy_examples").rglob("*.py"))
    compared = 0
    for path in sources:
        try:
            tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError):
            continue
        aliases = {"tf": "tensorflow", "tpu": "tensorflow.contrib.tpu", "estimator_bridge": "estimator_bridge"}
        ours, theirs = final_check._Chains(aliases), _NodeVisitorChains(aliases)
        ours.visit(tree)
        theirs.visit(tree)
        assert ours.found == theirs.found, path
        compared += bool(ours.found)
    assert compared > 50


def _walked_import_contexts(tree: ast.Module) -> dict[int, str]:
    """final_check.import_contexts as it was before it walked statements only: every node."""
    contexts: dict[int, str] = {}

    def walk(node, context):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                contexts[id(child)] = context
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                walk(child, "guarded" if context == "guarded" else "function")
            elif isinstance(child, ast.Try) and any(final_check._catches_import_error(h) for h in child.handlers):
                for statement in child.body:
                    if isinstance(statement, (ast.Import, ast.ImportFrom)):
                        contexts[id(statement)] = "guarded"
                    else:
                        walk(ast.Module(body=[statement], type_ignores=[]), "guarded")
                for part in child.handlers + child.orelse + child.finalbody:
                    walk(ast.Module(body=[part], type_ignores=[]), context)
            else:
                walk(child, context)

    walk(tree, "module")
    return contexts


_NESTED_IMPORTS = '''
import tensorflow as tf
try:
    import tensorflow.contrib.slim as slim
    def f():
        import tensorflow_estimator as te
except ImportError:
    import estimator_bridge as tf
else:
    from tensorflow import estimator
finally:
    import tensorflow.compat.v1 as v1
class C:
    def g(self):
        try:
            import tensorflow.contrib.tpu as tpu
        except AttributeError:
            import tensorflow.keras as keras
match tf:
    case 1:
        import tensorflow.contrib as contrib
    case _:
        with tf.Graph().as_default():
            if True:
                import tensorflow as tf
            elif False:
                from tensorflow.contrib import layers as tf
for tf in []:
    while False:
        import tensorflow.contrib.layers as tf
'''


def test_the_final_checks_import_walk_finds_what_the_walk_of_every_node_found_in_its_order():
    """Imports are statements: final_check walks statements only, and finds the same imports in
    ast.walk's order (a name bound twice keeps the later binding) with the same contexts."""
    root = Path(__file__).parents[2]
    sources = sorted((root / "tests" / "migrate").rglob("*.py")) + sorted((root / "legacy_examples").rglob("*.py"))
    compared = 0
    for text in [_NESTED_IMPORTS] + [path.read_bytes() for path in sources]:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        walked = [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]
        assert list(node for node in final_check.statements(tree) if isinstance(node, ast.stmt)) == walked
        assert final_check.import_contexts(tree) == _walked_import_contexts(tree)
        compared += any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in walked)
    assert compared > 50
    contexts = final_check.import_contexts(ast.parse(_NESTED_IMPORTS))
    assert sorted(contexts.values()) == ["function", "function", "guarded", "guarded"] + ["module"] * 8


_ESTIMATOR_WORDS = [
    "x = tf.estimator.Estimator(model_fn)\n",
    '"""An Estimator program."""\nimport tensorflow as tf\n',
    "# uses TPUEstimator\nsess = tf.Session()\n",
    "s = 'TPUEstimatorSpec' + \"Estimator\"\nf = f'{x[\"Estimator\"]}'\n",
    "s = '''it's an Estimator\n'''\nt = r'\\'Estimator'\nu = 'a\\\nEstimator'\n",
    "s = \"\"\"a \\\"\"\" Estimator\"\"\"\nspec = EstimatorSpec\n",
    "MyEstimator = 1\nEstimator_v2 = 2\nclass Base(TPUEstimator): pass\n",
    "b = b'#' ; Estimator = None  # Estimator\n",
]


def test_the_code_scan_for_an_estimator_answers_as_the_tokenizer():
    """eager_for_bridge.uses_estimator scans strings and comments as Python's tokenizer reads them
    (it tokenized the whole file before: 0.22 CPU s of the corpus's ~6), on every test, legacy
    example and tricky literals."""
    from migrate.codemods import eager_for_bridge
    root = Path(__file__).parents[2]
    sources = sorted((root / "tests").rglob("*.py")) + sorted((root / "legacy_examples").rglob("*.py"))
    texts = list(_ESTIMATOR_WORDS)
    for path in sources:
        try:
            text = path.read_text()
            ast.parse(text)
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        texts.append(text)
    answers = [eager_for_bridge.uses_estimator(text) for text in texts]
    assert answers == [eager_for_bridge._tokenized_uses_estimator(text) for text in texts]
    assert answers[:len(_ESTIMATOR_WORDS)] == [True, False, False, False, False, True, True, True]
    assert sum(answers) > 50


def _walked_import_survey(tree: ast.Module, watch: frozenset[str]):
    """names.import_survey as it was before it walked statements only: every node."""
    from migrate.names import ImportSurvey
    tracked, watched, assignments, statements = set(), set(), [], []
    for node in ast.walk(tree):
        if type(node) is ast.Import:
            statements.append(node)
            for alias in node.names:
                top = alias.name.split(".")[0]
                tracked.add(alias.asname or top)
                if top in watch:
                    watched.add(alias.asname or top)
        elif type(node) is ast.ImportFrom:
            statements.append(node)
            from_watched = node.level == 0 and (node.module or "").split(".")[0] in watch
            for alias in node.names:
                if alias.name != "*":
                    tracked.add(alias.asname or alias.name.split(".")[0])
                    if from_watched:
                        watched.add(alias.asname or alias.name)
        elif type(node) is ast.Assign and type(node.value) in (ast.Attribute, ast.Name) \
                and len(node.targets) == 1 and type(node.targets[0]) is ast.Name:
            assignments.append(node)
    return ImportSurvey(tracked, frozenset(watched), assignments, statements)


def test_the_import_survey_walks_statements_and_finds_what_the_walk_of_every_node_found():
    """names.import_survey reads only statements (imports and assignments are statements): the
    same names, and the same assignments and imports in ast.walk's order (the alias candidates
    are taken in that order)."""
    from migrate.codemods.base import WATCHED_PACKAGES
    from migrate.names import import_survey
    root = Path(__file__).parents[2]
    sources = sorted((root / "tests" / "migrate").rglob("*.py")) + sorted((root / "legacy_examples").rglob("*.py"))
    compared = 0
    for text in [_NESTED_IMPORTS] + [path.read_bytes() for path in sources]:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        ours, theirs = import_survey(tree, WATCHED_PACKAGES), _walked_import_survey(tree, WATCHED_PACKAGES)
        assert ours.tracked == theirs.tracked and ours.watched == theirs.watched
        assert [id(n) for n in ours.assignments] == [id(n) for n in theirs.assignments]
        assert [id(n) for n in ours.statements] == [id(n) for n in theirs.statements]
        compared += bool(ours.assignments)
    assert compared > 20
