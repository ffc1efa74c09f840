"""Does a dotted TensorFlow, estimator_bridge or tf_slim name exist on the target? Pure lookups, no imports.

TensorFlow names are answered from the generated table `tables/tf_api.py` (the public API of the
TensorFlow the project targets, walked live, and the top-level names of its internal modules
read from source): the codemod never imports TensorFlow. `estimator_bridge` names are answered
from the bridge's own source files (the bridge ships with the codemod), read with `ast`, so the
answer follows the bridge as it changes; `tf_slim` names (the codemod's target for tf.contrib.slim)
from the installed tf-slim's source, the same way.

A name resolves while each part is a module's member; once a part is a public class, the next
part must be one of its attributes (its own or a base class's: `tf.optimizers.Optimizer.
_compute_gradients` does not exist, Keras 3's Optimizer has none); past that, or once a part is a
function or other value, the rest is that object's business.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from migrate.tables.statement_names import defined_or_assigned


@dataclass(frozen=True)
class Verdict:
    """`exists`; otherwise `missing` is the first dotted prefix that is not there, `reason` why."""

    exists: bool
    missing: str = ""
    reason: str = ""


FOUND = Verdict(True)
_INTERNAL_ROOTS = ("python", "core", "tools", "lite")
_MIRRORS = (("tensorflow.compat.v1.compat.v1", "tensorflow.compat.v1"),
            ("tensorflow.compat.v1.compat.v2", "tensorflow"),
            # `import tensorflow.compat.v1 as tf; tf.compat.as_text(...)`: TF 2.21's
            # tf.compat.v1.compat holds what tf.compat holds (as_bytes, as_text, dimension_value, ...)
            ("tensorflow.compat.v1.compat", "tensorflow.compat"),
            ("tensorflow.compat.v2.compat.v1", "tensorflow.compat.v1"),
            ("tensorflow.compat.v2.compat.v2", "tensorflow"),
            # the one name TF 2.21's tf.compat.v2 has beyond `tensorflow` (tensorflow/tpu's
            # mnist_tf2_with_summary.py, 2019: `import tensorflow.compat.v2 as tf; tf.enable_v2_behavior()`)
            ("tensorflow.compat.v2.enable_v2_behavior", "tensorflow.compat.v1.enable_v2_behavior"),
            ("tensorflow.compat.v2", "tensorflow"))


@functools.lru_cache(maxsize=1)
def _tf_tables():
    from migrate.tables import tf_api  # noqa: PLC0415 (large; loaded on first use only)

    public = {key: frozenset(value.split()) for key, value in tf_api.PUBLIC.items()}
    internal = {key: frozenset(value.split()) for key, value in tf_api.INTERNAL.items()}
    return public, tf_api.SUBMODULES, tf_api.UNUSABLE, internal


@functools.lru_cache(maxsize=1024)
def _class_attributes(public_name: str) -> frozenset[str] | None:
    """The attribute names of the public class `public_name` (`module.member`, real module name),
    its own and its bases'; None when it is not a class the table knows or may make names up."""
    from migrate.tables import tf_api  # noqa: PLC0415

    key = tf_api.CLASSES.get(public_name)
    if key is None:
        return None
    names: set[str] = set()
    for each in [key, *tf_api.CLASS_BASES.get(key, "").split()]:
        own = tf_api.CLASS_OWN.get(each)
        if own is None or own == "*":
            return None
        names.update(own.split())
    return frozenset(names)


def _class_member(public_name: str, shown: str, rest: list[str]) -> Verdict:
    """`rest[0]` must be an attribute of the class `public_name` when it is one (see above)."""
    if not rest or _is_dunder(rest[0]):
        return FOUND
    names = _class_attributes(public_name)
    if names is None or rest[0] in names:
        return FOUND
    return Verdict(False, f"{shown}.{rest[0]}", "not an attribute of that class in TensorFlow")


def _is_dunder(part: str) -> bool:
    """Module metadata (`tf.__version__`, `__file__`, `__path__`): the table leaves dunders out
    (walking them would follow `__internal__`), and a module's metadata is never a TF1 name that
    went away, so it is not reported."""
    return len(part) > 4 and part.startswith("__") and part.endswith("__")


def _mirror(name: str) -> str:
    """`tensorflow.compat.v2.X` -> `tensorflow.X` (the table lists each API module once)."""
    for _ in range(3):
        for prefix, target in _MIRRORS:
            if name == prefix or name.startswith(prefix + "."):
                name = target + name[len(prefix):]
                break
        else:
            return name
    return name


@functools.lru_cache(maxsize=4096)
def tensorflow_name(dotted: str) -> Verdict:
    """Whether `dotted` (`tensorflow.a.b`) exists in the target TensorFlow."""
    parts = _mirror(dotted).split(".")
    if parts[0] != "tensorflow":
        return Verdict(False, parts[0], "not TensorFlow")
    if len(parts) == 1:
        return FOUND
    if parts[1] in _INTERNAL_ROOTS:
        return _internal(parts)
    public, links, unusable, _ = _tf_tables()
    module = "tensorflow"
    for index, part in enumerate(parts[1:], start=2):
        shown = ".".join(parts[:index])
        if _is_dunder(part):
            return FOUND
        link = links.get(f"{module}.{part}")
        if link is not None:
            module = link
            continue
        reason = unusable.get(f"{module}.{part}")
        if reason is not None:
            return Verdict(False, shown, f"exists but fails when used ({reason})")
        if part in public.get(module, ()):
            return _class_member(f"{module}.{part}", shown, parts[index:])
        return Verdict(False, shown, "not in TensorFlow")
    return FOUND


def _internal(parts: list[str]) -> Verdict:
    *_, internal = _tf_tables()
    module = "tensorflow"
    for index in range(2, len(parts) + 1):
        candidate = ".".join(parts[:index])
        if candidate in internal:
            module = candidate
            continue
        names = internal.get(module, frozenset())
        part = parts[index - 1]
        if part in names:
            return FOUND
        if "*" in names and not (part.startswith("_") and not _is_dunder(part) and len(names) > 1):
            # `*`: a names-only module; a generated-ops module also lists its `_x` names, so a hidden
            # op it lacks (`gen_nn_ops._relu_grad`) is missing (generate_tf_api._private_names)
            return FOUND
        return Verdict(False, candidate, "not in TensorFlow")
    return FOUND


@functools.lru_cache(maxsize=1)
def _bridge_root() -> Path | None:
    spec = importlib.util.find_spec("estimator_bridge")  # finds, does not import
    return Path(spec.origin).parent if spec is not None and spec.origin else None


@functools.lru_cache(maxsize=256)
def _module_names(path: Path) -> frozenset[str]:
    """Top-level names a module binds (defs, classes, assignments, imports, __getattr__ aside)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.col_offset == 0:
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.col_offset == 0:
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(leaf.id for leaf in ast.walk(target) if isinstance(leaf, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*")
    return frozenset(names)


def _class_members(path: Path, name: str, depth: int = 0) -> frozenset[str] | None:
    """The attributes of class `name` bound in module `path` (its body's assignments and defs),
    following a `from estimator_bridge.x import name` re-export; None when they cannot be known
    from the source (not a class there, a base class outside the bridge, a metaclass, __getattr__)."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None
    root = _bridge_root()
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            if node.keywords or node.decorator_list or not all(isinstance(base, ast.Name) for base in node.bases):
                return None
            members = {name for item in node.body for name in defined_or_assigned(item)}
            # a bridge base class (estimator_bridge.Estimator(_EstimatorBase)): its members too; any other
            # base (a TensorFlow or Keras class) cannot be read from here
            for base in node.bases:
                if base.id == "object":
                    continue
                inherited = _class_members(path, base.id, depth + 1) if depth < 6 else None
                if inherited is None:
                    return None
                members |= inherited
            return None if "__getattr__" in members else frozenset(members)
        if (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and root is not None
                and node.module.split(".")[0] == "estimator_bridge" and depth < 6):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    target = root.joinpath(*node.module.split(".")[1:])
                    source = target / "__init__.py" if target.is_dir() else target.with_suffix(".py")
                    return _class_members(source, alias.name, depth + 1) if source.is_file() else None
    return None


def _class_verdict(path: Path, shown: str, rest: list[str]) -> Verdict:
    """`rest[0]` is bound in `path`; if it is a plain bridge class, `rest[1]` must be one of its
    attributes (`estimator_bridge.ModeKeys.INFER` does not exist: contrib.learn's INFER is PREDICT)."""
    if len(rest) < 2 or _is_dunder(rest[1]):
        return FOUND
    members = _class_members(path, rest[0])
    if members is None or rest[1] in members:
        return FOUND
    return Verdict(False, f"{shown}.{rest[0]}.{rest[1]}", "not in estimator_bridge")


@functools.lru_cache(maxsize=1024)
def bridge_name(dotted: str) -> Verdict:
    """Whether `dotted` (`estimator_bridge.a.b`) exists in the bridge shipped with the codemod."""
    root = _bridge_root()
    parts = dotted.split(".")
    if root is None:
        return FOUND  # nothing to check against: never report what cannot be checked
    folder = root
    for index, part in enumerate(parts[1:], start=2):
        shown = ".".join(parts[:index])
        if (folder / part / "__init__.py").is_file():
            folder = folder / part
            continue
        if (folder / f"{part}.py").is_file():
            names = _module_names(folder / f"{part}.py")
            rest = parts[index:]
            if not rest:
                return FOUND
            if rest[0] in names:
                return _class_verdict(folder / f"{part}.py", shown, rest)
            if "__getattr__" in names:
                return FOUND  # a module answering names at run time (compat/v1.py: the TF1-shaped namespace)
            return Verdict(False, f"{shown}.{rest[0]}", "not in estimator_bridge")
        if part in _module_names(folder / "__init__.py"):
            return _class_verdict(folder / "__init__.py", ".".join(parts[:index - 1]), parts[index - 1:])
        return Verdict(False, shown, "not in estimator_bridge")
    return FOUND


@functools.lru_cache(maxsize=4)
def _package_root(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)  # finds, does not import
    return Path(spec.origin).parent if spec is not None and spec.origin else None


def _source(root: Path, parts: list[str]) -> Path | None:
    target = root.joinpath(*parts)
    for source in (target / "__init__.py", target.with_suffix(".py")):
        if source.is_file():
            return source
    return None


def _listed_all(path: Path) -> frozenset[str] | None:
    """A module's `__all__` when it is a literal list of strings, else None."""
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
                and isinstance(node.value, (ast.List, ast.Tuple))
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.value.elts)):
            return frozenset(e.value for e in node.value.elts)
    return None


@functools.lru_cache(maxsize=256)
def _package_names(path: Path, package: str, depth: int = 0) -> frozenset[str]:
    """What module `path` of `package` binds, with what its `from <package>.x import *` lines bring
    (x's literal `__all__`, else its public names): tf-slim builds its namespaces that way."""
    names = set(_module_names(path))
    root = _package_root(package)
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return frozenset(names)
    for node in tree.body:
        if (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and root is not None and depth < 6
                and node.module.split(".")[0] == package and any(alias.name == "*" for alias in node.names)):
            source = _source(root, node.module.split(".")[1:])
            if source is not None:
                names |= _listed_all(source) or {name for name in _package_names(source, package, depth + 1)
                                                 if not name.startswith("_")}
    return frozenset(names)


@functools.lru_cache(maxsize=1024)
def package_name(dotted: str) -> Verdict:
    """Whether `dotted` exists in the installed pure-Python package it starts with (`tf_slim.nets.vgg`),
    read from its source: modules by file, names by what each module binds; past the first name
    that is not a module, the rest is that object's business."""
    parts = dotted.split(".")
    root = _package_root(parts[0])
    if root is None:
        return FOUND  # not installed here: never report what cannot be checked
    for index in range(1, len(parts)):
        if _source(root, parts[1:index + 1]) is not None:
            continue
        names = _package_names(_source(root, parts[1:index]), parts[0])
        if parts[index] in names or "__getattr__" in names or _is_dunder(parts[index]):
            return FOUND
        return Verdict(False, ".".join(parts[:index + 1]), f"not in {parts[0]}")
    return FOUND


# Packages the codemod writes names of besides TensorFlow and the bridge (tf-slim for tf.contrib.slim).
PACKAGES = ("tf_slim",)


def exists(dotted: str) -> Verdict:
    """The verdict for a TensorFlow (`tensorflow...`, `tensorflow_estimator...`), bridge or PACKAGES name."""
    top = dotted.split(".")[0]
    if top in PACKAGES:
        return package_name(dotted)
    if top == "tensorflow":
        return tensorflow_name(dotted)
    if top == "tensorflow_estimator":
        return Verdict(False, "tensorflow_estimator", "the package went with tf.estimator (TensorFlow 2.16)")
    if top == "estimator_bridge":
        return bridge_name(dotted)
    return FOUND
