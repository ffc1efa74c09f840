"""A 2018 Keras TPU template's end (GoogleCloudPlatform/cloudml-samples tpu/templates/tpu_keras/
trainer.py, with plain gradient descent for its RMSProp: TF1's RMSProp starts its accumulator at 1,
Keras' at 0, a difference the codemod reports; Adam, tried first, steps every weight by about its
learning rate whatever the gradient's size, so a weight whose gradient is at rounding level ends
4e-3 apart relative): a TF1 optimizer and a tf.losses loss in compile, fit on arrays, then the whole model saved
under a name of the program's choosing, `model.hd5`, which TF 1.x's Keras wrote as HDF5.

Run as `python keras_2018_model_save.py MODEL_DIR`; prints one JSON line: the losses, the saved
file's kind and the layer weights read back from it (h5py, as any later reader of the file would).
"""

import json
import os
import sys

import h5py
import numpy as np
import tensorflow as tf


def build_model():
    inputs = tf.keras.Input(shape=(5, 3))
    encoded = tf.keras.layers.LSTM(4, recurrent_activation='sigmoid')(inputs)  # TF 1.x's default: hard_sigmoid
    outputs = tf.keras.layers.Dense(1, activation=tf.nn.sigmoid)(encoded)
    return tf.keras.Model(inputs=inputs, outputs=outputs)


def main(model_dir):
    model = build_model()
    rng = np.random.RandomState(0)
    model.set_weights([rng.uniform(-0.3, 0.3, w.shape).astype(np.float32) for w in model.get_weights()])
    model.compile(tf.train.GradientDescentOptimizer(learning_rate=0.5), tf.losses.log_loss)
    sequences = rng.random_sample((16, 5, 3)).astype(np.float32)
    labels = rng.randint(0, 2, size=(16, 1)).astype(np.float32)
    history = model.fit(sequences, labels, batch_size=8, epochs=2, shuffle=False, verbose=0)
    path = os.path.join(model_dir, "model.hd5")
    model.save(path)
    with h5py.File(path, "r") as saved:
        weights = {}
        saved["model_weights"].visititems(
            lambda name, item: weights.__setitem__(name.split("/")[0] + "/" + name.split("/")[-1].split(":")[0],
                                                   np.asarray(item).ravel().tolist())
            if isinstance(item, h5py.Dataset) else None)
    print(json.dumps({"tensorflow": tf.__version__, "loss": history.history["loss"],
                      "files": sorted(os.listdir(model_dir)), "hdf5": h5py.is_hdf5(path),
                      "weights": [weights[k] for k in sorted(weights)]}))


if __name__ == "__main__":
    main(sys.argv[1])
