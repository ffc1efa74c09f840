"""Run `verify` on every test-bed program and write the results table (`make testbed`).

    python -m testbed.run --sources DIR [--out DIR] [NAME ...]

DIR holds the fetched programs as DIR/<owner>+<repo>+<commit[:8]>/<path> (python -m testbed.materialise);
each is checked against manifest.json, its inputs are generated under OUT/data, and verify runs
it on both current-TF sides (each run's work folder and verify.json under OUT/runs). The table
(OUT/results.md, OUT/results.json) has per program and side PASS with its numbers, FAIL with
verify's diagnosis, or the named limitation (finding code) that kept a phase from being judged.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from testbed.manifest import folder_of, mismatches
from testbed.programs import BY_NAME, PROGRAMS, TestbedProgram

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


def verify_argv(program: TestbedProgram, sources: Path, data: Path, work: Path, report: Path) -> list[str]:
    root = sources / folder_of(program.repo, program.commit)
    argv = [sys.executable, "-m", "verify", str(root / program.script), "--work-dir", str(work), "--json",
            str(report), "-q"]
    for folder in program.python_path:
        argv += ["--path", str(root / folder)]
    if program.source_root is not None:
        argv += ["--source-root", str(root / program.source_root)]
    if program.steps is not None:
        argv += ["--steps", str(program.steps)]
    argv += [option.replace("{data}", str(data)) for option in program.verify_options]
    return argv + ["--", *(arg.replace("{data}", str(data)) for arg in program.args)]


def summarise_phase(phase: dict) -> str:
    if phase.get("limitation"):
        return f"{phase['limitation']['code']} ({phase['status']})"
    sections = phase.get("sections", {})
    if not sections:
        return phase["status"]
    counts = sum(s["compared"] for s in sections.values())
    outside = sum(s["outside"] + s["missing"] + s["unexpected"] for s in sections.values())
    worst = max(sections.values(), key=lambda s: s["max_difference"])
    spread = max(s["max_spread"] for s in sections.values())
    text = f"{phase['status']}: {counts} numbers, max diff {worst['max_difference']:.1e} ({worst['max_difference_at']})"
    if spread:
        text += f", oracle spread {spread:.1e}"
    if outside:
        text += f", {outside} outside/missing"
    return text


def summarise(program: TestbedProgram, code: int, report: dict | None, output: str) -> list[dict]:
    rows = []
    if report is None:
        tail = [line for line in output.splitlines() if line.strip()][-1:] or ["no output"]
        return [{"program": program.name, "side": "-", "status": "ERROR", "training": tail[0][:300], "exact": "-",
                 "notes": ""}]
    if report.get("error"):
        return [{"program": program.name, "side": "-", "status": "ORACLE FAILS", "training": report["error"][:300],
                 "exact": "-", "notes": ""}]
    for side in report["sides"]:
        phases = {phase["phase"]: phase for phase in side["phases"]}
        notes = [line for line in report["diagnosis"] if line.startswith(side["side"] + ":")]
        training = summarise_phase(phases["training"]) if "training" in phases else "-"
        if side["crashed"] and training in ("-", "NOT RUN"):
            training = f"crashed: {side['crashed']}"
        rows.append({
            "program": program.name, "side": side["side"], "status": side["status"], "training": training,
            "exact": summarise_phase(phases["exact"]) if "exact" in phases else "-",
            "notes": " | ".join(line.split(":", 1)[1].strip() for line in notes)[:600],
        })
    return rows


def markdown(rows: list[dict], header: str) -> str:
    lines = [header, "", "| program | side | verdict | training phase | exact phase | diagnosis / notes |",
             "|---|---|---|---|---|---|"]
    for row in rows:
        cells = [row[k].replace("|", "\\|").replace("\n", " ") for k in
                 ("program", "side", "status", "training", "exact", "notes")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True, help="DIR/<owner>+<repo>+<commit[:8]>/<path> of the programs")
    parser.add_argument("--out", type=Path, default=Path("/tmp/verify-testbed"))
    parser.add_argument("names", nargs="*", help=f"programs (default: all of {sorted(BY_NAME)})")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown program(s) {unknown}; known: {sorted(BY_NAME)}")
    programs = [BY_NAME[name] for name in args.names] if args.names else list(PROGRAMS)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=REPO_ROOT).stdout.strip()
    rows = []
    for program in programs:
        problems = mismatches(args.sources, program.name)
        if problems:
            rows.append({"program": program.name, "side": "-", "status": "NO SOURCES", "training": problems[0],
                         "exact": "-", "notes": ""})
            continue
        data = generate(program.generator, args.out, args.sources / folder_of(program.repo, program.commit))
        work = args.out / "runs" / program.name
        if work.exists():
            shutil.rmtree(work)
        report_path = args.out / "runs" / f"{program.name}.json"
        print(f"== {program.name}: verify ...", flush=True)
        completed = subprocess.run(verify_argv(program, args.sources, data, work, report_path),
                                   capture_output=True, text=True, cwd=args.out, env=_env())
        (args.out / "runs" / f"{program.name}.out").write_text(completed.stdout + completed.stderr)
        report = json.loads(report_path.read_text()) if report_path.exists() else None
        program_rows = summarise(program, completed.returncode, report, completed.stdout + completed.stderr)
        for row in program_rows:
            print(f"   {row['side']}: {row['status']}  training: {row['training']}  exact: {row['exact']}", flush=True)
        rows += program_rows
    header = f"verify test bed, {stamp}, estimator-bridge {commit}"
    (args.out / "results.md").write_text(markdown(rows, header))
    (args.out / "results.json").write_text(json.dumps({"date": stamp, "commit": commit, "rows": rows}, indent=1))
    print(markdown(rows, header))
    return 0 if all(row["status"] == "PASS" for row in rows) else 1


def _env() -> dict:
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT)
    env["COLUMNS"] = "160"
    return env


if __name__ == "__main__":
    sys.exit(main())
