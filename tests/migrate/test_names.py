"""migrate/names.py answers what libcst's scope analysis answers, on every Name and Attribute.

The codemods' output must stay byte-identical to what they wrote with libcst's ScopeProvider, so
the comparison is with libcst, quirks included (migrate/names_audit.py does the comparing).
"""

from pathlib import Path

import pytest

from migrate.names_audit import disagreements

ROOT = Path(__file__).parents[2]
SOURCES = sorted((ROOT / "tests" / "migrate").rglob("*.py")) + sorted((ROOT / "legacy_examples").rglob("*.py"))

SCOPING = '''
import tensorflow as tf
import tensorflow.contrib.tpu
import tensorflow.contrib.slim as slim, numpy as np
from tensorflow.contrib import tpu as contrib_tpu
from . import sibling
from .pkg import thing as other

early = keras.layers.Dense            # used before its import in the same scope
from tensorflow import keras
x = tf.contrib.tpu.TPUEstimator
y = tensorflow.contrib.tpu.RunConfig(tensorflow.contrib)
z = tf.foo(1).bar[0].baz, tf[0].x, (tf.a + tf.b).c, a.b[tf.x].c
del contrib_tpu.thing

def shadow(tf, *args, contrib_tpu=contrib_tpu.X, **kw):
    return tf.contrib.tpu.X, contrib_tpu

def local_import():
    import tensorflow.compat.v1 as tf
    return tf.estimator.Estimator

def uses_global():
    global tf
    tf = tf.compat.v1
    return tf.layers

def outer():
    keras = 1
    def inner():
        nonlocal keras
        return keras.models
    class Inside:
        slim = slim.arg_scope
        def method(self):
            return slim.conv2d, [slim for slim in range(3)], (lambda slim: slim.x)(1)
    return inner, Inside

def annotated(a: "contrib_tpu.TPUEstimator", b: tf.Tensor = tf.constant(1)) -> "tf.Tensor":
    pass

def tf_helper():
    pass

class contrib_tpu_subclass(contrib_tpu.TPUEstimator):
    pass

if (n := tf.shape) is not None:
    [tf.x for tf in range(3)]
    {k: tf.y for k in tf.z}
try:
    from contextlib import nested
except ImportError:
    def nested(*contexts):
        pass
with nested(tf.a) as tf2, open(x) as slim:
    slim.read()
for np in np.arange(3):
    np.x
tf.Session().run(tf.global_variables_initializer())
'''


def test_scoping_corner_cases_agree_with_libcst():
    compared, found = disagreements(SCOPING)
    assert compared > 100
    assert found == []


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fixtures_and_examples_agree_with_libcst(source: Path):
    assert disagreements(source.read_text())[1] == []
