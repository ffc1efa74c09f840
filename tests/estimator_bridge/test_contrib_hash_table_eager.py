"""estimator_bridge.compat.contrib_lookup.HashTable run eagerly: two unnamed tables stay two tables.

contrib's HashTable gave an unnamed table the shared_name "" (kept in graphs: oracle fixture
contrib/contrib_hash_table). Eagerly that made every unnamed table one resource: on TF 1.15 with
eager execution, and on TF 2.21 before this test, the second table's lookups returned the first
table's values ([10, 20, -1] for both). Eagerly an unnamed table keeps StaticHashTable's unique name.
"""

import tensorflow as tf

from estimator_bridge.compat.contrib_lookup import HashTable


def table(values, **kwargs):
    initializer = tf.lookup.KeyValueTensorInitializer([1, 2], values, key_dtype=tf.int64, value_dtype=tf.int64)
    return HashTable(initializer, -1, **kwargs)


def test_unnamed_tables_are_distinct_when_eager():
    first, second = table([10, 20]), table([30, 40])
    keys = tf.constant([1, 2, 3], tf.int64)
    assert first.lookup(keys).numpy().tolist() == [10, 20, -1]
    assert second.lookup(keys).numpy().tolist() == [30, 40, -1]
    assert int(second.size()) == 2
    assert sorted(second.export()[1].numpy().tolist()) == [30, 40]


def test_init_is_the_initializer():
    labels = table([5, 6], name="labels")
    assert labels.init is labels.initializer
