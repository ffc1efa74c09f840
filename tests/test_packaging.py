"""The distribution installs both packages and the console script."""

import shutil
import subprocess
import sys


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
