"""A prepared TensorFlow Datasets `cifar10` from generated images, for programs that call
`tfds.builder("cifar10", data_dir=D).download_and_prepare()` (google-research/simclr's run.py, 2020).

Writes OUT/raw/cifar-10-batches-bin/ in CIFAR-10's binary layout (one label byte, then 3072 bytes:
the red, green and blue 32x32 planes): data_batch_1..5.bin of 16 images each (80 for training),
test_batch.bin of 32, batches.meta.txt. Each image is noise with a bright column whose position
encodes the label. `prepare(python, OUT, python_path)` then runs tfds's own cifar10 builder in
that interpreter, its download replaced by the raw folder, into OUT/tfds.

`write(OUT)` prepares with the oldest tfds a program uses: the TF 1.15 oracle's (tfds 3.1.0, SimCLR's
requirements.txt, installed by verify's `--with`: testbed.programs.SIMCLR_ORACLE_WITH), whose
cifar10/3.0.2 folder tfds 4.9 (the current sides) reads as it is, record for record in the same
order (checked: the first 8 training labels agree). The other way round fails: tfds 3.1.0 cannot
parse the dataset_info.json tfds 4.9 writes ('no field named "fileFormat"').
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

LABELS = ("airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck")

PREPARE = """
import sys
import tensorflow_datasets as tfds
raw, data_dir = sys.argv[1], sys.argv[2]
tfds.download.DownloadManager.download_and_extract = lambda self, url_or_urls: raw
# no network: tfds would look for a prepared copy and the dataset_info files in its GCS bucket
gcs_utils = tfds.core.utils.gcs_utils
gcs_utils.gcs_dataset_info_files = lambda *args, **kwargs: None
if hasattr(gcs_utils, "is_dataset_on_gcs"):  # tfds 3.x
    gcs_utils.is_dataset_on_gcs = lambda *args, **kwargs: False
builder = tfds.builder("cifar10", data_dir=data_dir)
builder.download_and_prepare()
print(builder.info.version, {name: split.num_examples for name, split in builder.info.splits.items()})
"""


def records(rng: np.random.RandomState, count: int) -> bytes:
    labels = rng.randint(0, 10, size=count)
    pictures = rng.randint(0, 96, size=(count, 3, 32, 32)).astype(np.uint8)
    out = bytearray()
    for picture, label in zip(pictures, labels):
        column = 3 * int(label) + 1
        picture[:, :, column:column + 2] = 255
        out += bytes([int(label)]) + picture.tobytes()
    return bytes(out)


def write_raw(out: Path) -> None:
    raw = out / "raw" / "cifar-10-batches-bin"
    raw.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(0)
    for index in range(1, 6):
        (raw / f"data_batch_{index}.bin").write_bytes(records(rng, 16))
    (raw / "test_batch.bin").write_bytes(records(rng, 32))
    (raw / "batches.meta.txt").write_text("\n".join(LABELS) + "\n")
    (out / "tfds").mkdir(exist_ok=True)


def prepare(python: str, out: Path, python_path: list[str]) -> str:
    """Run tfds's cifar10 builder of `python` (with `python_path`) on the raw files; returns its report."""
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    if python_path:
        env["PYTHONPATH"] = os.pathsep.join(python_path)
    env["TF_CPP_MIN_LOG_LEVEL"] = "2"
    completed = subprocess.run([python, "-c", PREPARE, str(out / "raw"), str(out / "tfds")], env=env,
                               capture_output=True, text=True, timeout=600)
    if completed.returncode != 0:
        raise RuntimeError(f"tfds cifar10 preparation failed in {python}:\n{completed.stderr[-3000:]}")
    return completed.stdout.strip().splitlines()[-1]


def write(out: Path) -> None:
    """Raw files, then OUT/tfds prepared by the TF 1.15 oracle's tfds (see the module docstring)."""
    from testbed.programs import SIMCLR_ORACLE_WITH
    from verify.oracles import ensure, ensure_extras

    write_raw(out)
    python = ensure("tf115", provision=False)
    extras = ensure_extras(python, SIMCLR_ORACLE_WITH)
    prepare(str(python), out, [str(extras)])


if __name__ == "__main__":
    write(Path(sys.argv[1]))
