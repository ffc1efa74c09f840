"""MNIST in its original idx files (train/t10k images and labels), as training-data-analyst's
fast-and-lean-data-science notebooks read them with FixedLengthRecordDataset (16- and 8-byte headers).

Writes train-images-idx3-ubyte / train-labels-idx1-ubyte (512 digits) and t10k-* (10000 digits:
the 2018 notebook evaluates one batch of 10000 with drop_remainder=True, so fewer would give an
empty validation set). Each image is a noisy stroke whose row encodes the label (the
mnist_records generator's pictures). numpy only.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np

from testbed.generators.mnist_records import images


def _write(out: Path, prefix: str, pictures: np.ndarray, labels: np.ndarray) -> None:
    count = len(labels)
    (out / f"{prefix}-images-idx3-ubyte").write_bytes(struct.pack(">IIII", 2051, count, 28, 28)
                                                      + pictures.astype(np.uint8).tobytes())
    (out / f"{prefix}-labels-idx1-ubyte").write_bytes(struct.pack(">II", 2049, count)
                                                      + labels.astype(np.uint8).tobytes())


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for prefix, count in (("train", 512), ("t10k", 10000)):
        pictures, labels = images(rng, count)
        _write(out, prefix, pictures, labels)


if __name__ == "__main__":
    write(Path(sys.argv[1]))
