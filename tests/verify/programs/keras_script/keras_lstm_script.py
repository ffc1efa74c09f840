r"""A character LSTM trained by a Keras script, the shape of tensorflow/tpu's
models/experimental/keras_colab/shakespeare_lstm.py (2018): absl flags with `--use_tpu` (default
True) selecting `keras_to_tpu_model`, no model_dir flag, a text file named by a constant,
`fit_generator` on an unseeded numpy generator with a TF1 optimizer, weights saved to a `.h5`
path, then a stateful prediction model that loads them and samples characters one at a time.

Written for verify's tests (tests/verify/test_keras_script.py); sizes are constants the tests
override (`--set`), as a user makes the real program tiny.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

from absl import app
from absl import flags
import numpy as np
import six
import tensorflow.compat.v1 as tf
from tensorflow.contrib import cluster_resolver as contrib_cluster_resolver
from tensorflow.contrib import tpu as contrib_tpu

flags.DEFINE_bool('use_tpu', True, 'Use TPU model instead of CPU.')
flags.DEFINE_string('tpu', None, 'Name of the TPU to use.')

FLAGS = flags.FLAGS

TEXT_FILE = 'gs://cloud-tpu-artifacts/shakespeare/shakespeare.txt'
WEIGHTS_FILE = '/tmp/bard.h5'
EMBEDDING_DIM = 512
SEQ_LEN = 100
BATCH_SIZE = 1024
STEPS_PER_EPOCH = 100
EPOCHS = 10
PREDICT_LEN = 500


def transform(txt):
  return np.asarray([ord(c) for c in txt if ord(c) < 255], dtype=np.int32)


def training_generator(data, seq_len, batch_size):
  while True:
    offsets = np.random.randint(0, len(data) - seq_len, batch_size)
    yield (np.stack([data[idx:idx + seq_len] for idx in offsets]),
           np.expand_dims(np.stack([data[idx + 1:idx + seq_len + 1] for idx in offsets]), -1))


def lstm_model(seq_len, batch_size=None, stateful=True):
  source = tf.keras.Input(name='seed', shape=(seq_len,), batch_size=batch_size, dtype=tf.int32)
  embedding = tf.keras.layers.Embedding(input_dim=256, output_dim=EMBEDDING_DIM)(source)
  lstm = tf.keras.layers.LSTM(EMBEDDING_DIM, stateful=stateful, return_sequences=True)(embedding)
  predicted_char = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(256, activation='softmax'))(lstm)
  model = tf.keras.Model(inputs=[source], outputs=[predicted_char])
  model.compile(optimizer=tf.train.RMSPropOptimizer(learning_rate=0.01),
                loss='sparse_categorical_crossentropy', metrics=['sparse_categorical_accuracy'])
  return model


def main(unused_argv):
  with tf.gfile.GFile(TEXT_FILE, 'r') as f:
    data = transform(f.read())
  x, y = six.next(training_generator(data, seq_len=10, batch_size=1))
  print('sample:', x, y)

  training_model = lstm_model(seq_len=SEQ_LEN, batch_size=None, stateful=False)
  if FLAGS.use_tpu:
    strategy = contrib_tpu.TPUDistributionStrategy(
        contrib_cluster_resolver.TPUClusterResolver(tpu=FLAGS.tpu))
    training_model = contrib_tpu.keras_to_tpu_model(training_model, strategy=strategy)
  training_model.fit_generator(training_generator(data, SEQ_LEN, BATCH_SIZE),
                               steps_per_epoch=STEPS_PER_EPOCH, epochs=EPOCHS)
  training_model.save_weights(WEIGHTS_FILE, overwrite=True)

  batch_size = 2
  seed_txt = 'Looks it not like the king? '
  seed = np.repeat(np.expand_dims(transform(seed_txt), 0), batch_size, axis=0)
  prediction_model = lstm_model(seq_len=1, batch_size=batch_size, stateful=True)
  prediction_model.load_weights(WEIGHTS_FILE)
  prediction_model.reset_states()
  for i in range(len(seed_txt) - 1):
    prediction_model.predict(seed[:, i:i + 1])
  predictions = [seed[:, -1:]]
  for _ in range(PREDICT_LEN):
    next_probits = prediction_model.predict(predictions[-1])[:, 0, :]
    next_idx = [np.random.choice(256, p=next_probits[i] / next_probits[i].sum()) for i in range(batch_size)]
    predictions.append(np.asarray(next_idx, dtype=np.int32)[:, None])
  for i in range(batch_size):
    print(''.join(chr(p[i, 0]) for p in predictions[1:]))


if __name__ == '__main__':
  tf.logging.set_verbosity(tf.logging.INFO)
  app.run(main)
