"""A plain-text corpus for character language models (tensorflow/tpu's keras_colab/shakespeare_lstm.py
reads shakespeare.txt from a bucket): OUT/shakespeare.txt, generated verse-like lines of a small
vocabulary, ASCII only, seeded."""

from __future__ import annotations

import random
import sys
from pathlib import Path

WORDS = ("to be or not the king verily we must go love night sweet prince fair lord thou art "
         "doth hence what light through yonder window breaks").split()


def write(out: Path, lines: int = 200) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(1600)
    text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 9))).capitalize() + rng.choice(".,;!?")
                     for _ in range(lines))
    (out / "shakespeare.txt").write_text(text + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
