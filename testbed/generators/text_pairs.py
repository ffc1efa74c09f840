"""Sentence-pair classification data for BERT-family fine-tuning scripts (GLUE MRPC / LCQMC layouts).

Writes into the folder given:
  vocab.txt                a WordPiece vocabulary: BERT's special tokens plus the generated words;
  bert_config.json         a 2-layer, 32-wide BERT (also read as an ALBERT config: the extra
                           ALBERT keys are present);
  mrpc/{train,dev,test}.tsv   GLUE MRPC columns (Quality, #1 ID, #2 ID, #1 String, #2 String);
  lcqmc/{train,dev,test}.txt  LCQMC columns (text_a, text_b, label), as albert_zh reads them;
  boolq/{train,dev}.jsonl  BoolQ lines {"question", "title", "answer", "passage"} (google-research/language).

The label is 1 when the two sentences share their first word, so a model can learn it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = [f"w{index}" for index in range(60)]
CONFIG = {
    "attention_probs_dropout_prob": 0.1, "hidden_act": "gelu", "hidden_dropout_prob": 0.1,
    "hidden_size": 32, "initializer_range": 0.02, "intermediate_size": 64, "max_position_embeddings": 64,
    "num_attention_heads": 2, "num_hidden_layers": 2, "type_vocab_size": 2,
    "vocab_size": len(SPECIAL) + len(WORDS),
    # ALBERT's extra keys (ignored by BERT's BertConfig.from_dict, which sets every key it is given)
    "embedding_size": 16, "num_hidden_groups": 1, "inner_group_num": 1, "net_structure_type": 0,
    "gap_size": 0, "num_memory_blocks": 0, "down_scale_factor": 1, "ln_type": "postln",
}


def sentence(rng: random.Random, first: str) -> str:
    return " ".join([first] + [rng.choice(WORDS) for _ in range(rng.randint(3, 8))])


def pairs(rng: random.Random, count: int):
    for index in range(count):
        first = rng.choice(WORDS)
        same = rng.random() < 0.5
        yield index, int(same), sentence(rng, first), sentence(rng, first if same else rng.choice(WORDS))


def write(out: Path, examples: int = 64) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "vocab.txt").write_text("\n".join(SPECIAL + WORDS) + "\n")
    (out / "bert_config.json").write_text(json.dumps(CONFIG, indent=1) + "\n")
    rng = random.Random(0)
    for layout in ("mrpc", "lcqmc", "boolq"):
        (out / layout).mkdir(exist_ok=True)
    for split, count in (("train", examples), ("dev", 24), ("test", 16)):
        rows = list(pairs(rng, count))
        mrpc = ["Quality\t#1 ID\t#2 ID\t#1 String\t#2 String"]
        mrpc += [f"{label}\t{2 * i}\t{2 * i + 1}\t{a}\t{b}" for i, label, a, b in rows]
        (out / "mrpc" / f"{split}.tsv").write_text("\n".join(mrpc) + "\n")
        lcqmc = [f"{a}\t{b}\t{label}" for _, label, a, b in rows]
        (out / "lcqmc" / f"{split}.txt").write_text("\n".join(lcqmc) + "\n")
        boolq = [json.dumps({"question": b, "title": "t", "answer": bool(label), "passage": a})
                 for _, label, a, b in rows]
        (out / "boolq" / f"{split}.jsonl").write_text("\n".join(boolq) + "\n")


if __name__ == "__main__":
    write(Path(sys.argv[1]))
