"""Name-based checkpoints in TF1 layout: `model.ckpt-N.{index,data-*,meta}` plus the `checkpoint` file.

Saving writes every cached variable under its TF1 name (`dense/kernel`, `global_step`,
`dense/kernel/Adam`, `beta1_power`) with one `SaveV2` op, read in cross-replica context (the
aggregated value of a sync-on-read variable, the common value of a mirrored one); TF 1.15's
TPUEstimator reads these files back. Restoring reads tensors by name with `tf.train.load_checkpoint`
and assigns them in cross-replica context, which updates every replica's copy: a v1 `Saver`
restoring the primary component of a mirrored variable restores replica 0 only and the replicas
silently diverge (docs/architecture.md, "Checkpoints and warm starts").
"""

from __future__ import annotations

import glob
import logging
import os

import tensorflow as tf

from estimator_bridge.runtime import meta_graph

logger = logging.getLogger("estimator_bridge")

CHECKPOINT_BASENAME = "model.ckpt"


def latest_checkpoint(model_dir) -> str | None:
    """Prefix of the newest checkpoint listed in model_dir's `checkpoint` file, or None."""
    if not model_dir or not tf.io.gfile.exists(model_dir):
        return None
    return tf.train.latest_checkpoint(model_dir)


def checkpoint_step(prefix: str) -> int:
    """The global step stored in a checkpoint."""
    return int(read_tensor(open_checkpoint(prefix), "global_step", prefix))


def _damaged(prefix: str, what: str, error: BaseException) -> ValueError:
    return ValueError(
        f"checkpoint {prefix} is damaged: reading {what} failed with {type(error).__name__}: "
        f"{error}. Its files ({os.path.basename(prefix)}.index, .data-*) are truncated or "
        "overwritten. Restore them from a copy, or delete them and the entry in model_dir's "
        "`checkpoint` file to resume from an older checkpoint.")


def open_checkpoint(prefix: str):
    """`tf.train.load_checkpoint`, with an error naming the checkpoint if its index is damaged."""
    try:
        return tf.train.load_checkpoint(prefix)
    except (tf.errors.OpError, IndexError) as error:
        raise _damaged(prefix, "its index", error) from error


def read_tensor(reader, name: str, prefix: str):
    """One tensor of a checkpoint, with an error naming the checkpoint if its data is damaged."""
    try:
        return reader.get_tensor(name)
    except (tf.errors.OpError, IndexError) as error:
        # A truncated data file: TF's reader raises IndexError("Read less bytes than requested").
        raise _damaged(prefix, repr(name), error) from error


def _slice_info(variable):
    """The SaveSliceInfo of a part of a partitioned variable (None for whole variables)."""
    return getattr(variable, "_save_slice_info", None)


def stored_name(name: str, variable) -> str:
    """The checkpoint key of a variable: TF1 saved every part of a partitioned variable
    (`v/part_0`, `v/part_1`) as a slice of one tensor named after the whole variable (`v`)."""
    info = _slice_info(variable)
    return info.full_name if info is not None else name


def _part(value, variable):
    """The part of a whole (partitioned) variable's checkpoint value that `variable` holds."""
    info = _slice_info(variable)
    if info is None:
        return value
    index = tuple(slice(offset, offset + size)
                  for offset, size in zip(info.var_offset, info.var_shape))
    return value[index]


def restore(variables: dict, prefix: str, strategy, stored_names: dict | None = None) -> None:
    """Assigns each variable the checkpoint tensor of the same TF1 name, or of the name
    `stored_names` gives it (a scaffold Saver's map: `dense/kernel` from
    `dense/kernel/ExponentialMovingAverage`).

    Raises:
      ValueError: a variable of the model is missing from the checkpoint (the message names it,
        lists what the checkpoint holds nearby, and says how variable names arise).
    """
    stored_names = stored_names or {}

    def key_of(name, variable):
        return stored_names.get(name) or stored_name(name, variable)

    reader = open_checkpoint(prefix)
    stored = reader.get_variable_to_shape_map()
    missing = [key_of(name, variable) for name, variable in variables.items()
               if key_of(name, variable) not in stored]
    if missing:
        raise ValueError(
            f"checkpoint {prefix} has no tensor for the model variable(s) {missing}; it holds "
            f"{sorted(stored)[:20]}. Variable names come from tf.compat.v1.variable_scope and "
            "layer names: build the model exactly as the program that wrote the checkpoint, or "
            "start from an empty model_dir.")
    with strategy.scope():
        for name, variable in variables.items():
            key = key_of(name, variable)
            value = read_tensor(reader, key, prefix)
            if _slice_info(variable) is not None and \
                    tuple(value.shape) == tuple(_slice_info(variable).full_shape):
                value = _part(value, variable)
            if tuple(value.shape) != tuple(variable.shape):
                raise ValueError(
                    f"checkpoint {prefix} stores {key!r} with shape {tuple(value.shape)}, the "
                    f"model's variable has shape {tuple(variable.shape)}. The model changed "
                    "since the checkpoint was written: use a new model_dir.")
            variable.assign(tf.cast(value, variable.dtype))


class CheckpointWriter:
    """Writes `model.ckpt-<step>` into model_dir and keeps the newest `keep_checkpoint_max`.

    Args:
      model_dir: the directory (created if missing).
      keep_checkpoint_max: how many checkpoints to keep; None or 0 keeps all (TF1 Saver).
    """

    def __init__(self, model_dir: str, keep_checkpoint_max: int | None):
        self._model_dir = model_dir
        self._keep = keep_checkpoint_max
        self._meta = meta_graph.MetaGraphWriter()
        tf.io.gfile.makedirs(model_dir)

    def _listed_prefixes(self) -> list:
        state = tf.train.get_checkpoint_state(self._model_dir)
        if state is None:
            return []
        return [p if os.path.isabs(p) else os.path.join(self._model_dir, p)
                for p in state.all_model_checkpoint_paths]

    def save(self, variables: dict, step: int, strategy) -> str:
        """Writes the checkpoint for `step`, updates `checkpoint`, deletes the oldest extras."""
        prefix = os.path.join(self._model_dir, f"{CHECKPOINT_BASENAME}-{int(step)}")
        names = list(variables)
        with strategy.scope():
            tensors = [tf.convert_to_tensor(variables[name].read_value()) for name in names]
        # Parts of a partitioned variable are slices of one tensor, as TF1's Saver wrote them.
        slices = [_slice_info(variables[name]).spec if _slice_info(variables[name]) else ""
                  for name in names]
        with tf.device("/cpu:0"):
            tf.raw_ops.SaveV2(prefix=prefix,
                              tensor_names=[stored_name(name, variables[name]) for name in names],
                              shape_and_slices=slices, tensors=tensors)
        # TF1's Saver wrote model.ckpt-N.meta beside it; programs copy or import it (meta_graph.py).
        self._meta.write(prefix, meta_graph.variable_specs(variables, stored_name, _slice_info))
        # Crash safety (TF1 Saver's order): SaveV2 renames its files into place only when they
        # are complete, then the state file is replaced atomically (temp file + rename) to name
        # them, and only then are the oldest checkpoints deleted. Deleting first let a SIGKILL
        # leave a state file naming deleted files (keep_checkpoint_max=1: the only checkpoint).
        listed = [p for p in self._listed_prefixes() if p != prefix] + [prefix]
        kept = listed[-self._keep:] if self._keep else listed
        tf.compat.v1.train.update_checkpoint_state(
            self._model_dir, prefix, all_model_checkpoint_paths=kept)
        for old in listed[:len(listed) - len(kept)]:
            for path in glob.glob(glob.escape(old) + ".*"):
                tf.io.gfile.remove(path)
        return prefix


# ---- train(saving_listeners=...) --------------------------------------------------------------

def check_saving_listeners(listeners, *, saving: bool) -> tuple:
    """TF 1.15's checks: CheckpointSaverListener instances, and checkpoints being written."""
    from tensorflow.python.training.basic_session_run_hooks import CheckpointSaverListener
    listeners = tuple(listeners or ())
    for listener in listeners:
        if not isinstance(listener, CheckpointSaverListener):
            raise TypeError("saving_listeners must be a list of CheckpointSaverListener, given: "
                            f"{listener!r:.200}. Subclass "
                            "tf.compat.v1.train.CheckpointSaverListener.")
    if listeners and not saving:
        raise ValueError("There should be a CheckpointSaverHook to use saving_listeners. Please "
                         "set one of the RunConfig.save_checkpoints_steps or "
                         "RunConfig.save_checkpoints_secs.")
    return listeners


class ListenedSaver:
    """train()'s checkpoint writes with TF 1.15's CheckpointSaverListener calls around them.

    TF1's Estimator hung saving_listeners on its CheckpointSaverHook: `begin()` when the hooks
    began, `before_save`/`after_save(session, step)` around every save (the one at the
    starting step included), `end(session, last_step)` after the final save. An `after_save`
    returning True stops training after that loop, except at the starting step's save (TF1
    ignored it there, in after_create_session). `train_and_evaluate` evaluates in `after_save`.

    Args:
      save: `(step) -> prefix`, the checkpoint write.
      listeners: CheckpointSaverListeners (checked by `check_saving_listeners`).
      session: `(listener) -> session` handed to the listener (the hook runner's emulated one).
    """

    def __init__(self, save, listeners, *, session):
        self._save = save
        self._listeners = tuple(listeners)
        self._session = session
        self._saves = 0
        self.stop_requested = False
        for listener in self._listeners:
            listener.begin()

    def save(self, step: int):
        for listener in self._listeners:
            listener.before_save(self._session(listener), step)
        prefix = self._save(step)
        for listener in self._listeners:
            if listener.after_save(self._session(listener), step) and self._saves > 0:
                logger.info("A CheckpointSaverListener requested that training be stopped. "
                            "listener: %s", listener)
                self.stop_requested = True
        self._saves += 1
        return prefix

    def end(self, last_step: int) -> None:
        for listener in self._listeners:
            listener.end(self._session(listener), last_step)
