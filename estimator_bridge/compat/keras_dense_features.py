"""`DenseFeatures` for Keras 3: TensorFlow's feature columns as the first layer of a Keras 3 model.

TF 1.13 wrote it `feature_column_v2.FeatureLayer`, TF 1.14-2.15 `tf.keras.layers.DenseFeatures`;
Keras 3 has none (tf-keras keeps it, for Keras 2 models only), so a Keras 3 copy of a program that
fed `dict` features through feature columns (training-data-analyst's Taxifare notebooks: bucketized,
crossed, embedding and indicator columns before Dense layers) stopped at an AttributeError. The
columns themselves are TensorFlow's (`tf.feature_column`), which TF 2.21 still has; this layer only
gives their state (embedding tables) to Keras 3 as the layer's weights, built in the columns'
order with the columns' own initializers, and concatenates each column's dense tensor, flattened
per example, as DenseFeatures did. Weights keep the columns' variable names (`embedding_weights`).
"""

from __future__ import annotations

import keras
import tensorflow as tf
from tensorflow.python.feature_column import feature_column_v2 as _fc


class _LayerWeights(_fc.StateManager):
    """The columns' variables as weights of a Keras 3 layer (Keras 3's add_weight has no use_resource)."""

    def __init__(self, layer):
        self._layer = layer
        self._variables = {}
        self._resources = {}

    def create_variable(self, feature_column, name, shape, dtype=None, trainable=True, use_resource=True,
                        initializer=None):
        del use_resource  # Keras 3's TensorFlow variables are resource variables
        owned = self._variables.setdefault(feature_column, {})
        if name in owned:
            raise ValueError("Variable already exists.")
        weight = self._layer.add_weight(name=name, shape=tuple(shape), dtype=dtype or "float32",
                                        initializer=initializer, trainable=self._layer.trainable and trainable)
        owned[name] = weight
        return weight

    def get_variable(self, feature_column, name):
        return self._variables[feature_column][name].value

    def add_resource(self, feature_column, resource_name, resource):
        """A vocabulary column's lookup table, made at its first call and kept for every later one."""
        self._resources.setdefault(feature_column, {})[resource_name] = resource

    def has_resource(self, feature_column, resource_name):
        return resource_name in self._resources.get(feature_column, {})

    def get_resource(self, feature_column, resource_name):
        return self._resources[feature_column][resource_name]


class DenseFeatures(keras.layers.Layer):
    """`tf.keras.layers.DenseFeatures(feature_columns)` of Keras 2 as a Keras 3 layer (module docstring).

    Called on a dict of feature tensors; returns (batch, sum of the columns' sizes) float32. Columns
    are sorted by name, as TF's feature-column layers sorted them."""

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        columns = list(feature_columns.values() if isinstance(feature_columns, dict) else feature_columns)
        for column in columns:
            if not isinstance(column, _fc.DenseColumn):
                raise ValueError("Items of feature_columns must be a DenseColumn (wrap a categorical column "
                                 f"in an embedding_column or indicator_column). Given: {column}")
        self._columns = sorted(columns, key=lambda column: column.name)
        self._weights = _LayerWeights(self)

    def build(self, input_shape=None):
        for column in self._columns:
            column.create_state(self._weights)
        self.built = True

    def call(self, features, training=None):
        if not isinstance(features, dict):
            raise ValueError(f"DenseFeatures takes a dict of features; got {type(features).__name__}")
        cache = _fc.FeatureTransformationCache(features)
        outputs = []
        for column in self._columns:
            try:
                tensor = column.get_dense_tensor(cache, self._weights, training=training)
            except TypeError:
                tensor = column.get_dense_tensor(cache, self._weights)
            size = column.variable_shape.num_elements()
            outputs.append(tf.reshape(tensor, (tf.shape(tensor)[0], size)))
        return tf.concat(outputs, axis=1)

    def compute_output_shape(self, input_shape):
        first = next(iter(input_shape.values())) if isinstance(input_shape, dict) else input_shape
        batch = first[0] if first else None
        return (batch, sum(column.variable_shape.num_elements() for column in self._columns))
