"""TF 0.12's summary functions (`tf.scalar_summary`, ..., TF 1.15's `tf.contrib.deprecated.*`), as TF 2.21 ships them.

TF 1.0 renamed them to `tf.summary.scalar` & co., which take a NAME: the tag written is that name under
the enclosing name scopes (and `scalar` wants a scalar). These took the TAG as given (`scalar_summary`
also a tensor of tags with values of the same shape). TF 2.21 still carries the original functions in
tensorflow/python/ops/logging_ops.py, unexported; TF 1.15's `tf.contrib.deprecated.X` was that same
object (measured), so a migrated call writes the same tags to the same collections.
"""

from __future__ import annotations

from tensorflow.python.ops.logging_ops import (audio_summary, histogram_summary, image_summary, merge_all_summaries,
                                               merge_summary, scalar_summary)

__all__ = ["audio_summary", "histogram_summary", "image_summary", "merge_all_summaries", "merge_summary",
           "scalar_summary"]
