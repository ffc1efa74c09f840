"""`verify` on the six shipped examples, live: their oracles run now, not their recorded goldens.

    python -m verify.shipped_live [NAME ...] [--out DIR]

`make demo` holds the examples to goldens; this runs the user-facing command on them exactly as a
user would (catalog flags, `{model_dir}` for the model_dir flag, both current-TF sides), so that
verify itself is checked on programs whose numbers are known. Writes DIR/<name>.json and prints
one row per example and side (verify/summary.py).
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
from pathlib import Path

from legacy_examples.catalog import BY_NAME, EXAMPLES, LegacyExample
from verify import oracles
from verify.sides import REPO_ROOT
from verify.summary import markdown, summarise


def verify_argv(example: LegacyExample, work: Path, report: Path) -> list[str]:
    return [sys.executable, "-m", "verify", str(example.script_path), "--work-dir", str(work), "--json", str(report),
            "-q", "--", f"{example.model_dir_flag}={{model_dir}}", *example.flags]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"examples (default: all of {sorted(BY_NAME)})")
    parser.add_argument("--out", type=Path, default=oracles.cache_root().parent / "verify-shipped")
    args = parser.parse_args(argv)
    examples = [BY_NAME[name] for name in args.names] if args.names else list(EXAMPLES)
    rows = []
    for example in examples:
        work = args.out / example.name
        report = args.out / f"{example.name}.json"
        if work.exists():
            shutil.rmtree(work)
        print(f"== {example.name}: verify ...", flush=True)
        completed = subprocess.run(verify_argv(example, work, report), capture_output=True, text=True, cwd=REPO_ROOT)
        (args.out / f"{example.name}.out").write_text(completed.stdout + completed.stderr)
        document = json.loads(report.read_text()) if report.exists() else None
        for row in summarise(example.name, document, completed.stdout + completed.stderr):
            print(f"   {row['side']}: {row['status']}  training: {row['training']}  exact: {row['exact']}", flush=True)
            rows.append(row)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=REPO_ROOT).stdout.strip()
    table = markdown(rows, f"verify on the shipped examples, {stamp}, estimator-bridge {commit}")
    (args.out / "results.md").write_text(table)
    print(table)
    return 0 if all(row["status"] == "PASS" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
