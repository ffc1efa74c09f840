"""A Keras model's computation on new layers, built where it is called (model_to_estimator's clone).

TF 2.15's model_to_estimator cloned the model in the Estimator's graph (`clone_and_build_model` on
the feature tensors): the same layers by config, new weights. In the bridge model_fn runs in a
build graph and in traced functions, where rebuilding a Sequential or functional model (Keras
tensors, an InputLayer) is what fails (tf-keras' v1 layers on Keras tensors recurse without end);
so the clone here is the layers alone, each rebuilt from its config, and the model's layer graph
replayed on the real tensors: Sequential in order, functional node by node (tf-keras) or through
Keras 3's own graph runner. Weights are created by the layers' first call, inside model_fn, where
the bridge's variable cache names and keeps them.
"""

from __future__ import annotations

import tensorflow as tf


def _is_keras2(model) -> bool:
    return type(model).__module__.startswith("tf_keras")


def _takes_training(layer) -> bool:
    spec = getattr(layer, "_call_spec", None)
    if spec is not None and hasattr(spec, "expects_training_arg"):
        return spec.expects_training_arg
    return bool(getattr(layer, "_call_has_training_arg", False))


def _new_layer(layer):
    if getattr(layer, "layers", None) is not None and hasattr(layer, "inputs"):
        # a model used as a layer: its own layers, replayed
        return ClonedModel(layer)
    return type(layer).from_config(layer.get_config())


class ClonedModel:
    """New layers of `model` (by config) and its computation on them: `clone(inputs, training)`."""

    def __init__(self, model):
        self.model = model
        self.sequential = type(model).__name__ == "Sequential"
        self.layers = {id(layer): _new_layer(layer) for layer in model.layers
                       if type(layer).__name__ != "InputLayer"}

    def _call_layer(self, layer, args, kwargs, training):
        new = self.layers[id(layer)]
        if isinstance(new, ClonedModel):
            return new(args[0] if len(args) == 1 else list(args), training=training)
        kwargs = dict(kwargs)
        if _takes_training(layer) and kwargs.get("training") is None:
            kwargs["training"] = training
        return new(*args, **kwargs)

    def __call__(self, inputs, training=None):
        if self.sequential:
            outputs = inputs
            for layer in self.model.layers:
                if id(layer) in self.layers:
                    outputs = self._call_layer(layer, (outputs,), {}, training)
            return outputs
        if _is_keras2(self.model):
            return self._replay_keras2(inputs, training)
        return self.model._run_through_graph(  # Keras 3's runner, with our layers for its operations
            inputs, operation_fn=lambda operation: (
                lambda *args, **kwargs: self._call_layer(operation, args, kwargs, training)))

    def _replay_keras2(self, inputs, training):
        """tf-keras' functional graph, node by node, deepest first, on the new layers."""
        model = self.model
        values = {}
        for reference, value in zip(model.inputs, tf.nest.flatten(inputs)):
            values[str(id(reference))] = [value] * model._tensor_usage_count[str(id(reference))]
        for depth in sorted(model._nodes_by_depth, reverse=True):
            for node in model._nodes_by_depth[depth]:
                if node.is_input or any(i not in values for i in node.flat_input_ids):
                    continue
                args, kwargs = node.map_arguments(values)
                outputs = self._call_layer(node.layer, args, kwargs, training)
                for output_id, value in zip(node.flat_output_ids, tf.nest.flatten(outputs)):
                    values[output_id] = [value] * model._tensor_usage_count[output_id]
        return [values[str(id(reference))].pop() for reference in model.outputs]

    @property
    def weights(self):
        """The new layers' weights in the model's order (`model.weights`: layer by layer)."""
        weights = []
        for layer in self.model.layers:
            new = self.layers.get(id(layer))
            if new is not None:
                weights += list(new.weights)
        return weights

    @property
    def trainable_weights(self):
        trainable = []
        for layer in self.model.layers:
            new = self.layers.get(id(layer))
            if new is not None:
                trainable += list(new.trainable_weights)
        return trainable

    @property
    def losses(self):
        losses = []
        for new in self.layers.values():
            losses += list(new.losses)
        return losses
