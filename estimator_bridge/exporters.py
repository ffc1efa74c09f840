"""`tf.estimator.Exporter`, `LatestExporter`, `FinalExporter`, `BestExporter` on the bridge.

`train_and_evaluate` (estimator_bridge/training.py) calls every exporter of the EvalSpec after
each evaluation with `export(estimator, export_path, checkpoint_path, eval_result,
is_the_final_export)`, where export_path is `model_dir/export/<exporter.name>`. The rules are
TF 1.15's (tensorflow_estimator/python/estimator/exporter.py), reproduced here because
tf.estimator left TensorFlow with 2.16:
- LatestExporter exports after every evaluation and keeps the `exports_to_keep` newest
  timestamped directories;
- FinalExporter exports only when the evaluated global step reached TrainSpec.max_steps;
- BestExporter exports when `compare_fn(best_eval_result, current_eval_result)` says the new
  result is better (default: smaller `loss`). On its first call it reads the best result so far
  from the event files under `model_dir/eval` (`event_file_pattern`), so a restarted job does
  not export a worse model over a better one.
The SavedModel itself is the estimator's `export_saved_model(..., checkpoint_path=...)`.
"""

from __future__ import annotations

import abc
import glob
import inspect
import logging
import os
import shutil

import tensorflow as tf

logger = logging.getLogger("estimator_bridge")

# TF 1.15's export directories are named by a 10-digit timestamp (export.py's get_timestamped_export_dir).
_VERSION_DIGITS = 10


class Exporter(abc.ABC):
    """Base class of the exporters an EvalSpec takes (TF 1.15's `tf.estimator.Exporter`)."""

    @property
    @abc.abstractmethod
    def name(self):
        """Directory name under `model_dir/export`; unique within one EvalSpec."""

    @abc.abstractmethod
    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        """Exports `checkpoint_path` under `export_path`; returns the export directory or None."""


class _SavedModelExporter(Exporter):
    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False):
        self._name = name
        self._serving_input_receiver_fn = serving_input_receiver_fn
        self._assets_extra = assets_extra
        self._as_text = as_text

    @property
    def name(self):
        return self._name

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        del eval_result, is_the_final_export
        return estimator.export_saved_model(
            export_path, self._serving_input_receiver_fn, assets_extra=self._assets_extra,
            as_text=self._as_text, checkpoint_path=checkpoint_path)


def _check_exports_to_keep(exports_to_keep):
    if exports_to_keep is not None and exports_to_keep <= 0:
        raise ValueError(f"`exports_to_keep`, if provided, must be a positive number. "
                         f"Got {exports_to_keep}")


def _garbage_collect_exports(export_dir_base, exports_to_keep):
    """Deletes all but the `exports_to_keep` largest timestamped versions (TF 1.15's gc)."""
    if exports_to_keep is None or not os.path.isdir(export_dir_base):
        return
    versions = sorted(
        int(entry) for entry in os.listdir(export_dir_base)
        if len(entry) == _VERSION_DIGITS and entry.isdigit())
    for version in versions[:-exports_to_keep]:
        shutil.rmtree(os.path.join(export_dir_base, str(version)), ignore_errors=True)


class _KeepingExporter(Exporter):
    """A SavedModel exporter that keeps the `exports_to_keep` newest exports (None: all)."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False,
                 exports_to_keep=None):
        self._saved_model_exporter = _SavedModelExporter(
            name, serving_input_receiver_fn, assets_extra, as_text)
        _check_exports_to_keep(exports_to_keep)
        self._exports_to_keep = exports_to_keep

    @property
    def name(self):
        return self._saved_model_exporter.name

    def _export_and_keep(self, estimator, export_path, checkpoint_path, eval_result,
                         is_the_final_export):
        result = self._saved_model_exporter.export(
            estimator, export_path, checkpoint_path, eval_result, is_the_final_export)
        _garbage_collect_exports(export_path, self._exports_to_keep)
        return result


class LatestExporter(_KeepingExporter):
    """Exports after every evaluation; keeps the newest `exports_to_keep` exports."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False,
                 exports_to_keep=5):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text, exports_to_keep)

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        return self._export_and_keep(estimator, export_path, checkpoint_path, eval_result,
                                     is_the_final_export)


class FinalExporter(_KeepingExporter):
    """Exports once, after the evaluation of the checkpoint at TrainSpec.max_steps."""

    def __init__(self, name, serving_input_receiver_fn, assets_extra=None, as_text=False):
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text)

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        if not is_the_final_export:
            return None
        logger.info("Performing the final export in the end of training.")
        return self._export_and_keep(estimator, export_path, checkpoint_path, eval_result,
                                     is_the_final_export)


def _loss_smaller(best_eval_result, current_eval_result):
    """BestExporter's default: the current result is better when its `loss` is smaller."""
    for which, result in (("best_eval_result", best_eval_result),
                          ("current_eval_result", current_eval_result)):
        if not result or "loss" not in result:
            raise ValueError(f"{which} cannot be empty or no loss is found in it.")
    return best_eval_result["loss"] > current_eval_result["loss"]


def _check_compare_fn(compare_fn):
    if compare_fn is None:
        raise ValueError("`compare_fn` must not be None.")
    args = set(inspect.signature(compare_fn).parameters)
    for required in ("best_eval_result", "current_eval_result"):
        if required not in args:
            raise ValueError(f"compare_fn ({compare_fn}) must include {required} argument.")
    unexpected = sorted(args - {"best_eval_result", "current_eval_result"})
    if unexpected:
        raise ValueError(f"compare_fn ({compare_fn}) has following not expected args: {unexpected}")


class BestExporter(_KeepingExporter):
    """Exports when an evaluation beats the best one so far (`compare_fn`)."""

    def __init__(self, name="best_exporter", serving_input_receiver_fn=None,
                 event_file_pattern="eval/*.tfevents.*", compare_fn=_loss_smaller,
                 assets_extra=None, as_text=False, exports_to_keep=5):
        _check_compare_fn(compare_fn)
        super().__init__(name, serving_input_receiver_fn, assets_extra, as_text, exports_to_keep)
        self._compare_fn = compare_fn
        self._event_file_pattern = event_file_pattern
        self._model_dir = None
        self._best_eval_result = None

    def export(self, estimator, export_path, checkpoint_path, eval_result, is_the_final_export):
        if self._model_dir != estimator.model_dir and self._event_file_pattern:
            logger.info("Loading best metric from event files.")
            self._model_dir = estimator.model_dir
            self._best_eval_result = self._best_in_event_files(
                os.path.join(self._model_dir, self._event_file_pattern))
        if self._best_eval_result is not None and not self._compare_fn(
                best_eval_result=self._best_eval_result, current_eval_result=eval_result):
            return None
        logger.info("Performing best model export.")
        self._best_eval_result = eval_result
        return self._export_and_keep(estimator, export_path, checkpoint_path, eval_result,
                                     is_the_final_export)

    def _best_in_event_files(self, pattern):
        """The best of the scalar events already written (TF 1.15 reads every event file).

        The evaluation that triggered this export has already written its event, so on a
        fresh model_dir the current result is found here and ties with itself: TF 1.15 then
        exports nothing on the first evaluation with the default compare_fn, and so does
        this.
        """
        best = None
        for event_file in sorted(glob.glob(pattern)):
            for event in tf.compat.v1.train.summary_iterator(event_file):
                if not event.HasField("summary"):
                    continue
                values = {value.tag: value.simple_value for value in event.summary.value
                          if value.HasField("simple_value")}
                if values and (best is None or self._compare_fn(best, values)):
                    best = values
        return best
