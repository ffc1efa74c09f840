"""A PTB-style corpus turned into Transformer-XL's TFRecords by the repository's own data_utils.py.

Writes train/valid/test.txt (generated sentences over 50 words), then runs
`tf/data_utils.py --dataset=ptb --use_tpu=false` of the fetched sources with the TF 1.15 oracle's
interpreter (the script is TF1 code), which writes corpus-info.json and tfrecords/ with the
record_info files train.py reads.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

NEEDS_SOURCES = True
WORDS = [f"w{index}" for index in range(50)]


def write(out: Path, sources: Path) -> None:
    from verify.environments import program_env
    from verify.oracles import ensure

    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(0)
    for split, lines in (("train", 400), ("valid", 80), ("test", 80)):
        text = "\n".join(" ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 12))) for _ in range(lines))
        (out / f"{split}.txt").write_text(text + "\n")
    python = ensure("tf115", provision=False)
    completed = subprocess.run(
        [str(python), "data_utils.py", f"--data_dir={out}", "--dataset=ptb", "--tgt_len=8", "--per_host_train_bsz=4",
         "--per_host_valid_bsz=4", "--num_core_per_host=1", "--use_tpu=false"],
        cwd=sources / "tf", capture_output=True, text=True, env=program_env(), timeout=600)
    if completed.returncode != 0:
        raise RuntimeError(f"data_utils.py failed:\n{completed.stderr[-3000:]}")


if __name__ == "__main__":
    write(Path(sys.argv[1]), Path(sys.argv[2]))
