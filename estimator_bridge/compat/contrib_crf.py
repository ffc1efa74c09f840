"""tf.contrib.crf on current TensorFlow: a linear-chain CRF over tag sequences.

BERT+CRF and BiLSTM-CRF taggers of 2018-2020 train with `crf_log_likelihood` and decode with
`crf_decode`; TensorFlow 2 dropped the module and tensorflow-addons (the only maintained copy) stops at
TF 2.15. This module computes the same quantities with TF 2.21 ops:

- scores of given tag paths are gathers from the potentials and the transition matrix, masked by length;
- the log partition function is the forward algorithm, and decoding is Viterbi with backtracking, both
  `tf.scan`s over time in which a sequence's state stops changing after its length (so a row's result
  is that of its own length, as `dynamic_rnn(sequence_length=...)` gave the original);
- `crf_log_likelihood` creates a `[num_tags, num_tags]` variable named `transitions` in the current
  variable scope when none is passed, so TF 1.x checkpoints load.

Each time step is `logsumexp`/`max` over `state[:, :, None] + transitions`, the order of operations that
makes results equal TF 1.x's to the last bit. The three `...RnnCell` classes expose those steps as
`RNNCell`s for programs that ran them with `dynamic_rnn` themselves.
Oracle fixture tests/migrate/fixtures/contrib/contrib_crf.
"""

from __future__ import annotations

import numpy as np
import tensorflow as tf
from tensorflow.python.framework import smart_cond

from estimator_bridge.compat.rnn_cell import RNNCell

__all__ = ["crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score", "crf_binary_score",
           "CrfForwardRnnCell", "viterbi_decode", "crf_decode", "CrfDecodeForwardRnnCell",
           "CrfDecodeBackwardRnnCell", "crf_multitag_sequence_score"]


def _forward_step(alphas, potentials, transitions):
    """One forward-algorithm step in log space: [B, O] alphas -> [B, O]."""
    return potentials + tf.reduce_logsumexp(tf.expand_dims(alphas, 2) + transitions, [1])


def _viterbi_step(scores, potentials, transitions):
    """One Viterbi step: the best previous tag for each tag ([B, O], int32) and the new [B, O] scores."""
    candidates = tf.expand_dims(scores, 2) + transitions
    backpointers = tf.cast(tf.argmax(candidates, 1), tf.int32)
    return backpointers, potentials + tf.reduce_max(candidates, [1])


def _steps_after_first(inputs, sequence_lengths):
    """Time-major potentials of steps 1..T-1 and a [T-1, B] mask of the steps each sequence has."""
    rest = tf.transpose(inputs[:, 1:], [1, 0, 2])
    lengths = tf.maximum(tf.cast(sequence_lengths, tf.int32) - 1, 0)
    mask = tf.sequence_mask(lengths, tf.shape(rest)[0])
    return rest, tf.transpose(mask)


def _is_single_step(inputs):
    """True (statically, or as a tensor) when inputs has one time step."""
    return tf.equal(tf.compat.dimension_value(inputs.shape[1]) or tf.shape(inputs)[1], 1)


def _zero_where_empty(values, sequence_lengths):
    return tf.where(tf.less_equal(sequence_lengths, 0), tf.zeros_like(values), values)


def crf_unary_score(tag_indices, sequence_lengths, inputs):
    """Sum over each sequence's steps of the potential of its tag: [batch_size]."""
    tag_potentials = tf.gather(inputs, tag_indices, batch_dims=2)
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(tag_potentials * masks, 1)


def crf_binary_score(tag_indices, sequence_lengths, transition_params):
    """Sum over each sequence's transitions of transition_params[tag_t, tag_t+1]: [batch_size]."""
    pairs = tf.stack([tag_indices[:, :-1], tag_indices[:, 1:]], axis=2)
    transition_scores = tf.gather_nd(transition_params, pairs)
    masks = tf.sequence_mask(sequence_lengths, maxlen=tf.shape(tag_indices)[1], dtype=tf.float32)
    return tf.reduce_sum(transition_scores * masks[:, 1:], 1)


def crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params):
    """Unnormalised score of the given tag sequences (unary plus transition scores): [batch_size]."""
    return (crf_unary_score(tag_indices, sequence_lengths, inputs)
            + crf_binary_score(tag_indices, sequence_lengths, transition_params))


def crf_log_norm(inputs, sequence_lengths, transition_params):
    """Log partition function of each sequence (the forward algorithm), 0 for empty ones: [batch_size]."""
    rest, mask = _steps_after_first(inputs, sequence_lengths)
    transitions = tf.expand_dims(transition_params, 0)

    def step(alphas, elems):
        potentials, active = elems
        return tf.where(tf.expand_dims(active, 1), _forward_step(alphas, potentials, transitions), alphas)

    alphas = tf.foldl(step, (rest, mask), initializer=inputs[:, 0])
    return _zero_where_empty(tf.reduce_logsumexp(alphas, [1]), sequence_lengths)


def crf_multitag_sequence_score(inputs, tag_bitmap, sequence_lengths, transition_params):
    """Log of the summed scores of every tag sequence allowed by the boolean tag_bitmap: [batch_size].

    With one-hot bitmaps this is `crf_sequence_score`. Sequences of one step are not masked by length
    (TF 1.x's behaviour for max_seq_len == 1).
    """
    filtered = tf.where(tag_bitmap, inputs, tf.fill(tf.shape(inputs), float("-inf")))
    return smart_cond.smart_cond(
        _is_single_step(inputs),
        lambda: tf.reduce_logsumexp(filtered, axis=[1, 2]),
        lambda: crf_log_norm(filtered, sequence_lengths, transition_params))


def crf_log_likelihood(inputs, tag_indices, sequence_lengths, transition_params=None):
    """Log-likelihood of the given tag sequences ([batch_size]) and the transition matrix used.

    Without transition_params, a `transitions` variable [num_tags, num_tags] is made (or reused) in the
    current variable scope with get_variable's default initializer.
    """
    if transition_params is None:
        num_tags = tf.compat.dimension_value(inputs.shape[2])
        transition_params = tf.compat.v1.get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths, transition_params)
    return sequence_scores - crf_log_norm(inputs, sequence_lengths, transition_params), transition_params


def crf_decode(potentials, transition_params, sequence_length):
    """Viterbi decoding in the graph: best tags [batch_size, max_seq_len] (int32, 0 past each length) and
    their scores [batch_size]."""
    rest, mask = _steps_after_first(potentials, sequence_length)
    transitions = tf.expand_dims(transition_params, 0)

    def forward(carry, elems):
        scores = carry[1]
        step_potentials, active = elems
        backpointers, new_scores = _viterbi_step(scores, step_potentials, transitions)
        return backpointers, tf.where(tf.expand_dims(active, 1), new_scores, scores)

    first = potentials[:, 0]
    initial_pointers = tf.zeros_like(first, dtype=tf.int32)
    backpointers, scores = tf.scan(forward, (rest, mask), initializer=(initial_pointers, first))
    last_scores = tf.concat([tf.expand_dims(first, 0), scores], 0)[-1]

    def backward(carry, elems):
        step_pointers, active = elems
        tag = carry[1]
        previous = tf.gather(step_pointers, tag, batch_dims=1)
        return tf.where(active, tag, 0), tf.where(active, previous, tag)

    last_tags = tf.cast(tf.argmax(last_scores, 1), tf.int32)
    tags, first_tags = tf.scan(backward, (backpointers, mask), initializer=(last_tags, last_tags), reverse=True)
    first_tags = tf.concat([first_tags, tf.expand_dims(last_tags, 0)], 0)[0]  # last_tags if T == 1
    decode_tags = tf.concat([tf.expand_dims(first_tags, 1), tf.transpose(tags)], 1)
    return decode_tags, tf.reduce_max(last_scores, 1)


def viterbi_decode(score, transition_params):
    """Viterbi decoding in NumPy of one [seq_len, num_tags] score matrix: (list of tags, best score)."""
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        candidates = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(candidates, 0)
        backpointers[t] = np.argmax(candidates, 0)
    path = [np.argmax(trellis[-1])]
    for pointers in backpointers[:0:-1]:
        path.append(pointers[path[-1]])
    return path[::-1], np.max(trellis[-1])


class _CrfCell(RNNCell):
    """An RNNCell over a [num_tags, num_tags] transition matrix (state and output sizes num_tags)."""

    def __init__(self, transition_params):
        self._transition_params = tf.expand_dims(transition_params, 0)
        self._num_tags = tf.compat.dimension_value(transition_params.shape[0])

    @property
    def state_size(self):
        return self._num_tags

    @property
    def output_size(self):
        return self._num_tags


class CrfForwardRnnCell(_CrfCell):
    """The forward algorithm's step as an RNNCell: (potentials, alphas) -> (alphas', alphas')."""

    def __call__(self, inputs, state, scope=None):
        new_alphas = _forward_step(state, inputs, self._transition_params)
        return new_alphas, new_alphas


class CrfDecodeForwardRnnCell(_CrfCell):
    """Viterbi's forward step as an RNNCell: (potentials, scores) -> (backpointers, scores')."""

    def __call__(self, inputs, state, scope=None):
        return _viterbi_step(state, inputs, self._transition_params)


class CrfDecodeBackwardRnnCell(RNNCell):
    """Viterbi's backtracking step as an RNNCell: (backpointers [B, O], tag [B, 1]) -> (tag', tag')."""

    def __init__(self, num_tags):
        self._num_tags = num_tags

    @property
    def state_size(self):
        return 1

    @property
    def output_size(self):
        return 1

    def __call__(self, inputs, state, scope=None):
        new_tags = tf.gather(inputs, state, batch_dims=1)
        return new_tags, new_tags
