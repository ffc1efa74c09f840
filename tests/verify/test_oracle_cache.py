"""--reuse-oracle: the key of a program's oracle runs, and a kept work folder coming back."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify import oracle_cache
from verify.pipeline import Options
from verify.program import NotebookOverrides, Program


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


def program_in(folder: Path, *args: str, notebook=NotebookOverrides()) -> Program:
    folder.mkdir(exist_ok=True)
    script = folder / "train.py"
    if not script.exists():
        script.write_text("print(1)\n")
    return Program(script=script, args=("--model_dir={model_dir}", *args), notebook=notebook)


def test_the_key_follows_the_program_its_arguments_overrides_and_oracle(cache):
    program = program_in(cache / "src")
    first = oracle_cache.key(program, Options(), "tf115")
    assert oracle_cache.key(program, Options(), "tf115") == first
    assert oracle_cache.key(program, Options(), "tf215") != first
    assert oracle_cache.key(program_in(cache / "src", "--steps=3"), Options(), "tf115") != first
    assert oracle_cache.key(program, Options(extras=("pyyaml<6",)), "tf115") != first
    assert oracle_cache.key(program_in(cache / "src", notebook=NotebookOverrides(skip_cells=("plot",))),
                            Options(), "tf115") != first
    (cache / "src" / "model.py").write_text("x = 1\n")  # a sibling module of the program
    assert oracle_cache.key(program, Options(), "tf115") != first


def test_a_kept_oracle_comes_back_into_a_new_work_folder(cache):
    work = cache / "work1"
    (work / "oracle" / "run1").mkdir(parents=True)
    (work / "oracle" / "run1.harvest.json").write_text("{}")
    (work / "start_state").mkdir()
    (work / "start_state" / "model.ckpt-0.index").write_text("i")
    (work / "runner").mkdir()  # a side's folder is not the oracle's
    oracle_cache.store("k", work, {"oracle_runs": [{"model_dir": "run1"}]})
    assert oracle_cache.restore("missing", cache / "elsewhere") is None
    again = cache / "work2"
    again.mkdir()
    assert oracle_cache.restore("k", again) == {"oracle_runs": [{"model_dir": "run1"}]}
    assert (again / "oracle" / "run1.harvest.json").exists() and (again / "start_state" / "model.ckpt-0.index").exists()
    assert not (again / "runner").exists()
