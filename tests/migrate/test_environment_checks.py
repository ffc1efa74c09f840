"""MIG210: `os.environ['COLAB_TPU_ADDR']` read where nothing guards it (migrate/environment_checks.py).

The first line of the 2018-2020 Colab TPU notebooks (tensorflow/tpu tools/colab, e.g.
fashion_mnist.ipynb: `tpu=tf.contrib.cluster_resolver.TPUClusterResolver('grpc://' +
os.environ['COLAB_TPU_ADDR'])`) raises KeyError anywhere but Colab's TPU Node runtime, before any
model code: migrated and run on a CPU it failed there with no finding.
"""

import pytest

from migrate.engine import migrate_text

HEADER = "import os\nimport tensorflow as tf\n"


def _codes(body):
    _, findings = migrate_text(HEADER + body, "notebook.py")
    return [(f.location.line, f.code) for f in findings if f.code == "MIG210"]


def test_an_unguarded_read_is_reported_on_its_line():
    assert _codes("x = 1\nTPU_WORKER = 'grpc://' + os.environ['COLAB_TPU_ADDR']\n") == [(4, "MIG210")]


def test_the_colab_notebook_line_is_reported_after_its_rewrite_too():
    body = ("resolver = tf.contrib.cluster_resolver.TPUClusterResolver(\n"
            "    tpu='grpc://' + os.environ['COLAB_TPU_ADDR'])\n")
    migrated, findings = migrate_text(HEADER + body, "notebook.py")
    assert "estimator_bridge.TPUClusterResolver" in migrated
    assert [(f.location.line, f.code) for f in findings if f.code == "MIG210"] == [(4, "MIG210")]


@pytest.mark.parametrize("body", [
    "if 'COLAB_TPU_ADDR' in os.environ:\n    a = os.environ['COLAB_TPU_ADDR']\n",
    "if 'COLAB_TPU_ADDR' not in os.environ:\n    a = None\nelse:\n    a = os.environ['COLAB_TPU_ADDR']\n",
    "a = os.environ['COLAB_TPU_ADDR'] if 'COLAB_TPU_ADDR' in os.environ else None\n",
    "try:\n    a = os.environ['COLAB_TPU_ADDR']\nexcept KeyError:\n    a = None\n",
    "a = os.environ.get('COLAB_TPU_ADDR')\n",
    "os.environ['COLAB_TPU_ADDR'] = 'grpc://10.0.0.2:8470'\n",
])
def test_reads_that_cannot_raise_are_not_reported(body):
    assert _codes(body) == []


def test_the_negated_guard_does_not_cover_its_own_body():
    assert _codes("if 'COLAB_TPU_ADDR' not in os.environ:\n    a = os.environ['COLAB_TPU_ADDR']\n") == [(4, "MIG210")]


def test_a_file_the_pre_filter_clears_is_checked_too():
    # nothing for the codemod to rewrite: the engine answers without libcst, with the same finding
    assert _codes("print(os.environ['COLAB_TPU_ADDR'])\n") == [(3, "MIG210")]


def test_a_guard_held_in_a_name_guards_too():
    # GoogleCloudPlatform/training-data-analyst taxifare notebook (found by the Keras helper): a false MIG210
    guarded = ("IS_COLAB = True\nHAS_COLAB_TPU = 'COLAB_TPU_ADDR' in os.environ\n"
               "if IS_COLAB and HAS_COLAB_TPU:\n    address = 'grpc://' + os.environ['COLAB_TPU_ADDR']\n")
    assert _codes(guarded) == []
    missing = "NO_TPU = 'COLAB_TPU_ADDR' not in os.environ\nif not NO_TPU:\n    a = os.environ['COLAB_TPU_ADDR']\n"
    assert _codes(missing) == []
    wrong_branch = ("HAS_COLAB_TPU = 'COLAB_TPU_ADDR' in os.environ\n"
                    "if HAS_COLAB_TPU:\n    pass\nelse:\n    a = os.environ['COLAB_TPU_ADDR']\n")
    assert _codes(wrong_branch) == [(7, "MIG210")]
