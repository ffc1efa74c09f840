"""Lay out the real-code corpus (bench/corpus/manifest.json) from fetched repository snapshots.

Usage: python -m bench.corpus.materialise DEST [--mirror MIRROR] [--manifest FILE]

The corpus is real public 2018-2023 TPU code (TPUEstimator scripts, model_fns, tf.contrib users,
TPU notebooks) from many repositories. None of it is committed: the manifest holds only
repository, commit, path and sha256 of each file. Each repository must have been fetched as a bare
git snapshot `<mirror>/<owner>+<name>/repo` (`git clone --bare https://github.com/<owner>/<name>
<mirror>/<owner>+<name>/repo`; MIRROR defaults to $ESTIMATOR_BRIDGE_MIRROR, else
~/.cache/estimator-bridge/mirror); this script
reads every file with `git show <commit>:<path>`, checks its sha256 and writes it to
`DEST/<owner>+<name>/<path>`. Missing snapshots or changed files are reported, never skipped
silently (exit 1 when anything is missing or differs).

`--update` rewrites the manifest from bench/corpus/selection.txt (one `owner/name path` a line),
taking each snapshot's HEAD commit: only for curating the corpus, never in a measurement.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from bench import cache_dirs

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "manifest.json"
SELECTION = HERE / "selection.txt"


def snapshot_dir(mirror: Path, repo: str) -> Path:
    """Where a repository's snapshot is: <mirror>/<owner>+<name>/repo, a bare git directory, or a
    checkout whose git directory is repo/.git (openai/glow, tensorflow/magenta)."""
    snapshot = mirror / repo.replace("/", "+") / "repo"
    return snapshot / ".git" if (snapshot / ".git").is_dir() else snapshot


def git_bytes(git_dir: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={git_dir}", *args], check=True, capture_output=True).stdout


def local_path(dest: Path, entry: dict) -> Path:
    """The file's place in the materialised corpus: DEST/<owner>+<name>/<path>."""
    return dest / entry["repo"].replace("/", "+") / entry["path"]


def update_manifest(mirror: Path) -> list[dict]:
    """Manifest entries for selection.txt at each snapshot's HEAD (curation only)."""
    entries = []
    for line in SELECTION.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        repo, path = line.split(maxsplit=1)
        git_dir = snapshot_dir(mirror, repo)
        commit = git_bytes(git_dir, "rev-parse", "HEAD").decode().strip()
        data = git_bytes(git_dir, "show", f"{commit}:{path}")
        entries.append({"repo": repo, "commit": commit, "path": path,
                        "sha256": hashlib.sha256(data).hexdigest()})
    return entries


def materialise(entries: list[dict], mirror: Path, dest: Path) -> list[str]:
    """Write every manifest file under dest; returns the problems (missing snapshot, sha256 differs)."""
    problems = []
    for entry in entries:
        git_dir = snapshot_dir(mirror, entry["repo"])
        if not git_dir.is_dir():
            problems.append(f"{entry['repo']}: no snapshot at {git_dir}; fetch it with: "
                            f"{cache_dirs.fill_mirror_hint(entry['repo'], mirror)}")
            continue
        try:
            data = git_bytes(git_dir, "show", f"{entry['commit']}:{entry['path']}")
        except subprocess.CalledProcessError as error:
            problems.append(f"{entry['repo']}:{entry['path']}@{entry['commit'][:12]}: "
                            f"{error.stderr.decode().strip()} (the snapshot may predate or postdate this commit)")
            continue
        digest = hashlib.sha256(data).hexdigest()
        if digest != entry["sha256"]:
            problems.append(f"{entry['repo']}:{entry['path']}: sha256 {digest} is not the manifest's {entry['sha256']}")
            continue
        target = local_path(dest, entry)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return problems


def load_manifest(path: Path = MANIFEST) -> list[dict]:
    return json.loads(path.read_text())["files"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--mirror", type=Path, default=None,
                        help="bare git snapshots <mirror>/<owner>+<name>/repo "
                             "(default $ESTIMATOR_BRIDGE_MIRROR, else ~/.cache/estimator-bridge/mirror)")
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--update", action="store_true", help="rewrite the manifest from selection.txt first")
    args = parser.parse_args(argv)
    args.mirror = args.mirror or cache_dirs.mirror()
    if not args.mirror.is_dir():
        print(f"no mirror at {args.mirror}: fetch each repository of {args.manifest.name} as a bare "
              f"git clone there, e.g. {cache_dirs.fill_mirror_hint('owner/name', args.mirror)}, "
              "or pass --mirror DIR (or set ESTIMATOR_BRIDGE_MIRROR)", file=sys.stderr)
        return 1
    if args.update:
        entries = update_manifest(args.mirror)
        document = {"about": "real public TPU-era files; materialise with python -m bench.corpus.materialise DEST",
                    "files": entries}
        args.manifest.write_text(json.dumps(document, indent=1) + "\n")
    entries = load_manifest(args.manifest)
    problems = materialise(entries, args.mirror, args.dest)
    repos = {e["repo"] for e in entries}
    print(f"{len(entries) - len(problems)} of {len(entries)} files from {len(repos)} repositories in {args.dest}")
    for problem in problems:
        print("  " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
