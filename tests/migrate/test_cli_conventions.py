"""The command-line conventions people expect of a linter-like tool: --version, the subcommand in
--help, one exit-code table, defaults from [tool.estimator-migrate] in pyproject.toml (flags win),
and every public flag documented."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from migrate import __version__
from migrate.cli import build_parser, main
from verify.cli import build_parser as verify_parser

ROOT = Path(__file__).resolve().parents[2]
CONTRIB = "import tensorflow as tf\nw = tf.contrib.layers.xavier_initializer()\n"
# A TPU script whose input_fn keeps a partial last batch: MIG401 only with --tpu-readiness.
READINESS = ROOT / "tests" / "migrate" / "fixtures_readiness" / "readiness.py"


def run(argv, capsys):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def codes(output):
    return set(re.findall(r"\bMIG\d{3}\b", output))


def project(tmp_path, table):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n\n" + table)
    source = tmp_path / "src" / "train.py"
    source.parent.mkdir()
    source.write_text(READINESS.read_text())
    return source


def test_version_is_printed_and_exits_0(capsys):
    code, output = run(["--version"], capsys)
    assert code == 0 and output.strip() == f"estimator-migrate {__version__}"


def test_help_lists_the_verify_command_and_the_exit_codes(capsys):
    code, output = run(["--help"], capsys)
    assert code == 0
    assert "estimator-migrate verify SCRIPT" in output and re.search(r"^  verify\s", output, re.M)
    assert "exit codes:" in output and re.search(r"^  2  usage error", output, re.M)


def test_the_console_script_answers_version():
    completed = subprocess.run([sys.executable, "-m", "migrate", "--version"], capture_output=True, text=True)
    assert completed.returncode == 0 and __version__ in completed.stdout


def test_without_a_table_readiness_is_off(tmp_path, capsys):
    source = project(tmp_path, "")
    _, output = run([source], capsys)
    assert not {c for c in codes(output) if c.startswith("MIG4")}


def test_the_table_turns_readiness_on_and_a_flag_turns_it_off(tmp_path, capsys):
    source = project(tmp_path, "[tool.estimator-migrate]\ntpu-readiness = true\n")
    _, output = run([source], capsys)
    assert {c for c in codes(output) if c.startswith("MIG4")}
    _, output = run([source, "--no-tpu-readiness"], capsys)
    assert not {c for c in codes(output) if c.startswith("MIG4")}
    _, output = run([source, "--no-config"], capsys)
    assert not {c for c in codes(output) if c.startswith("MIG4")}


def test_select_from_the_table_and_the_command_line_replaces_it(tmp_path, capsys):
    source = project(tmp_path, '[tool.estimator-migrate]\ntpu-readiness = true\nselect = "MIG4"\n')
    _, output = run([source], capsys)
    assert codes(output) and all(c.startswith("MIG4") for c in codes(output))
    _, everything = run([source, "--no-config", "--tpu-readiness"], capsys)
    other = {c for c in codes(everything) if not c.startswith("MIG4")}
    assert other, "the fixture should have findings outside MIG4"
    prefix = sorted(other)[0][:4]
    _, output = run([source, "--select", prefix], capsys)
    assert codes(output) and all(c.startswith(prefix) for c in codes(output))


def test_ignore_from_the_table(tmp_path, capsys):
    source = project(tmp_path, '[tool.estimator-migrate]\nignore = ["MIG"]\n')
    code, output = run([source, "--quiet"], capsys)
    assert not codes(output) and "0 finding(s)" in output


def test_config_flag_reads_another_file(tmp_path, capsys):
    source = project(tmp_path, "")
    other = tmp_path / "other.toml"
    other.write_text("[tool.estimator-migrate]\ntpu-readiness = true\n")
    _, output = run([source, "--config", other], capsys)
    assert {c for c in codes(output) if c.startswith("MIG4")}


@pytest.mark.parametrize("table, message", [
    ("colour = 'red'\n", "has no option 'colour'"),
    ("tpu-readiness = 'yes'\n", "tpu-readiness = 'yes': expected bool"),
    ("select = [4]\n", "expected a list of strings or str"),
    ("keras = 4\n", "keras = 4: expected one of (2, 3)"),
    ("format = 'xml'\n", "format = 'xml': expected one of"),
])
def test_a_bad_table_exits_2_naming_the_file_and_the_key(tmp_path, capsys, table, message):
    source = project(tmp_path, "[tool.estimator-migrate]\n" + table)
    code, output = run([source], capsys)
    assert code == 2 and message in output and "pyproject.toml" in output


def test_the_config_file_is_found_above_the_paths(tmp_path, capsys):
    source = project(tmp_path, "[tool.estimator-migrate]\njobs = 0\n")
    code, output = run([source.parent], capsys)
    assert code == 2 and "--jobs (0)" in output  # the table's value reached the run


def options(parser):
    return sorted(s for action in parser._actions for s in action.option_strings
                  if s.startswith("--") and s != "--help")


@pytest.mark.parametrize("parser, doc", [(build_parser, "docs/migrate.md"), (verify_parser, "docs/verify.md")])
def test_every_public_flag_is_documented(parser, doc):
    text = (ROOT / doc).read_text()
    missing = [flag for flag in options(parser()) if not re.search(re.escape(flag) + r"(?![\w-])", text)]
    assert not missing, f"{doc} does not mention {missing}"


def test_the_exit_code_table_covers_both_commands():
    text = (ROOT / "docs" / "migrate.md").read_text()
    table = text.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    assert "| command | 0 | 1 | 2 |" in table
    assert "`estimator-migrate --check PATH...`" in table and "`estimator-migrate verify SCRIPT ...`" in table


def test_the_table_chooses_the_keras_target_and_the_flag_wins(tmp_path, capsys):
    (tmp_path / "pyproject.toml").write_text("[tool.estimator-migrate]\nkeras = 2\n")
    source = tmp_path / "model.py"
    source.write_text("import keras\nmodel = keras.models.Sequential()\n")
    _, output = run([source], capsys)
    assert "Keras target: Keras 2" in output
    _, output = run([source, "--keras", "3"], capsys)
    assert "Keras target: Keras 3" in output
