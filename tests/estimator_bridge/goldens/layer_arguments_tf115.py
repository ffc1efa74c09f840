"""What TF 1.15's Keras `get` functions made of every name a `tf.layers` argument could take.

Runs in the TF 1.15 oracle (CPython 3.7); prints one JSON line:
`{"initializers"|"regularizers"|"constraints": {name: [class, config]}, "activations": [names],
"rejected": {kind: [names TF 1.15 refused]}, "signatures": {tf.layers name: [[parameter, kind,
default], ...]}}` (defaults as `describe_default` spells them, comparable across TF versions). Names are every public name of TF 1.15's
keras.initializers / regularizers / constraints / activations modules that `get` accepts and
that yields an object of the right kind (the candidates `get` resolves from the module globals),
so a name TF 1.15 accepted and the bridge does not shows up in the comparison.
"""

import inspect
import json
import sys

from tensorflow.python.keras import activations, constraints, initializers, regularizers
from tensorflow.python.ops import init_ops


def init_ops_class(obj):
    """The TF init_ops class underneath (Keras-1's RandomUniform only changed defaults)."""
    for cls in type(obj).__mro__:
        if cls.__module__ == init_ops.__name__:
            return cls.__name__
    return type(obj).__name__


def table(module, get, base, describe):
    accepted, rejected = {}, []
    for name in sorted(vars(module)):
        if name.startswith("_") or name.endswith("V2") or name in (
                "get", "serialize", "deserialize", "deserialize_keras_object",
                "serialize_keras_object", "keras_export"):
            continue
        try:
            obj = get(name)
        except Exception:  # noqa: BLE001 (recording what TF 1.15 refuses)
            rejected.append(name)
            continue
        if isinstance(obj, base) and type(obj) is not base:  # the abstract base does nothing
            accepted[name] = describe(obj)
    return accepted, rejected


def describe_default(value):
    """A parameter default, spelled the same on TF 1.15 and current TF."""
    if value is inspect.Parameter.empty:
        return "<required>"
    if isinstance(value, init_ops.Initializer):
        return "init:%s%s" % (init_ops_class(value), json.dumps(value.get_config(), sort_keys=True))
    return repr(value)


def signature(obj):
    return [[p.name, str(p.kind), describe_default(p.default)]
            for p in inspect.signature(obj).parameters.values()]


def layer_signatures():
    import tensorflow as tf

    return {name: signature(getattr(tf.layers, name)) for name in dir(tf.layers)
            if not name.startswith("_") and callable(getattr(tf.layers, name))}


def main():
    kinds = {
        "initializers": (initializers, initializers.get, init_ops.Initializer,
                         lambda obj: [init_ops_class(obj), obj.get_config()]),
        "regularizers": (regularizers, regularizers.get, regularizers.Regularizer,
                         lambda obj: [type(obj).__name__, obj.get_config()]),
        "constraints": (constraints, constraints.get, constraints.Constraint,
                        lambda obj: [type(obj).__name__, obj.get_config()]),
    }
    result = {"rejected": {}}
    for kind, (module, get, base, describe) in kinds.items():
        result[kind], result["rejected"][kind] = table(module, get, base, describe)
    result["activations"] = sorted(
        name for name, value in vars(activations).items()
        if callable(value) and getattr(value, "__module__", "") == activations.__name__
        and name not in ("get", "serialize", "deserialize"))
    result["signatures"] = layer_signatures()
    json.dump(result, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
