"""compat/contrib_arg_scope.py: TF 1.15's arg_scope rules (the oracle run of a program using them
is test_real_patterns.py::test_arg_scoped_layer_functions_train_as_in_tf115)."""

import pytest

from estimator_bridge.compat.contrib_arg_scope import (add_arg_scope, arg_scope,
                                                       arg_scoped_arguments, current_arg_scope,
                                                       has_arg_scope)


@add_arg_scope
def layer(inputs, rate=0.1, name="layer"):
    return inputs, rate, name


def plain(inputs, rate=0.1):
    return inputs, rate


def test_inner_scopes_override_outer_ones_and_call_keywords_win():
    with arg_scope([layer], rate=0.5, name="outer"):
        with arg_scope([layer], rate=0.7) as inner:
            assert layer(1) == (1, 0.7, "outer")
            assert layer(1, rate=0.9) == (1, 0.9, "outer")
        assert layer(1) == (1, 0.5, "outer")
    assert layer(1) == (1, 0.1, "layer") and current_arg_scope() == {}
    with arg_scope(inner):  # a saved scope re-entered
        assert layer(2) == (2, 0.7, "outer")


def test_misuse_raises_as_tf115():
    with pytest.raises(ValueError, match="is not decorated with @add_arg_scope"):
        with arg_scope([plain], rate=1):
            pass
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with arg_scope({}, rate=1):
            pass
    with pytest.raises(TypeError, match="list/tuple or reused scope"):
        with arg_scope(layer, rate=1):
            pass
    assert current_arg_scope() == {}


def test_introspection():
    assert has_arg_scope(layer) and not has_arg_scope(plain)
    assert arg_scoped_arguments(layer) == ("rate", "name")
    assert layer.__name__ == "layer"
