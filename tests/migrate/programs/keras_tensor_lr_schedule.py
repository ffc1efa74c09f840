"""A TF 2.2-era LearningRateScheduler whose schedule is a `@tf.function` (oracle program).

Shaped like GoogleCloudPlatform/training-data-analyst courses/fast-and-lean-data-science/
keras_104_flowers_gputputpupod_tf2.2.ipynb (7f86953, 2020-05): `@tf.function def lr_fn(epoch)` with
a ramp-up and an exponential decay, given to `tf.keras.callbacks.LearningRateScheduler(lr_fn)`, and
the xception notebook's `LearningRateScheduler(lambda epoch: lrfn(epoch), verbose=True)`. Runs on
TF 2.15 (Keras 2) and, migrated, on Keras 3. Prints one JSON line: the learning rate each epoch
started with, the rates the callback logged (`history.history['lr']`), the losses, the final weights.
"""

import json

import numpy as np
import tensorflow as tf

LR_START, LR_MAX, LR_MIN = 0.01, 0.2, 0.01
LR_RAMPUP_EPOCHS, LR_SUSTAIN_EPOCHS, LR_EXP_DECAY = 2, 1, .8


@tf.function
def lr_fn(epoch):
    if epoch < LR_RAMPUP_EPOCHS:
        lr = (LR_MAX - LR_START) / LR_RAMPUP_EPOCHS * epoch + LR_START
    elif epoch < LR_RAMPUP_EPOCHS + LR_SUSTAIN_EPOCHS:
        lr = LR_MAX
    else:
        lr = (LR_MAX - LR_MIN) * LR_EXP_DECAY**(epoch - LR_RAMPUP_EPOCHS - LR_SUSTAIN_EPOCHS) + LR_MIN
    return lr


def lrfn(epoch):
    return 0.05 * 0.5 ** epoch


class Rates(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.rates = []

    def on_epoch_begin(self, epoch, logs=None):
        self.rates.append(float(tf.keras.backend.get_value(self.model.optimizer.learning_rate)))


rng = np.random.RandomState(0)
x = rng.rand(32, 4).astype(np.float32)
y = (x @ rng.rand(4, 2)).astype(np.float32)
results = {"tensorflow": tf.__version__}
for name, callback in (("tf_function", tf.keras.callbacks.LearningRateScheduler(lr_fn)),
                       ("lambda", tf.keras.callbacks.LearningRateScheduler(lambda epoch: lrfn(epoch), verbose=True))):
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(2)])
    model.set_weights([np.full(w.shape, 0.1, np.float32) for w in model.get_weights()])
    model.compile(optimizer=tf.keras.optimizers.SGD(), loss='mse')
    rates = Rates()
    history = model.fit(x, y, batch_size=8, epochs=5, verbose=0, shuffle=False, callbacks=[callback, rates])
    results[name] = {"rates": rates.rates, "loss": [float(v) for v in history.history['loss']],
                     "logged_rates": [float(v) for v in history.history['lr']],
                     "weights": [w.tolist() for w in model.get_weights()]}
print(json.dumps(results))
