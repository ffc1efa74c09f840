"""Run a fixture's `compute()` in a fresh TF1 graph and print what it returns (one JSON line).

Run on a `.before.py` fixture with TF 1.15 (oracle A) and on its `.after.py` with current
TensorFlow: the migrated code must compute what the original computed.
Usage: python run_fixture_compute.py FIXTURE_PATH; runs on CPython 3.7 and 3.11.
"""

import json
import sys

import tensorflow as tf


def main():
    path = sys.argv[1]
    namespace = {"__name__": "fixture"}
    with open(path) as stream:
        exec(compile(stream.read(), path, "exec"), namespace)
    with tf.Graph().as_default():
        tf.compat.v1.set_random_seed(0)
        result = namespace["compute"]()
    result["tensorflow"] = tf.__version__.split(".")[0]
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
