"""A traced loop bound to its iterator: same results as the public call, one trace, no re-dispatch."""

from __future__ import annotations

import numpy as np
import tensorflow as tf

from estimator_bridge.runtime.bound_call import NUM_STEPS_SPEC, BoundLoop


def summing_loop():
    """A tf.function that sums `num_steps` batches of a distributed iterator; counts its traces."""
    traces = []

    @tf.function(autograph=False)
    def loop(iterator, num_steps):
        traces.append(1)

        def body(index, total):
            return index + 1, total + tf.reduce_sum(iterator.get_next())

        return tf.while_loop(lambda index, _: index < num_steps, body,
                             (tf.constant(0), tf.constant(0.0)))[1]

    return loop, traces


STRATEGY = tf.distribute.OneDeviceStrategy("/cpu:0")


def distributed_iterator():
    dataset = tf.data.Dataset.range(1000).map(lambda x: tf.cast(x, tf.float32)).batch(4)
    return iter(STRATEGY.experimental_distribute_dataset(dataset))


def test_a_bound_loop_gives_what_calling_the_function_gives_and_continues_the_iterator():
    loop, _ = summing_loop()
    public_iterator, bound = distributed_iterator(), BoundLoop(loop, distributed_iterator())
    for num_steps in (3, 1, 5, 3):
        expected = loop(public_iterator, tf.constant(num_steps)).numpy()
        assert bound(num_steps).numpy() == expected
    # 12 batches of 4 consumed: 0..47 summed.
    assert expected == sum(range(36, 48))


def test_the_installed_tensorflow_takes_the_fast_path():
    # If a TensorFlow upgrade moves the internals BoundLoop relies on, the bridge still works
    # (next test) but loses ~1.3 ms per loop; this test says so instead of letting it pass silently.
    loop, _ = summing_loop()
    assert BoundLoop(loop, distributed_iterator()).fast


def test_the_public_call_is_the_fallback_and_gives_the_same_numbers():
    loop, _ = summing_loop()
    fast, public = BoundLoop(loop, distributed_iterator()), BoundLoop(loop, distributed_iterator())
    public.fast = False
    for num_steps in (2, 7):
        np.testing.assert_array_equal(public(num_steps).numpy(), fast(num_steps).numpy())


def test_binding_reuses_the_trace_made_for_the_iterator_type():
    loop, traces = summing_loop()
    iterator = distributed_iterator()
    loop.get_concrete_function(iterator, NUM_STEPS_SPEC)
    BoundLoop(loop, iterator)(2)
    # The next train() call's new iterator, of the same strategy and element type: same trace.
    BoundLoop(loop, distributed_iterator())(2)
    assert len(traces) == 1
