"""The tag of the Estimator's own `loss` summary, as TF 1.15 named it.

TF 1.15's Estimator added `tf.summary.scalar('loss', loss)` to the training graph after model_fn
ran (and, on TPUEstimator's CPU path, after the host_call fn ran in the same graph:
`TPUEstimatorSpec.as_estimator_spec`), and a summary's tag was its op's name, which the graph made
unique: a model_fn that opened a `loss` scope (`variable_scope("loss")`) or a host_call that
wrote its own `loss` summary pushed the Estimator's series to `loss_1`. The bridge's summaries are
not graph ops; it asks the build graph the same question instead. Otherwise a host_call `loss`
series and the Estimator's would share one tag and collide at every step both write, and nothing
keyed on TF1's `loss_1` would find it.

If a summary op named `loss` already exists (model_fn called `tf.summary.scalar('loss', ...)`),
TF 1.15 added none: where the model_fn's own summaries are written (the CPU path,
summaries.ModelFnSummaries) that one is the `loss` series and the bridge writes no other
(`has_own_loss_summary`); elsewhere the bridge keeps writing `loss`.
"""

from __future__ import annotations

import logging

import tensorflow as tf

from estimator_bridge.contract import metrics as metrics_lib

logger = logging.getLogger("estimator_bridge")


def tf1_loss_tag(graph: tf.Graph, host_call) -> str:
    """The loss summary's tag in `graph`, where model_fn just ran; `host_call` is `(fn, tensors)` or None.

    The host_call fn is called in `graph` (a throwaway build graph: its ops never run), at the root
    name scope, as TF 1.15's CPU path called it. If it cannot be built there, its names are left out
    (logged): it runs for real in the training loop, where its errors surface.
    """
    with graph.as_default():
        if any(op.name == "loss" for op in _summary_ops(graph)):
            return "loss"
        if host_call is not None:
            fn, tensors = host_call
            try:
                with tf.compat.v1.name_scope(None):
                    metrics_lib.call_with_tensors(fn, tensors)
            except Exception as error:  # noqa: BLE001 - only the tag depends on it (docstring)
                logger.debug("host_call not built in the build graph (%s): the loss summary's tag "
                             "ignores its names", error)
        return graph.unique_name("loss", mark_as_used=False)


def has_own_loss_summary(graph: tf.Graph) -> bool:
    """Whether model_fn made a summary op named `loss` in `graph` (TF 1.15 then added none)."""
    return any(op.name == "loss" for op in _summary_ops(graph))


def _summary_ops(graph):
    for item in graph.get_collection(tf.compat.v1.GraphKeys.SUMMARIES):
        op = getattr(item, "op", None)
        if op is not None:
            yield op
