"""One training workload per process, timed from the inside; prints one JSON line.

Usage: python -m bench.core_workloads IMPL --replicas R --steps-per-loop K --steps N

IMPL is one of:
  bridge       estimator_bridge.TPUEstimator running the legacy probe model_fn (what we ship);
  tf2_loop     a hand-written TF2 custom loop: `strategy.run` inside one `tf.function`
               running K steps per call (`tf.range` over a distributed iterator), the model
               written in TF2 style (tf.Variable, GradientTape, explicit all-reduce);
  keras_fit    Keras 3 `model.fit` with `compile(steps_per_execution=K)`.

Each process measures (a) the first call: wall time from the start of training until the first
loop has finished (tracing + first execution), and (b) steady state: steps/s over the steps after
a warm-up. Peak memory is the process's maximum resident set size. Separate processes keep the
numbers independent of each other (no shared caches, no leftover graphs).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time

WARMUP_FRACTION = 0.2


def configure_devices(num_replicas: int):
    import tensorflow as tf

    if num_replicas > 1:
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration()] * num_replicas)
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(num_replicas)])
    return tf.distribute.OneDeviceStrategy("/cpu:0")


class StepClock:
    """Records wall time at loop boundaries: first loop end, warm-up end, last step."""

    def __init__(self, total_steps: int):
        self.total_steps = total_steps
        self.warmup_steps = max(1, int(total_steps * WARMUP_FRACTION))
        self.start = time.perf_counter()
        self.first_loop_done = None
        self.warm_time = None
        self.warm_step = None
        self.end_time = None
        self.end_step = None
        self.warm_cpu = None
        self.end_cpu = None

    def loop_finished(self, step: int):
        now, cpu_now = time.perf_counter(), time.process_time()
        if self.first_loop_done is None:
            self.first_loop_done = now
        if self.warm_time is None and step >= self.warmup_steps:
            self.warm_time, self.warm_step, self.warm_cpu = now, step, cpu_now
        self.end_time, self.end_step, self.end_cpu = now, step, cpu_now

    def result(self) -> dict:
        timed_steps = self.end_step - self.warm_step
        return {
            "first_call_s": self.first_loop_done - self.start,
            "steps_per_sec": timed_steps / (self.end_time - self.warm_time) if timed_steps else None,
            "timed_steps": timed_steps,
            # CPU seconds of all the process's threads per timed step: less sensitive than wall
            # time to other tenants of a shared machine, so it shows the work each step costs.
            "cpu_us_per_step": 1e6 * (self.end_cpu - self.warm_cpu) / timed_steps if timed_steps else None,
        }


def build_tf2_loop(strategy):
    """`run(num_steps) -> loss`: the hand-written TF2 loop over the probe model on `strategy`."""
    import numpy as np
    import tensorflow as tf

    from bench import probe_model as pm

    features, labels = pm.probe_arrays()
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(
        pm.GLOBAL_BATCH_SIZE, drop_remainder=True)
    with strategy.scope():
        hidden_kernel = tf.Variable(np.full((pm.NUM_FEATURES, pm.HIDDEN_UNITS), 0.01, np.float32))
        hidden_bias = tf.Variable(np.zeros(pm.HIDDEN_UNITS, np.float32))
        logits_kernel = tf.Variable(np.full((pm.HIDDEN_UNITS, pm.NUM_CLASSES), 0.02, np.float32))
        logits_bias = tf.Variable(np.zeros(pm.NUM_CLASSES, np.float32))
        step_counter = tf.Variable(0, dtype=tf.int64, aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA)
    trainable = [hidden_kernel, hidden_bias, logits_kernel, logits_bias]
    iterator = iter(strategy.experimental_distribute_dataset(dataset))

    def replica_step(batch_features, batch_labels):
        with tf.GradientTape() as tape:
            hidden = tf.nn.relu(tf.matmul(batch_features, hidden_kernel) + hidden_bias)
            logits = tf.matmul(hidden, logits_kernel) + logits_bias
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(batch_labels, logits))
            scaled_loss = loss / strategy.num_replicas_in_sync
        gradients = tape.gradient(scaled_loss, trainable)
        gradients = tf.distribute.get_replica_context().all_reduce(tf.distribute.ReduceOp.SUM, gradients)
        for variable, gradient in zip(trainable, gradients):
            variable.assign_sub(pm.LEARNING_RATE * gradient)
        step_counter.assign_add(1)
        return loss

    @tf.function
    def train_loop(iterator, num_steps):
        loss = tf.constant(0.0)
        for _ in tf.range(num_steps):
            per_replica_loss = strategy.run(replica_step, args=next(iterator))
            loss = strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica_loss, axis=None)
        return loss

    def run(num_steps: int):
        return train_loop(iterator, tf.constant(num_steps)).numpy()

    run.step_counter = step_counter
    return run


def run_tf2_loop(num_replicas: int, steps_per_loop: int, total_steps: int) -> dict:
    strategy = configure_devices(num_replicas)
    train = build_tf2_loop(strategy)
    clock = StepClock(total_steps)
    done = 0
    while done < total_steps:
        chunk = min(steps_per_loop, total_steps - done)
        train(chunk)
        done += chunk
        clock.loop_finished(done)
    assert int(train.step_counter.numpy()) == total_steps
    return clock.result()


def run_keras_fit(num_replicas: int, steps_per_loop: int, total_steps: int) -> dict:
    import keras
    import tensorflow as tf

    from bench import probe_model as pm

    strategy = configure_devices(num_replicas)
    features, labels = pm.probe_arrays()
    dataset = tf.data.Dataset.from_tensor_slices((features, labels)).repeat().batch(
        pm.GLOBAL_BATCH_SIZE, drop_remainder=True)
    with strategy.scope():
        model = keras.Sequential([
            keras.Input((pm.NUM_FEATURES,)),
            keras.layers.Dense(pm.HIDDEN_UNITS, activation="relu",
                               kernel_initializer=keras.initializers.Constant(0.01)),
            keras.layers.Dense(pm.NUM_CLASSES, kernel_initializer=keras.initializers.Constant(0.02)),
        ])
        model.compile(optimizer=keras.optimizers.SGD(pm.LEARNING_RATE),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      steps_per_execution=steps_per_loop)
    clock = StepClock(total_steps)

    class LoopClock(keras.callbacks.Callback):
        # With steps_per_execution=K Keras calls batch callbacks once per execution of K steps.
        def on_train_batch_end(self, batch, logs=None):
            clock.loop_finished(batch + 1)

    model.fit(dataset, steps_per_epoch=total_steps, epochs=1, verbose=0, callbacks=[LoopClock()])
    return clock.result()


def build_bridge(num_replicas: int, steps_per_loop: int):
    """(estimator, input_fn) for the legacy probe program, written as in the TF 1.x era."""
    import tensorflow as tf

    import estimator_bridge as tpu
    from bench import probe_model as pm

    features, labels = pm.probe_arrays()
    tf1 = tf.compat.v1

    def input_fn(params):
        dataset = tf.data.Dataset.from_tensor_slices((features, labels))
        return dataset.repeat().batch(params["batch_size"], drop_remainder=True)

    def model_fn(features, labels, mode, params):
        hidden = tpu.layers.dense(features, pm.HIDDEN_UNITS, activation=tf.nn.relu,
                                  kernel_initializer=tf1.constant_initializer(0.01))
        logits = tpu.layers.dense(hidden, pm.NUM_CLASSES, kernel_initializer=tf1.constant_initializer(0.02))
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
        optimizer = tf1.train.GradientDescentOptimizer(pm.LEARNING_RATE)
        if params["use_tpu"]:
            optimizer = tpu.CrossShardOptimizer(optimizer)
        train_op = optimizer.minimize(loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    model_dir = tempfile.mkdtemp(prefix="bench_bridge_")
    config = tpu.RunConfig(model_dir=model_dir, save_checkpoints_steps=10**9, save_summary_steps=10**9,
                           tpu_config=tpu.TPUConfig(iterations_per_loop=steps_per_loop,
                                                    num_shards=num_replicas))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=num_replicas > 1,
                                 train_batch_size=pm.GLOBAL_BATCH_SIZE)
    return estimator, input_fn


def loop_hook(after_loop):
    """A TF1 SessionRunHook calling `after_loop(global_step)` after every loop of the bridge."""
    import tensorflow as tf

    tf1 = tf.compat.v1

    class LoopHook(tf1.train.SessionRunHook):
        # The bridge runs hooks once per loop of iterations_per_loop steps, as on TPU.
        def before_run(self, run_context):
            return tf1.train.SessionRunArgs(tf1.train.get_global_step())

        def after_run(self, run_context, run_values):
            after_loop(int(run_values.results))  # the step at the end of the loop

    return LoopHook()


def run_bridge(num_replicas: int, steps_per_loop: int, total_steps: int) -> dict:
    configure_devices(num_replicas)  # logical devices only; the bridge chooses its strategy
    estimator, input_fn = build_bridge(num_replicas, steps_per_loop)
    clock = StepClock(total_steps)
    estimator.train(input_fn, max_steps=total_steps, hooks=[loop_hook(clock.loop_finished)])
    return clock.result()


WORKLOADS = {"bridge": run_bridge, "tf2_loop": run_tf2_loop, "keras_fit": run_keras_fit}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("impl", choices=sorted(WORKLOADS))
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--steps-per-loop", type=int, default=100)
    parser.add_argument("--steps", type=int, default=2000)
    args = parser.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    result = WORKLOADS[args.impl](args.replicas, args.steps_per_loop, args.steps)
    result.update(impl=args.impl, replicas=args.replicas, steps_per_loop=args.steps_per_loop,
                  steps=args.steps,
                  peak_rss_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
