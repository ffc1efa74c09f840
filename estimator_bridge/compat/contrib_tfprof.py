"""tf.contrib.tfprof.model_analyzer's option constants, built with TF 2.21's ProfileOptionBuilder.

TF 1.15's `print_model_analysis(graph, run_meta, op_log, tfprof_cmd, tfprof_options)` was
`tf.profiler.profile(graph, run_meta, op_log, cmd, options)` itself (the codemod rewrites it to
`tf.compat.v1.profiler.profile`); only its option dicts have no exported name in TF 2.21. Each
constant below builds the very OptionsProto its contrib namesake built (measured on TF 1.15 and
TF 2.21: `_build_options` of both equal), so the same report is printed and the same
GraphNodeProto (`.total_parameters`, `.total_float_ops`) returned. Used by research/slim
train_image_classifier.py forks to print the parameter count.
"""

from __future__ import annotations

import tensorflow as tf

_Builder = tf.compat.v1.profiler.ProfileOptionBuilder

__all__ = ["TRAINABLE_VARS_PARAMS_STAT_OPTIONS", "FLOAT_OPS_OPTIONS", "PRINT_ALL_TIMING_MEMORY"]

TRAINABLE_VARS_PARAMS_STAT_OPTIONS = _Builder.trainable_variables_parameter()
FLOAT_OPS_OPTIONS = _Builder.float_operation()
# contrib's timing/memory report was ordered by name; the builder's preset orders by micros.
PRINT_ALL_TIMING_MEMORY = _Builder(_Builder.time_and_memory()).order_by("name").build()
