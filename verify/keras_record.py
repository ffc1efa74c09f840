"""What a Keras program's `fit`, `evaluate` and `predict` did, written where verify's harvester reads it;
and the oracle's initial weights as every other run's start.

A Keras notebook writes no checkpoint and no event file: its numbers are `fit`'s logs, the
results of `evaluate` and `predict`, and the weights it ends with. verify/notebook_script.py
installs a Recorder (when it runs with ``--model-dir``) that wraps the `fit`, `evaluate` and
`predict` of the Keras the program imports (TF 1.15's `tf.keras`, TF 2.x's Keras 2, Keras 3) and
writes into MODEL_DIR/keras_record:

* ``record.json``: scalars ``keras/batch/<key>`` per batch (step = batches since the program
  started, over every `fit`), each batch's own value, and ``keras/epoch/<key>`` per epoch (its
  end-of-epoch logs, `val_*` and the learning rate included); the results of `evaluate`
  (``keras_evaluate/result<i>`` per call) and the first values of `predict`
  (``keras_predict.<call>``). TF 1.15 logs a batch's own loss but its stateful metrics' running
  value; TF 2.2+ and Keras 3 log running means for both. Each key is told apart at the epoch's
  end (its last batch value equals the epoch's value: a running mean m_k, turned into the
  batch's own value k m_k - (k - 1) m_(k-1) for equal batches; weighted by the batches' rows,
  which `train_step` reports on TF 2.x and Keras 3 and TF 1.x's batch logs give as `size`, where
  the last is shorter), so every TensorFlow is
  recorded the same way, and one noisy batch is one number (in running means it moved every
  later number of its epoch: four misses where the oracle's noise makes one);
* ``final_weights.npz``: each model's weights after its last `fit`, keyed
  ``keras/model<m>/layer<l>/<weight>`` (m: models in the order the program first used them, l:
  the model's layers that hold weights, in order, nested models flattened; weight: the
  variable's own name, `kernel`, `moving_mean`): the same key on every Keras, where full variable
  names differ (`dense_1/kernel:0` against `kernel`) and flat weight order is not guaranteed;
* ``keras_start.npz`` (no ``--keras-start``, i.e. the oracle's first run): each model's weights
  when it is first used (compiled and built, before its first `fit`, `evaluate` or `predict`).

With a start file every model gets those weights at that moment instead: TF1's graph-seeded
initial values cannot be reproduced on another TensorFlow. When a model's layers and weights do
not match the oracle's (count, names or shapes), the run stops with a VER008 message, also
written to ``start_mismatch.txt`` for verify.

Runs inside every TensorFlow (Python 3.7 syntax; numpy and the program's own Keras, imported
only when the program has imported TensorFlow or Keras).
"""

from __future__ import absolute_import, division, print_function

import json
import os
import sys

RECORD_FOLDER = "keras_record"
RECORD = "record.json"
FINAL_WEIGHTS = "final_weights.npz"
START = "keras_start.npz"
MISMATCH = "start_mismatch.txt"
PREDICT_VALUES = 256  # first values of each predict() result kept
SKIPPED_LOG_KEYS = ("batch", "size")
SAME = 1e-6  # relative: a logged batch value equal to the epoch's (a running mean)
# Model methods wrapped -> the wrapper. TF 1.15's fit_generator/evaluate_generator/predict_generator
# do not go through fit/evaluate/predict (TF 2.x's do: the nested call is not recorded twice);
# load_weights gives a model the program's own weights (a stateful prediction model loading what
# training saved), which the oracle's start weights must not replace.
WRAPPED = {"fit": "fit", "fit_generator": "fit", "evaluate": "evaluate", "evaluate_generator": "evaluate",
           "predict": "predict", "predict_generator": "predict", "load_weights": "load_weights"}
CALLBACKS_POSITION = {"fit": 5, "fit_generator": 4}  # fit(x, y, batch_size, epochs, verbose, callbacks, ...)


def _has_weights(model):
    """Whether the model's weights exist: TF 1.15's `weights` of a Sequential without an input shape
    raises ValueError until its first call (TF 2.x's Keras returns [])."""
    try:
        return bool(model.weights)
    except ValueError:
        return False


def build_for(model, data):
    """Build a model fit is about to build inside its first step, from the shape of `data` (fit's `x`).

    TF 2.x's Keras and Keras 3 build a Sequential without an input shape (or a subclassed model) in
    the first training step, after `on_train_begin`: its start weights could not be taken or given,
    and the oracle runs of tensorflow/tpu's mnist_tf2_with_summary.py (TF 2.15: custom layers first in
    a Sequential) ended in VER001. Built here from a dataset's element spec or an array's shape, a
    single input only; anything else, and TF 1.x's graph mode (its fit built the model before the
    callbacks), is left to fit's callback as before.
    """
    try:
        import tensorflow as tf

        if _has_weights(model) or not tf.executing_eagerly() or getattr(model, "built", True):
            return
        spec = getattr(data, "element_spec", None)   # a dataset (under the runner tf.data is TF 1.x's)
        if spec is not None:
            spec = spec[0] if isinstance(spec, tuple) else spec
            shape = getattr(spec, "shape", None)
        else:
            shape = getattr(data, "shape", None)
            shape = None if shape is None or isinstance(data, dict) else (None,) + tuple(shape[1:])
        if shape is not None:
            model.build(tf.TensorShape(shape))
    except Exception:  # noqa: BLE001 - the program's own fit builds it, as without the recorder
        return


class StartMismatch(RuntimeError):
    """The side's model does not have the oracle's layers and weights: no common start."""


def _short_name(variable):
    name = getattr(variable, "name", "")
    name = name.split("/")[-1]
    return name.split(":")[0]


def _weighted_layers(model):
    """The model's layers holding weights, in order; nested models flattened."""
    found = []
    for layer in getattr(model, "layers", []):
        if hasattr(layer, "layers") and getattr(layer, "layers", None):
            found += _weighted_layers(layer)
        elif layer.weights:
            found.append(layer)
    return found


def _layer_weights(layer):
    """[(key within the layer, variable)]: by the variable's own name, numbered when one repeats."""
    pairs, seen = [], {}
    for variable in layer.weights:
        short = _short_name(variable)
        if "seed_generator" in short:  # Keras 3 random layers' RNG state: not a model weight
            continue
        seen[short] = seen.get(short, 0) + 1
        pairs.append((short if seen[short] == 1 else "%s_%d" % (short, seen[short]), variable))
    return pairs


def model_weights(model, index):
    """{key: array} and [(key, shape, layer class)] of a model's weights (module docstring's keys)."""
    values, structure = {}, []
    for number, layer in enumerate(_weighted_layers(model)):
        pairs = _layer_weights(layer)
        arrays = layer.get_weights()
        if len(arrays) != len(layer.weights):
            arrays = [_value(variable) for _, variable in pairs]
        else:
            keep = [i for i, variable in enumerate(layer.weights) if "seed_generator" not in _short_name(variable)]
            arrays = [arrays[i] for i in keep]
        for (short, _), array in zip(pairs, arrays):
            key = "keras/model%d/layer%02d/%s" % (index, number, short)
            values[key] = array
            structure.append([key, list(getattr(array, "shape", ())), type(layer).__name__])
    return values, structure


def _value(variable):
    import numpy as np

    return np.asarray(variable.numpy() if hasattr(variable, "numpy") else variable)


class Recorder(object):
    """Installed once per process by notebook_script.py; see the module docstring."""

    def __init__(self, model_dir, start=None):
        self.folder = os.path.join(model_dir, RECORD_FOLDER)
        self.start = start
        self.models = []  # first-use order; entries are the model objects (kept alive)
        self.started = set()
        self.scalars, self.evaluations, self.outputs = {}, {}, {}
        self.batches = 0
        self.epochs = 0
        self.evaluate_calls = 0
        self.predict_calls = 0
        self.depth = 0  # inside a wrapped call: nested calls (fit's validation) are not recorded
        self.final = {}
        self.start_values = None
        self.installed = False
        self.row_counters = {}  # id(model) -> the variable its train_step writes each batch's row count to

    # --- installation ------------------------------------------------------------------------
    def install(self):
        """Wrap fit/evaluate/predict of the Keras Model class(es) this process has imported; once."""
        if self.installed or not ("tensorflow" in sys.modules or "keras" in sys.modules):
            return
        classes = self._model_classes()
        if not classes:
            return
        self.installed = True
        if not os.path.isdir(self.folder):
            os.makedirs(self.folder)
        owners = []
        for klass in classes:
            for method in WRAPPED:
                owner = next((k for k in klass.__mro__ if method in vars(k)), None)
                if owner is not None and (owner, method) not in owners:
                    owners.append((owner, method))
        for owner, method in owners:
            original = vars(owner)[method]
            if getattr(original, "_verify_recorded", False):
                continue
            wrapped = getattr(self, "_wrap_" + WRAPPED[method])(original, method)
            wrapped._verify_recorded = True
            setattr(owner, method, wrapped)
        self.callback_base = self._callback_base()

    def _model_classes(self):
        classes = []
        tensorflow = sys.modules.get("tensorflow")
        version = getattr(tensorflow, "__version__", "") or ""
        if version.startswith("1."):
            from tensorflow.python.keras.engine import training  # TF 1.15's tf.keras

            classes.append(training.Model)
        else:
            try:
                import keras  # TF 2.x: tf.keras is this package (Keras 2 up to TF 2.15, Keras 3 after)

                classes.append(keras.Model)
            except ImportError:
                pass
            try:
                import tf_keras  # TF 2.16+ with TF_USE_LEGACY_KERAS (the compat runner's Keras)
                from tf_keras.src.engine import training_v1  # its TF 1.x graph-mode Model (own fit)

                classes += [tf_keras.Model, training_v1.Model]
            except ImportError:
                pass
        return classes

    def _callback_base(self):
        tensorflow = sys.modules.get("tensorflow")
        if (getattr(tensorflow, "__version__", "") or "").startswith("1."):
            from tensorflow.python.keras import callbacks

            return callbacks.Callback
        import keras

        return keras.callbacks.Callback

    def _callback_base_for(self, model):
        """The Callback class of the Keras `model` belongs to: a tf-keras model (estimator-migrate --keras 2,
        TF_USE_LEGACY_KERAS) takes only tf_keras callbacks (a Keras 3 one lacks its hooks: AttributeError)."""
        tf_keras = sys.modules.get("tf_keras")
        if tf_keras is not None and isinstance(model, tf_keras.Model):
            return tf_keras.callbacks.Callback
        return self.callback_base

    # --- wrappers ----------------------------------------------------------------------------
    def _wrap_load_weights(self, original, method):
        recorder = self

        def load_weights(model, *args, **kwargs):
            result = original(model, *args, **kwargs)
            if not recorder.depth:
                recorder.started.add(recorder.model_index(model))  # its weights are the program's own
            return result

        return load_weights

    def _wrap_fit(self, original, method):
        recorder = self
        position = CALLBACKS_POSITION[method]

        def fit(model, *args, **kwargs):
            if recorder.depth:
                return original(model, *args, **kwargs)
            recorder.depth += 1
            try:
                index = recorder.model_index(model)
                build_for(model, args[0] if args else kwargs.get("x", kwargs.get("generator")))
                recorder.begin(model, index)
                callback = recorder.callback(model, index, recorder.count_rows(model))
                if len(args) > position:
                    args = list(args)
                    args[position] = list(args[position] or []) + [callback]
                else:
                    kwargs["callbacks"] = list(kwargs.get("callbacks") or []) + [callback]
                history = original(model, *args, **kwargs)
                recorder.final.update(model_weights(model, index)[0])
                recorder.write()
                return history
            finally:
                recorder.depth -= 1

        return fit

    def _wrap_evaluate(self, original, method):
        recorder = self

        def evaluate(model, *args, **kwargs):
            if recorder.depth:
                return original(model, *args, **kwargs)
            recorder.depth += 1
            try:
                recorder.begin(model, recorder.model_index(model))
                result = original(model, *args, **kwargs)
                values = result if isinstance(result, (list, tuple)) else [result]
                if isinstance(result, dict):
                    values = list(result.values())
                call = str(recorder.evaluate_calls)
                recorder.evaluate_calls += 1
                folder = recorder.evaluations.setdefault("keras_evaluate", {})
                for number, value in enumerate(values):
                    folder.setdefault("result%d" % number, {})[call] = float(value)
                recorder.write()
                return result
            finally:
                recorder.depth -= 1

        return evaluate

    def _wrap_predict(self, original, method):
        recorder = self

        def predict(model, *args, **kwargs):
            if recorder.depth:
                return original(model, *args, **kwargs)
            recorder.depth += 1
            try:
                import numpy as np

                recorder.begin(model, recorder.model_index(model))
                result = original(model, *args, **kwargs)
                arrays = result if isinstance(result, (list, tuple)) else [result]
                flat = np.concatenate([np.asarray(a, dtype=np.float64).reshape(-1) for a in arrays])
                recorder.outputs["keras_predict.%d" % recorder.predict_calls] = [
                    float(v) for v in flat[:PREDICT_VALUES]]
                recorder.predict_calls += 1
                recorder.write()
                return result
            finally:
                recorder.depth -= 1

        return predict

    # --- the start state ---------------------------------------------------------------------
    def model_index(self, model):
        for index, known in enumerate(self.models):
            if known is model:
                return index
        self.models.append(model)
        return len(self.models) - 1

    def begin(self, model, index):
        """First use of a built model: save its weights (oracle run 1) or load the oracle's."""
        if index in self.started or not _has_weights(model):
            return  # unbuilt (a subclassed model, a Sequential without an input shape): fit's callback tries again
        self.started.add(index)
        values, structure = model_weights(model, index)
        if self.start is None:
            self._save_start(values, structure)
        else:
            self._load_start(model, index, structure)

    def _save_start(self, values, structure):
        import numpy as np

        path = os.path.join(self.folder, START)
        saved = {}
        if os.path.exists(path):
            with np.load(path) as old:
                saved = dict((key, old[key]) for key in old.files)
        saved.update(values)
        previous = json.loads(str(saved.pop("__structure__"))) if "__structure__" in saved else []
        saved["__structure__"] = np.array(json.dumps(previous + structure))
        np.savez(path, **saved)

    def _load_start(self, model, index, structure):
        import numpy as np

        if self.start_values is None:
            with np.load(self.start) as saved:
                self.start_values = dict((key, saved[key]) for key in saved.files)
        oracle = [entry for entry in json.loads(str(self.start_values["__structure__"]))
                  if entry[0].startswith("keras/model%d/" % index)]
        problem = _structure_difference(oracle, structure, index)
        if problem:
            with open(os.path.join(self.folder, MISMATCH), "w") as handle:
                handle.write(problem + "\n")
            raise StartMismatch("VER008 " + problem)
        for number, layer in enumerate(_weighted_layers(model)):
            keys = ["keras/model%d/layer%02d/%s" % (index, number, short) for short, _ in _layer_weights(layer)]
            arrays = [self.start_values[key] for key in keys]
            if len(keys) == len(layer.weights):
                layer.set_weights(arrays)
            else:
                for (_, variable), array in zip(_layer_weights(layer), arrays):
                    variable.assign(array)

    def count_rows(self, model):
        """A variable the model's `train_step` sets to each batch's row count, or None where none can be had.

        TF 2.x's Keras and Keras 3 log running means weighted by the batches' rows; a last batch
        shorter than the others (100 rows in batches of 32) makes the equal-batch reading wrong for it.
        Only where `fit` runs eagerly-built steps on the default strategy (TF 1.x's loops log each
        batch's own loss and have no `train_step`).
        """
        import tensorflow as tf

        strategy = getattr(model, "distribute_strategy", None)
        if (not tf.executing_eagerly() or tf.distribute.has_strategy() or not callable(getattr(model, "train_step", None))
                or (strategy is not None and type(strategy).__name__ != "_DefaultDistributionStrategy")):
            return None
        if id(model) not in self.row_counters:
            with tf.init_scope():
                rows = tf.Variable(0, dtype=tf.int64, trainable=False)
            step = model.train_step

            def train_step(data):
                first = tf.nest.flatten(data)[0]
                rows.assign(tf.cast(tf.shape(first)[0], tf.int64))
                return step(data)

            model.train_step = train_step
            self.row_counters[id(model)] = rows
        return self.row_counters[id(model)]

    def callback(self, model, index, rows=None):
        recorder = self
        buffered = {}

        class VerifyRecorder(self._callback_base_for(model)):
            def on_train_begin(self, logs=None):
                recorder.begin(model, index)

            def on_epoch_begin(self, epoch, logs=None):
                buffered.clear()

            def on_train_batch_end(self, batch, logs=None):
                recorder.batches += 1
                # rows of this batch: train_step's (TF 2.x, Keras 3), else the `size` TF 1.x's loops log
                count = int(rows.numpy()) if rows is not None else _rows_logged(logs)
                for key, value in (logs or {}).items():
                    if key not in SKIPPED_LOG_KEYS:
                        buffered.setdefault(key, []).append((recorder.batches, _number(value), count))

            def on_epoch_end(self, epoch, logs=None):
                recorder.epochs += 1
                logs = logs or {}
                for key, value in logs.items():
                    recorder.scalars.setdefault("keras/epoch/" + key, {})[str(recorder.epochs)] = _number(value)
                for key, pairs in buffered.items():
                    series = recorder.scalars.setdefault("keras/batch/" + key, {})
                    for step, value in _per_batch(pairs, logs.get(key)):
                        series[str(step)] = value
                buffered.clear()
                recorder.write()

        return VerifyRecorder()

    # --- output ------------------------------------------------------------------------------
    def write(self):
        import numpy as np

        document = {"scalars": self.scalars, "evaluation": self.evaluations, "outputs": self.outputs}
        with open(os.path.join(self.folder, RECORD), "w") as handle:
            json.dump(document, handle, sort_keys=True)
        if self.final:
            np.savez(os.path.join(self.folder, FINAL_WEIGHTS), **self.final)


def _number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        import numpy as np

        return float(np.asarray(value).reshape(-1)[0])


def _rows_logged(logs):
    """The batch's row count TF 1.x's (and tf-keras' v1) loops log as `size`, else 0 (unknown).

    tagtag/Behaviormetric's 3_3_convolution_tpu notebook (36 rows in batches of 8, the last of 4):
    read with equal weights, TF 1.15's running accuracy made its last batch's own value 0.18 where
    the batch had 0.25, which Keras 3 (rows from train_step) recorded: every Keras 3 side failed there.
    """
    try:
        return max(int((logs or {}).get("size") or 0), 0)
    except (TypeError, ValueError):
        return 0


def _close(a, b):
    return abs(a - b) <= SAME * max(abs(a), abs(b), 1e-12)


def _per_batch(logged, epoch_value):
    """[(step, the batch's own value)] from one key's logged (step, value, rows) (module docstring).

    A running mean is weighted by each batch's rows where every batch's count is known (a short last
    batch), by 1 per batch otherwise.
    """
    pairs = [(step, value) for step, value, _ in logged]
    values = [value for _, value in pairs]
    if epoch_value is None or len(values) == 1 or not _close(values[-1], _number(epoch_value)):
        return pairs  # already each batch's own value (or nothing tells: one batch is both)
    weights = [rows for _, _, rows in logged]
    if not all(weights):
        weights = [1] * len(logged)
    own, previous, seen = [], 0.0, 0
    for (step, mean), rows in zip(pairs, weights):
        own.append((step, ((seen + rows) * mean - seen * previous) / rows))
        previous, seen = mean, seen + rows
    return own


def _structure_difference(oracle, ours, index):
    """Why `ours` ([key, shape, class]) cannot take the oracle's weights, or ''."""
    if not oracle:
        return ("model %d: the oracle's program used %s model(s) before this point; this side uses one more"
                % (index, index))
    theirs = dict((entry[0], entry) for entry in oracle)
    mine = dict((entry[0], entry) for entry in ours)
    only_oracle = [key for key in theirs if key not in mine]
    only_ours = [key for key in mine if key not in theirs]
    shapes = ["%s: oracle %s (%s), ours %s (%s)" % (key, theirs[key][1], theirs[key][2], mine[key][1], mine[key][2])
              for key in theirs if key in mine and list(theirs[key][1]) != list(mine[key][1])]
    if not (only_oracle or only_ours or shapes):
        return ""
    parts = ["model %d's weights differ from the oracle's (%d weights in the oracle, %d here), so it cannot start "
             "from the oracle's initial weights" % (index, len(theirs), len(mine))]
    if only_oracle:
        parts.append("only in the oracle: " + ", ".join(
            "%s %s (%s)" % (key, theirs[key][1], theirs[key][2]) for key in only_oracle[:6]))
    if only_ours:
        parts.append("only here: " + ", ".join("%s %s (%s)" % (key, mine[key][1], mine[key][2])
                                               for key in only_ours[:6]))
    if shapes:
        parts.append("other shapes: " + "; ".join(shapes[:6]))
    return "; ".join(parts)
