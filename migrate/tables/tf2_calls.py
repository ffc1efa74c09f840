"""Calls only TF 2.x accepts: names TF 1.x had too, but with another signature.

`tf2_marker` reads a file as TF 2.x code when it uses a name TF 1.15 did not have
(tf2_markers.py). Some TF 2 programs use none: a notebook whose only TF2 call is
`tf.saved_model.load(path)` would be read as TF 1.x and moved to `tf.compat.v1.saved_model.load`,
the TF 1 loader that needs `(sess, tags, export_dir)`. A call with TF 2's argument shape marks the
file as TF 2.x like a TF2-only name does.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TF2CallShape:
    """A call is TF 2.x's when it passes at most `max_arguments` arguments and none of the
    keywords only TF 1.x's signature had (`tf1_keywords`)."""

    max_arguments: int
    tf1_keywords: tuple[str, ...]


TF2_ONLY_CALLS = {
    # TF 1.15: load(sess, tags, export_dir, import_scope=None, **saver_kwargs) (3 arguments at least);
    # TF 2.x: load(export_dir, tags=None, options=None)
    "saved_model.load": TF2CallShape(max_arguments=2, tf1_keywords=("sess", "import_scope")),
}
