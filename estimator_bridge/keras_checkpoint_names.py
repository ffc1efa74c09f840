"""TF 2.x model_to_estimator checkpoints (object-based keys) read under the bridge's TF1 names.

TF 2.x's model_to_estimator saved `checkpoint_format="checkpoint"` (its default): keys by object
path, `layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, the optimizer's slots under the
weight (`.OPTIMIZER_SLOT/optimizer/m/...`) and its hyperparameters under `optimizer/`, the global
step as `estimator_global_step`. The bridge names variables as TF 1.x did (`dense/kernel`,
tf-keras' `training/Adam/dense/kernel/m`, Keras 3's `adam/dense_kernel_momentum`); this module
maps those names to the object keys, so that a model_dir TF 2.x wrote resumes. Pure: names only.
"""

from __future__ import annotations

import re

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
SUFFIX = "/.ATTRIBUTES/VARIABLE_VALUE"
GLOBAL_STEP = "estimator_global_step" + SUFFIX
# Keras 3's slot names -> the legacy optimizer's (what TF 2.x's checkpoint holds), by optimizer.
KERAS3_SLOTS = {
    "adam": {"momentum": "m", "velocity": "v"},
    "adamax": {"momentum": "m", "norm": "v"},
    "nadam": {"momentum": "m", "velocity": "v"},
    "sgd": {"momentum": "momentum"},
    "rmsprop": {"velocity": "rms", "momentum": "momentum", "average_gradient": "mg"},
    "adagrad": {"accumulator": "accumulator"},
    "adadelta": {"accumulated_grad": "accum_grad", "accumulated_delta_var": "accum_var"},
}
KERAS3_HYPERPARAMETERS = ("learning_rate",)


def is_object_based(keys) -> bool:
    return OBJECT_GRAPH_KEY in keys


def object_keys(names, layer_weights) -> dict:
    """{bridge name: object key} for the `names` it can map.

    Args:
      names: the model's variable names (TF1 style) the bridge restores.
      layer_weights: [(layer name, [weight basenames])] of the model's top-level layers that have
        weights, in order (TF's `layer_with_weights-K`).
    """
    weights = {}
    for index, (layer, basenames) in enumerate(layer_weights):
        for basename in basenames:
            weights[f"{layer}/{basename}"] = f"layer_with_weights-{index}/{basename}"
    flat = {key.replace("/", "_"): path for key, path in weights.items()}
    keys = {}
    for name in names:
        if name == "global_step":
            keys[name] = GLOBAL_STEP
        elif name in weights:
            keys[name] = weights[name] + SUFFIX
        elif name.startswith("training/"):  # tf-keras' legacy optimizer under TF 1.x's scope
            _, optimizer_name, rest = name.split("/", 2)
            owner, _, slot = rest.rpartition("/")
            if owner in weights:
                keys[name] = f"{weights[owner]}/.OPTIMIZER_SLOT/optimizer/{slot}{SUFFIX}"
            elif "/" not in rest:
                keys[name] = f"optimizer/{rest}{SUFFIX}"
        else:  # Keras 3: OPTIMIZER[_N]/LAYER_WEIGHT_SLOT, OPTIMIZER[_N]/learning_rate, .../iteration
            optimizer, _, rest = name.partition("/")
            kind = re.sub(r"_\d+$", "", optimizer)
            if rest == "iteration":
                keys[name] = GLOBAL_STEP
            elif rest in KERAS3_HYPERPARAMETERS:
                keys[name] = f"optimizer/{rest}{SUFFIX}"
            else:
                for slot, legacy in KERAS3_SLOTS.get(kind, {}).items():
                    owner = rest[: -len(slot) - 1] if rest.endswith("_" + slot) else None
                    if owner in flat:
                        keys[name] = f"{flat[owner]}/.OPTIMIZER_SLOT/optimizer/{legacy}{SUFFIX}"
                        break
    return keys
