"""How input_fn and model_fn are called: arguments by signature, params copied and injected."""

from __future__ import annotations

import contextlib
import functools

import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge.contract import calling

PARAMS = {"hidden": [4, 2]}


def test_fn_args_sees_through_partial_and_methods():
    def input_fn(data_dir, params, mode=None):
        return data_dir

    class Model:
        def model_fn(self, features, labels, mode, params):
            return features

    assert calling.fn_args(functools.partial(input_fn, "/data")) == ("params", "mode")
    assert calling.fn_args(functools.partial(input_fn, data_dir="/d")) == ("params", "mode")
    assert calling.fn_args(Model().model_fn) == ("features", "labels", "mode", "params")


def test_input_fn_gets_a_deep_copy_of_params_and_only_what_it_declares():
    received = []

    def input_fn(params, config):
        received.append((params, config))
        params["hidden"].append(99)  # mutating its copy changes nothing for the caller
        return "dataset"

    assert calling.call_input_fn(input_fn, mode="train", params=PARAMS, config="the config",
                                 require_params=True) == "dataset"
    assert received == [({"hidden": [4, 2, 99]}, "the config")]
    assert PARAMS == {"hidden": [4, 2]}


def test_tpuestimator_requires_params_in_input_fn_and_model_fn():
    def no_params():
        return None

    with pytest.raises(ValueError, match=r"input_fn \(no_params\) does not include params"):
        calling.call_input_fn(no_params, mode="train", params={}, config=None,
                              require_params=True)
    with pytest.raises(ValueError, match=r"does not include params argument, required by "
                                         r"TPUEstimator"):
        calling.verify_model_fn_args(lambda features, labels, mode: None, None,
                                     require_params=True)
    with pytest.raises(ValueError, match=r"has following not expected args: \['extra'\]"):
        calling.verify_model_fn_args(lambda features, params, extra: None, None,
                                     require_params=True)


def test_an_input_fn_argument_the_estimator_cannot_fill_is_named():
    def input_fn(params, data_dir):
        return None

    with pytest.raises(ValueError, match=r"requires argument\(s\) \['data_dir'\].*"
                                         r"functools.partial"):
        calling.call_input_fn(input_fn, mode="train", params={}, config=None,
                              require_params=True)


def spec_model_fn(seen):
    def model_fn(features, labels, mode, params):
        seen.append(dict(params))
        loss = tf.reduce_sum(features)
        hook = tpu.StopAtStepHook(last_step=5)
        train_op = tf.identity(loss) if mode == tpu.ModeKeys.TRAIN else None
        return tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op,
                                    training_hooks=[hook], evaluation_hooks=[],
                                    prediction_hooks=[])
    return model_fn


def test_model_function_binds_params_mode_and_batch_size_once():
    seen = []
    bound = calling.ModelFunction(spec_model_fn(seen), params=PARAMS, config=None,
                                  mode=tpu.ModeKeys.TRAIN, batch_size=8, use_tpu=True)
    outputs = bound(tf.ones([8, 2]), None)
    bound(tf.ones([8, 2]), None)
    assert seen == [{"hidden": [4, 2], "batch_size": 8, "use_tpu": True}] * 2
    assert (bound.mode, bound.batch_size) == ("train", 8)
    assert float(outputs.loss) == 16.0
    assert [type(hook).__name__ for hook in outputs.hooks] == ["StopAtStepHook"]
    assert PARAMS == {"hidden": [4, 2]}


def test_estimator_params_reach_model_fn_unchanged():
    seen = []
    bound = calling.ModelFunction(spec_model_fn(seen), params=PARAMS, config=None,
                                  mode=tpu.ModeKeys.EVAL, batch_size=8, use_tpu=None)
    outputs = bound(tf.ones([8, 2]), None)
    assert seen == [{"hidden": [4, 2]}]
    assert outputs.hooks == ()  # the EVAL mode's hooks


def test_user_code_runs_inside_around_user_code():
    entered = []

    @contextlib.contextmanager
    def around():
        entered.append("model_fn")
        yield

    calling.ModelFunction(spec_model_fn([]), params={}, config=None, mode="train",
                          use_tpu=False, around_user_code=around)(tf.ones([1, 2]), None)
    assert entered == ["model_fn"]


def test_a_model_fn_returning_something_else_is_named():
    def model_fn(features, labels, mode, params):
        return {"loss": 1}

    bound = calling.ModelFunction(model_fn, params={}, config=None, mode="train", use_tpu=False)
    with pytest.raises(TypeError, match=r"model_fn \(model_fn\) returned dict .*must return "
                                        r"estimator_bridge.TPUEstimatorSpec or EstimatorSpec"):
        bound(tf.ones([1, 2]), None)


def test_labels_without_a_labels_argument_are_refused():
    def model_fn(features, mode, params):
        return None

    with pytest.raises(ValueError, match=r"model_fn does not take labels, but input_fn returns "
                                         r"labels"):
        calling.call_model_fn(model_fn, features=1, labels=2, mode="train", params={},
                              config=None)
