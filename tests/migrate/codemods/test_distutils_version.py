"""DistutilsVersionImport: a notebook's TF version check keeps `distutils.version` bound.

tensorflow/tpu's tools/colab/classification_iris_data_with_keras.ipynb (2019-07) opens with
`import distutils` and `distutils.version.LooseVersion(tf.__version__) < '1.14'`, which only TF
1.15's import side effects made work; the migrated notebook stopped there.
"""

import subprocess
import sys
import textwrap

import pytest

from tests.migrate.codemods.support import assert_codemod, assert_unchanged, run
from tests.support.oracles import oracle_env, oracle_python

NAME = "DistutilsVersionImport"

VERSION_CHECK = """
    import tensorflow as tf
    import distutils
    if distutils.version.LooseVersion(tf.__version__) < '1.14':
        raise Exception('This notebook is compatible with TensorFlow 1.14 or higher')
    """


def test_the_bare_import_becomes_the_submodule_the_check_reads():
    assert_codemod(NAME, VERSION_CHECK, VERSION_CHECK.replace("import distutils\n", "import distutils.version\n"))


def test_other_names_on_the_same_line_stay():
    assert_codemod(NAME, """
        import os, distutils
        v = distutils.version.StrictVersion('1.0')
        """, """
        import os, distutils.version
        v = distutils.version.StrictVersion('1.0')
        """)


def test_a_module_that_never_reads_distutils_version_is_unchanged():
    assert_unchanged(NAME, """
        import distutils
        import distutils.util
        print(distutils.util.strtobool('yes'))
        """)


CHECK = """
    import tensorflow as tf
    import distutils
    assert distutils.version.LooseVersion(tf.__version__) >= '1.14'
    print(tf.__version__)
    """


def _run(python, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-W", "ignore", "-c", code], capture_output=True, text=True,
                          timeout=120, env=oracle_env())


@pytest.mark.oracle
def test_the_check_passes_in_tf115_and_migrated_on_current_tf_as_it_did_there():
    original = textwrap.dedent(CHECK)
    oracle = _run(oracle_python("tf115"), original)
    assert oracle.returncode == 0 and oracle.stdout.strip() == "1.15.0", oracle.stderr[-2000:]
    # on current TensorFlow, in one process (one TensorFlow import): the unmigrated check first
    # (nothing imports distutils.version any more), then the migrated one
    migrated, _ = run(NAME, CHECK)
    both = (f"try:\n    exec({original!r})\nexcept AttributeError as error:\n    print('unmigrated:', error)\n"
            f"exec({migrated!r})\n")
    current = _run(sys.executable, both)
    assert current.returncode == 0, current.stderr[-2000:]
    lines = current.stdout.strip().splitlines()
    assert lines[0] == "unmigrated: module 'distutils' has no attribute 'version'", current.stdout
    assert lines[-1].startswith("2."), current.stdout
