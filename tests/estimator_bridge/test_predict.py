"""predict(): per-example dicts, predict_keys, whole batches, padding on emulated TPU cores.

The expected predictions are computed from the checkpoint the bridge wrote, with numpy (the
model is softmax(x @ kernel + bias)), so they check the restore and the padding/ordering, not
the bridge against itself.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

import estimator_bridge as tpu
from tests.estimator_bridge import tiny

tf1 = tf.compat.v1

# 40 rows in batches of 16: 16, 16 and a short batch of 8.
ROWS = 40


def predict_input_fn(params):
    return tf.data.Dataset.from_tensor_slices(tiny.FEATURES[:ROWS]).batch(params["batch_size"])


def model_fn(features, labels, mode, params):
    if mode == tpu.ModeKeys.PREDICT:
        logits = tiny.logits_of(features)
        return tpu.TPUEstimatorSpec(mode=mode, predictions={
            "probabilities": tf1.nn.softmax(logits), "classes": tf1.argmax(logits, 1)})
    return tiny.make_model_fn()(features, labels, mode, params)


def expected_probabilities(estimator):
    logits = tiny.FEATURES[:ROWS] @ estimator.get_variable_value("dense/kernel") + \
        estimator.get_variable_value("dense/bias")
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def trained(tmp_path, replicas=0, model_fn=model_fn):
    config = tpu.RunConfig(model_dir=str(tmp_path),
                           tpu_config=tpu.TPUConfig(iterations_per_loop=4,
                                                    num_shards=replicas or None))
    estimator = tpu.TPUEstimator(model_fn=model_fn, config=config, use_tpu=bool(replicas),
                                 train_batch_size=16, eval_batch_size=16, predict_batch_size=16)
    estimator.train(tiny.input_fn, steps=8)
    return estimator


# rtol 1e-6 below: predictions are checked against a numpy float32 recomputation from the
# checkpoint (different op order than TF's matmul/softmax kernels), not against an oracle;
# measured 2.7e-7 (1 device) and 2.2e-7 (8 cores) on TF 2.21.


def test_predict_yields_one_dict_per_example_from_the_checkpoint(tmp_path):
    estimator = trained(tmp_path)
    rows = list(estimator.predict(predict_input_fn))
    assert len(rows) == ROWS and sorted(rows[0]) == ["classes", "probabilities"]
    probabilities = np.stack([row["probabilities"] for row in rows])
    np.testing.assert_allclose(probabilities, expected_probabilities(estimator), rtol=1e-6)
    assert [int(row["classes"]) for row in rows] == list(probabilities.argmax(axis=1))


def test_predict_keys_and_whole_batches(tmp_path):
    estimator = trained(tmp_path)
    batches = list(estimator.predict(predict_input_fn, predict_keys=["classes"],
                                     yield_single_examples=False))
    assert [sorted(b) for b in batches] == [["classes"]] * 3
    assert [len(b["classes"]) for b in batches] == [16, 16, 8]
    with pytest.raises(ValueError, match=r"Expected to run at least one output from "
                                         r"\['classes', 'probabilities'\], provided \['logits'\]"):
        list(estimator.predict(predict_input_fn, predict_keys=["logits"]))


def test_predict_on_8_tpu_cores_pads_the_short_batch_and_drops_the_padding(tmp_path):
    estimator = trained(tmp_path, replicas=8)
    rows = list(estimator.predict(predict_input_fn))
    assert len(rows) == ROWS   # 8 padding rows of the last batch never reach the user
    probabilities = np.stack([row["probabilities"] for row in rows])
    np.testing.assert_allclose(probabilities, expected_probabilities(estimator), rtol=1e-6)
