"""Find or build the oracle environments (the TensorFlow a legacy program was written for).

One builder for both users of the oracles:
  * `make oracles` builds the checkout's `.oracle/tf115` and `.oracle/tf215` (tests, goldens):
    ``python -m verify.oracles ensure tf115 .oracle/tf115``;
  * `verify` on a user's program uses, in this order, ``$ESTIMATOR_BRIDGE_ORACLES/<name>``, the
    checkout's `.oracle/<name>` when it runs from a checkout, then the cache folder
    (``$XDG_CACHE_HOME/estimator-bridge/oracles/<name>``, default ``~/.cache/...``), and builds it
    there once when none exists (pip downloads the pinned wheels; nothing else is fetched).

An environment is complete when its ``.done`` file exists; the file holds the fingerprint of the
recipe that built it (requirements text included), so a changed pin rebuilds it. An empty
``.done`` (written by the Makefile before this module existed) is accepted and upgraded.

Stdlib only: `make oracles` runs it with the system CPython before the project's venv exists.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from verify.oracle_recipes import INSTALL_HINTS, PYTHON_ENV_VARIABLE, RECIPES, OracleRecipe

REPO_ROOT = Path(__file__).resolve().parents[1]
CHECKOUT_ORACLES = REPO_ROOT / ".oracle"
ORACLES_ENV_VARIABLE = "ESTIMATOR_BRIDGE_ORACLES"
DONE = ".done"


class OracleUnavailable(RuntimeError):
    """No usable oracle environment, and it could not (or may not) be built; says how to fix."""


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "estimator-bridge" / "oracles"


def fingerprint(recipe: OracleRecipe) -> str:
    """Changes whenever anything that decides the environment's contents changes."""
    digest = hashlib.sha256()
    for part in (recipe.name, recipe.python, recipe.pip, *recipe.no_deps, recipe.tensorflow,
                 recipe.check, recipe.requirements.read_text()):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:16]


def interpreter(root: Path) -> Path:
    return root / "bin" / "python"


def is_built(recipe: OracleRecipe, root: Path) -> bool:
    done = root / DONE
    if not done.exists() or not interpreter(root).exists():
        return False
    recorded = done.read_text().strip()
    return recorded in ("", fingerprint(recipe))


def candidate_roots(name: str) -> list[Path]:
    """Where an oracle is looked for, in order (see the module docstring)."""
    roots = []
    if os.environ.get(ORACLES_ENV_VARIABLE):
        roots.append(Path(os.environ[ORACLES_ENV_VARIABLE]) / name)
    if (REPO_ROOT / "pyproject.toml").exists():  # running from a checkout
        roots.append(CHECKOUT_ORACLES / name)
    roots.append(cache_root() / name)
    return roots


def locate(name: str) -> Path | None:
    """The interpreter of a built oracle `name`, or None."""
    recipe = RECIPES[name]
    for root in candidate_roots(name):
        if is_built(recipe, root):
            return interpreter(root)
    return None


def located(name: str) -> Path:
    """The interpreter of built oracle `name`, looked for as verify does (candidate_roots), for
    every tool that runs an oracle (`make bench`, the large-tree benchmark); OracleUnavailable
    naming the places looked at and the command that builds it."""
    found = locate(name)
    if found is None:
        raise OracleUnavailable(
            f"oracle {name} ({RECIPES[name].runs}) is not built (looked in "
            f"{', '.join(str(root) for root in candidate_roots(name))}); build it once with "
            f"`python -m verify.oracles ensure {name}` (or `make oracles` in a checkout)")
    return found


def find_python(version: str) -> Path:
    """A CPython `version` ("3.7") interpreter, or OracleUnavailable saying how to install one."""
    major, minor = version.split(".")
    candidates: list[str] = []
    explicit = os.environ.get(PYTHON_ENV_VARIABLE.format(major=major, minor=minor))
    if explicit:
        candidates.append(explicit)
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        candidates.append(sys.executable)
    pyenv_root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv")
    candidates += [str(path) for path in sorted((pyenv_root / "versions").glob(f"{version}.*/bin/python{version}"),
                                                 reverse=True)]
    on_path = shutil.which(f"python{version}")
    if on_path:
        candidates.append(on_path)
    for candidate in candidates:
        try:
            reported = subprocess.run(
                [candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                capture_output=True, text=True, timeout=60).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            continue
        if reported == version:
            return Path(candidate)
    hints = "\n  ".join(INSTALL_HINTS) if version == "3.7" else f"install CPython {version}"
    raise OracleUnavailable(
        f"CPython {version} is needed to build the oracle environment and was not found "
        f"(looked at ${PYTHON_ENV_VARIABLE.format(major=major, minor=minor)}, "
        f"{pyenv_root}/versions/{version}.*, python{version} on PATH). Install it, for example:\n  {hints}")


def _run(argv: list, what: str) -> None:
    completed = subprocess.run([str(a) for a in argv], capture_output=True, text=True)
    if completed.returncode != 0:
        raise OracleUnavailable(f"building the oracle failed while {what}:\n"
                                f"`{' '.join(map(str, argv))}` exited with {completed.returncode}\n"
                                f"{completed.stderr[-3000:]}")


def build(name: str, root: Path, *, log=print) -> Path:
    """Build oracle `name` at `root` from its recipe (replacing whatever is there)."""
    recipe = RECIPES[name]
    base = find_python(recipe.python)
    if root.exists():
        shutil.rmtree(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    python = interpreter(root)
    log(f"building oracle {name} ({recipe.runs}) at {root} with {base}")
    _run([base, "-m", "venv", root], "creating the virtual environment")
    _run([python, "-m", "pip", "install", "-q", "--upgrade", recipe.pip], "upgrading pip")
    _run([python, "-m", "pip", "install", "-q", "-r", recipe.requirements], f"installing {recipe.requirements.name}")
    if recipe.no_deps:
        _run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", *recipe.no_deps],
             f"installing {' '.join(recipe.no_deps)}")
    check_environment(recipe, python)
    (root / DONE).write_text(fingerprint(recipe) + "\n")
    return python


def check_environment(recipe: OracleRecipe, python: Path) -> None:
    """Raise OracleUnavailable unless `python` imports the recipe's TensorFlow and passes its check."""
    code = (f"import tensorflow as tf; assert tf.__version__ == {recipe.tensorflow!r}, tf.__version__; "
            f"{recipe.check}")
    _run([python, "-c", code], f"checking TensorFlow {recipe.tensorflow}")


def ensure(name: str, root: Path | None = None, *, provision: bool = True, log=print) -> Path:
    """The interpreter of oracle `name`: found, or built (at `root` or in the cache folder).

    provision=False raises OracleUnavailable naming the command that builds it instead.
    """
    if name not in RECIPES:
        raise OracleUnavailable(f"unknown oracle {name!r}; known: {sorted(RECIPES)}")
    recipe = RECIPES[name]
    if root is not None:
        if is_built(recipe, root):
            _upgrade_marker(recipe, root)
            return interpreter(root)
    else:
        found = locate(name)
        if found is not None:
            return found
        root = cache_root() / name
    if not provision:
        raise OracleUnavailable(
            f"oracle {name} ({recipe.runs}) is not built (looked in "
            f"{', '.join(str(r) for r in candidate_roots(name))}); build it once with "
            f"`python -m verify.oracles ensure {name}` (or `make oracles` in a checkout), or drop --no-provision.")
    return build(name, root, log=log)


EXTRAS_LAYOUT = "prefix+pins"  # part of the extras folder's key: folders of the earlier --target layout are not reused


def extras_folder(python: Path | str, requirements: tuple[str, ...]) -> Path:
    """Where `--with` packages for one interpreter live (outside its environment, which stays pristine)."""
    key = hashlib.sha256("\0".join([EXTRAS_LAYOUT, str(python), *sorted(requirements)]).encode()).hexdigest()[:12]
    return cache_root().parent / "extras" / key


def installed_pins(python: Path | str) -> list[str]:
    """`name==version` of every distribution `python`'s environment holds (its pins, as installed)."""
    completed = subprocess.run([str(python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
                               capture_output=True, text=True, timeout=300)
    if completed.returncode != 0:
        raise OracleUnavailable(f"cannot list the packages of {python}: {completed.stderr[-2000:]}")
    return sorted(f"{entry['name']}=={entry['version']}" for entry in json.loads(completed.stdout))


def _canonical(requirement: str) -> str:
    """A requirement's project name as pip compares them (`Scikit_Learn==1.0.2` -> `scikit-learn`)."""
    name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    return re.sub(r"[-_.]+", "-", name.group(1)).lower() if name else requirement


def _site_packages(python: Path | str, prefix: Path) -> Path:
    code = ("import sysconfig, sys; print(sysconfig.get_path('purelib', vars={'base': sys.argv[1], "
            "'platbase': sys.argv[1]}))")
    completed = subprocess.run([str(python), "-c", code, str(prefix)], capture_output=True, text=True, timeout=120)
    return Path(completed.stdout.strip())


def ensure_extras(python: Path | str, requirements: tuple[str, ...], *, provision: bool = True, log=print) -> Path | None:
    """A folder (for PYTHONPATH) holding `requirements` installed for `python`, once; None when none asked.

    A program may need packages its oracle does not ship (e.g. YAML for its hyperparameters):
    `verify --with pyyaml` installs them with that interpreter's pip into a folder of their
    own, so the oracle itself is never modified. What the environment already holds satisfies a
    dependency and every installed version is a constraint (pip's `--prefix` with `-c`) but those of
    the packages the user names (`--with absl-py==2.1.0` replaces the oracle's absl-py), so an
    extra can never shadow a package the oracle's TensorFlow needs (a newer numpy stops TF 1.15).
    A requirement the pins cannot satisfy is refused, naming them.
    """
    if not requirements:
        return None
    target = extras_folder(python, requirements)
    if (target / DONE).exists():
        return _site_packages(python, target)
    with _installing(target):  # two verify runs asking for the same folder: one installs, the other waits
        return _install_extras(python, requirements, target, provision=provision, log=log)


@contextlib.contextmanager
def _installing(target: Path):
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.with_name(target.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _install_extras(python: Path | str, requirements: tuple[str, ...], target: Path, *, provision: bool,
                    log) -> Path:
    if (target / DONE).exists():  # installed by the run that held the lock before us
        return _site_packages(python, target)
    if not provision:
        raise OracleUnavailable(f"--with {' '.join(requirements)} is not installed for {python} yet and "
                                "--no-provision forbids installing it")
    log(f"installing {' '.join(requirements)} for {python} into {target}, keeping its installed versions")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    constraints = target / "installed-pins.txt"
    named = {_canonical(requirement) for requirement in requirements}  # a version asked for by name wins
    constraints.write_text("\n".join(pin for pin in installed_pins(python) if _canonical(pin) not in named) + "\n")
    argv = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", "--prefix", str(target),
            "-c", str(constraints), *requirements]
    completed = subprocess.run(argv, capture_output=True, text=True)
    if completed.returncode != 0:
        raise OracleUnavailable(
            f"--with {' '.join(requirements)} cannot be installed beside {python}'s own packages (its pins, as "
            f"installed, are constraints: {constraints}); ask for a version that works with them. pip said:\n"
            f"{completed.stderr[-3000:]}")
    (target / DONE).write_text(" ".join(requirements) + "\n")
    return _site_packages(python, target)


def _upgrade_marker(recipe: OracleRecipe, root: Path) -> None:
    done = root / DONE
    if not done.read_text().strip():
        done.write_text(fingerprint(recipe) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m verify.oracles", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ensure_parser = sub.add_parser("ensure", help="build the oracle unless it is already built")
    ensure_parser.add_argument("name", choices=sorted(RECIPES))
    ensure_parser.add_argument("root", nargs="?", type=Path,
                               help="where (default: the first of $ESTIMATOR_BRIDGE_ORACLES, the checkout's "
                                    ".oracle, the cache folder that holds it, else the cache folder)")
    sub.add_parser("where", help="print where each oracle is found (or 'not built')")
    args = parser.parse_args(argv)
    if args.command == "where":
        for name in RECIPES:
            print(f"{name}: {locate(name) or 'not built'}")
        return 0
    try:
        python = ensure(args.name, args.root)
    except OracleUnavailable as error:
        print(f"verify.oracles: error: {error}", file=sys.stderr)
        return 2
    print(f"{args.name}: {python}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
