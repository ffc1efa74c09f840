"""`warm_start_from`'s values: `WarmStartSettings`, `VocabInfo`, and how Estimator reads the argument.

These are the public face of warm starting (TF1's `tf.estimator.WarmStartSettings` and
`tf.estimator.VocabInfo`): plain values that a program builds and hands to the estimator. How
they are applied (once, eagerly, only when no checkpoint is restored) is the runtime's
business: `estimator_bridge/runtime/warm_start.py` (docs/architecture.md, "Checkpoints and
warm starts").
"""

from __future__ import annotations

import collections
import os

import tensorflow as tf

tf1 = tf.compat.v1

VocabInfo = tf1.train.VocabInfo


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info",
        "var_name_to_prev_var_name"])):
    """Where and what to warm-start from (TF1's `tf.estimator.WarmStartSettings`).

    Args:
      ckpt_to_initialize_from: a checkpoint prefix, a directory holding checkpoints, or a
        SavedModel directory.
      vars_to_warm_start: a regex over TRAINABLE variables (default '.*'), a list of regexes
        or names over all GLOBAL variables (e.g. optimizer slots), or None (only the
        variables in var_name_to_vocab_info).
      var_name_to_vocab_info: `{variable name: VocabInfo}` for embeddings whose vocabulary
        changed.
      var_name_to_prev_var_name: `{variable name: name in the checkpoint}`.
    """

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*",
                var_name_to_vocab_info=None, var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("Need to specify where to warm-start from: WarmStartSettings("
                             "ckpt_to_initialize_from=...) got "
                             f"{ckpt_to_initialize_from!r}. Pass a checkpoint or model_dir.")
        return super().__new__(cls, str(ckpt_to_initialize_from), vars_to_warm_start,
                               var_name_to_vocab_info or {}, var_name_to_prev_var_name or {})


def settings_from(warm_start_from):
    """Estimator's `warm_start_from` argument as WarmStartSettings (or None)."""
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        return WarmStartSettings(os.fsdecode(warm_start_from))
    if isinstance(warm_start_from, WarmStartSettings) or (
            type(warm_start_from).__name__ == "WarmStartSettings"
            and hasattr(warm_start_from, "ckpt_to_initialize_from")):
        return WarmStartSettings(*warm_start_from)
    raise ValueError(f"warm_start_from must be a string or a WarmStartSettings, instead got "
                     f"{type(warm_start_from).__name__} {warm_start_from!r:.120}. Pass a "
                     "checkpoint path or estimator_bridge.WarmStartSettings(path, ...).")
