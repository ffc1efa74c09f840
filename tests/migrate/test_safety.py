"""Safety: bytes of untouched files, encodings, BOM, CRLF, Python 2 and syntax errors, never fatal."""

import codecs

from migrate.engine import migrate_bytes

TF1 = "import tensorflow as tf\nopt = tf.train.AdamOptimizer(0.1)\n"
TF1_MIGRATED = "import tensorflow as tf\nopt = tf.compat.v1.train.AdamOptimizer(0.1)\n"


def test_crlf_line_endings_are_kept():
    result = migrate_bytes(TF1.replace("\n", "\r\n").encode(), "crlf.py")
    assert result.migrated == TF1_MIGRATED.replace("\n", "\r\n").encode()


def test_utf8_bom_is_kept():
    result = migrate_bytes(codecs.BOM_UTF8 + TF1.encode(), "bom.py")
    assert result.migrated == codecs.BOM_UTF8 + TF1_MIGRATED.encode()


def test_declared_latin1_encoding_is_kept():
    source = "# -*- coding: latin-1 -*-\n# Auteur : Hélène\n" + TF1
    result = migrate_bytes(source.encode("latin-1"), "latin1.py")
    assert result.migrated == ("# -*- coding: latin-1 -*-\n# Auteur : Hélène\n" + TF1_MIGRATED).encode("latin-1")


def test_trailing_whitespace_and_tabs_elsewhere_are_untouched():
    source = "import tensorflow as tf   \n\nif True:\n\tx = 1\t\nopt = tf.train.AdamOptimizer(0.1)\n"
    result = migrate_bytes(source.encode(), "ws.py")
    assert result.migrated == source.replace("tf.train.", "tf.compat.v1.train.").encode()


def test_untouched_files_report_no_new_bytes():
    for data in (b"import tensorflow as tf\r\nx = tf.constant(1)  \r\n", b"print('no tf here')\n", b""):
        result = migrate_bytes(data, "same.py")
        assert result.migrated is None and not result.changed and result.findings == ()


def test_python2_source_is_reported_and_skipped():
    result = migrate_bytes(b"import tensorflow as tf\nprint 'loss', tf.__version__\n", "py2.py")
    assert result.skipped and result.migrated is None
    assert [(f.code, f.location.line) for f in result.findings] == [("MIG002", 2)]


def test_syntax_errors_are_reported_and_skipped():
    result = migrate_bytes(b"import tensorflow as tf\ndef f(:\n  pass\n", "broken.py")
    assert result.skipped and [f.code for f in result.findings] == ["MIG001"]


def test_undecodable_bytes_are_reported_and_skipped():
    result = migrate_bytes(b"import tensorflow as tf\nname = '\xff\xfe'\n", "binary.py")
    assert result.skipped and [f.code for f in result.findings] == ["MIG003"]


def test_modern_syntax_parses_and_migrates():
    source = ("import tensorflow as tf\nif (n := 3) > 2:\n    print(f\"{n} {', '.join(f'{v!r:>{n}}' for v in [1])}\")\n"
              "opt = tf.train.AdamOptimizer(0.1)\n")
    result = migrate_bytes(source.encode(), "modern.py")
    assert result.migrated == source.replace("tf.train.", "tf.compat.v1.train.").encode()
