"""A name bound by a star import of a module of the file's own tree is migrated like a direct import.

Octavian-ai/BigGAN-TPU-TensorFlow main_tpu.py gets `tf` from `from utils import *` (utils.py does
`import tensorflow as tf`): it was left unchanged with 0 findings and 12 TF1 references (issue 28).
"""

from migrate.api import migrate_file
from migrate.engine import migrate_text

MAIN = """from utils import *

flags = tf.flags
opt = tf.train.AdamOptimizer(0.1)
"""
MIGRATED = """from utils import *

flags = tf.compat.v1.flags
opt = tf.compat.v1.train.AdamOptimizer(0.1)
"""


def test_tf_from_a_local_star_import_is_migrated_and_the_lines_stay_where_they_were(tmp_path):
    (tmp_path / "utils.py").write_text("import os\nimport tensorflow as tf\n\ndef helper():\n    return 1\n")
    (tmp_path / "main_tpu.py").write_text(MAIN)
    result = migrate_file(str(tmp_path / "main_tpu.py"))
    assert result.migrated.decode() == MIGRATED
    assert not result.findings
    text, findings = migrate_text(MAIN, str(tmp_path / "main_tpu.py"))
    assert text == MIGRATED and not findings


def test_a_package_module_and_a_relative_star_import(tmp_path):
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("")
    (tmp_path / "lib" / "common.py").write_text("import tensorflow.compat.v1 as tf1\nimport tensorflow as tf\n")
    (tmp_path / "lib" / "train.py").write_text("from .common import *\nx = tf.placeholder(tf.float32)\n")
    (tmp_path / "run.py").write_text("from lib.common import *\nx = tf.placeholder(tf.float32)\n")
    for name in ("lib/train.py", "run.py"):
        migrated = migrate_file(str(tmp_path / name)).migrated.decode()
        assert migrated.endswith("x = tf.compat.v1.placeholder(tf.float32)\n"), name
        assert "import tensorflow" not in migrated, name


def test_names_outside_all_or_bound_in_the_file_are_not_taken_from_the_star_import(tmp_path):
    (tmp_path / "utils.py").write_text("import tensorflow as tf\n__all__ = ['helper']\n")
    (tmp_path / "main.py").write_text(MAIN)
    assert migrate_file(str(tmp_path / "main.py")).migrated is None
    (tmp_path / "utils.py").write_text("import tensorflow as tf\n")
    (tmp_path / "own.py").write_text("from utils import *\nimport fake_tf as tf\nflags = tf.flags\n")
    assert migrate_file(str(tmp_path / "own.py")).migrated is None


def test_a_star_import_of_a_module_not_in_the_tree_changes_nothing(tmp_path):
    (tmp_path / "main.py").write_text("from numpy import *\nx = array([1])\n")
    result = migrate_file(str(tmp_path / "main.py"))
    assert result.migrated is None and not result.findings
