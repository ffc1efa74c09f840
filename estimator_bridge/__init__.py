"""estimator_bridge: TPUEstimator semantics for unchanged TF1 model_fn/input_fn on TF2 tf.distribute.

Change one import (`tf.contrib.tpu` / `tf.compat.v1.estimator.tpu` -> `estimator_bridge`) and
a TPUEstimator-era program trains and evaluates on current TensorFlow with the numbers the
original produced. Public names mirror the legacy ones.
"""

from estimator_bridge import runner_keras as _runner_keras

_runner_keras.choose_for_this_process()  # before TensorFlow loads: the compat runner's tf.keras is Keras 2

from estimator_bridge import autograph_library as _autograph_library

_autograph_library.register()  # the bridge's code runs as Python under AutoGraph, like TensorFlow's

from estimator_bridge import export, exporters, hooks, inputs, layers
from estimator_bridge.compat import slim_support  # noqa: F401  (tf-slim's batch_norm on TF 2.21)
from estimator_bridge.cluster_resolver import TPUClusterResolver
from estimator_bridge.config import InputPipelineConfig, RunConfig, TPUConfig
from estimator_bridge.runtime.controller import NanLossDuringTrainingError
from estimator_bridge.runtime.distribute import configure_logical_cpus
from estimator_bridge.estimator import Estimator, TPUEstimator
from estimator_bridge.keras_estimator import model_to_estimator
from estimator_bridge.exporters import BestExporter, Exporter, FinalExporter, LatestExporter
from estimator_bridge.hooks import (CheckpointSaverHook, CheckpointSaverListener, LoggingTensorHook, LoopTimingHook,
                                    NanTensorHook, ProfilerHook, SessionRunArgs,
                                    SessionRunContext, SessionRunHook, SessionRunValues,
                                    StopAtStepHook)
from estimator_bridge.optimizers import CrossShardOptimizer
from estimator_bridge.runtime.preemption import PREEMPTED_EXIT_CODE, TrainingPreempted
from estimator_bridge.spec import EstimatorSpec, ModeKeys, TPUEstimatorSpec
from estimator_bridge.training import EvalSpec, TrainSpec, train_and_evaluate
from estimator_bridge.warm_starting import VocabInfo, WarmStartSettings

__version__ = "0.1.0"

__all__ = [
    "BestExporter",
    "CheckpointSaverListener",
    "EvalSpec",
    "Exporter",
    "FinalExporter",
    "LatestExporter",
    "TrainSpec",
    "exporters",
    "model_to_estimator",
    "train_and_evaluate",
    "CrossShardOptimizer",
    "Estimator",
    "EstimatorSpec",
    "InputPipelineConfig",
    "ModeKeys",
    "NanLossDuringTrainingError",
    "RunConfig",
    "TPUClusterResolver",
    "TPUConfig",
    "TPUEstimator",
    "TPUEstimatorSpec",
    "TrainingPreempted",
    "PREEMPTED_EXIT_CODE",
    "configure_logical_cpus",
    "layers",
    "export",
    "hooks",
    "CheckpointSaverHook",
    "LoggingTensorHook",
    "LoopTimingHook",
    "NanTensorHook",
    "ProfilerHook",
    "SessionRunArgs",
    "SessionRunContext",
    "SessionRunHook",
    "SessionRunValues",
    "StopAtStepHook",
    "VocabInfo",
    "WarmStartSettings",
]
