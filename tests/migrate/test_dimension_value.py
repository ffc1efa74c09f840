"""TF1 Dimension reads (`x.shape[i].value`): the rewrite runs on current TensorFlow, and the
`ast` twin of the shape test (for pre-filters) says yes wherever the libcst one does."""

import ast
from pathlib import Path

import libcst as cst
import pytest
import tensorflow as tf

from migrate.codemods.dimension_value import ast_is_dimension_value, is_dimension_value
from migrate.engine import migrate_text

FIXTURES = Path(__file__).parent / "fixtures" / "tf1"

EXPRESSIONS = [
    "x.shape[-1].value", "x.get_shape()[0].value", "x.shape.dims[1].value", "x.get_shape().dims[2].value",
    "f(x).shape[i + 1].value", "x.shape[1:].value", "x.shape[0]", "d.value", "x.get_shape(1)[0].value",
    "x.shape[a, b].value", "x.sizes[0].value", "x.shape[0].value.real",
]


def test_the_migrated_dimension_reads_run_on_current_tensorflow():
    namespace = {}
    exec(compile(migrate_text((FIXTURES / "dimension_value.before.py").read_text())[0], "after", "exec"), namespace)
    images = tf.zeros([2, 5, 6, 3])
    batch, channels, length, spatial, plain = namespace["static_sizes"](images, tf.zeros([2, 7]))
    assert (batch, channels, length, plain) == (2, 3, 7, 2)
    assert spatial.as_list() == [5, 6]
    with pytest.raises(AttributeError, match="'int' object has no attribute 'value'"):
        # What the unmigrated spelling does on TF 2: the reason for the rewrite.
        exec(compile("images.shape[0].value", "before", "eval"), {"images": images})


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_the_ast_shape_test_covers_the_libcst_one(expression):
    libcst_nodes = []

    class Collect(cst.CSTVisitor):
        def visit_Attribute(self, node):
            libcst_nodes.append(node)

    cst.parse_expression(expression).visit(Collect())
    by_libcst = any(is_dimension_value(node) for node in libcst_nodes)
    by_ast = any(ast_is_dimension_value(node) for node in ast.walk(ast.parse(expression)))
    assert by_ast or not by_libcst
    expected = expression in EXPRESSIONS[:5] or expression == "x.shape[0].value.real"
    assert by_libcst == expected
