"""Did the migrated side stop in TF1 code it does not contain? (VER007)

`estimator-migrate` rewrites the program's own tree; a TF1 package the program imports from
elsewhere (a pip package such as bert-tensorflow: `class AdamWeightDecayOptimizer(tf.train.Optimizer)`)
is not in that tree and still calls TF1's
API, so the migrated copy stops there (`module 'tensorflow._api.v2.train' has no attribute
'Optimizer'`). That is not a wrong number of the migration but a part of the program it was not
given: verify names it (findings.py VER007) with the file, instead of reporting a crash. The
compat runner serves TF1's API to every module, so its side runs such programs.
"""

from __future__ import annotations

import re
import sysconfig
from pathlib import Path

_FRAME = re.compile(r'^\s*File "(?P<path>[^"]+)", line \d+')
_TF1_ERROR = re.compile(r"^(AttributeError|ImportError|ModuleNotFoundError): .*"
                        r"(tensorflow|'tf'|contrib|estimator)")
# Frames in these packages are the machinery, not the code that called TF1's API.
_MACHINERY = ("tensorflow", "tensorflow_core", "tensorflow_estimator", "keras", "tf_keras",
              "estimator_bridge", "migrate", "absl")


def _stdlib() -> Path:
    return Path(sysconfig.get_paths()["stdlib"]).resolve()


def _is_machinery(path: Path) -> bool:
    parts = path.parts
    if any(part in ("site-packages", "dist-packages") for part in parts):
        index = max(i for i, part in enumerate(parts) if part in ("site-packages", "dist-packages"))
        if index + 1 < len(parts) and parts[index + 1] in _MACHINERY:
            return True
    try:
        path.resolve().relative_to(_stdlib())
        return True
    except ValueError:
        return False


def tf1_dependency(log_text: str, migrated_tree: Path) -> str | None:
    """The file outside `migrated_tree` whose TF1 call stopped the run, or None.

    Args:
      log_text: the run's stderr (its traceback).
      migrated_tree: the folder the migrated program (and everything migrated with it) lives in.
    """
    lines = log_text.strip().splitlines()
    if not lines or not _TF1_ERROR.match(lines[-1]):
        return None
    frames = [Path(match.group("path")) for match in map(_FRAME.match, lines) if match]
    user_frames = [path for path in frames if not _is_machinery(path)]
    if not user_frames:
        return None
    deepest = user_frames[-1]
    try:
        deepest.resolve().relative_to(Path(migrated_tree).resolve())
        return None  # in the migrated tree: the migration's own gap, a real failure
    except ValueError:
        return str(deepest)
