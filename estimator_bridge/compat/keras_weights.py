"""Keras 2 weight files and step counts on Keras 3, decided at run time (estimator-migrate writes the calls).

Keras 3's `save_weights` writes only `*.weights.h5` (a `.h5`, `.hdf5` or TF-checkpoint name raises
ValueError), and `ModelCheckpoint(save_weights_only=True)` wants the same suffix. When the path is a
string literal the codemod renames it in the source; a path built at run time (`start =
os.path.join(work_dir, "start.h5")` then `model.save_weights(start)`) can only be renamed when the
program runs, so the codemod routes such calls here. A weights file is written under the name Keras 3
accepts, and `load_weights` of the name the program used reads what this process (or an earlier run of
the migrated program) wrote under the new name; a Keras 2 `.h5` file already on disk (pretrained
weights) is read as it is (Keras 3 reads Keras 2 weight files). Objects that are not Keras 3 models (a
tf-keras model, anything else with these methods) are called as written.

Keras 2 also accepted a float step count (`steps_per_epoch=np.ceil(n / batch)`) and ran ceil(steps)
steps (measured on TF 1.15 and TF 2.15: 2.5 -> 3 steps in fit, evaluate and predict); Keras 3 raises
TypeError ('float' object cannot be interpreted as an integer). `steps` gives Keras 3 that count.
"""

from __future__ import annotations

import math
import os

WEIGHTS_SUFFIX = ".weights.h5"
KERAS2_H5_SUFFIXES = (".h5", ".hdf5")
# Keras 2 save_weights / load_weights parameters Keras 3 does not take; none changes the numbers:
# save_format (the file's suffix decides in Keras 3), options (TF's I/O device for TF checkpoints).
_DROPPED_ON_SAVE = ("save_format", "options")
_DROPPED_ON_LOAD = ("options",)
# {path the program named: path written}, for load_weights later in the same process.
_written: dict[str, str] = {}


def keras3_weights_path(filepath):
    """The name Keras 3 writes weights to for a Keras 2 one: `x.h5`/`x.hdf5` -> `x.weights.h5`, a TF
    checkpoint prefix `ckpt` -> `ckpt.weights.h5`; a `.weights.h5` name (or a non-path) is returned as it is.
    Works on ModelCheckpoint's `{epoch:02d}` templates too (only the end of the name changes)."""
    if not isinstance(filepath, (str, os.PathLike)):
        return filepath
    text = os.fspath(filepath)
    if isinstance(text, bytes) or text.endswith(WEIGHTS_SUFFIX):
        return filepath
    for suffix in KERAS2_H5_SUFFIXES:
        if text.endswith(suffix):
            return text[:-len(suffix)] + WEIGHTS_SUFFIX
    return text + WEIGHTS_SUFFIX


def _is_keras3_model(model) -> bool:
    import keras

    return isinstance(model, keras.Model)


def save_weights(model, filepath, *args, **kwargs):
    """`model.save_weights(filepath, overwrite=True, save_format=None, options=None)` as Keras 2 took it."""
    if not _is_keras3_model(model):
        return model.save_weights(filepath, *args, **kwargs)
    keras2 = dict(zip(("overwrite",) + _DROPPED_ON_SAVE, args))
    keras2.update(kwargs)
    for name in _DROPPED_ON_SAVE:
        keras2.pop(name, None)
    target = keras3_weights_path(filepath)
    if isinstance(filepath, (str, os.PathLike)):
        _written[os.fspath(filepath)] = os.fspath(target)
    return model.save_weights(target, **keras2)


def keras3_weights_to_load(filepath):
    """The file `load_weights(filepath)` of a migrated program reads: what this process saved under that
    name, else the file itself when it exists (Keras 2 `.h5` files load in Keras 3), else its Keras 3
    name when that exists (written by an earlier run), else the name as given (Keras 3 says what is
    missing)."""
    if not isinstance(filepath, (str, os.PathLike)):
        return filepath
    text = os.fspath(filepath)
    if text in _written:
        return _written[text]
    renamed = keras3_weights_path(text)
    if renamed != text and not _exists(text) and _exists(renamed):
        return renamed
    return filepath


def _exists(path: str) -> bool:
    import tensorflow as tf

    return tf.io.gfile.exists(path)


def load_weights(model, filepath, *args, **kwargs):
    """`model.load_weights(filepath, by_name=False, skip_mismatch=False, options=None)` as Keras 2 took it."""
    if not _is_keras3_model(model):
        return model.load_weights(filepath, *args, **kwargs)
    keras2 = dict(zip(("by_name", "skip_mismatch") + _DROPPED_ON_LOAD, args))
    keras2.update(kwargs)
    for name in _DROPPED_ON_LOAD:
        keras2.pop(name, None)
    if not keras2.get("by_name"):
        keras2.pop("by_name", None)
    return model.load_weights(keras3_weights_to_load(filepath), **keras2)


def steps(count):
    """A Keras 2 step count for Keras 3: a float (numpy's too) -> ceil as an int, as Keras 2 ran it; an
    integer (numpy's too) -> int; None and anything else as it is."""
    import numpy as np

    if isinstance(count, (bool, np.bool_)):
        return count
    if isinstance(count, (float, np.floating)):
        return int(math.ceil(count))
    if isinstance(count, np.integer):
        return int(count)
    return count
