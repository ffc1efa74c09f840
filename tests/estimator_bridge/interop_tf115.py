"""Oracle side of the interop tests: TF 1.15's tf.contrib.tpu.TPUEstimator on interop_model.

Runs in `.oracle/tf115` (CPython 3.7). Prints one JSON line.

  train MODEL_DIR MAX_STEPS [WARM_FROM VARS_REGEX PREV_SCOPE]
      train (resuming whatever MODEL_DIR holds) up to MAX_STEPS; optionally warm-start from
      the checkpoint WARM_FROM (vars_to_warm_start=VARS_REGEX; PREV_SCOPE: the checkpoint's
      name for this model's 'new' scope, i.e. var_name_to_prev_var_name). Reports the
      per-step losses (from the `loss` summaries) and the final variables.
  fresh MODEL_DIR WARM_FROM WHERE
      evaluate() and predict() with no checkpoint in MODEL_DIR, warm-started from WARM_FROM
      (WHERE: scaffold_fn | model_fn | warm_start_from); the metrics and predicted logits.
  export MODEL_DIR EXPORT_BASE
      export_saved_model(export_to_tpu=False) and the serving_default outputs on
      interop_model.SERVING_INPUTS.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

import interop_model as m  # noqa: E402
from tests.support.events import read_scalars  # noqa: E402

tf.logging.set_verbosity(tf.logging.ERROR)


def estimator(model_dir, warm_start_from=None, hidden_scope="dense"):
    config = tf.contrib.tpu.RunConfig(
        model_dir=model_dir, save_summary_steps=1, save_checkpoints_steps=4,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=4))
    return tf.contrib.tpu.TPUEstimator(
        model_fn=m.make_model_fn(tf.contrib.tpu.TPUEstimatorSpec,
                                 tf.contrib.tpu.CrossShardOptimizer, hidden_scope),
        config=config, use_tpu=False, train_batch_size=16, export_to_tpu=False,
        warm_start_from=warm_start_from)


def train(model_dir, max_steps, warm_from=None, vars_regex=None, prev_scope=None):
    warm = None
    hidden_scope = "dense"
    if warm_from:
        prev = None
        if prev_scope:
            hidden_scope = "new"
            prev = {"new/kernel": prev_scope + "/kernel"}
        warm = tf.estimator.WarmStartSettings(warm_from, vars_to_warm_start=vars_regex,
                                              var_name_to_prev_var_name=prev)
    est = estimator(model_dir, warm, hidden_scope)
    est.train(m.input_fn, max_steps=int(max_steps))
    variables = {name: est.get_variable_value(name).tolist()
                 for name in est.get_variable_names()}
    return {"losses": read_scalars(model_dir, "loss"), "variables": variables}


def export(model_dir, export_base):
    est = estimator(model_dir)
    path = est.export_saved_model(
        export_base, m.serving_input_receiver_fn_with(tf.estimator.export.ServingInputReceiver))
    with tf.Graph().as_default(), tf.Session() as session:
        meta = tf.saved_model.loader.load(session, ["serve"], path)
        signature = meta.signature_def["serving_default"]
        fetches = {k: v.name for k, v in signature.outputs.items()}
        feed = {signature.inputs["x"].name: m.SERVING_INPUTS}
        outputs = session.run(fetches, feed)
    return {"outputs": {k: np.asarray(v).tolist() for k, v in outputs.items()},
            "signatures": sorted(meta.signature_def)}


def fresh(model_dir, warm_from, where):
    """evaluate() and predict() on a model_dir without a checkpoint, warm-started from
    WARM_FROM: by init_from_checkpoint (WHERE = scaffold_fn | model_fn) or by
    warm_start_from (WHERE = warm_start_from)."""
    config = tf.contrib.tpu.RunConfig(model_dir=model_dir)
    if where == "warm_start_from":
        model_fn, warm = m.make_model_fn(tf.contrib.tpu.TPUEstimatorSpec), warm_from
    else:
        model_fn, warm = m.make_warm_model_fn(tf.contrib.tpu.TPUEstimatorSpec, warm_from,
                                              where), None
    est = tf.contrib.tpu.TPUEstimator(
        model_fn=model_fn, config=config, use_tpu=False, train_batch_size=16,
        eval_batch_size=16, predict_batch_size=5, export_to_tpu=False, warm_start_from=warm)
    metrics = est.evaluate(m.input_fn, steps=2)
    predictions = list(est.predict(m.predict_input_fn))
    return {"eval": {k: float(v) for k, v in metrics.items()},
            "logits": [p["logits"].tolist() for p in predictions]}


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    result = {"train": train, "export": export, "fresh": fresh}[command](*args)
    print(json.dumps(result))
