"""The "swapped" side: run a legacy script with only its TensorFlow imports swapped.

    python -m verify.swapped_imports SCRIPT [ARGS...]

The script (and every module it imports from its own folder, such as BERT's modeling.py) is
executed as ``__main__`` after exactly the import lines in IMPORT_SWAPS are rewritten to point at
the bridge's TF1-shaped namespace. Nothing else in the program changes: if it runs and matches
its golden, the bridge reproduces the original TensorFlow for that program.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import re
import sys
from pathlib import Path

# The TF1-shaped namespace the imports are swapped to (built by the bridge's compat layer).
COMPAT_MODULE = "estimator_bridge.compat"
# TensorFlow's switch to tf-keras (estimator_bridge.runner_keras.LEGACY_KERAS_VARIABLE; named here
# because importing estimator_bridge loads TensorFlow, which reads it).
LEGACY_KERAS_VARIABLE = "TF_USE_LEGACY_KERAS"

# (pattern of one whole import line, replacement). Pure data; order does not matter because the
# patterns are anchored to the complete statement.
IMPORT_SWAPS: tuple[tuple[str, str], ...] = (
    (r"import tensorflow as tf", f"import {COMPAT_MODULE} as tf"),
    (r"import tensorflow\.compat\.v1 as tf", f"import {COMPAT_MODULE} as tf"),
    (r"from tensorflow\.compat\.v1 import estimator as tf_estimator",
     f"from {COMPAT_MODULE} import estimator as tf_estimator"),
)
_COMPILED_SWAPS = tuple((re.compile(rf"^(?P<indent>[ \t]*){pattern}[ \t]*$", re.MULTILINE), repl)
                        for pattern, repl in IMPORT_SWAPS)


class CompatUnavailable(RuntimeError):
    """The bridge's TF1 namespace does not exist (yet): the swapped side cannot run."""


def swap_imports(source: str) -> tuple[str, int]:
    """The source with its TensorFlow import lines swapped, and how many lines changed."""
    changed = 0
    for pattern, replacement in _COMPILED_SWAPS:
        source, count = pattern.subn(lambda m, r=replacement: m.group("indent") + r, source)
        changed += count
    return source, changed


class _SwappingLoader(importlib.abc.SourceLoader):
    def __init__(self, path: Path):
        self.path = path

    def get_filename(self, fullname):
        return str(self.path)

    def get_data(self, path):
        if Path(path) == self.path:
            return swap_imports(self.path.read_text())[0].encode()
        with open(path, "rb") as data:
            return data.read()

    def path_stats(self, path):
        raise OSError("never use cached bytecode for a swapped module")


class SiblingModuleFinder(importlib.abc.MetaPathFinder):
    """Swaps imports in the top-level modules that live next to the script (modeling.py, ...)."""

    def __init__(self, folder: Path):
        self.folder = folder

    def find_spec(self, fullname, path=None, target=None):
        if "." in fullname:
            return None
        candidate = self.folder / f"{fullname}.py"
        if not candidate.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, candidate,
                                                      loader=_SwappingLoader(candidate))


def require_compat() -> None:
    if importlib.util.find_spec(COMPAT_MODULE) is None:
        raise CompatUnavailable(
            f"{COMPAT_MODULE} does not exist yet: the swapped side swaps `import tensorflow as tf` to it, "
            "so it needs the bridge's TF1-shaped namespace (compat layer).")


def run_script(script: Path, args: list[str]) -> None:
    """Execute `script` as __main__ with swapped imports, argv = [script, *args]."""
    # The namespace's tf.keras is the compat runner's: Keras 2 (tf-keras), which TensorFlow routes
    # tf.keras to only when the switch is set before it loads (estimator_bridge/runner_keras.py;
    # finding estimator_bridge.compat below imports estimator_bridge, which loads TensorFlow).
    os.environ[LEGACY_KERAS_VARIABLE] = "1"
    require_compat()
    script = script.resolve()
    source, changed = swap_imports(script.read_text())
    if not changed:
        raise ValueError(f"{script} has no TensorFlow import that IMPORT_SWAPS knows; "
                         "nothing would run through the bridge.")
    # TF 1.15's TensorShape (`shape[-1].value`, BERT's get_shape_list) and Tensor equality are
    # part of the TF1 namespace a legacy script was written against; the compat runner switches
    # them on too. This process runs only the legacy script, so the process-wide switches are
    # fine, and so is Keras' mode: the program's era decides it, as under the runner
    # (compat/legacy_keras.py: TF 1.x Keras programs train with Keras' v1 graph-mode loops).
    from estimator_bridge.compat import apply_tf1_behavior, keras_for_program

    apply_tf1_behavior()
    keras_for_program([script.read_text()])
    sys.argv = [str(script), *args]
    sys.path.insert(0, str(script.parent))
    sys.meta_path.insert(0, SiblingModuleFinder(script.parent))
    main_module = type(sys)("__main__")
    main_module.__file__ = str(script)
    main_module.__builtins__ = __builtins__
    sys.modules["__main__"] = main_module
    exec(compile(source, str(script), "exec"), main_module.__dict__)


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit("usage: python -m verify.swapped_imports SCRIPT [ARGS...]")
    run_script(Path(sys.argv[1]), sys.argv[2:])


if __name__ == "__main__":
    main()
