"""Collect what a finished legacy-example run left behind, as one JSON document.

This file runs inside every TensorFlow we compare (TF 1.15 on CPython 3.7, TF 2.15, current TF),
so it uses only APIs present in all of them and Python 3.7 syntax. It reads artifacts, never
the example's stdout, so that a run is judged by what it wrote:

* scalar summaries (the Estimator's ``loss`` every ``save_summary_steps``, host_call scalars)
  from the event files directly in ``model_dir`` (v1 ``simple_value`` or v2 tensor summaries);
* ``eval_results.txt`` (``key = value`` lines, as BERT's run_classifier wrote them);
* ``predictions.tsv`` (a header row, then one row of numbers per example);
* ``train_losses.tsv`` (one ``step<TAB>loss`` row per step) and ``history.tsv`` (one row per
  epoch), written by Keras examples;
* named variables of the final checkpoint (``tf.train.load_checkpoint``) or of
  ``final_weights.npz`` (Keras examples), as the first values plus the L2 norm;
* a digest of ``model.ckpt-0``, the shared starting point of every comparison;
* the outputs of an exported SavedModel's serving signature on given inputs, and the tag
  sets of its meta graphs (``export_to_tpu=False`` must leave only ``["serve"]``);
* a Keras program's record (MODEL_DIR/keras_record, written by verify/keras_record.py when a
  notebook runs under verify): fit's logs as scalars, evaluate/predict results, final weights.

For any user program (`verify`), ``"everything": true`` reads what it wrote without knowing
the program: every scalar tag of the event files in model_dir and in its evaluation folders
(``eval``, ``eval_<name>``), every variable of the final checkpoint, the names, shapes and dtypes
of all its tensors, and the numbers of the text files the program wrote at the top of model_dir
(``eval_results.txt``, ``test_results.tsv``, ...; not a JSON dump of the absl flags, which holds
TensorFlow's own flags too). Rates measured by the clock (tags ending in
``/sec``) are left out: they differ between any two runs.

Usage: python harvest.py MODEL_DIR SPEC_JSON  -> prints one JSON line.
SPEC_JSON: {"tags": [...], "variables": [...], "values_per_variable": 16,
            "serving": {"export_glob": "export/*", "inputs": {name: [values]}}}  (serving optional)
       or  {"everything": true, "values_per_variable": 16}
"""

from __future__ import absolute_import, division, print_function

import glob
import hashlib
import json
import os
import sys

import re

import numpy as np
import tensorflow as tf

EVAL_RESULTS = "eval_results.txt"
PREDICTIONS = "predictions.tsv"
TRAIN_LOSSES = "train_losses.tsv"
HISTORY = "history.tsv"
FINAL_WEIGHTS = "final_weights.npz"


def _scalar_of(value):
    """A summary value as a float: v1 writers fill simple_value, v2 writers a tensor."""
    if value.HasField("simple_value"):
        return float(value.simple_value)
    return float(tf.make_ndarray(value.tensor))


def read_scalars(model_dir, tags):
    """{tag: {step: value}} for the wanted tags in the event files directly in model_dir."""
    scalars = dict((tag, {}) for tag in tags)
    for path in sorted(glob.glob(os.path.join(model_dir, "events.out.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag in scalars:
                    scalars[value.tag][str(int(event.step))] = _scalar_of(value)
    return scalars


def read_key_values(path):
    """`key = value` lines as {key: float}."""
    results = {}
    with open(path) as lines:
        for line in lines:
            if " = " in line:
                key, value = line.strip().split(" = ", 1)
                results[key] = float(value)
    return results


def read_table(path):
    """A TSV with a header row: {"columns": [...], "rows": [[float, ...], ...]}."""
    with open(path) as lines:
        rows = [line.rstrip("\n").split("\t") for line in lines if line.strip()]
    return {"columns": rows[0], "rows": [[float(cell) for cell in row] for row in rows[1:]]}


def summarise(array, values_per_variable):
    """First values and L2 norm: small enough for a golden, sensitive to every element."""
    array = np.asarray(array)
    flat = array.reshape(-1)
    summary = {"shape": list(array.shape)}
    if array.dtype.kind in "iu":
        summary["values"] = [int(v) for v in flat[:values_per_variable]]
    else:
        summary["values"] = [float(v) for v in flat[:values_per_variable]]
        summary["l2"] = float(np.sqrt(np.sum(np.square(flat.astype(np.float64)))))
    return summary


def read_checkpoint_variables(model_dir, names, values_per_variable):
    path = tf.train.latest_checkpoint(model_dir)
    if path is None:
        return None, {}
    reader = tf.train.load_checkpoint(path)
    available = reader.get_variable_to_shape_map()
    variables = {}
    for name in names:
        if name not in available:
            raise KeyError("variable %r is not in checkpoint %s; it holds %s"
                           % (name, path, sorted(available)))
        variables[name] = summarise(reader.get_tensor(name), values_per_variable)
    return os.path.basename(path), variables


def read_npz_variables(path, names, values_per_variable):
    with np.load(path) as arrays:
        return dict((name, summarise(arrays[name], values_per_variable)) for name in names)


def checkpoint_digest(prefix):
    """sha256 over (name, dtype, shape, bytes) of every tensor of one checkpoint."""
    reader = tf.train.load_checkpoint(prefix)
    digest = hashlib.sha256()
    for name in sorted(reader.get_variable_to_shape_map()):
        tensor = np.asarray(reader.get_tensor(name))
        digest.update(("%s|%s|%s|" % (name, tensor.dtype.str, tensor.shape)).encode("utf-8"))
        digest.update(np.ascontiguousarray(tensor).tobytes())
    return digest.hexdigest()


def read_serving(model_dir, serving):
    """Runs the newest export's serving_default signature; TF1 via Session, TF2 via load()."""
    from tensorflow.core.protobuf import saved_model_pb2

    exports = sorted(glob.glob(os.path.join(model_dir, serving["export_glob"])))
    if not exports:
        return None  # the run exported nothing: every serving number is "missing" in a comparison
    path = exports[-1]
    saved_model = saved_model_pb2.SavedModel()
    with open(os.path.join(path, "saved_model.pb"), "rb") as proto:
        saved_model.ParseFromString(proto.read())
    tag_sets = sorted(sorted(meta.meta_info_def.tags) for meta in saved_model.meta_graphs)
    inputs = dict((name, np.asarray(values, dtype=np.float32))
                  for name, values in serving["inputs"].items())
    if tf.__version__.startswith("1."):
        with tf.Graph().as_default():
            with tf.compat.v1.Session() as sess:
                meta = tf.compat.v1.saved_model.loader.load(sess, ["serve"], path)
                signature = meta.signature_def["serving_default"]
                keys = sorted(signature.outputs)
                values = sess.run([signature.outputs[k].name for k in keys],
                                  dict((signature.inputs[n].name, v) for n, v in inputs.items()))
                outputs = dict(zip(keys, values))
    else:
        function = tf.saved_model.load(path, tags=["serve"]).signatures["serving_default"]
        outputs = dict((k, v.numpy()) for k, v in
                       function(**dict((n, tf.constant(v)) for n, v in inputs.items())).items())
    return {"meta_graph_tags": tag_sets,
            "outputs": dict((k, np.asarray(v).tolist()) for k, v in sorted(outputs.items()))}


CLOCK_TAG_SUFFIX = "/sec"
OUTPUT_EXTENSIONS = (".txt", ".tsv", ".csv", ".json")
MAX_OUTPUT_BYTES = 4 * 1024 * 1024
# A number standing on its own: not the digits of a word ("w12", "layer_3", "v2").
NUMBER = re.compile(r"(?<![\w.])(?:[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf))(?![\w.])",
                    re.IGNORECASE)


def read_all_scalars(folder):
    """{tag: {step: value}} for every scalar (size-1) summary in the event files directly in folder."""
    scalars = {}
    for path in sorted(glob.glob(os.path.join(folder, "events.out.tfevents.*"))):
        for event in tf.compat.v1.train.summary_iterator(path):
            for value in event.summary.value:
                if value.tag.endswith(CLOCK_TAG_SUFFIX):
                    continue
                if value.HasField("simple_value"):
                    number = float(value.simple_value)
                elif value.HasField("tensor"):
                    array = tf.make_ndarray(value.tensor)
                    if array.size != 1 or array.dtype.kind not in "fiub":
                        continue
                    number = float(array.reshape(-1)[0])
                else:
                    continue
                scalars.setdefault(value.tag, {})[str(int(event.step))] = number
    return scalars


def read_evaluations(model_dir):
    """{folder: scalars} for the evaluation folders an Estimator writes (eval, eval_<name>)."""
    evaluations = {}
    for folder in sorted(glob.glob(os.path.join(model_dir, "eval*"))):
        if os.path.isdir(folder):
            scalars = read_all_scalars(folder)
            if scalars:
                evaluations[os.path.basename(folder)] = scalars
    return evaluations


# Flags absl itself defines in every program (absl.logging's): a JSON object holding them is a dump
# of FLAGS.flag_values_dict(), not a result.
ABSL_OWN_FLAGS = frozenset(("logtostderr", "alsologtostderr", "stderrthreshold", "verbosity"))


def is_flags_dump(name, text):
    """A JSON file holding every absl flag of the process (``json.dump(FLAGS.flag_values_dict(), f)``,
    UDA's FLAGS.json, SimCLR's flags.json): the command line plus the flags TensorFlow itself defines on
    import, whose set and defaults differ between TensorFlow versions (TF 2.x adds the tensor tracer's
    ``delta_threshold``, ``hbm_oom_exit``..., and pfor's ``op_conversion_fallback_to_while_loop``
    defaults to True there, False in TF 1.15). Not an output of the program's computation."""
    if not name.endswith(".json"):
        return False
    try:
        document = json.loads(text)
    except ValueError:
        return False
    return isinstance(document, dict) and ABSL_OWN_FLAGS <= set(document)


def read_outputs(model_dir):
    """{file: [numbers]} for the small text files at the top of model_dir (the program's outputs);
    dumps of the absl flags are left out (`is_flags_dump`)."""
    outputs = {}
    for path in sorted(glob.glob(os.path.join(model_dir, "*"))):
        name = os.path.basename(path)
        if (not os.path.isfile(path) or not name.endswith(OUTPUT_EXTENSIONS)
                or os.path.getsize(path) > MAX_OUTPUT_BYTES):
            continue
        with open(path, errors="replace") as text:
            content = text.read()
        if is_flags_dump(name, content):
            continue
        outputs[name] = [float(number) for number in NUMBER.findall(content)]
    return outputs


def read_checkpoint_everything(model_dir, values_per_variable):
    """(checkpoint basename, {name: summary}, {name: [dtype, shape]}) of the final checkpoint."""
    path = tf.train.latest_checkpoint(model_dir)
    if path is None:
        return None, {}, {}
    reader = tf.train.load_checkpoint(path)
    variables, names = {}, {}
    dtypes = reader.get_variable_to_dtype_map()
    for name, shape in sorted(reader.get_variable_to_shape_map().items()):
        names[name] = [dtypes[name].name, list(shape)]
        tensor = np.asarray(reader.get_tensor(name))
        if tensor.dtype.kind in "fiub":
            variables[name] = summarise(tensor, values_per_variable)
    return os.path.basename(path), variables, names


# What verify/keras_record.py writes for a Keras program (its fit logs, evaluate/predict results,
# final weights), in a folder of the model_dir so that no top-level output reader takes it.
KERAS_RECORD = os.path.join("keras_record", "record.json")
KERAS_FINAL_WEIGHTS = os.path.join("keras_record", "final_weights.npz")


def merge_keras_record(model_dir, result, values_per_variable):
    """Adds a Keras program's record to a harvest: its scalars, evaluations and outputs beside the
    event files' and text files', its final weights as variables (keyed keras/model<m>/layer<l>/...)."""
    path = os.path.join(model_dir, KERAS_RECORD)
    if not os.path.exists(path):
        return
    with open(path) as handle:
        record = json.load(handle)
    for section in ("scalars", "evaluation", "outputs"):
        result.setdefault(section, {}).update(record.get(section, {}))
    weights = os.path.join(model_dir, KERAS_FINAL_WEIGHTS)
    if os.path.exists(weights):
        with np.load(weights) as arrays:
            for name in arrays.files:
                result["variables"][name] = summarise(arrays[name], values_per_variable)
    result["keras_record"] = True


def harvest_everything(model_dir, spec):
    values_per_variable = spec.get("values_per_variable", 16)
    checkpoint, variables, names = read_checkpoint_everything(model_dir, values_per_variable)
    result = {"tensorflow": tf.__version__, "scalars": read_all_scalars(model_dir),
              "evaluation": read_evaluations(model_dir), "outputs": read_outputs(model_dir),
              "variables": variables, "checkpoint_names": names, "final_checkpoint": checkpoint}
    merge_keras_record(model_dir, result, values_per_variable)
    ckpt0 = os.path.join(model_dir, "model.ckpt-0")
    if os.path.exists(ckpt0 + ".index"):
        result["ckpt0_sha256"] = checkpoint_digest(ckpt0)
    return result


def harvest(model_dir, spec):
    if spec.get("everything"):
        return harvest_everything(model_dir, spec)
    values_per_variable = spec.get("values_per_variable", 16)
    result = {"tensorflow": tf.__version__,
              "scalars": read_scalars(model_dir, spec.get("tags", []))}
    for key, filename, reader in (("eval", EVAL_RESULTS, read_key_values),
                                  ("predictions", PREDICTIONS, read_table),
                                  ("train_losses", TRAIN_LOSSES, read_table),
                                  ("history", HISTORY, read_table)):
        path = os.path.join(model_dir, filename)
        if os.path.exists(path):
            result[key] = reader(path)
    npz = os.path.join(model_dir, FINAL_WEIGHTS)
    if os.path.exists(npz):
        result["variables"] = read_npz_variables(npz, spec.get("variables", []), values_per_variable)
    else:
        checkpoint, variables = read_checkpoint_variables(
            model_dir, spec.get("variables", []), values_per_variable)
        result["final_checkpoint"] = checkpoint
        result["variables"] = variables
    ckpt0 = os.path.join(model_dir, "model.ckpt-0")
    if os.path.exists(ckpt0 + ".index"):
        result["ckpt0_sha256"] = checkpoint_digest(ckpt0)
    serving = read_serving(model_dir, spec["serving"]) if spec.get("serving") else None
    if serving is not None:
        result["serving"] = serving
    return result


if __name__ == "__main__":
    print(json.dumps(harvest(sys.argv[1], json.loads(sys.argv[2])), sort_keys=True))
