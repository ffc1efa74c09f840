"""`isinstance(config, tf.contrib.tpu.RunConfig)`: a type test the bridge cannot answer as TF 1.x did.

TF 1.x had two RunConfig classes: `tf.estimator.RunConfig` and its subclass, the TPU RunConfig
(`tf.contrib.tpu.RunConfig`, `tf.compat.v1.estimator.tpu.RunConfig`). Scripts chose the TPU path
by asking which one they were given (exoplanet-ml's astronet
`use_tpu = isinstance(run_config, tf.contrib.tpu.RunConfig)`, then TPUEstimator or Estimator,
CrossShardOptimizer or not). estimator_bridge has one RunConfig for both, so after the rename the
test is True for every config: a program given a plain tf.estimator.RunConfig takes the TPU branch.
The rename stays (the name must resolve); the test is reported (MIG209) with what to test instead.
"""

from __future__ import annotations

import libcst as cst

from migrate.codemods.base import dotted_name
from migrate.codemods.registry import Codemod, watched_names_only
from migrate.resolve import canonical

TPU_RUN_CONFIG = frozenset({"tensorflow.contrib.tpu.RunConfig", "tensorflow.estimator.tpu.RunConfig"})
TYPE_TESTS = ("isinstance", "issubclass")


def _tpu_run_configs(rewrite, call: cst.Call) -> list[cst.BaseExpression]:
    """The TPU RunConfig references in the class argument of an isinstance/issubclass call."""
    if not (isinstance(call.func, cst.Name) and call.func.value in TYPE_TESTS and len(call.args) == 2):
        return []
    classes = call.args[1].value
    elements = [e.value for e in classes.elements] if isinstance(classes, cst.Tuple) else [classes]
    found = []
    for element in elements:
        if dotted_name(element) is None or not rewrite.watched(element):
            continue
        if {canonical(name) for name in rewrite.import_names(element)} & TPU_RUN_CONFIG:
            found.append(element)
    return found


def call_findings(rewrite, call: cst.Call) -> list[tuple]:
    return [(element, "MIG209",
             f"`{call.func.value}(..., TPU RunConfig)` is True for every RunConfig after the migration: "
             "estimator_bridge has one RunConfig for tf.estimator.RunConfig and the TPU RunConfig, so code "
             "that chose the TPU path by this test takes it for a plain tf.estimator.RunConfig too",
             "decide use_tpu from a flag or from the config's target (e.g. bool(config.master) or "
             "config.cluster is not None), not from the RunConfig class")
            for element in _tpu_run_configs(rewrite, call)]


CODEMOD = Codemod(
    name="RunConfigTypeTest",
    description="Report isinstance/issubclass against the TPU RunConfig (one RunConfig class in the bridge).",
    order=96,
    call_findings=call_findings,
    structural_keys=TPU_RUN_CONFIG,
    reach=watched_names_only,
)
