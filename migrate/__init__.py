"""migrate: a libcst codemod that rewrites TF1 / tf.contrib TPU code for current TensorFlow."""

__version__ = "0.1.0"
