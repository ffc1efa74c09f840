"""TFInternalsMoved: every import form of TF 1.15's tensorflow.python.training.training_ops reaches
TF 2's tensorflow.python.ops.gen_training_ops (the same generated Apply* ops; oracle test
tests/migrate/test_moved_internals.py runs a custom optimizer on both).

`from tensorflow.python.training import training_ops` was converted first (fastalgo/mnist_tpu);
the two `import` statement forms stayed as written and the file died on its import line (MIG306).
"""

from tests.migrate.codemods.support import assert_codemod

NAME = "TFInternalsMoved"


def test_import_as_an_alias_imports_the_current_module_under_the_alias():
    assert_codemod(NAME, """
        import tensorflow.python.training.training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        import tensorflow.python.ops.gen_training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_the_plain_import_and_its_dotted_uses_follow_the_module():
    assert_codemod(NAME, """
        import tensorflow.python.training.training_ops
        update = tensorflow.python.training.training_ops.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        import tensorflow.python.ops.gen_training_ops
        update = tensorflow.python.ops.gen_training_ops.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_from_import_with_an_alias_keeps_the_alias():
    assert_codemod(NAME, """
        from tensorflow.python.training import training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """, """
        from tensorflow.python.ops import gen_training_ops as ops_lib
        update = ops_lib.apply_momentum(var, mom, lr, grad, momentum)
        """)


def test_other_modules_on_the_same_import_line_stay():
    assert_codemod(NAME, """
        import os, tensorflow.python.training.training_ops as ops_lib
        """, """
        import os, tensorflow.python.ops.gen_training_ops as ops_lib
        """)


def test_private_names_that_moved_become_their_public_names():
    # tensorflow/benchmarks' tf_cnn_benchmarks (variable_mgr_util.py, ssd_model.py) and BERT-serving
    # graph.py: TF 2.21 keeps these objects only under their public names (MIG305 before)
    assert_codemod(NAME, """
        import tensorflow as tf
        from tensorflow.python.framework import graph_util
        from tensorflow.python.framework import ops
        from tensorflow.python.ops import variables
        if isinstance(grad, ops.IndexedSlices) or isinstance(grad, ops.Tensor):
            ops.register_tensor_conversion_function(Wrapper, convert)
        v = variables.VariableV1(0.0)
        frozen = graph_util.convert_variables_to_constants(sess, graph_def, ["out"])
        """, """
        import tensorflow as tf
        from tensorflow.python.framework import graph_util
        from tensorflow.python.framework import ops
        from tensorflow.python.ops import variables
        if isinstance(grad, tf.IndexedSlices) or isinstance(grad, tf.Tensor):
            tf.register_tensor_conversion_function(Wrapper, convert)
        v = tf.compat.v1.Variable(0.0)
        frozen = tf.compat.v1.graph_util.convert_variables_to_constants(sess, graph_def, ["out"])
        """)


def test_a_moved_name_imported_from_its_module_follows_it():
    assert_codemod(NAME, """
        from tensorflow.python.ops.control_flow_ops import while_loop
        from tensorflow.python.framework.ops import Tensor
        """, """
        from tensorflow.compat.v1 import while_loop
        from tensorflow import Tensor
        """)
