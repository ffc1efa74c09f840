"""BERT pre-training TFRecords (as google-research/bert's create_pretraining_data.py writes them).

Writes pretrain.tfrecord (128 examples; max_seq_length 32, max_predictions_per_seq 5) plus the
text_pairs vocabulary and 2-layer config, into the folder given. Features: input_ids, input_mask,
segment_ids, masked_lm_positions, masked_lm_ids, masked_lm_weights, next_sentence_labels.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from testbed.generators import text_pairs

SEQ, PREDICTIONS = 32, 5


def write(out: Path, examples: int = 128) -> None:
    import tensorflow as tf

    text_pairs.write(out)  # vocab.txt, bert_config.json (vocab of 65 ids)
    vocab = len(text_pairs.SPECIAL) + len(text_pairs.WORDS)
    rng = np.random.RandomState(0)

    def ints(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[int(v) for v in values]))

    with tf.io.TFRecordWriter(str(out / "pretrain.tfrecord")) as writer:
        for _ in range(examples):
            length = rng.randint(12, SEQ + 1)
            first = rng.randint(4, length - 4)
            ids = [2] + list(rng.randint(5, vocab, size=length - 3)) + [3, 3]
            ids[first] = 3
            segments = [0] * (first + 1) + [1] * (length - first - 1)
            positions = sorted(rng.choice(np.arange(1, length - 1), size=PREDICTIONS, replace=False))
            masked_ids = [ids[p] for p in positions]
            for p in positions:
                ids[p] = 4  # [MASK]
            pad = SEQ - length
            feature = {
                "input_ids": ints(ids + [0] * pad), "input_mask": ints([1] * length + [0] * pad),
                "segment_ids": ints(segments + [0] * pad), "masked_lm_positions": ints(positions),
                "masked_lm_ids": ints(masked_ids),
                "masked_lm_weights": tf.train.Feature(float_list=tf.train.FloatList(value=[1.0] * PREDICTIONS)),
                "next_sentence_labels": ints([rng.randint(0, 2)]),
            }
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
