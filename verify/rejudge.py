"""Judge a finished verify's training phases again from the harvests its work folder kept.

The judge is pure functions of harvests (verify/judge.py, calibration.py, discrete.py), and every
run of a verify keeps its harvest beside its model_dir (`oracle/run<k>.harvest.json`,
`<side>/training.harvest.json`): a changed rule, --margin or --train-rtol can be measured on
stored runs in seconds, without running anything (the test bed's folders hold one work folder
per program).

    python -m verify.rejudge WORK_DIR [WORK_DIR ...] [--margin 3] [--train-rtol 1e-4] [--oracle-runs 3] [--notes]

Each side is judged against oracle runs 1..--oracle-runs, as verify judged it before escalation; a
failing side is told whether escalation calls its FAIL narrow (verify/escalation.py), and when the
folder holds more oracle runs (those escalation added, or runs made afterwards as it makes them) it
is judged again with all of them, as escalation does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verify import calibration, comparable, escalation
from verify.judge import Judgement
from verify.pipeline import DEFAULT_TRAIN_RTOL, harvest_file
from verify.sides import SIDES


def oracle_runs(work: Path) -> list[dict]:
    """The oracle's training runs 1..N as harvested."""
    runs, index = [], 1
    while harvest_file(work / "oracle" / f"run{index}").exists():
        runs.append(json.loads(harvest_file(work / "oracle" / f"run{index}").read_text()))
        index += 1
    return runs


def _inputs(runs: list[dict], path: Path) -> tuple[list[dict], dict]:
    oracle, ours, _ = comparable.training_inputs(runs, json.loads(path.read_text()))
    return oracle, ours


def rejudge(work: Path, *, rtol: float = DEFAULT_TRAIN_RTOL, margin: float = 3.0,
            runs: int | None = None) -> dict[str, Judgement]:
    """{side: its training phase judged again}, as verify/pipeline.py judges it (against oracle runs 1..`runs`)."""
    every = oracle_runs(work)[:runs]
    judged = {}
    for side in SIDES:
        path = harvest_file(work / side / "training")
        if not every or not path.exists():
            continue
        oracle, ours = _inputs(every, path)
        judged[side] = calibration.judge_calibrated(oracle, ours, rtol=rtol, margin=margin)
    return judged


def escalated(work: Path, side: str, before: Judgement, runs: int) -> tuple[str | None, Judgement | None]:
    """(why escalation calls the side's FAIL against runs 1..`runs` narrow, or None; the side judged again
    with every run the folder holds, when it holds more and the FAIL was narrow)."""
    every = oracle_runs(work)
    path = harvest_file(work / side / "training")
    oracle, ours = _inputs(every[:runs], path)
    reason = escalation.narrow_failure(before, oracle, ours)
    if reason is None or len(every) <= runs:
        return reason, None
    everything, ours = _inputs(every, path)
    return reason, escalation.judge_again(before, oracle, everything, ours)


def verdict_line(work: Path, side: str, judgement: Judgement) -> str:
    failed = judgement.calibration.failed_sections if judgement.calibration is not None else []
    return (f"{work.name} {side}: {'PASS' if judgement.passed else 'FAIL'} ({judgement.oracle_runs} oracle runs; "
            f"spread rule {'PASS' if judgement.passed_by_spread else 'FAIL'}"
            + (f"; failed sections: {', '.join(failed)}" if failed and not judgement.passed else "") + ")")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.rejudge", description=__doc__.splitlines()[0])
    parser.add_argument("work_dirs", nargs="+", type=Path)
    parser.add_argument("--margin", type=float, default=3.0)
    parser.add_argument("--train-rtol", type=float, default=DEFAULT_TRAIN_RTOL)
    parser.add_argument("--oracle-runs", type=int, default=3, metavar="N",
                        help="judge against oracle runs 1..N, as verify --oracle-runs N did before escalation (default 3)")
    parser.add_argument("--notes", action="store_true", help="print each failing side's self-check notes")
    options = parser.parse_args(argv)
    for work in options.work_dirs:
        judged = rejudge(work, rtol=options.train_rtol, margin=options.margin, runs=options.oracle_runs)
        for side, judgement in judged.items():
            print(verdict_line(work, side, judgement), flush=True)
            if options.notes and not judgement.passed:
                for line in calibration.notes(judgement):
                    print("    " + line)
            if judgement.passed:
                continue
            reason, again = escalated(work, side, judgement, options.oracle_runs)
            print(f"    escalation: {'narrow: ' + reason if reason else 'not narrow, not escalated'}")
            if again is not None:
                print(f"{work.name} {side} after escalation: {'PASS' if again.passed else 'FAIL'} "
                      f"({again.oracle_runs} oracle runs)", flush=True)
                if options.notes:
                    for line in calibration.notes(again):
                        print("    " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
