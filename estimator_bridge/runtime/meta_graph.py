"""The `model.ckpt-N.meta` file TF1's Saver wrote next to every checkpoint.

TF 1.15's Estimator saved a MetaGraphDef with each checkpoint (`CheckpointSaverHook`,
`save_graph_def=True`), and real programs read those files: some copy
`model.ckpt-N.{meta,index,data-*}` after each evaluation (`tf.gfile.Copy` fails on a missing
file), inference scripts open a checkpoint with `tf.train.import_meta_graph(prefix + ".meta")`
and `Saver.restore`.

The bridge runs its model_fn as traced TF 2 functions, so it has no TF1 graph of the model to
export. What it writes is the checkpoint's own description as a TF1 graph: one `VariableV2` per
checkpoint key (its dtype, shape and trainability, in GLOBAL_VARIABLES/TRAINABLE_VARIABLES, and
`global_step` in its collection) and the SaverDef restoring all of them, from ops TF 1.15 knows. So
`import_meta_graph` + `restore` gives back every variable by its TF1 name, in TF 1.15 too; the
model's other ops (logits, losses) are not in it: `graph.get_tensor_by_name('logits:0')` raises
KeyError naming the tensor.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from tensorflow.core.framework.attr_value_pb2 import AttrValue
from tensorflow.core.framework.tensor_pb2 import TensorProto
from tensorflow.core.framework.variable_pb2 import VariableDef

tf1 = tf.compat.v1


def variable_specs(variables: dict, stored_name, slice_info) -> tuple:
    """(checkpoint key, dtype name, full shape, trainable) per key, each key once, sorted.

    Args:
      variables: `{name: variable}` as CheckpointWriter saves them.
      stored_name: `(name, variable) -> checkpoint key` (a partitioned variable's parts share one).
      slice_info: `variable -> its _save_slice_info or None`.
    """
    specs = {}
    for name, variable in variables.items():
        info = slice_info(variable)
        shape = tuple(info.full_shape) if info else tuple(variable.shape.as_list())
        key = stored_name(name, variable)
        specs.setdefault(key, (key, variable.dtype.base_dtype.name, shape,
                               bool(getattr(variable, "trainable", False))))
    return tuple(sorted(specs.values()))


def _attr(**values) -> dict:
    return {name: (value if isinstance(value, AttrValue) else _attr_value(value))
            for name, value in values.items()}


def _attr_value(value) -> AttrValue:
    if isinstance(value, tf.DType):
        return AttrValue(type=value.as_datatype_enum)
    if isinstance(value, bool):
        return AttrValue(b=value)
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, tf.TensorShape):
        return AttrValue(shape=value.as_proto())
    if isinstance(value, list):  # a list of dtypes
        return AttrValue(list=AttrValue.ListValue(type=[d.as_datatype_enum for d in value]))
    return AttrValue(tensor=value)  # a TensorProto


def _node(graph_def, name, op, inputs=(), **attrs) -> None:
    node = graph_def.node.add(name=name, op=op, input=list(inputs))
    for key, value in _attr(**attrs).items():
        node.attr[key].CopyFrom(value)


def _zero(dtype: tf.DType, shape: tuple) -> TensorProto:
    """Zeros of `shape`: a TensorProto with no values is zero-filled (tensor.cc's FromProto)."""
    return TensorProto(dtype=dtype.as_datatype_enum, tensor_shape=tf.TensorShape(shape).as_proto())


def _strings(values):
    return tf.make_tensor_proto([v.encode() for v in values], dtype=tf.string, shape=[len(values)])


def meta_graph_bytes(specs: tuple) -> bytes:
    """The serialized MetaGraphDef restoring `specs` (from `variable_specs`) by name.

    Written as protos (what `tf.compat.v1.Variable` + `Saver` + `export_meta_graph` would build
    in a graph, with every attribute spelled out), because building those ops took 13 s for 1500
    variables on this machine, once per train() call."""
    meta = tf1.MetaGraphDef()
    meta.meta_info_def.tensorflow_version = tf.version.VERSION
    graph_def = meta.graph_def
    graph_def.versions.producer = tf.version.GRAPH_DEF_VERSION
    collections = {"variables": [], "trainable_variables": [], "global_step": []}
    dtypes, keys = [], []
    for key, dtype_name, shape, trainable in specs:
        dtype = tf.as_dtype(dtype_name)
        _node(graph_def, key, "VariableV2", shape=tf.TensorShape(shape), dtype=dtype,
              container=b"", shared_name=b"")
        _node(graph_def, f"{key}/Initializer/zeros", "Const", value=_zero(dtype, shape), dtype=dtype)
        _node(graph_def, f"{key}/Assign", "Assign", [key, f"{key}/Initializer/zeros"], T=dtype,
              validate_shape=True, use_locking=True)
        _node(graph_def, f"{key}/read", "Identity", [key], T=dtype)
        definition = VariableDef(
            variable_name=f"{key}:0", initial_value_name=f"{key}/Initializer/zeros:0",
            initializer_name=f"{key}/Assign", snapshot_name=f"{key}/read:0",
            trainable=trainable).SerializeToString()
        collections["variables"].append(definition)
        if trainable:
            collections["trainable_variables"].append(definition)
        if key == "global_step":
            collections["global_step"].append(definition)
        dtypes.append(dtype)
        keys.append(key)
    string = tf.string
    _node(graph_def, "save/filename/input", "Const", value=tf.make_tensor_proto(b"model"), dtype=string)
    _node(graph_def, "save/Const", "PlaceholderWithDefault", ["save/filename/input"], dtype=string,
          shape=tf.TensorShape([]))
    for op in ("SaveV2", "RestoreV2"):
        _node(graph_def, f"save/{op}/tensor_names", "Const", value=_strings(keys), dtype=string)
        _node(graph_def, f"save/{op}/shape_and_slices", "Const", value=_strings([""] * len(keys)),
              dtype=string)
    _node(graph_def, "save/SaveV2", "SaveV2",
          ["save/Const", "save/SaveV2/tensor_names", "save/SaveV2/shape_and_slices", *keys],
          dtypes=dtypes)
    _node(graph_def, "save/control_dependency", "Identity", ["save/Const", "^save/SaveV2"], T=string)
    _node(graph_def, "save/RestoreV2", "RestoreV2",
          ["save/Const", "save/RestoreV2/tensor_names", "save/RestoreV2/shape_and_slices"],
          dtypes=dtypes)
    for index, (key, dtype) in enumerate(zip(keys, dtypes)):
        _node(graph_def, f"save/Assign_{index}", "Assign", [key, f"save/RestoreV2:{index}"], T=dtype,
              validate_shape=True, use_locking=True)
    _node(graph_def, "save/restore_all", "NoOp", [f"^save/Assign_{i}" for i in range(len(keys))])
    meta.saver_def.CopyFrom(tf1.train.SaverDef(
        filename_tensor_name="save/Const:0", save_tensor_name="save/control_dependency:0",
        restore_op_name="save/restore_all", max_to_keep=5, keep_checkpoint_every_n_hours=10000.0,
        version=tf1.train.SaverDef.V2))
    for name, values in collections.items():
        if values:
            meta.collection_def[name].bytes_list.value.extend(values)
    return meta.SerializeToString()


class MetaGraphWriter:
    """Writes `<prefix>.meta`; the MetaGraphDef is built once per set of variables."""

    def __init__(self):
        self._specs = None
        self._bytes = b""

    def write(self, prefix: str, specs: tuple) -> None:
        if specs != self._specs:
            self._bytes = meta_graph_bytes(specs)
            self._specs = specs
        with tf.io.gfile.GFile(prefix + ".meta", "wb") as handle:
            handle.write(self._bytes)
