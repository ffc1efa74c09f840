"""How each oracle environment is built: interpreter, pinned requirements, the check it must pass.

Pure data. `verify.oracles` builds an environment from one recipe (for `make oracles` into the
checkout's `.oracle/` and for `verify` into a cache folder), so the pins live in exactly one place:
the requirement files next to this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REQUIREMENTS = Path(__file__).resolve().parent / "requirements"


@dataclass(frozen=True)
class OracleRecipe:
    """One oracle: the TensorFlow a legacy program was written for.

    Attributes:
      name: folder name of the environment (`.oracle/<name>`, `<cache>/oracles/<name>`).
      python: "major.minor" of the CPython it needs (TF 1.15 has no wheel after CPython 3.7).
      requirements: pinned requirements file (installed first, with dependencies).
      pip: the pip to install first (pip 24 dropped CPython 3.7).
      no_deps: packages installed afterwards with --no-deps (tf-estimator-nightly would pull a
        TensorFlow 2.16 nightly over the pinned 2.15.1 otherwise).
      tensorflow: the version `import tensorflow` must report.
      check: Python run in the new environment; it fails when the environment cannot run the
        programs this oracle is for.
      runs: what kind of code the oracle runs (messages, the docs' table).
    """

    name: str
    python: str
    requirements: Path
    pip: str
    no_deps: tuple[str, ...]
    tensorflow: str
    check: str
    runs: str


RECIPES: dict[str, OracleRecipe] = {
    "tf115": OracleRecipe(
        name="tf115",
        python="3.7",
        requirements=REQUIREMENTS / "tf115.txt",
        pip="pip<24",
        no_deps=(),
        tensorflow="1.15.0",
        check="import tensorflow as tf; tf.contrib.tpu.TPUEstimator",
        runs="tf.contrib / tf.contrib.tpu code (TF 1.15 on CPython 3.7)",
    ),
    "tf215": OracleRecipe(
        name="tf215",
        python="3.11",
        requirements=REQUIREMENTS / "tf215.txt",
        pip="pip",
        no_deps=("tf-estimator-nightly==2.16.0.dev2024012409",),
        tensorflow="2.15.1",
        check="import tensorflow as tf; tf.compat.v1.estimator.tpu.TPUEstimator",
        runs="tf.compat.v1.estimator code (TF 2.15 + tf-estimator-nightly)",
    ),
}

# Where a CPython of a given minor version is looked for, in order, before giving up with
# INSTALL_HINTS: an explicit interpreter, pyenv's installed versions, then the PATH.
PYTHON_ENV_VARIABLE = "ESTIMATOR_BRIDGE_PYTHON{major}{minor}"  # e.g. ESTIMATOR_BRIDGE_PYTHON37

INSTALL_HINTS = (
    "pyenv install 3.7.17  (https://github.com/pyenv/pyenv; then it is found automatically)",
    "uv python install 3.7  (then set ESTIMATOR_BRIDGE_PYTHON37=$(uv python find 3.7))",
    "conda create -p ~/py37 python=3.7  (then set ESTIMATOR_BRIDGE_PYTHON37=~/py37/bin/python)",
)
