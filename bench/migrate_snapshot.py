"""Outputs and findings of estimator-migrate over the real-code sets and the repository's own
inputs, written as files to compare two checkouts byte for byte (`diff -r A B`).

Usage: python -m bench.migrate_snapshot OUTDIR [--set NAME=DIR ...]

Why: a speed change must not change one byte of output nor one finding. The fixtures' tests
check their expected outputs only; this covers real code too: by default the corpus and both
held-out sets as `make corpus` lays them out ($ESTIMATOR_BRIDGE_CORPUS and
~/.cache/estimator-bridge/{heldout,heldout2} by default; missing ones skipped with a note), every fixture, legacy example and test program. Each file goes
through what the CLI runs (pre-filter, full pipeline, TPU readiness findings);
OUTDIR/<set>/<path>.out holds the output (the input when unchanged), .findings the findings.
Run it from each checkout (e.g. a `git worktree` of the parent commit), then `diff -r`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import cache_dirs

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SETS = {"corpus": cache_dirs.corpus(), "heldout": cache_dirs.cache_home() / "heldout",
                "heldout2": cache_dirs.cache_home() / "heldout2", "fixtures": REPO_ROOT / "tests/migrate/fixtures",
                "legacy": REPO_ROOT / "legacy_examples", "programs": REPO_ROOT / "tests/migrate/programs"}


def snapshot(sets: dict[str, Path], out: Path) -> int:
    from migrate.api import discover, migrate_source, with_readiness
    from migrate.engine import survey
    from migrate.findings import FileResult

    count = 0
    for name, root in sets.items():
        if not root.is_dir():
            print(f"{name}: no {root}, skipped (lay it out with python -m bench.corpus.materialise {root} "
                  "--manifest bench/corpus/<set>_manifest.json, or pass --set NAME=DIR)", file=sys.stderr)
            continue
        for path in discover([root]):
            relative = path.relative_to(root)
            data = path.read_bytes()
            key = f"{name}/{relative}"
            surveyed = None if key.endswith(".ipynb") else survey(data, key)
            result = surveyed if isinstance(surveyed, FileResult) else migrate_source(data, key, surveyed)
            result = with_readiness(result)
            target = out / name / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            (target.parent / (target.name + ".out")).write_bytes(result.migrated if result.migrated is not None else data)
            (target.parent / (target.name + ".findings")).write_text(
                "".join(f"{f.location} {f.code} {f.message} | {f.hint}\n" for f in result.findings)
                + f"skipped={result.skipped}\n")
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=DIR",
                        help="snapshot these sets instead of the default ones")
    args = parser.parse_args(argv)
    sets = dict(DEFAULT_SETS) if not args.set else {
        name: Path(directory) for name, directory in (item.split("=", 1) for item in args.set)}
    print(f"{snapshot(sets, args.out)} files in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
