"""The build pass: create every model variable once, eagerly, before the first trace.

model_fn runs once on placeholders of the per-replica shapes in a throwaway `tf.Graph`; the
variable cache records every request (name, initial value, dtype, aggregation...) and then
creates them all in cross-replica context under `strategy.scope()`. Afterwards each trace only
hits the cache: one trace per function, and no variable is ever created inside a replica thread
(MirroredStrategy cannot lift such initialisers; FEASIBILITY.md section 1, item 7).
"""

from __future__ import annotations

import tensorflow as tf


def _placeholder(spec: tf.TensorSpec, batch_size):
    shape = spec.shape.as_list() if spec.shape.rank is not None else None
    if shape and batch_size is not None:
        shape[0] = batch_size
    return tf.compat.v1.placeholder(spec.dtype, shape)


def build_variables(*, cache, model_function, mode, element_spec, has_labels, batch_size,
                    tf_random_seed=None) -> None:
    """Runs model_fn in `mode` on placeholders and creates the variables it asks for.

    Args:
      cache: the model's VariableCache.
      model_function: a model.ModelFunction.
      element_spec: `(features, labels)` spec of one input batch.
      batch_size: the per-replica batch size (placeholders' first dimension), or None.
    """
    features_spec, labels_spec = element_spec
    with tf.Graph().as_default() as graph:
        if tf_random_seed is not None:
            graph.seed = tf_random_seed
        features = tf.nest.map_structure(lambda s: _placeholder(s, batch_size), features_spec)
        labels = (tf.nest.map_structure(lambda s: _placeholder(s, batch_size), labels_spec)
                  if has_labels else None)
        with cache.recording() as recorded:
            tf.compat.v1.train.get_or_create_global_step()
            model_function(features, labels, mode, batch_size=batch_size)
    cache.create_recorded(recorded)
