"""The codemod over large real code that ships with installed packages; writes
bench/results/migrate_large_trees.json.

Usage: python -m bench.migrate_large_trees [--trees NAME ...] [--jobs N] [--results FILE]

Trees (nothing is downloaded; they are the packages of the two environments):
  tensorflow            TF 2.21 in .venv                           (TF2 code, mostly untouched)
  keras                 Keras 3 in .venv                           (no TF1 names at all)
  tensorflow_core       TF 1.15 in the oracle .oracle/tf115        (TF1 internals and contrib)
  tensorflow_estimator  TF 1.15's estimator in .oracle/tf115        (TF1 Estimator/TPUEstimator code)

Three runs of the real command line (`estimator-migrate`, separate processes) share one private
result cache:
  1. `--check` over the tree: a full pass, timed: files/s; exit code must be 0 or 1 (2 = crash or
     usage error; an internal error on any file is MIG006, which exits 2).
  2. `--output-dir OUT`: the migrated copy. Every file reported unchanged must be byte-identical in
     OUT; every rewritten file must parse (libcst) and compile (CPython 3.11).
  3. `--check` over OUT: the second pass; nothing may be reported as changed (fixed point).
Files that needed libcst but have nothing to rewrite are cached after run 1 (key: codemod source +
file bytes), so runs 2 and 3 only redo the work for the rewritten files; run 1 is the cold, honest
timing. The count of files answered without libcst (no TensorFlow word, or the pre-filter clears
them) is recorded per tree. With the default --results, docs/reliability.md's numbers are
regenerated from the JSON (bench/migrate_docs.py; also `python -m bench.migrate_docs`).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from bench import migrate_docs
from bench.migrate_docs import problem_count
from verify import oracles

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO_ROOT / "bench" / "results" / "migrate_large_trees.json"
VENV_SITE = REPO_ROOT / ".venv" / "lib" / "python3.11" / "site-packages"
# TF 1.15's sources, in its oracle found as verify finds it (verify/oracles.py); the checkout's when none is built.
TF115_SITE = ((oracles.locate("tf115") or oracles.interpreter(oracles.CHECKOUT_ORACLES / "tf115")).parents[1]
              / "lib" / "python3.7" / "site-packages")
TREES = {  # smallest first, so that an interrupted run has measured the most trees
    "tensorflow_estimator": TF115_SITE / "tensorflow_estimator",
    "keras": VENV_SITE / "keras",
    "tensorflow": VENV_SITE / "tensorflow",
    "tensorflow_core": TF115_SITE / "tensorflow_core",
}
MIGRATE = [sys.executable, "-m", "migrate"]
EXIT_CRASH = 2


@dataclass
class Run:
    """One command-line run: exit code, wall seconds, the JSON report and stderr's tail."""

    exit: int
    seconds: float
    cpu_seconds: float
    report: dict
    stderr_tail: str


def run_cli(args: list[str], report: Path, cache: Path) -> Run:
    env = dict(os.environ, ESTIMATOR_MIGRATE_CACHE=str(cache), TF_CPP_MIN_LOG_LEVEL="2")
    start, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(MIGRATE + args + ["--format", "json", "--report", str(report), "--quiet"],
                          cwd=REPO_ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    try:
        parsed = json.loads(report.read_text())
    except (OSError, ValueError):
        parsed = {"files": []}
    return Run(done.returncode, seconds, _children_cpu() - cpu, parsed, done.stderr[-2000:])


def _children_cpu() -> float:
    """User+system CPU seconds of finished child processes (the machine is shared: wall time
    alone overstates the codemod's cost when other processes hold the cores)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _parses_and_compiles(data: bytes) -> str | None:
    """None when `data` parses with libcst and compiles with CPython, else the reason."""
    try:
        cst.parse_module(data)
        compile(data, "<migrated>", "exec", ast.PyCF_ONLY_AST)
    except Exception as error:  # any failure is a finding of this benchmark
        return f"{type(error).__name__}: {error}"[:300]
    return None


def audit_tree(name: str, root: Path, workdir: Path, jobs: int) -> dict:
    """The three runs over one tree and the byte/parse/fixed-point audit of the output."""
    cache, out = workdir / "cache", workdir / "out"
    first = run_cli([str(root), "--check", "-j", str(jobs)], workdir / "check.json", cache)
    written = run_cli([str(root), "--output-dir", str(out), "-j", str(jobs)], workdir / "write.json", cache)
    second = run_cli([str(out / root.name), "--check", "-j", str(jobs)], workdir / "second.json", cache)

    files = first.report["files"]
    changed = [f["path"] for f in written.report["files"] if f["changed"]]
    unchanged = [f["path"] for f in written.report["files"] if not f["changed"]]
    mirrored = lambda path: out / root.name / Path(path).relative_to(root)  # noqa: E731
    not_identical = [p for p in unchanged if mirrored(p).read_bytes() != Path(p).read_bytes()]
    not_parsing = {p: why for p in changed if (why := _parses_and_compiles(mirrored(p).read_bytes()))}
    moved_again = [f["path"] for f in second.report["files"] if f["changed"]]
    codes: dict[str, int] = {}
    for entry in files:
        for finding in entry["findings"]:
            codes[finding["code"]] = codes.get(finding["code"], 0) + 1
    internal_errors = [f"{e['path']}: {x['message']}" for e in files for x in e["findings"] if x["code"] == "MIG006"]
    return {
        "root": str(root.relative_to(REPO_ROOT)),
        "files": len(files),
        "answered_without_libcst": answered_without_libcst([Path(f["path"]) for f in files]),
        "bytes": sum(Path(f["path"]).stat().st_size for f in files),
        "check": {"exit": first.exit, "seconds": round(first.seconds, 2), "cpu_seconds": round(first.cpu_seconds, 2),
                  "files_per_cpu_second": round(len(files) / first.cpu_seconds, 2) if first.cpu_seconds else None,
                  "files_per_second": round(len(files) / first.seconds, 2) if first.seconds else None,
                  "stderr_tail": first.stderr_tail if first.exit == EXIT_CRASH else ""},
        "output_dir": {"exit": written.exit, "seconds": round(written.seconds, 2)},
        "second_pass": {"exit": second.exit, "seconds": round(second.seconds, 2),
                        "files": len(second.report["files"])},
        "changed": len(changed),
        "skipped": sum(f["skipped"] for f in files),
        "finding_codes": dict(sorted(codes.items())),
        "problems": {
            "internal_errors": internal_errors[:50],
            "unchanged_not_byte_identical": not_identical[:50],
            "changed_not_parsing": dict(list(not_parsing.items())[:50]),
            "changed_again_on_second_pass": moved_again[:50],
            "check_crashed": first.exit == EXIT_CRASH,
            "output_dir_crashed": written.exit == EXIT_CRASH,
            "second_pass_crashed": second.exit == EXIT_CRASH,
        },
    }


def answered_without_libcst(paths: list[Path]) -> int:
    """How many of the files the engine answers before libcst (no TensorFlow word, or the
    pre-filter clears them): what makes a tree of mostly untouched code fast."""
    from migrate.engine import quick_result

    return sum(quick_result(path.read_bytes(), str(path)) is not None for path in paths if path.suffix == ".py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trees", nargs="+", choices=sorted(TREES), default=list(TREES))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--results", type=Path, default=RESULTS_FILE)
    args = parser.parse_args(argv)
    missing = [name for name in args.trees if not TREES[name].is_dir()]
    if missing:
        print(f"missing package trees {missing}: build the environments with `make env oracles`", file=sys.stderr)
        return 2
    results = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
               "jobs": args.jobs, "commit": _commit(), "trees": _previous_trees(args.results, args.trees)}
    for name in args.trees:
        workdir = Path(tempfile.mkdtemp(prefix=f"migrate-large-{name}-"))
        try:
            results["trees"][name] = tree = audit_tree(name, TREES[name], workdir, args.jobs)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        print(f"{name}: {tree['files']} files, {tree['check']['files_per_second']} files/s, "
              f"{tree['changed']} rewritten, {problem_count(tree)} problem(s)", flush=True)
        write_results(results, args.results)  # after each tree: a long run keeps what it measured
    write_results(results, args.results)
    if args.results == RESULTS_FILE:
        migrate_docs.update(args.results)
    print(json.dumps(results["total"]))
    return 0 if results["total"]["problems"] == 0 else 1


def _commit() -> str | None:
    """The measured code's commit (None outside a git checkout)."""
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True)
    return done.stdout.strip() or None if done.returncode == 0 else None


def _previous_trees(path: Path, measuring: list[str]) -> dict:
    """Trees recorded earlier and not measured now (so that trees can be measured one at a time)."""
    try:
        trees = json.loads(path.read_text())["trees"]
    except (OSError, ValueError, KeyError):
        return {}
    return {name: tree for name, tree in trees.items() if name not in measuring}


def write_results(results: dict, path: Path) -> None:
    trees = results["trees"].values()
    total_files = sum(t["files"] for t in trees)
    total_seconds = sum(t["check"]["seconds"] for t in trees)
    results["total"] = {"files": total_files, "check_seconds": round(total_seconds, 2),
                        "files_per_second": round(total_files / total_seconds, 2) if total_seconds else None,
                        "changed": sum(t["changed"] for t in trees),
                        "problems": sum(problem_count(t) for t in trees)}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
