"""No argument of the public API is accepted and silently ignored (docs/arguments.md).

Every row of `estimator_bridge.arguments.UNSUPPORTED` is tried on the real constructor with a
value TF 1.15 gave meaning to (it must raise, naming the argument and the fix) and with its
accepted value (it must construct); the arguments refused or implemented by their own logic
have a test each; and every parameter of every public signature must appear in
docs/arguments.md, so that a new argument cannot arrive undocumented.
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge import arguments
from tests.estimator_bridge import tiny
from tests.support.oracles import REPO_ROOT

tf1 = tf.compat.v1

ARGUMENTS_DOC = (REPO_ROOT / "docs" / "arguments.md").read_text()

# owner -> a value TF 1.15 accepted that the bridge cannot honour, per argument.
REFUSED_VALUES = {
    ("TPUConfig", "num_cores_per_replica"): 2,
    ("TPUConfig", "input_partition_dims"): [[1, 2, 1, 1], None],
    ("TPUConfig", "tpu_job_name"): "tpu_worker",
    ("TPUConfig", "experimental_host_call_every_n_steps"): 10,
    ("RunConfig", "device_fn"): lambda op: "/cpu:0",
    ("RunConfig", "protocol"): "grpc+verbs",
    ("RunConfig", "experimental_distribute"): object(),
    ("RunConfig", "experimental_max_worker_delay_secs"): 60,
    ("RunConfig", "session_creation_timeout_secs"): 60,
    ("RunConfig", "keep_checkpoint_every_n_hours"): 1,
    ("TPUEstimator", "batch_axis"): (3, 0),  # mobilenet.py's transposed input
    ("TPUEstimator", "embedding_config_spec"): object(),
    ("CheckpointSaverHook", "saver"): object(),
    ("CheckpointSaverHook", "scaffold"): object(),
    ("CheckpointSaverHook", "checkpoint_basename"): "weights.ckpt",
}


def construct(owner, **kwargs):
    if owner == "TPUConfig":
        return tpu.TPUConfig(**kwargs)
    if owner == "RunConfig":
        return tpu.RunConfig(**kwargs)
    if owner == "TPUEstimator":
        return tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=tpu.RunConfig(),
                                use_tpu=False, **kwargs)
    if owner == "CheckpointSaverHook":
        return tpu.CheckpointSaverHook("/tmp/unused", save_steps=1, **kwargs)
    raise AssertionError(owner)


def test_every_row_of_the_table_has_a_refused_value():
    assert sorted(REFUSED_VALUES) == sorted(arguments.UNSUPPORTED)


@pytest.mark.parametrize("owner,name", sorted(REFUSED_VALUES))
def test_an_unsupported_value_raises_with_the_argument_and_the_fix(owner, name):
    with pytest.raises(NotImplementedError, match=rf"{owner}\({name}=.*not supported by "
                                                  r"estimator_bridge: .*To run: "):
        construct(owner, **{name: REFUSED_VALUES[(owner, name)]})


@pytest.mark.parametrize("owner,name", sorted(REFUSED_VALUES))
def test_the_default_value_is_accepted(owner, name):
    default = inspect.signature({"TPUConfig": tpu.TPUConfig.__new__, "RunConfig": tpu.RunConfig,
                                 "TPUEstimator": tpu.TPUEstimator,
                                 "CheckpointSaverHook": tpu.CheckpointSaverHook}[owner]
                                ).parameters[name].default
    if default is inspect.Parameter.empty or repr(default).startswith("<object"):
        default = None
    construct(owner, **{name: default})


# ---- arguments with their own rules --------------------------------------------------------

def test_batch_axis_zero_everywhere_is_the_split_the_bridge_makes():
    # tensorflow/tpu models/official/mobilenet/mobilenet.py (05f7b15, 2019) passes
    # batch_axis=(batch_axis, 0) with batch_axis 0 unless its input is transposed: it was refused
    for batch_axis in ((0, 0), [0, 0], ({"image": 0, "mask": 0}, 0), 0):
        construct("TPUEstimator", batch_axis=batch_axis)
    for batch_axis in ((0, 1), ({"image": 3}, 0), (False, 0)):
        with pytest.raises(NotImplementedError, match="batch_axis"):
            construct("TPUEstimator", batch_axis=batch_axis)


def test_evaluation_master_must_be_where_training_runs():
    tpu.RunConfig(master="grpc://10.0.0.2:8470", evaluation_master="grpc://10.0.0.2:8470")
    tpu.RunConfig(evaluation_master="")
    with pytest.raises(NotImplementedError, match=r"evaluation_master='grpc://10.0.0.3:8470'.*"
                                                  r"evaluate\(\) runs where train\(\) runs"):
        tpu.RunConfig(master="grpc://10.0.0.2:8470", evaluation_master="grpc://10.0.0.3:8470")


def test_eval_distribute_must_be_the_train_strategy():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    tpu.RunConfig(train_distribute=strategy, eval_distribute=strategy)
    with pytest.raises(NotImplementedError, match=r"eval_distribute=.*same strategy"):
        tpu.RunConfig(train_distribute=strategy,
                      eval_distribute=tf.distribute.OneDeviceStrategy("/cpu:0"))


def test_session_config_fields_are_applied_or_refused():
    tf.constant(1.0) + 1.0  # TensorFlow has started (its thread pools exist), whatever ran before
    tpu.RunConfig(session_config=tf1.ConfigProto(allow_soft_placement=True))
    threads = tf.config.threading.get_intra_op_parallelism_threads()
    tpu.RunConfig(session_config=tf1.ConfigProto(intra_op_parallelism_threads=threads))
    with pytest.raises(NotImplementedError, match=r"session_config.*operation_timeout_in_ms"):
        tpu.RunConfig(session_config=tf1.ConfigProto(operation_timeout_in_ms=1000))
    with pytest.raises(NotImplementedError, match=r"intra_op_parallelism_threads=.*before"):
        tpu.RunConfig(session_config=tf1.ConfigProto(
            intra_op_parallelism_threads=threads + 3))


def test_grappler_switches_of_graph_options_are_applied_process_wide():
    """tensorflow/tpu EfficientNet: ConfigProto(graph_options=GraphOptions(rewrite_options=
    RewriterConfig(disable_meta_optimizer=True))). Run in a subprocess: the switch is global."""
    program = textwrap.dedent("""
        import json
        import tensorflow as tf
        from tensorflow.core.protobuf import rewriter_config_pb2
        import estimator_bridge as tpu
        config = tf.compat.v1.ConfigProto(graph_options=tf.compat.v1.GraphOptions(
            rewrite_options=rewriter_config_pb2.RewriterConfig(
                disable_meta_optimizer=True, layout_optimizer=rewriter_config_pb2.RewriterConfig.OFF,
                min_graph_nodes=-1)))
        tpu.RunConfig(session_config=config)
        print(json.dumps(tf.config.optimizer.get_experimental_options()))
        """)
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                               timeout=300)
    assert completed.returncode == 0, completed.stderr[-3000:]
    options = json.loads(completed.stdout.strip().splitlines()[-1])
    assert options["disable_meta_optimizer"] is True
    assert options["layout_optimizer"] is False
    assert options["min_graph_nodes"] == -1


def test_graph_options_without_a_tf2_switch_are_refused_with_the_fix():
    from tensorflow.core.protobuf import rewriter_config_pb2

    aggressive = tf1.ConfigProto(graph_options=tf1.GraphOptions(rewrite_options=rewriter_config_pb2.RewriterConfig(
        constant_folding=rewriter_config_pb2.RewriterConfig.AGGRESSIVE)))
    with pytest.raises(NotImplementedError, match=r"rewrite_options.constant_folding.*set_experimental_options"):
        tpu.RunConfig(session_config=aggressive)
    jit = tf1.ConfigProto(graph_options=tf1.GraphOptions(optimizer_options=tf1.OptimizerOptions(
        global_jit_level=tf1.OptimizerOptions.ON_1)))
    with pytest.raises(NotImplementedError, match=r"graph_options.optimizer_options.*set_jit"):
        tpu.RunConfig(session_config=jit)


def test_train_distribute_runs_the_model_on_that_strategy(tmp_path):
    strategy = tf.distribute.MirroredStrategy(
        ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.ReductionToOneDevice())
    estimator = tpu.Estimator(
        model_fn=_estimator_spec,
        config=tpu.RunConfig(model_dir=str(tmp_path), train_distribute=strategy))
    estimator.train(lambda: tiny.input_fn({"batch_size": 16}), steps=2)
    assert estimator._deployment.strategy is strategy
    assert estimator._deployment.num_replicas == 2
    assert estimator.get_variable_value("global_step") == 2


def _estimator_spec(features, labels, mode):
    logits = tiny.logits_of(features)
    loss = tf1.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
        loss, tf1.train.get_global_step())
    return tpu.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)


@pytest.mark.parametrize("deployment", [False, tpu.InputPipelineConfig.PER_SHARD_V1,
                                        tpu.InputPipelineConfig.BROADCAST])
def test_per_shard_and_broadcast_input_on_several_cores_fail_at_construction(deployment):
    config = tpu.RunConfig(tpu_config=tpu.TPUConfig(num_shards=8,
                                                    per_host_input_for_training=deployment))
    with pytest.raises(NotImplementedError, match=r"per_host_input_for_training=.*8 replicas.*"
                                                  r"PER_HOST_V2"):
        tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=config, use_tpu=True,
                         train_batch_size=16)
    # One replica, or TPUEstimator's CPU path: TF1 read the input the same way; accepted.
    tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=config, use_tpu=False,
                     train_batch_size=16)


def test_initial_infeed_sleep_delays_the_first_loop(tmp_path):
    config = tpu.RunConfig(model_dir=str(tmp_path), tpu_config=tpu.TPUConfig(
        iterations_per_loop=2, initial_infeed_sleep_secs=1.5))
    estimator = tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=config, use_tpu=False,
                                 train_batch_size=16)
    started = time.monotonic()
    estimator.train(tiny.input_fn, steps=2)
    assert time.monotonic() - started >= 1.5


def test_export_saved_model_api_version_is_validated():
    for version in (1, 2):
        tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=tpu.RunConfig(), use_tpu=False,
                         export_saved_model_api_version=version)
    with pytest.raises(ValueError, match=r"export_saved_model_api_version should be 1 or 2"):
        tpu.TPUEstimator(model_fn=tiny.make_model_fn(), config=tpu.RunConfig(), use_tpu=False,
                         export_saved_model_api_version=3)


def test_export_of_a_train_or_eval_metagraph_is_refused(tmp_path):
    estimator = tiny.make_estimator(tmp_path)
    with pytest.raises(NotImplementedError, match=r"experimental_mode='train'.*PREDICT"):
        estimator.export_saved_model(str(tmp_path / "export"), lambda: None,
                                     experimental_mode=tpu.ModeKeys.TRAIN)


class CountingHook(tf1.train.SessionRunHook):
    def __init__(self, calls, name):
        self._calls, self._name = calls, name

    def begin(self):
        self._calls.append(self._name)


def test_training_chief_hooks_run_on_the_chief(tmp_path):
    calls = []

    def model_fn(features, labels, mode):
        spec = _estimator_spec(features, labels, mode)
        return spec._replace(training_hooks=[CountingHook(calls, "training")],
                             training_chief_hooks=[CountingHook(calls, "chief")])

    tpu.Estimator(model_fn=model_fn, config=tpu.RunConfig(model_dir=str(tmp_path))).train(
        lambda: tiny.input_fn({"batch_size": 16}), steps=1)
    assert calls == ["training", "chief"]


def test_a_scaffold_with_session_fields_is_refused_and_an_empty_one_accepted(tmp_path):
    def model_fn_with(scaffold):
        def model_fn(features, labels, mode):
            return _estimator_spec(features, labels, mode)._replace(scaffold=scaffold)
        return model_fn

    tpu.Estimator(model_fn=model_fn_with(tf1.train.Scaffold()),
                  config=tpu.RunConfig(model_dir=str(tmp_path / "empty"))).train(
        lambda: tiny.input_fn({"batch_size": 16}), steps=1)
    refused = tf1.train.Scaffold(init_fn=lambda scaffold, session: None)
    with pytest.raises(NotImplementedError, match=r"Scaffold\(init_fn=...\).*Session.*"
                                                  r"init_from_checkpoint"):
        tpu.Estimator(model_fn=model_fn_with(refused),
                      config=tpu.RunConfig(model_dir=str(tmp_path / "refused"))).train(
            lambda: tiny.input_fn({"batch_size": 16}), steps=1)


# ---- the audit covers every public signature ------------------------------------------------

PUBLIC_SIGNATURES = {
    "RunConfig": tpu.RunConfig.__init__,
    "TPUConfig": tpu.TPUConfig.__new__,
    "TPUEstimator": tpu.TPUEstimator.__init__,
    "Estimator": tpu.Estimator.__init__,
    "train": tpu.TPUEstimator.train,
    "evaluate": tpu.TPUEstimator.evaluate,
    "predict": tpu.TPUEstimator.predict,
    "export_saved_model": tpu.TPUEstimator.export_saved_model,
    "EstimatorSpec": tpu.EstimatorSpec.__new__,
    "TPUEstimatorSpec": tpu.TPUEstimatorSpec.__new__,
    "CheckpointSaverHook": tpu.CheckpointSaverHook.__init__,
    "ProfilerHook": tpu.ProfilerHook.__init__,
    "WarmStartSettings": tpu.WarmStartSettings.__new__,
    "CrossShardOptimizer": tpu.CrossShardOptimizer.__init__,
}


@pytest.mark.parametrize("owner", sorted(PUBLIC_SIGNATURES))
def test_every_public_argument_is_in_the_audit_table(owner):
    parameters = [name for name in inspect.signature(PUBLIC_SIGNATURES[owner]).parameters
                  if name not in ("self", "cls")]
    missing = [name for name in parameters if name not in DOCUMENTED_IDENTIFIERS]
    assert not missing, f"{owner}: {missing} not in docs/arguments.md"


def _identifiers_in_code_spans(markdown):
    """Every identifier inside a code span: spans paired left to right, never a closing backtick
    taken as an opening one (so prose between two spans never counts as documented)."""
    assert markdown.count("`") % 2 == 0, "an unclosed code span would shift every pairing after it"
    spans = re.findall(r"`([^`]+)`", markdown)
    return {word for span in spans for word in re.findall(r"[A-Za-z_]\w*", span)}


DOCUMENTED_IDENTIFIERS = _identifiers_in_code_spans(ARGUMENTS_DOC)


def test_prose_between_code_spans_does_not_count_as_documented():
    # A word of prose between two code spans was taken as documented by the previous check
    # (an accepted-and-ignored `strategy=` argument passed it); a paired scan does not.
    identifiers = _identifiers_in_code_spans("`a` then strategy and seed `b(c, d)`")
    assert identifiers == {"a", "b", "c", "d"}
