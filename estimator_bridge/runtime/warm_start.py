"""Warm start: `warm_start_from`, and `init_from_checkpoint` inside model_fn, applied once, eagerly.

TF1 overrode variable initializers: `WarmStartSettings` (Estimator's `warm_start_from`) and
`tf.compat.v1.train.init_from_checkpoint` (called in model_fn, often through TPUEstimator's
`scaffold_fn`, as BERT does) made the initial value come from a checkpoint, so they took effect only
when model_dir had no checkpoint to restore. In a traced loop the same call would build restore ops
that re-run at every step (docs/architecture.md, "Checkpoints and warm starts"). The bridge
therefore:

* intercepts `init_from_checkpoint` while model_fn runs (`intercepting()`): TF's own code
  resolves the assignment map (names, scopes, shapes, its errors) and, where it would set an
  initializer, the bridge records `(variable, checkpoint, tensor)` instead; the build pass
  keeps those records (`recording()`);
* resolves `WarmStartSettings` with TF's own `warm_start` on a mirror graph of the model's
  variables (same names, shapes, trainability): regexes, lists, `var_name_to_prev_var_name`
  and `var_name_to_vocab_info` (vocabulary remapping, evaluated in a Session on that graph);
* `apply(...)` assigns the results to the model's variables eagerly in cross-replica context,
  once, after the variables are created, only when no checkpoint is restored: in train(), and
  in evaluate()/predict() on a model_dir without a checkpoint (TF 1.15 warm-started there too:
  `Estimator._maybe_warm_start` runs in all three, and init_from_checkpoint's initializers are
  part of every mode's graph).
  WarmStartSettings win over init_from_checkpoint for the same variable (TF1 applied them last).

Errors name the variable, the checkpoint and both shapes, and say what to change.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import os
import threading

import numpy as np
import tensorflow as tf
from tensorflow.python.training import checkpoint_utils as _checkpoint_utils
from tensorflow.python.training import warm_starting_util as _warm_starting_util

# The values are the public face's (estimator_bridge/warm_starting.py); this module applies them.
from estimator_bridge.warm_starting import WarmStartSettings, settings_from  # noqa: F401

logger = logging.getLogger("estimator_bridge")

tf1 = tf.compat.v1

def checkpoint_prefix(path: str) -> str:
    """The checkpoint a path names (prefix, directory's latest, or a SavedModel's variables).

    Raises:
      ValueError: nothing readable is there; names the path and the fix.
    """
    if tf.io.gfile.isdir(path):
        if tf.io.gfile.exists(os.path.join(path, "variables", "variables.index")):
            return os.path.join(path, "variables", "variables")
        latest = tf.train.latest_checkpoint(path)
        if latest is None:
            raise ValueError(
                f"warm start: no checkpoint found in directory {path!r} (no `checkpoint` state "
                "file listing one). Point ckpt_to_initialize_from at a model_dir that was "
                "trained, or at a checkpoint prefix such as model_dir/model.ckpt-1000.")
        return latest
    if not tf.io.gfile.exists(path + ".index"):
        raise ValueError(
            f"warm start: checkpoint {path!r} does not exist (no {path}.index). Pass an "
            "existing checkpoint prefix (e.g. model_dir/model.ckpt-1000) or a model_dir.")
    return path


# ---- init_from_checkpoint interception -------------------------------------------------------

Assignment = collections.namedtuple("Assignment", ["variable_name", "checkpoint", "tensor_name"])

_lock = threading.Lock()
_active_calls = 0
_records = None
_original_set_initializer = _checkpoint_utils._set_variable_or_list_initializer


def _variable_name(variable) -> str:
    return variable.name.split(":")[0]


def _recording_set_initializer(variable_or_list, ckpt_file, tensor_name):
    if not _active_calls:
        return _original_set_initializer(variable_or_list, ckpt_file, tensor_name)
    if isinstance(variable_or_list, (list, tuple)):
        raise ValueError(
            f"init_from_checkpoint into the partitioned variable "
            f"{[_variable_name(v) for v in variable_or_list]} from {ckpt_file}: the bridge "
            "does not partition variables. Create the variable without a partitioner.")
    if _records is not None:
        _records.append(Assignment(_variable_name(variable_or_list), ckpt_file, tensor_name))
    return None


_checkpoint_utils._set_variable_or_list_initializer = _recording_set_initializer


@contextlib.contextmanager
def intercepting():
    """While model_fn runs: init_from_checkpoint records instead of building restore ops.

    A process-wide counter, not a thread-local flag: MirroredStrategy runs the merge_call
    behind init_from_checkpoint in another thread than the replica's model_fn.
    """
    global _active_calls
    with _lock:
        _active_calls += 1
    try:
        yield
    except ValueError as error:
        if "checkpoint" in str(error) and ("not found" in str(error) or "Shape of" in str(error)):
            raise ValueError(
                f"init_from_checkpoint in model_fn failed: {error} The assignment map must name "
                "variables that exist in the checkpoint with the same shapes; check the "
                "checkpoint with tf.train.list_variables(path) and fix the assignment map (or "
                "the model).") from error
        raise
    finally:
        with _lock:
            _active_calls -= 1


@contextlib.contextmanager
def recording():
    """Collects the Assignments of init_from_checkpoint calls made inside (the build pass)."""
    global _records
    records = []
    _records = records
    try:
        yield records
    finally:
        _records = None


# ---- WarmStartSettings on a mirror graph -----------------------------------------------------

def _warm_start_values(settings: WarmStartSettings, variables: dict) -> dict:
    """{variable name: value} that TF's warm_start gives, computed on a mirror graph."""
    prefix = checkpoint_prefix(settings.ckpt_to_initialize_from)
    with tf.Graph().as_default() as graph:
        mirrors = {}
        for name, variable in variables.items():
            mirrors[name] = tf1.get_variable(
                name, shape=variable.shape, dtype=variable.dtype.base_dtype,
                initializer=tf1.zeros_initializer(), trainable=bool(variable.trainable),
                use_resource=True)
        vars_to_warm_start = settings.vars_to_warm_start
        _check_against_checkpoint(settings, prefix, mirrors)
        with recording() as records, intercepting():
            _warm_starting_util.warm_start(
                prefix, vars_to_warm_start=vars_to_warm_start,
                var_name_to_vocab_info=settings.var_name_to_vocab_info,
                var_name_to_prev_var_name=settings.var_name_to_prev_var_name)
        values = _read_assignments(records)
        vocab_names = [name for name in settings.var_name_to_vocab_info if name in mirrors]
        if vocab_names:
            with tf1.Session(graph=graph) as session:
                session.run([mirrors[name].initializer for name in vocab_names])
                for name in vocab_names:
                    values[name] = session.run(mirrors[name].read_value())
    return values


def _selected(settings, mirrors) -> list:
    """Names the settings warm-start, as TF's `_get_grouped_variables` selects them."""
    if settings.vars_to_warm_start is None:
        return [name for name in settings.var_name_to_vocab_info if name in mirrors]
    grouped = _warm_starting_util._get_grouped_variables(settings.vars_to_warm_start)
    return list(grouped)


def _check_against_checkpoint(settings, prefix, mirrors):
    stored = tf.train.load_checkpoint(prefix).get_variable_to_shape_map()
    selected = _selected(settings, mirrors)
    if not selected:
        raise ValueError(
            f"warm start: vars_to_warm_start={settings.vars_to_warm_start!r} matches no "
            f"variable of the model (it has {sorted(mirrors)[:10]}...). A string is a regex over "
            "trainable variables, a list selects regexes/names over all variables.")
    for name in selected:
        if name in settings.var_name_to_vocab_info:
            continue
        previous = settings.var_name_to_prev_var_name.get(name, name)
        if previous not in stored:
            raise ValueError(
                f"warm start: variable {name!r} (looked up as {previous!r}) is not in checkpoint "
                f"{prefix}, which holds {sorted(stored)[:12]}.... Exclude it from "
                "vars_to_warm_start (e.g. a narrower regex) or map it to its checkpoint name "
                "with var_name_to_prev_var_name.")
        model_shape = mirrors[name].shape.as_list()
        if list(stored[previous]) != model_shape:
            raise ValueError(
                f"warm start: variable {name!r} has shape {model_shape} in the model but "
                f"{previous!r} has shape {list(stored[previous])} in checkpoint {prefix}. "
                "Exclude it from vars_to_warm_start, or give it a VocabInfo in "
                "var_name_to_vocab_info if its vocabulary changed.")


def _read_assignments(assignments) -> dict:
    values, readers = {}, {}
    for assignment in assignments:
        reader = readers.get(assignment.checkpoint)
        if reader is None:
            reader = readers[assignment.checkpoint] = tf.train.load_checkpoint(
                assignment.checkpoint)
        values[assignment.variable_name] = reader.get_tensor(assignment.tensor_name)
    return values


def values_of(*, settings, recorded, variables: dict) -> dict:
    """{TF1 name: value} the warm starts give (init_from_checkpoint's, then the settings').

    Args:
      settings: WarmStartSettings or None.
      recorded: Assignments from init_from_checkpoint calls in model_fn.
      variables: TF1 name -> the model's variables (or the build graph's: only names, shapes,
        dtypes and trainability are read).
    """
    values = {}
    unknown = [a.variable_name for a in recorded if a.variable_name not in variables]
    if unknown:
        raise ValueError(f"init_from_checkpoint assigned {unknown}, which the bridge did not "
                         "create as model variables; create them with tf.compat.v1.get_variable"
                         " inside model_fn.")
    values.update(_read_assignments(recorded))
    if settings is not None:
        values.update(_warm_start_values(settings, variables))
    return values


def apply(*, settings, recorded, variables: dict, strategy) -> list:
    """Assigns warm-start values to the model's variables; returns the names warm-started.

    Args:
      settings: WarmStartSettings or None.
      recorded: Assignments from init_from_checkpoint calls in model_fn.
      variables: TF1 name -> the model's variables.
      strategy: their tf.distribute strategy (assignment in cross-replica context updates
        every replica).
    """
    values = values_of(settings=settings, recorded=recorded, variables=variables)
    with strategy.scope():
        for name, value in values.items():
            variable = variables[name]
            variable.assign(tf.cast(np.asarray(value), variable.dtype))
    if values:
        logger.info("Warm-started %d variable(s): %s", len(values), sorted(values))
    return sorted(values)
