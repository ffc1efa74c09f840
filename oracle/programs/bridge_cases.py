"""Regression cases of the bridge core, one program for TF 1.15 and for estimator_bridge.

Each case is a TPUEstimator program written once; only the API module differs:
  * ``tf115``  : TF 1.15, ``tf.contrib.tpu.TPUEstimator(use_tpu=False)`` (oracle A);
  * ``bridge`` : current TensorFlow through ``estimator_bridge`` (``--replicas R`` emulates R TPU
    cores: use_tpu=True, TPUConfig(num_shards=R), same global batch).

Per-step losses are read from the `loss` summaries in model_dir (save_summary_steps=1; see
tests/support/events.py), never from hooks, so both flavours are measured the same way. Cases with
random initialisers start from `--init-dir`, a folder holding a TF1-written `model.ckpt-0`
(docs/architecture.md, "Goldens come from deterministic programs"): the bridge then starts from TF
1.15's exact weights.

Usage: python bridge_cases.py FLAVOUR CASE MODEL_DIR [--init-dir DIR] [--replicas R]
Prints one JSON line. Must run on CPython 3.7 + TF 1.15 and on CPython 3.11 + TF 2.21.
"""

import argparse
import glob
import json
import os
import shutil
import sys

import numpy as np

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if REPO_ROOT not in sys.path:
    sys.path.insert(0, REPO_ROOT)

from tests.support.events import read_scalars  # noqa: E402

CASES = ("gd", "momentum", "adam", "bert_optimizer", "update_ops", "resume", "conv_bn")
FEATURES = np.random.RandomState(0).randn(256, 8).astype(np.float32)
LABELS = ((FEATURES[:, 0] > 0).astype(np.int32) + (FEATURES[:, 1] > 1).astype(np.int32)).astype(np.int32)
TRAIN_BATCH, EVAL_BATCH = 32, 32


class Api(object):
    """The TensorFlow names a case uses, bound to one flavour."""

    def __init__(self, flavour):
        import tensorflow as tf
        self.flavour = flavour
        if flavour == "tf115":
            tf.logging.set_verbosity(tf.logging.ERROR)
            self.tf1 = tf
            self.tpu = tf.contrib.tpu
            self.mode_keys = tf.estimator.ModeKeys
            self.layers = tf.layers
        elif flavour == "bridge":
            import estimator_bridge
            self.tf1 = tf.compat.v1
            self.tpu = estimator_bridge
            self.mode_keys = estimator_bridge.ModeKeys
            self.layers = estimator_bridge.layers
        else:
            raise SystemExit("unknown flavour %r: expected tf115 or bridge" % flavour)
        self.tf = tf


def dense(tf1, inputs, units, name, kernel_initializer=None, activation=None):
    """tf.layers.dense's variables and arithmetic, on get_variable (same on every flavour)."""
    with tf1.variable_scope(name):
        kernel = tf1.get_variable("kernel", [int(inputs.shape[-1]), units],
                                  initializer=kernel_initializer)
        bias = tf1.get_variable("bias", [units], initializer=tf1.zeros_initializer())
    outputs = tf1.nn.bias_add(tf1.matmul(inputs, kernel), bias)
    return activation(outputs) if activation is not None else outputs


def make_bert_style_optimizer(tf1):
    """BERT's AdamWeightDecayOptimizer pattern: apply_gradients written by hand, no global_step."""

    class AdamWeightDecay(tf1.train.Optimizer):
        def __init__(self, learning_rate, weight_decay_rate=0.01, beta_1=0.9, beta_2=0.999,
                     epsilon=1e-6, name="AdamWeightDecay"):
            super(AdamWeightDecay, self).__init__(False, name)
            self.learning_rate = learning_rate
            self.weight_decay_rate = weight_decay_rate
            self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon

        def apply_gradients(self, grads_and_vars, global_step=None, name=None):
            assignments = []
            for grad, param in grads_and_vars:
                param_name = param.name.split(":")[0]
                m = tf1.get_variable(param_name + "/adam_m", shape=param.shape.as_list(),
                                     dtype=tf1.float32, trainable=False,
                                     initializer=tf1.zeros_initializer())
                v = tf1.get_variable(param_name + "/adam_v", shape=param.shape.as_list(),
                                     dtype=tf1.float32, trainable=False,
                                     initializer=tf1.zeros_initializer())
                next_m = self.beta_1 * m + (1.0 - self.beta_1) * grad
                next_v = self.beta_2 * v + (1.0 - self.beta_2) * tf1.square(grad)
                update = next_m / (tf1.sqrt(next_v) + self.epsilon)
                if "bias" not in param_name:
                    update += self.weight_decay_rate * param
                next_param = param - self.learning_rate * update
                assignments.extend([param.assign(next_param), m.assign(next_m), v.assign(next_v)])
            return tf1.group(*assignments, name=name)

    return AdamWeightDecay


def build_model_fn(api, case, use_tpu):
    tf1, tpu, mode_keys = api.tf1, api.tpu, api.mode_keys
    constant_init = case == "gd"

    def metric_fn(labels, logits, per_example_loss):
        predictions = tf1.argmax(logits, 1)
        return {"accuracy": tf1.metrics.accuracy(labels, predictions),
                "mean_example_loss": tf1.metrics.mean(per_example_loss)}

    def model_fn(features, labels, mode, params):
        if case == "conv_bn":
            # tf.layers conv2d + batch_normalization (moving statistics through UPDATE_OPS):
            # the 8 features as a 2x2 image with 2 channels.
            images = tf1.reshape(features, [-1, 2, 2, 2])
            conv = api.layers.conv2d(images, 4, 2, padding="same")
            normed = api.layers.batch_normalization(conv, training=mode == mode_keys.TRAIN,
                                                    momentum=0.9)
            features = api.layers.flatten(tf1.nn.relu(normed))
        hidden = dense(tf1, features, 16, "dense", activation=tf1.nn.relu,
                       kernel_initializer=tf1.constant_initializer(0.01) if constant_init else None)
        if case == "update_ops":
            moving_mean = tf1.get_variable("centering/moving_mean", [16], trainable=False,
                                           initializer=tf1.zeros_initializer())
            if mode == mode_keys.TRAIN:
                batch_mean = tf1.reduce_mean(hidden, axis=0)
                update = tf1.assign(moving_mean, moving_mean * 0.9 + batch_mean * 0.1)
                tf1.add_to_collection(tf1.GraphKeys.UPDATE_OPS, update)
                hidden = hidden - batch_mean
            else:
                hidden = hidden - moving_mean
        logits = dense(tf1, hidden, 3, "dense_1",
                       kernel_initializer=tf1.constant_initializer(0.02) if constant_init else None)
        per_example_loss = tf1.nn.sparse_softmax_cross_entropy_with_logits(labels=labels,
                                                                           logits=logits)
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        train_op = None
        if mode == mode_keys.TRAIN:
            global_step = tf1.train.get_global_step()
            if case in ("gd", "update_ops", "conv_bn"):
                optimizer = tf1.train.GradientDescentOptimizer(0.1)
            elif case == "momentum":
                learning_rate = tf1.train.exponential_decay(0.05, global_step, 20, 0.5,
                                                            staircase=True)
                optimizer = tf1.train.MomentumOptimizer(learning_rate, 0.9)
            elif case == "bert_optimizer":
                warmup, total = 10, 100
                step = tf1.cast(global_step, tf1.float32)
                decayed = tf1.train.polynomial_decay(0.01, global_step, total, end_learning_rate=0.0)
                learning_rate = tf1.where(step < warmup, 0.01 * step / warmup, decayed)
                optimizer = make_bert_style_optimizer(tf1)(learning_rate)
            else:
                optimizer = tf1.train.AdamOptimizer(0.01)
            if params["use_tpu"]:
                optimizer = tpu.CrossShardOptimizer(optimizer)
            if case == "bert_optimizer":
                # BERT computed tf.gradients(loss) and clipped them at norm 1.0; on R TPU cores
                # that sums R locally clipped gradients, which is not the 1-core program.
                # compute_gradients (loss/R under CrossShardOptimizer) and a clip norm the run
                # never reaches keep R replicas equal to one core, so 8 replicas can be compared.
                tvars = tf1.trainable_variables()
                grads = [grad for grad, _ in optimizer.compute_gradients(loss, tvars)]
                grads, _ = tf1.clip_by_global_norm(grads, clip_norm=5.0)
                apply_op = optimizer.apply_gradients(list(zip(grads, tvars)), global_step=global_step)
                # BERT grouped the increment with the train op, unordered (a race in a TF1
                # graph, docs/architecture.md); ordered here so that the golden is deterministic.
                with tf1.control_dependencies([apply_op]):
                    train_op = global_step.assign(global_step + 1)
            else:
                with tf1.control_dependencies(tf1.get_collection(tf1.GraphKeys.UPDATE_OPS)):
                    train_op = optimizer.minimize(loss, global_step)
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                    eval_metrics=(metric_fn, {"labels": labels, "logits": logits,
                                                              "per_example_loss": per_example_loss}))

    return model_fn


def train_input_fn(params):
    import tensorflow as tf
    dataset = tf.data.Dataset.from_tensor_slices((FEATURES, LABELS))
    return dataset.repeat().batch(params["batch_size"], drop_remainder=True)


def finite_eval_input_fn(params):
    """256 rows in batches of 48 without drop_remainder: 5 full batches and one of 16."""
    import tensorflow as tf
    return tf.data.Dataset.from_tensor_slices((FEATURES, LABELS)).batch(48)


def make_estimator(api, case, model_dir, replicas):
    tpu = api.tpu
    # (iterations_per_loop, save_checkpoints_steps, keep_checkpoint_max)
    settings = {"gd": (10, 1000, 5), "momentum": (7, 30, 2), "adam": (10, 40, 5),
                "bert_optimizer": (10, 1000, 5), "update_ops": (10, 1000, 5),
                "resume": (10, 20, 5), "conv_bn": (10, 50, 5)}
    iterations_per_loop, checkpoint_steps, keep = settings[case]
    tpu_config = tpu.TPUConfig(iterations_per_loop=iterations_per_loop,
                               num_shards=replicas if replicas else None)
    config = tpu.RunConfig(model_dir=model_dir, save_summary_steps=1,
                           save_checkpoints_steps=checkpoint_steps, keep_checkpoint_max=keep,
                           tpu_config=tpu_config)
    return tpu.TPUEstimator(model_fn=build_model_fn(api, case, use_tpu=bool(replicas)),
                            config=config, use_tpu=bool(replicas), train_batch_size=TRAIN_BATCH,
                            eval_batch_size=EVAL_BATCH)


def write_initial_checkpoint(flavour, case, model_dir):
    """Trains one step so that model_dir holds the case's `model.ckpt-0` (random initial weights)."""
    api = Api(flavour)
    make_estimator(api, case, model_dir, 0).train(train_input_fn, max_steps=1)
    return {"tensorflow": api.tf.__version__,
            "initial_checkpoint": sorted(glob.glob(os.path.join(model_dir, "model.ckpt-0.*")))}


def run(flavour, case, model_dir, init_dir=None, replicas=0):
    """Runs one case; returns its numbers as a JSON-able dict."""
    api = Api(flavour)
    if init_dir:
        if not os.path.isdir(model_dir):
            os.makedirs(model_dir)
        for path in glob.glob(os.path.join(init_dir, "model.ckpt-0.*")):
            shutil.copy(path, model_dir)
        with open(os.path.join(model_dir, "checkpoint"), "w") as state:
            state.write('model_checkpoint_path: "model.ckpt-0"\n'
                        'all_model_checkpoint_paths: "model.ckpt-0"\n')
    estimator = make_estimator(api, case, model_dir, replicas)
    if case == "resume":
        estimator.train(train_input_fn, max_steps=50)
        estimator = make_estimator(api, case, model_dir, replicas)
    estimator.train(train_input_fn, max_steps=100)
    metrics = estimator.evaluate(train_input_fn, steps=4)
    result = {
        "tensorflow": api.tf.__version__,
        "train_loss": {str(k): v for k, v in sorted(read_scalars(model_dir, "loss").items())},
        "eval": {k: float(v) for k, v in metrics.items() if k != "global_step"},
        "global_step": int(metrics["global_step"]),
        "checkpoints": sorted(os.path.basename(p)[:-len(".index")]
                              for p in glob.glob(os.path.join(model_dir, "model.ckpt-*.index"))),
        "eval_summaries": {str(k): v for k, v in
                           read_scalars(os.path.join(model_dir, "eval"), "accuracy").items()},
    }
    reader = api.tf.train.load_checkpoint(model_dir)
    result["final_weights"] = {name: reader.get_tensor(name).astype(float).ravel().tolist()
                               for name in ("dense/kernel", "dense_1/kernel", "dense_1/bias")}
    if not replicas:
        full = estimator.evaluate(finite_eval_input_fn, steps=None)
        result["eval_to_end"] = {k: float(v) for k, v in full.items() if k != "global_step"}
    return result


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("flavour", choices=("tf115", "bridge"))
    parser.add_argument("case", choices=CASES)
    parser.add_argument("model_dir")
    parser.add_argument("--init-dir")
    parser.add_argument("--replicas", type=int, default=0)
    parser.add_argument("--init-only", action="store_true",
                        help="only write the case's model.ckpt-0 into MODEL_DIR")
    args = parser.parse_args(argv)
    if args.init_only:
        print(json.dumps(write_initial_checkpoint(args.flavour, args.case, args.model_dir)))
        return
    if args.flavour == "bridge" and args.replicas > 1:
        import estimator_bridge
        estimator_bridge.configure_logical_cpus(args.replicas)
    print(json.dumps(run(args.flavour, args.case, args.model_dir, args.init_dir, args.replicas)))


if __name__ == "__main__":
    main(sys.argv[1:])
