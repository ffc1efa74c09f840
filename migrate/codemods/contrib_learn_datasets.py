"""`tf.contrib.learn.datasets.load_dataset("mnist")` -> `estimator_bridge.compat.mnist_input_data.load_mnist()`.

TF 1.15's load_dataset(name, size, test_with_fake_data) looked `name` up in its DATASETS table and,
for 'mnist', called datasets/mnist.py's `load_mnist()` (read_data_sets('MNIST-data')), the reader
the TF 1.x tutorials re-exported and estimator_bridge/compat/mnist_input_data.py keeps (the same
files, arrays and batches). So a call whose name is the literal 'mnist' is the same call; any other
(iris and boston read CSV files contrib shipped, dbpedia downloads a corpus; a name held in a
variable) stays and is reported (MIG301, hint: tf.keras.datasets). Heldout9:
tarrade/proj_DL_models_and_pipelines_with_GCP tf_estimator_cnn.py.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

KEYS = frozenset({"tensorflow.contrib.learn.datasets.load_dataset",
                  "tensorflow.contrib.learn.python.learn.datasets.load_dataset"})
TARGET = "estimator_bridge.compat.mnist_input_data.load_mnist"
_PARAMETERS = ("name", "size", "test_with_fake_data")


def _is_mnist(call: cst.Call) -> bool:
    """The call names the 'mnist' dataset (first argument or name=) and passes nothing it would ignore
    but size (unused for mnist)."""
    name = None
    for index, arg in enumerate(call.args):
        if arg.star:
            return False
        keyword = arg.keyword.value if arg.keyword is not None else _PARAMETERS[index] if index < 3 else None
        if keyword == "name":
            name = arg.value
        elif keyword == "test_with_fake_data" or keyword not in _PARAMETERS:
            return False
    return isinstance(name, cst.SimpleString) and name.evaluated_value == "mnist"


def _rewritten(rewrite, call: cst.Call) -> bool:
    if not rewrite.watched(call.func):
        return False
    keys = {canonical(name) for name in rewrite.import_names(call.func)}
    return len(keys) == 1 and next(iter(keys)) in KEYS and _is_mnist(call)


def claimed_by_call(rewrite, call: cst.Call) -> tuple[cst.CSTNode, ...]:
    return (call.func,) if _rewritten(rewrite, call) else ()


def leave_call(rewrite, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression | None:
    if not _rewritten(rewrite, original_node):
        return None
    rewrite.consume(original_node.func)
    return updated_node.with_changes(func=rewrite.spell(TARGET), args=[])


CODEMOD = Codemod(
    name="ContribLearnLoadDataset",
    description="Replace tf.contrib.learn.datasets.load_dataset('mnist') by the bridge's load_mnist().",
    order=16,
    leave_call=leave_call,
    claimed_by_call=claimed_by_call,
    structural_keys=KEYS,
    reach=watched_names_only,
)
