"""tf.contrib.lookup's vocabulary tables and HashTable, served by TF 2.21's own lookup ops.

`index_table_from_file` and `index_to_string_table_from_file` are TF 2.21's
tensorflow/python/ops/lookup_ops.py functions, which tf.contrib.lookup re-exported and TF 2.21 no
longer exports under a public name. The rest are thin adapters onto the same module: contrib's
`mapping=` argument (lookup_ops calls it `vocabulary_list`), and the names TF 1.15 had deprecated
(`index_to_string`, `string_to_index`, `string_to_index_table_from_*`) spelled as calls of them.

The tables are graph tables: in a TF1 graph their initializers go to the TABLE_INITIALIZERS
collection (`tf.compat.v1.tables_initializer()`, which Estimator-style scaffolds run). Used by TF1
NER/text input pipelines (guillaumegenthial/tf_ner's
`tf.contrib.lookup.index_table_from_file(params['words'], num_oov_buckets=1)`).
"""

from __future__ import annotations

import tensorflow as tf
from tensorflow.python.ops import gen_lookup_ops, lookup_ops
from tensorflow.python.ops.lookup_ops import FastHashSpec, index_table_from_file, index_to_string_table_from_file

__all__ = ["HashTable", "index_table_from_file", "index_to_string_table_from_file", "index_table_from_tensor",
           "index_to_string_table_from_tensor", "index_to_string", "string_to_index",
           "string_to_index_table_from_file", "string_to_index_table_from_tensor"]


def string_to_index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None, default_value=-1,
                                    hasher_spec=FastHashSpec, name=None):
    """Deprecated in TF 1.15 for `index_table_from_file` (string keys)."""
    return index_table_from_file(vocabulary_file, num_oov_buckets, vocab_size, default_value, hasher_spec,
                                 key_dtype=tf.string, name=name)


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1, hasher_spec=FastHashSpec,
                                      name=None):
    """Deprecated in TF 1.15 for `index_table_from_tensor` (string keys only)."""
    with tf.compat.v1.name_scope(name, "string_to_index") as scope:
        mapping = tf.convert_to_tensor(mapping)
    if tf.string != mapping.dtype.base_dtype:
        raise ValueError("string_to_index_table_from_tensor requires string.")
    return index_table_from_tensor(mapping, num_oov_buckets, default_value, hasher_spec, name=scope)


def index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1, hasher_spec=FastHashSpec,
                            dtype=tf.string, name=None):
    """A table from the keys in `mapping` (1-D) to their int64 positions; out-of-vocabulary keys
    go to `num_oov_buckets` hash buckets after them, or to `default_value` when there are none."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return lookup_ops.index_table_from_tensor(vocabulary_list=mapping, num_oov_buckets=num_oov_buckets,
                                              default_value=default_value, hasher_spec=hasher_spec, dtype=dtype,
                                              name=name)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """Deprecated in TF 1.15: `index_table_from_tensor(mapping, ...).lookup(tensor)`."""
    table = index_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)


def index_to_string_table_from_tensor(mapping, default_value="UNK", name=None):
    """A table from int64 positions to the strings of `mapping` (1-D); others map to `default_value`."""
    if mapping is None:
        raise ValueError("mapping must be specified.")
    return lookup_ops.index_to_string_table_from_tensor(vocabulary_list=mapping, default_value=default_value,
                                                        name=name)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    """Deprecated in TF 1.15: `index_to_string_table_from_tensor(mapping, ...).lookup(tensor)`."""
    table = index_to_string_table_from_tensor(mapping=mapping, default_value=default_value, name=name)
    return table.lookup(tensor)


class HashTable(tf.compat.v1.lookup.StaticHashTable):
    """tf.contrib.lookup.HashTable: TF 2.21's StaticHashTable plus what contrib's table had.

    Measured on TF 1.15 against TF 2.21: the same HashTableV2 table, lookup, size and export, but
    contrib's class also took `shared_name=` (None: the table is private, node attribute
    shared_name "" in a graph), where StaticHashTable always names the table "hash_table_<uuid>"; had the
    `init` property (StaticHashTable's `initializer`); and its `export(name=)` named the export op
    itself "<name>_Export", where StaticHashTable's op sits under that name scope, and its exported
    keys had the static shape [None] (TF 2.21's shape function leaves the rank unknown). Its
    initializer is added to TABLE_INITIALIZERS, so `tf.compat.v1.tables_initializer()` runs it.
    Used by TF1 label mappings (`HashTable(KeyValueTensorInitializer(keys, vals), -1).lookup(labels)`).
    """

    def __init__(self, initializer, default_value, shared_name=None, name=None):
        self._contrib_shared_name = shared_name or ""
        super().__init__(initializer, default_value, name=name)

    def _create_resource(self):
        # Eagerly, an unnamed table keeps StaticHashTable's unique name: with contrib's "" every
        # unnamed table was one resource (measured on TF 1.15 and here: a second table's lookups
        # returned the first's values), a defect no program can have relied on.
        if self._contrib_shared_name or not tf.executing_eagerly():
            self._shared_name = self._contrib_shared_name
        return super()._create_resource()

    @property
    def init(self):
        """The op that fills the table (contrib's name for `initializer`)."""
        return self.initializer

    def export(self, name=None):
        """All keys and values in the table, the export op named as contrib named it."""
        with tf.compat.v1.name_scope(name, f"{self.name}_Export", [self.resource_handle]) as scope:
            keys, values = gen_lookup_ops.lookup_table_export_v2(self.resource_handle, self._key_dtype,
                                                                 self._value_dtype, name=scope)
        keys.set_shape([None])  # scalar keys: TF 1.15's shape function said so, TF 2.21's does not
        values.set_shape(keys.get_shape().concatenate(self._value_shape))
        return keys, values
