"""A scaffold_fn that returns `Scaffold(init_op=...)` or `Scaffold(init_fn=...)` (issue 17).

google-research/simclr fine-tunes from a pre-trained checkpoint (`init_from_checkpoint` in
scaffold_fn) and with `--zero_init_logits_layer` returns `tf.train.Scaffold(init_op=init_op)`,
where init_op zeroes the new head under `control_dependencies([tf.global_variables_initializer()])`.
google-research/rigl returns `Scaffold(init_fn=init_fn)` whose init_fn runs a mask assigner in the
Session. TF1 ran both once, on a fresh model_dir, before the first step. This program pre-trains a
body, then fine-tunes it with a new head in another model_dir in one of three ways, and prints
the initial and trained variables, the evaluation and the predictions as one JSON line:

  --init=init_op   SimCLR's: warm-start the body, zero the head (and scale a body weight, which
                   shows that the checkpoint's values were loaded before init_op's assignments)
  --init=init_fn   rigl's: default initialisation, then init_fn(scaffold, session) runs a mask
  --init=none      no scaffold init (the reference for the warm start alone)
"""

import json

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go (two sub-folders).")
flags.DEFINE_string("init", "init_op", "init_op, init_fn or none.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(5).randn(64, 6).astype(np.float32)
LABELS = (FEATURES[:, 0] + FEATURES[:, 1] > 0).astype(np.int32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def predict_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(FEATURES[:4]).batch(params["batch_size"])


def body(features):
    with tf.variable_scope("body"):
        hidden = tf.layers.dense(features, 5, activation=tf.nn.relu, name="hidden",
                                 kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    return hidden


def pretrain_model_fn(features, labels, mode, params):
    hidden = body(features)
    with tf.variable_scope("head_pretrain"):
        logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=2))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.3).minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def finetune_model_fn(features, labels, mode, params):
    hidden = body(features)
    with tf.variable_scope("head_supervised"):
        logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=3),
                                 bias_initializer=tf.constant_initializer(0.25))
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.contrib.tpu.TPUEstimatorSpec(mode, predictions={"logits": logits})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = None
    if mode == tf.estimator.ModeKeys.TRAIN:
        train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_global_step())
    pretrained = params["pretrained"]

    def scaffold_fn():
        tf.train.init_from_checkpoint(pretrained, {
            v.op.name: v.op.name for v in tf.trainable_variables() if v.op.name.startswith("body/")})
        if FLAGS.init == "init_op":
            head = [v for v in tf.trainable_variables() if v.name.startswith("head_supervised")]
            kernel = [v for v in tf.trainable_variables() if v.op.name == "body/hidden/kernel"][0]
            with tf.control_dependencies([tf.global_variables_initializer()]):
                init_op = tf.group([tf.assign(v, tf.zeros_like(v)) for v in head]
                                   + [tf.assign(kernel, kernel.read_value() * 2.0)])
            return tf.train.Scaffold(init_op=init_op)
        if FLAGS.init == "init_fn":
            kernel = [v for v in tf.trainable_variables() if v.op.name == "body/hidden/kernel"][0]
            mask = tf.constant(np.tril(np.ones((6, 5), np.float32)))
            assigner = tf.assign(kernel, kernel * mask)

            def init_fn(scaffold, session):
                del scaffold
                session.run(assigner)
            return tf.train.Scaffold(init_fn=init_fn)
        return tf.train.Scaffold()

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]),
                                           scaffold_fn=scaffold_fn)


def estimator(model_fn, model_dir, params=None):
    config = tf.contrib.tpu.RunConfig(model_dir=model_dir,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1))
    return tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                       train_batch_size=8, eval_batch_size=8,
                                       predict_batch_size=4, params=params)


def variables(est, names):
    return {name: est.get_variable_value(name).tolist() for name in names}


NAMES = ["body/hidden/kernel", "body/hidden/bias", "head_supervised/dense/kernel",
         "head_supervised/dense/bias"]


def main(argv):
    del argv
    pretrain = estimator(pretrain_model_fn, FLAGS.model_dir + "/pretrain")
    pretrain.train(input_fn, max_steps=3)
    params = {"pretrained": pretrain.latest_checkpoint()}
    # Evaluation on a fresh model_dir: TF1 initialised it with the scaffold's init too.
    fresh = estimator(finetune_model_fn, FLAGS.model_dir + "/fresh_eval", params)
    fresh_eval = fresh.evaluate(input_fn, steps=1)
    finetune = estimator(finetune_model_fn, FLAGS.model_dir + "/finetune", params)
    finetune.train(input_fn, max_steps=1)
    after_one = variables(finetune, NAMES)
    finetune.train(input_fn, max_steps=4)  # resumes from the checkpoint: no init op again
    metrics = finetune.evaluate(input_fn, steps=2)
    predictions = [p["logits"].tolist() for p in finetune.predict(predict_input_fn)]
    print(json.dumps({
        "pretrained_kernel": pretrain.get_variable_value("body/hidden/kernel").tolist(),
        "fresh_eval_loss": float(fresh_eval["loss"]),
        "after_one_step": after_one,
        "trained": variables(finetune, NAMES),
        "eval_loss": float(metrics["loss"]),
        "eval_accuracy": float(metrics["accuracy"]),
        "predictions": predictions,
    }))


if __name__ == "__main__":
    tf.app.run()
