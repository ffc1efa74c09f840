"""tf.contrib names that were only re-exports of code current TensorFlow still ships, unexported.

TF 1.15's contrib modules here were stubs: contrib/tpu/python/ops/tpu_ops.py and
contrib/tpu/python/tpu/tpu_function.py are `from tensorflow.python.tpu... import *`, tf.contrib.tpu
star-imported tensorflow/python/tpu/training_loop.py, contrib/staging is `from
tensorflow.python.ops.data_flow_ops import StagingArea`, and contrib.tensorboard's projector is
the projector that moved to TensorBoard (`tensorboard.plugins.projector`: the same
ProjectorConfig message and the same visualize_embeddings, which also accepts the FileWriter TF 1.15
required). TF 2.21 has all of this code but no public name for most of it, so the codemod rewrites
to these names (the runner serves them under their tf.contrib names). The TPU low-level loop API
(InfeedQueue, tpu_feed's _PartitionedInfeedQueue, served as PartitionedInfeedQueue,
split_compile_and_shard) is TF 1.15's star import of tensorflow/python/tpu/{tpu_feed,tpu}.py, the
same code TF 2.21 has (InfeedQueue gained number_of_partitions before `name`: InfeedQueue below
keeps TF 1.15's parameter order); contrib.training's StopAfterNEvalsHook, evaluate_once and
wait_for_new_checkpoint are TF 2.21's private evaluation.py / checkpoint_utils code, the same lines.
"""

from __future__ import annotations

from tensorboard.plugins.projector import ProjectorConfig, visualize_embeddings
from tensorflow.python.ops.data_flow_ops import StagingArea
from tensorflow.python.training.evaluation import _evaluate_once as evaluate_once
from tensorflow.python.training.evaluation import _StopAfterNEvalsHook as StopAfterNEvalsHook
from tensorflow.python.tpu.ops import tpu_ops as _tpu_ops
from tensorflow.python.tpu.ops.tpu_ops import (all_to_all, collective_permute, infeed_dequeue, infeed_dequeue_tuple,
                                               infeed_enqueue, infeed_enqueue_tuple, outfeed_dequeue,
                                               outfeed_dequeue_tuple, outfeed_enqueue, outfeed_enqueue_tuple)
from tensorflow.python.tpu.tpu_function import TpuContext, get_tpu_context, on_device_training_loop, tpu_shard_context
from tensorflow.python.tpu.training_loop import repeat, while_loop
from tensorflow.python.tpu.tpu import split_compile_and_shard
from tensorflow.python.tpu import tpu_feed as _tpu_feed
from tensorflow.python.tpu.tpu_feed import _PartitionedInfeedQueue as PartitionedInfeedQueue
from tensorflow.python.training.checkpoint_utils import wait_for_new_checkpoint
# tf.contrib.summary.image was this function (TF 2.21 keeps it): floats are scaled as TF1's image
# summaries scaled them (0 -> 128 when any value is negative), where tf.summary.image clips to [0, 1].
from tensorflow.python.ops.summary_ops_v2 import image as summary_image

__all__ = ["ProjectorConfig", "visualize_embeddings", "StagingArea", "all_to_all", "collective_permute",
           "infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple", "outfeed_dequeue",
           "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "tpu_replicated_input",
           "TpuContext", "get_tpu_context", "on_device_training_loop", "tpu_shard_context", "repeat", "while_loop",
           "StopAfterNEvalsHook", "evaluate_once", "split_compile_and_shard", "InfeedQueue",
           "PartitionedInfeedQueue", "wait_for_new_checkpoint", "summary_image"]


def tpu_replicated_input(inputs, name=None):
    """TF 1.15's generated TPUReplicatedInput wrapper: (inputs, name) (the op's other attributes at their
    defaults, as TF 1.15 built it)."""
    return _tpu_ops.tpu_replicated_input(inputs, name=name)


class InfeedQueue(_tpu_feed.InfeedQueue):
    """TF 1.15's InfeedQueue(number_of_tuple_elements, tuple_types, tuple_shapes, shard_dimensions, name):
    TF 2.21's class, whose fifth parameter became number_of_partitions, so a positional `name` stays the
    name (the generated enqueue ops are named after it)."""

    def __init__(self, number_of_tuple_elements=None, tuple_types=None, tuple_shapes=None, shard_dimensions=None,
                 name=None):
        super().__init__(number_of_tuple_elements=number_of_tuple_elements, tuple_types=tuple_types,
                         tuple_shapes=tuple_shapes, shard_dimensions=shard_dimensions, name=name)
