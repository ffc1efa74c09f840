"""tf.contrib names that were only re-exports of code current TensorFlow still ships, unexported.

TF 1.15's contrib modules here were stubs: contrib/tpu/python/ops/tpu_ops.py and
contrib/tpu/python/tpu/tpu_function.py are `from tensorflow.python.tpu... import *`, tf.contrib.tpu
star-imported tensorflow/python/tpu/training_loop.py, contrib/staging is `from
tensorflow.python.ops.data_flow_ops import StagingArea`, and contrib.tensorboard's projector is
the projector that moved to TensorBoard (`tensorboard.plugins.projector`: the same
ProjectorConfig message and the same visualize_embeddings, which also accepts the FileWriter TF 1.15
required). TF 2.21 has all of this code but no public name for most of it, so the codemod rewrites
to these names (the runner serves them under their tf.contrib names). Found on heldout3:
GoogleCloudPlatform/cloudml-samples tpu_rewrite (infeed/outfeed, repeat) and tpu_triplet_loss
(projector), brain-research/self-attention-gan eval_imagenet.py (contrib.training's StopAfterNEvalsHook
and evaluate_once were tensorflow/python/training/evaluation.py's private _StopAfterNEvalsHook and
_evaluate_once, the same code in TF 2.21 but for two log lines), tensorflow/kfac ops/utils.py (tpu_function, tpu_replicated_input), deepmind/scalable_agent
(StagingArea).

One signature changed: TF 2.21's generated tpu_replicated_input put is_mirrored_variable, index and
is_packed before `name`, so TF 1.15's `(inputs, name=None)` is kept by the wrapper below.
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

__all__ = ["ProjectorConfig", "visualize_embeddings", "StagingArea", "all_to_all", "collective_permute",
           "infeed_dequeue", "infeed_dequeue_tuple", "infeed_enqueue", "infeed_enqueue_tuple", "outfeed_dequeue",
           "outfeed_dequeue_tuple", "outfeed_enqueue", "outfeed_enqueue_tuple", "tpu_replicated_input",
           "TpuContext", "get_tpu_context", "on_device_training_loop", "tpu_shard_context", "repeat", "while_loop",
           "StopAfterNEvalsHook", "evaluate_once"]


def tpu_replicated_input(inputs, name=None):
    """TF 1.15's generated TPUReplicatedInput wrapper: (inputs, name) (the op's other attributes at their
    defaults, as TF 1.15 built it)."""
    return _tpu_ops.tpu_replicated_input(inputs, name=name)
