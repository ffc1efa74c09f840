"""`verify --with PKG`: packages a program needs in its oracle, installed beside it without
changing what the oracle's own packages are (verify/oracles.py ensure_extras).

Issue 29: `--with 'scikit-learn==1.0.2'` installed numpy 1.21.6 into the extras folder (pip's
`--target` ignores what is installed), which shadowed TF 1.15's numpy 1.18.5; TF 1.15 then failed
(`Cannot convert a symbolic Tensor`) and verify blamed the program (VER005). The wheels here are
built by the test and installed with no index (nothing is downloaded): one needs numpy, which the
oracle's own numpy must satisfy; one needs a numpy the oracle's pins exclude, which is refused.
"""

import base64
import hashlib
import os
import subprocess
import zipfile

import pytest

from tests.support.oracles import oracle_python
from verify import oracles

pytestmark = pytest.mark.oracle


def _wheel(folder, name, requires):
    """A pure-Python wheel `name` 1.0 whose module imports numpy and whose metadata requires `requires`."""
    dist = f"{name}-1.0.dist-info"
    files = {f"{name}.py": "import numpy\nNUMPY = numpy.__version__, numpy.__file__\n",
             f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\nRequires-Dist: {requires}\n",
             f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    with zipfile.ZipFile(folder / f"{name}-1.0-py3-none-any.whl", "w") as wheel:
        for path, text in files.items():
            wheel.writestr(path, text)
            digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
            record.append(f"{path},sha256={digest},{len(text.encode())}")
        wheel.writestr(f"{dist}/RECORD", "\n".join([*record, f"{dist}/RECORD,,"]) + "\n")


@pytest.fixture
def local_index(tmp_path, monkeypatch):
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    _wheel(wheels, "needs_numpy", "numpy")
    _wheel(wheels, "needs_new_numpy", "numpy>=1.21")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(wheels))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return wheels


def test_an_extra_package_uses_the_oracle_s_own_numpy(local_index):
    python = oracle_python("tf115")
    folder = oracles.ensure_extras(python, ("needs_numpy",), log=lambda text: None)
    env = {**os.environ, "PYTHONPATH": str(folder)}
    completed = subprocess.run([str(python), "-c", "import needs_numpy; print(*needs_numpy.NUMPY)"],
                               capture_output=True, text=True, env=env, timeout=120)
    assert completed.returncode == 0, completed.stderr
    version, location = completed.stdout.split()
    assert version == "1.18.5" and not location.startswith(str(folder)), completed.stdout
    assert not list(folder.glob("numpy*"))
    assert oracles.ensure_extras(python, ("needs_numpy",), log=lambda text: None) == folder  # once


def test_an_extra_package_the_oracle_s_pins_exclude_is_refused_naming_them(local_index):
    with pytest.raises(oracles.OracleUnavailable, match="its pins, as installed, are constraints"):
        oracles.ensure_extras(oracle_python("tf115"), ("needs_new_numpy",), log=lambda text: None)


def test_a_package_named_with_its_version_is_not_held_to_the_oracle_s_own(local_index):
    """The test bed's SimCLR entry asks for absl-py, six, wrapt... by version: a version asked for by
    name is the user's choice (pip then says whether it fits), not held to what is installed."""
    folder = oracles.ensure_extras(oracle_python("tf115"), ("needs_numpy", "Scikit_Learn>=0.22"),
                                   log=lambda text: None)
    pins = (folder.parents[2] / "installed-pins.txt").read_text().lower()
    assert "numpy==1.18.5" in pins and "scikit" not in pins
