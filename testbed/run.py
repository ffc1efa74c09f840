"""Run `verify` on every test-bed program and write the results table (`make testbed`).

    python -m testbed.run [--sources DIR] [--out DIR] [--jobs N] [--no-reuse-oracle] [--escalate-runs N]
                          [--side SIDE] [--keras 3|2] [NAME ...]

DIR (default $ESTIMATOR_BRIDGE_TESTBED, else ~/.cache/estimator-bridge/testbed/sources) holds the fetched programs as DIR/<owner>+<repo>+<commit[:8]>/<path> (python -m testbed.materialise);
each is checked against manifest.json, its inputs are generated under OUT/data, and verify runs
it on both current-TF sides (each run's work folder and verify.json under OUT/runs); --side and
--keras are verify's own (one side; the migrated copy's Keras target, 3 by default). The table
(OUT/results.md, OUT/results.json) has per program and side PASS with its numbers, FAIL with
verify's diagnosis, or the named limitation (finding code) that kept a phase from being judged.

Speed (the whole bed within an hour on 2 cores): --jobs programs run side by side (default 2:
most of a tiny run is interpreter start-up, imports and graph building on one core), and verify
keeps each program's oracle runs (--reuse-oracle, verify/oracle_cache.py), so a rerun after a
change to the bridge (or to verify's judge) runs only the current-TF sides. A side whose training
phase fails narrowly gets --escalate-runs more oracle runs (verify/escalation.py), kept too.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from bench import cache_dirs
from testbed.manifest import folder_of, mismatches
from testbed.programs import BY_NAME, PROGRAMS, TestbedProgram
from verify.escalation import ESCALATION_RUNS
from verify.summary import markdown, summarise

REPO_ROOT = Path(__file__).resolve().parents[1]


def generate(generator: str, out: Path, sources: Path) -> Path:
    """The generator's folder under OUT/data, written once (some generators run the program's own tools)."""
    folder = out / "data" / generator
    done = folder / ".done"
    if not done.exists():
        if folder.exists():
            shutil.rmtree(folder)
        module = importlib.import_module(f"testbed.generators.{generator}")
        if getattr(module, "NEEDS_SOURCES", False):
            module.write(folder, sources)
        else:
            module.write(folder)
        done.write_text("")
    return folder


def verify_argv(program: TestbedProgram, sources: Path, data: Path, work: Path, report: Path,
                reuse_oracle: bool = True, escalate_runs: int = ESCALATION_RUNS, side: str | None = None,
                keras: int | None = None) -> list[str]:
    root = sources / folder_of(program.repo, program.commit)
    argv = [sys.executable, "-m", "verify", str(root / program.script), "--work-dir", str(work), "--json",
            str(report), "-q", *(["--reuse-oracle"] if reuse_oracle else []), "--escalate-runs",
            str(escalate_runs)]
    argv += [*(["--side", side] if side else []), *(["--keras", str(keras)] if keras else [])]
    for folder in program.python_path:
        argv += ["--path", str(root / folder)]
    if program.source_root is not None:
        argv += ["--source-root", str(root / program.source_root)]
    if program.steps is not None:
        argv += ["--steps", str(program.steps)]
    argv += [option.replace("{data}", str(data)) for option in program.verify_options]
    return argv + ["--", *(arg.replace("{data}", str(data)) for arg in program.args)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, default=None,
                        help="DIR/<owner>+<repo>+<commit[:8]>/<path> of the programs (default "
                             "$ESTIMATOR_BRIDGE_TESTBED, else ~/.cache/estimator-bridge/testbed/sources)")
    parser.add_argument("--out", type=Path, default=cache_dirs.cache_home() / "testbed" / "out")
    parser.add_argument("--collect", action="store_true",
                        help="run nothing: build the table from the verify.json documents already in OUT/runs")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="programs verified side by side (default 2)")
    parser.add_argument("--no-reuse-oracle", action="store_true",
                        help="run every oracle again (default: verify --reuse-oracle keeps them per program)")
    parser.add_argument("--escalate-runs", type=int, default=ESCALATION_RUNS, metavar="N",
                        help="verify --escalate-runs: more oracle runs for a side whose training phase failed "
                             f"narrowly (default {ESCALATION_RUNS}; 0 = never)")
    parser.add_argument("--side", choices=("runner", "migrated", "both"), default=None,
                        help="verify --side: the current-TF side(s) to run (default both)")
    parser.add_argument("--keras", type=int, choices=(2, 3), default=None,
                        help="verify --keras: the migrated copy's Keras target (default 3; 2 = tf-keras)")
    parser.add_argument("names", nargs="*", help=f"programs (default: all of {sorted(BY_NAME)})")
    args = parser.parse_args(argv)
    args.sources = args.sources or cache_dirs.configured("ESTIMATOR_BRIDGE_TESTBED", "testbed", "sources")
    if not args.collect and not args.sources.is_dir():
        print(f"no test-bed sources at {args.sources}: lay them out with python -m testbed.materialise "
              f"--mirror MIRROR {args.sources} (MIRROR: bare git clones <owner>+<repo>/repo of the "
              "repositories in testbed/manifest.json), or pass --sources DIR", file=sys.stderr)
        return 2
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown program(s) {unknown}; known: {sorted(BY_NAME)}")
    programs = [BY_NAME[name] for name in args.names] if args.names else list(PROGRAMS)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=REPO_ROOT).stdout.strip()
    rows: dict[str, list[dict]] = {}
    pending = []
    for program in programs:
        if args.collect:
            report_path = args.out / "runs" / f"{program.name}.json"
            output = args.out / "runs" / f"{program.name}.out"
            rows[program.name] = summarise(program.name,
                                           json.loads(report_path.read_text()) if report_path.exists() else None,
                                           output.read_text() if output.exists() else "not run")
            continue
        problems = mismatches(args.sources, program.name)
        if problems:
            rows[program.name] = [{"program": program.name, "side": "-", "status": "NO SOURCES",
                                   "training": problems[0], "exact": "-", "notes": ""}]
            continue
        pending.append((program, generate(program.generator, args.out,
                                          args.sources / folder_of(program.repo, program.commit))))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        running = {pool.submit(run_one, program, args.sources, data, args.out, not args.no_reuse_oracle,
                               args.escalate_runs, args.side, args.keras): program
                   for program, data in pending}
        for done in concurrent.futures.as_completed(running):
            program, (program_rows, seconds) = running[done], done.result()
            print(f"== {program.name}: {seconds:.0f} s", flush=True)
            for row in program_rows:
                print(f"   {row['side']}: {row['status']}  training: {row['training']}  exact: {row['exact']}",
                      flush=True)
            rows[program.name] = program_rows
    rows = [row for program in programs for row in rows.get(program.name, [])]
    header = f"verify test bed, {stamp}, estimator-bridge {commit}" + (f", --keras {args.keras}" if args.keras else "")
    (args.out / "results.md").write_text(markdown(rows, header))
    (args.out / "results.json").write_text(json.dumps({"date": stamp, "commit": commit, "rows": rows}, indent=1))
    print(markdown(rows, header))
    return 0 if all(row["status"] == "PASS" for row in rows) else 1


def run_one(program: TestbedProgram, sources: Path, data: Path, out: Path, reuse_oracle: bool,
            escalate_runs: int = ESCALATION_RUNS, side: str | None = None, keras: int | None = None):
    """verify one program into OUT/runs; (its table rows, seconds)."""
    import time

    started = time.monotonic()
    work = out / "runs" / program.name
    if work.exists():
        shutil.rmtree(work)
    report_path = out / "runs" / f"{program.name}.json"
    completed = subprocess.run(verify_argv(program, sources, data, work, report_path, reuse_oracle, escalate_runs,
                                                         side, keras),
                               capture_output=True, text=True, cwd=out, env=_env())
    (out / "runs" / f"{program.name}.out").write_text(completed.stdout + completed.stderr)
    report = json.loads(report_path.read_text()) if report_path.exists() else None
    return summarise(program.name, report, completed.stdout + completed.stderr), time.monotonic() - started


def _env() -> dict:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["COLUMNS"] = "160"
    return env


if __name__ == "__main__":
    sys.exit(main())
