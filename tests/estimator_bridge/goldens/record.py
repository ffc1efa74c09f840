"""Records the goldens beside this file by running their programs in the TF 1.15 oracle, twice.

    .venv/bin/python -m tests.estimator_bridge.goldens.record [NAME ...]

Each golden is the JSON line its program prints in `.oracle/tf115` (NAME: one of GOLDENS). The
program runs twice in fresh directories and nothing is written unless both runs print the same
JSON and report TensorFlow 1.15.0 themselves (the `"tensorflow"` field is the oracle's own
`tf.__version__`, never added by hand): a golden must come from a deterministic program on the
oracle it names. The oracle tests beside each golden run the program once more and require
equality with the file, so a golden that no longer describes its oracle fails the suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from tests.support.goldens import with_machine
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

GOLDEN_DIR = Path(__file__).resolve().parent
ORACLE_VERSION = "1.15.0"


@dataclass(frozen=True)
class Golden:
    """One golden file and the oracle program that prints it."""

    file: str
    program: str
    arguments: tuple[str, ...]  # "{tmp}" is replaced by a fresh directory per run

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / self.file

    def argv(self, tmp: str) -> list[str]:
        return [argument.replace("{tmp}", tmp) for argument in self.arguments]


GOLDENS = {
    "compat_tpu_script": Golden("compat_tpu_script_tf115.json", "compat_tpu_script.py",
                                ("--model_dir={tmp}/model",)),
    "compat_contrib": Golden("compat_contrib_tf115.json", "compat_contrib_recorder.py", ("tf115",)),
    "layers": Golden("layers_tf115.json", "layers_recorder.py", ("tf115",)),
    "summary_cadence": Golden("summary_cadence_tf115.json", "summary_cadence_recorder.py", ()),
}


def run_once(golden: Golden) -> dict:
    """The program's JSON line on TF 1.15, from a fresh working directory."""
    with tempfile.TemporaryDirectory() as tmp:
        return run_json(oracle_python("tf115"), GOLDEN_DIR / golden.program, *golden.argv(tmp),
                        cwd=REPO_ROOT, timeout=900)


def record(golden: Golden) -> dict:
    """Two runs that must agree exactly and name TF 1.15.0; their result."""
    first, second = run_once(golden), run_once(golden)
    if first != second:
        raise RuntimeError(f"{golden.program} is not deterministic on TF 1.15: two runs differ; "
                           "fix the program before recording its golden.")
    if first.get("tensorflow") != ORACLE_VERSION:
        raise RuntimeError(f"{golden.program} reports tensorflow {first.get('tensorflow')!r}, "
                           f"not {ORACLE_VERSION}: the oracle at .oracle/tf115 is not the one "
                           "the golden names (rebuild it with `make oracle-a`).")
    return first


def write(golden: Golden, result: dict) -> None:
    """The result and the CPU it came from (tests/support/goldens.py: exact only there)."""
    golden.path.write_text(json.dumps(with_machine(result), indent=1, sort_keys=True) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"goldens to record (default: all of {sorted(GOLDENS)})")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(GOLDENS))
    if unknown:
        parser.error(f"unknown golden(s) {unknown}; known: {sorted(GOLDENS)}")
    for name in args.names or GOLDENS:
        write(GOLDENS[name], record(GOLDENS[name]))
        print(f"recorded {GOLDENS[name].path} (two identical TF {ORACLE_VERSION} runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
