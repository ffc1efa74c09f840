"""`inspect.getargspec`, which Python 3.11 removed, as TF 1.15's Python (3.7) had it.

TF 1.x-era programs read a function's parameters with it, e.g. a 2018 TF-Slim fine-tuning
trainer's input pipeline: `inspect.getargspec(image_preprocessing_fn).args` to decide which
keyword arguments to pass. `getargspec(func)` returns `ArgSpec(args, varargs, keywords,
defaults)` (the 4-field tuple programs unpack) from `inspect.getfullargspec`, and refuses, as
Python 3.7 did, a function with keyword-only parameters or annotations. The codemod writes
`estimator_bridge.compat.py_inspect.getargspec`; the compat runner binds it as
`inspect.getargspec` when the interpreter has none (`install`).
"""

from __future__ import annotations

import collections
import inspect

ArgSpec = collections.namedtuple("ArgSpec", "args varargs keywords defaults")


def getargspec(func):
    """`ArgSpec(args, varargs, keywords, defaults)` of `func` (Python 3.7's inspect.getargspec)."""
    full = inspect.getfullargspec(func)
    if full.kwonlyargs or full.annotations:
        raise ValueError("Function has keyword-only parameters or annotations, use "
                         "getfullargspec() API which can support them")  # Python 3.7's words
    return ArgSpec(full.args, full.varargs, full.varkw, full.defaults)


def install() -> None:
    """`inspect.getargspec` / `inspect.ArgSpec` where this Python removed them (3.11+)."""
    if not hasattr(inspect, "getargspec"):
        inspect.getargspec = getargspec
        inspect.ArgSpec = ArgSpec
