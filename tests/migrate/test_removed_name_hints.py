"""Names with no faithful rewrite that real slim/long-tail files use (heldout9): the finding names the
call to write instead, not "see the migration guide" or "its TensorFlow 2.21 equivalent".
(tf.contrib.lookup.HashTable, tfprof's print_model_analysis and TF 0.12's tf.scalar_summary & co. are
rewritten: fixtures contrib/contrib_hash_table, contrib/contrib_tfprof and contrib/tf0_summaries.)"""

import pytest

from migrate.engine import migrate_text

CASES = [
    ("import tensorflow as tf\nw = tf.train.SummaryWriter(logdir, graph)\n",
     ["tf.compat.v1.summary.FileWriter(logdir, graph)"]),
    # tfprof beyond print_model_analysis and its option constants (rewritten: fixture contrib/contrib_tfprof)
    ("import tensorflow as tf\nadvice = tf.contrib.tfprof.model_analyzer.advise(tf.get_default_graph(), meta)\n",
     ["tf.compat.v1.profiler.advise(graph, run_meta, options)"]),
]


@pytest.mark.parametrize("source, wanted", CASES, ids=["SummaryWriter", "tfprof"])
def test_the_finding_names_the_replacement(source, wanted):
    _, findings = migrate_text(source, "train.py")
    hints = [f.hint for f in findings if f.location.line == 2]
    assert hints, [(f.location.line, f.code, f.message) for f in findings]
    assert all(any(text in hint for hint in hints) for text in wanted), hints
    assert not any("migration guide" in hint or "equivalent, or remove" in hint for hint in hints), hints
