"""Every other TF1 name -> `tf.compat.v1` (code already written against tensorflow.compat.v1 is left alone).

The fallback: asked after every other codemod, so it only sees names no other codemod claimed.
Off for files written against TF2 (engine.tf2_marker), whose plain `tf.X` names are TF2's.
"""

from migrate.codemods.registry import FALLBACK, Codemod
from migrate.spelling import compat_lookup

CODEMOD = Codemod(
    name="TF1NamesToCompatV1",
    description="Spell TF1-only names (and calls whose meaning changed in TF2) as tf.compat.v1.X.",
    order=FALLBACK,
    lookup=compat_lookup,
    tf1_only=True,
)
