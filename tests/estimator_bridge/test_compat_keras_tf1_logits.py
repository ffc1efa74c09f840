"""The runner's TF 1.x Keras takes crossentropy logits by TF 1.15's rule; TF 2.x programs keep TF 2.x's.

tensorflow/tpu's autoencoder_embeddings notebook (2019) compiles `Dense(10, activation='sigmoid')`
with `sparse_categorical_crossentropy`. TF 1.15's Keras took logits only from the loss's own
activation op (Softmax; Sigmoid for binary crossentropy) and renormalised anything else; tf-keras
(like TF 2.15's Keras) takes the input of any sigmoid or softmax as the logits, so under the runner
the notebook's first loss was 2.4267669 where TF 1.15 wrote 2.3288105.

Oracle test: `real_patterns/keras_crossentropy_activations.py` (sigmoid and softmax outputs under
categorical, sparse categorical and binary crossentropy, as strings and as `tf.keras.losses`
functions) runs on TF 1.15 and under the runner: the same losses. The same program marked TF 2.x
runs on TF 2.15 and under the runner: the same losses, TF 2.x's rule. Measured 2026-11-28: the
runner within 2.6e-7 of TF 1.15 (before the fix: sigmoid + sparse CE 2.2947569 vs TF 1.15's
1.8331184, softmax + binary CE 1.0345521 vs 0.8755065); the TF 2.x program equal to TF 2.15.
"""

from __future__ import annotations

import pytest

from tests.estimator_bridge.test_compat_keras_legacy import assert_same_results, run_under_runner
from tests.support.oracles import REPO_ROOT, oracle_python, run_json

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "real_patterns" / "keras_crossentropy_activations.py"
TF2_LINE = "tf.constant(1.0).numpy()  # eager execution: a TF 2.x program\n"


@pytest.mark.oracle
def test_a_tf1_program_gets_tf115s_losses_whatever_its_activation(tmp_path):
    expected = run_json(oracle_python("tf115"), PROGRAM, cwd=tmp_path)
    ours = run_under_runner(PROGRAM, cwd=tmp_path)
    # the cases the rule changes: another activation than the loss's own
    assert abs(expected["sigmoid sparse_categorical_crossentropy string"][0] - 1.8331184) < 1e-6
    assert abs(expected["softmax binary_crossentropy string"][0] - 0.8755065) < 1e-6
    assert_same_results(ours, expected)


@pytest.mark.oracle
def test_a_tf2_program_keeps_tf2s_rule(tmp_path):
    program = tmp_path / "tf2_program.py"
    source = PROGRAM.read_text()
    program.write_text(source.replace("import tensorflow as tf\n", "import tensorflow as tf\n" + TF2_LINE, 1))
    expected = run_json(oracle_python("tf215"), program, cwd=tmp_path)
    ours = run_under_runner(program, cwd=tmp_path)
    # TF 2.x's Keras: the sigmoid's input taken as softmax logits
    assert abs(expected["sigmoid sparse_categorical_crossentropy string"][0] - 2.2947569) < 1e-6
    assert_same_results(ours, expected)
