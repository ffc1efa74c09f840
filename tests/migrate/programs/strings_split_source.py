"""TF 1.x input code as tensorflow/tpu's show_and_tell wrote it: a caption split into words with
`tf.strings.split` (a SparseTensor in TF 1.x) and densified, inside a tf.data map. Prints the words
and their hash buckets as JSON."""

import json

import tensorflow as tf


def caption_words(caption):
  words = tf.strings.split(tf.reshape(caption, [1]), sep=" ")
  words = tf.sparse_tensor_to_dense(words, default_value="")[0]
  return words, tf.strings.to_hash_bucket(words, 10002)


with tf.Graph().as_default():
  dataset = tf.data.Dataset.from_tensor_slices(["<S> a dog on the beach </S>", "<S> two men </S>"])
  words, buckets = dataset.map(caption_words).make_one_shot_iterator().get_next()
  with tf.Session() as session:
    rows = [session.run([words, buckets]) for _ in range(2)]
print(json.dumps({"rows": [[[w.decode() for w in row[0]], row[1].tolist()] for row in rows]}))
