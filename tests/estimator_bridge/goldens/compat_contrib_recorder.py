"""Record what the tf.contrib helpers of the TF1 namespace compute (TF 1.15 vs the bridge's).

Flavours: ``tf115`` (oracle A, real tf.contrib) and ``bridge`` (current TF, the same code with
`tf = estimator_bridge.compat.tf1_namespace()`). Prints one JSON line; the golden beside this
file is recorded from two identical tf115 runs by ``python -m tests.estimator_bridge.goldens.record
compat_contrib``.
"""

import json
import sys

import numpy as np

FLAVOUR = sys.argv[1] if len(sys.argv) > 1 else "tf115"

if FLAVOUR == "tf115":
    import tensorflow as tf
elif FLAVOUR == "bridge":
    from estimator_bridge.compat import tf1_namespace

    tf = tf1_namespace()
else:
    raise SystemExit("unknown flavour %r: expected tf115 or bridge" % FLAVOUR)


def values(seed, *shape):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, size=shape).astype(np.float32)


def tolist(value):
    return np.asarray(value).astype(np.float64).tolist()


def record():
    results = {}
    with tf.Graph().as_default():
        tf.set_random_seed(42)
        weights = tf.constant(values(1, 3, 4))
        fetches = {
            "l2": tf.contrib.layers.l2_regularizer(0.1)(weights),
            "l1": tf.contrib.layers.l1_regularizer(0.05)(weights),
        }
        initialized = {
            "xavier_uniform": tf.get_variable(
                "xu", [5, 4], initializer=tf.contrib.layers.xavier_initializer(seed=3)),
            "xavier_normal": tf.get_variable(
                "xn", [5, 4], initializer=tf.contrib.layers.xavier_initializer(uniform=False,
                                                                              seed=4)),
            "msra_conv": tf.get_variable(
                "msra", [3, 3, 2, 4],
                initializer=tf.contrib.layers.variance_scaling_initializer(seed=5)),
            "fan_out_uniform": tf.get_variable(
                "fo", [6, 2], initializer=tf.contrib.layers.variance_scaling_initializer(
                    factor=1.0, mode="FAN_OUT", uniform=True, seed=6)),
        }
        inputs = tf.constant(values(2, 2, 3, 5) * 3.0 + 1.0)
        fetches["layer_norm_bert"] = tf.contrib.layers.layer_norm(
            inputs, begin_norm_axis=-1, begin_params_axis=-1)
        fetches["layer_norm_default"] = tf.contrib.layers.layer_norm(inputs)
        fetches["layer_norm_scoped"] = tf.contrib.layers.layer_norm(inputs, scope="ln",
                                                                    center=False)
        variable_names = [[v.name, v.shape.as_list()] for v in tf.global_variables()]
        model_variables = [v.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)]
        dataset = tf.data.Dataset.range(10).apply(tf.contrib.data.batch_and_drop_remainder(3))
        batch = tf.data.make_one_shot_iterator(dataset).get_next()
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            computed, init_values = session.run([fetches, initialized])
            batches = []
            try:
                while True:
                    batches.append(session.run(batch).tolist())
            except tf.errors.OutOfRangeError:
                pass
        results["values"] = {k: tolist(v) for k, v in computed.items()}
        results["initial_values"] = {k: tolist(v) for k, v in init_values.items()}
        results["variables"] = variable_names
        results["model_variables"] = model_variables
        results["batches"] = batches
        results["batch_static_shape"] = dataset.output_shapes.as_list() \
            if hasattr(dataset, "output_shapes") else None
    hparams = tf.contrib.training.HParams(learning_rate=0.1, layers=[64, 32], name="base",
                                          use_bn=True, steps=10)
    hparams.parse("learning_rate=0.5,layers=[8,4],use_bn=false,name=tuned")
    hparams.set_hparam("steps", 20)
    results["hparams"] = hparams.values()
    results["hparams_json"] = json.loads(hparams.to_json())
    return results


def main():
    results = {"tensorflow": tf.__version__, "flavour": FLAVOUR}
    results.update(record())
    print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
