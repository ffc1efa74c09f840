"""The layer rule of docs/architecture.md, checked so that CI fails on a violation.

`lint-imports` runs the import-linter contracts declared in pyproject.toml (the facade over the
runtime over the contract of the old API; migrate free of TensorFlow and of the bridge). Two
rules import-linter cannot express are checked here directly: the contract layer never uses
`tf.distribute` (import-linter sees only the top-level `tensorflow` package), and importing
migrate's modules loads no TensorFlow at all (a dynamic import would escape the static graph).
"""

from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTRACT_LAYER = ROOT / "estimator_bridge" / "contract"


def _run(args, **kwargs):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          **kwargs)


def test_import_contracts_are_kept():
    result = _run([sys.executable, "-c",
                   "import sys; from importlinter.cli import lint_imports_command; "
                   "sys.argv = ['lint-imports', '--no-cache']; lint_imports_command()"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"Contracts: [1-9]\d* kept, 0 broken", result.stdout), result.stdout


def _distribute_uses(path: pathlib.Path) -> list:
    """Lines of `path` that import tf.distribute modules or read `<anything>.distribute`."""
    uses = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr == "distribute":
            uses.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and "distribute" in (node.module or ""):
            uses.append(node.lineno)
        elif isinstance(node, ast.Import) and any("distribute" in a.name for a in node.names):
            uses.append(node.lineno)
    return uses


def test_the_contract_layer_never_uses_tf_distribute():
    modules = sorted(CONTRACT_LAYER.glob("*.py"))
    assert len(modules) >= 4, modules
    offenders = {path.name: lines for path in modules if (lines := _distribute_uses(path))}
    assert offenders == {}, (
        f"tf.distribute used in the contract layer at {offenders}: strategies, replica contexts "
        "and distributed datasets belong to estimator_bridge/runtime/.")


def test_the_distribute_scan_sees_a_use():
    """The scan above is not vacuous: it finds the uses in the runtime's distribute module."""
    assert len(_distribute_uses(ROOT / "estimator_bridge" / "runtime" / "distribute.py")) > 5


def test_importing_every_migrate_module_loads_no_tensorflow():
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for path in (ROOT / "migrate").rglob("*.py")
        # table generators (run by hand) need TF; __main__ runs the CLI when imported
        if not path.name.startswith("generate_") and path.name != "__main__.py")
    assert "migrate.cli" in modules and "migrate.engine" in modules, modules
    script = ("import importlib, sys\n"
              f"for name in {modules!r}:\n"
              "    importlib.import_module(name)\n"
              "loaded = sorted(m for m in sys.modules if m.split('.')[0] == 'tensorflow')\n"
              "print(len(sys.modules), loaded[:5])\n"
              "sys.exit(1 if loaded else 0)\n")
    result = _run([sys.executable, "-c", script])
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_module_map_lists_every_bridge_module():
    """docs/architecture.md's module map names every module of estimator_bridge (one hop)."""
    package = ROOT / "estimator_bridge"
    modules = {path.relative_to(package).as_posix() for path in package.rglob("*.py")}
    text = (ROOT / "docs" / "architecture.md").read_text()
    module_map = text[text.index("## Module map"):text.index("## Design notes")]
    listed = set(re.findall(r"^\| `([\w/]+\.py)` \|", module_map, flags=re.M))
    assert modules - listed == set(), "add these modules to docs/architecture.md's module map"
    assert listed - modules == set(), "these modules in docs/architecture.md no longer exist"
