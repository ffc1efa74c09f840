"""Command line of the codemod: flags, rendering and exit codes (no transformation logic here)."""

from __future__ import annotations

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="estimator-migrate",
        description="Rewrite TF1 / tf.contrib TPU code (scripts, packages, notebooks) for current TensorFlow.",
    )
    parser.add_argument("paths", nargs="*", help="files or directories to migrate ('-' for stdin)")
    return parser


def main(argv: list[str] | None = None) -> int:
    build_parser().parse_args(argv)
    return 0
