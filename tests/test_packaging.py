"""The distribution installs both packages and the console script."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from tests.support.packaged_copy import copy_packaged_files


def test_both_packages_import():
    import estimator_bridge
    import migrate

    assert estimator_bridge.__version__ == migrate.__version__


def test_console_script_and_module_entry_point_answer_help():
    script = shutil.which("estimator-migrate", path=str(__import__("pathlib").Path(sys.executable).parent))
    assert script, "estimator-migrate is not installed next to the interpreter"
    for command in ([script, "--help"], [sys.executable, "-m", "migrate", "--help"]):
        completed = subprocess.run(command, capture_output=True, text=True)
        assert completed.returncode == 0, completed.stderr
        assert "estimator-migrate" in completed.stdout


def filtered_site_packages(dest: Path) -> Path:
    """This interpreter's site-packages as symlinks, without estimator-bridge's own (editable)
    install: a clean venv can reuse TensorFlow and the other dependencies without downloading
    them, while the only estimator-bridge it sees is the wheel under test."""
    source = Path(sysconfig.get_paths()["purelib"])
    dest.mkdir()
    for entry in source.iterdir():
        own = entry.name.lower().replace("-", "_").startswith(("estimator_bridge", "__editable__"))
        if not own and entry.suffix != ".pth" and entry.name != "__pycache__":
            (dest / entry.name).symlink_to(entry)
    return dest


@pytest.mark.slow
def test_the_built_wheel_installs_into_a_clean_venv_with_its_commands(tmp_path):
    source = copy_packaged_files(tmp_path / "source")
    env = {**os.environ, "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)  # the wheel, not a checkout, must answer
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(wheels), str(source)], check=True, env=env, capture_output=True, timeout=600)
    wheel = next(wheels.glob("estimator_bridge-*.whl"))

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    venv_site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                    check=True, capture_output=True, text=True).stdout.strip())
    (venv_site / "shared_dependencies.pth").write_text(f"{filtered_site_packages(tmp_path / 'deps')}\n")
    installed = subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], env=env,
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stdout + installed.stderr

    outside = tmp_path / "elsewhere"  # not the checkout: nothing to import by accident
    outside.mkdir()
    migrate = venv / "bin" / "estimator-migrate"
    version = subprocess.run([str(migrate), "--version"], cwd=outside, env=env, capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.strip() == "estimator-migrate 0.1.0", version.stderr
    verify_help = subprocess.run([str(migrate), "verify", "--help"], cwd=outside, env=env, capture_output=True,
                                 text=True)
    assert verify_help.returncode == 0 and "usage: estimator-migrate verify" in verify_help.stdout, verify_help.stderr
    runner_help = subprocess.run([str(python), "-m", "estimator_bridge.run", "--help"], cwd=outside, env=env,
                                 capture_output=True, text=True, timeout=600)
    assert runner_help.returncode == 0 and "python -m estimator_bridge.run" in runner_help.stdout, runner_help.stderr
    where = subprocess.run([str(python), "-c", "import migrate, estimator_bridge; print(migrate.__file__, "
                            "estimator_bridge.__file__)"], cwd=outside, env=env, capture_output=True, text=True)
    assert where.stdout.count(str(venv_site)) == 2, where.stdout + where.stderr
    pins = subprocess.run([str(python), "-c", "import importlib.resources as r; "
                            "print(r.files('verify').joinpath('requirements', 'tf115.txt').is_file())"],
                           cwd=outside, env=env, capture_output=True, text=True)
    assert pins.stdout.strip() == "True", pins.stderr  # the oracle pins ship as package data
