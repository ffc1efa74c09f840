"""Programmatic API: find files, migrate them (optionally in parallel), write results. Never prints.

`migrate_paths` yields one FileResult per file in path-sorted order, whatever `jobs` is, so that
reports and diffs are deterministic. Writing is separate (`write_result`) and atomic.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from migrate import cache
from migrate.findings import FileResult, Finding, Location

SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache", ".ipynb_checkpoints",
             "node_modules", ".oracle", "build", "dist"}
SUFFIXES = (".py", ".ipynb")


def discover(paths: Sequence[str | Path]) -> list[Path]:
    """Python files and notebooks under `paths` (files given explicitly are always included), sorted."""
    found: set[Path] = set()
    for path in map(Path, paths):
        if path.is_dir():
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
                found.update(Path(root) / f for f in files if f.endswith(SUFFIXES))
        elif path.exists():
            found.add(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or directory")
    return sorted(found)


def migrate_source(data: bytes, path: str, surveyed=None) -> FileResult:
    """Migrate the bytes of one file (a notebook when `path` ends with .ipynb); `surveyed`: what
    engine.survey returned for a .py file's bytes, when asked already."""
    # (imported here: a re-run answered by the cache imports no libcst at all)
    if path.endswith(".ipynb"):
        from migrate.notebooks import migrate_notebook  # noqa: PLC0415
        return migrate_notebook(data, path)
    from migrate.engine import migrate_bytes  # noqa: PLC0415
    return migrate_bytes(data, path, surveyed)


def migrate_file(path: str) -> FileResult:
    """Migrate one file; an unexpected error becomes a MIG006 finding, never an exception."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:  # dangling or looping symlink, no permission, vanished since discovery
        return FileResult(path, b"", None, (Finding(Location(1, 0), "MIG007", f"cannot read the file: {error.strerror}",
                                                    "make it readable, fix the symlink, or leave it out of the paths"),),
                          skipped=True)
    try:
        # Cheap answers first: the cache (one hash and one file read), then the pre-filter (no
        # libcst, a CPython parse). Both kinds of result are cached, so that a re-run over an
        # unchanged tree parses nothing at all.
        cached = cache.load(path, data)
        if cached is not None:
            return cached
        from migrate.engine import survey  # noqa: PLC0415 (see migrate_source)
        surveyed = None if path.endswith(".ipynb") else survey(data, path)
        if isinstance(surveyed, FileResult):
            cache.store(surveyed)
            return surveyed
        result = migrate_source(data, path, surveyed)
        cache.store(result)
        return result
    except Exception as error:  # a crash on one file must not stop a run over a repository
        return FileResult(path, data, None, (Finding(Location(1, 0), "MIG006", f"{type(error).__name__}: {error}",
                                                     "please report this file with the message"),), skipped=True)


def with_readiness(result: FileResult) -> FileResult:
    """`result` plus the TPU readiness findings (MIG4xx) of the file as the user wrote it.

    A separate analysis, not part of the rewriting pass: its findings are about the program
    (choices only the user can make), so they stay after migration, while the pass's contract
    is that migrated output has nothing left to rewrite (the pre-filter clears it). Located in
    the original file, like every other finding; notebooks by `cell N:line`."""
    from migrate.codemods.tpu_readiness import readiness_findings
    from migrate.notebooks import readiness_module

    if result.skipped:
        return result
    if result.path.endswith(".ipynb"):
        built = readiness_module(result.original)
        if built is None:
            return result
        module, locate = built
        found = [Finding(locate(f.location.line, f.location.column), f.code, f.message, f.hint)
                 for f in readiness_findings(module, result.path)]
    else:
        try:
            text = result.original.decode("utf-8-sig")
        except UnicodeDecodeError:
            return result
        found = readiness_findings(text, result.path)
    if not found:
        return result
    return FileResult(result.path, result.original, result.migrated,
                      tuple(sorted(result.findings + tuple(found), key=lambda f: f.location)), result.skipped)


def select_findings(result: FileResult, select: Iterable[str] = (), ignore: Iterable[str] = ()) -> FileResult:
    """`result` keeping only findings whose code starts with a `select` prefix and no `ignore` prefix."""
    select, ignore = tuple(select), tuple(ignore)

    def keep(finding: Finding) -> bool:
        return (not select or finding.code.startswith(select)) and not (ignore and finding.code.startswith(ignore))

    return FileResult(result.path, result.original, result.migrated,
                      tuple(f for f in result.findings if keep(f)), result.skipped)


def _migrate_group(names: list[str]) -> list[FileResult]:
    return [migrate_file(name) for name in names]


def work_groups(names: Sequence[str], jobs: int, per_worker: int = 8) -> list[tuple[list[str], int]]:
    """`names` cut into runs of consecutive files of about equal total size (~`per_worker` runs per
    worker), each with its size in bytes: few enough that process hand-offs cost nothing, small
    enough to balance the load (a 100 kB module costs as much as fifty small ones)."""
    sizes = []
    for name in names:
        try:
            sizes.append(max(1, os.path.getsize(name)))
        except OSError:
            sizes.append(1)  # migrate_file reports it
    budget = max(1, sum(sizes) // (jobs * per_worker))
    groups: list[tuple[list[str], int]] = []
    for name, size in zip(names, sizes):
        if not groups or groups[-1][1] + size > budget:
            groups.append(([], 0))
        group, weight = groups[-1]
        group.append(name)
        groups[-1] = (group, weight + size)
    return groups


def fewer_collections() -> None:
    """Let the cyclic garbage collector run ~70x less often in this process.

    A libcst parse creates hundreds of thousands of objects without reference cycles, and the
    default gen-0 threshold (700) makes the collector scan them again and again (about 30% of
    libcst's parse time).
    Memory stays bounded: the trees are freed by reference counting when a file is done."""
    gc.set_threshold(50_000, 20, 100)


# Goes through the pipeline's imports and lazily loaded tables (libcst, the codemods, the TF API
# table of migrate/existence.py) before the workers fork.
_WARM_UP = b"import tensorflow as tf\nx = tf.contrib.layers.flatten(tf.compat.v1.placeholder(tf.float32))\n"


def warm_up_before_fork() -> None:
    """Load what every worker needs once, in this process, when the workers are forked from it.

    Each worker otherwise imported libcst and the codemods and loaded the tables itself: ~0.3 CPU s
    per worker measured on this machine (0.23 s of imports, 0.09 s of first-file loading), paid
    twice by `-j 2` and once by `-j 1`. Forked workers share the parent's loaded modules. Nothing
    is done for other start methods (a spawned worker imports everything anyway)."""
    if multiprocessing.get_start_method() != "fork":
        return
    from migrate.engine import migrate_bytes  # noqa: PLC0415 (see migrate_source)
    migrate_bytes(_WARM_UP, "<warm-up>.py")


def migrate_paths(files: Sequence[Path], jobs: int = 1) -> Iterator[FileResult]:
    """FileResults for `files` in the given (sorted) order, computed by `jobs` processes.

    The groups of `work_groups` go to the pool heaviest first (so that no large file starts last
    and leaves the other workers idle), and results come back in the order of `files`. Results
    the cache holds are answered here first: a re-run starts no worker for them."""
    names = [str(f) for f in files]
    fewer_collections()
    if jobs <= 1 or len(names) < 4:
        for name in names:
            yield migrate_file(name)
        return
    cached = _cached_results(names)
    missing = [name for name in names if name not in cached]
    if len(missing) < 4:
        for name in names:
            yield cached[name] if name in cached else migrate_file(name)
        return
    groups = work_groups(missing, jobs)
    warm_up_before_fork()
    with ProcessPoolExecutor(max_workers=jobs, initializer=fewer_collections) as pool:
        futures = {}
        for index in sorted(range(len(groups)), key=lambda i: -groups[i][1]):
            futures[index] = pool.submit(_migrate_group, groups[index][0])
        computed: dict[str, FileResult] = {}
        for name in names:
            if name in cached:
                yield cached[name]
                continue
            while name not in computed:
                index = next(i for i in range(len(groups)) if name in groups[i][0])
                computed.update((result.path, result) for result in futures[index].result())
            yield computed.pop(name)


def _cached_results(names: Sequence[str]) -> dict[str, FileResult]:
    """{name: result} for the files whose result the cache holds (read here, not in a worker)."""
    found: dict[str, FileResult] = {}
    if cache.cache_dir() is None:
        return found
    for name in names:
        if name.endswith(".ipynb"):
            continue
        try:
            data = Path(name).read_bytes()
        except OSError:
            continue
        result = cache.load(name, data)
        if result is not None:
            found[name] = result
    return found


def atomic_write(path: Path, data: bytes) -> None:
    """Write via a temp file in the same directory and rename, keeping the file mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".migrate-tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if mode is not None:
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def _tree_name(root: Path) -> str:
    """The folder name a directory argument gets under the output dir (`..` and `.` resolved, so
    that `migrate .. -o out` writes to out/<name>, never to out/..)."""
    return root.resolve().name


def outside_output_dir(files: Sequence[Path], output_dir: Path) -> list[Path]:
    """`files` without those already under `output_dir` (a previous run's copy inside the input)."""
    destination = output_dir.resolve()
    return [f for f in files if not f.resolve().is_relative_to(destination)]


def output_path(path: Path, roots: Sequence[Path], output_dir: Path) -> Path:
    """Where `path` goes under `output_dir`: relative to the argument it was found under."""
    for root in roots:
        base = root if root.is_dir() else root.parent
        try:
            relative = path.resolve().relative_to(base.resolve())
        except ValueError:
            continue
        return output_dir / (_tree_name(root) if root.is_dir() else "") / relative
    return output_dir / path.name


class OutsideOutputDir(Exception):
    """A write under --output-dir would land outside it (through a symlink)."""


def escaping_symlinks(output_dir: Path) -> list[Path]:
    """Symlinks already inside `output_dir` whose target lies outside it (writing through one
    would change files elsewhere)."""
    if not output_dir.is_dir():
        return []
    base = output_dir.resolve()
    found = []
    for root, dirs, files in os.walk(output_dir):
        for name in dirs + files:
            entry = Path(root) / name
            if entry.is_symlink() and not entry.resolve().is_relative_to(base):
                found.append(entry)
    return sorted(found)


def ensure_inside(path: Path, output_dir: Path) -> Path:
    """`path` if writing it stays inside `output_dir`, else OutsideOutputDir naming both."""
    target = path.parent.resolve() / path.name
    if not target.is_relative_to(output_dir.resolve()) or (path.is_symlink() and
                                                           not path.resolve().is_relative_to(output_dir.resolve())):
        raise OutsideOutputDir(f"{path} resolves to {path.resolve()}, outside the output directory {output_dir}")
    return path


def _sibling_links(root: Path) -> list[tuple[Path, str]]:
    """`(link, its relative target)` for each relative directory symlink under `root` whose
    target is a folder inside `root` that does not contain the link (no loop, nothing outside)."""
    base = root.resolve()
    found = []
    for folder, dirs, _files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in dirs:
            link = Path(folder) / name
            if not link.is_symlink():
                continue
            pointing_to = os.readlink(link)
            resolved = link.resolve()
            if (not os.path.isabs(pointing_to) and resolved.is_dir() and resolved.is_relative_to(base)
                    and resolved != base and not link.parent.resolve().is_relative_to(resolved)):
                found.append((link, pointing_to))
    return found


def mirror_tree(roots: Sequence[Path], output_dir: Path) -> None:
    """Copy every file under `roots` to `output_dir` (migrated files are then written over them).

    Symlinked directories are not copied, as `discover` does not enter them either (a link to a
    parent directory would otherwise be copied forever); a relative one to a sibling folder of
    the same root (`finetune/nets -> ../nets`, a 2018 TF-Slim trainer's way to import the shared
    nets) is made again as the same link, to the migrated sibling, so the migrated program still
    imports it (`_sibling_links`). Symlinked files are copied as files, dangling ones skipped."""
    skip = shutil.ignore_patterns(*SKIP_DIRS, "*.egg-info")
    destination = output_dir.resolve()

    def ignore(folder: str, names: list[str]) -> set[str]:
        paths = {n: os.path.join(folder, n) for n in names}
        return set(skip(folder, names)) | {n for n, p in paths.items() if os.path.isdir(p) and (
            os.path.islink(p) or Path(p).resolve() == destination)}  # the output dir inside an input tree

    for root in roots:
        if root.is_dir():
            target = output_dir / _tree_name(root)
            shutil.copytree(root, target, dirs_exist_ok=True, ignore=ignore, ignore_dangling_symlinks=True)
            for link, pointing_to in _sibling_links(root):
                made = target / link.relative_to(root)
                if not made.exists() and not made.is_symlink():
                    made.symlink_to(pointing_to, target_is_directory=True)
        else:
            output_dir.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root, output_dir / root.name)
