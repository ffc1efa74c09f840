"""`variable.op.name` inside a model_fn on the bridge's eager variables (runtime/variable_op.py).

SimCLR builds init_from_checkpoint maps from `v.op.name`; tensorflow/tpu ResNet and MnasNet
filter warm-start variables with `if scope in v.op.name`. TF 1.15's graph variables had an op;
the bridge's are created eagerly and traced later.
"""

import pytest
import tensorflow as tf

from tests.estimator_bridge import tiny

tf1 = tf.compat.v1


@pytest.mark.parametrize("replicas", [0, 2], ids=["one device", "two emulated cores"])
def test_model_fn_reads_each_variable_op_name_and_type(tmp_path, replicas):
    seen = []

    def spec_kwargs(features, labels, logits, loss):
        seen.extend((v.op.name, v.op.type) for v in tf1.trainable_variables())
        return {}

    estimator = tiny.make_estimator(tmp_path / "model", replicas=replicas,
                                    model_fn=tiny.make_model_fn(spec_kwargs=spec_kwargs))
    estimator.train(tiny.input_fn, max_steps=2)
    assert set(seen) == {("dense/kernel", "VarHandleOp"), ("dense/bias", "VarHandleOp")}


def test_other_uses_of_the_op_still_fail_as_in_tf2():
    from estimator_bridge.runtime.variable_op import answer_op_name

    variable = tf.Variable(1.0, name="w")
    answer_op_name(variable)

    @tf.function
    def read():
        op = variable.op
        assert (op.name, op.type) == ("w", "VarHandleOp")
        with pytest.raises(AttributeError):
            op.inputs  # noqa: B018
        return variable + 1.0

    assert float(read()) == 2.0
