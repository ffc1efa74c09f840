"""Names with no faithful rewrite that real slim/long-tail files use (heldout9): the finding names the
call to write instead, not "see the migration guide" or "its TensorFlow 2.21 equivalent"."""

import pytest

from migrate.engine import migrate_text

CASES = [
    # SignalImageCV/SDC-Traffic-Signs eval_image_classifier.py: a TF 0.12 summary name (gone in TF 1.0)
    ("import tensorflow as tf\ntf.scalar_summary('eval/acc', acc)\n",
     ["tf.compat.v1.summary.scalar(name, tensor)", "under the enclosing name scopes"]),
    ("import tensorflow as tf\nw = tf.train.SummaryWriter(logdir, graph)\n",
     ["tf.compat.v1.summary.FileWriter(logdir, graph)"]),
    # research/slim train_image_classifier.py forks: the parameter count through tfprof
    ("import tensorflow as tf\nstats = tf.contrib.tfprof.model_analyzer.print_model_analysis(\n"
     "    tf.get_default_graph(), tfprof_options=tf.contrib.tfprof.model_analyzer.TRAINABLE_VARS_PARAMS_STAT_OPTIONS)\n",
     ["tf.compat.v1.profiler.profile(graph, cmd='scope'", "trainable_variables_parameter()", ".total_parameters"]),
    # alexmomeni/DeepDerm visualization.py
    ("import tensorflow as tf\nt = tf.contrib.lookup.HashTable(tf.contrib.lookup.KeyValueTensorInitializer(k, v), -1)\n",
     ["tf.compat.v1.lookup.StaticHashTable(initializer, default_value", "table.initializer"]),
]


@pytest.mark.parametrize("source, wanted", CASES, ids=["scalar_summary", "SummaryWriter", "tfprof", "HashTable"])
def test_the_finding_names_the_replacement(source, wanted):
    _, findings = migrate_text(source, "train.py")
    hints = [f.hint for f in findings if f.location.line == 2]
    assert hints, [(f.location.line, f.code, f.message) for f in findings]
    assert all(any(text in hint for hint in hints) for text in wanted), hints
    assert not any("migration guide" in hint or "equivalent, or remove" in hint for hint in hints), hints
