"""compare_gan / TPU host_call style image summaries with tf.contrib.summary (2018)."""

import tensorflow as tf


def write_images(logdir, images, step):
  writer = tf.contrib.summary.create_file_writer(logdir)
  with writer.as_default(), tf.contrib.summary.always_record_summaries():
    tf.contrib.summary.image("generated", images, max_images=2, step=step)
    tf.contrib.summary.image("all", images, None, 3, None, step)
  writer.flush()
