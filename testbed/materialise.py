"""Write the test bed's files from fetched git snapshots: DEST/<owner>+<repo>+<commit[:8]>/<path>.

    python -m testbed.materialise [--mirror MIRROR] [DEST]

MIRROR/<owner>+<repo>/repo is a bare git directory (`git clone --bare
https://github.com/<owner>/<repo> MIRROR/<owner>+<repo>/repo`); MIRROR defaults to
$ESTIMATOR_BRIDGE_MIRROR, else ~/.cache/estimator-bridge/mirror, and DEST to
$ESTIMATOR_BRIDGE_TESTBED, else ~/.cache/estimator-bridge/testbed/sources. Every file is
checked against its sha256.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench import cache_dirs
from testbed.manifest import folder_of, load, sha256, show


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, default=None)
    parser.add_argument("dest", type=Path, nargs="?")
    args = parser.parse_args(argv)
    args.mirror = args.mirror or cache_dirs.mirror()
    args.dest = args.dest or cache_dirs.configured("ESTIMATOR_BRIDGE_TESTBED", "testbed", "sources")
    if not args.mirror.is_dir():
        print(f"no mirror at {args.mirror}: clone each repository of testbed/manifest.json there, e.g. "
              f"{cache_dirs.fill_mirror_hint('owner/name', args.mirror)}, or pass --mirror DIR", file=sys.stderr)
        return 1
    failed = 0
    for row in load():
        target = args.dest / folder_of(row["repo"], row["commit"]) / row["path"]
        try:
            content = show(args.mirror, row["repo"], row["commit"], row["path"])
        except FileNotFoundError as error:
            print(error, file=sys.stderr)
            failed += 1
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        if sha256(target) != row["sha256"]:
            print(f"{target}: sha256 differs from the manifest", file=sys.stderr)
            failed += 1
    print(f"{len(load()) - failed} files written under {args.dest}, {failed} problem(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
