"""Bad input to the bridge fails (or warns) with a message naming the object, the value, the fix.

These are the cases of issue 7 not already in tests/estimator_bridge/test_errors.py and
test_core_behaviour.py (docs/reliability.md lists both): signatures, labels without a labels
argument, a model_dir that cannot be written, damaged checkpoints, a checkpoint of another
model, an empty dataset.
"""

from __future__ import annotations

import functools
import logging
import os

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny

tf1 = tf.compat.v1


def test_model_fn_with_an_argument_the_estimator_cannot_pass(tmp_path):
    def model_fn(features, labels, mode, params, hidden_units):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"model_fn \(model_fn\) has following not expected "
                                         r"args: \['hidden_units'\]\. A model_fn may only take "
                                         r"features, labels, mode, params and config"):
        tiny.make_estimator(tmp_path, model_fn=model_fn)


def test_input_fn_with_an_argument_the_estimator_cannot_pass(tmp_path):
    def input_fn(params, data_dir):
        return tiny.input_fn(params)

    with pytest.raises(ValueError, match=r"input_fn \(input_fn\) requires argument\(s\) "
                                         r"\['data_dir'\] that the estimator does not pass.*"
                                         r"functools.partial\(input_fn, \.\.\.\)"):
        tiny.make_estimator(tmp_path).train(input_fn, steps=1)
    # the fix the message names works
    tiny.make_estimator(tmp_path).train(functools.partial(input_fn, data_dir="unused"), steps=1)
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-1")


def test_labels_returned_but_model_fn_takes_no_labels(tmp_path):
    def features_only_model_fn(features, mode, params):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"model_fn does not take labels, but input_fn returns "
                                         r"labels\. Add `labels` to the signature of "
                                         r"features_only_model_fn or return features only"):
        tiny.make_estimator(tmp_path, model_fn=features_only_model_fn).train(
            tiny.input_fn, steps=1)


def test_model_fn_returning_none(tmp_path):
    def forgetful_model_fn(features, labels, mode, params):
        tiny.logits_of(features)

    with pytest.raises(TypeError, match=r"model_fn \(forgetful_model_fn\) returned NoneType "
                                        r"None; it must return estimator_bridge.TPUEstimatorSpec"):
        tiny.make_estimator(tmp_path, model_fn=forgetful_model_fn).train(tiny.input_fn, steps=1)


@pytest.mark.parametrize("inside", [False, True], ids=["model_dir_is_a_file", "under_a_file"])
def test_model_dir_that_cannot_be_written(tmp_path, inside):
    # A regular file in the way: root ignores permission bits, so chmod cannot make this test.
    blocking_file = tmp_path / "results.txt"
    blocking_file.write_text("not a directory")
    model_dir = blocking_file / "model" if inside else blocking_file
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match=rf"model_dir '{model_dir}' is not a writable directory .*pass a "
                             r"model_dir you can create and write"):
        tiny.make_estimator(model_dir).train(tiny.input_fn, steps=1)


def _trained_model_dir(model_dir, steps=2):
    tiny.make_estimator(model_dir).train(tiny.input_fn, steps=steps)
    return tf.train.latest_checkpoint(str(model_dir))


def test_truncated_checkpoint_data_names_the_checkpoint_and_the_fix(tmp_path):
    prefix = _trained_model_dir(tmp_path)
    data_file, = [name for name in os.listdir(tmp_path) if name.startswith("model.ckpt-2.data")]
    (tmp_path / data_file).write_bytes(b"truncated")
    # 9 bytes where 8 were written: TF reports a checksum mismatch (OpError), shorter files
    # "Read less bytes than requested" (IndexError); both must come out as this message.
    message = (rf"checkpoint {prefix} is damaged: reading 'global_step' failed with \w+: "
               r".*delete them and the entry in model_dir's "
               r"`checkpoint` file to resume from an older checkpoint")
    with pytest.raises(ValueError, match=message):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, max_steps=5)
    with pytest.raises(ValueError, match=rf"checkpoint {prefix} is damaged: reading "):
        tiny.make_estimator(tmp_path).evaluate(tiny.input_fn, steps=1)


def test_garbage_checkpoint_index_names_the_checkpoint(tmp_path):
    prefix = _trained_model_dir(tmp_path)
    (tmp_path / "model.ckpt-2.index").write_bytes(b"garbage")
    with pytest.raises(ValueError, match=rf"checkpoint {prefix} is damaged: reading its index "
                                         r"failed .*Restore them from a copy"):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, steps=1)


def test_checkpoint_of_another_model(tmp_path):
    prefix = _trained_model_dir(tmp_path)

    def other_model_fn(features, labels, mode, params):
        kernel = tf1.get_variable("classifier/kernel", [8, 3],
                                  initializer=tf1.zeros_initializer())
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, tf1.matmul(features, kernel))
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    with pytest.raises(ValueError, match=rf"checkpoint {prefix} has no tensor for the model "
                                         r"variable\(s\) \['classifier/kernel'\]; it holds "
                                         r"\['dense/bias', 'dense/kernel', 'global_step'\].*"
                                         r"start from an empty model_dir"):
        tiny.make_estimator(tmp_path, model_fn=other_model_fn).train(tiny.input_fn, steps=1)


def test_checkpoint_of_the_same_names_with_other_shapes(tmp_path):
    prefix = _trained_model_dir(tmp_path)

    def wider_model_fn(features, labels, mode, params):
        kernel = tf1.get_variable("dense/kernel", [8, 5], initializer=tf1.zeros_initializer())
        bias = tf1.get_variable("dense/bias", [5], initializer=tf1.zeros_initializer())
        loss = tf1.losses.sparse_softmax_cross_entropy(labels, tf1.matmul(features, kernel) + bias)
        train_op = tf1.train.GradientDescentOptimizer(0.1).minimize(
            loss, tf1.train.get_global_step())
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    with pytest.raises(ValueError, match=rf"checkpoint {prefix} stores 'dense/\w+' with shape "
                                         r"\(\d+(, \d+)?\), the model's variable has shape "
                                         r"\(\d+(, \d+)?\).*use a new model_dir"):
        tiny.make_estimator(tmp_path, model_fn=wider_model_fn).train(tiny.input_fn, steps=1)


def test_empty_dataset_warns_that_no_step_ran(tmp_path, caplog):
    def empty_input_fn(params):
        return tf.data.Dataset.from_tensor_slices((tiny.FEATURES[:0], tiny.LABELS[:0])).batch(
            params["batch_size"], drop_remainder=True)

    with caplog.at_level(logging.WARNING, logger="estimator_bridge"):
        tiny.make_estimator(tmp_path).train(empty_input_fn, steps=3)
    assert ("train() ran no step: the dataset returned by input_fn had no batch (an empty "
            "dataset, or fewer rows than one batch with drop_remainder=True), so the global "
            "step stays at 0. Check the files/arrays input_fn reads and the batch size, or add "
            ".repeat() to the dataset.") in caplog.text
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-0")


def test_a_dataset_that_trains_does_not_warn(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="estimator_bridge"):
        tiny.make_estimator(tmp_path).train(tiny.input_fn, steps=3)
    assert "ran no step" not in caplog.text


def test_params_given_to_a_model_fn_without_params(tmp_path):
    def model_fn(features, labels, mode):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"model_fn \(model_fn\) does not include params "
                                         r"argument, but params \(\{'learning_rate': 0.1\}\) is "
                                         r"passed to Estimator\. Add `params` to its signature "
                                         r"or drop params="):
        tpu.Estimator(model_fn=model_fn, model_dir=str(tmp_path),
                      params={"learning_rate": 0.1})


def test_model_fn_without_features(tmp_path):
    def model_fn(inputs, labels, mode, params):
        raise AssertionError("never called")

    with pytest.raises(ValueError, match=r"model_fn \(model_fn\) must include features argument\. "
                                         r"Declare it as model_fn\(features, labels, mode, "
                                         r"params\)"):
        tiny.make_estimator(tmp_path, model_fn=model_fn)


def test_params_are_copied_so_a_model_fn_cannot_change_the_estimators(tmp_path):
    """Misuse TF1 tolerated: writing into params inside model_fn changes nothing outside."""
    seen = []
    params = {"learning_rate": 0.1}

    def mutating_model_fn(features, labels, mode, params):
        seen.append(dict(params))
        params["learning_rate"] = 99.0
        return tiny.make_model_fn()(features, labels, mode, params)

    estimator = tpu.TPUEstimator(model_fn=mutating_model_fn, params=params, use_tpu=False,
                                 train_batch_size=16,
                                 config=tpu.RunConfig(model_dir=str(tmp_path)))
    estimator.train(tiny.input_fn, steps=1)
    assert params == {"learning_rate": 0.1}
    assert seen and all(call["learning_rate"] == 0.1 for call in seen)
