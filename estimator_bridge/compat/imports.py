"""Serve the TF1-shaped namespace to legacy code's `import tensorflow` statements, in process.

`installed()` wraps `builtins.__import__` for as long as the context lasts. An import of
`tensorflow...` or `tensorflow_estimator...` made by legacy code (the script, its own modules,
legacy libraries) is answered from the alias tables; the same import made by TensorFlow, Keras,
estimator_bridge or any other library in `namespace_table.REAL_TENSORFLOW_IMPORTERS` gets the real,
current TensorFlow. Nothing is written to site-packages and `sys.modules['tensorflow']` stays
the real module, so the libraries underneath keep working unchanged.

Deep imports of real TensorFlow modules (`from tensorflow.python.ops import init_ops`) pass
through to TensorFlow. Known limit: `importlib.import_module("tensorflow")` bypasses
`__import__` and returns the real module.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import sys
import threading

from estimator_bridge.compat import legacy_keras, namespace, namespace_table

_lock = threading.Lock()
_install_depth = 0
_original_import = builtins.__import__


def _is_legacy_importer(globals_):
    """True for code that should see TF1: anything not in the real-TensorFlow library list."""
    if not globals_:
        return False
    # `python -m estimator_bridge.run` runs as __main__ too; its __spec__ keeps the real name.
    spec = globals_.get("__spec__")
    module_name = getattr(spec, "name", None) or globals_.get("__name__") or ""
    return module_name.split(".", 1)[0] not in namespace_table.REAL_TENSORFLOW_IMPORTERS


def _alias_walk(dotted_name):
    """Follow explicit alias entries; returns (object, fully resolved?).

    A path TF 1.15 had but the tables lack (`tensorflow.contrib.metrics`) resolves to a
    RemovedModule: importable, failing on use.
    """
    parts = dotted_name.split(".")
    node = namespace.alias_module(parts[0])
    for index, part in enumerate(parts[1:], start=1):
        dotted = ".".join(parts[:index + 1])
        if dotted in namespace_table.CODEMOD_HELPER_MODULES and dotted not in namespace_table.MODULES:
            # an import names the module TF 1.15 had there (contrib.framework.python.ops.arg_scope),
            # even where the parent's attribute of that name is a function of it
            removed = namespace.removed_module(dotted)
            if removed is not None:
                node = removed
                continue
        if isinstance(node, namespace.RemovedModule):
            node = getattr(node, part, None)
            if node is None:
                return namespace.alias_module(parts[0]), False
            continue
        spec = (namespace_table.MODULES.get(node.__name__)
                if isinstance(node, namespace.AliasModule) else None)
        if spec is not None and part not in spec.entries:
            removed = namespace.removed_module(".".join(parts[:index + 1]))
            if removed is not None:
                node = removed
                continue
        if spec is None or part not in spec.entries:
            return node, False
        node = getattr(node, part)
        if not isinstance(node, namespace.AliasModule) and index < len(parts) - 1:
            return node, False
    return node, True


# TF 1.15's `tensorflow/python/estimator/*` were shims re-exporting tensorflow_estimator's.
_ESTIMATOR_SHIM = "tensorflow.python.estimator"


def _keras_path(name):
    """The path below the Keras root of a legacy Keras import (`keras.layers` -> 'layers'), else None."""
    for root in _KERAS_ROOTS:
        if name == root or name.startswith(root + "."):
            return name[len(root) + 1:]
    return None


# Standalone Keras and tf.keras' import paths: served from the era's tf-keras API (legacy_keras.py).
_KERAS_ROOTS = ("keras", "tensorflow.keras", "tensorflow.compat.v1.keras", "tensorflow.contrib.keras")


def _legacy_import(name, globals_=None, locals_=None, fromlist=(), level=0):
    keras_path = _keras_path(name) if legacy_keras.api_package() else None
    if keras_path is not None and not (name.startswith("tensorflow") and keras_path in ("", "layers")):
        # (tensorflow.keras and tensorflow.keras.layers themselves are the namespace's: their Input)
        module = legacy_keras.import_keras(keras_path, globals_, locals_, fromlist, level, _original_import)
        if fromlist or name.startswith("keras"):
            return module
        return namespace.alias_module("tensorflow")
    if name == _ESTIMATOR_SHIM or name.startswith(_ESTIMATOR_SHIM + "."):
        name = "tensorflow_estimator" + name[len("tensorflow"):]
    target, resolved = _alias_walk(name)
    if resolved and fromlist and isinstance(target, (namespace.RemovedModule, namespace.AliasModule)):
        _check_removed_fromlist(target, fromlist)
    if not resolved and isinstance(target, namespace.AliasModule):
        _raise_if_closed(target, name)
    if not resolved:
        # A real TensorFlow module path (tensorflow.python..., tensorflow.compat.v1.nn): let
        # TensorFlow's own import machinery load it, then hand out what was asked for.
        real = _original_import(name, globals_, locals_, ["__name__"], level)
        target = real
    if fromlist:
        return target
    return namespace.alias_module(name.split(".", 1)[0])


def _check_removed_fromlist(module, fromlist):
    """`from tensorflow.contrib.metrics import streaming_auc` (or `from tensorflow.contrib.slim.nets
    import mobilenet_v1`): importing the name is using it; raise ImportError with the reason here (Python would replace it with "cannot import name")."""
    for name in fromlist:
        if name == "*":
            continue
        try:
            getattr(module, name)
        except namespace.UnsupportedName as error:
            raise ImportError(str(error), name=f"{module.__name__}.{name}") from None


def _raise_if_closed(module, dotted_name):
    """`import tensorflow.contrib.slim`: a clear ImportError, not "No module named ...contrib"."""
    spec = namespace_table.MODULES[module.__name__]
    closed = [f for f in spec.fallbacks if f.startswith("unsupported-attribute:")]
    if closed or not spec.fallbacks:
        remainder = dotted_name[len(module.__name__) + 1:].split(".", 1)[0]
        legacy_name = namespace.display_name(f"{module.__name__}.{remainder}")
        message = (namespace_table.UNSUPPORTED[closed[0].split(":", 1)[1]] if closed else
                   f"the compat namespace's {namespace.display_name(module.__name__)} has only "
                   f"{', '.join(sorted(spec.entries))}.")
        raise ImportError(f"{legacy_name} is not available: {message}", name=dotted_name)


def _import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: A002 (builtin names)
    if (level == 0 and name.split(".", 1)[0] in _LEGACY_ROOTS
            and _is_legacy_importer(globals if globals is not None
                                    else sys._getframe(1).f_globals)):  # `__import__("x")`
        if legacy_keras.era() is None:
            legacy_keras.decide(sys._getframe(1))  # the program's first TensorFlow/Keras import
        if name.split(".", 1)[0] == "keras" and not legacy_keras.api_package():
            return _original_import(name, globals, locals, fromlist, level)
        return _legacy_import(name, globals, locals, fromlist, level)
    return _original_import(name, globals, locals, fromlist, level)


_LEGACY_ROOTS = (*namespace_table.ROOTS, "keras")


@contextlib.contextmanager
def installed():
    """Legacy `import tensorflow` statements get the TF1-shaped namespace inside this block.

    Re-entrant; the original `__import__` is restored when the outermost block exits.
    """
    global _install_depth
    import tensorflow  # noqa: F401  (load the real TensorFlow before anyone asks for the alias)
    importlib.import_module("estimator_bridge")
    with _lock:
        if _install_depth == 0:
            builtins.__import__ = _import
        _install_depth += 1
    try:
        yield namespace.tf1_namespace()
    finally:
        with _lock:
            _install_depth -= 1
            if _install_depth == 0:
                builtins.__import__ = _original_import
