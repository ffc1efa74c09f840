"""TPU readiness: what in code written for TPUs runs, but runs badly or not at all, on a real TPU.

Nothing is rewritten (each fix is a choice about the program); each site gets a MIG4xx finding
with the fix. `estimator-migrate --tpu-readiness` adds them to its report (migrate/api.py:
with_readiness reads the original file); they are not part of the rewriting pass: these findings
stay until the user changes the program, while the pass's contract is that migrated output has
nothing left to do (the pre-filter clears it without libcst). The rules only look at files that target TPUs (they name TPUStrategy,
TPUEstimator, a TPU cluster resolver or keras_to_tpu_model), and only at what is visible in one
call:

- MIG401 `.batch(...)` without `drop_remainder=True`: a last partial batch has another shape,
  and XLA compiles the TPU program again for it (TPUEstimator refuses dynamic shapes outright);
- MIG402 `padded_batch`, `tf.py_func` / `tf.py_function` / `tf.numpy_function`: padded shapes
  recompile per length bucket; Python functions run in the host's Python, not on the TPU worker
  that runs the input pipeline of a TPU Node;
- MIG403 a literal global batch whose per-core share on 8 cores is not a multiple of 8 (the
  TPU's matrix unit works on 8x128 tiles; 128 per core, global 1024, is the rule of thumb);
- MIG404 summaries written inside a `model_fn`: on a TPU the model_fn runs on the device, where
  summary ops are not written; send the tensors through `host_call`;
- MIG405 `model.save` / `tf.saved_model.save` / `ModelCheckpoint` to a local path without
  `tf.saved_model.SaveOptions(experimental_io_device='/job:localhost')`: on a TPU Node the
  TPU workers write, and they cannot see this machine's disk;
- MIG406 `compile(...)` without `steps_per_execution` in a file that creates a TPUStrategy:
  every step is a separate host round trip (the Keras counterpart of `iterations_per_loop`).
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod
from migrate.resolve import canonical

_TARGETS_TPU = re.compile(r"\b(TPUStrategy|TPUEstimator\w*|TPUClusterResolver|keras_to_tpu_model)\b")
_CREATES_TPU_STRATEGY = re.compile(r"\bTPUStrategy\s*\(")
CORES = 8
PYTHON_FUNCTIONS = frozenset({"tensorflow.py_func", "tensorflow.py_function", "tensorflow.numpy_function"})
SUMMARY_MODULES = ("tensorflow.summary.", "tensorflow.contrib.summary.")
SAVES = frozenset({"tensorflow.saved_model.save", "keras.callbacks.ModelCheckpoint"})
BATCH_KEYWORDS = ("batch_size", "train_batch_size")


def targets_tpu(text: str) -> bool:
    return _TARGETS_TPU.search(text) is not None


def _key(rewrite, func: cst.BaseExpression) -> str | None:
    if dotted_name(func) is None or not rewrite.watched(func):
        return None
    keys = {canonical(name) for name in rewrite.import_names(func)}
    return keys.pop() if len(keys) == 1 else None


def _method(call: cst.Call) -> str | None:
    return call.func.attr.value if isinstance(call.func, cst.Attribute) else None


def _keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    return next((arg.value for arg in call.args if arg.keyword is not None and arg.keyword.value == name), None)


def _is_true(node: cst.BaseExpression | None) -> bool:
    return isinstance(node, cst.Name) and node.value == "True"


class _ModelFnCalls(cst.CSTVisitor):
    """id(call) -> name of the enclosing function, for calls directly in a function named *model_fn*."""

    def __init__(self) -> None:
        self.functions: list[str] = []
        self.calls: dict[int, str] = {}

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node.name.value)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if self.functions and "model_fn" in self.functions[-1]:   # not a host_call fn nested in it
            self.calls[id(node)] = self.functions[-1]


def _global_batch_finding(call: cst.Call, value: cst.BaseExpression | None, where: str):
    if not isinstance(value, cst.Integer):
        return None
    batch = int(value.evaluated_value)
    if batch % (CORES * 8) == 0:
        return None
    return (value, "MIG403", f"{where} {batch} gives {batch / CORES:g} examples per core on {CORES} TPU cores, "
            "not a multiple of 8 (the matrix unit's tile)",
            f"use a global batch that is a multiple of {CORES * 8} ({CORES} cores x 8); 128 per core "
            f"(global {CORES * 128}) is the rule of thumb")


def _local_path(value: cst.BaseExpression | None) -> bool:
    return not (isinstance(value, cst.SimpleString) and "gs://" in value.value)


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    found = []
    method = _method(call)
    key = _key(rewrite, call.func)
    if method == "batch" and key is None and call.args:
        if not _is_true(_keyword(call, "drop_remainder")) and not (
                len(call.args) >= 2 and call.args[1].keyword is None and _is_true(call.args[1].value)):
            found.append((call, "MIG401", "`.batch(...)` without `drop_remainder=True` in TPU code: the last "
                          "partial batch has another shape, which recompiles the TPU program (TPUEstimator "
                          "refuses it)", "pass `drop_remainder=True` (and repeat the training dataset)"))
        first = call.args[0]
        if first.keyword is None:
            finding = _global_batch_finding(call, first.value, "batch size")
            if finding is not None:
                found.append(finding)
    if method == "padded_batch" and key is None:
        found.append((call, "MIG402", "`.padded_batch(...)` in TPU code: every padded shape compiles its own "
                      "TPU program", "pad to one fixed shape (`padded_shapes` with constants, or "
                      "`.batch(..., drop_remainder=True)` after padding in `map`)"))
    if key in PYTHON_FUNCTIONS:
        found.append((call, "MIG402", f"`tf.{key.split('.', 1)[1]}` in TPU code: Python functions run in the "
                      "host's interpreter, which a TPU Node's input pipeline (on the TPU worker) cannot call",
                      "express it with TensorFlow ops (tf.strings, tf.io, tf.image) or precompute it into "
                      "the TFRecords"))
    for keyword in BATCH_KEYWORDS:
        finding = _global_batch_finding(call, _keyword(call, keyword), f"`{keyword}=`")
        if finding is not None:
            found.append(finding)
    if key is not None and key.startswith(SUMMARY_MODULES) and key.rsplit(".", 1)[1] in (
            "scalar", "histogram", "image", "audio", "text"):
        function = rewrite.state[NAME]["model_fn_calls"].get(id(call))
        if function is not None and "model_fn" in function:
            found.append((call, "MIG404", f"summary `{key.replace('tensorflow.', 'tf.')}` written inside "
                          f"`{function}`: on a TPU the model_fn runs on the device, where summaries are not "
                          "written", "return the tensors through `host_call=(host_fn, [tensors])` of "
                          "TPUEstimatorSpec and write the summaries in host_fn"))
    if rewrite.state[NAME]["creates_strategy"] and (key in SAVES or (key is None and method == "save")) \
            and _keyword(call, "options") is None \
            and call.args and _local_path(call.args[0].value if call.args[0].keyword is None else None):
        found.append((call, "MIG405", "checkpoint or SavedModel written to a local path from TPU code without "
                      "an I/O device: on a TPU Node the TPU workers write it, and they cannot see this "
                      "machine's disk", "write to a gs:// path, or pass options=tf.saved_model.SaveOptions("
                      "experimental_io_device='/job:localhost') (Keras 3's ModelCheckpoint takes no "
                      "options: give it a gs:// path on TPU Nodes)"))
    if method == "compile" and key is None and rewrite.state[NAME]["creates_strategy"] \
            and _keyword(call, "steps_per_execution") is None and call.args:
        found.append((call, "MIG406", "Keras `compile(...)` under a TPUStrategy without `steps_per_execution`: "
                      "every training step is a separate round trip to the TPU",
                      "pass steps_per_execution=N (the counterpart of TPUEstimator's iterations_per_loop; "
                      "per-batch callbacks then see every N-th batch)"))
    return found


def start(rewrite, module: cst.Module) -> dict:
    """Whether the module creates a TPUStrategy (the compile rule), and its calls inside a model_fn."""
    calls = _ModelFnCalls()
    if "model_fn" in rewrite.source_text:
        module.visit(calls)
    return {"creates_strategy": _CREATES_TPU_STRATEGY.search(rewrite.source_text) is not None,
            "model_fn_calls": calls.calls}


NAME = "TPUReadiness"
# Not named CODEMOD: registry.discover() must not put it in the default pipeline.
READINESS = Codemod(
    name=NAME,
    description="Report what in TPU code recompiles, cannot run on a TPU worker, or wastes the TPU.",
    order=95,
    start=start,
    call_findings=call_findings,
    applies=targets_tpu,
    text_trigger=targets_tpu,
)


def readiness_findings(text: str, filename: str = "<string>") -> list:
    """The MIG4xx findings of a Python source (empty for files that do not target TPUs)."""
    from migrate.engine import parse, transform

    if not targets_tpu(text):
        return []
    _, findings = transform(parse(text), filename, (READINESS,), source=text)
    return findings


def main(argv=None) -> int:
    """`python -m migrate.codemods.tpu_readiness FILE...`: print the findings; exit 1 if any."""
    import sys

    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m migrate.codemods.tpu_readiness FILE.py [FILE.py ...]", file=sys.stderr)
        return 2
    found = False
    for path in paths:
        try:
            text = open(path, encoding="utf-8").read()
        except OSError as error:
            print(f"{path}: cannot read: {error}", file=sys.stderr)
            return 2
        for finding in readiness_findings(text, path):
            found = True
            print(f"{finding.location.render(path)}: {finding.code} {finding.message}\n    fix: {finding.hint}")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
