"""Run the summary_cadence fixture's write_losses and print the (step, value) pairs it recorded.

Flavours: ``tf115`` (oracle A, eager mode, the `.before.py` with tf.contrib.summary) and
``current`` (the `.after.py` with tf.summary.record_if). One JSON line on stdout.
Usage: python summary_cadence_program.py FLAVOUR FIXTURE_PATH LOGDIR; CPython 3.7 and 3.11.
"""

import json
import os
import sys

import tensorflow as tf

FLAVOUR, FIXTURE, LOGDIR = sys.argv[1:4]
if FLAVOUR == "tf115":
    tf.enable_eager_execution()
LOSSES = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3]


def recorded(logdir):
    pairs = []
    iterator = tf.compat.v1.train.summary_iterator
    for name in sorted(os.listdir(logdir)):
        for event in iterator(os.path.join(logdir, name)):
            for value in event.summary.value:
                kind = value.WhichOneof("value")  # TF 1.15 may write simple_value, TF 2 writes tensors
                number = value.simple_value if kind == "simple_value" else float(tf.make_ndarray(value.tensor))
                pairs.append([value.tag, int(event.step), number])
    return pairs


def main():
    namespace = {}
    with open(FIXTURE) as stream:
        exec(compile(stream.read(), FIXTURE, "exec"), namespace)
    namespace["write_losses"](LOGDIR, LOSSES, 3)
    print(json.dumps({"recorded": recorded(LOGDIR)}))


if __name__ == "__main__":
    main()
