"""Which `tensorflow.contrib` modules TF 1.15 had: the bridge's generated list, read without importing it.

`estimator_bridge/compat/tf115_modules.py` is generated inside the TF 1.15 oracle; it is data, so
the codemod reads its CONTRIB set with `ast` (migrate imports no estimator_bridge code).
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from pathlib import Path


@functools.cache
def tf115_contrib_modules() -> frozenset[str]:
    """Module paths below `tensorflow.contrib` (`tpu`, `tpu.python.tpu`, ...), or empty without the bridge."""
    spec = importlib.util.find_spec("estimator_bridge")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    source = Path(next(iter(spec.submodule_search_locations))) / "compat" / "tf115_modules.py"
    for node in ast.parse(source.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "CONTRIB" for t in node.targets):
            return frozenset(ast.literal_eval(node.value.args[0]))
    return frozenset()


def is_tf115_contrib_module(name: str) -> bool:
    """`tensorflow.contrib.tpu` -> True: a module (not a class or function) TF 1.15 had."""
    prefix = "tensorflow.contrib."
    return name.startswith(prefix) and name[len(prefix):] in tf115_contrib_modules()
