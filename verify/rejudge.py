"""Judge a finished verify's training phases again from the harvests its work folder kept.

The judge is pure functions of harvests (verify/judge.py, calibration.py, discrete.py), and every
run of a verify keeps its harvest beside its model_dir (`oracle/run<k>.harvest.json`,
`<side>/training.harvest.json`): a changed rule, --margin or --train-rtol can be measured on
stored runs in seconds, without running anything (the test bed's folders hold one work folder
per program).

    python -m verify.rejudge WORK_DIR [WORK_DIR ...] [--margin 3] [--train-rtol 1e-4] [--notes]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verify import calibration, comparable
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


def rejudge(work: Path, *, rtol: float = DEFAULT_TRAIN_RTOL, margin: float = 3.0) -> dict[str, Judgement]:
    """{side: its training phase judged again}, as verify/pipeline.py judges it."""
    runs = oracle_runs(work)
    judged = {}
    for side in SIDES:
        path = harvest_file(work / side / "training")
        if not runs or not path.exists():
            continue
        oracle, ours, _ = comparable.training_inputs(runs, json.loads(path.read_text()))
        judged[side] = calibration.judge_calibrated(oracle, ours, rtol=rtol, margin=margin)
    return judged


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
    parser.add_argument("--notes", action="store_true", help="print each failing side's self-check notes")
    options = parser.parse_args(argv)
    for work in options.work_dirs:
        for side, judgement in rejudge(work, rtol=options.train_rtol, margin=options.margin).items():
            print(verdict_line(work, side, judgement), flush=True)
            if options.notes and not judgement.passed:
                for line in calibration.notes(judgement):
                    print("    " + line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
