"""Audit the codemod on the real corpus: is each migrated file clean, or does a finding say what is left?

Usage: python -m bench.corpus_audit CORPUS_DIR [--output bench/results/corpus_audit.json]
       [--tool migrate|tf_upgrade_v2|none]
       (CORPUS_DIR from `python -m bench.corpus.materialise CORPUS_DIR`)

For every .py / .ipynb under CORPUS_DIR the codemod's output (migrate.api.migrate_source, the same
code path as the CLI) is checked:
  parses      the output (a notebook's code cells, IPython lines blanked) is valid Python 3;
  resolves    every reference rooted at an import of `tensorflow`, `tensorflow_estimator` or
              `estimator_bridge` (attribute chains, `import` and `from ... import` lines) exists in
              the installed TensorFlow (2.21) and the bridge on this path;
  no legacy   no reference to `tf.contrib`, `tf.estimator`, `tf.compat.v1.estimator`,
              `tensorflow_estimator` or `tensorflow.python.estimator` is left;
  code kept   every function and class the original defines is still defined.
A file is CLEAN when all four hold. Every remaining problem is COVERED when a warning or error
finding names it (on an import line: an error, since the module will not import) (its dotted name or a dotted prefix of at least three parts, in `tf.` or
`tensorflow.` spelling, or for a file that did not parse, an error finding). A file is DONE when it
is clean or all its problems are covered: the issue's target is done == total; a problem that is
not covered is a silent gap (the codemod wrote a broken name and said nothing).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
RESULTS_FILE = REPO_ROOT / "bench" / "results" / "corpus_audit.json"
ROOTS = ("tensorflow", "tensorflow_estimator", "estimator_bridge")
LEGACY = ("tensorflow.contrib", "tensorflow.estimator", "tensorflow.compat.v1.estimator",
          "tensorflow.compat.v2.estimator", "tensorflow_estimator", "tensorflow.python.estimator",
          "tensorflow.python.tpu.tpu_estimator")
_IPYTHON_LINE = re.compile(r"^(\s*)(?:[!%]|\w+\s*=\s*[!%]|[\w.]+\?\??\s*$|\?)")


def notebook_module(data: bytes) -> str:
    """A notebook's code cells as one module; IPython lines become `pass` at their indentation."""
    notebook = json.loads(data.decode("utf-8-sig"))
    lines: list[str] = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else source
        if text.startswith("%%"):
            continue
        first = True
        continued = None
        for line in text.split("\n"):
            match = _IPYTHON_LINE.match(line)
            if continued is not None or (match and not line.lstrip().startswith("#")):
                # a shell/magic line ending with a backslash goes on with the next line (IPython joins them)
                indent = continued if continued is not None else "" if first else match.group(1)
                continued = indent if line.endswith("\\") else None
                line = indent + "pass"
            lines.append(line)
            first = first and not line.strip()
        lines.append("")
    return "\n".join(lines)


def source_text(path: Path, data: bytes) -> str:
    if path.suffix == ".ipynb":
        return notebook_module(data)
    return data.decode("utf-8-sig", errors="replace")


_RESOLVED: dict[str, bool] = {}


def resolves(dotted: str) -> bool:
    """True when `dotted` names something in the installed packages: attributes are followed while
    the value is a module or class (an instance's attributes, e.g. FLAGS.x, are not checked)."""
    if dotted in _RESOLVED:
        return _RESOLVED[dotted]
    parts = dotted.split(".")
    ok = True
    try:
        value = importlib.import_module(parts[0])
        for index, part in enumerate(parts[1:], start=2):
            if inspect.ismodule(value):
                try:
                    value = getattr(value, part)
                except AttributeError:
                    value = importlib.import_module(".".join(parts[:index]))
            elif inspect.isclass(value):
                value = getattr(value, part)
            else:
                break
    except Exception:  # ImportError, AttributeError, anything a lazy loader raises
        ok = False
    _RESOLVED[dotted] = ok
    return ok


def references(tree: ast.Module) -> list[tuple[str, int, bool]]:
    """(dotted name, line, on an import line) of every reference rooted at an import of ROOTS."""
    aliases: dict[str, str] = {}
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in ROOTS:
                    found.append((alias.name, node.lineno, True))
                    if alias.asname:
                        aliases[alias.asname] = alias.name
                    else:
                        aliases[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in ROOTS:
            for alias in node.names:
                if alias.name == "*":
                    found.append((node.module, node.lineno, True))
                    continue
                found.append((f"{node.module}.{alias.name}", node.lineno, True))
                aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    # A module-level `name = <reference>` (`learn = estimator_bridge.compat.v1.contrib.learn`, the codemod's
    # served contrib module) makes `name.attr` a reference too: it raises where the served module lacks attr.
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], ast.Name):
            dotted = _dotted(statement.value, aliases)
            if dotted is not None:
                aliases[statement.targets[0].id] = dotted
    inner: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner:
            parts = []
            value = node
            while isinstance(value, ast.Attribute):
                inner.add(id(value.value))
                parts.append(value.attr)
                value = value.value
            if isinstance(node.ctx, ast.Store):
                parts = parts[1:]  # `X.attr = v` creates attr: X must resolve, attr need not
            if isinstance(value, ast.Name) and value.id in aliases:
                found.append((aliases[value.id] + "".join("." + p for p in reversed(parts)), node.lineno, False))
    return found


def _dotted(node: ast.expr, aliases: dict[str, str]) -> str | None:
    """`node` as a dotted name through `aliases` (`tf.contrib.learn` -> tensorflow.contrib.learn), else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return aliases[node.id] + "".join("." + p for p in reversed(parts))


def defined_names(tree: ast.Module) -> set[str]:
    return {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}


def spellings(dotted: str) -> list[str]:
    """How a finding may write `dotted` or its dotted prefixes (>= 3 parts): tensorflow.X and tf.X,
    and as the import statement that names it; a two-part tensorflow.X as `tf.X` in backticks (was
    never matched, so `tf.trainable_variables` counted as silent under the MIG305 naming it)."""
    served = "estimator_bridge.compat.v1."
    if dotted.startswith(served + "contrib."):
        # the bridge's served TF 1.15 contrib module: a finding names it as tf.contrib.X
        return spellings("tensorflow." + dotted[len(served):])
    parts = dotted.split(".")
    out = [f"import {dotted}", f"from {'.'.join(parts[:-1])} import {parts[-1]}"]
    if len(parts) == 2 and parts[0] == "tensorflow":  # the whole name, however short (`tf.trainable_variables`)
        out.append(f"`tf.{parts[1]}`")
    for end in range(len(parts), 2, -1):
        name = ".".join(parts[:end])
        out.append(name)
        if name.startswith("tensorflow."):
            out.append("tf." + name[len("tensorflow."):])
            if name.startswith("tensorflow.compat.v1."):
                out.append("tf." + name[len("tensorflow.compat.v1."):])
            for keras in ("tensorflow.keras.", "tensorflow.compat.v1.keras.", "tensorflow.compat.v2.keras."):
                if name.startswith(keras):
                    out.append("keras." + name[len(keras):])
    return out


def covered(problem: dict, messages: list[str], errors: list[str]) -> bool:
    """A warning/error names the problem; on an import line it must be an error (the module will not import)."""
    if problem["kind"] == "does not parse":
        return bool(errors)
    names = spellings(problem["name"])
    return any(name in message for message in (errors if problem.get("import") else messages) for name in names)


def tf_upgrade_v2_output(path: Path, data: bytes) -> bytes:
    """tf_upgrade_v2's output for a .py file (notebooks are left as they are: it has no findings API)."""
    import tempfile  # noqa: PLC0415

    from tensorflow.tools.compatibility import ast_edits, tf_upgrade_v2  # noqa: PLC0415

    if path.suffix != ".py":
        return data
    upgrader = ast_edits.ASTCodeUpgrader(tf_upgrade_v2.TFAPIChangeSpec())
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "out.py"
        try:
            upgrader.process_file(str(path), str(target))
            return target.read_bytes()
        except Exception:  # it crashes on some syntax; then its output is the input
            return data


def audit_file(path: Path, corpus: Path, tool: str = "migrate") -> dict:
    """One file's record; `tool` makes the output: migrate (the codemod), tf_upgrade_v2, or none."""
    from migrate.api import migrate_source  # noqa: PLC0415 (imported after the path is set up)
    from migrate.findings import FileResult  # noqa: PLC0415

    data = path.read_bytes()
    if tool == "migrate":
        result = migrate_source(data, str(path))
    elif tool == "tf_upgrade_v2":
        result = FileResult(str(path), data, tf_upgrade_v2_output(path, data))
    else:
        result = FileResult(str(path), data, None)
    output = result.migrated if result.migrated is not None else data
    findings = list(result.findings)
    messages = [f"{f.message} {f.hint}" for f in findings if f.severity.value in ("warning", "error")]
    errors = [f"{f.message} {f.hint}" for f in findings if f.severity.value == "error"]
    problems: list[dict] = []
    try:
        original_tree = ast.parse(source_text(path, data))
    except SyntaxError:
        original_tree = None
    try:
        tree = ast.parse(source_text(path, output))
    except SyntaxError as error:
        problems.append({"kind": "does not parse", "name": str(error), "line": error.lineno or 0})
        tree = None
    if tree is not None:
        seen = set()
        for dotted, line, on_import in references(tree):
            kind = None
            if any(dotted == p or dotted.startswith(p + ".") for p in LEGACY):
                kind = "legacy"
            elif not resolves(dotted):
                kind = "unresolved"
            if kind and (kind, dotted) not in seen:
                seen.add((kind, dotted))
                problems.append({"kind": kind, "name": dotted, "line": line, "import": on_import})
        if original_tree is not None:
            for name in sorted(defined_names(original_tree) - defined_names(tree)):
                problems.append({"kind": "code lost", "name": name, "line": 0})
    for problem in problems:
        problem["covered"] = covered(problem, messages, errors)
    clean = not problems
    return {
        "path": str(path.relative_to(corpus)),
        "clean": clean,
        "done": clean or all(p["covered"] for p in problems),
        "changed": result.changed,
        "problems": problems,
        "findings": dict(Counter(f.code for f in findings)),
    }


def code_commit() -> str:
    try:
        head = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--", "migrate",
                                "estimator_bridge"], capture_output=True, text=True).stdout.strip()
        return head + ("+uncommitted" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def summarise(files: list[dict]) -> dict:
    problems = [p for f in files for p in f["problems"]]
    return {
        "files": len(files),
        "clean": sum(f["clean"] for f in files),
        "done": sum(f["done"] for f in files),
        "silent_gap_files": sum(not f["done"] for f in files),
        "problems": len(problems),
        "problems_covered": sum(p["covered"] for p in problems),
        "by_kind": dict(Counter(p["kind"] for p in problems)),
        "uncovered_by_kind": dict(Counter(p["kind"] for p in problems if not p["covered"])),
        "findings_by_code": dict(sorted(Counter(c for f in files for c, n in f["findings"].items()
                                                for _ in range(n)).items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--output", type=Path, default=RESULTS_FILE)
    parser.add_argument("--tool", choices=("migrate", "tf_upgrade_v2", "none"), default="migrate",
                        help="what makes the output: the codemod (default), tf_upgrade_v2, or nothing (the originals)")
    parser.add_argument("--show", type=int, default=0, help="print the N most common uncovered problems")
    args = parser.parse_args(argv)
    corpus = args.corpus.resolve()
    paths = sorted(p for p in corpus.rglob("*") if p.suffix in (".py", ".ipynb") and p.is_file())
    if not paths:
        print(f"no .py/.ipynb files under {corpus}; run python -m bench.corpus.materialise {corpus}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    files = [audit_file(p, corpus, args.tool) for p in paths]
    totals = summarise(files)
    document = {"tool": args.tool, "code": code_commit(), "corpus": corpus.name, "seconds": round(time.perf_counter() - start, 1),
                "repositories": len({f["path"].split("/")[0] for f in files}), "totals": totals, "files": files}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=1) + "\n")
    print(f"{totals['files']} files from {document['repositories']} repositories: {totals['clean']} clean, "
          f"{totals['done']} done (clean or every problem has a finding), {totals['silent_gap_files']} with silent gaps")
    print(f"problems {totals['problems']} ({totals['by_kind']}), covered by a finding {totals['problems_covered']}")
    print(f"uncovered: {totals['uncovered_by_kind']}")
    if args.show:
        common = Counter(p["name"] for f in files for p in f["problems"] if not p["covered"])
        for name, count in common.most_common(args.show):
            print(f"  {count:4d}  {name}")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
