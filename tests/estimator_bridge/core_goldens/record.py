"""Records the bridge-core goldens by running oracle/programs/bridge_cases.py in TF 1.15.

    .venv/bin/python -m tests.estimator_bridge.core_goldens.record [--new-initial-checkpoints]

For every case it runs the program twice in `.oracle/tf115` from the same initial checkpoint
and refuses to record unless both runs agree exactly (docs/architecture.md: a golden must come
from a deterministic program). Cases with random initialisers start from `init/<case>/
model.ckpt-0`, written once by TF 1.15 itself (`--new-initial-checkpoints` rewrites them; only
needed when a case's variables change). Output: `tf115_cases.json` and
`design_probe_tf115.json` (oracle/programs/design_probe.py, the probe program) beside this file.
The oracle test `test_core_oracle.py` re-records live and asserts equality with the file.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tests.support.goldens import with_machine
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

PROGRAM = REPO_ROOT / "oracle" / "programs" / "bridge_cases.py"
DESIGN_PROBE = REPO_ROOT / "oracle" / "programs" / "design_probe.py"
GOLDEN_DIR = Path(__file__).resolve().parent
GOLDEN_FILE = GOLDEN_DIR / "tf115_cases.json"
DESIGN_PROBE_GOLDEN_FILE = GOLDEN_DIR / "design_probe_tf115.json"
# The cases and whether they start from a TF1-written random initial checkpoint.
CASES = {"gd": False, "momentum": True, "adam": True, "bert_optimizer": True,
         "update_ops": True, "resume": True, "conv_bn": True}


def initial_checkpoint_dir(case: str) -> Path | None:
    return GOLDEN_DIR / "init" / case if CASES[case] else None


def write_initial_checkpoint(case: str) -> None:
    python = oracle_python("tf115")
    target = initial_checkpoint_dir(case)
    with tempfile.TemporaryDirectory() as scratch:
        run_json(python, PROGRAM, "tf115", case, scratch, "--init-only")
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for path in glob.glob(os.path.join(scratch, "model.ckpt-0.*")):
            if not path.endswith(".meta"):
                shutil.copy(path, target)


def run_case(case: str, flavour: str = "tf115", python=None, extra=()) -> dict:
    """Runs one case in a fresh model_dir (from its initial checkpoint) and returns the JSON."""
    python = python or oracle_python("tf115")
    init = initial_checkpoint_dir(case)
    with tempfile.TemporaryDirectory() as model_dir:
        args = [flavour, case, os.path.join(model_dir, "model")]
        if init is not None:
            args += ["--init-dir", str(init)]
        return run_json(python, PROGRAM, *args, *extra)


def record_design_probe() -> dict:
    """The probe program on TF 1.15, run twice and checked for determinism."""
    results = []
    for _ in range(2):
        with tempfile.TemporaryDirectory() as model_dir:
            results.append(run_json(oracle_python("tf115"), DESIGN_PROBE, "tf115",
                                    os.path.join(model_dir, "model")))
    if results[0] != results[1]:
        raise RuntimeError("the design probe is not deterministic on TF 1.15")
    return results[0]


def record() -> dict:
    """All cases, each run twice and checked for determinism."""
    goldens = {}
    for case in CASES:
        first, second = run_case(case), run_case(case)
        if first != second:
            raise RuntimeError(f"case {case!r} is not deterministic on TF 1.15: two runs from "
                               "the same initial checkpoint differ; fix the program first.")
        goldens[case] = with_machine(first)  # exact only on this CPU (tests/support/goldens.py)
    return goldens


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--new-initial-checkpoints", action="store_true")
    args = parser.parse_args(argv)
    for case in CASES:
        if CASES[case] and (args.new_initial_checkpoints
                            or not initial_checkpoint_dir(case).exists()):
            write_initial_checkpoint(case)
    DESIGN_PROBE_GOLDEN_FILE.write_text(
        json.dumps(record_design_probe(), indent=1, sort_keys=True) + "\n")
    GOLDEN_FILE.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN_FILE} and {DESIGN_PROBE_GOLDEN_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
