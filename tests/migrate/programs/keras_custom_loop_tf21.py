"""A TF 2.1-2.3 custom training loop over a TPU-style strategy, in the shape of
GoogleCloudPlatform/training-data-analyst keras_flowers_customtrainloop_tf2.1.ipynb (909c685fd):
a LearningRateSchedule subclass whose `__call__` does integer-looking arithmetic on the step
(`step // steps_per_epoch`, `LR_DECAY ** epoch` in a tf.function), SGD with Nesterov momentum,
`@tf.function train_step` calling `optimizer.apply_gradients`, run per replica by `strategy.run`
over a distributed dataset on 2 replicas. Prints the per-step losses and final weights as JSON.

`python keras_custom_loop_tf21.py [legacy]`: `legacy` selects `tf.keras.optimizers.legacy.SGD`,
the optimizer TF 2.1-2.10 had as `tf.keras.optimizers.SGD` (the TF 2.15 oracle runs this; the
migrated copy runs on Keras 3 without it).
"""
import json
import sys

import numpy as np
import tensorflow as tf

cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

STEPS_PER_EPOCH = 2
MAX_LR, MIN_LR, LR_SUSTAIN, LR_DECAY = 0.05, 0.01, 1, 0.5


def lrfn(epoch):
    if epoch < LR_SUSTAIN:
        lr = MAX_LR
    else:
        lr = (MAX_LR - MIN_LR) * LR_DECAY ** (epoch - LR_SUSTAIN) + MIN_LR
    return lr


@tf.function
def lrfn_tffun(epoch):
    return lrfn(epoch)


class LRSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
    def __call__(self, step):
        return lrfn_tffun(epoch=step // STEPS_PER_EPOCH)


SGD = tf.keras.optimizers.legacy.SGD if sys.argv[1:] == ["legacy"] else tf.keras.optimizers.SGD
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)),
                                 tf.keras.layers.Dense(3, activation="softmax")])
    model.set_weights([np.linspace(-0.5, 0.5, w.size).reshape(w.shape).astype(np.float32) for w in model.get_weights()])
    optimizer = SGD(nesterov=True, momentum=0.9, learning_rate=LRSchedule())
    loss_fn = lambda labels, probabilities: tf.reduce_mean(tf.keras.losses.categorical_crossentropy(labels, probabilities))


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        probabilities = model(images, training=True)
        loss = loss_fn(labels, probabilities)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


x = np.linspace(-1, 1, 48 * 4).reshape(48, 4).astype(np.float32)
y = np.eye(3, dtype=np.float32)[np.arange(48) % 3]
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
losses = []
for images, labels in strategy.experimental_distribute_dataset(dataset):
    loss = strategy.run(train_step, args=(images, labels))
    losses.append(float(strategy.reduce(tf.distribute.ReduceOp.MEAN, loss, axis=None)))
print(json.dumps({"tensorflow": tf.__version__, "losses": losses,
                  "weights": [w.tolist() for w in model.get_weights()]}))
