"""ModeKeys, TPUEstimatorSpec and EstimatorSpec, validated at construction with the legacy messages.

Each message starts with the exact TF 1.15 text (legacy code and tests match on it) and then
names the value and the fix.
"""

from __future__ import annotations

import collections
import inspect

import tensorflow as tf


class ModeKeys:
    """The three modes a model_fn is called in (same strings as tf.estimator.ModeKeys)."""

    TRAIN = "train"
    EVAL = "eval"
    PREDICT = "infer"


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _check_required_fields(mode, predictions, loss, train_op):
    """The checks both spec classes make: the fields each mode needs; returns the checked loss."""
    if mode == ModeKeys.TRAIN and train_op is None:
        raise ValueError("Missing train_op. model_fn returned a TRAIN spec without train_op; "
                         "return train_op=optimizer.minimize(loss, global_step).")
    if mode == ModeKeys.PREDICT and predictions is None:
        raise ValueError("Missing predictions. model_fn returned a PREDICT spec without "
                         "predictions; return predictions={'name': tensor}.")
    return _check_loss(loss, mode)


def _check_loss(loss, mode):
    """Loss must hold one element; shape [1] becomes a scalar (TF 1.15 behaviour)."""
    if loss is None:
        if mode in (ModeKeys.TRAIN, ModeKeys.EVAL):
            raise ValueError(
                f"Missing loss. model_fn returned a spec for mode {mode!r} with loss=None; return "
                "the scalar training/evaluation loss, e.g. loss=tf.compat.v1.losses.sparse_softmax_"
                "cross_entropy(labels, logits).")
        return None
    if not tf.is_tensor(loss):
        loss = tf.convert_to_tensor(loss)
    shape = loss.shape
    if shape.rank is not None and shape.num_elements() is not None and shape.num_elements() != 1:
        raise ValueError(
            f"Loss must be scalar, given: {loss}. model_fn returned a loss of shape {shape}; "
            "reduce it, e.g. loss=tf.reduce_mean(per_example_loss).")
    if shape.rank is not None and shape.rank > 0 and shape.num_elements() == 1:
        loss = tf.reshape(loss, [])
    return loss


# Scaffold attributes that need a TF1 Session (init ops, init functions, a Saver...).
_SESSION_SCAFFOLD_FIELDS = ("init_op", "init_feed_dict", "init_fn", "ready_op",
                            "ready_for_local_init_op", "local_init_op", "local_init_feed_dict",
                            "summary_op", "saver", "copy_from_scaffold")
# Of those, what TF1's SessionManager ran once on a fresh model_dir, before any step: the bridge
# runs them in the build pass's graph (runtime/scaffold_init.py) when scaffold_fn returns them.
SESSION_INIT_FIELDS = ("init_op", "init_feed_dict", "init_fn")


def check_scaffold(scaffold, where, mode=None, *, session_init=False):
    """An empty `tf.compat.v1.train.Scaffold()` is accepted; so is `Scaffold(saver=Saver(...))`
    when evaluating or predicting, and, with `session_init`, `init_op`/`init_feed_dict`/
    `init_fn`; any other field set raises.

    TF1's evaluate()/predict() restored the checkpoint with the scaffold's Saver: a Saver built
    on `{checkpoint name: variable}` (`Saver(ema.variables_to_restore())`) loads the exponential
    moving averages into the model's variables. The bridge reproduces that restore from the
    returned map.

    `session_init` is True for a TPUEstimatorSpec's scaffold_fn: TF1 called it once per graph, so
    the ops it builds (an `init_op`, an `init_fn`) ran only in the Session's initialisation; the bridge calls scaffold_fn in the build pass only
    and runs them there (runtime/scaffold_init.py). An EstimatorSpec's scaffold is built by
    model_fn itself, in every traced step, where such ops would run at every step: refused.

    Returns:
      `{checkpoint name: variable}` of such a Saver (a Saver over a list or all variables
      restores them by their own names: None), else None.

    Raises:
      NotImplementedError: naming the fields; they configured the TF1 Session (initialisation,
        readiness, saving), which the bridge does not have.
    """
    if scaffold is None:
        return None
    given = [name for name in _SESSION_SCAFFOLD_FIELDS
             if getattr(scaffold, "_" + name, None) is not None
             and not (session_init and name in SESSION_INIT_FIELDS)]
    restoring = mode in (ModeKeys.EVAL, ModeKeys.PREDICT)
    if given == ["saver"] and restoring:
        return _saver_restore_map(scaffold._saver, where)  # pylint: disable=protected-access
    if given:
        fields = ", ".join(f"{name}=..." for name in given)
        saver_note = (" A Saver is honoured when evaluating and predicting (it only restores "
                      "there); in training the bridge saves and restores every variable under "
                      "its own name." if "saver" in given else "")
        init_note = (" init_op, init_feed_dict and init_fn are run once on a fresh model_dir "
                     "when a TPUEstimatorSpec's scaffold_fn returns them (not from an "
                     "EstimatorSpec's scaffold, which model_fn builds in every step)."
                     if any(name in SESSION_INIT_FIELDS for name in given) else "")
        raise NotImplementedError(
            f"{where}: Scaffold({fields}) is not supported by estimator_bridge in mode "
            f"{mode!r}: these fields configure the TF1 Session (its init ops, "
            "init_fn(scaffold, session), Saver), and the bridge runs the model without a "
            f"Session.{saver_note}{init_note} To run: load pretrained weights with "
            "tf.compat.v1.train.init_from_checkpoint inside model_fn or scaffold_fn (or "
            "warm_start_from=...) and return tf.compat.v1.train.Scaffold() or no scaffold.")
    return None


def session_init_of(scaffold):
    """The scaffold itself when it sets init_op, init_feed_dict or init_fn, else None."""
    if scaffold is None:
        return None
    if any(getattr(scaffold, "_" + name, None) is not None for name in SESSION_INIT_FIELDS):
        return scaffold
    return None


def _saver_restore_map(saver, where):
    if not isinstance(saver, tf.compat.v1.train.Saver):
        raise TypeError(f"{where}: Scaffold(saver=...) must be a tf.compat.v1.train.Saver, given "
                        f"{type(saver).__name__}.")
    var_list = saver._var_list  # pylint: disable=protected-access  (what the Saver was given)
    if not isinstance(var_list, dict):
        return None
    for key, value in var_list.items():
        if not isinstance(value, tf.Variable):
            raise NotImplementedError(
                f"{where}: Saver({{{key!r}: {type(value).__name__}}}): the bridge restores a "
                "Saver's map of checkpoint names to variables; partitioned variables and "
                "saveable objects in it are not supported. Map each name to one variable.")
    return dict(var_list)


def _check_hooks(hooks, field):
    hooks = tuple(hooks or ())
    for hook in hooks:
        if not isinstance(hook, tf.compat.v1.train.SessionRunHook):
            raise TypeError(
                f"All hooks must be SessionRunHook instances, given: {_describe(hook)} (in "
                f"{field}). Subclass tf.compat.v1.train.SessionRunHook or drop it.")
    return hooks


def validate_host_call(host_call, name):
    """Checks an `(fn, tensors)` pair as `_OutfeedHostCall.validate` did in TF 1.15.

    Raises:
      ValueError / TypeError / RuntimeError with the legacy message, the value and the fix.
    """
    if host_call is None:
        return None
    fix = f"Pass {name}=(fn, [tensor, ...]) or {name}=(fn, {{'arg': tensor}})."
    if not isinstance(host_call, (tuple, list)):
        raise ValueError(f"{name} should be tuple or list; got {type(host_call).__name__} "
                         f"{_describe(host_call)}. {fix}")
    if len(host_call) != 2:
        raise ValueError(f"{name} should have two elements.; got {len(host_call)}: "
                         f"{_describe(host_call)}. {fix}")
    fn, tensors = host_call
    if not callable(fn):
        raise TypeError(f"{name}[0] should be callable.; got {_describe(fn)}. {fix}")
    if not isinstance(tensors, (tuple, list, dict)):
        raise ValueError(f"{name}[1] should be tuple or list, or dict.; got "
                         f"{type(tensors).__name__} {_describe(tensors)}. {fix}")
    if isinstance(tensors, (tuple, list)):
        try:
            parameters = inspect.signature(fn).parameters.values()
        except (TypeError, ValueError):
            parameters = None
        if parameters is not None:
            takes_varargs = any(p.kind == p.VAR_POSITIONAL for p in parameters)
            positional = [p for p in parameters
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if not takes_varargs and len(tensors) != len(positional):
                raise RuntimeError(
                    f"In TPUEstimatorSpec.{name}, length of tensors {len(tensors)} does not match "
                    f"method args of the function, which takes {len(positional)}. Give "
                    f"{getattr(fn, '__name__', fn)} one argument per tensor.")
    return tuple(host_call)


_TPUSpecFields = collections.namedtuple("TPUEstimatorSpec", [
    "mode", "predictions", "loss", "train_op", "eval_metrics", "export_outputs", "scaffold_fn",
    "host_call", "training_hooks", "evaluation_hooks", "prediction_hooks"])


class TPUEstimatorSpec(_TPUSpecFields):
    """What a TPUEstimator model_fn returns (same fields as TF 1.15's `TPUEstimatorSpec`).

    `eval_metrics=(metric_fn, tensors)`: the tensors are gathered from all replicas in replica
    order and concatenated on axis 0; metric_fn runs once per step on the host and returns
    `{name: (value, update_op)}` from `tf.compat.v1.metrics`. `host_call=(fn, tensors)` runs
    every training step after the train op. `scaffold_fn` is called once per model_fn call.

    Raises:
      ValueError: missing train_op (TRAIN), missing loss (TRAIN/EVAL), non-scalar loss,
        missing predictions (PREDICT), eval_metrics/host_call of the wrong shape.
      TypeError: a hook that is not a SessionRunHook, a non-callable metric_fn/host_call fn.
      RuntimeError: eval_metrics/host_call tensors that do not match the fn's arguments.
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metrics=None,
                export_outputs=None, scaffold_fn=None, host_call=None, training_hooks=None,
                evaluation_hooks=None, prediction_hooks=None):
        loss = _check_required_fields(mode, predictions, loss, train_op)
        eval_metrics = validate_host_call(eval_metrics, "eval_metrics")
        host_call = validate_host_call(host_call, "host_call")
        if scaffold_fn is not None and not callable(scaffold_fn):
            raise TypeError(f"TPUEstimatorSpec scaffold_fn must be callable, got "
                            f"{_describe(scaffold_fn)}; pass a function returning a Scaffold.")
        return super().__new__(
            cls, mode, predictions, loss, train_op, eval_metrics, export_outputs, scaffold_fn,
            host_call, _check_hooks(training_hooks, "training_hooks"),
            _check_hooks(evaluation_hooks, "evaluation_hooks"),
            _check_hooks(prediction_hooks, "prediction_hooks"))


_SpecFields = collections.namedtuple("EstimatorSpec", [
    "mode", "predictions", "loss", "train_op", "eval_metric_ops", "export_outputs",
    "training_chief_hooks", "training_hooks", "scaffold", "evaluation_hooks", "prediction_hooks"])


class EstimatorSpec(_SpecFields):
    """What an Estimator model_fn returns (same fields as `tf.estimator.EstimatorSpec`).

    `eval_metric_ops` is `{name: (value, update_op)}` built inside model_fn.
    """

    def __new__(cls, mode, predictions=None, loss=None, train_op=None, eval_metric_ops=None,
                export_outputs=None, training_chief_hooks=None, training_hooks=None,
                scaffold=None, evaluation_hooks=None, prediction_hooks=None):
        loss = _check_required_fields(mode, predictions, loss, train_op)
        if eval_metric_ops is not None:
            if not isinstance(eval_metric_ops, dict):
                raise TypeError(f"eval_metric_ops must be a dict, given: "
                                f"{_describe(eval_metric_ops)}; return {{name: (value, update_op)}}.")
            for name, metric in eval_metric_ops.items():
                if not isinstance(metric, tuple) or len(metric) != 2:
                    raise TypeError(
                        f"Values of eval_metric_ops must be (metric_value, update_op) tuples, "
                        f"given: {_describe(metric)} for metric {name!r}.")
        return super().__new__(
            cls, mode, predictions, loss, train_op, eval_metric_ops, export_outputs,
            _check_hooks(training_chief_hooks, "training_chief_hooks"),
            _check_hooks(training_hooks, "training_hooks"), scaffold,
            _check_hooks(evaluation_hooks, "evaluation_hooks"),
            _check_hooks(prediction_hooks, "prediction_hooks"))
