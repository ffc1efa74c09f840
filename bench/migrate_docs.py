"""Write the codemod's measured numbers into docs/reliability.md from the recorded JSON.

Usage: python -m bench.migrate_docs   (bench.migrate_large_trees also calls it after a run)

The "Measured" cell of the large-tree row is generated from bench/results/migrate_large_trees.json,
so the document can only say what a recorded run measured.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
DOC = REPO_ROOT / "docs" / "reliability.md"
LARGE_TREES = REPO_ROOT / "bench" / "results" / "migrate_large_trees.json"
ROW_KEY = "`::test_the_committed_measurement_file_records_no_problem` (checks the file, not the code) | "
ALL_TREES = ("tensorflow_estimator", "keras", "tensorflow", "tensorflow_core")


def problem_count(tree: dict) -> int:
    """How many things went wrong in one audited tree (0 is the guarantee)."""
    problems = tree["problems"]
    return sum(len(v) if isinstance(v, (list, dict)) else int(v) for v in problems.values())


def large_trees_cell(results: dict) -> str:
    """The "Measured" text for the large-tree row of the Codemod table."""
    parts = []
    for name, tree in results["trees"].items():
        check = tree["check"]
        environment = tree["root"].split("/lib/")[0]
        quick = tree.get("answered_without_libcst")
        cleared_text = f", {quick} answered without libcst (pre-filter)" if quick is not None else ""
        parts.append(
            f"`{name}` ({environment}): {tree['files']} files ({tree['bytes'] / 1e6:.1f} MB){cleared_text}, "
            f"{tree['changed']} rewritten, {tree['skipped']} skipped, {problem_count(tree)} problems; "
            f"`--check` {check['files_per_second']} files/s wall, {check['files_per_cpu_second']} files per CPU-second")
    text = "; ".join(parts)
    text += (f" (`-j {results['jobs']}`, 2 cores shared with other jobs, so wall time overstates the cost"
             + (f"; code at commit `{results['commit']}`" if results.get("commit") else "") + ").")
    missing = [name for name in ALL_TREES if name not in results["trees"]]
    if missing:
        text += (" Not measured yet: " + ", ".join(f"`{m}`" for m in missing)
                 + f" (`python -m bench.migrate_large_trees --trees {' '.join(missing)}` measures them).")
    return text


def replace_cell(document: str, cell: str) -> str:
    """`document` with the large-tree row's last cell replaced by `cell`."""
    start = document.index(ROW_KEY) + len(ROW_KEY)
    end = document.index(" |\n", start)
    return document[:start] + cell + document[end:]


def update(results_path: Path = LARGE_TREES, doc: Path = DOC) -> str:
    cell = large_trees_cell(json.loads(results_path.read_text()))
    doc.write_text(replace_cell(doc.read_text(), cell))
    return cell


def main() -> int:
    print(update())
    return 0


if __name__ == "__main__":
    sys.exit(main())
