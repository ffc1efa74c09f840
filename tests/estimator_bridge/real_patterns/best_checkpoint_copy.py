"""Keep the best checkpoint by copying its files, then open the copy as a TF1 graph.

google-research/albert's run_pretraining.py and run_classifier.py (2020) copy
`model.ckpt-N.{meta,data-00000-of-00001,index}` to `model.ckpt-best.*` with `tf.gfile.Copy` after
an evaluation improves; inference code opens a checkpoint with `tf.train.import_meta_graph` and
`Saver.restore`. TF 1.15's Estimator wrote the `.meta` with every checkpoint. Prints the model_dir's
files, the values restored from the copied checkpoint through its `.meta`, and an evaluation of it
as one JSON line.
"""

import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(3).randn(64, 6).astype(np.float32)
LABELS = (FEATURES[:, 0] > 0).astype(np.int32)
KERNEL = np.random.RandomState(4).uniform(-0.5, 0.5, (6, 2)).astype(np.float32)


def input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def model_fn(features, labels, mode, params):
    del params
    logits = tf.layers.dense(features, 2, kernel_initializer=tf.constant_initializer(KERNEL))
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        def metric_fn(labels, logits):
            return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, -1))}
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss,
                                               eval_metrics=(metric_fn, [labels, logits]))
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, tf.train.get_global_step())
    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(
        model_dir=FLAGS.model_dir, save_checkpoints_steps=2,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(
        model_fn=model_fn, config=config, use_tpu=False, train_batch_size=8, eval_batch_size=8)
    estimator.train(input_fn, max_steps=4)
    result = estimator.evaluate(input_fn, steps=2)
    checkpoint_path = estimator.latest_checkpoint()
    best = checkpoint_path.rsplit("-", 1)[0] + "-best"
    for ext in ["meta", "data-00000-of-00001", "index"]:  # albert/run_pretraining.py's loop
        tf.gfile.Copy(checkpoint_path + ".{}".format(ext), best + ".{}".format(ext), overwrite=True)

    with tf.Graph().as_default() as graph:
        saver = tf.train.import_meta_graph(best + ".meta")
        with tf.Session(graph=graph) as session:
            saver.restore(session, best)
            values = {v.op.name: session.run(v) for v in tf.global_variables()}
            restored = {name: values[name].tolist() for name in (
                "dense/kernel", "dense/bias", "dense/kernel/Adam", "dense/kernel/Adam_1")}
            restored["global_step"] = int(values["global_step"])
        names = sorted(values)
        trainable = sorted(v.op.name for v in tf.trainable_variables())
    reevaluated = estimator.evaluate(input_fn, steps=2, checkpoint_path=best, name="best")
    print(json.dumps({
        "meta_files": sorted(f for f in os.listdir(FLAGS.model_dir) if f.endswith(".meta")),
        "restored": restored,
        "global_variables": names,
        "trainable": trainable,
        "eval_loss": float(result["loss"]),
        "best_eval_loss": float(reevaluated["loss"]),
        "best_accuracy": float(reevaluated["accuracy"]),
    }))


if __name__ == "__main__":
    tf.app.run()
