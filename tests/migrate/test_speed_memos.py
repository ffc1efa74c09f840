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
        return  # (spawned workers import everything themselves: nothing is loaded for them)
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
