"""`tf.strings.split` migrated: TF 1.x's returned a SparseTensor, TF2's a RaggedTensor.

The codemod kept the call as written (same parameter names as TF2's), so tensorflow/tpu's
show_and_tell (`tf.sparse_tensor_to_dense(tf.strings.split(...))` in its input pipeline) stopped
with "TypeError: Input must be a SparseTensor." on the migrated side. It moves to
`tf.compat.v1.strings.split` now (migrate/tables/generate_tf1_compat.py DENY).
"""

import pytest

from migrate.engine import migrate_text
from tests.support.oracles import REPO_ROOT, current_python, oracle_env, oracle_python, run_json

SOURCE = REPO_ROOT / "tests" / "migrate" / "programs" / "strings_split_source.py"


def test_strings_split_moves_to_the_sparse_v1_function():
    migrated, findings = migrate_text(
        'import tensorflow as tf\nwords = tf.strings.split(tf.reshape(caption, [1]), sep=" ")\n', "m.py")
    assert migrated == 'import tensorflow as tf\nwords = tf.compat.v1.strings.split(tf.reshape(caption, [1]), sep=" ")\n'
    assert findings == []


@pytest.mark.oracle
def test_migrated_strings_split_gives_tf115_s_words(tmp_path):
    expected = run_json(oracle_python("tf115"), SOURCE)
    migrated = tmp_path / "strings_split_migrated.py"
    migrated.write_text(migrate_text(SOURCE.read_text(), str(SOURCE))[0])
    env = oracle_env()
    env["PYTHONPATH"] = str(REPO_ROOT)
    assert expected["rows"][1][0] == ["<S>", "two", "men", "</S>"]
    assert run_json(current_python(), migrated, env=env) == expected
