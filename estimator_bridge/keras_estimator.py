"""`model_to_estimator`: a compiled Keras model as an Estimator, as TF 2.15's tensorflow_estimator made it.

TF <= 2.15 (`tf.keras.estimator.model_to_estimator`, TF 1.x's `tf.compat.v1` one) wrapped a compiled
model in an Estimator whose model_fn clones the model on the features, and trains, evaluates and
predicts with what `compile` named. The rules kept here (each as TF 2.15 had it):

* features: a dict keyed by the model's input names (extra keys allowed), a list, or one tensor;
  labels likewise by output names;
* the clone is called with `training=` the mode's (TF set Keras' learning phase);
* loss: the compiled losses (each the batch mean, Keras' default), weighted by `loss_weights`,
  plus the model's regularization losses; eval's `loss` is the mean of the batch losses;
* eval metrics: the compiled metrics, each the mean of its per-example values over the
  evaluation, named as Keras named them (`metric_names_map` renames them);
* train op: the compiled optimizer, rebuilt from its config (tf-keras: its legacy optimizer, as
  TF 2.15 converted it), whose step counter is the global step;
* start: the model's weights when `model_to_estimator` was called, written as a checkpoint under
  model_dir/keras/ and warm-started from it (trainable weights only, as TF's warm start from a
  path; non-trainable ones such as batch-norm statistics start at their initializers);
* predictions and the default serving signature: `{output name: output}`.

The model may be Keras 2 (tf-keras: the compat runner's `tf.keras`) or Keras 3 (migrated code);
each is cloned and trained by its own Keras. What it cannot do raises `UnsupportedKerasModel`
naming the argument and what to write instead.
"""

from __future__ import annotations

import logging
import os
import sys
import threading

import numpy as np
import tensorflow as tf

from estimator_bridge.config import RunConfig
from estimator_bridge.estimator import Estimator
from estimator_bridge.export import PredictOutput
from estimator_bridge import keras_checkpoint_names
from estimator_bridge.keras_clone import ClonedModel
from estimator_bridge.spec import EstimatorSpec, ModeKeys

logger = logging.getLogger("estimator_bridge")
tf1 = tf.compat.v1

DEFAULT_SERVING_KEY = "serving_default"
KERAS_CHECKPOINT = os.path.join("keras", "keras_model.ckpt")


class UnsupportedKerasModel(ValueError):
    """A model_to_estimator argument the bridge cannot run, with what to do instead."""


# ---- the model's Keras -----------------------------------------------------------------------

def _keras_of(model):
    """The Keras package a model belongs to: tf-keras (Keras 2) or keras (Keras 3)."""
    if type(model).__module__.startswith("tf_keras"):
        import tf_keras

        return tf_keras
    import keras

    return keras


def _process_keras():
    """The Keras this process's code builds models with: tf-keras under the compat runner, else Keras 3."""
    from estimator_bridge.compat import legacy_keras

    if legacy_keras.api_package() is not None:
        import tf_keras

        return tf_keras
    import keras

    return keras


def _is_keras2(model) -> bool:
    return type(model).__module__.startswith("tf_keras")


def _layer_name(tensor) -> str:
    history = getattr(tensor, "_keras_history", None)
    layer = getattr(history, "layer", None) or getattr(history, "operation", None)
    return layer.name


def input_names(model) -> list:
    names = getattr(model, "input_names", None)
    if names:
        return list(names)
    return [_layer_name(t) for t in tf.nest.flatten(model.inputs)]


def output_names(model) -> list:
    names = getattr(model, "output_names", None)
    if names:
        return list(names)
    return [_layer_name(t) for t in tf.nest.flatten(model.outputs)]


def _check_model(model):
    if getattr(model, "optimizer", None) is None:
        raise UnsupportedKerasModel(
            "model_to_estimator: the given keras model has not been compiled yet. Compile it with "
            "model.compile(optimizer=..., loss=...) before calling model_to_estimator().")
    if not getattr(model, "inputs", None):
        raise UnsupportedKerasModel(
            f"model_to_estimator: {type(model).__name__} is a subclassed keras Model (no symbolic "
            "inputs); estimator_bridge clones functional and Sequential models only. Build the "
            "model with keras.Input(...) (functional or Sequential with an Input), or write a "
            "model_fn that calls the model on the features.")


# ---- features and labels -> the model's inputs and targets -------------------------------------

def _ordered(value, names, what, order_name):
    if value is None:
        return None
    if isinstance(value, dict):
        missing = set(names) - set(value)
        if missing:
            raise KeyError(
                f"The dictionary passed into {what} does not cover requested {order_name} keys "
                f"defined in the keras model.\n\tExpected keys: {set(names)}\n\t{what} keys: "
                f"{set(value)}\n\tMissed keys: {missing}")
        return [tf.convert_to_tensor(value[name]) for name in names]
    if isinstance(value, (list, tuple)):
        return [tf.convert_to_tensor(v) for v in value]
    return [tf.convert_to_tensor(value)]


def model_inputs(model, features):
    """features (dict by input name, list, or one tensor) as the model's call argument."""
    if isinstance(features, dict) and set(features) == {"features", "sample_weights"}:
        raise UnsupportedKerasModel(
            "model_to_estimator: features {'features': ..., 'sample_weights': ...} (sample-weighted "
            "losses) are not supported by estimator_bridge. Return the features alone from "
            "input_fn, or write a model_fn that weights the loss.")
    names = input_names(model)
    if isinstance(features, dict) and len(names) == 1 and names[0] not in features:
        keras2_name = keras2_sequential_input_name(model)
        if keras2_name in features:
            names = [keras2_name]
    tensors = _ordered(features, names, "features", "inputs")
    return tensors[0] if len(tensors) == 1 else tensors


def keras2_sequential_input_name(model):
    """Keras 2's name of a Sequential model's input made from `input_shape=` (`dense_input`): the
    key TF 1.x programs gave input_fn's features. Keras 3 calls that input `input_layer`; a migrated
    program keeps its key."""
    if type(model).__name__ != "Sequential" or not model.layers:
        return None
    return f"{model.layers[0].name}_input"


def _floatx(model, tensor):
    dtype = _keras_of(model).backend.floatx()
    return tensor if tensor.dtype == dtype else tf.cast(tensor, dtype)


# ---- compiled loss and metrics ---------------------------------------------------------------

def _per_output(value, names):
    """compile's per-output argument (one value, a list, or a dict by output name) as a list."""
    if isinstance(value, dict):
        return [value.get(name) for name in names]
    if isinstance(value, (list, tuple)):
        if len(value) != len(names):
            raise UnsupportedKerasModel(
                f"model_to_estimator: compile gave {len(value)} losses for the model's {len(names)} "
                f"outputs {names}. Give one loss per output, or a dict keyed by output name.")
        return list(value)
    return [value] * len(names)


def compiled_loss(model, clone, targets, outputs, tf1_era=False):
    """The compiled loss on `targets`: the weighted sum of the output losses (each the batch mean,
    Keras' default reduction) plus the layers' regularization losses."""
    keras = _keras_of(model)
    losses = _per_output(model.loss, output_names(model))
    loss_weights = _loss_weights(model)
    total = []
    for index, (loss, target, output) in enumerate(zip(losses, targets, outputs)):
        if loss is None:
            continue
        function = keras.losses.get(loss)
        if not isinstance(function, keras.losses.Loss):
            function = _function_loss(model, function)
        elif getattr(function, "reduction", None) == "auto":  # tf-keras' AUTO: the batch mean
            function = type(function).from_config({**function.get_config(),
                                                    "reduction": "sum_over_batch_size"})
        # tf-keras refuses a batch mean under a tf.distribute strategy except for compile's own
        # losses, which these are (compile sets the same exemption)
        function._allow_sum_over_batch_size = True
        target, output = same_ranks(target, output, tf1_era)
        value = function(target, output)
        if value.shape.rank:  # tf-keras leaves a statically empty batch's losses unreduced
            value = tf.reduce_sum(value)
        weight = loss_weights[index] if loss_weights is not None else None
        total.append(value if weight is None else value * weight)
    return tf.add_n(total + [tf.convert_to_tensor(l) for l in clone.losses])


def same_ranks(target, output, tf1: bool):
    """Labels and outputs one rank apart, as the program's TensorFlow brought them together.

    TF 2.x's Keras squeezed the one with the extra trailing axis of size 1 (a (batch, 1) sigmoid
    output against (batch,) class ids became (batch,)); TF 1.15's model_to_estimator gave the
    labels that axis instead (as Keras 3 does). It changes a crossentropy's normalising axis:
    TF 2.15's tutorial model lost 12.53 at its first step, TF 1.15's 7.2e-7.
    """
    target_rank, output_rank = target.shape.rank, output.shape.rank
    if target_rank is None or output_rank is None:
        return target, output
    if output_rank == target_rank + 1 and output.shape[-1] == 1:
        if tf1:
            return tf.expand_dims(target, -1), output
        return target, tf.squeeze(output, -1)
    if target_rank == output_rank + 1 and target.shape[-1] == 1:
        return tf.squeeze(target, -1), output
    return target, output


def tf1_program(frame) -> bool:
    """Whether the program calling model_to_estimator (`frame`: its call) was written for TF 1.x:
    the runner's era, else the era its own source on the stack reads as (a migrated program);
    unknown: TF 2.x, whose model_to_estimator is the reference."""
    from estimator_bridge.compat import legacy_keras, program_era

    era = legacy_keras.era()
    if era is not None:
        return not era.tf2
    sources = legacy_keras._program_sources(frame)  # pylint: disable=protected-access
    return bool(sources) and not program_era.era_of(sources).tf2


def _function_loss(model, function):
    """A loss function of (y_true, y_pred) as the model's Keras wrapped it in compile: its
    LossFunctionWrapper (labels and outputs brought to one rank: a (batch, 1) output against
    (batch,) labels is squeezed, as TF 2.15's estimator did) with the batch-mean reduction."""
    name = getattr(function, "__name__", None)
    if _is_keras2(model):
        from tf_keras.src.losses import LossFunctionWrapper

        return LossFunctionWrapper(function, name=name, reduction="sum_over_batch_size")
    from keras.src.losses.losses import LossFunctionWrapper

    return LossFunctionWrapper(function, name=name)


def _loss_weights(model):
    names = output_names(model)
    config = getattr(model, "_compile_config", None)
    weights = None
    if config is not None:
        weights = getattr(config, "config", {}).get("loss_weights")
    if weights is None:
        weights = getattr(model, "loss_weights", None) or getattr(model, "_loss_weights", None)
    if weights is None:
        return None
    if isinstance(weights, dict):
        return [weights.get(name, 1.0) for name in names]
    return list(weights) if isinstance(weights, (list, tuple)) else [weights]


def _resolved_metrics(model, target_specs, output_specs):
    """[(output index, metric object)] the model's Keras builds for its compiled metrics."""
    y_true = [_zeros(shape, dtype) for shape, dtype in target_specs]
    y_pred = [_zeros(shape, dtype) for shape, dtype in output_specs]
    one = len(y_pred) == 1
    if _is_keras2(model):
        from tf_keras.src.engine import compile_utils

        user = model.compiled_metrics
        if user is None:
            return []
        container = compile_utils.MetricsContainer(
            user._user_metrics, user._user_weighted_metrics, output_names=output_names(model))
        container.build(y_pred[0] if one else y_pred, y_true[0] if one else y_true)
        groups = [container._metrics, container._weighted_metrics]
        return [(index, metric) for group in groups
                for index, listed in enumerate([group] if one else group)
                for metric in tf.nest.flatten(listed) if metric is not None]
    from keras.src.trainers import compile_utils

    user = model._compile_metrics
    if user is None:
        return []
    container = compile_utils.CompileMetrics(
        user._user_metrics, user._user_weighted_metrics, output_names=user.output_names)
    container.build(y_true[0] if one else y_true, y_pred[0] if one else y_pred)
    return [(index, metric) for flat in (container._flat_metrics, container._flat_weighted_metrics)
            for index, listed in enumerate(flat) if listed is not None for metric in listed.metrics]


def _zeros(shape, dtype):
    return tf.zeros([1 if d is None else d for d in shape.as_list()], dtype)


def _metric_functions(model, targets, outputs):
    """[(name, output index, per-example function, its kwargs)] of the compiled metrics, resolved
    by the model's own Keras ('accuracy' by the labels' and outputs' shapes). The resolution builds
    metric objects, whose variables must not join the model's: it runs eagerly in another thread
    (a graph's variable creators are per thread), on zero tensors of the same shapes and dtypes,
    and only the functions are used."""
    shapes = ([(t.shape, t.dtype) for t in targets], [(o.shape, o.dtype) for o in outputs])
    found = {}

    def resolve():
        try:
            found["entries"] = _resolved_metrics(model, *shapes)
        except Exception as error:  # raised again in model_fn's thread
            found["error"] = error

    thread = threading.Thread(target=resolve, name="model_to_estimator-metrics")
    thread.start()
    thread.join()
    if "error" in found:
        raise found["error"]
    entries = found["entries"]
    functions = []
    for index, metric in entries:
        function = getattr(metric, "_fn", None)
        if function is None:
            raise UnsupportedKerasModel(
                f"model_to_estimator: the compiled metric {metric.name!r} ({type(metric).__name__}) "
                "keeps its own state (it is not a mean of per-example values), which estimator_bridge "
                "does not turn into an eval metric. Compile with per-example metrics ('accuracy', "
                "'mae', a function of (y_true, y_pred)), or write a model_fn that returns "
                f"eval_metric_ops={{{metric.name!r}: tf.compat.v1.metrics...}}.")
        kwargs = dict(getattr(metric, "_fn_kwargs", {}) or {})
        functions.append((_era_name(model, metric.name), index, function, kwargs))
    return functions


# TF 1.x Keras named the string metrics by these suffixes (`acc`, `dense_1_acc`); TF 2.x kept the string.
TF1_METRIC_SUFFIXES = {"accuracy": "acc", "crossentropy": "ce"}


def _era_name(model, name):
    """A metric's name as the program's era named it (the compat runner's TF 1.x programs: `acc`)."""
    if not _is_keras2(model):
        return name
    from estimator_bridge.compat import legacy_keras

    era = legacy_keras.era()
    if era is None or era.tf2:
        return name
    for suffix, tf1_suffix in TF1_METRIC_SUFFIXES.items():
        if name == suffix or name.endswith("_" + suffix):
            return name[: len(name) - len(suffix)] + tf1_suffix
    return name


def eval_metric_ops(model, targets, outputs, metric_names_map=None, tf1_era=False):
    functions = _metric_functions(model, targets, outputs)
    names = [name for name, *_ in functions]
    if metric_names_map:
        unknown = set(names) - set(metric_names_map)
        if unknown:
            raise ValueError(
                "Invalid `metric_names_map`. The following keras model metric names:"
                f"\"{sorted(unknown)}\" do not exist in the `metric_names_map` dictionary")
        extra = set(metric_names_map) - set(names)
        if extra:
            raise ValueError(
                "Invalid `metric_names_map`. There are unexpected keys in the `metric_names_map` "
                f"dictionary. Expected keys: {names}, Received: {sorted(extra)}")
    ops = {}
    for name, index, function, kwargs in functions:
        values = function(*same_ranks(targets[index], outputs[index], tf1_era), **kwargs)
        values = tf.cast(tf.convert_to_tensor(values), tf.float32)
        ops[metric_names_map[name] if metric_names_map else name] = tf1.metrics.mean(values)
    return ops or None


# ---- the optimizer ---------------------------------------------------------------------------

def optimizer_factory(model):
    """A function making a new optimizer with the compiled one's configuration, read now (eagerly,
    outside any trace). tf-keras: its legacy optimizer, as TF 2.15 converted it for Estimators."""
    optimizer = model.optimizer
    if _is_keras2(model):
        import tf_keras

        if not isinstance(optimizer, tf_keras.optimizers.legacy.Optimizer):
            optimizer = tf_keras.__internal__.optimizers.convert_to_legacy_optimizer(optimizer)
    try:
        config = optimizer.get_config()
    except (NotImplementedError, AttributeError) as error:
        raise UnsupportedKerasModel(
            f"model_to_estimator: the compiled optimizer {type(optimizer).__name__} has no config "
            f"({error}), so estimator_bridge cannot rebuild it in the Estimator. Compile the model "
            "with a keras optimizer (keras.optimizers.Adam(...), ...).") from error
    return lambda: type(optimizer).from_config(config)


def train_op(model, make_optimizer, loss, variables):
    """The optimizer's update of `variables`; the global step counts the updates."""
    global_step = tf1.train.get_or_create_global_step()
    optimizer = make_optimizer()
    tf_variables = [v if isinstance(v, tf.Variable) else v.value for v in variables]
    gradients = tf.gradients(loss, tf_variables)
    if _is_keras2(model):
        optimizer.iterations = global_step  # TF 2.15: the optimizer's step is the global step
        with tf1.variable_scope("training"):  # TF 1.x Keras' scope: `training/Adam/dense/kernel/m`
            return optimizer.apply_gradients(zip(gradients, variables))
    # Keras 3 updates the variables by assignments it returns nothing of: the train op depends on
    # every op the update built, so that a fetch of it runs them (TF1 fetch semantics prune the rest)
    graph = tf1.get_default_graph()
    before = len(graph.get_operations())
    optimizer.apply_gradients(zip(gradients, variables))
    with tf.control_dependencies(graph.get_operations()[before:]):
        return tf1.assign_add(global_step, 1)


# ---- the model's weights as the start ----------------------------------------------------------

def _basename(weight) -> str:
    """`kernel` of tf-keras' `dense/kernel:0` and of Keras 3's `kernel`."""
    return weight.name.split(":")[0].rsplit("/", 1)[-1]


def _model_weights(model, prefix=""):
    """[(key, weight)] of the model's layers, keyed as TF 1.x named them: `LAYER/WEIGHT`
    (`dense/kernel`; a nested model's layers under its name)."""
    pairs = []
    for layer in model.layers:
        if type(layer).__name__ == "InputLayer":
            continue
        if getattr(layer, "layers", None) is not None and hasattr(layer, "inputs"):
            pairs += _model_weights(layer, f"{prefix}{layer.name}/")
        else:
            pairs += [(f"{prefix}{layer.name}/{_basename(w)}", w) for w in layer.weights]
    return pairs


def _clone_weights(model, clone, prefix=""):
    """[(key, clone's weight)] in `_model_weights`' order, layer by layer."""
    pairs = []
    for layer in model.layers:
        new = clone.layers.get(id(layer))
        if new is None:
            continue
        if isinstance(new, ClonedModel):
            pairs += _clone_weights(layer, new, f"{prefix}{layer.name}/")
        else:
            pairs += [(f"{prefix}{layer.name}/{_basename(w)}", cloned)
                      for w, cloned in zip(layer.weights, new.weights)]
    return pairs


def write_start_checkpoint(model, model_dir) -> str:
    """The model's weights now, as model_dir/keras/keras_model.ckpt under TF 1.x's names (a
    checkpoint already there is kept, as TF did: an earlier run's, or TF 1.x's own)."""
    prefix = os.path.join(model_dir, KERAS_CHECKPOINT)
    if tf.io.gfile.exists(prefix + ".index"):
        return prefix
    tf.io.gfile.makedirs(os.path.dirname(prefix))
    pairs = _model_weights(model)
    keys = [key for key, _ in pairs]
    if len(set(keys)) != len(keys):
        raise UnsupportedKerasModel(
            f"model_to_estimator: two weights of the model have the same name ({sorted(keys)}); give its "
            "layers distinct names (name=...).")
    with tf.init_scope():
        tf.raw_ops.SaveV2(prefix=prefix, tensor_names=keys, shape_and_slices=[""] * len(pairs),
                          tensors=[tf.constant(np.asarray(w.numpy())) for _, w in pairs])
    with open(os.path.join(os.path.dirname(prefix), "checkpoint"), "w") as state:
        state.write('model_checkpoint_path: "keras_model.ckpt"\n'
                    'all_model_checkpoint_paths: "keras_model.ckpt"\n')
    return prefix


def warm_start_from_keras(clone_pairs, trainable, prefix):
    """init_from_checkpoint of the clone's trainable weights from the start checkpoint."""
    trainable = {id(w) for w in trainable}
    assignment = {key: (cloned if isinstance(cloned, tf.Variable) else cloned.value)
                  for key, cloned in clone_pairs if id(cloned) in trainable}
    if assignment:
        tf1.train.init_from_checkpoint(prefix, assignment)


# ---- model_fn and model_to_estimator ------------------------------------------------------------

def _clone(model, custom_objects):
    keras = _keras_of(model)
    with keras.utils.custom_object_scope(custom_objects or {}):
        return ClonedModel(model)


def make_model_fn(model, *, make_optimizer, tf1_era=False, custom_objects=None, metric_names_map=None, export_outputs=None,
                  start_checkpoint=None):
    def model_fn(features, labels, mode):
        clone = _clone(model, custom_objects)
        inputs = model_inputs(model, features)
        outputs = clone(inputs, training=mode == ModeKeys.TRAIN)
        outputs = tf.nest.flatten(outputs)
        names = output_names(model)
        predictions = dict(zip(names, outputs))
        if start_checkpoint is not None:
            warm_start_from_keras(_clone_weights(model, clone), clone.trainable_weights, start_checkpoint)
        loss = train = metrics = None
        if mode != ModeKeys.PREDICT:
            targets = [_floatx(model, t) if t.dtype.is_floating else t
                       for t in _ordered(labels, names, "labels", "outputs")]
            with tf.name_scope("loss"):  # Keras' graph scope: TF's loss summary became `loss_1`
                loss = compiled_loss(model, clone, targets, outputs, tf1_era)
            metrics = eval_metric_ops(model, targets, outputs, metric_names_map, tf1_era)
            if mode == ModeKeys.TRAIN:
                train = train_op(model, make_optimizer, loss, clone.trainable_weights)
        serving = {DEFAULT_SERVING_KEY: PredictOutput(predictions)}
        for key, output_class in (export_outputs or {}).items():
            if key not in predictions:
                raise KeyError(f"export_outputs key {key!r} is not an output of the keras model "
                               f"(its outputs: {names}).")
            serving[key] = output_class(predictions[key])
        return EstimatorSpec(mode, predictions=predictions, loss=loss, train_op=train,
                             eval_metric_ops=metrics, export_outputs=serving)

    return model_fn


def model_to_estimator(keras_model=None, keras_model_path=None, custom_objects=None, model_dir=None,
                       config=None, checkpoint_format="checkpoint", metric_names_map=None,
                       export_outputs=None):
    """An Estimator that trains, evaluates and predicts with a compiled Keras model (module docstring).

    Raises:
      ValueError: neither or both of keras_model / keras_model_path; an unknown checkpoint_format.
      UnsupportedKerasModel: a model or argument the bridge cannot run, with what to do instead.
    """
    if keras_model is None and keras_model_path is None:
        raise ValueError("Either `keras_model` or `keras_model_path` needs to be provided.")
    if keras_model is not None and keras_model_path is not None:
        raise ValueError("Please specity either `keras_model` or `keras_model_path`, but not both.")
    if checkpoint_format not in (None, "checkpoint", "saver"):
        raise ValueError(f'Checkpoint format must be one of "checkpoint" or "saver". Got {checkpoint_format}')
    if keras_model is None:
        if keras_model_path.startswith("gs://"):
            raise UnsupportedKerasModel(
                "model_to_estimator(keras_model_path='gs://...'): estimator_bridge loads local files "
                "only. Copy the model file locally first (tf.io.gfile.copy) and pass that path.")
        keras_model = _process_keras().models.load_model(keras_model_path, custom_objects=custom_objects)
    _check_model(keras_model)
    if config is None:
        config = RunConfig(model_dir=model_dir)
    elif model_dir is not None:
        config = config.replace(model_dir=model_dir) if hasattr(config, "replace") else config
    if config.model_dir is None:
        import tempfile

        config = config.replace(model_dir=tempfile.mkdtemp())
        logger.warning("Using temporary folder as model directory: %s", config.model_dir)
    start = write_start_checkpoint(keras_model, config.model_dir)
    model_fn = make_model_fn(keras_model, make_optimizer=optimizer_factory(keras_model),
                             tf1_era=tf1_program(sys._getframe(1)),
                             custom_objects=custom_objects,
                             metric_names_map=metric_names_map, export_outputs=export_outputs,
                             start_checkpoint=start)
    return KerasEstimator(model_fn, config=config, layer_weights=_top_layer_weights(keras_model))


def _top_layer_weights(model):
    """[(layer name, [weight basenames])] of the model's layers with weights (TF's layer_with_weights-K)."""
    return [(layer.name, [_basename(w) for w in layer.weights]) for layer in model.layers if layer.weights]


class KerasEstimator(Estimator):
    """The Estimator model_to_estimator returns: also resumes a model_dir TF 2.x's model_to_estimator
    wrote with object-based keys (keras_checkpoint_names.py)."""

    def __init__(self, model_fn, config, layer_weights):
        super().__init__(model_fn, config=config)
        self._keras_layer_weights = layer_weights

    def _restore(self, prefix, mode=None):
        if prefix is not None and self._restore_names.get(mode) is None:
            from estimator_bridge.runtime import checkpoints

            stored = checkpoints.open_checkpoint(prefix).get_variable_to_shape_map()
            names = list(self._model_variables())
            if keras_checkpoint_names.is_object_based(stored) and not set(names) <= set(stored):
                mapped = keras_checkpoint_names.object_keys(names, self._keras_layer_weights)
                checkpoints.restore(self._model_variables(), prefix, self._deployment.strategy,
                                    stored_names=mapped)
                return
        super()._restore(prefix, mode)
