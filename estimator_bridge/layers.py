"""TF1 `tf.layers` functions (removed with Keras 3), rebuilt on `tf.compat.v1.get_variable`.

Filled in by the bridge-layers work; until then this module exports nothing.
"""
