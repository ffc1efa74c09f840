"""The build pass: create every model variable once, eagerly, before the first trace.

model_fn runs once on placeholders of the per-replica shapes (those the traced step sees) in a
throwaway `tf.Graph`; the variable cache records every request (name, initial value, dtype,
aggregation...) and then creates them all in cross-replica context under `strategy.scope()`.
Afterwards each trace only hits the cache: one trace per function, and no variable is ever created
inside a replica thread (MirroredStrategy cannot lift such initialisers; docs/architecture.md,
"Variables before the first trace").
"""

from __future__ import annotations

from typing import NamedTuple

import tensorflow as tf

from estimator_bridge.runtime import initial_values, loss_tag, scaffold_init


def _placeholder(spec: tf.TensorSpec):
    """A placeholder of exactly the shape the traced step will see (no batch size forced onto
    the first axis: features may be batch-last or have no batch axis, as TF 1.15 allowed)."""
    shape = spec.shape.as_list() if spec.shape.rank is not None else None
    return tf.compat.v1.placeholder(spec.dtype, shape)


class BuildResult(NamedTuple):
    """What the build pass of one mode leaves besides the variables.

    restore_names: `{variable name: checkpoint name}` of the mode's scaffold Saver (by the
      cache's names), or None: how this mode restores a checkpoint.
    warm_started: the initial values already include the warm starts (a scaffold's init_op ran
      after them, scaffold_init.py): they must not be applied again.
    loss_tag: the tag of the Estimator's own loss summary in TRAIN (`loss_1` where TF 1.15's graph
      made `loss` unique: loss_tag.py).
    graph: the build pass's graph, with model_fn's variables in their TF1 collections: hooks'
      `begin()` runs in it, as TF1 called begin() with the model's graph as the default graph
      (an EMA hook builds `variables_to_restore()` and a Saver there: hook_session.py).
    graph_variables: `((graph variable, cache name), ...)` of that graph.
    """

    restore_names: dict | None
    warm_started: bool
    loss_tag: str = "loss"
    graph: tf.Graph | None = None
    graph_variables: tuple = ()


def build_variables(*, cache, model_function, element_spec, has_labels,
                    tf_random_seed=None, warm_start_values=None, train=False) -> BuildResult:
    """Runs model_fn (in its bound mode) on placeholders and creates the variables it asks for.

    Args:
      cache: the model's VariableCache.
      model_function: a `calling.ModelFunction` (bound to the mode and params['batch_size']).
      element_spec: `(features, labels)` spec of what one replica's model_fn receives
        (inputs.per_replica_spec).
      tf_random_seed: RunConfig.tf_random_seed, the graph-level seed of the build graph (TF1
        set it on the graph model_fn built).
      warm_start_values: `({name: graph variable}) -> {name: value}` of the mode's warm starts
        (warm_start.values_of), read only when scaffold_fn returned an init_op/init_fn.
      train: the mode is TRAIN (the only one with the Estimator's loss summary).
    """
    features_spec, labels_spec = element_spec
    with tf.Graph().as_default() as graph:
        if tf_random_seed is not None:
            graph.seed = tf_random_seed
        features = tf.nest.map_structure(_placeholder, features_spec)
        labels = (tf.nest.map_structure(_placeholder, labels_spec)
                  if has_labels else None)
        with cache.recording() as recorded:
            tf.compat.v1.train.get_or_create_global_step()
            outputs = model_function(features, labels)
        # TF1 computed initial values in this graph (its init op): initial_values.py says why.
        values = initial_values.evaluate_in_graph(graph, cache.missing(recorded))
        scaffold = getattr(outputs, "session_init", None)
        if scaffold is not None:
            graph_variables = {key: variable for key, _, variable in recorded}
            starting = dict(values)
            if warm_start_values is not None:
                starting.update(warm_start_values(graph_variables))
            values = scaffold_init.run(scaffold, graph_variables, starting)
        tag = loss_tag.tf1_loss_tag(graph, getattr(outputs, "host_call", None)) if train else "loss"
    cache.create_recorded(recorded, values)
    restore_names = None
    if getattr(outputs, "restore_map", None):
        restore_names = {cache.name_of(variable): stored
                         for stored, variable in outputs.restore_map.items()}
    return BuildResult(restore_names, warm_started=scaffold is not None, loss_tag=tag, graph=graph,
                       graph_variables=tuple((variable, key) for key, _, variable in recorded))
