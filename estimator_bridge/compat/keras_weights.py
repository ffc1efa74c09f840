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

Keras 2 in TF 1.x wrote a whole model (`model.save(path)`) as HDF5 whatever the name
(`os.path.join(model_dir, 'model.hd5')`, `'model'`); Keras 3 saves only `.keras`, `.h5` and `.hdf5`
names and raises ValueError for any other. `save_model` writes the HDF5 file Keras 3 writes for `.h5`
under the name the program gave, as TF 1.x's Keras did.

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


KERAS3_MODEL_SUFFIXES = (".keras",) + KERAS2_H5_SUFFIXES
# Keras 2 (TF 1.x) save's parameters after filepath; Keras 3 takes overwrite and include_optimizer
# (for HDF5) and refuses the rest: signatures and options only concern SavedModels.
_KERAS2_SAVE_PARAMETERS = ("overwrite", "include_optimizer", "save_format", "signatures", "options")


def save_model(model, filepath, *args, **kwargs):
    """`model.save(filepath, overwrite=True, include_optimizer=True, save_format=None, ...)` as TF 1.x's
    Keras took it: HDF5 under any name. A Keras 3 model and a path Keras 3 refuses (not `.keras`, `.h5`,
    `.hdf5`) with save_format None or 'h5': written as `<path>.h5` by Keras 3, then renamed to the path
    (replacing a file there: Keras 2's `overwrite=False` prompt is not asked).
    Anything else (other objects' `save`, names Keras 3 takes, `save_format='tf'`) is called as written."""
    keras2 = dict(zip(_KERAS2_SAVE_PARAMETERS, args))
    keras2.update(kwargs)
    if (not _is_keras3_model(model) or not isinstance(filepath, (str, os.PathLike))
            or os.fspath(filepath).endswith(KERAS3_MODEL_SUFFIXES) or len(args) > len(_KERAS2_SAVE_PARAMETERS)
            or keras2.get("save_format") not in (None, "h5") or keras2.get("signatures") is not None):
        return model.save(filepath, *args, **kwargs)
    import tensorflow as tf

    target = os.fspath(filepath)
    staged = target + ".h5"
    model.save(staged, overwrite=True, include_optimizer=keras2.get("include_optimizer", True))
    tf.io.gfile.rename(staged, target, overwrite=True)
    return None


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
