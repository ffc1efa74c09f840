"""The test bed's manifest: repository, commit, path and sha256 of every file a program reads.

    python -m testbed.manifest --sources DIR [--mirror M]   # (re)write testbed/manifest.json from fetched
                                                            # sources (--mirror: take missing files from git
                                                            # snapshots first, at programs.py's commits)
    python -m testbed.materialise --mirror DIR DEST   # fetched git snapshots -> DEST/<owner>+<repo>/<path>

Sources live outside the repository as DIR/<owner>+<repo>+<commit[:8]>/<path> (see docs/verify.md, test bed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from testbed.programs import PROGRAMS

MANIFEST = Path(__file__).resolve().parent / "manifest.json"


def folder_of(repo: str, commit: str) -> str:
    """DIR/<owner>+<repo>+<commit[:8]>: one folder per snapshot (two programs may need two commits)."""
    return f"{repo.replace('/', '+')}+{commit[:8]}"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def show(mirror: Path, repo: str, commit: str, path: str) -> bytes:
    """One file of a fetched snapshot (MIRROR/<owner>+<repo>/repo is a bare git directory)."""
    git_dir = mirror / repo.replace("/", "+") / "repo"
    shown = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True)
    if shown.returncode != 0:
        raise FileNotFoundError(f"cannot read {repo}@{commit[:10]}:{path} from {git_dir}: "
                                f"{shown.stderr.decode().strip()}")
    return shown.stdout


def fill_from_mirror(sources: Path, mirror: Path) -> None:
    for program in PROGRAMS:
        for path in program.files:
            target = sources / folder_of(program.repo, program.commit) / path
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(show(mirror, program.repo, program.commit, path))


def entries(sources: Path) -> list[dict]:
    rows = []
    for program in PROGRAMS:
        for path in program.files:
            rows.append({"program": program.name, "repo": program.repo, "commit": program.commit, "path": path,
                         "sha256": sha256(sources / folder_of(program.repo, program.commit) / path)})
    return rows


def load() -> list[dict]:
    return json.loads(MANIFEST.read_text())["files"]


def mismatches(sources: Path, program_name: str) -> list[str]:
    """Files of one program that are missing from `sources` or differ from the manifest."""
    problems = []
    for row in load():
        if row["program"] != program_name:
            continue
        path = sources / folder_of(row["repo"], row["commit"]) / row["path"]
        if not path.is_file():
            problems.append(f"missing {path}")
        elif sha256(path) != row["sha256"]:
            problems.append(f"{path} differs from {row['repo']}@{row['commit'][:10]} (sha256)")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--mirror", type=Path, help="take files missing from --sources from these git snapshots")
    args = parser.parse_args(argv)
    if args.mirror is not None:
        fill_from_mirror(args.sources, args.mirror)
    document = {"about": "public programs of the verify test bed; fetch them at these commits (docs/verify.md)",
                "files": entries(args.sources)}
    MANIFEST.write_text(json.dumps(document, indent=1) + "\n")
    print(f"{len(document['files'])} files of {len(PROGRAMS)} programs -> {MANIFEST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
