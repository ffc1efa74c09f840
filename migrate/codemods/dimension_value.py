"""`x.shape[i].value` -> `tf.compat.dimension_value(x.shape[i])` (TF1 Dimension objects are gone).

TF 1.x indexed a TensorShape into `Dimension` objects and model code read `.value` from them
(BERT: `output_layer.shape[-1].value`); TF 2 returns plain ints (or None), so `.value` raises
`AttributeError: 'int' object has no attribute 'value'`. `tf.compat.dimension_value` accepts both,
so the rewrite is right under either TensorShape behaviour (and leaves no `.value` to match again).

Only the unambiguous spellings are rewritten: `.value` read from a subscript of `.shape`,
`.get_shape()` or `.dims` (also `x.shape.dims[i]`, `x.get_shape().dims[i]`). A Dimension held in
a variable (`d = x.shape[0]; d.value`) is not recognisable and stays.

The rule does not go through qualified names, so the pre-filter, which clears files by their
names, also asks `ast_is_dimension_value` (the same shape test on a CPython `ast` node).
"""

from __future__ import annotations

import ast

import libcst as cst

from migrate.codemods.registry import Codemod

DIMENSION_VALUE = "tensorflow.compat.dimension_value"
SHAPE_ATTRIBUTES = frozenset({"shape", "dims"})
SHAPE_METHODS = frozenset({"get_shape"})


def _is_shape(node: cst.BaseExpression) -> bool:
    """`x.shape`, `x.dims`, `x.get_shape()` (any receiver)."""
    if isinstance(node, cst.Attribute):
        return node.attr.value in SHAPE_ATTRIBUTES
    if isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute):
        return node.func.attr.value in SHAPE_METHODS
    return False


def is_dimension_value(node: cst.Attribute) -> bool:
    """Is `node` `<shape>[i].value` (one index, not a slice)?"""
    if node.attr.value != "value" or not isinstance(node.value, cst.Subscript):
        return False
    subscript = node.value
    return (len(subscript.slice) == 1 and isinstance(subscript.slice[0].slice, cst.Index)
            and _is_shape(subscript.value))


def ast_is_dimension_value(node: ast.AST) -> bool:
    """`is_dimension_value` for a CPython `ast` node; True at least wherever that one is."""
    if not (isinstance(node, ast.Attribute) and node.attr == "value" and isinstance(node.value, ast.Subscript)):
        return False
    subscript = node.value
    if isinstance(subscript.slice, ast.Slice):
        return False
    shape = subscript.value
    if isinstance(shape, ast.Attribute):
        return shape.attr in SHAPE_ATTRIBUTES
    return (isinstance(shape, ast.Call) and not shape.args and not shape.keywords
            and isinstance(shape.func, ast.Attribute) and shape.func.attr in SHAPE_METHODS)


def leave_attribute(rewrite, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression | None:
    if not is_dimension_value(original_node):
        return None
    return cst.Call(func=rewrite.spell(DIMENSION_VALUE), args=[cst.Arg(updated_node.value)],
                    lpar=updated_node.lpar, rpar=updated_node.rpar)


CODEMOD = Codemod(
    name="DimensionValueToCompat",
    description="Replace TF1 Dimension reads `x.shape[i].value` by `tf.compat.dimension_value(x.shape[i])`.",
    order=31,
    leave_attribute=leave_attribute,
    ast_trigger=ast_is_dimension_value,
    reach=lambda text: frozenset({"value"}),   # the attribute every such read ends with
)
