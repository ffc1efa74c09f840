"""TensorFlow internals TF1 programs imported that current TensorFlow keeps under another module.

Keys are canonical names; a module key moves every name below it (the rest of the path kept).
Only modules whose functions are the same generated ops on both sides belong here.
"""

from migrate.tables.entries import Replacement

INTERNALS = {
    # TF 1.15's training_ops was `from tensorflow.python.training.gen_training_ops import *`, the
    # generated wrappers of the optimizers' Apply* kernels; TF 2.x generates them into
    # tensorflow.python.ops.gen_training_ops (same names and arguments). Custom optimizers
    # (LARS/LAMB on TPU, fastalgo/mnist_tpu) called them from _apply_dense/_resource_apply_dense.
    "tensorflow.python.training.training_ops": Replacement("tensorflow.python.ops.gen_training_ops",
                                                           module=True),
}
