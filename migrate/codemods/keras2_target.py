"""`--keras 2`: every Keras reference (`tf.keras.X`, `from tensorflow import keras`, standalone `keras.X`)
becomes `tf_keras.X`, Keras 2 as the tf-keras package serves it on current TensorFlow.

Not in the default pipeline (its record is KERAS2_CODEMOD, not CODEMOD): engine.pipeline_for adds it
and leaves out the codemods that rewrite Keras 2 APIs for Keras 3 (KERAS3_ONLY).
"""

from __future__ import annotations

import re

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod
from migrate.resolve import Match, canonical
from migrate.tables.entries import Replacement

ROOT = "keras"
TARGET = "tf_keras"
# Codemods of the default pipeline that only make Keras 2 code run on Keras 3 (tf-keras runs it as is).
KERAS3_ONLY = frozenset({"KerasCompileOptimizers", "KerasRemovedMethods", "KerasModelSaveName", "KerasTensorSchedules", "KerasMetricsNames",
                         "Keras2MetricFunctions",
                         "KerasArgumentSpellings"})


# Keras 2 modules tf-keras keeps only as stubs on TF 2.16+: `tf_keras.estimator.model_to_estimator` raises
# NotImplementedError (it needs tensorflow_estimator, gone with tf.estimator). Left to the default pipeline,
# which rewrites model_to_estimator to estimator_bridge's (GoogleCloudPlatform/training-data-analyst's
# 08_image_keras mnistmodel got tf-keras' stub with 0 findings and stopped at run time).
NOT_SERVED_BY_TF_KERAS = ("keras.estimator",)
# Keras layers TF 1.x wrote under another name: TF 1.13's feature_column_v2.FeatureLayer is the layer
# TF 1.14 renamed DenseFeatures (the same arguments; training-data-analyst's Taxifare notebook, 2019).
RENAMED = {"tensorflow.python.feature_column.feature_column_v2.FeatureLayer": TARGET + ".layers.DenseFeatures"}


def _lookup(canonical_name: str, raw_name: str, call) -> Match | None:
    if any(canonical_name == name or canonical_name.startswith(name + ".") for name in NOT_SERVED_BY_TF_KERAS):
        return None
    if canonical_name in RENAMED:
        return Match(canonical_name, Replacement(RENAMED[canonical_name]), 0)
    if canonical_name == ROOT:
        return Match(ROOT, Replacement(TARGET), 0)
    if canonical_name.startswith(ROOT + "."):
        hops = canonical_name.count(".")
        return Match(ROOT, Replacement(TARGET), hops)
    return None


_IMPORT_KERAS = re.compile(r"^[ \t]*import[ \t]+(?:keras\b|tensorflow(?:\.python)?\.keras\b)", re.MULTILINE)


def _has_keras_import(text: str) -> bool:
    return _IMPORT_KERAS.search(text) is not None


def leave_statement(rewrite, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine):
    """`import keras` / `import keras as ks` / `import keras.backend as K` -> the same names bound to tf_keras
    (the module's references to them stay as written)."""
    changed, body = False, []
    for small in updated_node.body:
        if isinstance(small, cst.Import):
            names = []
            for alias in small.names:
                name = dotted_name(alias.name) or ""
                key = canonical(name)
                keras_module = key == ROOT or key.startswith(ROOT + ".")
                # `import keras[.x]` binds keras; `import tensorflow.keras` (no alias) binds tensorflow: left
                if keras_module and (alias.asname is not None or name.split(".")[0] == ROOT):
                    bound = alias.asname.name.value if alias.asname else ROOT
                    target = TARGET + key[len(ROOT):] if alias.asname else TARGET
                    alias = alias.with_changes(name=cst.parse_expression(target),
                                               asname=cst.AsName(name=cst.Name(bound)))
                    changed = True
                names.append(alias)
            small = small.with_changes(names=names)
        body.append(small)
    return updated_node.with_changes(body=body) if changed else None


KERAS2_CODEMOD = Codemod(
    name="KerasToTfKeras",
    description="(--keras 2) Point tf.keras and standalone keras at tf_keras, Keras 2 on current TensorFlow.",
    order=5,
    lookup=_lookup,
    structural_keys=frozenset({ROOT}),
    leave_statement=leave_statement,
    text_trigger=_has_keras_import,
)
