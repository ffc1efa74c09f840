"""The main job: run the shipped legacy examples on current TensorFlow and compare with their goldens.

    python -m legacy_examples.compare [NAME ...] [--paths a,b,c] [--rtol 1e-6]

Each example (legacy_examples/catalog.py) runs on current TensorFlow by every requested
regression path (see current.py: (a) imports swapped to the bridge, (b) the compat runner,
(c) after estimator-migrate), starting from its golden's start state, and is compared number by
number with the golden its oracle recorded (TF 1.15 or TF 2.15). One table shows, per run: the
oracle, the last compared training step, the oracle's and our loss there, the largest relative
difference over every compared number (losses at every step, eval metrics, predictions, final
variables, serving outputs), both sides' eval metrics and the verdict. A path that cannot run in
this checkout is shown as NOT RUN with the reason; a failing run listed in known_gaps.py as
KNOWN GAP with its owner. Exit status 1 when any other run fails.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from legacy_examples.catalog import BY_NAME, EXAMPLES
from legacy_examples.current import PATHS, PathUnavailable, check_available, describe_failure, run_current
from legacy_examples.golden import compare, load_golden
from legacy_examples.known_gaps import KNOWN_GAPS
from legacy_examples.table import (DEFAULT_RTOL, KNOWN_GAP, compared_row, exit_code, failed_row, render,
                                   with_known_gap)


def run_one(example, golden: dict, path: str, work_dir: Path, rtol: float):
    try:
        check_available(path)
    except PathUnavailable as unavailable:
        return failed_row(example, golden, path, str(unavailable), ran=False)
    try:
        ours = run_current(example, work_dir / f"{example.name}_{path}", path)
    except Exception as error:  # the row says what broke; the other examples still run
        return failed_row(example, golden, path, describe_failure(error), ran=True)
    return compared_row(example, golden, path, ours, compare(golden["result"], ours), rtol)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"examples (default: all of {sorted(BY_NAME)})")
    parser.add_argument("--paths", default=",".join(PATHS),
                        help="comma-separated regression paths: a (imports swapped), b (compat "
                             "runner), c (after estimator-migrate); default: all")
    parser.add_argument("--rtol", type=float, default=None,
                        help=f"override every example's tolerance (default: the catalog's, "
                             f"{DEFAULT_RTOL:g} unless measured otherwise)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BY_NAME]
    paths = [path.strip() for path in args.paths.split(",") if path.strip()]
    if unknown or any(path not in PATHS for path in paths):
        parser.error(f"unknown example(s) {unknown} or path(s) {paths}; examples: "
                     f"{sorted(BY_NAME)}, paths: {sorted(PATHS)}")
    examples = [BY_NAME[name] for name in args.names] if args.names else list(EXAMPLES)

    console = Console(width=max(Console().width, 160))
    rows = []
    with tempfile.TemporaryDirectory(prefix="legacy_compare_") as work, Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("comparing", total=len(examples) * len(paths))
        for example in examples:
            golden = load_golden(example.golden_path)
            for path in paths:
                progress.update(task, description=f"{example.name} path ({path})")
                row = run_one(example, golden, path, Path(work), args.rtol or example.rtol)
                rows.append(with_known_gap(row, KNOWN_GAPS.get((example.name, path))))
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
