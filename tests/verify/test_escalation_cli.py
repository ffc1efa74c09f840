"""Escalation on the command line: `--escalate-runs N` reaches verify/escalation.py (from the CLI,
verify.api and the test bed), and an escalated verify says so in its table, verify.json, HTML
report and the test bed's row. The live run is tests/verify/test_escalation_live.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from testbed.programs import PROGRAMS
from testbed.run import verify_argv
from verify import api, escalation
from verify.cli import EXIT_ERROR, build_parser, main
from verify.pipeline import Phase, SideResult, VerifyResult
from verify.program import Program
from verify.report import as_json, render
from verify.report_html import Runs, render_html
from verify.summary import summarise_phase

SCRIPT = "import tensorflow as tf\n"
RUNS = [{"model_dir": "/w/oracle/run1"}, {"model_dir": "/w/oracle/run2"}, {"model_dir": "/w/oracle/run3"},
        {"model_dir": "/w/oracle/run4", "escalation": True, "seconds": 30.2},
        {"model_dir": "/w/oracle/run5", "escalation": True, "seconds": 29.8}]


class Stop(ValueError):
    """Raised by the stand-in verify_program once it has seen its arguments (main reports it, exit 2)."""


@pytest.fixture
def seen(monkeypatch):
    """The EscalationOptions verify_program was called with (the CLI and the API)."""
    calls = []

    def fake(program, options, progress=None, escalation_options=escalation.EscalationOptions()):
        calls.append(escalation_options)
        raise Stop("stopped before running anything")

    monkeypatch.setattr(escalation, "verify_program", fake)
    monkeypatch.setattr(api, "verify_program", fake)
    return calls


def test_the_default_is_escalation_runs_and_0_turns_it_off():
    parser = build_parser()
    assert parser.parse_args(["train.py"]).escalate_runs == escalation.ESCALATION_RUNS == 3
    assert parser.parse_args(["train.py", "--escalate-runs", "0"]).escalate_runs == 0


@pytest.mark.parametrize("option, runs", [([], escalation.ESCALATION_RUNS), (["--escalate-runs", "0"], 0),
                                          (["--escalate-runs", "5"], 5)])
def test_the_cli_passes_the_count_to_escalation(tmp_path, seen, option, runs):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    assert main([str(script), "-q", *option, "--", "--model_dir={model_dir}"]) == EXIT_ERROR
    assert seen == [escalation.EscalationOptions(runs=runs)]


def test_a_negative_count_is_a_usage_error(tmp_path, seen, capsys):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    assert main([str(script), "--escalate-runs", "-1", "--", "--model_dir={model_dir}"]) == EXIT_ERROR
    assert "--escalate-runs must be 0" in capsys.readouterr().err and seen == []


def test_the_api_passes_the_count_to_escalation(tmp_path, seen):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    for runs in (None, 0):
        with pytest.raises(Stop):
            api.verify(script, ["--model_dir={model_dir}"], **({} if runs is None else {"escalate_runs": runs}))
    assert seen == [escalation.EscalationOptions(runs=escalation.ESCALATION_RUNS), escalation.EscalationOptions(runs=0)]


def test_the_test_bed_passes_its_count_to_verify():
    program = PROGRAMS[0]
    default = verify_argv(program, Path("/src"), Path("/data"), Path("/runs"), Path("/runs.json"))
    off = verify_argv(program, Path("/src"), Path("/data"), Path("/runs"), Path("/runs.json"), escalate_runs=0)
    for argv, runs in ((default, str(escalation.ESCALATION_RUNS)), (off, "0")):
        at = argv.index("--escalate-runs")
        assert argv[at + 1] == runs and at < argv.index("--")


def escalated_result(tmp_path) -> VerifyResult:
    training = Phase("training", notes=["escalated: the training phase failed narrowly against 3 oracle runs "
                                        "(...); 2 more oracle run(s) in 60 s, judged again against all 5: FAIL"])
    return VerifyResult(program=Program(script=tmp_path / "train.py", args=("--model_dir={model_dir}",)),
                        oracle="tf115", oracle_reason="tf.contrib", tensorflow="1.15.5",
                        sides=[SideResult("migrated", phases=[training])], oracle_runs=list(RUNS),
                        work_dir=str(tmp_path))


def test_an_escalated_verify_says_so_in_the_table_json_and_html(tmp_path):
    result = escalated_result(tmp_path)
    document = as_json(result)
    assert document["escalation"] == {"runs_before": 3, "runs_added": 2, "runs_kept": 0, "seconds": 60.0}
    words = "escalated: a side failed narrowly against 3 oracle runs, 2 more run(s) in 60 s"
    assert words in render(result).title
    assert words in render_html(document, Runs())
    assert any(line.startswith("migrated: training phase: note: escalated:") for line in document["diagnosis"])


def test_a_verify_that_did_not_escalate_says_nothing_of_it(tmp_path):
    result = escalated_result(tmp_path)
    result.oracle_runs = RUNS[:3]
    result.sides[0].phases[0].notes = []
    document = as_json(result)
    assert document["escalation"] is None
    assert "escalat" not in render(result).title and "escalat" not in render_html(document, Runs())


def test_the_test_bed_row_says_a_phase_was_escalated():
    phase = {"phase": "training", "status": "PASS", "oracle_runs": 6, "notes": ["escalated: ..."],
             "sections": {"evaluation": {"compared": 4, "outside": 0, "missing": 0, "unexpected": 0,
                                         "max_difference": 2e-3, "max_difference_at": "evaluation.eval.loss.8",
                                         "max_spread": 1e-3}}}
    assert "escalated: judged against 6 oracle runs" in summarise_phase(phase)
    phase["notes"] = []
    assert "escalated" not in summarise_phase(phase)
