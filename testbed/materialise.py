"""Write the test bed's files from fetched git snapshots: DEST/<owner>+<repo>+<commit[:8]>/<path>.

    python -m testbed.materialise --mirror /work/.mirror DEST

MIRROR/<owner>+<repo>/repo is a bare git directory (as the fetch tool leaves it, or
`git clone --bare https://github.com/<owner>/<repo> MIRROR/<owner>+<repo>/repo`). Every file is
checked against its sha256.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from testbed.manifest import folder_of, load, sha256, show


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", type=Path, required=True)
    parser.add_argument("dest", type=Path)
    args = parser.parse_args(argv)
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
