"""Generate `tf_api.py`: every name the installed TensorFlow provides, for the final name check.

Run with the project's TensorFlow installed: `python -m migrate.tables.generate_tf_api`.
The codemod must not import TensorFlow (it runs where TF is not installed, and importing it costs
seconds), so the names it checks its output against are recorded here:
- PUBLIC: the public API reached from `import tensorflow` (tf.*, tf.compat.v1.*, tf.keras.* as
  Keras 3 serves it, and the non-API modules they hand out under public names: Keras 3's own
  keras.models, keras.utils, ..., tf.compat.v1.flags), walked live. Each API module appears once, under its real module name,
  with its members; SUBMODULES links `module.member` to the member module's real name.
- UNUSABLE: names that exist but fail when used (`tf.compat.v1.layers`, `tf.compat.v1.nn.rnn_cell.*`
  are lazy loaders that need the tf_keras package): the error says why.
- CLASSES / CLASS_BASES / CLASS_OWN: the attributes of the public classes (each class's own
  names once, with its bases), so `tf.optimizers.Optimizer._compute_gradients` is checked.
- INTERNAL: `tensorflow.python.*` and the other internal modules TF1 programs imported directly,
  read from the installed sources (their top-level names), not imported.
tests/migrate/test_tables.py checks the checked-in table matches the installed TensorFlow.
"""

from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import sys
from pathlib import Path

from migrate.tables.statement_names import defined_or_assigned

API_MODULES = ("tensorflow._api.v2", "keras._tf_keras", "keras.api")
# Mirrors of other API modules: resolved through `canonical_api_name` instead of being listed twice.
MIRRORS = ("tensorflow._api.v2.compat.v2", "tensorflow._api.v2.compat.v1.compat", "tensorflow._api.v2.compat.v2.compat")
# Internal trees TF1 code imported from (`tensorflow.python.ops.array_ops`, `tensorflow.core.protobuf`).
INTERNAL_TREES = ("python", "core", "tools", "lite")
# Internal modules listed by name only (their members are generated op wrappers or protobuf
# messages, thousands of names nobody imports from a TF1 program by hand).
NAMES_ONLY = ("tensorflow.lite", "tensorflow.core", "tensorflow.tools")
TARGET = Path(__file__).with_name("tf_api.py")


def _is_api(module) -> bool:
    name = getattr(module, "__name__", "") or ""
    return name == "tensorflow" or name.startswith(tuple(p + "." for p in API_MODULES)) \
        or name in API_MODULES


def _served_module(parent, name: str, value) -> bool:
    """A module an API module hands out under a public name although it is not an API module
    itself: Keras 3's own modules (`tf.keras.models` is `keras.models`, `tf.keras.mixed_precision`
    is `keras.mixed_precision`) and `tf.compat.v1.flags` (tensorflow.python.platform.flags). Their
    members are listed like an API module's, so `tf.keras.mixed_precision.experimental` and
    `tf.compat.v1.flags.FlagsError` are checked instead of passing as "the object's business".
    Only public names under tensorflow/keras (no `src` or private part), and below a module that
    is not itself an API module, only its own submodules."""
    real = value.__name__
    parts = real.split(".")
    if name.startswith("_") or parts[0] not in ("tensorflow", "keras") or parent.__name__ == "tensorflow":
        return False
    if any(part.startswith("_") or part == "src" for part in parts):
        return False
    return _is_api(parent) or real.startswith(parent.__name__ + ".")


def walk_classes(members: dict[str, set[str]]) -> tuple[dict[str, str], dict[str, str], dict[str, set[str]]]:
    """The attributes of the public API's classes, for `tf.optimizers.Optimizer._compute_gradients`
    (Keras 3's Optimizer has none): (public `module.member` -> class key, class key -> the keys of
    its bases (its MRO without itself and `object`), class key -> the names its own `__dict__` binds).
    A class whose metaclass is not `type`/ABCMeta/EnumMeta, or defines `__getattr__`, can make
    attributes up: its own names are {"*"} (anything resolves)."""
    import abc
    import enum

    classes: dict[str, str] = {}
    bases: dict[str, str] = {}
    own: dict[str, set[str]] = {}

    def key_of(cls) -> str:
        return f"{cls.__module__}.{cls.__qualname__}"

    for module_name, names in members.items():
        module = sys.modules.get(module_name)
        if module is None:
            continue
        for name in names:
            try:
                value = getattr(module, name)
            except Exception:  # noqa: BLE001
                continue
            if not inspect.isclass(value):
                continue
            classes[f"{module_name}.{name}"] = key_of(value)
            for cls in value.__mro__:
                if cls is object or key_of(cls) in own and key_of(cls) in bases:
                    continue
                meta = type(cls)
                checkable = (meta in (type, abc.ABCMeta) or issubclass(meta, enum.EnumMeta)) and \
                    not any("__getattr__" in vars(m) for m in meta.__mro__ if m is not type)
                try:
                    found = {n for n in vars(cls) if not (n.startswith("__") and n.endswith("__"))}
                except TypeError:
                    checkable = False
                own.setdefault(key_of(cls), set()).update(found if checkable else {"*"})
                bases[key_of(cls)] = " ".join(key_of(b) for b in cls.__mro__[1:] if b is not object)
    return classes, bases, own


def _is_mirror(name: str) -> bool:
    return name.startswith(tuple(m + "." for m in MIRRORS)) or name in MIRRORS


def walk_public() -> tuple[dict[str, set[str]], dict[str, str], dict[str, str]]:
    """(members per module id, submodule links, unusable names with their error) of the live API."""
    import tensorflow as tf

    members: dict[str, set[str]] = {}
    links: dict[str, str] = {}
    unusable: dict[str, str] = {}
    pending = [tf]
    while pending:
        module = pending.pop()
        key = module.__name__
        if key in members:
            continue
        names: set[str] = set()
        members[key] = names
        try:
            listed = dir(module)
        except Exception:  # noqa: BLE001 (a lazy loader that cannot load)
            continue
        for name in listed:
            if name.startswith("__"):
                continue
            try:
                value = getattr(module, name)
            except Exception as error:  # noqa: BLE001
                unusable[f"{key}.{name}"] = _reason(error)
                continue
            if inspect.ismodule(value) and (_is_api(value) or _served_module(module, name, value)):
                if not _is_mirror(value.__name__):
                    links[f"{key}.{name}"] = value.__name__
                    pending.append(value)
            elif type(value).__name__.endswith("LazyLoader"):
                try:
                    dir(value)
                    getattr(value, "__name__")
                    names.add(name)
                except Exception as error:  # noqa: BLE001
                    unusable[f"{key}.{name}"] = _reason(error)
            else:
                names.add(name)
    return members, links, unusable


def _reason(error: Exception) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return f"{type(error).__name__}: {text}"[:200]


def _top_level_names(path: Path) -> set[str]:
    try:
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError):
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign)):
            names |= defined_or_assigned(node)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "*":
                    names.add((alias.asname or alias.name).split(".")[0])
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(_STAR + node.module)  # resolved by walk_internal
        elif isinstance(node, (ast.If, ast.Try)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.FunctionDef, ast.ClassDef)):
                    names.add(inner.name)
                elif isinstance(inner, (ast.Import, ast.ImportFrom)):
                    for alias in inner.names:
                        if alias.name != "*":
                            names.add((alias.asname or alias.name).split(".")[0])
            names |= _conditional_assignments(node)
    return names


def _private_names(path: Path) -> set[str]:
    """The `_x` names a generated-ops module binds (its hidden ops `_slice`, `_exit`, its `_execute`-style
    imports): listed beside `*`, which then answers only public names. TF 1.x programs called hidden ops
    that TF 2.21 no longer has (tensorpack's saliency-maps.py, `gen_nn_ops._relu_grad`: `relu_grad` in TF
    2.21), and `*` alone let them pass the final check silently."""
    return {name for name in _top_level_names(path) if name.startswith("_") and not name.startswith("__")}


def _conditional_assignments(node: ast.stmt) -> set[str]:
    """Names assigned at module level inside `if`/`try` blocks (dataset_ops' `if tf2.enabled():
    Dataset = DatasetV2 else: Dataset = DatasetV1`), not those assigned inside a def or class."""
    names: set[str] = set()
    if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test):
        return names  # a script's main block: never run on import
    blocks = [getattr(node, field, []) for field in ("body", "orelse", "finalbody")]
    blocks += [handler.body for handler in getattr(node, "handlers", [])]
    for block in blocks:
        for statement in block:
            if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                for target in targets:
                    names.update(leaf.id for leaf in ast.walk(target) if isinstance(leaf, ast.Name))
            elif isinstance(statement, (ast.If, ast.Try)):
                names |= _conditional_assignments(statement)
    return names


_STAR = "*from:"


def _resolve_star_imports(modules: dict[str, set[str]], root: Path) -> None:
    """`from tensorflow.python.ops.gen_resource_variable_ops import *` (resource_variable_ops):
    the importing module holds the public names of the module it star-imports, so
    `resource_variable_ops.resource_scatter_update` resolves as it does live while
    `control_flow_ops.while_loop` (gone from TF 2.x's control_flow_ops and from the generated ops
    it star-imports) stays missing. A names-only module (generated ops) is read from its file for
    this; a module outside the walked trees counts as holding any name."""
    def star_names(source: str, seen: frozenset[str]) -> set[str]:
        names = modules.get(source)
        if names is not None and "*" in names:  # names-only (generated ops: `*` and their `_x` names)
            path = root.joinpath(*source.split(".")[1:]).with_suffix(".py")
            names = _top_level_names(path) if path.is_file() else names
        if names is None:
            return {"*"}
        return {name for name in expand_names(names, seen | {source}) if not name.startswith("_")}

    def expand_names(names: set[str], seen: frozenset[str]) -> set[str]:
        result = {name for name in names if not name.startswith(_STAR)}
        for marker in names - result:
            source = marker[len(_STAR):]
            if source not in seen:
                result |= star_names(source, seen)
        return result

    def expand(module: str, seen: frozenset[str]) -> set[str]:
        return expand_names(modules.get(module, set()), seen | {module})

    starred = [module for module, names in modules.items() if any(n.startswith(_STAR) for n in names)]
    expanded = {module: expand(module, frozenset()) for module in starred}
    modules.update(expanded)


def walk_internal() -> dict[str, set[str]]:
    """{module: top-level names} for the internal trees, from the installed source files."""
    root = Path(importlib.util.find_spec("tensorflow").origin).parent
    modules: dict[str, set[str]] = {}
    for tree in INTERNAL_TREES:
        for folder, subfolders, files in os.walk(root / tree):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith(("_", "."))
                                   and d not in ("__pycache__", "kernel_tests", "testing"))
            package = ".".join(("tensorflow",) + Path(folder).relative_to(root).parts)
            if "__init__.py" in files or files:
                modules.setdefault(package, set())
            for name in sorted(files):
                if not name.endswith(".py") or name.endswith(("_test.py", "test_util.py", "test_ops.py")):
                    continue
                if name == "__init__.py":
                    modules[package] |= _top_level_names(Path(folder) / name)
                    continue
                stem = name[:-3]
                modules[package].add(stem)
                full = f"{package}.{stem}"
                names_only = full.startswith(NAMES_ONLY) or stem.startswith("gen_") or stem.endswith("_pb2")
                modules[full] = {"*"} if names_only else _top_level_names(Path(folder) / name)
                if stem.startswith("gen_") and not full.startswith(NAMES_ONLY):
                    modules[full] |= _private_names(Path(folder) / name)
            for sub in subfolders:
                modules[package].add(sub)
            for name in files:  # compiled extension modules (_pywrap_*.so): names only
                if name.endswith(".so"):
                    modules[package].add(name.split(".")[0])
    _resolve_star_imports(modules, root)
    return modules


def _lines(mapping: dict[str, set[str]]) -> str:
    return "".join(f"    {key!r}: {' '.join(sorted(value))!r},\n" for key, value in sorted(mapping.items()))


def render() -> str:
    import tensorflow as tf

    members, links, unusable = walk_public()
    classes, bases, own = walk_classes(members)
    internal = walk_internal()
    return (
        '"""Names the installed TensorFlow provides, for the final name check. GENERATED: do not edit.\n\n'
        f"Regenerate with `python -m migrate.tables.generate_tf_api` (TensorFlow {tf.__version__}).\n"
        '"""\n\n'
        "# Public API modules (real module names) -> their non-module members, space separated.\n"
        "PUBLIC = {\n" + _lines(members) + "}\n\n"
        "# `module.member` -> the real name of the member module.\n"
        "SUBMODULES = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(links.items())) + "}\n\n"
        "# Names that exist but fail when used, with the error TensorFlow raises.\n"
        "UNUSABLE = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(unusable.items())) + "}\n\n"
        "# Public classes (`module.member`) -> their class key (`defining_module.qualname`).\n"
        "CLASSES = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(classes.items())) + "}\n\n"
        "# Class key -> the keys of its bases (its MRO without itself and object), space separated.\n"
        "CLASS_BASES = {\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in sorted(bases.items())) + "}\n\n"
        "# Class key -> the attribute names its own __dict__ binds (dunders left out; `*`: any name).\n"
        "CLASS_OWN = {\n" + _lines(own) + "}\n\n"
        "# Internal modules (read from the installed sources) -> their top-level names.\n"
        "INTERNAL = {\n" + _lines(internal) + "}\n"
    )


def main() -> int:
    TARGET.write_text(render())
    print(f"wrote {TARGET} ({TARGET.stat().st_size // 1024} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
