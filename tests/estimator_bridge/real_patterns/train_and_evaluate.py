"""A TPUEstimator driven by tf.estimator.train_and_evaluate with exporters (issue 13).

The way many 2018-2020 repositories run training: TrainSpec(max_steps), EvalSpec(steps,
throttle_secs, exporters=[LatestExporter, FinalExporter, BestExporter]), then a second train()
with a CheckpointSaverListener that records every call it gets. Prints one JSON line: the
returned metrics and export results, the steps and losses of every evaluation (from the eval
event files), what each exporter left on disk, the listener's calls and the final variables.
"""

import glob
import json
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
flags.DEFINE_string("model_dir", None, "Where checkpoints go.")
flags.DEFINE_integer("throttle_secs", 0, "EvalSpec.throttle_secs.")
FLAGS = flags.FLAGS

FEATURES = np.random.RandomState(5).rand(64, 6).astype(np.float32)
LABELS = (FEATURES[:, :3].sum(axis=1) > 1.5).astype(np.int32)


def train_input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def eval_input_fn(params):
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES[:32], LABELS[:32]))
    return dataset.batch(params["batch_size"], drop_remainder=True)


def serving_input_receiver_fn():
    features = tf.placeholder(tf.float32, [None, 6], name="features")
    return tf.estimator.export.TensorServingInputReceiver(features, {"features": features})


def model_fn(features, labels, mode, params):
    hidden = tf.layers.dense(features, 8, activation=tf.nn.relu,
                             kernel_initializer=tf.glorot_uniform_initializer(seed=1))
    logits = tf.layers.dense(hidden, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=2))
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, predictions={"logits": logits})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    train_op = optimizer.minimize(loss, tf.train.get_global_step())

    def metric_fn(labels, logits):
        return {"accuracy": tf.metrics.accuracy(labels, tf.argmax(logits, 1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                           eval_metrics=(metric_fn, [labels, logits]))


class Recorder(tf.train.CheckpointSaverListener):
    def __init__(self):
        self.calls = []

    def begin(self):
        self.calls.append(["begin"])

    def before_save(self, session, global_step_value):
        self.calls.append(["before_save", int(global_step_value)])

    def after_save(self, session, global_step_value):
        self.calls.append(["after_save", int(global_step_value)])

    def end(self, session, global_step_value):
        self.calls.append(["end", int(global_step_value)])


def eval_events(model_dir):
    events = []
    for path in sorted(glob.glob(os.path.join(model_dir, "eval", "*.tfevents.*"))):
        for event in tf.train.summary_iterator(path):
            values = {v.tag: float(v.simple_value) for v in event.summary.value
                      if v.HasField("simple_value")}
            if values:
                events.append([int(event.step), values.get("loss"), values.get("accuracy")])
    return sorted(events)


def exports(model_dir, name):
    return len([d for d in glob.glob(os.path.join(model_dir, "export", name, "*"))
                if os.path.basename(d).isdigit()])


def main(argv):
    del argv
    config = tf.contrib.tpu.RunConfig(model_dir=FLAGS.model_dir, save_checkpoints_steps=4,
                                      tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
    estimator = tf.contrib.tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=False,
                                            train_batch_size=8, eval_batch_size=8,
                                            predict_batch_size=8, export_to_tpu=False)
    exporters = [
        tf.estimator.LatestExporter("latest", serving_input_receiver_fn, exports_to_keep=2),
        tf.estimator.FinalExporter("final", serving_input_receiver_fn),
        tf.estimator.BestExporter(name="best", serving_input_receiver_fn=serving_input_receiver_fn),
    ]
    train_spec = tf.estimator.TrainSpec(input_fn=train_input_fn, max_steps=12)
    eval_spec = tf.estimator.EvalSpec(input_fn=eval_input_fn, steps=3, exporters=exporters,
                                      throttle_secs=FLAGS.throttle_secs, start_delay_secs=0)
    metrics, export_results = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    recorder = Recorder()
    estimator.train(train_input_fn, max_steps=18, saving_listeners=[recorder])
    reader = tf.train.load_checkpoint(FLAGS.model_dir)
    print(json.dumps({
        "metrics": {key: float(value) for key, value in sorted(metrics.items())},
        "exported": [result is not None for result in export_results],
        "eval_events": eval_events(FLAGS.model_dir),
        "exports_on_disk": {name: exports(FLAGS.model_dir, name)
                            for name in ("latest", "final", "best")},
        "listener_calls": recorder.calls,
        "variables": {name: np.asarray(reader.get_tensor(name)).astype(np.float64).tolist()
                      for name in sorted(reader.get_variable_to_shape_map())
                      if name != "global_step"},
    }))


if __name__ == "__main__":
    tf.app.run()
