"""Generate `tf1_compat.py`: which TF1 names must become `tf.compat.v1.X` on current TensorFlow.

Run with the project's TensorFlow installed: `python -m migrate.tables.generate_tf1_compat`.
It walks `tf.compat.v1` and compares every public name with its TF2 namesake:
- a module missing from TF2 (`tf.logging`, `tf.gfile`, `tf.flags`) moves as a whole;
- a name missing from TF2 or bound to a different object moves, unless both are functions whose
  shared leading parameters and keywords have the same names and defaults: such calls keep
  `tf.X` when they use only those (`tf.argmax(x, 1)`), the rest move (`tf.argmax(x, dimension=1)`);
- names whose behaviour changed behind an unchanged signature (DENY) always move.
tests/migrate/test_tables.py re-runs the walk and checks the checked-in table is up to date.
"""

from __future__ import annotations

import inspect
import pprint
import sys
import types
from pathlib import Path

# Handled elsewhere or not TF1 API: Keras keeps `tf.keras`, estimators and layers go to the bridge.
EXCLUDED_SUBTREES = ("keras", "estimator", "layers", "compat", "contrib", "lite", "v1", "v2")

# Same signature, different behaviour in TF2 (why each is here is in its comment).
DENY = {
    "while_loop",   # v1 default return_same_structure=False unpacks single-element loop_vars
    "cond",         # v1 strict=False unpacks singleton outputs; TF2 is strict
    "case",         # same as cond
    "where",        # v1 selects rows with a vector condition; TF2 where broadcasts
    "nn.softmax_cross_entropy_with_logits",  # TF2 back-propagates into labels
    "strings.split",  # v1 returns a SparseTensor (result_type="SparseTensor"); TF2 a RaggedTensor
}

# Same signature, different behaviour when one of these arguments is passed: such calls move.
DENY_KEYWORDS = {
    # v1 fills a value with fewer elements than `shape` with its last element (graph semantics,
    # TF 1.15); TF2 broadcasts only scalars and raises otherwise.
    "constant": ("shape",),
}
API_PREFIX = "tensorflow._api.v2.compat.v1"


def _signature(function):
    try:
        return inspect.signature(function)
    except (TypeError, ValueError):
        return None


def _same_default(a, b) -> bool:
    return a is b or repr(a) == repr(b)


def _same_when_passed(v1_param, v2_param) -> bool:
    """A parameter a call passes means the same when defaults agree or TF2 requires it (TF1: None)."""
    if _same_default(v1_param.default, v2_param.default):
        return True
    return v2_param.default is v2_param.empty and v1_param.default is None


def _without(verdict, denied, v1):
    """`verdict` (positional, keywords) minus the denied arguments, by name and by position."""
    positional, keywords = verdict
    names = list(_signature(v1).parameters)
    first_denied = min(names.index(name) for name in denied)
    return min(positional, first_denied), tuple(k for k in keywords if k not in denied)


def compatible_call(v1, v2):
    """(positional, keywords) shared by two functions, or None when no call is safe to keep."""
    if inspect.isclass(v1) or inspect.isclass(v2) or not callable(v1) or not callable(v2):
        return None
    s1, s2 = _signature(v1), _signature(v2)
    if s1 is None or s2 is None:
        return None
    p1, p2 = list(s1.parameters.values()), list(s2.parameters.values())
    positional = 0
    for a, b in zip(p1, p2):
        if (a.name, a.kind) != (b.name, b.kind) or a.kind not in (a.POSITIONAL_ONLY, a.POSITIONAL_OR_KEYWORD) \
                or not _same_when_passed(a, b):
            break
        positional += 1
    by_name = {p.name: p for p in p2}
    keywords = sorted(
        a.name for a in p1
        if a.name in by_name and a.kind in (a.POSITIONAL_OR_KEYWORD, a.KEYWORD_ONLY)
        and by_name[a.name].kind in (a.POSITIONAL_OR_KEYWORD, a.KEYWORD_ONLY)
        and _same_when_passed(a, by_name[a.name])
    )
    # A TF2 parameter without default that the shared part cannot supply: no call is safe.
    shared = {p.name for p in p1[:positional]} | set(keywords)
    if any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in shared
           for p in p2):
        return None
    if positional == 0 and not keywords:
        return None
    return positional, keywords


def _equal(a, b) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _resolve(root, dotted: str):
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def walk(tf):
    """Yield (relative name, verdict) for every public name of tf.compat.v1."""
    moved_modules, moved_names, compatible = set(), set(), {}
    pending = [("", tf.compat.v1)]
    seen = set()
    while pending:
        prefix, module = pending.pop()
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            relative = f"{prefix}{name}"
            if relative.split(".")[0] in EXCLUDED_SUBTREES:
                continue
            try:
                v1 = getattr(module, name)
            except Exception:  # lazy loaders that raise on Keras 3
                continue
            try:
                v2 = _resolve(tf, relative)
                missing = False
            except Exception:
                v2, missing = None, True
            if isinstance(v1, types.ModuleType) and getattr(v1, "__name__", "").startswith(API_PREFIX):
                if missing or not isinstance(v2, types.ModuleType):
                    moved_modules.add(relative)
                elif id(v1) not in seen:
                    seen.add(id(v1))
                    pending.append((relative + ".", v1))
                continue
            if not missing and (v1 is v2 or (not callable(v1) and _equal(v1, v2))):
                continue
            verdict = None if missing or relative in DENY else compatible_call(v1, v2)
            if verdict is not None and relative in DENY_KEYWORDS:
                verdict = _without(verdict, DENY_KEYWORDS[relative], v1)
            if verdict is None:
                moved_names.add(relative)
            else:
                compatible[relative] = verdict
    return moved_modules, moved_names, compatible


def render(tf) -> str:
    moved_modules, moved_names, compatible = walk(tf)
    lines = [
        '"""TF1 names that need `tf.compat.v1` on current TensorFlow. GENERATED: do not edit.',
        "",
        f"Regenerate with `python -m migrate.tables.generate_tf1_compat` (TensorFlow {tf.__version__}).",
        "Names are relative to `tensorflow.`.",
        '"""',
        "",
        "# Modules missing from TF2: every use of `tf.<module>` becomes `tf.compat.v1.<module>`.",
        f"MOVED_MODULES = frozenset({pprint.pformat(sorted(moved_modules), width=100, compact=True)})",
        "",
        "# Names missing from TF2 or bound to another object there.",
        f"MOVED_NAMES = frozenset({pprint.pformat(sorted(moved_names), width=100, compact=True)})",
        "",
        "# name -> (positional arguments, keywords) with which a call behaves the same in TF2.",
        "COMPATIBLE_CALLS = {",
    ]
    for name in sorted(compatible):
        positional, keywords = compatible[name]
        lines.append(f"    {name!r}: ({positional}, {tuple(keywords)!r}),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    import tensorflow as tf

    target = Path(__file__).with_name("tf1_compat.py")
    target.write_text(render(tf))
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
