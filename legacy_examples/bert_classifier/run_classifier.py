# coding=utf-8
# Copyright 2018 The estimator-bridge Authors. Licensed under the Apache License, Version 2.0.
"""BERT-style fine-tuning of a tiny transformer classifier with TPUEstimator (TF 1.x).

The shape of BERT's run_classifier.py: features written to TFRecord files and read back with
`tf.contrib.data.map_and_batch`, a classifier head on the pooled output, AdamWeightDecay with
warmup and polynomial decay (optimization.py), the global step incremented by the train op,
warm start from a pre-trained checkpoint through `scaffold_fn` + `tf.train.init_from_checkpoint`,
`eval_metrics` with weighted accuracy and loss, and a predict pass written to a TSV file.

There is no download: the "pre-trained" checkpoint is written by this script first (a seeded
encoder saved with tf.train.Saver), and the sentence pairs are generated.

  python run_classifier.py --output_dir=/tmp/bert --use_tpu=false --num_train_steps=30
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections
import os

import numpy as np
import tensorflow as tf

import modeling
import optimization

flags = tf.flags

FLAGS = flags.FLAGS

## Required parameters
flags.DEFINE_string("data_dir", None, "Where the generated TFRecord files are written.")
flags.DEFINE_string("bert_config_file", None,
                    "The config json file of the pre-trained BERT model (written if missing).")
flags.DEFINE_string("output_dir", None,
                    "The output directory where the model checkpoints will be written.")

## Other parameters
flags.DEFINE_string("init_checkpoint", None,
                    "Initial checkpoint (usually from a pre-trained BERT model). When not "
                    "given, a pre-trained checkpoint is written first and used.")
flags.DEFINE_integer("max_seq_length", 8, "The maximum total input sequence length.")
flags.DEFINE_bool("do_train", True, "Whether to run training.")
flags.DEFINE_bool("do_eval", True, "Whether to run eval on the dev set.")
flags.DEFINE_bool("do_predict", True, "Whether to run the model in inference mode on the test set.")
flags.DEFINE_integer("train_batch_size", 8, "Total batch size for training.")
flags.DEFINE_integer("eval_batch_size", 8, "Total batch size for eval.")
flags.DEFINE_integer("predict_batch_size", 8, "Total batch size for predict.")
flags.DEFINE_float("learning_rate", 5e-3, "The initial learning rate for Adam.")
flags.DEFINE_integer("num_train_steps", 30, "Total number of training steps.")
flags.DEFINE_float("warmup_proportion", 0.1, "Proportion of training to perform linear warmup for.")
flags.DEFINE_float("hidden_dropout_prob", 0.1, "Dropout of the encoder and the classifier.")
flags.DEFINE_integer("num_train_examples", 64, "Generated training examples.")
flags.DEFINE_integer("num_eval_examples", 36, "Generated evaluation examples.")
flags.DEFINE_integer("num_predict_examples", 10, "Generated test examples.")
flags.DEFINE_integer("save_checkpoints_steps", 1000, "How often to save the model checkpoint.")
flags.DEFINE_integer("save_summary_steps", 1, "How often to write the loss summary.")
flags.DEFINE_integer("iterations_per_loop", 10, "How many steps to make in each estimator call.")
flags.DEFINE_integer("tf_random_seed", 12345, "Graph-level seed of the fine-tuning graphs.")
flags.DEFINE_bool("use_tpu", False, "Whether to use TPU or GPU/CPU.")
flags.DEFINE_string("tpu_name", None, "The Cloud TPU to use for training.")
flags.DEFINE_string("tpu_zone", None, "GCE zone where the Cloud TPU is located in.")
flags.DEFINE_string("gcp_project", None, "Project name for the Cloud TPU-enabled project.")
flags.DEFINE_string("master", None, "[Optional] TensorFlow master URL.")
flags.DEFINE_integer("num_tpu_cores", 8, "Only used if `use_tpu` is True.")

VOCAB_SIZE = 30
CLS_ID, SEP_ID, PAD_ID = 1, 2, 0
NUM_LABELS = 2


class InputFeatures(object):
  """A single set of features of data."""

  def __init__(self, input_ids, input_mask, segment_ids, label_id, is_real_example=True):
    self.input_ids = input_ids
    self.input_mask = input_mask
    self.segment_ids = segment_ids
    self.label_id = label_id
    self.is_real_example = is_real_example


def generate_features(num_examples, max_seq_length, seed):
  """Sentence pairs of random word ids; label 1 when the first sentence has more "positive"
  words (ids 3..12) than the second. Deterministic: numpy RandomState(seed)."""
  rng = np.random.RandomState(seed)
  features = []
  for _ in range(num_examples):
    len_a = rng.randint(1, 4)
    len_b = rng.randint(1, max_seq_length - 2 - len_a)
    tokens_a = rng.randint(3, VOCAB_SIZE, size=len_a).tolist()
    tokens_b = rng.randint(3, VOCAB_SIZE, size=len_b).tolist()
    input_ids = [CLS_ID] + tokens_a + [SEP_ID] + tokens_b + [SEP_ID]
    segment_ids = [0] * (len_a + 2) + [1] * (len_b + 1)
    input_mask = [1] * len(input_ids)
    while len(input_ids) < max_seq_length:
      input_ids.append(PAD_ID)
      input_mask.append(0)
      segment_ids.append(0)
    positive = lambda tokens: sum(1 for t in tokens if t < 13)
    label_id = int(positive(tokens_a) > positive(tokens_b))
    features.append(InputFeatures(input_ids, input_mask, segment_ids, label_id))
  return features


def file_based_convert_examples_to_features(features, output_file):
  """Writes InputFeatures to a TFRecord file."""
  writer = tf.python_io.TFRecordWriter(output_file)
  for feature in features:
    def create_int_feature(values):
      return tf.train.Feature(int64_list=tf.train.Int64List(value=list(values)))

    record = collections.OrderedDict()
    record["input_ids"] = create_int_feature(feature.input_ids)
    record["input_mask"] = create_int_feature(feature.input_mask)
    record["segment_ids"] = create_int_feature(feature.segment_ids)
    record["label_ids"] = create_int_feature([feature.label_id])
    record["is_real_example"] = create_int_feature([int(feature.is_real_example)])
    tf_example = tf.train.Example(features=tf.train.Features(feature=record))
    writer.write(tf_example.SerializeToString())
  writer.close()


def file_based_input_fn_builder(input_file, seq_length, is_training, drop_remainder):
  """Creates an `input_fn` closure to be passed to TPUEstimator."""
  name_to_features = {
      "input_ids": tf.FixedLenFeature([seq_length], tf.int64),
      "input_mask": tf.FixedLenFeature([seq_length], tf.int64),
      "segment_ids": tf.FixedLenFeature([seq_length], tf.int64),
      "label_ids": tf.FixedLenFeature([], tf.int64),
      "is_real_example": tf.FixedLenFeature([], tf.int64),
  }

  def _decode_record(record, name_to_features):
    """Decodes a record to a TensorFlow example."""
    example = tf.parse_single_example(record, name_to_features)
    # tf.Example only supports tf.int64, but the TPU only supports tf.int32.
    for name in list(example.keys()):
      t = example[name]
      if t.dtype == tf.int64:
        t = tf.to_int32(t)
      example[name] = t
    return example

  def input_fn(params):
    """The actual input function."""
    batch_size = params["batch_size"]

    d = tf.data.TFRecordDataset(input_file)
    if is_training:
      # BERT also shuffled here (`d.shuffle(buffer_size=100)`); an unseeded shuffle draws a
      # different order on every TensorFlow, so the records are written in a random order instead.
      d = d.repeat()

    d = d.apply(
        tf.contrib.data.map_and_batch(
            lambda record: _decode_record(record, name_to_features),
            batch_size=batch_size,
            drop_remainder=drop_remainder))
    return d

  return input_fn


def create_model(bert_config, is_training, input_ids, input_mask, segment_ids,
                 labels, num_labels, use_one_hot_embeddings):
  """Creates a classification model."""
  model = modeling.BertModel(
      config=bert_config,
      is_training=is_training,
      input_ids=input_ids,
      input_mask=input_mask,
      token_type_ids=segment_ids,
      use_one_hot_embeddings=use_one_hot_embeddings)

  output_layer = model.get_pooled_output()
  hidden_size = output_layer.shape[-1].value

  output_weights = tf.get_variable(
      "output_weights", [num_labels, hidden_size],
      initializer=tf.truncated_normal_initializer(stddev=0.02))
  output_bias = tf.get_variable(
      "output_bias", [num_labels], initializer=tf.zeros_initializer())

  with tf.variable_scope("loss"):
    if is_training and bert_config.hidden_dropout_prob > 0.0:
      output_layer = tf.nn.dropout(output_layer, keep_prob=1.0 - bert_config.hidden_dropout_prob)

    logits = tf.matmul(output_layer, output_weights, transpose_b=True)
    logits = tf.nn.bias_add(logits, output_bias)
    probabilities = tf.nn.softmax(logits, axis=-1)
    log_probs = tf.nn.log_softmax(logits, axis=-1)

    one_hot_labels = tf.one_hot(labels, depth=num_labels, dtype=tf.float32)
    per_example_loss = -tf.reduce_sum(one_hot_labels * log_probs, axis=-1)
    loss = tf.reduce_mean(per_example_loss)
    return (loss, per_example_loss, logits, probabilities)


def model_fn_builder(bert_config, num_labels, init_checkpoint, learning_rate,
                     num_train_steps, num_warmup_steps, use_tpu, use_one_hot_embeddings):
  """Returns `model_fn` closure for TPUEstimator."""

  def model_fn(features, labels, mode, params):  # pylint: disable=unused-argument
    """The `model_fn` for TPUEstimator."""
    tf.logging.info("*** Features ***")
    for name in sorted(features.keys()):
      tf.logging.info("  name = %s, shape = %s" % (name, features[name].shape))

    input_ids = features["input_ids"]
    input_mask = features["input_mask"]
    segment_ids = features["segment_ids"]
    label_ids = features["label_ids"]
    is_real_example = tf.cast(features["is_real_example"], dtype=tf.float32)

    is_training = (mode == tf.estimator.ModeKeys.TRAIN)

    (total_loss, per_example_loss, logits, probabilities) = create_model(
        bert_config, is_training, input_ids, input_mask, segment_ids, label_ids,
        num_labels, use_one_hot_embeddings)

    tvars = tf.trainable_variables()
    initialized_variable_names = {}
    scaffold_fn = None
    if init_checkpoint:
      (assignment_map, initialized_variable_names
      ) = modeling.get_assignment_map_from_checkpoint(tvars, init_checkpoint)

      def tpu_scaffold():
        tf.train.init_from_checkpoint(init_checkpoint, assignment_map)
        return tf.train.Scaffold()

      scaffold_fn = tpu_scaffold

    tf.logging.info("**** Trainable Variables ****")
    for var in tvars:
      init_string = ""
      if var.name in initialized_variable_names:
        init_string = ", *INIT_FROM_CKPT*"
      tf.logging.info("  name = %s, shape = %s%s", var.name, var.shape, init_string)

    output_spec = None
    if mode == tf.estimator.ModeKeys.TRAIN:
      train_op = optimization.create_optimizer(
          total_loss, learning_rate, num_train_steps, num_warmup_steps, use_tpu)
      output_spec = tf.contrib.tpu.TPUEstimatorSpec(
          mode=mode,
          loss=total_loss,
          train_op=train_op,
          scaffold_fn=scaffold_fn)
    elif mode == tf.estimator.ModeKeys.EVAL:

      def metric_fn(per_example_loss, label_ids, logits, is_real_example):
        predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
        accuracy = tf.metrics.accuracy(
            labels=label_ids, predictions=predictions, weights=is_real_example)
        loss = tf.metrics.mean(values=per_example_loss, weights=is_real_example)
        return {
            "eval_accuracy": accuracy,
            "eval_loss": loss,
        }

      eval_metrics = (metric_fn,
                      [per_example_loss, label_ids, logits, is_real_example])
      output_spec = tf.contrib.tpu.TPUEstimatorSpec(
          mode=mode,
          loss=total_loss,
          eval_metrics=eval_metrics,
          scaffold_fn=scaffold_fn)
    else:
      output_spec = tf.contrib.tpu.TPUEstimatorSpec(
          mode=mode,
          predictions={"probabilities": probabilities},
          scaffold_fn=scaffold_fn)
    return output_spec

  return model_fn


def write_pretrained_checkpoint(bert_config, path):
  """Stands in for the downloaded pre-trained BERT: a seeded encoder saved with Saver."""
  with tf.Graph().as_default():
    tf.set_random_seed(2018)
    input_ids = tf.placeholder(tf.int32, [None, FLAGS.max_seq_length])
    modeling.BertModel(config=bert_config, is_training=False, input_ids=input_ids)
    saver = tf.train.Saver()
    with tf.Session() as sess:
      sess.run(tf.global_variables_initializer())
      saver.save(sess, path)
  return path


def main(_):
  tf.logging.set_verbosity(tf.logging.INFO)

  if not FLAGS.do_train and not FLAGS.do_eval and not FLAGS.do_predict:
    raise ValueError(
        "At least one of `do_train`, `do_eval` or `do_predict' must be True.")

  tf.gfile.MakeDirs(FLAGS.output_dir)
  data_dir = FLAGS.data_dir or os.path.join(FLAGS.output_dir, "data")
  tf.gfile.MakeDirs(data_dir)

  bert_config_file = FLAGS.bert_config_file or os.path.join(data_dir, "bert_config.json")
  if not tf.gfile.Exists(bert_config_file):
    tiny = modeling.BertConfig(vocab_size=VOCAB_SIZE,
                               hidden_dropout_prob=FLAGS.hidden_dropout_prob,
                               attention_probs_dropout_prob=FLAGS.hidden_dropout_prob)
    with tf.gfile.GFile(bert_config_file, "w") as writer:
      writer.write(tiny.to_json_string())
  bert_config = modeling.BertConfig.from_json_file(bert_config_file)

  if FLAGS.max_seq_length > bert_config.max_position_embeddings:
    raise ValueError(
        "Cannot use sequence length %d because the BERT model "
        "was only trained up to sequence length %d" %
        (FLAGS.max_seq_length, bert_config.max_position_embeddings))

  init_checkpoint = FLAGS.init_checkpoint
  if init_checkpoint is None:
    init_checkpoint = write_pretrained_checkpoint(
        bert_config, os.path.join(data_dir, "pretrained", "bert_model.ckpt"))

  tpu_cluster_resolver = None
  if FLAGS.use_tpu and FLAGS.tpu_name:
    tpu_cluster_resolver = tf.contrib.cluster_resolver.TPUClusterResolver(
        FLAGS.tpu_name, zone=FLAGS.tpu_zone, project=FLAGS.gcp_project)

  is_per_host = tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2
  run_config = tf.contrib.tpu.RunConfig(
      cluster=tpu_cluster_resolver,
      master=FLAGS.master,
      model_dir=FLAGS.output_dir,
      save_checkpoints_steps=FLAGS.save_checkpoints_steps,
      save_summary_steps=FLAGS.save_summary_steps,
      tf_random_seed=FLAGS.tf_random_seed,
      tpu_config=tf.contrib.tpu.TPUConfig(
          iterations_per_loop=FLAGS.iterations_per_loop,
          num_shards=FLAGS.num_tpu_cores,
          per_host_input_for_training=is_per_host))

  num_train_steps = FLAGS.num_train_steps
  num_warmup_steps = int(num_train_steps * FLAGS.warmup_proportion)

  model_fn = model_fn_builder(
      bert_config=bert_config,
      num_labels=NUM_LABELS,
      init_checkpoint=init_checkpoint,
      learning_rate=FLAGS.learning_rate,
      num_train_steps=num_train_steps,
      num_warmup_steps=num_warmup_steps,
      use_tpu=FLAGS.use_tpu,
      use_one_hot_embeddings=FLAGS.use_tpu)

  # If TPU is not available, this will fall back to normal Estimator on CPU or GPU.
  estimator = tf.contrib.tpu.TPUEstimator(
      use_tpu=FLAGS.use_tpu,
      model_fn=model_fn,
      config=run_config,
      train_batch_size=FLAGS.train_batch_size,
      eval_batch_size=FLAGS.eval_batch_size,
      predict_batch_size=FLAGS.predict_batch_size)

  if FLAGS.do_train:
    train_file = os.path.join(data_dir, "train.tf_record")
    file_based_convert_examples_to_features(
        generate_features(FLAGS.num_train_examples, FLAGS.max_seq_length, seed=1), train_file)
    tf.logging.info("***** Running training *****")
    tf.logging.info("  Batch size = %d", FLAGS.train_batch_size)
    tf.logging.info("  Num steps = %d", num_train_steps)
    train_input_fn = file_based_input_fn_builder(
        input_file=train_file,
        seq_length=FLAGS.max_seq_length,
        is_training=True,
        drop_remainder=True)
    estimator.train(input_fn=train_input_fn, max_steps=num_train_steps)

  if FLAGS.do_eval:
    eval_file = os.path.join(data_dir, "eval.tf_record")
    eval_features = generate_features(FLAGS.num_eval_examples, FLAGS.max_seq_length, seed=2)
    file_based_convert_examples_to_features(eval_features, eval_file)

    # This tells the estimator to run through the entire set.
    eval_steps = None
    # However, if running eval on the TPU, you will need to specify the number of steps.
    if FLAGS.use_tpu:
      eval_steps = int(len(eval_features) // FLAGS.eval_batch_size)

    eval_drop_remainder = True if FLAGS.use_tpu else False
    eval_input_fn = file_based_input_fn_builder(
        input_file=eval_file,
        seq_length=FLAGS.max_seq_length,
        is_training=False,
        drop_remainder=eval_drop_remainder)

    result = estimator.evaluate(input_fn=eval_input_fn, steps=eval_steps)

    output_eval_file = os.path.join(FLAGS.output_dir, "eval_results.txt")
    with tf.gfile.GFile(output_eval_file, "w") as writer:
      tf.logging.info("***** Eval results *****")
      for key in sorted(result.keys()):
        tf.logging.info("  %s = %s", key, str(result[key]))
        writer.write("%s = %s\n" % (key, str(result[key])))

  if FLAGS.do_predict:
    predict_file = os.path.join(data_dir, "predict.tf_record")
    file_based_convert_examples_to_features(
        generate_features(FLAGS.num_predict_examples, FLAGS.max_seq_length, seed=3), predict_file)
    predict_drop_remainder = True if FLAGS.use_tpu else False
    predict_input_fn = file_based_input_fn_builder(
        input_file=predict_file,
        seq_length=FLAGS.max_seq_length,
        is_training=False,
        drop_remainder=predict_drop_remainder)

    result = estimator.predict(input_fn=predict_input_fn)

    output_predict_file = os.path.join(FLAGS.output_dir, "predictions.tsv")
    with tf.gfile.GFile(output_predict_file, "w") as writer:
      writer.write("\t".join("probabilities_%d" % i for i in range(NUM_LABELS)) + "\n")
      tf.logging.info("***** Predict results *****")
      for prediction in result:
        probabilities = prediction["probabilities"]
        writer.write("\t".join(str(class_probability)
                               for class_probability in probabilities) + "\n")


if __name__ == "__main__":
  flags.mark_flag_as_required("output_dir")
  tf.app.run()
