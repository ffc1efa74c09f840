"""The main job: verify the shipped legacy examples on current TensorFlow against their goldens.

    python -m verify.shipped [NAME ...] [--sides swapped,runner,migrated] [--rtol 1e-6]

Each example (legacy_examples/catalog.py) runs on current TensorFlow on every requested side
(verify/sides.py: imports swapped to the bridge, the compat runner, after estimator-migrate),
starting from its golden's start state, and is compared number by number (verify/compare.py, the
engine `verify` uses for any program) with the golden its oracle recorded (TF 1.15 or TF 2.15). One table shows, per run: the
oracle, the last compared training step, the oracle's and our loss there, the largest relative
difference over every compared number (losses at every step, eval metrics, predictions, final
variables, serving outputs), both sides' eval metrics and the verdict. A side that cannot run in
this installation is shown as NOT RUN with the reason; a failing run listed in known_gaps.py as
KNOWN GAP with its owner. Exit status 1 when any other run fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from legacy_examples.catalog import BY_NAME, EXAMPLES
from legacy_examples.known_gaps import KNOWN_GAPS
from verify.compare import compare, load_golden
from verify.shipped_runs import run_current
from verify.shipped_table import (DEFAULT_RTOL, KNOWN_GAP, compared_row, exit_code, failed_row, render,
                                  with_known_gap)
from verify.sides import SIDES, SideUnavailable, check_available, describe_failure

SHIPPED_SIDES = ("swapped", "runner", "migrated", "migrated_tpu")


def sides_of(example, sides: list[str]) -> list[str]:
    """The requested sides this example has (migrated_tpu only for examples with a TPU branch)."""
    return [side for side in sides
            if side in example.sides or (side == "migrated_tpu" and example.tpu_flags)]


def run_one(example, golden: dict, side: str, work_dir: Path, rtol: float):
    try:
        check_available(side)
    except SideUnavailable as unavailable:
        return failed_row(example, golden, side, str(unavailable), ran=False)
    try:
        ours = run_current(example, work_dir / f"{example.name}_{side}" / "model_dir", side)
    except Exception as error:  # the row says what broke; the other examples still run
        return failed_row(example, golden, side, describe_failure(error), ran=True)
    expected = golden["result"]
    unmatched = (example.tpu_unmatched or {}) if side == "migrated_tpu" else {}
    if unmatched:
        expected = {key: value for key, value in expected.items() if key not in unmatched}
        ours = {key: value for key, value in ours.items() if key not in unmatched}
    row = compared_row(example, golden, side, ours, compare(expected, ours), rtol)
    if unmatched:
        left_out = "; ".join(f"{section} not compared: {why}" for section, why in unmatched.items())
        row = dataclasses.replace(row, note=f"{row.note}; {left_out}" if row.note else left_out)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"examples (default: all of {sorted(BY_NAME)})")
    parser.add_argument("--sides", default=",".join(SHIPPED_SIDES),
                        help="comma-separated sides: swapped (imports swapped to the bridge), runner "
                             "(compat runner), migrated (after estimator-migrate), migrated_tpu (the "
                             "migrated TPU branch on 8 emulated cores, for examples that have one); "
                             "default: all")
    parser.add_argument("--rtol", type=float, default=None,
                        help=f"override every example's tolerance (default: the catalog's, "
                             f"{DEFAULT_RTOL:g} unless measured otherwise)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BY_NAME]
    sides = [side.strip() for side in args.sides.split(",") if side.strip()]
    if unknown or any(side not in SIDES for side in sides):
        parser.error(f"unknown example(s) {unknown} or side(s) {sides}; examples: "
                     f"{sorted(BY_NAME)}, sides: {list(SHIPPED_SIDES)}")
    examples = [BY_NAME[name] for name in args.names] if args.names else list(EXAMPLES)

    console = Console(width=max(Console().width, 160))
    rows = []
    with tempfile.TemporaryDirectory(prefix="legacy_compare_") as work, Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("comparing", total=sum(len(sides_of(e, sides)) for e in examples))
        for example in examples:
            golden = load_golden(example.golden_path)
            for side in sides_of(example, sides):
                progress.update(task, description=f"{example.name} ({side})")
                row = run_one(example, golden, side, Path(work), args.rtol or example.rtol)
                rows.append(with_known_gap(row, KNOWN_GAPS.get((example.name, side))))
                progress.advance(task)
    console.print(render(rows, args.rtol))
    status = exit_code(rows)
    gaps = sum(row.verdict == KNOWN_GAP for row in rows)
    if status:
        console.print("[bold red]some runs do not match their goldens[/] (see the verdict column)")
    elif gaps:
        console.print(f"every other run matches its golden; {gaps} run(s) are known gaps "
                      "(legacy_examples/known_gaps.py, owner in the verdict column)")
    else:
        console.print("all runs match their goldens")
    return status


if __name__ == "__main__":
    sys.exit(main())
