"""TF 1.x's crossentropy logits rule in the runner's TF 1.x Keras (tf-keras, TF 1.x programs).

TF 1.15's Keras backend (`categorical_crossentropy`, `sparse_categorical_crossentropy`,
`binary_crossentropy`) computed a loss from logits only when the output was made by the loss's own
activation op (`output.op.type == 'Softmax'`, or `'Sigmoid'` for binary crossentropy) and
`from_logits` was False; any other output was taken as probabilities (renormalised, clipped, logged).
tf-keras (as TF 2.x's Keras and Keras 3) caches the input of EVERY sigmoid and softmax on its output
(`_keras_logits`) and uses it whatever the loss: a `Dense(10, activation='sigmoid')` under
`sparse_categorical_crossentropy` trains on softmax(pre-activation), another loss (measured on the
first batch of a 196-10 model: TF 1.15 2.3288105, tf-keras 2.4267669). For TF 1.x programs tf-keras'
`_get_logits` is replaced by TF 1.15's rule; TF 2.x programs keep tf-keras' (TF 2.15's) behaviour.
"""

from __future__ import annotations


def tf1_logits(output, from_logits, op_type, fn_name):
    """TF 1.15's choice: (the op's input, True) when `output` is a graph tensor made by an `op_type`
    op and `from_logits` is False; else `output` as given (probabilities, or logits if from_logits)."""
    import tensorflow as tf

    if from_logits or isinstance(output, (tf.__internal__.EagerTensor, tf.Variable)) or output.op.type != op_type:
        return output, from_logits
    return output.op.inputs[0], True


def install() -> None:
    """tf-keras' backend crossentropies take logits by TF 1.15's rule (idempotent)."""
    from tf_keras.src import backend

    backend._get_logits = tf1_logits
