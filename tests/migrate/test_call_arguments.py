"""Calls whose later positional arguments mean something else on the target are carried over by
keyword (or left for a finding), and the migrated summary calls write what TF 1.15 wrote."""

from pathlib import Path

import libcst as cst
import numpy as np
import pytest

from migrate.codemods.call_arguments import UNPLACEABLE, passed_keywords, translate, unsupported_keywords
from migrate.engine import migrate_text
from migrate.tables.contrib import CONTRIB
from migrate.tables.entries import Replacement

FIXTURE = Path(__file__).parent / "fixtures" / "contrib" / "positional_arguments.before.py"
AUDIO = CONTRIB["tensorflow.contrib.summary.audio"]


def call(source: str) -> cst.Call:
    return cst.parse_expression(source)


@pytest.mark.parametrize("source, keywords", [
    ("audio('a', x, 16000)", []),
    ("audio('a', x, 16000, 2)", ["max_outputs"]),
    ("audio('a', x, 16000, 2, None, step)", ["max_outputs", "family", "step"]),
    ("audio('a', tensor=x, sample_rate=1, max_outputs=2)", ["tensor", "sample_rate", "max_outputs"]),
    ("audio('a', x, 1, 2, None, s, 7)", ["max_outputs", "family", "step", UNPLACEABLE]),
    ("audio(*args)", [UNPLACEABLE]),
    ("audio('a', x, 1, **kwargs)", []),
])
def test_late_positionals_are_named_after_the_tf1_parameters(source, keywords):
    assert passed_keywords(AUDIO, call(source).args) == keywords


def test_unplaceable_and_unsupported_arguments_block_the_call():
    assert unsupported_keywords(AUDIO, call("audio('a', x, 1, 2, 'fam')")) == ["family"]
    assert unsupported_keywords(AUDIO, call("audio(*args)")) == [UNPLACEABLE]
    assert unsupported_keywords(AUDIO, call("audio('a', x, 1, 2, step=s)")) == []


def test_translate_writes_keywords_then_renames():
    original = call("f('a', x, 16000, 2, step=s)")
    translated = original.with_changes(args=translate(AUDIO, original.args))
    assert cst.Module([]).code_for_node(translated) == "f('a', x, 16000, max_outputs=2, step=s)"
    entry_without_signature = Replacement("tensorflow.summary.flush")
    assert passed_keywords(entry_without_signature, call("flush(w, 'n')").args) == []


def test_every_entry_with_positional_names_its_parameters():
    for key, entry in CONTRIB.items():
        if entry.positional is not None:
            assert entry.positional <= len(entry.signature), key
            assert set(entry.unsupported_kwargs) | set(entry.rename_kwargs) <= set(entry.signature), key
            # Keyword-only entries (same target) would need the pre-filter to count positionals.
            assert entry.target != key, key


def test_migrated_summaries_write_at_the_step_given_not_at_max_outputs(tmp_path):
    import tensorflow as tf

    migrated, findings = migrate_text(FIXTURE.read_text())
    namespace = {}
    exec(compile(migrated, "positional_arguments.after.py", "exec"), namespace)
    writer = tf.summary.create_file_writer(str(tmp_path))
    waveform = tf.constant(np.linspace(-1.0, 1.0, 2 * 160, dtype=np.float32).reshape(2, 160, 1))
    images = tf.zeros([3, 4, 4, 1])
    namespace["write_summaries"](writer, tf.constant(5, tf.int64), tf.constant(0.25), images, waveform)
    writer.flush()
    written = {}
    for path in tmp_path.iterdir():
        for event in tf.compat.v1.train.summary_iterator(str(path)):
            for value in event.summary.value:
                written[value.tag] = (event.step, value.image if value.HasField("image")
                                      else tf.make_ndarray(value.tensor))
    # contrib's image (kept: test_contrib_summary_image.py) writes one TF1 image per max_images
    assert sorted(written) == ["inputs/image/0", "inputs/image/1", "loss", "speech"]
    assert {step for step, _ in written.values()} == {5}
    assert written["speech"][1].shape == (1, 2)  # max_outputs=1 clip (encoded audio, label)
    assert written["inputs/image/1"][1].height == 4

