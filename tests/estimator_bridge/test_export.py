"""export_saved_model: a TF1-layout SavedModel that a fresh TF 2 process serves with the model's numbers."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from estimator_bridge import export
from tests.estimator_bridge import interop_model as model
from tests.support.numbers import assert_close
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

tf1 = tf.compat.v1
# Served outputs against the same numbers computed another way (numpy from the checkpoint,
# predict(), TF 1.15's export), by the suite's one comparison (tests/support/numbers.py:
# relative to max(|value|, 1e-3, the tensor's RMS); no atol). Measured (TF 2.21, 2026-11-23):
# logits, predict() and classify/regress outputs identical; probabilities vs TF 1.15's export
# 1.3e-7, their row sums 5.2e-8 from 1. rtol 1e-6: float32 order, nothing more.
RTOL = 1e-6

_SERVE = """
import json, sys
import numpy as np, tensorflow as tf
path, signature_name, feed = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
signature = tf.saved_model.load(path).signatures[signature_name]
inputs = {name: tf.constant(np.asarray(value, dtype=spec.dtype.as_numpy_dtype))
          for (name, value), spec in zip(sorted(feed.items()),
          [signature.structured_input_signature[1][n] for n in sorted(feed)])}
outputs = signature(**inputs)
print(json.dumps({name: np.asarray(value).tolist() for name, value in outputs.items()}))
"""


def serve_in_fresh_process(export_dir, feed, signature_name="serving_default"):
    """Loads the SavedModel with tf.saved_model.load in a new interpreter and runs a signature."""
    path = export_dir.decode() if isinstance(export_dir, bytes) else export_dir
    completed = subprocess.run(
        [sys.executable, "-c", _SERVE, path, signature_name, json.dumps(feed)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads(completed.stdout.strip().splitlines()[-1])


def make_estimator(model_dir, model_fn=None, **kwargs):
    config = tpu.RunConfig(model_dir=str(model_dir), save_checkpoints_steps=4,
                           tpu_config=tpu.TPUConfig(iterations_per_loop=4))
    return tpu.TPUEstimator(
        model_fn=model_fn or model.make_model_fn(tpu.TPUEstimatorSpec, tpu.CrossShardOptimizer),
        config=config, use_tpu=False, train_batch_size=16, **kwargs)


RECEIVER_FN = model.serving_input_receiver_fn_with(export.ServingInputReceiver)


@pytest.fixture(scope="module")
def trained_dir(tmp_path_factory):
    model_dir = tmp_path_factory.mktemp("trained")
    make_estimator(model_dir, export_to_tpu=False).train(model.input_fn, max_steps=8)
    return model_dir


def serve_in_this_process(export_dir, inputs):
    signature = tf.saved_model.load(os.fsdecode(export_dir)).signatures["serving_default"]
    return {name: value.numpy() for name, value in signature(x=tf.constant(inputs)).items()}


def test_fresh_process_serves_the_checkpoint_numbers(trained_dir, tmp_path):
    estimator = make_estimator(trained_dir, export_to_tpu=False, predict_batch_size=5)
    export_dir = estimator.export_saved_model(str(tmp_path / "export"), RECEIVER_FN)
    assert isinstance(export_dir, bytes)  # TF1 returned bytes
    assert os.path.basename(export_dir).decode().isdigit()  # a timestamp
    assert sorted(os.listdir(export_dir)) == [b"saved_model.pb", b"variables"]
    served = serve_in_fresh_process(export_dir, {"x": model.SERVING_INPUTS.tolist()})
    # The same logits computed live from the checkpoint's variables.
    logits = (model.SERVING_INPUTS @ estimator.get_variable_value("dense/kernel")
              + estimator.get_variable_value("dense/bias"))
    assert_close(served["logits"], logits, rtol=RTOL, what="served logits")
    assert served["class_ids"] == np.argmax(logits, 1).tolist()
    assert_close(np.sum(served["probabilities"], 1), np.ones(len(logits)), rtol=RTOL,
                 what="probabilities' row sums")

    # And the estimator's own predict() on the same rows gives the same outputs.
    def predict_input_fn(params):
        return tf.data.Dataset.from_tensor_slices(model.SERVING_INPUTS).batch(params["batch_size"])

    predictions = list(estimator.predict(predict_input_fn))
    assert [int(row["class_ids"]) for row in predictions] == served["class_ids"]
    assert_close([row["logits"] for row in predictions], served["logits"], rtol=RTOL,
                 what="predict() logits")


def test_as_text_assets_extra_and_an_explicit_checkpoint(trained_dir, tmp_path):
    vocabulary = tmp_path / "vocab.txt"
    vocabulary.write_text("a\nb\n")
    estimator = make_estimator(trained_dir, export_to_tpu=False)
    first = str(trained_dir / "model.ckpt-4")
    export_dir = estimator.export_saved_model(
        str(tmp_path / "export"), RECEIVER_FN, assets_extra={"extra/vocab.txt": str(vocabulary)},
        as_text=True, checkpoint_path=first)
    assert os.path.exists(os.path.join(export_dir, b"saved_model.pbtxt"))
    assert open(os.path.join(export_dir, b"assets.extra/extra/vocab.txt")).read() == "a\nb\n"
    served = serve_in_this_process(export_dir, model.SERVING_INPUTS)
    reader = tf.train.load_checkpoint(first)
    logits = model.SERVING_INPUTS @ reader.get_tensor("dense/kernel") + reader.get_tensor(
        "dense/bias")
    assert_close(served["logits"], logits, rtol=RTOL, what="served logits")


def _classifier_model_fn(features, labels, mode, params):
    outputs = model.make_model_fn(tpu.TPUEstimatorSpec)(features, labels, mode, params)
    if mode != tpu.ModeKeys.PREDICT:
        return outputs
    probabilities = outputs.predictions["probabilities"]
    return tpu.TPUEstimatorSpec(mode, predictions=outputs.predictions, export_outputs={
        "serving_default": export.PredictOutput(outputs.predictions),
        "classify": export.ClassificationOutput(scores=probabilities),
        "regress": export.RegressionOutput(value=probabilities[:, 0])})


def test_parsing_receiver_with_classification_and_regression_signatures(trained_dir, tmp_path):
    estimator = make_estimator(trained_dir, model_fn=_classifier_model_fn, export_to_tpu=False)
    receiver_fn = export.build_parsing_serving_input_receiver_fn(
        {"x": tf.io.FixedLenFeature([8], tf.float32)})
    export_dir = estimator.export_saved_model(str(tmp_path / "export"), receiver_fn)
    examples = [tf.train.Example(features=tf.train.Features(feature={"x": tf.train.Feature(
        float_list=tf.train.FloatList(value=row))})).SerializeToString()
        for row in model.SERVING_INPUTS]
    loaded = tf.saved_model.load(export_dir.decode())
    assert sorted(loaded.signatures) == ["classify", "regress", "serving_default"]
    classify = loaded.signatures["classify"](inputs=tf.constant(examples))
    regress = loaded.signatures["regress"](inputs=tf.constant(examples))
    logits = (model.SERVING_INPUTS @ estimator.get_variable_value("dense/kernel")
              + estimator.get_variable_value("dense/bias"))
    probabilities = tf.nn.softmax(logits).numpy()
    # Against an eager recomputation from the checkpoint (same kernels: measured equal on
    # TF 2.21); the TF 1.15 export comparison is the oracle test.
    assert_close(classify["scores"].numpy(), probabilities, rtol=RTOL, what="classify scores")
    assert_close(regress["outputs"].numpy(), probabilities[:, 0], rtol=RTOL,
                 what="regress outputs")


def test_raw_receiver_fn_builds_placeholders_like_the_features(trained_dir, tmp_path):
    receiver_fn = export.build_raw_serving_input_receiver_fn({"x": tf.zeros([2, 8])})
    export_dir = make_estimator(trained_dir, export_to_tpu=False).export_saved_model(
        str(tmp_path / "export"), receiver_fn)
    signature = tf.saved_model.load(export_dir.decode()).signatures["serving_default"]
    assert signature.structured_input_signature[1]["x"].shape.as_list() == [None, 8]


def test_export_to_tpu_default_and_explicit(trained_dir, tmp_path, caplog):
    with caplog.at_level(logging.INFO, logger="estimator_bridge"):
        make_estimator(trained_dir).export_saved_model(str(tmp_path / "a"), RECEIVER_FN)
    assert "TPU metagraph of TPUEstimator's default export_to_tpu=True is not produced" in \
        caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="estimator_bridge"):
        make_estimator(trained_dir, export_to_tpu=True).export_saved_model(
            str(tmp_path / "b"), RECEIVER_FN)
    assert "export_to_tpu=True: estimator_bridge writes only the CPU serving metagraph" in \
        caplog.text


@pytest.mark.parametrize("flags, message", [
    ({"export_to_tpu": False, "export_to_cpu": False},
     r"One of export_to_cpu and export_to_tpu must be true. Pass export_to_cpu=True"),
    ({"export_to_tpu": True, "export_to_cpu": False},
     r"export_to_tpu=True, export_to_cpu=False\) asks only for the TPU metagraph.*Pass "
     r"export_to_cpu=True"),
])
def test_export_targets_that_produce_nothing_raise(trained_dir, tmp_path, flags, message):
    with pytest.raises(ValueError, match=message):
        make_estimator(trained_dir, **flags).export_saved_model(str(tmp_path), RECEIVER_FN)


def test_export_errors_name_the_problem_and_the_fix(trained_dir, tmp_path):
    with pytest.raises(ValueError, match=r"An input_receiver_fn must be defined. Pass "
                                         r"serving_input_receiver_fn="):
        make_estimator(trained_dir, export_to_tpu=False).export_saved_model(str(tmp_path), None)
    with pytest.raises(ValueError, match=r"Couldn't find trained model at .*empty.*Train first"):
        make_estimator(tmp_path / "empty", export_to_tpu=False).export_saved_model(
            str(tmp_path / "x"), RECEIVER_FN)
    renamed = model.make_model_fn(tpu.TPUEstimatorSpec, hidden_scope="renamed")
    with pytest.raises(ValueError, match=r"variable 'renamed/kernel' is not in checkpoint .*"
                                         r"model.ckpt-8.*same layers in every mode"):
        make_estimator(trained_dir, model_fn=renamed, export_to_tpu=False).export_saved_model(
            str(tmp_path / "y"), RECEIVER_FN)
    with pytest.raises(ValueError, match=r"must return estimator_bridge.export."
                                         r"ServingInputReceiver"):
        make_estimator(trained_dir, export_to_tpu=False).export_saved_model(
            str(tmp_path / "z"), lambda: {"x": tf1.placeholder(tf.float32, [None, 8])})


def test_export_savedmodel_alias(trained_dir, tmp_path):
    estimator = make_estimator(trained_dir, export_to_tpu=False)
    assert estimator.export_savedmodel.__func__ is estimator.export_saved_model.__func__


@pytest.mark.oracle
def test_bridge_export_of_a_tf115_model_dir_serves_what_tf115_exported(tmp_path):
    python = oracle_python("tf115")
    program = REPO_ROOT / "tests" / "estimator_bridge" / "interop_tf115.py"
    run_json(python, program, "train", str(tmp_path / "tf1"), "8")
    tf1_served = run_json(python, program, "export", str(tmp_path / "tf1"), str(tmp_path / "e1"))
    shutil.rmtree(tmp_path / "tf1" / "export", ignore_errors=True)
    export_dir = make_estimator(tmp_path / "tf1", export_to_tpu=False).export_saved_model(
        str(tmp_path / "e2"), RECEIVER_FN)
    served = serve_in_fresh_process(export_dir, {"x": model.SERVING_INPUTS.tolist()})
    assert tf1_served["signatures"] == ["serving_default"]
    assert served["class_ids"] == tf1_served["outputs"]["class_ids"]
    for name in ("logits", "probabilities"):
        assert_close(served[name], tf1_served["outputs"][name], rtol=RTOL,
                     what=f"{name} served vs TF 1.15's export")


def test_a_plain_estimator_exports_its_estimator_spec(tmp_path):
    def estimator_spec(mode, loss=None, train_op=None, eval_metrics=None, predictions=None):
        return tpu.EstimatorSpec(mode, loss=loss, train_op=train_op, predictions=predictions)

    def plain_model_fn(features, labels, mode):
        return model.make_model_fn(estimator_spec)(features, labels, mode, {"use_tpu": False})

    estimator = tpu.Estimator(plain_model_fn, model_dir=str(tmp_path / "model"))
    estimator.train(lambda: model.input_fn({"batch_size": 16}), max_steps=2)
    export_dir = estimator.export_saved_model(str(tmp_path / "export"), RECEIVER_FN)
    served = serve_in_this_process(export_dir, model.SERVING_INPUTS)
    logits = (model.SERVING_INPUTS @ estimator.get_variable_value("dense/kernel")
              + estimator.get_variable_value("dense/bias"))
    assert_close(served["logits"], logits, rtol=RTOL, what="served logits")
