"""What the fusion workload scripts share, on the bridge and on TF 1.15 (Python 3.7 syntax here).

bench/eval_fusion_workload.py and bench/predict_fusion_workload.py run the same probe data through
one Estimator call three times (SHORT batches to warm up, SHORT and LONG timed); the steady cost
of a batch is (LONG - SHORT) / (long - short) batches, so each call's fixed cost cancels out. The
scripts import this module as their sibling (their own folder is first on sys.path).
"""

import os
import resource
import time

import numpy as np

BATCH = 32


def tf_modules(impl):
    """(tf, tf.compat.v1 or tf, the TPU module, the layers module) of `impl`."""
    if impl == "tf115":
        import tensorflow as tf
        return tf, tf, tf.contrib.tpu, tf.layers
    import tensorflow as tf

    import estimator_bridge as tpu
    return tf, tf.compat.v1, tpu, tpu.layers


def probe_data(long):
    """LONG batches of 8 features and 3 classes, the same on every implementation."""
    features = np.random.RandomState(0).randn(BATCH * long, 8).astype(np.float32)
    labels = ((features[:, 0] > 0).astype(np.int32) + (features[:, 1] > 1).astype(np.int32))
    return features, labels


def timed_calls(call, short, long):
    """{'warm'|'short'|'long': (wall s, CPU s, what call(batches) returned)}."""
    timings = {}
    for name, batches in (("warm", short), ("short", short), ("long", long)):
        started, cpu = time.perf_counter(), time.process_time()
        value = call(batches)
        timings[name] = (time.perf_counter() - started, time.process_time() - cpu, value)
    return timings


def speed_record(impl, timings, short, long):
    """The JSON fields every fusion workload reports: which run, first call, steady speed, memory."""
    steps = long - short
    return {
        "impl": impl if impl == "tf115" else (
            "bridge_unfused" if os.environ.get("ESTIMATOR_BRIDGE_STEP_FUSION") == "0"
            else "bridge_fused"),
        "first_call_s": timings["warm"][0],
        "steps_per_sec": steps / (timings["long"][0] - timings["short"][0]),
        "cpu_us_per_step": 1e6 * (timings["long"][1] - timings["short"][1]) / steps,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }
