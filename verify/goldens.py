"""Record goldens: run each legacy example in its oracle, twice, and keep what it produced.

    python -m verify.goldens [NAME ...]        # all examples when no name is given
    python -m verify.goldens --check NAME      # re-record into a temp dir, compare only
    python -m verify.goldens --this-cpu NAME   # keep this CPU's oracle recording beside the golden

A golden must come from a deterministic program (docs/verify.md, determinism), so every example runs
twice in fresh model_dirs and the two harvests must be identical to the last bit; otherwise
nothing is written and the differing numbers are printed. The first run's start state
(``model.ckpt-0`` or Keras initial weights) is kept beside the golden: current-TF runs start
from it, because TF1 graph-seeded initial values cannot be reproduced elsewhere. The golden
names the CPU it was recorded on (verify/machine.py): TF 1.15's last bits depend on it.

`--this-cpu` writes the recording as ``golden.cpu-<id>.json`` beside the golden instead of
replacing it: the bridge stays held to the golden, and the live-oracle test
(tests/regression/test_oracle_goldens.py) holds the oracle on this CPU to its own recording,
exactly. Needed where a chaotic training run turns the CPU's last-bit differences into large
ones (mnist_tpu under Adam: losses 5.9e-6 from the golden on another CPU, same TF 1.15 wheel).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from legacy_examples.catalog import BY_NAME, EXAMPLES, LegacyExample
from verify.compare import compare
from verify.environments import harvest, oracle_python, program_env, run_program
from verify.machine import cpu_fingerprint
from verify.shipped_runs import example_argv, harvest_spec
from verify.sides import seed_model_dir

RUNS_PER_GOLDEN = 2


class NotDeterministic(RuntimeError):
    """Two oracle runs of the same example disagree: the example must be fixed, not recorded."""


def run_in_oracle(example: LegacyExample, model_dir: Path, *, start_from: Path | None = None) -> dict:
    """One oracle run of the example into model_dir, harvested by the same oracle.

    start_from: a folder holding a `model.ckpt-0` to start from instead of the graph seeds' values
    (the golden's own, or one moved by verify/nudge.py).
    """
    python = oracle_python(example.oracle)
    env = program_env()
    if start_from is not None:
        seed_model_dir(model_dir, [start_from / name for name in example.start_state], "model.ckpt-0")
    model_dir.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    run_program(example_argv(python, example, model_dir), env=env, cwd=model_dir)
    seconds = time.perf_counter() - started
    result = harvest(python, model_dir, harvest_spec(example), env=env)
    result["seconds"] = round(seconds, 1)
    return result


def record_live(example: LegacyExample, work_dir: Path) -> tuple[dict, Path]:
    """Run the example RUNS_PER_GOLDEN times; return the golden document and the first model_dir."""
    results = [run_in_oracle(example, work_dir / f"run{index}") for index in range(RUNS_PER_GOLDEN)]
    for other in results[1:]:
        comparison = compare(results[0], other, floor=1e-30)
        problems = comparison.failures(rtol=0.0)
        if results[0].get("ckpt0_sha256") != other.get("ckpt0_sha256"):
            problems.append("model.ckpt-0 differs between runs (unseeded initializers?)")
        if problems:
            raise NotDeterministic(
                f"{example.name}: two {example.oracle} runs differ (max relative "
                f"{comparison.max_relative:.2e}); make the example deterministic before recording:\n  "
                + "\n  ".join(problems[:20]))
    result = dict(results[0])
    seconds = result.pop("seconds")
    golden = {
        "example": example.name,
        "script": example.script,
        "oracle": example.oracle,
        "tensorflow": result["tensorflow"],
        "flags": list(example.flags),
        "runs_compared": RUNS_PER_GOLDEN,
        "oracle_seconds": seconds,
        "machine": cpu_fingerprint(),
        "result": result,
    }
    return golden, work_dir / "run0"


def cpu_recording_path(example: LegacyExample, fingerprint: dict | None = None) -> Path:
    """Where the oracle's recording on one CPU is kept: `golden.cpu-<12 hex of its fingerprint>.json`."""
    fingerprint = cpu_fingerprint() if fingerprint is None else fingerprint
    digest = hashlib.sha256(json.dumps(fingerprint, sort_keys=True).encode()).hexdigest()[:12]
    return example.golden_path.with_name(f"golden.cpu-{digest}.json")


def write_cpu_recording(example: LegacyExample, golden: dict) -> Path:
    """This CPU's recording beside the golden (the start state must be the golden's own)."""
    committed = json.loads(example.golden_path.read_text())
    if committed["result"].get("ckpt0_sha256") != golden["result"].get("ckpt0_sha256"):
        raise RuntimeError(f"{example.name}: the oracle's initial checkpoint differs from the "
                           "golden's; re-record the golden itself, not a per-CPU recording")
    path = cpu_recording_path(example, golden["machine"])
    path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
    return path


def write_golden(example: LegacyExample, golden: dict, model_dir: Path) -> None:
    for filename in example.start_state:
        shutil.copyfile(model_dir / filename, example.folder / filename)
    example.golden_path.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"examples to record (default: all of {sorted(BY_NAME)})")
    parser.add_argument("--check", action="store_true",
                        help="re-record into a temporary directory and compare with the committed golden")
    parser.add_argument("--this-cpu", action="store_true",
                        help="keep the recording as this CPU's (golden.cpu-<id>.json), golden unchanged")
    args = parser.parse_args(argv)
    unknown = [name for name in args.names if name not in BY_NAME]
    if unknown:
        parser.error(f"unknown example(s) {unknown}; known: {sorted(BY_NAME)}")
    examples = [BY_NAME[name] for name in args.names] if args.names else list(EXAMPLES)
    status = 0
    for example in examples:
        with tempfile.TemporaryDirectory(prefix=f"record_{example.name}_") as work:
            golden, model_dir = record_live(example, Path(work))
            if args.check:
                committed = json.loads(example.golden_path.read_text())
                same = committed["result"] == golden["result"]
                print(f"{example.name}: {'matches' if same else 'DIFFERS FROM'} the committed golden")
                status |= 0 if same else 1
            elif args.this_cpu:
                path = write_cpu_recording(example, golden)
                print(f"{example.name}: this CPU's recording written to {path}")
            else:
                write_golden(example, golden, model_dir)
                print(f"{example.name}: recorded on {example.oracle} (TF {golden['tensorflow']}, "
                      f"{golden['oracle_seconds']} s per run, {RUNS_PER_GOLDEN} identical runs)")
    return status


if __name__ == "__main__":
    sys.exit(main())
