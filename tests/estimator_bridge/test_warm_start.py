"""Warm start: warm_start_from and init_from_checkpoint in model_fn, applied once, only when fresh."""

from __future__ import annotations

import os

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import interop_model as model
from tests.support.numbers import assert_close

tf1 = tf.compat.v1


def make_estimator(model_dir, model_fn=None, hidden_scope="dense", **kwargs):
    config = tpu.RunConfig(model_dir=str(model_dir), save_checkpoints_steps=4,
                           tpu_config=tpu.TPUConfig(iterations_per_loop=4))
    return tpu.TPUEstimator(
        model_fn=model_fn or model.make_model_fn(tpu.TPUEstimatorSpec, hidden_scope=hidden_scope),
        config=config, use_tpu=False, train_batch_size=16, **kwargs)


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A trained model_dir (8 steps of Momentum: kernel, bias and their slots are non-zero)."""
    model_dir = tmp_path_factory.mktemp("source")
    make_estimator(model_dir).train(model.input_fn, max_steps=8)
    return str(model_dir)


def tensor(checkpoint, name):
    return tf.train.load_checkpoint(str(checkpoint)).get_tensor(name)


def test_a_path_warm_starts_the_trainable_variables_only(source, tmp_path):
    make_estimator(tmp_path, warm_start_from=source).train(model.input_fn, max_steps=1)
    start = tmp_path / "model.ckpt-0"
    for name in ("dense/kernel", "dense/bias"):
        np.testing.assert_array_equal(tensor(start, name), tensor(source + "/model.ckpt-8", name))
    # '.*' matches TRAINABLE variables: slots and the global step start fresh, as in TF1.
    assert not tensor(start, "dense/kernel/Momentum").any()
    assert tensor(start, "global_step") == 0


def test_a_list_selects_over_all_variables_including_slots(source, tmp_path):
    settings = tpu.WarmStartSettings(source, vars_to_warm_start=["dense/"])
    make_estimator(tmp_path, warm_start_from=settings).train(model.input_fn, max_steps=1)
    start, trained = tmp_path / "model.ckpt-0", source + "/model.ckpt-8"
    for name in ("dense/kernel", "dense/kernel/Momentum", "dense/bias/Momentum"):
        np.testing.assert_array_equal(tensor(start, name), tensor(trained, name))


def test_renamed_variables_warm_start_from_their_previous_names(source, tmp_path):
    settings = tpu.WarmStartSettings(source, vars_to_warm_start="new/kernel",
                                     var_name_to_prev_var_name={"new/kernel": "dense/kernel"})
    make_estimator(tmp_path, hidden_scope="new", warm_start_from=settings).train(
        model.input_fn, max_steps=1)
    np.testing.assert_array_equal(tensor(tmp_path / "model.ckpt-0", "new/kernel"),
                                  tensor(source, "dense/kernel"))
    assert not tensor(tmp_path / "model.ckpt-0", "new/bias").any()


def test_a_model_dir_with_a_checkpoint_is_resumed_not_warm_started(source, tmp_path):
    make_estimator(tmp_path / "plain").train(model.input_fn, max_steps=4)
    make_estimator(tmp_path / "warm").train(model.input_fn, max_steps=4)
    make_estimator(tmp_path / "plain").train(model.input_fn, max_steps=8)
    make_estimator(tmp_path / "warm", warm_start_from=source).train(model.input_fn, max_steps=8)
    np.testing.assert_array_equal(tensor(tmp_path / "warm", "dense/kernel"),
                                  tensor(tmp_path / "plain", "dense/kernel"))


def _bert_style_model_fn(init_checkpoint, in_scaffold):
    """BERT's pattern: init_from_checkpoint with a scope map, in scaffold_fn on TPU."""
    base = model.make_model_fn(tpu.TPUEstimatorSpec, hidden_scope="bert")

    def model_fn(features, labels, mode, params):
        def initialise():
            tf1.train.init_from_checkpoint(init_checkpoint, {"dense/": "bert/"})
            return tf1.train.Scaffold()

        spec = base(features, labels, mode, params)
        if not in_scaffold:
            initialise()  # after the variables exist, as TF1 required
        return spec._replace(scaffold_fn=initialise) if in_scaffold else spec

    return model_fn


@pytest.mark.parametrize("in_scaffold", [True, False], ids=["scaffold_fn", "model_fn"])
def test_init_from_checkpoint_is_applied_once_before_training(source, tmp_path, in_scaffold):
    estimator = make_estimator(tmp_path, model_fn=_bert_style_model_fn(source, in_scaffold))
    estimator.train(model.input_fn, max_steps=8)
    np.testing.assert_array_equal(tensor(tmp_path / "model.ckpt-0", "bert/kernel"),
                                  tensor(source, "dense/kernel"))
    # Applied once: training moves the weights away from the checkpoint (a restore op inside
    # the traced step would reset them every step).
    moved = np.abs(tensor(tmp_path / "model.ckpt-8", "bert/kernel")
                   - tensor(tmp_path / "model.ckpt-4", "bert/kernel")).max()
    assert moved > 1e-3
    assert estimator.get_variable_value("global_step") == 8


def test_vocab_info_remaps_rows_by_vocabulary(tmp_path):
    old_vocab, new_vocab = tmp_path / "old.txt", tmp_path / "new.txt"
    old_vocab.write_text("a\nb\nc\n")
    new_vocab.write_text("c\nz\na\n")
    embeddings = np.arange(12, dtype=np.float32).reshape(3, 4)

    def model_fn(features, labels, mode, params):
        table = tf1.get_variable("embeddings", [3, 4], initializer=tf1.constant_initializer(
            embeddings if params.get("trained") else 0.5))
        spec = model.make_model_fn(tpu.TPUEstimatorSpec)(features, labels, mode, params)
        with tf.control_dependencies([tf.reduce_sum(table)]):
            return spec

    source_dir = tmp_path / "source"
    source_estimator = tpu.TPUEstimator(
        model_fn=model_fn, config=tpu.RunConfig(model_dir=str(source_dir)), use_tpu=False,
        train_batch_size=16, params={"trained": True})
    source_estimator.train(model.input_fn, max_steps=1)
    vocab = tpu.VocabInfo(new_vocab=str(new_vocab), new_vocab_size=3, num_oov_buckets=0,
                          old_vocab=str(old_vocab))
    settings = tpu.WarmStartSettings(str(source_dir), vars_to_warm_start="embeddings",
                                     var_name_to_vocab_info={"embeddings": vocab})
    tpu.TPUEstimator(model_fn=model_fn, config=tpu.RunConfig(model_dir=str(tmp_path / "warm")),
                     use_tpu=False, train_batch_size=16, params={"trained": False},
                     warm_start_from=settings).train(model.input_fn, max_steps=1)
    remapped = tensor(tmp_path / "warm" / "model.ckpt-0", "embeddings")
    np.testing.assert_array_equal(remapped[0], embeddings[2])  # 'c' was row 2
    np.testing.assert_array_equal(remapped[2], embeddings[0])  # 'a' was row 0
    assert not remapped[1].any()  # 'z' is new: zero-initialised (no backup initializer)


# ---- errors ------------------------------------------------------------------------------------

def test_missing_checkpoint_names_the_path_and_the_fix(tmp_path):
    with pytest.raises(ValueError, match=r"warm start: checkpoint '.*nowhere/model.ckpt-3' does "
                                         r"not exist.*Pass an existing checkpoint prefix"):
        make_estimator(tmp_path, warm_start_from=str(tmp_path / "nowhere" / "model.ckpt-3")
                       ).train(model.input_fn, max_steps=1)
    os.makedirs(tmp_path / "empty")
    with pytest.raises(ValueError, match=r"no checkpoint found in directory .*empty"):
        make_estimator(tmp_path / "m", warm_start_from=str(tmp_path / "empty")).train(
            model.input_fn, max_steps=1)


def test_a_variable_missing_from_the_checkpoint_is_named(source, tmp_path):
    settings = tpu.WarmStartSettings(source, vars_to_warm_start=["new/kernel"],
                                     var_name_to_prev_var_name={"new/kernel": "dense/kernel"})
    # A list is a regex scope over all variables: it also selects the slot new/kernel/Momentum.
    with pytest.raises(ValueError, match=r"variable 'new/kernel/Momentum' \(looked up as "
                                         r"'new/kernel/Momentum'\) is not in checkpoint .*"
                                         r"var_name_to_prev_var_name"):
        make_estimator(tmp_path, hidden_scope="new", warm_start_from=settings).train(
            model.input_fn, max_steps=1)


def test_a_shape_mismatch_names_the_variable_and_both_shapes(source, tmp_path):
    def model_fn(features, labels, mode, params):  # a 5-class head where the source had 3
        kernel = tf1.get_variable("dense/kernel", [8, 5], initializer=tf1.zeros_initializer())
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, tf1.matmul(features, kernel))
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode, loss=loss, train_op=train_op)

    with pytest.raises(ValueError, match=r"variable 'dense/kernel' has shape \[8, 5\] in the "
                                         r"model but 'dense/kernel' has shape \[8, 3\] in "
                                         r"checkpoint"):
        make_estimator(tmp_path, model_fn=model_fn, warm_start_from=tpu.WarmStartSettings(
            source, vars_to_warm_start="dense/kernel")).train(
            model.input_fn, max_steps=1)


def test_init_from_checkpoint_of_a_missing_tensor_says_how_to_fix_the_map(source, tmp_path):
    def model_fn(features, labels, mode, params):
        spec = model.make_model_fn(tpu.TPUEstimatorSpec, hidden_scope="bert")(
            features, labels, mode, params)
        tf1.train.init_from_checkpoint(source, {"encoder/": "bert/"})
        return spec

    with pytest.raises(ValueError, match=r"init_from_checkpoint in model_fn failed: .*encoder.*"
                                         r"fix the assignment map"):
        make_estimator(tmp_path, model_fn=model_fn).train(model.input_fn, max_steps=1)


def test_warm_start_from_of_the_wrong_type():
    with pytest.raises(ValueError, match=r"warm_start_from must be a string or a "
                                         r"WarmStartSettings, instead got int 3"):
        make_estimator("/tmp/unused", warm_start_from=3)


def test_export_without_a_checkpoint_exports_the_warm_start_checkpoint(source, tmp_path):
    """TF1's export_saved_model on an untrained model_dir with warm_start_from exported the
    warm-start checkpoint (Estimator._export_all_saved_models)."""
    from estimator_bridge import export

    estimator = make_estimator(tmp_path / "fresh", warm_start_from=source, export_to_tpu=False)
    export_dir = estimator.export_saved_model(
        str(tmp_path / "export"), model.serving_input_receiver_fn_with(export.ServingInputReceiver))
    served = tf.saved_model.load(os.fsdecode(export_dir)).signatures["serving_default"](
        x=tf.constant(model.SERVING_INPUTS))
    expected = model.SERVING_INPUTS @ tensor(source, "dense/kernel") + tensor(source, "dense/bias")
    assert_close(served["logits"].numpy(), expected, rtol=1e-6, what="served logits")
    with pytest.raises(ValueError, match="Couldn't find trained model"):
        make_estimator(tmp_path / "cold", export_to_tpu=False).export_saved_model(
            str(tmp_path / "export"),
            model.serving_input_receiver_fn_with(export.ServingInputReceiver))
