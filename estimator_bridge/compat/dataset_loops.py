"""Does a program iterate a tf.data.Dataset in Python (`for x in ds.take(1)`, `next(iter(ds))`)? Pure.

TF 1.x graph mode refused it (`__iter__() is only supported inside of tf.function or when eager
execution is enabled`), so such a loop marks code written for eager execution: TF 2.x, or TF 1.x
after `enable_eager_execution()`. TF 2's tutorials print a batch this way at module level
(`for features, labels in input_fn().take(1): print(features)`) with nothing else TF 2-only in
the file. Read from the syntax tree only: an iterable counts when it is built by tf.data's own
calls, not when a name merely might hold a dataset.
"""

from __future__ import annotations

import ast

# Methods that, called on anything but an imported non-TensorFlow module (np.take, np.repeat),
# give a tf.data.Dataset in the code these programs hold.
DATASET_METHODS = frozenset({
    "take", "skip", "batch", "padded_batch", "unbatch", "shuffle", "prefetch", "shard",
    "interleave", "flat_map", "from_tensor_slices", "from_tensors", "from_generator",
    "list_files", "bucket_by_sequence_length",
})
# Methods other libraries share widely (Pool.map, arr.repeat, filter): a dataset only when called on one.
CHAINED_DATASET_METHODS = frozenset({"map", "filter", "repeat", "cache", "apply", "concatenate", "zip",
                                     "window", "range", "enumerate"})
# Calls that return a dataset: tf.data.<anything>(...), tensorflow_datasets' load.
DATASET_FACTORIES = (("tf", "data"), ("tfds", "load"), ("tensorflow_datasets", "load"))


def iterates_a_dataset(source: str) -> bool:
    """True when `source` loops over (or calls iter() on) an expression that builds a tf.data.Dataset,
    directly or through a name assigned such an expression."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    other_modules = _non_tensorflow_module_names(tree)
    datasets = _dataset_names(tree, other_modules)
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
            iterable = node.iter
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "iter"
              and len(node.args) == 1):
            iterable = node.args[0]
        else:
            continue
        if _builds_a_dataset(iterable, other_modules, datasets):
            return True
    return False


def _non_tensorflow_module_names(tree) -> set[str]:
    """Names bound by imports of modules other than TensorFlow and tensorflow_datasets (np, pd, random)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not alias.name.startswith(("tensorflow", "tensorflow_datasets")):
                    names.add(alias.asname or alias.name.split(".")[0])
    return names


def _dataset_names(tree, other_modules) -> set[str]:
    """Plain names assigned a dataset-building expression somewhere in the module (`ds = tf.data...`)."""
    names: set[str] = set()
    for _ in range(2):  # `ds = ...from_tensor_slices(x)` then `train = ds.map(f)`
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and _builds_a_dataset(node.value, other_modules, names)):
                names.add(node.targets[0].id)
    return names


def _dotted(node) -> tuple[str, ...]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    return ()


def _builds_a_dataset(node, other_modules, datasets) -> bool:
    if isinstance(node, ast.Name):
        return node.id in datasets
    if not isinstance(node, ast.Call):
        return False
    dotted = _dotted(node.func)
    if any(dotted[:len(factory)] == factory for factory in DATASET_FACTORIES):
        return True
    if not isinstance(node.func, ast.Attribute):
        return False
    receiver = node.func.value
    if isinstance(receiver, ast.Name) and receiver.id in other_modules:
        return False
    if node.func.attr in DATASET_METHODS:
        return True
    return node.func.attr in CHAINED_DATASET_METHODS and _builds_a_dataset(receiver, other_modules, datasets)
