"""ELECTRA pre-training inputs, as google-research/electra's build_pretraining_dataset.py writes them.

DATA/vocab.txt (the text_pairs vocabulary) and DATA/pretrain_tfrecords/pretrain_data.tfrecord-0-of-1:
128 examples of input_ids / input_mask / segment_ids, max_seq_length 32 ([CLS] a [SEP] b [SEP]).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from testbed.generators import text_pairs

SEQ = 32


def write(out: Path, examples: int = 128) -> None:
    import tensorflow as tf

    text_pairs.write(out)
    vocab = len(text_pairs.SPECIAL) + len(text_pairs.WORDS)
    rng = np.random.RandomState(0)
    folder = out / "pretrain_tfrecords"
    folder.mkdir(parents=True, exist_ok=True)

    def ints(values):
        return tf.train.Feature(int64_list=tf.train.Int64List(value=[int(v) for v in values]))

    with tf.io.TFRecordWriter(str(folder / "pretrain_data.tfrecord-0-of-1")) as writer:
        for _ in range(examples):
            length = rng.randint(12, SEQ + 1)
            split = rng.randint(4, length - 4)
            ids = [2] + list(rng.randint(5, vocab, size=length - 3)) + [3, 3]
            ids[split] = 3
            segments = [0] * (split + 1) + [1] * (length - split - 1)
            pad = SEQ - length
            feature = {"input_ids": ints(ids + [0] * pad), "input_mask": ints([1] * length + [0] * pad),
                       "segment_ids": ints(segments + [0] * pad)}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())


if __name__ == "__main__":
    write(Path(sys.argv[1]))
