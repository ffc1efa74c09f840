"""TensorFlow internals TF1 programs imported that current TensorFlow keeps under another module.

Keys are canonical names; a module key moves every name below it (the rest of the path kept).
Only modules whose functions are the same generated ops on both sides, and private names whose
objects TF 2.x keeps under a public name, belong here.
"""

from migrate.tables.entries import Replacement

INTERNALS = {
    # TF 1.15's training_ops was `from tensorflow.python.training.gen_training_ops import *`, the
    # generated wrappers of the optimizers' Apply* kernels; TF 2.x generates them into
    # tensorflow.python.ops.gen_training_ops (same names and arguments). Custom optimizers
    # (LARS/LAMB on TPU, fastalgo/mnist_tpu) called them from _apply_dense/_resource_apply_dense.
    "tensorflow.python.training.training_ops": Replacement("tensorflow.python.ops.gen_training_ops",
                                                           module=True),
    # Private names TF 2.x keeps only under their public names (the same objects): tensorflow/benchmarks'
    # tf_cnn_benchmarks (variable_mgr_util.py, ssd_model.py), BERT-serving's graph.py freezing a graph.
    "tensorflow.python.framework.ops.Tensor": Replacement("tensorflow.Tensor"),
    "tensorflow.python.framework.ops.IndexedSlices": Replacement("tensorflow.IndexedSlices"),
    "tensorflow.python.framework.ops.register_tensor_conversion_function": Replacement(
        "tensorflow.register_tensor_conversion_function"),
    "tensorflow.python.ops.variables.VariableV1": Replacement("tensorflow.compat.v1.Variable"),
    "tensorflow.python.ops.control_flow_ops.while_loop": Replacement("tensorflow.compat.v1.while_loop"),
    "tensorflow.python.ops.control_flow_ops.cond": Replacement("tensorflow.compat.v1.cond"),
    "tensorflow.python.ops.array_ops.stack": Replacement("tensorflow.stack"),
    **{f"tensorflow.python.framework.graph_util.{name}": Replacement(f"tensorflow.compat.v1.graph_util.{name}")
       for name in ("convert_variables_to_constants", "extract_sub_graph", "remove_training_nodes")},
}
