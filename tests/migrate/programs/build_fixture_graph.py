"""Build a fixture's model in a TF1 graph and print its variables and output shapes (one JSON line).

Run on a `.before.py` fixture with TF 1.15 (oracle A) and on its `.after.py` with current
TensorFlow: migration must keep TF1's variable names (checkpoints are keyed by them) and shapes.
Usage: python build_fixture_graph.py CASE FIXTURE_PATH; runs on CPython 3.7 and 3.11.
"""

import json
import sys

import numpy as np
import tensorflow as tf

tf1 = tf.compat.v1


def ones(*shape):
    return tf1.constant(np.ones(shape, np.float32))


def layers_objects(ns):
    tower = ns["VideoTower"](5)
    return [tower(ones(2, 4, 4, 4, 3), True), ns["audio_tower"](ones(2, 32, 1)), ns["upsample"](ones(2, 4, 4, 3))]


def layer_norm(ns):
    hidden = ones(2, 3, 8) * np.arange(8, dtype=np.float32)
    with tf1.variable_scope("embeddings"):
        first = ns["layer_norm_and_dropout"](hidden, 0.0, name="LayerNorm")
    return [first, ns["output_block"](hidden, first, 8), ns["layer_norm"](hidden)]


CASES = {"layers_objects": layers_objects, "layer_norm": layer_norm}


def main():
    case, path = sys.argv[1], sys.argv[2]
    namespace = {}
    with open(path) as stream:
        exec(compile(stream.read(), path, "exec"), namespace)
    with tf1.Graph().as_default():
        outputs = CASES[case](namespace)
        variables = [[v.name, v.shape.as_list()] for v in tf1.global_variables()]
        trainable = [v.name for v in tf1.trainable_variables()]
        shapes = [t.shape.as_list() for t in outputs]
    print(json.dumps({"variables": variables, "trainable": trainable, "shapes": shapes}))


if __name__ == "__main__":
    main()
