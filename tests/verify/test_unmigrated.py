"""VER007: a migrated side stopping in TF1 code outside its migrated tree, told from the traceback.

The traceback is the one google-research/language's BoolQ (run_bert_boolq.py) printed on the
migrated side of the test bed (2026-11-23 and 2026-11-27): its pip dependency `bert` still
subclasses `tf.train.Optimizer`.
"""

from __future__ import annotations

from verify.unmigrated import tf1_dependency

BOOLQ = """Traceback (most recent call last):
  File "{work}/migrated/boolq/run_bert_boolq.py", line 26, in <module>
    from bert import optimization
  File "/home/user/.cache/estimator-bridge/extras/ffd4d5f6f73a/bert/optimization.py", line 87, in <module>
    class AdamWeightDecayOptimizer(tf.train.Optimizer):
                                   ^^^^^^^^^^^^^^^^^^
AttributeError: module 'tensorflow._api.v2.train' has no attribute 'Optimizer'
"""

IN_TREE = """Traceback (most recent call last):
  File "{work}/migrated/boolq/run_bert_boolq.py", line 40, in <module>
    tf.contrib.foo()
AttributeError: module 'tensorflow' has no attribute 'contrib'
"""

THROUGH_TF = """Traceback (most recent call last):
  File "/opt/site-packages/bert/modeling.py", line 12, in <module>
    x = tf.compat.v1.layers.foo
  File "/opt/site-packages/tensorflow/python/util/lazy_loader.py", line 5, in __getattr__
    raise AttributeError(name)
AttributeError: module 'tensorflow._api.v2.compat.v1.layers' has no attribute 'foo'
"""


def test_a_tf1_call_in_a_pip_dependency_names_that_file(tmp_path):
    assert tf1_dependency(BOOLQ.format(work=tmp_path), tmp_path) == (
        "/home/user/.cache/estimator-bridge/extras/ffd4d5f6f73a/bert/optimization.py")


def test_a_gap_in_the_migrated_tree_itself_stays_a_failure(tmp_path):
    assert tf1_dependency(IN_TREE.format(work=tmp_path), tmp_path) is None


def test_frames_inside_tensorflow_are_skipped_to_the_caller(tmp_path):
    assert tf1_dependency(THROUGH_TF, tmp_path) == "/opt/site-packages/bert/modeling.py"


def test_other_errors_are_not_limitations(tmp_path):
    text = BOOLQ.format(work=tmp_path).replace(
        "AttributeError: module 'tensorflow._api.v2.train' has no attribute 'Optimizer'",
        "ValueError: shapes (2, 3) and (4,) are incompatible")
    assert tf1_dependency(text, tmp_path) is None
