"""What TF 1.x's KerasTPUModel did beyond Keras, for code migrated from `keras_to_tpu_model`.

estimator-migrate turns `tpu_model = keras_to_tpu_model(model, strategy=...)` into a clone of
`model` compiled in `tf.distribute.TPUStrategy.scope()` (migrate/codemods/keras_tpu.py). The 2018
colabs then called `tpu_model.sync_to_cpu()` to get a CPU model for plotting, saving or predicting
(`cpu_model = tpu_model.sync_to_cpu()`). A Keras 3
model has no such method (AttributeError); `sync_to_cpu(tpu_model, model)` is what the codemod
writes instead.

The compat runner serves `tf.contrib.tpu.keras_to_tpu_model` / `TPUDistributionStrategy` from here
too (below): the same conversion at run time, for the unchanged program.
"""

from __future__ import annotations

import logging

logger = logging.getLogger("estimator_bridge")


def sync_to_cpu(tpu_model, cpu_model):
    """TF 1.15's `KerasTPUModel.sync_to_cpu()`: the CPU model given to keras_to_tpu_model, with the TPU model's weights.

    As in TF 1.15 (contrib/tpu/python/tpu/keras_support.py), the returned object is the original
    model itself (not a copy), its weights set to the TPU model's. TF 1.15's `tpu_model.compile(...)`
    also compiled the CPU model (with a copy of the optimizer), so a CPU model that is not compiled
    here (the colabs converted first and compiled the TPU model after) is compiled from the TPU
    model's compile configuration, outside the strategy. Of the optimizer's settings
    only those the CPU optimizer holds in a variable are copied (TF 1.15 copied the variables of
    the config and logged the rest as "Cannot update non-variable config"); in Keras 3 that is
    the learning rate (a LearningRateScheduler changes the TPU model's). Optimizer slots stay
    where they are, as in TF 1.15.
    """
    cpu_model.set_weights(tpu_model.get_weights())
    if not getattr(cpu_model, "compiled", False) and getattr(tpu_model, "compiled", False):
        try:
            cpu_model.compile_from_config(tpu_model.get_compile_config())
        except Exception as error:  # noqa: BLE001 - the weights are synced; say why it is not compiled
            logger.warning("sync_to_cpu: the CPU model is left uncompiled (TF 1.15 compiled it with the TPU "
                           "model): Keras 3 could not rebuild the TPU model's compile arguments: %s. Compile "
                           "it by hand before evaluate/fit; custom losses or metrics must be registered "
                           "(@keras.saving.register_keras_serializable()).", error)
    cpu_optimizer = getattr(cpu_model, "optimizer", None)
    tpu_optimizer = getattr(tpu_model, "optimizer", None)
    if cpu_optimizer is not None and tpu_optimizer is not None and cpu_optimizer is not tpu_optimizer:
        variable = getattr(cpu_optimizer, "_learning_rate", None)
        source = getattr(tpu_optimizer, "_learning_rate", None)
        if hasattr(variable, "assign") and hasattr(source, "numpy"):
            variable.assign(source.numpy())
    return cpu_model


def compile_like(tpu_model, cpu_model) -> None:
    """KerasTPUModel's compile on tf-keras (`--keras 2` output): the clone compiled with the CPU model's
    compile arguments when the CPU model was compiled.

    What `if model.compiled: tpu_model.compile_from_config(model.get_compile_config())` does on Keras 3,
    which tf-keras cannot: its models have no `compiled` (AttributeError) and its compile config does
    not serialise a TF1 optimizer (`tf.compat.v1.train.AdamOptimizer`: TypeError), the optimizer of
    most 2018 programs. The arguments are the ones given to `compile`; a Keras optimizer is copied from
    its config (created in the strategy's scope, as compile_from_config does), a TF1 one is passed on
    as TF 1.15's KerasTPUModel passed the CPU model's.
    """
    if not getattr(cpu_model, "_is_compiled", False):
        return
    config = getattr(cpu_model, "_compile_config", None)
    if config is not None:
        arguments = dict(config.config)
    else:  # tf-keras' v1 graph-mode Model (TF 1.x behaviour) keeps the arguments as attributes
        arguments = {"optimizer": cpu_model.optimizer, "loss": cpu_model.loss,
                     "metrics": cpu_model._compile_metrics, "loss_weights": cpu_model.loss_weights,
                     "weighted_metrics": cpu_model._compile_weighted_metrics}
    import tf_keras

    optimizer = arguments.get("optimizer")
    if isinstance(optimizer, (tf_keras.optimizers.Optimizer, tf_keras.optimizers.legacy.Optimizer)):
        arguments["optimizer"] = type(optimizer).from_config(optimizer.get_config())
    tpu_model.compile(**arguments)


def tpu_model_input(data, model):
    """An input of TF 1.x's `KerasTPUModel.fit` / `evaluate`, as Keras 3 under a strategy must get it.

    KerasTPUModel (contrib/tpu/python/tpu/keras_support.py, TF 1.13-1.15) took a tf.data input as
    a *function* returning the dataset (it refused a dataset itself): `tpu_model.fit(
    get_training_dataset, steps_per_epoch=..., validation_data=get_validation_dataset)` (Keras 3
    raises "Unrecognized data type: x=<function ...>"). And its TPUDatasetInfeedManager gave every core its own batch:
    one `get_next()` per core, chained in core order, so the dataset's batch was the per-core
    batch and a step consumed `cores` batches. Keras 3 splits each batch of the dataset over the replicas.

    For a callable `data` this calls it and joins each `replicas` consecutive batches into one
    global batch (`model`'s strategy), which Keras splits back in order: replica i gets exactly the
    batch TF 1.x's core i got, and steps_per_epoch counts the same steps. TF 1.x required static
    batch shapes here (it checked them), so the batches join without a remainder. Anything else
    (numpy arrays, a dataset, None) is returned unchanged.
    """
    import tensorflow as tf

    if not callable(data) or isinstance(data, tf.data.Dataset):
        return data
    dataset = data()
    replicas = model.distribute_strategy.num_replicas_in_sync
    if replicas == 1:
        return dataset

    def join(tensor):
        shape = tensor.shape
        if shape.rank is not None and shape[1:].is_fully_defined():
            return tf.reshape(tensor, [replicas * shape[1], *shape[2:]])
        return tf.reshape(tensor, tf.concat([[-1], tf.shape(tensor)[2:]], 0))

    def joined(*parts):
        return tf.nest.map_structure(join, parts[0] if len(parts) == 1 else parts)

    return dataset.batch(replicas, drop_remainder=True).map(joined)


# ---- the compat runner's keras_to_tpu_model (an unchanged TF 1.x program) --------------------------

def tf1_metric_names(metrics):
    """`compile`'s metrics with the strings TF 1.x's Keras named otherwise spelled so that Keras names
    them as TF 1.x did ('accuracy' -> 'acc': KerasTPUModel's history keys). The runner's TPU model is
    trained eagerly on tf.distribute by Keras 2, which names a metric as written; TF 1.x programs read
    `history.history['acc']` (the table: migrate/tables/keras.py, which the codemod applies too)."""
    from migrate.tables.keras import TF1_METRIC_NAMES

    if not isinstance(metrics, (list, tuple)):
        return metrics
    return type(metrics)(TF1_METRIC_NAMES.get(m, m) if isinstance(m, str) else m for m in metrics)


class TPUDistributionStrategy:
    """TF 1.15's `tf.contrib.tpu.TPUDistributionStrategy`: the TPU `keras_to_tpu_model` runs on.

    TF 1.15 (contrib/tpu/python/tpu/keras_support.py) held the cluster resolver (None: the local
    TPU, `TPUClusterResolver('')`); `using_single_core=True` ran on one core of it, which a
    `tf.distribute.TPUStrategy` has no switch for, so it is refused with what to do.
    """

    def __init__(self, tpu_cluster_resolver=None, using_single_core=False):
        if using_single_core:
            raise NotImplementedError(
                "TPUDistributionStrategy(using_single_core=True): the compat runner converts the model "
                "with tf.distribute.TPUStrategy, which uses every core of the TPU. Drop the argument "
                "(the batch is then split over the cores), or run the model without keras_to_tpu_model.")
        if tpu_cluster_resolver is None:
            import estimator_bridge

            tpu_cluster_resolver = estimator_bridge.TPUClusterResolver("")
        self._tpu_cluster_resolver = tpu_cluster_resolver


def keras_to_tpu_model(model, strategy=None):
    """TF 1.15's `tf.contrib.tpu.keras_to_tpu_model` under the compat runner: what estimator-migrate writes.

    The codemod (migrate/codemods/keras_tpu.py) turns the call into: connect, initialise and build a
    `tf.distribute.TPUStrategy` from the strategy's resolver, then in its scope clone the model,
    copy its weights and compile it from the original's compile configuration when it was compiled.
    This does the same at run time and gives the clone what KerasTPUModel had on top of Keras:
    `compile` inside the strategy's scope (the 2018 colabs converted first and compiled the TPU
    model after), `fit`/`evaluate`/`predict` taking a function that returns a dataset, each core
    reading its own batch (`tpu_model_input`), the per-epoch validation restarted as Keras 2 did
    (`keras_methods.restarted_each_epoch`), and `sync_to_cpu()`. One step per execution, the batch
    global, as in TF 1.x (docs/migrate.md, Keras section).
    """
    import tensorflow as tf

    strategy = TPUDistributionStrategy() if strategy is None else strategy
    resolver = getattr(strategy, "_tpu_cluster_resolver", None)
    if resolver is None:
        raise TypeError(f"keras_to_tpu_model: strategy must be a tf.contrib.tpu.TPUDistributionStrategy, got {strategy!r}")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    distribution = tf.distribute.TPUStrategy(resolver)
    with distribution.scope():
        tpu_model = tf.keras.models.clone_model(model)
        tpu_model.set_weights(model.get_weights())
        if getattr(model, "compiled", False):
            config = model.get_compile_config()
            config["metrics"] = tf1_metric_names(config.get("metrics"))
            tpu_model.compile_from_config(config)
    _give_keras_tpu_model_methods(tpu_model, model, distribution)
    return tpu_model


def _give_keras_tpu_model_methods(tpu_model, cpu_model, distribution) -> None:
    import functools
    import inspect

    from estimator_bridge.compat.keras_methods import restarted_each_epoch

    fit, evaluate, predict, compile_ = tpu_model.fit, tpu_model.evaluate, tpu_model.predict, tpu_model.compile

    def inputs(method, args, kwargs, validation=False):
        bound = inspect.signature(method).bind_partial(*args, **kwargs)
        arguments = bound.arguments
        if "x" in arguments:
            arguments["x"] = tpu_model_input(arguments["x"], tpu_model)
        if validation and arguments.get("validation_data") is not None:
            arguments["validation_data"] = tpu_model_input(arguments["validation_data"], tpu_model)
            if arguments.get("validation_steps") is not None:
                arguments["validation_data"] = restarted_each_epoch(arguments["validation_data"])
        return bound.args, bound.kwargs

    @functools.wraps(fit)
    def tpu_fit(*args, **kwargs):
        args, kwargs = inputs(fit, args, kwargs, validation=True)
        return fit(*args, **kwargs)

    @functools.wraps(evaluate)
    def tpu_evaluate(*args, **kwargs):
        args, kwargs = inputs(evaluate, args, kwargs)
        return evaluate(*args, **kwargs)

    @functools.wraps(predict)
    def tpu_predict(*args, **kwargs):
        args, kwargs = inputs(predict, args, kwargs)
        return predict(*args, **kwargs)

    @functools.wraps(compile_)
    def tpu_compile(*args, **kwargs):
        if len(args) > 2:  # TF 1.x's compile(optimizer, loss, metrics, ...)
            kwargs.setdefault("metrics", args[2])
            args = args[:2]
        kwargs["metrics"] = tf1_metric_names(kwargs.get("metrics"))
        with distribution.scope():
            return compile_(*args, **kwargs)

    tpu_model.fit, tpu_model.evaluate, tpu_model.predict = tpu_fit, tpu_evaluate, tpu_predict
    tpu_model.compile = tpu_compile
    tpu_model.sync_to_cpu = lambda: sync_to_cpu(tpu_model, cpu_model)
