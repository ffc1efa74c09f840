"""estimator_bridge/compat/keras_default_seeds.py: Keras' default seeds leave the program's `random` alone.

Home-Monitor's 11-TrainTPU.py (2019) seeds Python's `random`, builds 17 layers, then
`fit_generator`s a `flow_from_directory` Sequence, whose batch order TF 1.x drew with
`random.shuffle`: on Keras 3 every layer had drawn a seed from that generator first, and the
migrated program trained on another first batch. The oracle test of the whole case is in
tests/migrate/test_keras_sequence_fit.py.
"""

import random

import numpy as np

from estimator_bridge.compat import keras_default_seeds


def _kernel(module):
    layer = module.layers.Dense(3)
    layer.build((None, 2))
    return np.array(layer.kernel)


def test_unseeded_layers_draw_nothing_from_pythons_random_and_stay_repeatable():
    import keras
    import tf_keras

    keras_default_seeds.install()
    keras_default_seeds.install()  # idempotent
    for module in (keras, tf_keras):
        random.seed(3)
        state = random.getstate()
        first, second = _kernel(module), _kernel(module)
        assert random.getstate() == state
        assert not np.allclose(first, second)       # each draw its own seed
        random.seed(3)
        assert np.allclose(_kernel(module), first)  # the same seed, the same initial weights
    keras.utils.set_random_seed(5)
    again = _kernel(keras)
    keras.utils.set_random_seed(5)
    assert np.allclose(_kernel(keras), again)
