"""SQuAD v1.1-format JSON (train.json, dev.json) over the text_pairs vocabulary, for BERT's run_squad.py.

Each paragraph is a generated sentence; each question asks for a span of it (the answer is the
word after a marker word), so start/end logits have something to learn.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from testbed.generators import text_pairs


def dataset(rng: random.Random, count: int, prefix: str) -> dict:
    paragraphs = []
    for index in range(count):
        words = [rng.choice(text_pairs.WORDS) for _ in range(12)]
        at = rng.randint(2, 9)
        context = " ".join(words)
        start = len(" ".join(words[:at])) + 1
        paragraphs.append({"context": context, "qas": [{
            "id": f"{prefix}{index}", "question": f"{words[at - 1]} {words[0]}",
            "answers": [{"text": words[at], "answer_start": start}]}]})
    return {"version": "1.1", "data": [{"title": "generated", "paragraphs": paragraphs}]}


def write(out: Path) -> None:
    text_pairs.write(out)
    rng = random.Random(1)
    (out / "train.json").write_text(json.dumps(dataset(rng, 48, "t")))
    (out / "dev.json").write_text(json.dumps(dataset(rng, 8, "d")))


if __name__ == "__main__":
    write(Path(sys.argv[1]))
