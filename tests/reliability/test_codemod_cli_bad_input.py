"""Bad input to `estimator-migrate`: every case exits with a defined code and a message that names
the path and says what to do. Nothing here may end in a traceback.

Exit codes (migrate/cli.py): 1 = error findings reported for some files (the run went on over the
others), 2 = the run itself could not proceed (usage or output directory).
The tests run as whatever user CI uses (often root, where chmod does not stop reads or writes), so
unreadable and unwritable paths are made in ways that fail for every user: a dangling or looping
symlink, and an output directory below a regular file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from migrate.cli import main

TF1 = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ESTIMATOR_MIGRATE_CACHE", str(tmp_path / "test-cache"))


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main([*argv, "-j", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_missing_path_exits_two_naming_it(tmp_path, capsys):
    missing = tmp_path / "no_such_project"
    code, out, err = run(capsys, str(missing))
    assert code == 2
    assert f"{missing}: no such file or directory" in err
    assert "Traceback" not in err + out


def test_binary_file_is_skipped_with_a_decode_finding(tmp_path, capsys):
    binary = tmp_path / "weights.py"
    binary.write_bytes(b"\x00\x01tensorflow\xff\xfe\x89PNG\r\n\x1a\n" + bytes(range(256)))
    code, out, _ = run(capsys, str(binary))
    assert code == 1
    assert f"{binary}:1:1: MIG003 error: cannot decode the file" in out
    assert "save it as UTF-8 or declare its encoding" in out
    assert binary.read_bytes().startswith(b"\x00\x01tensorflow")


def test_python2_file_is_skipped_with_the_line_and_the_conversion_hint(tmp_path, capsys):
    old = tmp_path / "train_py2.py"
    old.write_text("import tensorflow as tf\n\ndef main():\n    print 'step', tf.__version__\n")
    code, out, _ = run(capsys, str(old))
    assert code == 1
    assert f"{old}:4:" in out and "MIG002 error: Python 2 source; file skipped" in out
    assert "convert it to Python 3 first" in out


def test_invalid_notebook_json_is_skipped_naming_the_notebook(tmp_path, capsys):
    notebook = tmp_path / "colab.ipynb"
    notebook.write_text('{"cells": [{"cell_type": "code", "source": "import tensorflow as tf"')
    code, out, _ = run(capsys, str(notebook))
    assert code == 1
    assert f"{notebook}:1:1: MIG005 error: not a readable notebook" in out
    assert "open and re-save it with Jupyter" in out


def test_notebook_that_is_json_but_not_a_notebook(tmp_path, capsys):
    notebook = tmp_path / "list.ipynb"
    notebook.write_text('["import tensorflow as tf"]')
    code, out, _ = run(capsys, str(notebook))
    assert code == 1 and f"{notebook}:1:1: MIG005 error" in out


def test_output_dir_below_a_regular_file_exits_two(tmp_path, capsys):
    source = tmp_path / "train.py"
    source.write_text(TF1)
    blocker = tmp_path / "results.txt"
    blocker.write_text("not a directory\n")
    code, _, err = run(capsys, str(source), "--output-dir", str(blocker / "migrated"))
    assert code == 2
    assert f"cannot write the migrated copy to {blocker / 'migrated'}" in err
    assert "Not a directory" in err and "choose a directory you can write to with --output-dir" in err
    assert blocker.read_text() == "not a directory\n"


def test_output_dir_that_is_a_file_exits_two(tmp_path, capsys):
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "train.py").write_text(TF1)
    blocker = tmp_path / "out"
    blocker.write_text("")
    code, _, err = run(capsys, str(tree), "--output-dir", str(blocker))
    assert code == 2 and f"cannot write the migrated copy to {blocker}" in err


def test_unreadable_file_dangling_symlink_is_a_finding_not_a_crash(tmp_path, capsys):
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "train.py").write_text(TF1)
    (tree / "moved.py").symlink_to(tmp_path / "gone" / "moved.py")
    code, out, err = run(capsys, str(tree))
    assert code == 1
    assert f"{tree / 'moved.py'}:1:1: MIG007 error: cannot read the file: No such file or directory" in out
    assert "fix the symlink, or leave it out of the paths" in out
    assert f"{tree / 'train.py'}: would be rewritten" in out  # the rest of the tree is still migrated
    assert "Traceback" not in err


def test_unreadable_file_symlink_loop_is_a_finding(tmp_path, capsys):
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "a.py").symlink_to(tree / "b.py")
    (tree / "b.py").symlink_to(tree / "a.py")
    code, out, _ = run(capsys, str(tree), "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert [(Path(f["path"]).name, [x["code"] for x in f["findings"]]) for f in report["files"]] == [
        ("a.py", ["MIG007"]), ("b.py", ["MIG007"])]
    assert "Too many levels of symbolic links" in report["files"][0]["findings"][0]["message"]


def test_directory_loop_is_walked_once(tmp_path, capsys):
    tree = tmp_path / "project"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "train.py").write_text(TF1)
    (tree / "pkg" / "parent").symlink_to(tree, target_is_directory=True)  # pkg/parent/pkg/parent/...
    code, out, err = run(capsys, str(tree))
    assert code == 1
    assert out.count("train.py: would be rewritten") == 1
    assert "1 file(s) scanned" in out and "Traceback" not in err


def test_directory_loop_with_output_dir_copies_once(tmp_path, capsys):
    tree = tmp_path / "project"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "train.py").write_text(TF1)
    (tree / "pkg" / "parent").symlink_to(tree, target_is_directory=True)
    out_dir = tmp_path / "migrated"
    code, _, err = run(capsys, str(tree), "--output-dir", str(out_dir))
    assert code == 1 and "Traceback" not in err
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*"))
    assert written == ["project", "project/pkg", "project/pkg/train.py"]
    assert "tf.compat.v1.train.AdamOptimizer" in (out_dir / "project" / "pkg" / "train.py").read_text()


def test_output_dir_inside_the_input_tree_is_not_migrated_again(tmp_path, capsys, monkeypatch):
    tree = tmp_path / "project"
    tree.mkdir()
    (tree / "train.py").write_text(TF1)
    monkeypatch.chdir(tree)
    assert run(capsys, ".", "--output-dir", "migrated")[0] == 1
    code, out, err = run(capsys, ".", "--output-dir", "migrated")  # the second run sees migrated/ in "."
    assert code == 1 and "1 file(s) scanned" in out and "Traceback" not in err
    assert sorted(str(p.relative_to(tree)) for p in tree.rglob("*.py")) == ["migrated/project/train.py", "train.py"]


def test_stdin_with_binary_bytes_exits_one_with_the_finding(tmp_path):
    done = subprocess.run([sys.executable, "-m", "migrate", "-"], input=b"import tensorflow as tf\n\xff\xfe\x00",
                          capture_output=True, env=dict(os.environ, ESTIMATOR_MIGRATE_CACHE="off"))
    assert done.returncode == 1
    assert b"<stdin>:1:1: MIG003 error: cannot decode the file" in done.stderr
    assert done.stdout == b"import tensorflow as tf\n\xff\xfe\x00"  # passed through unchanged
