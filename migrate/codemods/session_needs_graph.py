"""`tf.Session()` in a program that never leaves eager mode: reported (MIG211), never silent.

TF 1.x built graphs by default, so a script made its tensors (`tf.placeholder`, a dataset's
`make_one_shot_iterator().get_next()`) and ran them in `tf.Session()`. TF 2 executes eagerly:
after the rename to `tf.compat.v1.Session` the same script stops at run time (placeholders raise,
`session.run` of an eager tensor says "The Session graph is empty"). The codemod cannot switch the program to
graph mode for the user: `tf.compat.v1.disable_eager_execution()` is process-wide, and Keras 3
and estimator_bridge need eager execution. So each Session construction is reported, unless the
file already chooses graph mode (a `disable_eager_execution()` / `disable_v2_behavior()` call, a
`Graph().as_default()` block, or `Session(graph=...)`) or tests the mode (`executing_eagerly()`),
with the three ways out.
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

SESSIONS = frozenset({"tensorflow.Session", "tensorflow.InteractiveSession"})
# Text that shows the file already runs graph code deliberately.
# `executing_eagerly()`: the file tests the mode and keeps a graph branch for TF 1.x on purpose
# (training-data-analyst's TF 2.1 flowers notebook: `if tf.executing_eagerly(): ... else: Session`).
GRAPH_MODE = re.compile(r"disable_eager_execution\s*\(|disable_v2_behavior\s*\(|\.as_default\s*\(|"
                        r"executing_eagerly\s*\(")


def _is_session(rewrite, call: cst.Call) -> bool:
    if not rewrite.watched(call.func):
        return False
    return bool({canonical(name) for name in rewrite.import_names(call.func)} & SESSIONS)


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    if not _is_session(rewrite, call):
        return []
    if any(arg.keyword is not None and arg.keyword.value == "graph" for arg in call.args) or len(call.args) >= 2:
        return []  # Session(target, graph): its own graph
    return [(call, "MIG211",
             "`Session()` runs graph tensors, but TensorFlow 2 executes eagerly and this file never "
             "switches to graph mode: its `session.run(...)` will fail (a placeholder raises, an eager "
             "tensor gives 'The Session graph is empty')",
             "build the tensors under `with tf.Graph().as_default() as graph:` and pass `graph=graph`; or "
             "call `tf.compat.v1.disable_eager_execution()` first thing in the program (not in a process "
             "that also runs Keras 3 or estimator_bridge); or drop the Session and use the eager values "
             "(`tensor.numpy()`)")]


def applies(text: str) -> bool:
    return GRAPH_MODE.search(text) is None


CODEMOD = Codemod(
    name="SessionNeedsGraphMode",
    description="Report tf.Session() in files that never switch to graph mode (TF 2 runs eagerly).",
    order=97,
    call_findings=call_findings,
    structural_keys=SESSIONS,
    applies=applies,
    reach=watched_names_only,
)
