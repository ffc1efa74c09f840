"""The test bed's own data stays consistent: every program's files are in the manifest, generators write what
the programs read, and results render as a table. (Running the programs needs their fetched sources: `make
testbed`, docs/verify.md.)"""

from __future__ import annotations

import json
from pathlib import Path

from testbed import manifest
from testbed.generators import squad, text_pairs
from testbed.programs import PROGRAMS
from testbed.run import verify_argv
from verify.summary import markdown, summarise_phase


def test_every_program_file_is_pinned_by_repository_commit_and_sha256():
    rows = manifest.load()
    pinned = {(row["program"], row["path"]) for row in rows}
    for program in PROGRAMS:
        assert program.script in program.files, program.name
        for path in program.files:
            assert (program.name, path) in pinned, (program.name, path)
    assert all(len(row["sha256"]) == 64 and len(row["commit"]) == 40 for row in rows)
    assert len({program.name for program in PROGRAMS}) == len(PROGRAMS)


def test_the_test_bed_spans_at_least_ten_programs_of_six_repositories():
    assert len(PROGRAMS) >= 10
    assert len({program.repo for program in PROGRAMS}) >= 6


def test_text_pairs_write_every_layout_the_programs_read(tmp_path):
    text_pairs.write(tmp_path)
    assert (tmp_path / "mrpc" / "train.tsv").read_text().startswith("Quality\t#1 ID\t#2 ID\t#1 String\t#2 String\n")
    assert len((tmp_path / "lcqmc" / "dev.txt").read_text().splitlines()) == 24
    first = json.loads((tmp_path / "boolq" / "train.jsonl").read_text().splitlines()[0])
    assert set(first) == {"question", "title", "answer", "passage"}
    config = json.loads((tmp_path / "bert_config.json").read_text())
    assert config["vocab_size"] == len((tmp_path / "vocab.txt").read_text().split())


def test_squad_answers_are_spans_of_their_context(tmp_path):
    squad.write(tmp_path)
    for paragraph in json.loads((tmp_path / "train.json").read_text())["data"][0]["paragraphs"]:
        answer = paragraph["qas"][0]["answers"][0]
        start = answer["answer_start"]
        assert paragraph["context"][start:start + len(answer["text"])] == answer["text"]


def test_programs_are_verified_with_their_flags_and_data_folder():
    program = next(p for p in PROGRAMS if p.name == "bert_run_classifier")
    argv = verify_argv(program, Path("/src"), Path("/data"), Path("/runs"), Path("/runs.json"))
    assert argv[1:4] == ["-m", "verify", "/src/google-research+bert+eedf5716/run_classifier.py"]
    assert "--data_dir=/data/mrpc" in argv and "--output_dir={model_dir}" in argv
    assert argv.index("--") > argv.index("--work-dir")


def test_side_and_keras_target_are_passed_to_verify():
    """The test bed's Keras programs are judged on the migrated copy of both targets: `--keras 2`
    (tf-keras) reaches verify, which hands it to the codemod; without it verify's defaults stand."""
    program = next(p for p in PROGRAMS if p.name == "tda_mnist_keras_to_tpu_2018")
    argv = verify_argv(program, Path("/src"), Path("/data"), Path("/runs"), Path("/runs.json"),
                       side="migrated", keras=2)
    options = argv[:argv.index("--")]
    assert options[options.index("--keras") + 1] == "2" and options[options.index("--side") + 1] == "migrated"
    default = verify_argv(program, Path("/src"), Path("/data"), Path("/runs"), Path("/runs.json"))
    assert "--keras" not in default and "--side" not in default


def test_results_render_limitations_and_numbers():
    passing = {"phase": "training", "status": "PASS", "sections": {"scalars": {
        "compared": 20, "outside": 0, "missing": 0, "unexpected": 0, "max_difference": 2e-7,
        "max_difference_at": "scalars.loss.7", "max_spread": 0.0}}}
    limited = {"phase": "exact", "status": "LIMITED", "limitation": {"code": "VER002", "message": "..."}}
    assert summarise_phase(passing) == "PASS: 20 numbers, max diff 2.0e-07 (scalars.loss.7)"
    assert summarise_phase(limited) == "VER002 (LIMITED)"
    table = markdown([{"program": "p", "side": "runner", "status": "PASS", "training": "a|b", "exact": "-",
                       "notes": ""}], "header")
    assert "| p | runner | PASS | a\\|b | - |  |" in table


def test_every_program_can_be_selected_by_name():
    """`python -m testbed.run --sources S NAME` looks programs up in BY_NAME, which was built before
    the last entries were added (tpu_unet3d could not be selected, 2026-11-27)."""
    from testbed.programs import BY_NAME
    assert sorted(BY_NAME) == sorted(program.name for program in PROGRAMS)
    assert len(BY_NAME) == len(PROGRAMS)  # names are unique
