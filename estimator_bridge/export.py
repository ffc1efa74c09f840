"""`estimator_bridge.export`: serving receivers, export outputs, and `export_saved_model`.

Export in TPUEstimator never called input_fn and always ran the CPU path: model_fn in PREDICT
mode on the serving receiver's features, `params` without `batch_size` and with
`use_tpu=False` (docs/semantics.md section 8). The bridge does exactly what TF 1.15's
Estimator did, in a TF1 graph: call the `serving_input_receiver_fn` (placeholders), call
model_fn, restore the checkpoint into the graph's variables by TF1 name, and write a
SavedModel with `tf.compat.v1.saved_model.Builder` into a timestamped directory, tagged
`serve`, with one signature per export output (`serving_default` = a `PredictOutput` of the
predictions unless model_fn gives `export_outputs`). TF 2's `tf.saved_model.load` reads it.

The export outputs (`PredictOutput`, `ClassificationOutput`, `RegressionOutput`) and the
signature rules are TensorFlow's own (`tensorflow.python.saved_model.model_utils`, which
tensorflow_estimator used); the receivers are re-implemented with TF 1.15's defaults.

TPU metagraph: TPUEstimator's `export_to_tpu=True` (its default) added a second metagraph
tagged `serve, tpu` for TPU serving. The bridge never writes it. Left at the default it is
skipped with an INFO log line; `export_to_tpu=True` passed explicitly logs a warning (the CPU
metagraph is still written); `export_to_tpu=True, export_to_cpu=False` raises, because nothing
would be exported; both False raises TF 1.15's "One of export_to_cpu and export_to_tpu must be
true."
"""

from __future__ import annotations

import collections
import logging
import os

import tensorflow as tf
from tensorflow.python.saved_model.model_utils import export_output as _export_output
from tensorflow.python.saved_model.model_utils import export_utils as _export_utils

logger = logging.getLogger("estimator_bridge")

tf1 = tf.compat.v1

ExportOutput = _export_output.ExportOutput
PredictOutput = _export_output.PredictOutput
ClassificationOutput = _export_output.ClassificationOutput
RegressionOutput = _export_output.RegressionOutput

_SINGLE_FEATURE_DEFAULT_NAME = "feature"
_SINGLE_RECEIVER_DEFAULT_NAME = "input"


def _as_tensor_dict(value, default_name, what):
    if value is None:
        raise ValueError(f"{what} must be defined; got None. Pass a tensor or a dict of tensors.")
    if not isinstance(value, dict):
        value = {default_name: value}
    for name, tensor in value.items():
        if not isinstance(name, str):
            raise ValueError(f"{what} keys must be strings: {name!r}. Name each tensor.")
        if not (tf.is_tensor(tensor) or isinstance(tensor, tf.SparseTensor)):
            raise ValueError(f"{what} must be Tensors or SparseTensors; {name!r} is "
                             f"{type(tensor).__name__} {tensor!r:.80}.")
    return value


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver", ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """What a serving_input_receiver_fn returns (TF 1.15's `tf.estimator.export.ServingInputReceiver`).

    Args:
      features: a tensor or dict of tensors passed to model_fn (a single tensor becomes
        `{'feature': t}`).
      receiver_tensors: the tensors the signature takes as inputs (a single tensor becomes
        `{'input': t}`).
      receiver_tensors_alternatives: optional `{name: receiver_tensors}` for extra signatures.
    """

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        features = _as_tensor_dict(features, _SINGLE_FEATURE_DEFAULT_NAME, "features")
        receiver_tensors = _as_tensor_dict(receiver_tensors, _SINGLE_RECEIVER_DEFAULT_NAME,
                                           "receiver_tensors")
        if receiver_tensors_alternatives is not None:
            if not isinstance(receiver_tensors_alternatives, dict):
                raise ValueError("receiver_tensors_alternatives must be a dict: "
                                 f"{receiver_tensors_alternatives!r:.120}.")
            receiver_tensors_alternatives = {
                name: _as_tensor_dict(alternative, _SINGLE_RECEIVER_DEFAULT_NAME,
                                      "receiver_tensors_alternative")
                for name, alternative in receiver_tensors_alternatives.items()}
        return super().__new__(cls, features, receiver_tensors, receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """Like ServingInputReceiver, but model_fn receives the single feature tensor itself."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if not tf.is_tensor(features):
            raise ValueError(f"features must be a single Tensor; got {features!r:.120}.")
        receiver = ServingInputReceiver(features, receiver_tensors, receiver_tensors_alternatives)
        return super().__new__(cls, features, receiver.receiver_tensors,
                               receiver.receiver_tensors_alternatives)


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """A receiver fn taking serialized `tf.Example`s ('examples') parsed with `feature_spec`."""

    def serving_input_receiver_fn():
        serialized = tf1.placeholder(dtype=tf.string, shape=[default_batch_size],
                                     name="input_example_tensor")
        features = tf1.parse_example(serialized, feature_spec)
        return ServingInputReceiver(features, {"examples": serialized})

    return serving_input_receiver_fn


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """A receiver fn feeding placeholders shaped like `features` (a tensor or dict) directly."""

    def serving_input_receiver_fn():
        def placeholder_like(name, tensor):
            shape = tensor.get_shape().as_list() if tensor.get_shape().rank is not None else None
            if shape:
                shape[0] = default_batch_size
            return tf1.placeholder(dtype=tensor.dtype, shape=shape, name=name)

        if isinstance(features, dict):
            receiver = {name: placeholder_like(name, tensor) for name, tensor in features.items()}
            return ServingInputReceiver(receiver, receiver.copy())
        tensor = placeholder_like(_SINGLE_FEATURE_DEFAULT_NAME, features)
        return TensorServingInputReceiver(tensor, {_SINGLE_RECEIVER_DEFAULT_NAME: tensor})

    return serving_input_receiver_fn


# ---- export ---------------------------------------------------------------------------------

class _Default(int):
    """A `True` default that remembers it was not passed (TPUEstimator's export_to_tpu)."""

    def __repr__(self):
        return "True"


EXPORT_TO_TPU_DEFAULT = _Default(1)


def check_export_targets(export_to_tpu, export_to_cpu) -> None:
    """TPUEstimator's export_to_tpu/export_to_cpu, decided as the module docstring says."""
    if not export_to_cpu and not export_to_tpu:
        raise ValueError("One of export_to_cpu and export_to_tpu must be true. Pass "
                         "export_to_cpu=True (the bridge exports the CPU serving metagraph).")
    if export_to_tpu and not export_to_cpu:
        raise ValueError(
            "TPUEstimator(export_to_tpu=True, export_to_cpu=False) asks only for the TPU "
            "metagraph (tags serve, tpu), which estimator_bridge does not produce. Pass "
            "export_to_cpu=True to export the CPU serving metagraph (tag serve), and serve it "
            "on TPU through TF 2 (tf.saved_model.load under tf.distribute.TPUStrategy).")
    if export_to_tpu and export_to_tpu is not EXPORT_TO_TPU_DEFAULT:
        logger.warning(
            "export_to_tpu=True: estimator_bridge writes only the CPU serving metagraph (tag "
            "serve), not TPUEstimator's TPU metagraph (tags serve, tpu). Pass "
            "export_to_tpu=False to silence this.")
    elif export_to_tpu:
        logger.info("Exporting the CPU serving metagraph only (the TPU metagraph of "
                    "TPUEstimator's default export_to_tpu=True is not produced by the bridge).")


def _check_checkpoint_matches(graph_variables, checkpoint_path):
    reader = tf.train.load_checkpoint(checkpoint_path)
    stored = reader.get_variable_to_shape_map()
    for variable in graph_variables:
        name = variable.op.name
        if name not in stored:
            raise ValueError(
                f"export: the serving graph's variable {name!r} is not in checkpoint "
                f"{checkpoint_path} (it holds {sorted(stored)[:12]}...). model_fn in PREDICT "
                "mode must create its variables with the names it used in training; build the "
                "same layers in every mode.")
        if list(stored[name]) != variable.shape.as_list():
            raise ValueError(
                f"export: variable {name!r} has shape {variable.shape.as_list()} in the serving "
                f"graph but {list(stored[name])} in checkpoint {checkpoint_path}. Build the "
                "same model in PREDICT mode as in training.")


def _copy_assets_extra(assets_extra, export_dir):
    for dest_relative, source in assets_extra.items():
        dest_absolute = os.path.join(os.fsdecode(export_dir), "assets.extra", dest_relative)
        tf.io.gfile.makedirs(os.path.dirname(dest_absolute))
        tf.io.gfile.copy(source, dest_absolute, overwrite=True)


def export_saved_model(*, model_function, model_dir, serving_input_receiver_fn,
                       export_dir_base, assets_extra=None, as_text=False, checkpoint_path=None,
                       tf_random_seed=None):
    """Writes a SavedModel for serving; returns its timestamped directory (bytes, as TF1).

    Args:
      model_function: the estimator's `calling.ModelFunction` for export (bound to PREDICT, no
        batch size, use_tpu=False).
      model_dir: where the latest checkpoint is looked up.
      serving_input_receiver_fn: `() -> ServingInputReceiver`, TF1 graph code (placeholders).
      export_dir_base: the directory to create the timestamped export in.
      assets_extra: `{destination relative to assets.extra: source path}`.
      as_text: write `saved_model.pbtxt` instead of `saved_model.pb`.
      checkpoint_path: the checkpoint to export (default: the latest in model_dir).

    Raises:
      ValueError: no receiver fn, no checkpoint, a variable missing from the checkpoint or of
        another shape, invalid export_outputs.
    """
    if serving_input_receiver_fn is None:
        raise ValueError("An input_receiver_fn must be defined. Pass "
                         "serving_input_receiver_fn=estimator_bridge.export."
                         "build_raw_serving_input_receiver_fn({...}) or your own function "
                         "returning a ServingInputReceiver.")
    if not checkpoint_path:
        checkpoint_path = tf.train.latest_checkpoint(model_dir) if model_dir else None
    if not checkpoint_path:
        raise ValueError(f"Couldn't find trained model at {model_dir}. Train first "
                         "(estimator.train) or pass checkpoint_path=.")
    from estimator_bridge.spec import ModeKeys

    export_dir = _export_utils.get_timestamped_export_dir(export_dir_base)
    temp_export_dir = _export_utils.get_temp_export_dir(export_dir)
    with tf.Graph().as_default() as graph:
        if tf_random_seed is not None:
            graph.seed = tf_random_seed
        tf1.train.get_or_create_global_step(graph)
        receiver = serving_input_receiver_fn()
        if not hasattr(receiver, "receiver_tensors") or not hasattr(receiver, "features"):
            raise ValueError(
                f"serving_input_receiver_fn ({getattr(serving_input_receiver_fn, '__name__', '?')})"
                f" returned {type(receiver).__name__}; it must return "
                "estimator_bridge.export.ServingInputReceiver(features, receiver_tensors).")
        outputs = model_function(receiver.features, None)
        export_outputs = _export_utils.export_outputs_for_mode(
            ModeKeys.PREDICT, serving_export_outputs=outputs.spec.export_outputs,
            predictions=outputs.predictions)
        signature_def_map = _export_utils.build_all_signature_defs(
            receiver.receiver_tensors, export_outputs,
            getattr(receiver, "receiver_tensors_alternatives", None), serving_only=True)
        variables = tf1.global_variables()
        _check_checkpoint_matches(variables, checkpoint_path)
        saver = tf1.train.Saver(variables, sharded=True)
        local_init_op = tf.group(tf1.local_variables_initializer(), tf1.tables_initializer())
        with tf1.Session(graph=graph) as session:
            saver.restore(session, checkpoint_path)
            builder = tf1.saved_model.Builder(temp_export_dir)
            builder.add_meta_graph_and_variables(
                session, [tf.saved_model.SERVING], signature_def_map=signature_def_map,
                assets_collection=tf1.get_collection(tf1.GraphKeys.ASSET_FILEPATHS),
                main_op=local_init_op, saver=saver, strip_default_attrs=True)
            builder.save(as_text)
    if assets_extra:
        _copy_assets_extra(assets_extra, temp_export_dir)
    tf.io.gfile.rename(temp_export_dir, export_dir)
    logger.info("SavedModel written to: %s", export_dir.decode() if isinstance(export_dir, bytes)
                else export_dir)
    return export_dir
