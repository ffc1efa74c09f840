"""The one module path tf-slim needs on TF 2.21 that no installed package provides.

TF-Slim's layers, batch norm, arg_scope, variables, training and networks come from the tf-slim
package (pinned in pyproject.toml). On TF 2.21 they build as they are except `batch_norm`'s
default path: `tensorflow.python.layers.normalization` loads TF1's BatchNormalization layer
lazily from `tf_keras.legacy_tf_layers.normalization`, while tf-keras 2.21 ships that module as
`tf_keras.src.legacy_tf_layers.normalization`, so every slim network with batch norm stopped with
"No module named 'tf_keras.legacy_tf_layers'". `install()` adds a finder that answers exactly
that path (and its submodules) with tf-keras's own modules, imported when first asked for: no
code is copied and nothing else is imported early. `import estimator_bridge` installs it.

tf-slim 1.1.0 also reaches TensorFlow functions and classes through the internal modules that held
them before TF 2.14 moved them (`ops.IndexedSlices` in slim's gradient clipping, `control_flow_ops.cond`
behind `is_training` tensors, `variable_scope.variable` in `local_variable`, ...). tf-slim's own
modules get views of those TF modules with the old names added (`MOVED_NAMES`, bound to TF's own
objects at their new places); TensorFlow's modules stay as they are for everyone else.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types


LEGACY_PATH = "tf_keras.legacy_tf_layers"
SHIPPED_PATH = "tf_keras.src.legacy_tf_layers"

# (module tf-slim reads, name) -> (module TF 2.21 keeps the object in, its name there)
_OPS = "tensorflow.python.ops."
MOVED_NAMES = {
    ("tensorflow.python.framework.ops", "Tensor"): ("tensorflow.python.framework.tensor", "Tensor"),
    ("tensorflow.python.framework.ops", "IndexedSlices"): ("tensorflow.python.framework.indexed_slices",
                                                           "IndexedSlices"),
    (_OPS + "control_flow_ops", "cond"): (_OPS + "cond", "cond"),
    (_OPS + "control_flow_ops", "case"): (_OPS + "control_flow_case", "case"),
    (_OPS + "control_flow_ops", "Assert"): (_OPS + "control_flow_assert", "Assert"),
    (_OPS + "control_flow_ops", "while_loop"): (_OPS + "while_loop", "while_loop"),
    (_OPS + "array_ops", "stack"): (_OPS + "array_ops_stack", "stack"),
    (_OPS + "array_ops", "unstack"): (_OPS + "array_ops_stack", "unstack"),
    (_OPS + "variable_scope", "variable"): (_OPS + "variable_v1", "VariableV1"),
    **{(_OPS + "variable_scope", name): (_OPS + "resource_variables_toggle", name)
       for name in ("enable_resource_variables", "disable_resource_variables", "resource_variables_enabled")},
}


class _ShippedModuleLoader(importlib.abc.Loader):
    """Loads `tf_keras.legacy_tf_layers[.x]` as the module tf-keras ships under `src`."""

    def __init__(self, shipped_name: str):
        self._shipped_name = shipped_name

    def create_module(self, spec):
        module = importlib.import_module(self._shipped_name)
        self._shipped_spec = module.__spec__
        return module

    def exec_module(self, module):
        """The shipped module is already executed; it keeps its own spec (importlib replaced it)."""
        module.__spec__ = self._shipped_spec


class LegacyTFLayersFinder(importlib.abc.MetaPathFinder):
    """Finds `tf_keras.legacy_tf_layers` and its submodules; no other name."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != LEGACY_PATH and not fullname.startswith(LEGACY_PATH + "."):
            return None
        shipped = SHIPPED_PATH + fullname[len(LEGACY_PATH):]
        if importlib.util.find_spec(shipped) is None:
            return None
        return importlib.util.spec_from_loader(fullname, _ShippedModuleLoader(shipped))


def install() -> None:
    """Adds the finder once, ahead of the path finder (which would execute the files a second time),
    and the moved names."""
    if not any(isinstance(finder, LegacyTFLayersFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, LegacyTFLayersFinder())
    import tf_slim  # noqa: F401,PLC0415  (its modules, loaded, get the views below)

    views = {}
    for module_name, module in list(sys.modules.items()):
        if module_name.split(".")[0] != "tf_slim" or module is None:
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, types.ModuleType) and value.__name__ in _MOVED_FROM:
                if value.__name__ not in views:
                    views[value.__name__] = _with_moved_names(value)
                setattr(module, attribute, views[value.__name__])


_MOVED_FROM = frozenset(module_name for module_name, _ in MOVED_NAMES)


def _with_moved_names(module):
    """A copy of a TF module's namespace with the names tf-slim reads there and TF moved."""
    view = types.ModuleType(module.__name__, module.__doc__)
    view.__dict__.update(vars(module))
    for (module_name, name), (home, home_name) in MOVED_NAMES.items():
        if module_name == module.__name__ and not hasattr(module, name):
            setattr(view, name, getattr(importlib.import_module(home), home_name))
    return view


install()
