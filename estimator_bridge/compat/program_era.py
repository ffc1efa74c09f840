"""Which TensorFlow era a legacy program was written for, and so how its Keras must run. Pure.

The compat runner gives every program Keras 2 (tf-keras), in the mode the program's era ran it:
TF 1.x programs built a graph and TF 1.x's Keras trained it with Session-based (v1) loops, which
feed whole arrays when `fit` has `steps_per_epoch` and no batch size, name `metrics=['accuracy']`
'acc' and take `tf.train` optimizers; TF 2.x programs ran Keras eagerly. The decision is read
from the program's source (the files on the stack at its first `import tensorflow` / `import
keras`: the script, or a notebook's cells as verify runs them), by the first rule that matches:

  * a TF 2.x marker (MARKERS_OF_TF2, or a Python loop over a tf.data.Dataset: dataset_loops.py)
    -> TF 2.x: eager, tf.keras is TF 2.x's API;
    Code in the first branch of an `if ...executing_eagerly():` is not read for them: the program
    asked which mode it runs in (training-data-analyst's 2019 flowers notebooks read a dataset
    with `.numpy()` there, and in a tf.Session in the `else`, beside keras_to_tpu_model);
  * otherwise TF 1.x: tf.keras is TF 1.x's API (`tf.compat.v1.keras`), and Keras runs in graph
    mode when the program uses Keras and no Estimator (the bridge runs Estimators on
    tf.function and needs eager execution; Keras layers in a model_fn run inside its traces), nor
    keras_to_tpu_model with a TPU there (its TPU branch runs on tf.distribute, eagerly).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass

from estimator_bridge.compat.dataset_loops import iterates_a_dataset

# Colab's TensorFlow selector, kept as a comment in the Python of a notebook (verify/notebook_script.py).
COLAB_TF2 = (r"%tensorflow_version\s+2", "selects TensorFlow 2 in Colab (%tensorflow_version 2.x)")
# (pattern on the code without strings and comments, why it marks TF 2.x code). A TF 1.x program that
# turned eager execution on ran eagerly too.
MARKERS_OF_TF2: tuple[tuple[str, str], ...] = (
    (r"\benable_eager_execution\s*\(", "turns eager execution on"),
    (r"\benable_v2_behavior\s*\(", "turns TF 2.x behaviour on"),
    (r"\.numpy\(\)", "reads a tensor's value with .numpy() (eager execution)"),
    (r"@tf\.function\b|\btf\.function\s*\(", "uses tf.function (TF 2.x)"),
    (r"\bGradientTape\s*\(", "trains with tf.GradientTape (eager)"),
    (r"\btf\.distribute\.(?:experimental\.)?(?:TPUStrategy|MirroredStrategy|OneDeviceStrategy|"
     r"MultiWorkerMirroredStrategy)\b", "builds a tf.distribute strategy (TF 2.x Keras on TPUs/GPUs)"),
    (r"\bexperimental_run_v2\s*\(|\bstrategy\.run\s*\(", "runs a custom loop per replica (TF 2.x)"),
)
# TF 1.x graph mode refused `for x in dataset` (RuntimeError: only supported when eager execution is
# enabled), so a program that iterates a dataset in Python was written for eager execution.
ITERATES_A_DATASET = "iterates a tf.data.Dataset in a Python loop (eager execution)"
# A program that uses Keras at all, and one that uses an Estimator (which the bridge runs eagerly).
USES_KERAS = r"\bkeras\b"
USES_ESTIMATOR = r"Estimator\b|\bestimator\b|\bmodel_fn\b"
# keras_to_tpu_model's TPU branch: the runner converts the model to a tf.distribute.TPUStrategy one,
# which it runs eagerly; without a TPU these programs take their CPU branch (TF 1.x graph mode).
USES_KERAS_TO_TPU_MODEL = r"\bkeras_to_tpu_model\b"


@dataclass(frozen=True)
class Era:
    tf2: bool  # TF 2.x code: eager Keras, TF 2.x's tf.keras API
    keras_graph_mode: bool  # TF 1.x Keras program without an Estimator: Keras' v1 graph-mode loops
    reason: str


def code_of(source: str) -> str:
    """`source` without its strings and comments (a docstring saying "no Estimator" uses none)."""
    kept = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type not in (tokenize.STRING, tokenize.COMMENT):
                kept.append(token.string)
                kept.append("" if token.type == tokenize.OP else " ")
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return source
    return re.sub(r" ?([.(@]) ?", r"\1", "".join(kept))


def without_eager_branches(source: str) -> str:
    """`source` with the first branch of every `if ...executing_eagerly():` blanked (lines kept): code
    a program runs only when it finds eager execution on does not say it was written for it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    lines = source.split("\n")
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and any(
                isinstance(call, ast.Call) and (getattr(call.func, "attr", None) or getattr(call.func, "id", None))
                == "executing_eagerly" for call in ast.walk(node.test)) and node.body:
            for index in range(node.body[0].lineno - 1, node.body[-1].end_lineno):
                lines[index] = ""
    return "\n".join(lines)


def era_of(sources, tpu_answers: bool = False) -> Era:
    """The era of a program whose source texts are `sources` (an iterable of strings); `tpu_answers`:
    a TPU (or the emulated one) is there, so a keras_to_tpu_model program takes its TPU branch."""
    sources = list(sources)
    if any(re.search(COLAB_TF2[0], source) for source in sources):
        return Era(tf2=True, keras_graph_mode=False, reason=COLAB_TF2[1])
    sources = [without_eager_branches(source) for source in sources]
    text = "\n".join(code_of(source) for source in sources)
    for pattern, why in MARKERS_OF_TF2:
        if re.search(pattern, text):
            return Era(tf2=True, keras_graph_mode=False, reason=why)
    if any(iterates_a_dataset(source) for source in sources):
        return Era(tf2=True, keras_graph_mode=False, reason=ITERATES_A_DATASET)
    if not re.search(USES_KERAS, text):
        return Era(False, False, "TF 1.x code without Keras")
    if re.search(USES_ESTIMATOR, text):
        return Era(False, False, "TF 1.x code with an Estimator (run eagerly by the bridge)")
    if tpu_answers and re.search(USES_KERAS_TO_TPU_MODEL, text):
        return Era(False, False, "TF 1.x keras_to_tpu_model code on a TPU (tf.distribute.TPUStrategy, eagerly)")
    return Era(False, True, "TF 1.x Keras code (no TF 2.x marker): Keras' graph-mode loops, as TF 1.x ran them")
