"""Names with no faithful rewrite that real slim/long-tail files use (heldout9): the finding names the
call to write instead, not "see the migration guide" or "its TensorFlow 2.21 equivalent".
(tf.contrib.lookup.HashTable, tfprof's print_model_analysis and TF 0.12's tf.scalar_summary & co. are
rewritten: fixtures contrib/contrib_hash_table, contrib/contrib_tfprof and contrib/tf0_summaries.)"""

import pytest

from migrate.engine import migrate_text

CASES = [
    ("import tensorflow as tf\nw = tf.train.SummaryWriter(logdir, graph)\n",
     ["tf.compat.v1.summary.FileWriter(logdir, graph)"]),
    # heldout10: TF 1.0-1.2's wide_n_deep_tutorial.py forks (contrib.layers columns, contrib.learn canned models)
    ("import tensorflow as tf\ncol = tf.contrib.layers.sparse_column_with_keys('gender', keys=['F', 'M'])\n",
     ["tf.feature_column.categorical_column_with_vocabulary_list(key, vocabulary_list=keys"]),
    ("import tensorflow as tf\ncol = tf.contrib.layers.crossed_column([a, b], hash_bucket_size=int(1e4))\n",
     ["tf.feature_column.crossed_column(keys, hash_bucket_size)"]),
    ("import tensorflow as tf\nm = tf.contrib.learn.DNNLinearCombinedClassifier(model_dir=d)\n",
     ["no canned estimators in estimator_bridge", "estimator_bridge.EstimatorSpec"]),
    ("import tensorflow as tf\nd = tf.contrib.learn.datasets.base.load_csv_with_header(f, np.int32, np.float32)\n",
     ["np.genfromtxt(filename, delimiter=',', skip_header=1)"]),
    ("import tensorflow as tf\nm = tf.contrib.learn.monitors.ValidationMonitor(x, y, every_n_steps=50)\n",
     ["estimator_bridge.EvalSpec(input_fn, steps, throttle_secs=...)"]),
    ("from tensorflow.contrib.learn.python.learn.metric_spec import MetricSpec\nm = MetricSpec(metric_fn=f)\n",
     ["eval_metric_ops="]),
    # tfprof beyond print_model_analysis and its option constants (rewritten: fixture contrib/contrib_tfprof)
    ("import tensorflow as tf\nadvice = tf.contrib.tfprof.model_analyzer.advise(tf.get_default_graph(), meta)\n",
     ["tf.compat.v1.profiler.advise(graph, run_meta, options)"]),
]


@pytest.mark.parametrize("source, wanted", CASES, ids=["SummaryWriter", "sparse_column_with_keys", "crossed_column",
                                                   "DNNLinearCombinedClassifier", "load_csv_with_header",
                                                   "ValidationMonitor", "metric_spec.MetricSpec", "tfprof"])
def test_the_finding_names_the_replacement(source, wanted):
    _, findings = migrate_text(source, "train.py")
    hints = [f.hint for f in findings if f.location.line == 2]
    assert hints, [(f.location.line, f.code, f.message) for f in findings]
    assert all(any(text in hint for hint in hints) for text in wanted), hints
    assert not any("migration guide" in hint or "equivalent, or remove" in hint for hint in hints), hints


def test_contrib_quantize_says_what_the_call_did_and_what_replaces_it():
    # research/slim eval_image_classifier.py / nets/mobilenet_v1_train.py (heldout9, heldout10):
    # no graph rewriter in TF 2.21, so reported at every call with what it did and what replaces it
    source = ("import tensorflow as tf\n"
              "tf.contrib.quantize.create_training_graph(quant_delay=2000)\n"
              "tf.contrib.quantize.create_eval_graph()\n")
    _, findings = migrate_text(source, "train.py")
    assert [(f.location.line, f.code) for f in findings] == [(2, "MIG301"), (3, "MIG301")]
    for finding in findings:
        assert "fake-quantization ops" in finding.message and "no equivalent that migrate knows" not in finding.message
        assert "tfmot.quantization.keras.quantize_model" in finding.hint
        assert "tf.lite.TFLiteConverter.from_saved_model" in finding.hint and "in float" in finding.hint
