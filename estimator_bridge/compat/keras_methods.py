"""Keras 2 methods Keras 3 removed from models and metrics, for code estimator-migrate rewrote.

`x.reset_states()` was a method of every Keras 2 model (reset the stateful RNN layers) and metric
(TF 2.x: an alias of `reset_state()`). Keras 3 kept it on RNN layers only, so the 2018-2021 TPU
colabs that primed a stateful model before sampling (`prediction_model.reset_states()`) raise
AttributeError.
What `x` is cannot be seen in the source, so the codemod writes `reset_states(x)` and this
decides at run time, as Keras 2 did.
"""

from __future__ import annotations

import sys

from estimator_bridge.compat import keras_default_seeds

# the order of a Sequence's batches (fit_tf1) is drawn from Python's `random`, which TF 1.x's Keras
# layers left alone: migrated programs build their models after this import
keras_default_seeds.install()


def reset_states(obj):
    """Keras 2's `obj.reset_states()` on Keras 3 objects; the object's own method when it has one.

    - an object with a `reset_states` method (Keras 3 RNN layers, the user's own classes): called;
    - a model (anything with `.layers`): Keras 2's Model.reset_states, which reset every layer that
      is `stateful` and has `reset_states`; nested models are entered (in Keras 2 they had the
      method and did the same);
    - a metric (`reset_state()`, Keras 3's name): called;
    - else AttributeError, with Keras 2's name in the message.
    """
    method = getattr(obj, "reset_states", None)
    if callable(method):
        return method()
    layers = getattr(obj, "layers", None)
    if layers is not None:
        for layer in layers:
            if callable(getattr(layer, "reset_states", None)):
                if getattr(layer, "stateful", False):
                    layer.reset_states()
            elif getattr(layer, "layers", None) is not None:
                reset_states(layer)
        return None
    method = getattr(obj, "reset_state", None)
    if callable(method):
        return method()
    raise AttributeError(f"'{type(obj).__name__}' object has no attribute 'reset_states' (Keras 2's "
                         "reset_states: a model resets its stateful layers, a metric its state)")


def restarted_each_epoch(validation_data):
    """`fit(validation_data=V, validation_steps=N)` under a tf.distribute strategy as Keras 2 ran it: `V` itself.

    Keras 2 and Keras 3 both evaluate the validation data from its start at every epoch (measured
    on TF 2.15 and 2.21: with a learning rate of 0 every epoch's val_loss is the same). Keras 3's
    TensorFlow trainer under a distribution strategy (TPUStrategy, MirroredStrategy, also with one
    replica) first reads one batch from the cached validation iterator to build the model
    symbolically, before it resets that iterator; when the previous epoch's validation read a
    finite dataset of unknown size to its end (`validation_steps` = all its batches, e.g.
    `dataset.batch(10000)` with `validation_steps=1`), that read raises StopIteration at the second
    epoch.

    This returns `validation_data` unchanged and makes, once per process, Keras 3 reset the cached
    validation iterator before that read (the reset it does right after): the same batches are
    evaluated, the stale iterator is not touched. Nothing changes when Keras has no such trainer.
    """
    _restart_validation_before_symbolic_build()
    return validation_data


def unseen_symbolic_build(data):
    """`fit(data, ...)` of a model under a tf.distribute strategy as TF 2.x's Keras read it: `data` itself.

    Keras 3's TensorFlow trainer under a strategy (MirroredStrategy with one or more replicas, TPUStrategy;
    not the default strategy) reads one batch to build the model symbolically before the first epoch,
    then restarts the data. A keras Sequence (PyDataset) read so draws its shuffled order with Python's
    `random.shuffle` once more (and runs the user's `__getitem__` and `on_epoch_end`, which may draw from
    numpy), so every epoch reads other batches than TF 2.15's Keras did (measured: the first epoch's loss
    0.70068 against TF 2.15's 0.70373, tests/migrate/test_keras_sequence_strategy.py). This returns
    `data` unchanged and makes, once per process, that read leave Python's and numpy's global generators
    as they were: the epochs draw TF 2.15's orders. Nothing changes when Keras has no such trainer.
    """
    _patch_symbolic_build()
    return data


def _restart_validation_before_symbolic_build() -> None:
    _patch_symbolic_build()


def _patch_symbolic_build() -> None:
    """Keras 3's `_maybe_symbolic_build`, once per process: the cached validation iterator restarted
    before its read (restarted_each_epoch), Python's and numpy's generators kept across the read
    (unseen_symbolic_build)."""
    import random

    import numpy as np

    try:
        from keras.src.backend.tensorflow.trainer import TensorFlowTrainer
    except ImportError:  # another Keras backend or version: nothing to fix
        return
    original = TensorFlowTrainer._maybe_symbolic_build
    if getattr(original, "_restarts_validation", False):
        return

    def _maybe_symbolic_build(self, iterator=None, data_batch=None):
        if iterator is not None and iterator is getattr(self, "_eval_epoch_iterator", None):
            iterator.reset()
        states = random.getstate(), np.random.get_state()
        try:
            return original(self, iterator=iterator, data_batch=data_batch)
        finally:
            random.setstate(states[0])
            np.random.set_state(states[1])

    _maybe_symbolic_build._restarts_validation = True
    _maybe_symbolic_build._original = original
    TensorFlowTrainer._maybe_symbolic_build = _maybe_symbolic_build



def legacy_schedule_step(step):
    """The step a `LearningRateSchedule` subclass's `__call__` got from TF 2.0-2.10's Keras optimizers: float32.

    TF 2.x's Keras optimizers (OptimizerV2: `tf.keras.optimizers.*` up to TF 2.10, and
    `tf.keras.optimizers.legacy.*` after) called a learning-rate schedule with
    `tf.cast(self.iterations, var_dtype)`, the variables' dtype (float32; mixed precision keeps
    float32 variables). Keras 3's optimizers call it with their int64 `iterations` variable itself,
    so a schedule written for TF 2.0-2.10 computes with integers: `step // steps_per_epoch` is
    integer division and `0.95 ** (epoch - 13)` raises "TypeError: Expected int64, but got 0.95".
    estimator-migrate writes `step = legacy_schedule_step(step)` as the first line of
    such a `__call__`. Only what a Keras 3 optimizer passes (an integer `keras.Variable`) is cast;
    a step the program passes by hand (`schedule(3)` to plot it) is returned as it is, as before.
    """
    import keras
    import tensorflow as tf

    if isinstance(step, keras.Variable) and "int" in str(step.dtype):
        return tf.cast(step.value, tf.float32)
    return step


def apply_gradients(optimizer, grads_and_vars, *args, **kwargs):
    """`optimizer.apply_gradients(grads_and_vars)` in a custom training loop, as Keras 2 ran it under a strategy.

    A TF 2.x custom training loop (`@tf.function def train_step(...)` ... `optimizer.apply_gradients
    (...)`, called per replica with `strategy.run` / `experimental_run_v2` from Python) let Keras 2
    create the optimizer's variables (iterations, slots) inside that first traced call. Keras 3's
    optimizer does the same, and with two or more replicas (a TPU, MirroredStrategy) the first call
    fails: "You must feed a value for placeholder tensor 'cond/else/_1/cond/Placeholder' with
    dtype int32" (Keras 3.15 / TF 2.21 over 2 and 8 replicas; one replica runs; Keras 2.15 runs).
    Building the optimizer outside the traced function first (`tf.init_scope()`) creates the same
    variables with the same initial values: the losses equal Keras 2.15's (tests). Anything that is
    not a Keras 3 optimizer (a `tf.compat.v1.train` optimizer) is called as it is.

    Keras 2's other parameters, which Keras 3's `apply_gradients(grads_and_vars)` refuses (TypeError):
    `name` (an op name) is dropped; `experimental_aggregate_gradients=True` (the default) is
    dropped; `False` (the loop all-reduced the gradients itself) raises: Keras 3 always aggregates
    over the replicas, so the gradients would be summed twice.
    """
    import keras
    import tensorflow as tf

    if not isinstance(optimizer, keras.optimizers.Optimizer):
        return optimizer.apply_gradients(grads_and_vars, *args, **kwargs)
    keras2 = dict(zip(("name", "experimental_aggregate_gradients"), args))
    keras2.update(kwargs)
    unknown = set(keras2) - {"name", "experimental_aggregate_gradients"}
    if unknown:
        raise TypeError(f"apply_gradients() got unexpected keyword arguments {sorted(unknown)}")
    if keras2.get("experimental_aggregate_gradients", True) is False:
        raise NotImplementedError(
            "apply_gradients(..., experimental_aggregate_gradients=False): Keras 3 optimizers always "
            "aggregate the gradients over the replicas, so gradients this loop all-reduced itself would be "
            "summed again; pass the per-replica gradients and drop the loop's own all-reduce")
    if not optimizer.built:
        grads_and_vars = list(grads_and_vars)
        with tf.init_scope():
            optimizer.build([variable for _, variable in grads_and_vars])
    return optimizer.apply_gradients(grads_and_vars)


def _arrays(value) -> bool:
    """numpy arrays (or lists/tuples/dicts of them), what TF 1.x's Keras fed through a session."""
    import numpy as np

    if isinstance(value, np.ndarray):
        return True
    if isinstance(value, (list, tuple)) and value:
        return all(isinstance(v, np.ndarray) for v in value)
    if isinstance(value, dict) and value:
        return all(isinstance(v, np.ndarray) for v in value.values())
    return False


# Keras 2's `fit` parameters after x, y, batch_size, in order (Keras 3 keeps the same order)
KERAS2_FIT_POSITIONS = ("epochs", "verbose", "callbacks", "validation_split", "validation_data", "shuffle",
                        "class_weight", "sample_weight", "initial_epoch", "steps_per_epoch")


def _default_strategy(model) -> bool:
    strategy = getattr(model, "distribute_strategy", None)
    return strategy is None or type(strategy).__name__ == "_DefaultDistributionStrategy"


_NOT_GIVEN = object()   # fit_tf1's x, y, batch_size when the call did not give them


def fit_tf1(model, x=_NOT_GIVEN, y=_NOT_GIVEN, batch_size=_NOT_GIVEN, *args, **kwargs):
    """`model.fit(...)` of a TF 1.x program, with TF 1.x's batches and losses.

    For numpy inputs on a model built outside any strategy (TF 1.x's Keras, graph mode):
    - `steps_per_epoch`: TF 1.x fed the *whole* arrays at every one of the N steps, a `batch_size`
      too; TF 2.x's Keras and Keras 3 cut the arrays into N batches of ceil(len(x) / N) (or of
      `batch_size`, running out when they are fewer than N) instead, so every step and every loss
      changes (`fit(train_x.values, train_y.values, steps_per_epoch=5, epochs=50)`). Without
      `validation_split` this fits on `Dataset.from_tensors((x, y[, weights])).repeat()`
      (the full arrays, N times per epoch; `sample_weight` / `class_weight` as TF 1.x's per-row weights).
    - `x` and `y`: TF 1.x drew each epoch's order with numpy's global generator (unless `shuffle=False`)
      and the validation rows' after each epoch's training (whatever `shuffle` said), Keras 3 and
      tf-keras with TensorFlow's; this fits on keras_tf1_shuffle's batches (`validation_split` taken
      off the end first, as TF 1.x did; `class_weight` as TF 1.x's per-row weights, times
      `sample_weight`, which Keras 3 refuses together, per output of a multi-output model
      (keras_tf1_weights); `shuffle="batch"` as TF 1.x's order of whole batch-sized chunks).
    A keras Sequence (no `class_weight`, or a dict of them) is read as TF 1.x's one stream for the whole fit
    (keras_tf1_sequence: Python's `random` order per pass, a short Sequence cycled through); a tf.data
    dataset's training loss is TF 1.x's mean of the step losses (keras_step_mean).
    Anything else (generators, a model of a TPU/Mirrored strategy, where TF 1.x split the
    arrays into batches too) is `model.fit(...)` as written.
    With `validation_data` a generator, Sequence or dataset, val_loss is TF 1.x's mean of the step
    losses (compat/keras_step_mean.py); with `steps_per_epoch` on a finite dataset or a generator,
    training stops after an epoch the data ran out in, as TF 1.x's did (`stop_when_data_runs_out`).
    The `fit` of anything that is not a Keras model (`scaler.fit(x)`, `classifier.fit(x, y)`: the call
    alone cannot tell) is called exactly as written.
    """
    from estimator_bridge.compat.keras_step_mean import per_step, step_mean_losses

    if not _keras_model(model):
        return model.fit(*_as_written(x, y, batch_size, args), **_as_written_keywords(x, y, batch_size, kwargs))
    x, y, batch_size = (None if value is _NOT_GIVEN else value for value in (x, y, batch_size))
    named = dict(zip(KERAS2_FIT_POSITIONS, args))
    steps = named.get("steps_per_epoch", kwargs.get("steps_per_epoch"))
    if steps and runs_out_once(x):
        args, kwargs = _with_callback(args, kwargs, stop_when_data_runs_out(model, steps, x))
    class_weight = named.get("class_weight", kwargs.get("class_weight"))
    if _streamed(model, x, class_weight):
        x, args, kwargs = _as_tf1_stream(model, x, steps, named.get("shuffle", kwargs.get("shuffle", True)),
                                         class_weight, args, kwargs)
    training = _dataset(x) and _default_strategy(model)   # TF 1.x: the training loss over steps on a dataset
    validation = per_step(named.get("validation_data", kwargs.get("validation_data")))
    if training or validation:
        with step_mean_losses(model, train=training, test=validation):
            return _fit_tf1(model, x, y, batch_size, *args, **kwargs)
    return _fit_tf1(model, x, y, batch_size, *args, **kwargs)


def fit_generator_tf1(model, *args, **kwargs):
    """tf-keras' `model.fit_generator(...)` with TF 1.x's batches and losses: a Sequence (`class_weight` a dict or none)
    read as TF 1.x's one stream for the whole fit (keras_tf1_sequence), one worker; a dataset's training
    loss and the val_loss over a generator, Sequence or dataset as TF 1.x's mean of the step losses
    (compat/keras_step_mean.py); training stopped after an epoch a dataset or generator ran out in."""
    import inspect

    from estimator_bridge.compat import keras_tf1_sequence
    from estimator_bridge.compat.keras_step_mean import per_step, step_mean_losses

    bound = inspect.signature(model.fit_generator).bind_partial(*args, **kwargs)
    arguments = bound.arguments
    data = arguments.get("generator")
    if arguments.get("steps_per_epoch") and runs_out_once(data):
        arguments["callbacks"] = [*(arguments.get("callbacks") or ()),
                                  stop_when_data_runs_out(model, arguments["steps_per_epoch"], data)]
    if _streamed(model, data, arguments.get("class_weight")):
        arguments["steps_per_epoch"] = arguments.get("steps_per_epoch") or len(data)
        arguments["generator"] = keras_tf1_sequence.stream(data, arguments.get("shuffle", True),
                                                           arguments.pop("class_weight", None), model)
        arguments["shuffle"] = False
        # one reader: a generator is not read by several threads (TF 1.x's enqueuer served the order anyway)
        arguments["workers"], arguments["use_multiprocessing"] = 1, False
    training = _dataset(data) and _default_strategy(model)
    validation = per_step(arguments.get("validation_data"))
    if training or validation:
        with step_mean_losses(model, train=training, test=validation):
            return model.fit_generator(*bound.args, **bound.kwargs)
    return model.fit_generator(*bound.args, **bound.kwargs)


def _keras_model(model) -> bool:
    """Whether `model` is a Keras 3 or tf-keras model (anything else's fit is not TF 1.x Keras'). A model of
    either exists only once its package is imported: neither is imported here."""
    return any(package is not None and isinstance(model, package.Model)
               for package in (sys.modules.get("keras"), sys.modules.get("tf_keras")))


def _as_written(x, y, batch_size, args) -> list:
    """The positional arguments of the call fit_tf1 stands for: x, y, batch_size up to the first one not given."""
    positional = []
    for value in (x, y, batch_size):
        if value is _NOT_GIVEN:
            return positional
        positional.append(value)
    return [*positional, *args]


def _as_written_keywords(x, y, batch_size, kwargs) -> dict:
    """Its keyword arguments: those of x, y, batch_size given after one that was not, and the rest."""
    keywords, missing = {}, False
    for name, value in (("x", x), ("y", y), ("batch_size", batch_size)):
        missing = missing or value is _NOT_GIVEN
        if missing and value is not _NOT_GIVEN:
            keywords[name] = value
    return {**keywords, **kwargs}


def _streamed(model, data, class_weight) -> bool:
    """Whether fit reads `data` as TF 1.x's stream over a Sequence: a Sequence, a model outside any
    strategy (TF 1.x had no Sequence loop under one), no `class_weight`, a dict, or per output a dict or list
    of them (the stream weighs each batch's rows as TF 1.x did; anything else is read by Keras as before)."""
    from estimator_bridge.compat import keras_tf1_sequence

    return ((class_weight is None or isinstance(class_weight, (dict, list, tuple)))
            and keras_tf1_sequence.is_sequence(data)
            and _default_strategy(model))


def _as_tf1_stream(model, sequence, steps, shuffle, class_weight, args, kwargs):
    """(x, args, kwargs) of a Keras 2 `fit(sequence, ...)` call made to read TF 1.x's stream over `sequence`."""
    from estimator_bridge.compat import keras_tf1_sequence

    args, kwargs = _with_argument(args, kwargs, "steps_per_epoch", steps or len(sequence))
    args, kwargs = _with_argument(args, kwargs, "shuffle", False)
    if class_weight is not None:   # in the stream's batches (Keras 3 takes no class_weight with a generator)
        args, kwargs = _with_argument(args, kwargs, "class_weight", None)
    return keras_tf1_sequence.stream(sequence, bool(shuffle), class_weight, model), args, kwargs


def _dataset(data) -> bool:
    try:
        import tensorflow as tf
    except ImportError:  # pragma: no cover - the compat layer runs with TensorFlow
        return False
    return isinstance(data, tf.data.Dataset)


def runs_out_once(data) -> bool:
    """Data TF 1.x's fit read through one iterator for all epochs, never restarted: a tf.data dataset
    that is not infinite, or a Python generator / iterator (not a Sequence, which it cycled through)."""
    import collections.abc

    try:
        import tensorflow as tf
    except ImportError:  # pragma: no cover - the compat layer runs with TensorFlow
        tf = None
    if tf is not None and isinstance(data, tf.data.Dataset):
        return int(data.cardinality()) != int(tf.data.INFINITE_CARDINALITY)
    if hasattr(data, "__getitem__") and hasattr(data, "__len__"):
        return False
    return isinstance(data, collections.abc.Iterator)


def stop_when_data_runs_out(model, steps_per_epoch, data=None):
    """A callback that ends training after an epoch that ran fewer than `steps_per_epoch` steps: TF 1.x's
    fit read a dataset or generator through one iterator and, when it ran out, logged "Your dataset
    iterator ran out of data; interrupting training" and stopped; Keras 3 and tf-keras end that epoch
    and restart the data for the next (Keras 3 even replays a generator's first batches). Measured:
    steps_per_epoch=3, epochs=2 on 2 batches: TF 1.15 trains 2 steps, Keras 3 4 (tests/migrate/
    test_keras_steps_run_out.py)."""
    import math

    batches = None
    cardinality = int(data.cardinality()) if hasattr(data, "cardinality") else -1
    if cardinality >= 0:
        batches = cardinality
    if type(model).__module__.startswith("tf_keras"):
        import tf_keras as keras
    else:
        import keras

    steps = math.ceil(steps_per_epoch)

    class StopWhenDataRunsOut(keras.callbacks.Callback):
        total = 0

        def on_epoch_begin(self, epoch, logs=None):
            self.done = 0

        def on_train_batch_end(self, batch, logs=None):
            self.done = batch + 1   # Keras 3 and tf-keras pass the last step's index of the execution

        def on_epoch_end(self, epoch, logs=None):
            self.total += self.done
            # ran out in this epoch, or (a dataset of known size) read to its end: TF 1.x's next epoch had nothing
            if self.done < steps or (batches is not None and self.total >= batches):
                self.model.stop_training = True

    return StopWhenDataRunsOut()


def _with_callback(args, kwargs, callback):
    """(args, kwargs) of a Keras 2 `fit` call (after x, y, batch_size) with `callback` added to its callbacks."""
    position = KERAS2_FIT_POSITIONS.index("callbacks")
    callbacks = args[position] if len(args) > position else kwargs.get("callbacks")
    return _with_argument(args, kwargs, "callbacks", [*(callbacks or ()), callback])


def _with_argument(args, kwargs, name, value):
    """(args, kwargs) of a Keras 2 `fit` call (after x, y, batch_size) with the argument `name` set to `value`."""
    position = KERAS2_FIT_POSITIONS.index(name)
    if len(args) > position:
        args = list(args)
        args[position] = value
        return tuple(args), kwargs
    return args, {**kwargs, name: value}


def _fit_tf1(model, x=None, y=None, batch_size=None, *args, **kwargs):
    from estimator_bridge.compat.keras_tf1_inputs import standardized

    x = standardized(model, x)   # a rank-1 array for a rank-2 input as (n, 1), as TF 1.x's Keras fed it
    if len(args) <= len(KERAS2_FIT_POSITIONS) and _default_strategy(model) and _arrays(x) and (y is None or _arrays(y)):
        named = dict(zip(KERAS2_FIT_POSITIONS, args))
        if not set(named) & set(kwargs):
            named.update(kwargs)
            fitted = _fit_full_arrays(model, x, y, batch_size, named)
            if fitted is None and y is not None:
                fitted = _fit_tf1_shuffled(model, x, y, batch_size, named)
            if fitted is not None:
                return fitted
    return model.fit(x, y, batch_size, *args, **kwargs)


def _fit_full_arrays(model, x, y, batch_size, named):
    """TF 1.x's steps mode on arrays: the full arrays at every step, whatever `batch_size` says.

    TF 1.15's loop fed the whole arrays to each of the `steps_per_epoch` steps and used `batch_size`
    only for validation arrays without `validation_steps`: shuffled batches of that size, one numpy
    draw per epoch (as in keras_tf1_shuffle). Without a batch size there TF 1.x itself failed; such
    validation data is left to Keras. `sample_weight` / `class_weight`: TF 1.x's per-row weights, whole
    at every step too.
    """
    import tensorflow as tf

    from estimator_bridge.compat import keras_tf1_shuffle as tf1
    from estimator_bridge.compat import keras_tf1_weights

    weights, class_weight = named.get("sample_weight"), named.get("class_weight")
    if (not named.get("steps_per_epoch") or named.get("validation_split")
            or ((weights is not None or class_weight is not None)
                and (y is None or not keras_tf1_weights.applicable(y, class_weight, weights)))):
        return None
    weights = keras_tf1_weights.per_row(model, y, named.pop("class_weight", None), named.pop("sample_weight", None))
    y, weights = (keras_tf1_weights.in_output_order(model, v) for v in (y, weights))
    validation = _validation_arrays(named.get("validation_data"))
    if validation is not None and batch_size is not None and named.get("validation_steps") is None:
        named["validation_data"] = tf1.batches(model, *validation, batch_size)
    x, y, weights = (tuple(v) if isinstance(v, list) else v for v in (x, y, weights))   # one tensor per output
    whole = x if y is None else (x, y) if weights is None else (x, y, weights)
    return model.fit(tf.data.Dataset.from_tensors(whole).repeat(), **named)


def _validation_arrays(validation_data):
    """`validation_data` as (x, y, sample_weight) when it holds numpy arrays (TF 1.x's tuple forms), else None."""
    if isinstance(validation_data, (list, tuple)) and len(validation_data) in (2, 3):
        x, y, *weights = validation_data
        weights = weights[0] if weights else None
        if _arrays(x) and _arrays(y) and (weights is None or _arrays(weights)):
            return x, y, weights
    return None


def _fit_tf1_shuffled(model, x, y, batch_size, named):
    """TF 1.x's `fit` on arrays: keras_tf1_shuffle's batches for training and validation.

    TF 1.x's loop shuffled the validation rows whatever `shuffle` said (its validation pass ran with the
    loop's default `shuffle=True`), one numpy draw after each epoch's training, which moves a per-batch
    metric and every later epoch's order; the validation arrays are served that way, the training rows
    in numpy's order when shuffled (`shuffle="batch"`: whole batch-sized chunks), else in order.
    `class_weight` (a dict, or per output a dict or list of them) becomes TF 1.x's per-row weights (times
    `sample_weight`; keras_tf1_weights), taken off with `validation_split` as TF 1.x did.
    """
    from estimator_bridge.compat import keras_tf1_shuffle as tf1
    from estimator_bridge.compat import keras_tf1_weights

    weights = named.pop("sample_weight", None)
    class_weight = named.pop("class_weight", None)
    shuffle = named.get("shuffle", True)
    if (named.get("steps_per_epoch") or (isinstance(shuffle, str) and shuffle != "batch")
            or not keras_tf1_weights.applicable(y, class_weight, weights)):
        return None
    weights = keras_tf1_weights.per_row(model, y, class_weight, weights)
    y, weights = (keras_tf1_weights.in_output_order(model, v) for v in (y, weights))
    split = named.pop("validation_split", 0.0) or 0.0
    validation = named.get("validation_data")
    if split and validation is None:
        at = int(tf1.rows(x) * (1.0 - split))   # TF 1.x: the last fraction, before shuffling
        validation = (tf1.sliced(x, slice(at, None)), tf1.sliced(y, slice(at, None)),
                      None if weights is None else tf1.sliced(weights, slice(at, None)))
        x, y = tf1.sliced(x, slice(0, at)), tf1.sliced(y, slice(0, at))
        weights = None if weights is None else tf1.sliced(weights, slice(0, at))
    else:
        validation = _validation_arrays(validation)
    if validation is not None and named.get("validation_steps") is None:
        named["validation_data"] = tf1.batches(model, *validation, batch_size)
    named["shuffle"] = False
    return model.fit(tf1.batches(model, x, y, weights, batch_size, shuffle=shuffle if shuffle == "batch" else
                                 bool(shuffle)), **named)


def legacy_lr_schedule(schedule):
    """`LearningRateScheduler(schedule)` whose schedule may return a tensor, as Keras 2 allowed.

    TF 2.x notebooks wrote the schedule as a `@tf.function` (`@tf.function def lr_fn(epoch): ...`),
    which returns a float32 tensor. Keras 2 (TF 1.15-2.15) accepted a floating tensor and set the
    learning rate to its value; Keras 3 accepts only float / np.float32 / np.float64 and raises
    "The output of the `schedule` function should be a float. Got: 0.0099999..." at the first
    epoch. This returns a schedule that calls `schedule` with the same arguments (Keras 3, as 2,
    tries `(epoch, lr)` and falls back to `(epoch)` on TypeError, which passes through) and turns a
    floating tensor into its Python float; anything else is returned as it is (Keras 3 judges it).
    The learning rates are Keras 2's (measured on TF 2.15: the same value each epoch).
    """
    import functools

    import tensorflow as tf

    def call(*args, **kwargs):
        value = schedule(*args, **kwargs)
        if tf.is_tensor(value) and value.dtype.is_floating and value.shape.rank == 0:
            return float(value)
        return value

    try:
        return functools.wraps(schedule)(call)
    except (AttributeError, TypeError):   # callables without __name__/__dict__
        return call


def metrics_names(model):
    """Keras 2's `model.metrics_names`: one name per number `evaluate` / `train_on_batch` return.

    Keras 2 (TF 1.x-2.15) listed 'loss' and every compiled metric (['loss', 'acc', 'mae']), in
    the order of evaluate's list, so `dict(zip(model.metrics_names, model.evaluate(...)))` and
    `scores[model.metrics_names.index('acc')]` were everyday code. Keras 3 lists its metric
    *objects*: ['loss', 'compile_metrics'] while evaluate still returns 3 numbers, so the zip
    silently paired 'compile_metrics' with the first metric and dropped the rest (and .index('acc')
    raised ValueError). This gives the names in the order Keras 3 flattens evaluate's logs
    (Trainer._flatten_metrics_in_order: each metric's name, a CompileMetrics expanded into its
    metrics). Anything without Keras 3 metric objects: its own `metrics_names`.

    Keras 3 builds the compiled metrics at the first batch; TF 1.x's Keras named them at `compile`
    (TF 1.15: ['loss', 'acc', 'mean_absolute_error'] right after compile; Keras 3 gave ['loss']
    through this helper, TF 2.15's Keras []). Before that first batch the names come from a scratch
    copy of the compiled metrics built on the model's outputs (Keras' own naming, nothing of the
    model's changes), so code that reads the names after compile gets TF 1.x's list.
    """
    metrics = getattr(model, "metrics", None)
    if metrics is None:
        return model.metrics_names
    names = []
    for metric in metrics:
        compiled = type(metric).__name__ == "CompileMetrics"
        inner = getattr(metric, "metrics", None) if compiled else None
        if compiled and not getattr(metric, "built", True):
            names += _names_before_build(metric, model)
        elif inner is not None:
            names += [m.name for m in inner]
        else:
            names.append(metric.name)
    return names


def _names_before_build(compile_metrics, model):
    """The metric names `compile_metrics` (Keras 3's CompileMetrics, not built yet) will have."""
    import numpy as np

    try:
        outputs = list(model.outputs or [])
    except (AttributeError, ValueError):  # a subclassed or unbuilt model: its outputs are unknown
        outputs = []
    if not outputs:  # a single output assumed: the names of one output's metrics do not depend on it
        outputs = [np.zeros((1, 1), np.float32)]
    y = outputs[0] if len(outputs) == 1 else outputs
    scratch = type(compile_metrics)(compile_metrics._user_metrics, compile_metrics._user_weighted_metrics,
                                    output_names=compile_metrics.output_names)
    scratch.build(y, y)
    return [m.name for m in scratch.metrics]
