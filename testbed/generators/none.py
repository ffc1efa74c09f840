"""No inputs: the program makes its own (tensorflow/tpu's ResNet builds a null pipeline without data_dir)."""

from __future__ import annotations

from pathlib import Path


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
