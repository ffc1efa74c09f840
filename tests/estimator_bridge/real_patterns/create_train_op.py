"""A model_fn whose train_op is tf.contrib.training.create_train_op (tensorflow/tpu's MNIST colab,
tensor2robot's AbstractT2RModel and MAMLModel).

Batch normalization in training mode puts its moving-average updates in UPDATE_OPS, which
create_train_op runs before the loss (the colab's comment: "create_train_op does it,
optimizer.minimize does not"); the gradients go through a transform_grads_fn that multiplies one
by its op name (multiply_gradients) and clips them all (clip_gradient_norms, small enough to
clip); summarize_gradients=True; variables_to_train leaves one bias out (tensor2robot's
filter_trainables_fn), so it must stay at its initial value. Spelled as real files did:
`tf.contrib.training.create_train_op`, `from tensorflow.contrib import training as
contrib_training` (--spelling=alias) and `from tensorflow.contrib.training import
create_train_op` (--spelling=from). TPUEstimator on the CPU path, 4 steps, evaluated after.
Prints one JSON line: the loss of every step (a training hook), what create_train_op returned and
collected, the gradient summaries it created, the eval loss and every checkpoint variable.
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.contrib import training as contrib_training
from tensorflow.contrib.training import create_train_op

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_string("spelling", "contrib", "contrib | alias | from")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(5).rand(32, 6).astype(np.float32)
LABELS = (FEATURES[:, :3].sum(axis=1) > 1.5).astype(np.int32)
STEP_LOSSES = []
BUILT = {}


class RecordLoss(tf.train.SessionRunHook):
    def __init__(self, loss):
        self._loss = loss

    def before_run(self, run_context):
        return tf.train.SessionRunArgs(self._loss)

    def after_run(self, run_context, run_values):
        STEP_LOSSES.append(float(run_values.results))


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def transform_grads(grads_and_vars):
    grads_and_vars = contrib_training.multiply_gradients(grads_and_vars, {"logits/kernel": 3.0})
    return tf.contrib.training.clip_gradient_norms(grads_and_vars, 0.05)


def model_fn(features, labels, mode, params):
    training = mode == tf.estimator.ModeKeys.TRAIN
    hidden = tf.layers.dense(features, 5, kernel_initializer=tf.glorot_uniform_initializer(seed=1),
                             name="hidden")
    hidden = tf.nn.relu(tf.layers.batch_normalization(hidden, momentum=0.8, training=training,
                                                      name="bn"))
    logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=2),
                             name="logits")
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = None
    hooks = []
    if training:
        optimizer = tf.train.MomentumOptimizer(0.5, 0.9)
        variables_to_train = [v for v in tf.trainable_variables() if v.op.name != "hidden/bias"]
        kwargs = dict(variables_to_train=variables_to_train, transform_grads_fn=transform_grads,
                      summarize_gradients=True)
        if FLAGS.spelling == "contrib":
            train_op = tf.contrib.training.create_train_op(loss, optimizer, **kwargs)
        elif FLAGS.spelling == "alias":
            train_op = contrib_training.create_train_op(loss, optimizer, update_ops=None, **kwargs)
        else:
            train_op = create_train_op(loss, optimizer, **kwargs)
        BUILT.setdefault("update_ops", len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)))
        BUILT.setdefault("train_op_is_a_tensor", isinstance(train_op, tf.Tensor))
        BUILT.setdefault("train_op_collected", any(
            op is train_op for op in tf.get_collection(tf.GraphKeys.TRAIN_OP)))
        BUILT.setdefault("gradient_summaries", sorted(
            op.name for op in tf.get_collection(tf.GraphKeys.SUMMARIES)
            if op.name.startswith("summarize_grads/")))
        hooks = [RecordLoss(loss)]

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           training_hooks=hooks,
                                           eval_metrics=(metric_fn, [labels, logits]))


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    metrics = estimator.evaluate(input_fn, steps=2)
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    print(json.dumps({
        "built": BUILT,
        "step_losses": STEP_LOSSES,
        "eval_loss": float(metrics["loss"]),
        "global_step": int(reader.get_tensor("global_step")),
        "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                      for name in sorted(reader.get_variable_to_shape_map())
                      if name != "global_step"},
    }))


if __name__ == "__main__":
    tf.app.run()
