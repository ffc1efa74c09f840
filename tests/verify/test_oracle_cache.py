"""--reuse-oracle: the key of a program's oracle runs, and a kept work folder coming back."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from verify import oracle_cache, oracle_plan, oracles
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


# RUNS_VERSION -> in_oracle_digest() of the code it stands for. A change to IN_ORACLE's files fails
# this table: if the change alters what an oracle run produces (the harvest's format or values,
# the wrappers the program runs under, the nudge), bump RUNS_VERSION; either way record the digest.
IN_ORACLE_DIGESTS = {2: "fe96f4a7e5ecd87f", 3: "fd60453cf89d6d3a", 4: "725738060b70541c", 5: "45e606a81881136b"}


def test_the_code_that_runs_in_the_oracle_changes_only_with_runs_version():
    assert IN_ORACLE_DIGESTS.get(oracle_cache.RUNS_VERSION) == oracle_cache.in_oracle_digest(), (
        "verify's in-oracle code changed (oracle_cache.IN_ORACLE): bump oracle_cache.RUNS_VERSION if oracle runs "
        "now produce something else, and record the new digest in IN_ORACLE_DIGESTS")


def test_a_change_to_verify_that_does_not_touch_oracle_runs_keeps_the_key(cache):
    """The test bed's reruns drew new oracle runs after any change to verify/: the key hashed
    pipeline.py (and the in-oracle modules). Here the judge, the pipeline and the report of a copy
    of verify are edited, and the copy computes the same key."""
    program = program_in(cache / "src", "--train_steps=3")
    copy = cache / "edited"
    shutil.copytree(oracle_cache.VERIFY, copy / "verify", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pipeline.py", "judge.py", "report.py", "calibration.py", "escalation.py"):
        with open(copy / "verify" / name, "a") as edited:
            edited.write("\n# an unrelated change\n")
    code = ("import sys; from pathlib import Path; from verify import oracle_cache; from verify.pipeline import Options; "
            "from verify.program import Program; assert oracle_cache.__file__.startswith(sys.argv[1]); "
            "print(oracle_cache.key(Program(script=Path(sys.argv[2]), args=('--model_dir={model_dir}', "
            "'--train_steps=3')), Options(), 'tf115'))")
    repo = oracle_cache.VERIFY.parent
    completed = subprocess.run([sys.executable, "-c", code, str(copy), str(program.script)], capture_output=True,
                               text=True, timeout=300, cwd=copy, env={"PYTHONPATH": f"{copy}:{repo}", "PATH": "/usr/bin:/bin",
                                                            "XDG_CACHE_HOME": str(cache / "cache")})
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == oracle_cache.key(program, Options(), "tf115")


def test_what_decides_an_oracle_run_changes_the_key(cache, monkeypatch):
    program = program_in(cache / "src", "--train_steps=3")
    first = oracle_cache.key(program, Options(), "tf115")
    assert oracle_cache.key(program_in(cache / "src", "--train_steps=4"), Options(), "tf115") != first  # a flag
    assert oracle_cache.key(program, Options(oracle_runs=4), "tf115") != first  # the plan: one more run
    assert oracle_cache.key(program, Options(exact_args=("--do_eval",)), "tf115") != first
    program.script.write_text("print(2)\n")  # the program
    assert oracle_cache.key(program, Options(), "tf115") != first
    program.script.write_text("print(1)\n")
    assert oracle_cache.key(program, Options(), "tf115") == first
    monkeypatch.setattr(oracle_cache, "RUNS_VERSION", oracle_cache.RUNS_VERSION + 1)  # the harvest's format
    assert oracle_cache.key(program, Options(), "tf115") != first
    monkeypatch.undo()
    monkeypatch.setattr(oracles, "fingerprint", lambda recipe: "another recipe")  # the oracle's pins
    assert oracle_cache.key(program, Options(), "tf115") != first
    monkeypatch.undo()
    monkeypatch.setattr(oracle_plan, "available_cpus", lambda: 64)  # spread runs with other thread counts
    assert oracle_cache.key(program, Options(), "tf115") != first
    monkeypatch.undo()
    assert oracle_cache.key(program, Options(), "tf115") == first
    # what only the sides see
    assert oracle_cache.key(program, Options(sides=("runner",), rtol=1e-3, train_rtol=1e-3, margin=5.0,
                                             timeout=10.0, current_extras=("pyyaml",)), "tf115") == first


class FakeRunner:
    """What escalation._more_runs uses of pipeline.Runner; each oracle run writes a harvest naming it."""

    def __init__(self, work: Path, reuse: bool):
        from verify.pipeline import Silent
        self.work, self.progress, self.oracle_path = work, Silent(), ()
        self.program = program_in(work.parent / "src", "--train_steps=3")
        self.options = Options(reuse_oracle=reuse)
        self.ran: list[str] = []
        self.keras_start = None
        (work / "oracle").mkdir(parents=True)

    def _nudged(self, start_files, seed, folder):
        return start_files

    def _nudged_keras_start(self, seed, folder):
        return None

    def _oracle_command(self, python):
        return [python]

    def run(self, label, command, python, model_dir, args, **how):
        self.ran.append(model_dir.name)
        harvest = {"scalars": {"loss": {"1": float(len(self.ran))}}, "made_in": str(self.work)}
        (model_dir.parent / f"{model_dir.name}.harvest.json").write_text(json.dumps(harvest))
        return harvest


def escalate_into(work: Path, reuse: bool, runs: int = 3):
    from verify import escalation
    from verify.pipeline import VerifyResult
    runner = FakeRunner(work, reuse)
    result = VerifyResult(program=runner.program, oracle="tf115", oracle_reason="", tensorflow="1.15.5",
                          oracle_runs=[{"model_dir": str(work / "oracle" / f"run{i}")} for i in (1, 2, 3)])
    record = escalation.Escalation(reasons={"migrated": "..."}, runs_before=3)
    harvests = escalation._more_runs(runner, result, escalation.EscalationOptions(runs=runs), record)
    return runner, result, harvests


def test_escalation_runs_are_kept_with_the_oracle_runs_and_reused_in_order(cache, monkeypatch):
    monkeypatch.setattr(oracles, "ensure", lambda name, provision=True: Path(sys.executable))
    first, result, harvests = escalate_into(cache / "work1", reuse=True, runs=2)
    key = oracle_cache.key(first.program, first.options, "tf115")
    assert first.ran == ["run4", "run5"] and oracle_cache.kept_escalation_runs(key) == []  # its oracle runs not kept
    oracle_cache.store(key, cache / "work1", {"oracle_runs": []})  # the first verify kept its oracle runs
    second, result, harvests = escalate_into(cache / "work2", reuse=True, runs=2)
    assert second.ran == ["run4", "run5"]
    assert [entry["model_dir"] for entry in oracle_cache.kept_escalation_runs(key)] == ["run4", "run5"]
    third, result, harvests = escalate_into(cache / "work3", reuse=True, runs=3)
    assert third.ran == ["run6"]  # run4 and run5 kept, run6 made and kept
    assert [h["made_in"] for h in harvests] == [str(cache / "work2")] * 2 + [str(cache / "work3")]
    assert (cache / "work3" / "oracle" / "run4.harvest.json").exists() and (cache / "work3" / "oracle" / "run4").is_dir()
    assert [run.get("kept", False) for run in result.oracle_runs[3:]] == [True, True, False]
    assert [run["model_dir"] for run in result.oracle_runs[3:]] == [str(cache / "work3" / "oracle" / f"run{i}")
                                                                     for i in (4, 5, 6)]
    fresh, result, harvests = escalate_into(cache / "work4", reuse=False, runs=2)
    assert fresh.ran == ["run4", "run5"]  # without --reuse-oracle nothing kept is used
