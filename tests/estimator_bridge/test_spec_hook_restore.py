"""A training hook that model_fn returns restores pretrained weights into the model (oracle test).

2018 TF-Slim fine-tuning trainers (xuzhezhaozhao/ai tf/slim/image_models/finetune) build
`slim.assign_from_checkpoint_fn(pretrained, slim.get_variables_to_restore(exclude=[logits]))` in
model_fn and call it from a spec hook's after_create_session. The bridge mapped only Savers a
hook built in begin() to the model's variables and refused this one ("not a variable model_fn
created"), and its training step ran the Saver's SaveV2 op at every step (a tf.function runs
every stateful op it traces). programs/spec_hook_restores_checkpoint.py restores a body from a checkpoint (the head
starts from a constant) and trains 2 steps: the variables must be TF 1.15's.
"""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf

from tests.support.oracles import REPO_ROOT
from tests.support.three_sides import run_side

pytestmark = pytest.mark.oracle

PROGRAM = REPO_ROOT / "tests" / "estimator_bridge" / "programs" / "spec_hook_restores_checkpoint.py"
tf1 = tf.compat.v1


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory):
    """A name-based checkpoint of `net/body` (TF 1.15 and the bridge read the same format)."""
    folder = tmp_path_factory.mktemp("pretrained")
    graph = tf.Graph()
    with graph.as_default():
        made = [tf1.get_variable("net/body/kernel", initializer=tf.constant([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])),
                tf1.get_variable("net/body/bias", initializer=tf.constant([0.1, -0.2, 0.3]))]
        with tf1.Session(graph=graph) as session:
            session.run(tf1.global_variables_initializer())
            return tf1.train.Saver(made).save(session, str(folder / "body.ckpt"))


@pytest.fixture(scope="module")
def oracle(pretrained, tmp_path_factory):
    side = run_side("oracle", PROGRAM, ["{model_dir}", pretrained], tmp_path_factory.mktemp("oracle"))
    assert side.returncode == 0, side.stderr[-3000:]
    return side.result


@pytest.mark.parametrize("side_name", ["runner", "migrated"])
def test_the_restored_body_trains_to_tf115_s_values(oracle, pretrained, side_name, tmp_path):
    side = run_side(side_name, PROGRAM, ["{model_dir}", pretrained], tmp_path)
    assert side.returncode == 0, side.stderr[-3000:]
    # the Saver model_fn built never saves by itself (the bridge's step ran its SaveV2 each step,
    # writing `model*` files into the working folder; with a folder named `model` there it crashed)
    assert not [p.name for p in (tmp_path / side_name).iterdir() if p.is_file()]
    assert sorted(side.result) == sorted(oracle)
    for name, values in oracle.items():  # body restored, head a constant: no random start
        np.testing.assert_allclose(side.result[name], values, rtol=0, atol=1e-6, err_msg=name)
