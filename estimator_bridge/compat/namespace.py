"""Builds the TF1-shaped module objects described by `namespace_table.MODULES`.

Each legacy module becomes an `AliasModule`: a real `types.ModuleType` (so `import ... as`,
`from ... import`, `dir()` and `inspect` treat it as a module) whose attributes are resolved
lazily on first access and then cached. Lazy resolution matters twice: the bridge's public names
are looked up when the script first uses them (a name the bridge gains later just appears), and
importing the namespace costs nothing beyond TensorFlow itself.
"""

from __future__ import annotations

import functools
import importlib
import types

from estimator_bridge.compat import namespace_table, tf115_modules


class MissingBridgeSymbol(AttributeError):
    """The legacy name maps to an estimator_bridge symbol that this version does not have."""


class UnsupportedName(AttributeError):
    """The legacy module has no faithful equivalent for this name."""


_MISSING = object()

# Dunder names legacy code reads from `tf` (`print(tf.__version__)`); the rest stay module-own.
_FORWARDED_DUNDERS = frozenset({"__version__", "__git_version__", "__compiler_version__",
                                "__cxx11_abi_flag__", "__monolithic_build__"})


class AliasModule(types.ModuleType):
    """One legacy module (e.g. `tensorflow.contrib.tpu`) of the TF1-shaped namespace."""

    def __init__(self, name: str, spec: namespace_table.Module):
        super().__init__(name, spec.doc)
        object.__setattr__(self, "_alias_spec", spec)

    def __getattr__(self, attribute):
        spec = object.__getattribute__(self, "_alias_spec")
        if attribute.startswith("__") and attribute.endswith("__"):
            if attribute in _FORWARDED_DUNDERS and "tf:" in spec.fallbacks:
                return getattr(_real_tf_attribute(""), attribute)
            raise AttributeError(f"module {self.__name__!r} has no attribute {attribute!r}")
        if attribute not in spec.entries:
            helper = codemod_helper(f"{self.__name__}.{attribute}")
            if helper is not None:
                return helper
            removed = removed_module(f"{self.__name__}.{attribute}")
            if removed is not None:
                return removed
        if attribute in spec.entries:
            value = resolve_target(spec.entries[attribute],
                                   display_name(f"{self.__name__}.{attribute}"))
        else:
            value = _from_fallbacks(self.__name__, spec.fallbacks, attribute)
        if not isinstance(value, _Unsupported):
            object.__setattr__(self, attribute, value)  # cache: later lookups are plain attributes
        return value

    def __dir__(self):
        spec = object.__getattribute__(self, "_alias_spec")
        names = set(spec.entries) | set(super().__dir__())
        for fallback in spec.fallbacks:
            if fallback.startswith(("tf:", "pymodule:")):
                names |= {name for name in dir(resolve_target(fallback, self.__name__))
                          if not name.startswith("_")}
        return sorted(names)

    def __repr__(self):
        return f"<TF1-compat module {self.__name__!r} (estimator_bridge)>"


class RemovedModule(types.ModuleType):
    """A module TF 1.15 had and the namespace does not provide: importable, failing on use.

    `import tensorflow.contrib.metrics` on a program's first lines must not kill a program that
    never reaches the line using it (TF 1.15 imported it fine). Submodules TF 1.15 had are
    RemovedModules too; any other name raises UnsupportedName (an AttributeError, so `hasattr`
    works) naming the symbol, why, and what to use instead (`namespace_table.REMOVED_HINTS`).
    """

    def __getattr__(self, attribute):
        if attribute.startswith("__") and attribute.endswith("__"):
            raise AttributeError(f"module {self.__name__!r} has no attribute {attribute!r}")
        dotted = f"{self.__name__}.{attribute}"
        if dotted in namespace_table.MODULES:  # a deep module the table serves (contrib's evaluation)
            return alias_module(dotted)
        helper = codemod_helper(dotted)
        if helper is not None:
            return helper
        submodule = removed_module(dotted)
        if submodule is not None:
            return submodule
        raise UnsupportedName(removed_message(self.__name__, attribute))

    def __repr__(self):
        return f"<TF 1.15 module {display_name(self.__name__)!r}, not provided (estimator_bridge)>"


def removed_message(module_name, attribute):
    """Why `module.attribute` is not available and what to do instead."""
    hint_key = max((key for key in namespace_table.REMOVED_HINTS
                    if module_name == key or module_name.startswith(key + ".")), key=len)
    return (f"{display_name(module_name)}.{attribute} is not available: the compat runner "
            f"serves TF 1.15's module {display_name(module_name)} only so that importing it "
            f"works; {namespace_table.REMOVED_HINTS[hint_key].rstrip('.')}.")


def _known_removed(name: str) -> bool:
    if name in namespace_table.MODULES:
        return False
    contrib, estimator = namespace_table.REMOVED_PREFIXES
    if name.startswith(contrib + "."):
        return name[len(contrib) + 1:] in tf115_modules.CONTRIB
    if name.startswith(estimator + "."):
        return name[len(estimator) + 1:] in tf115_modules.ESTIMATOR
    return False


def codemod_helper(name: str):
    """The estimator_bridge.compat helper the codemod rewrites the legacy `name` to, else None."""
    target = namespace_table.CODEMOD_HELPERS.get(name)
    return None if target is None else resolve_target(target, display_name(name))


@functools.lru_cache(maxsize=None)
def removed_module(name: str):
    """The RemovedModule for a module path TF 1.15 had and the tables lack, else None."""
    if not _known_removed(name):
        return None
    return RemovedModule(name, f"TF 1.15's {display_name(name)}: not provided; using a name of "
                               "it raises an error saying what to use instead.")


class _Unsupported:
    """A placeholder that raises a clear NotImplementedError when the legacy code calls it."""

    def __init__(self, legacy_name, message):
        self.legacy_name, self.message = legacy_name, message
        self.__name__ = legacy_name.rsplit(".", 1)[-1]

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"{self.legacy_name}: {self.message}")

    def __repr__(self):
        return f"<unsupported {self.legacy_name}>"


def display_name(dotted):
    """How legacy code spells it: `tensorflow.contrib.tpu.X` -> `tf.contrib.tpu.X`."""
    return "tf." + dotted[len("tensorflow."):] if dotted.startswith("tensorflow.") else dotted


def _from_fallbacks(module_name, fallbacks, attribute):
    legacy_name = display_name(f"{module_name}.{attribute}")
    for fallback in fallbacks:
        if fallback.startswith("unsupported-attribute:"):
            message = namespace_table.UNSUPPORTED[fallback.split(":", 1)[1]]
            raise UnsupportedName(f"{legacy_name} is not available: {message}")
        value = getattr(resolve_target(fallback, module_name), attribute, _MISSING)
        if value is not _MISSING:
            return value
    raise AttributeError(f"module {module_name!r} has no attribute {attribute!r}")


def resolve_target(target: str, legacy_name: str):
    """The object a table target string names (see `namespace_table` for the target kinds)."""
    alternatives = target.split("|")
    for index, alternative in enumerate(alternatives):
        kind, _, path = alternative.partition(":")
        last = index == len(alternatives) - 1
        if kind == "module":
            return alias_module(path)
        if kind == "tf":
            return _real_tf_attribute(path)
        if kind == "compat":
            module_name, _, helper = path.rpartition(".")
            return getattr(importlib.import_module(f"estimator_bridge.compat.{module_name}"),
                           helper)
        if kind == "pymodule":
            module_name, _, attribute = path.partition(":")
            module = importlib.import_module(module_name)
            return getattr(module, attribute) if attribute else module
        if kind == "unsupported":
            return _Unsupported(legacy_name, namespace_table.UNSUPPORTED[path])
        if kind == "bridge":
            value = _bridge_attribute(path)
            if value is not _MISSING:
                return value
            if last:
                raise MissingBridgeSymbol(
                    f"{legacy_name} maps to estimator_bridge.{path}, which this version of "
                    f"estimator_bridge does not define (no `{path}` in estimator_bridge). Use a "
                    "supported name or update estimator_bridge.")
            continue
        raise ValueError(f"unknown target kind {kind!r} in {target!r} for {legacy_name}")
    raise AssertionError(f"unreachable: {target!r}")


def _bridge_attribute(path):
    value = importlib.import_module("estimator_bridge")
    for part in path.split("."):
        value = getattr(value, part, _MISSING)
        if value is _MISSING:
            return _MISSING
    return value


def _real_tf_attribute(path):
    import tensorflow  # the real one: this module is imported before any alias is installed

    value = tensorflow
    for part in filter(None, path.split(".")):
        value = getattr(value, part)
    return value


@functools.lru_cache(maxsize=None)
def alias_module(name: str) -> AliasModule:
    """The single AliasModule for a legacy module path (one object per path per process)."""
    return AliasModule(name, namespace_table.MODULES[name])


def tf1_namespace() -> AliasModule:
    """The TF1-shaped `tensorflow` module: what `import tensorflow as tf` gives a TF 1.15 script.

    `tf1_namespace().compat.v1` is the same object, as in TF 1.15. Use it in process to run legacy
    code "with only the imports swapped": `tf = tf1_namespace()`.
    """
    return alias_module("tensorflow")
