# coding=utf-8
# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""A BERT-style transformer encoder in TF1 graph style (tf.layers, get_variable, tf.contrib).

Structured like the 2018 BERT release (BertConfig, BertModel with embeddings / encoder /
pooler scopes, LayerNorm from tf.contrib.layers, an assignment map for warm starting from a
pre-trained checkpoint), but written here from scratch and small enough to train in seconds.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import copy
import json
import math
import re

import numpy as np
import six
import tensorflow as tf


class BertConfig(object):
  """Configuration for `BertModel`."""

  def __init__(self,
               vocab_size,
               hidden_size=16,
               num_hidden_layers=2,
               num_attention_heads=2,
               intermediate_size=32,
               hidden_act="gelu",
               hidden_dropout_prob=0.1,
               attention_probs_dropout_prob=0.1,
               max_position_embeddings=16,
               type_vocab_size=2,
               initializer_range=0.02):
    self.vocab_size = vocab_size
    self.hidden_size = hidden_size
    self.num_hidden_layers = num_hidden_layers
    self.num_attention_heads = num_attention_heads
    self.hidden_act = hidden_act
    self.intermediate_size = intermediate_size
    self.hidden_dropout_prob = hidden_dropout_prob
    self.attention_probs_dropout_prob = attention_probs_dropout_prob
    self.max_position_embeddings = max_position_embeddings
    self.type_vocab_size = type_vocab_size
    self.initializer_range = initializer_range

  @classmethod
  def from_dict(cls, json_object):
    config = BertConfig(vocab_size=None)
    for (key, value) in six.iteritems(json_object):
      config.__dict__[key] = value
    return config

  @classmethod
  def from_json_file(cls, json_file):
    with tf.gfile.GFile(json_file, "r") as reader:
      text = reader.read()
    return cls.from_dict(json.loads(text))

  def to_dict(self):
    return copy.deepcopy(self.__dict__)

  def to_json_string(self):
    return json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n"


class BertModel(object):
  """The encoder: embeddings, a stack of transformer layers and a pooled first token."""

  def __init__(self,
               config,
               is_training,
               input_ids,
               input_mask=None,
               token_type_ids=None,
               use_one_hot_embeddings=False,
               scope=None):
    config = copy.deepcopy(config)
    if not is_training:
      config.hidden_dropout_prob = 0.0
      config.attention_probs_dropout_prob = 0.0

    input_shape = get_shape_list(input_ids, expected_rank=2)
    batch_size = input_shape[0]
    seq_length = input_shape[1]

    if input_mask is None:
      input_mask = tf.ones(shape=[batch_size, seq_length], dtype=tf.int32)
    if token_type_ids is None:
      token_type_ids = tf.zeros(shape=[batch_size, seq_length], dtype=tf.int32)

    with tf.variable_scope(scope, default_name="bert"):
      with tf.variable_scope("embeddings"):
        (self.embedding_output, self.embedding_table) = embedding_lookup(
            input_ids=input_ids,
            vocab_size=config.vocab_size,
            embedding_size=config.hidden_size,
            initializer_range=config.initializer_range,
            word_embedding_name="word_embeddings",
            use_one_hot_embeddings=use_one_hot_embeddings)
        self.embedding_output = embedding_postprocessor(
            input_tensor=self.embedding_output,
            token_type_ids=token_type_ids,
            token_type_vocab_size=config.type_vocab_size,
            initializer_range=config.initializer_range,
            max_position_embeddings=config.max_position_embeddings,
            dropout_prob=config.hidden_dropout_prob)

      with tf.variable_scope("encoder"):
        attention_mask = create_attention_mask_from_input_mask(input_ids, input_mask)
        self.all_encoder_layers = transformer_model(
            input_tensor=self.embedding_output,
            attention_mask=attention_mask,
            config=config)

      self.sequence_output = self.all_encoder_layers[-1]
      with tf.variable_scope("pooler"):
        first_token_tensor = tf.squeeze(self.sequence_output[:, 0:1, :], axis=1)
        self.pooled_output = tf.layers.dense(
            first_token_tensor,
            config.hidden_size,
            activation=tf.tanh,
            kernel_initializer=create_initializer(config.initializer_range))

  def get_pooled_output(self):
    return self.pooled_output

  def get_sequence_output(self):
    return self.sequence_output


def gelu(x):
  """Gaussian Error Linear Unit, tanh approximation."""
  cdf = 0.5 * (1.0 + tf.tanh(
      (np.sqrt(2 / np.pi) * (x + 0.044715 * tf.pow(x, 3)))))
  return x * cdf


def get_activation(activation_string):
  if not isinstance(activation_string, six.string_types):
    return activation_string
  act = activation_string.lower()
  if act == "linear":
    return None
  if act == "relu":
    return tf.nn.relu
  if act == "gelu":
    return gelu
  if act == "tanh":
    return tf.tanh
  raise ValueError("Unsupported activation: %s" % act)


def get_assignment_map_from_checkpoint(tvars, init_checkpoint):
  """Maps checkpoint names to the current graph's variables that share them."""
  name_to_variable = collections.OrderedDict()
  for var in tvars:
    name = var.name
    m = re.match("^(.*):\\d+$", name)
    if m is not None:
      name = m.group(1)
    name_to_variable[name] = var

  assignment_map = collections.OrderedDict()
  initialized_variable_names = {}
  for (name, _) in tf.train.list_variables(init_checkpoint):
    if name not in name_to_variable:
      continue
    assignment_map[name] = name
    initialized_variable_names[name] = 1
    initialized_variable_names[name + ":0"] = 1
  return (assignment_map, initialized_variable_names)


def dropout(input_tensor, dropout_prob):
  if dropout_prob is None or dropout_prob == 0.0:
    return input_tensor
  return tf.nn.dropout(input_tensor, 1.0 - dropout_prob)


def layer_norm(input_tensor, name=None):
  """Normalises the last dimension (tf.contrib.layers.layer_norm, as BERT used it)."""
  return tf.contrib.layers.layer_norm(
      inputs=input_tensor, begin_norm_axis=-1, begin_params_axis=-1, scope=name)


def layer_norm_and_dropout(input_tensor, dropout_prob, name=None):
  output_tensor = layer_norm(input_tensor, name)
  return dropout(output_tensor, dropout_prob)


def create_initializer(initializer_range=0.02):
  return tf.truncated_normal_initializer(stddev=initializer_range)


def embedding_lookup(input_ids, vocab_size, embedding_size, initializer_range,
                     word_embedding_name, use_one_hot_embeddings):
  """Looks up word embeddings: a gather on CPU/GPU, a one-hot matmul on TPU."""
  if input_ids.shape.ndims == 2:
    input_ids = tf.expand_dims(input_ids, axis=[-1])

  embedding_table = tf.get_variable(
      name=word_embedding_name,
      shape=[vocab_size, embedding_size],
      initializer=create_initializer(initializer_range))

  flat_input_ids = tf.reshape(input_ids, [-1])
  if use_one_hot_embeddings:
    one_hot_input_ids = tf.one_hot(flat_input_ids, depth=vocab_size)
    output = tf.matmul(one_hot_input_ids, embedding_table)
  else:
    output = tf.gather(embedding_table, flat_input_ids)

  input_shape = get_shape_list(input_ids)
  output = tf.reshape(output, input_shape[0:-1] + [input_shape[-1] * embedding_size])
  return (output, embedding_table)


def embedding_postprocessor(input_tensor, token_type_ids, token_type_vocab_size,
                            initializer_range, max_position_embeddings, dropout_prob):
  """Adds token-type and position embeddings, then layer norm and dropout."""
  input_shape = get_shape_list(input_tensor, expected_rank=3)
  batch_size, seq_length, width = input_shape

  token_type_table = tf.get_variable(
      name="token_type_embeddings",
      shape=[token_type_vocab_size, width],
      initializer=create_initializer(initializer_range))
  flat_token_type_ids = tf.reshape(token_type_ids, [-1])
  one_hot_ids = tf.one_hot(flat_token_type_ids, depth=token_type_vocab_size)
  token_type_embeddings = tf.matmul(one_hot_ids, token_type_table)
  output = input_tensor + tf.reshape(token_type_embeddings, [batch_size, seq_length, width])

  assert_op = tf.assert_less_equal(seq_length, max_position_embeddings)
  with tf.control_dependencies([assert_op]):
    full_position_embeddings = tf.get_variable(
        name="position_embeddings",
        shape=[max_position_embeddings, width],
        initializer=create_initializer(initializer_range))
    position_embeddings = tf.slice(full_position_embeddings, [0, 0], [seq_length, -1])
    output += tf.reshape(position_embeddings, [1, seq_length, width])

  return layer_norm_and_dropout(output, dropout_prob)


def create_attention_mask_from_input_mask(from_tensor, to_mask):
  from_shape = get_shape_list(from_tensor, expected_rank=[2, 3])
  to_shape = get_shape_list(to_mask, expected_rank=2)
  to_mask = tf.cast(tf.reshape(to_mask, [from_shape[0], 1, to_shape[1]]), tf.float32)
  broadcast_ones = tf.ones(shape=[from_shape[0], from_shape[1], 1], dtype=tf.float32)
  return broadcast_ones * to_mask


def attention_layer(from_tensor, to_tensor, attention_mask, num_attention_heads,
                    size_per_head, attention_probs_dropout_prob, initializer_range,
                    batch_size, seq_length):
  """Multi-headed scaled dot-product self-attention on 2D [batch*seq, width] tensors."""

  def transpose_for_scores(input_tensor):
    output_tensor = tf.reshape(
        input_tensor, [batch_size, seq_length, num_attention_heads, size_per_head])
    return tf.transpose(output_tensor, [0, 2, 1, 3])

  width = num_attention_heads * size_per_head
  query_layer = tf.layers.dense(from_tensor, width, name="query",
                                kernel_initializer=create_initializer(initializer_range))
  key_layer = tf.layers.dense(to_tensor, width, name="key",
                              kernel_initializer=create_initializer(initializer_range))
  value_layer = tf.layers.dense(to_tensor, width, name="value",
                                kernel_initializer=create_initializer(initializer_range))

  query_layer = transpose_for_scores(query_layer)
  key_layer = transpose_for_scores(key_layer)
  attention_scores = tf.matmul(query_layer, key_layer, transpose_b=True)
  attention_scores = tf.multiply(attention_scores, 1.0 / math.sqrt(float(size_per_head)))

  if attention_mask is not None:
    attention_mask = tf.expand_dims(attention_mask, axis=[1])
    adder = (1.0 - tf.cast(attention_mask, tf.float32)) * -10000.0
    attention_scores += adder

  attention_probs = tf.nn.softmax(attention_scores)
  attention_probs = dropout(attention_probs, attention_probs_dropout_prob)

  value_layer = transpose_for_scores(value_layer)
  context_layer = tf.matmul(attention_probs, value_layer)
  context_layer = tf.transpose(context_layer, [0, 2, 1, 3])
  return tf.reshape(context_layer, [batch_size * seq_length, width])


def transformer_model(input_tensor, attention_mask, config):
  """The encoder stack; returns the output of every layer, [batch, seq, hidden] each."""
  hidden_size = config.hidden_size
  if hidden_size % config.num_attention_heads != 0:
    raise ValueError(
        "The hidden size (%d) is not a multiple of the number of attention "
        "heads (%d)" % (hidden_size, config.num_attention_heads))
  attention_head_size = int(hidden_size / config.num_attention_heads)
  intermediate_act_fn = get_activation(config.hidden_act)

  batch_size, seq_length, _ = get_shape_list(input_tensor, expected_rank=3)
  prev_output = tf.reshape(input_tensor, [-1, hidden_size])

  all_layer_outputs = []
  for layer_idx in range(config.num_hidden_layers):
    with tf.variable_scope("layer_%d" % layer_idx):
      layer_input = prev_output
      with tf.variable_scope("attention"):
        with tf.variable_scope("self"):
          attention_output = attention_layer(
              from_tensor=layer_input,
              to_tensor=layer_input,
              attention_mask=attention_mask,
              num_attention_heads=config.num_attention_heads,
              size_per_head=attention_head_size,
              attention_probs_dropout_prob=config.attention_probs_dropout_prob,
              initializer_range=config.initializer_range,
              batch_size=batch_size,
              seq_length=seq_length)
        with tf.variable_scope("output"):
          attention_output = tf.layers.dense(
              attention_output, hidden_size,
              kernel_initializer=create_initializer(config.initializer_range))
          attention_output = dropout(attention_output, config.hidden_dropout_prob)
          attention_output = layer_norm(attention_output + layer_input)

      with tf.variable_scope("intermediate"):
        intermediate_output = tf.layers.dense(
            attention_output, config.intermediate_size,
            activation=intermediate_act_fn,
            kernel_initializer=create_initializer(config.initializer_range))

      with tf.variable_scope("output"):
        layer_output = tf.layers.dense(
            intermediate_output, hidden_size,
            kernel_initializer=create_initializer(config.initializer_range))
        layer_output = dropout(layer_output, config.hidden_dropout_prob)
        layer_output = layer_norm(layer_output + attention_output)
        prev_output = layer_output
        all_layer_outputs.append(tf.reshape(layer_output, [batch_size, seq_length, hidden_size]))

  return all_layer_outputs


def get_shape_list(tensor, expected_rank=None):
  """Static dimensions where known, dynamic scalars elsewhere."""
  if expected_rank is not None:
    ranks = expected_rank if isinstance(expected_rank, list) else [expected_rank]
    if tensor.shape.ndims not in ranks:
      raise ValueError("Tensor %s has rank %d, expected %s" % (tensor.name, tensor.shape.ndims,
                                                               str(expected_rank)))
  shape = tensor.shape.as_list()
  non_static_indexes = [index for (index, dim) in enumerate(shape) if dim is None]
  if not non_static_indexes:
    return shape
  dyn_shape = tf.shape(tensor)
  for index in non_static_indexes:
    shape[index] = dyn_shape[index]
  return shape
