"""The main job's table: verdicts and exit status from goldens and runs (no TensorFlow runs)."""

import copy

from rich.console import Console

from legacy_examples.catalog import BY_NAME
from verify.compare import compare, load_golden
from legacy_examples.known_gaps import Gap
from verify.shipped_table import (FAIL, KNOWN_GAP, NOT_RUN, PASS, compared_row, exit_code,
                                   failed_row, render, with_known_gap)

MNIST = BY_NAME["mnist_tpu"]


def test_a_run_equal_to_its_golden_passes_and_shows_both_losses():
    golden = load_golden(MNIST.golden_path)
    ours = copy.deepcopy(golden["result"])
    row = compared_row(MNIST, golden, "runner", ours, compare(golden["result"], ours))
    assert row.verdict == PASS
    assert row.steps == "60"
    assert row.oracle_loss == row.our_loss == f"{golden['result']['scalars']['loss']['60']:.7f}"
    assert "accuracy=0.90625" in row.oracle_eval
    assert exit_code([row]) == 0


def test_a_drifted_loss_fails_and_names_the_step():
    golden = load_golden(MNIST.golden_path)
    ours = copy.deepcopy(golden["result"])
    ours["scalars"]["loss"]["37"] *= 1 + 1e-5
    row = compared_row(MNIST, golden, "swapped", ours, compare(golden["result"], ours))
    assert row.verdict == FAIL and "scalars.loss.37" in row.note
    assert exit_code([row]) == 1


def test_crashed_runs_fail_and_unavailable_sides_do_not():
    golden = load_golden(MNIST.golden_path)
    crashed = failed_row(MNIST, golden, "swapped", "AttributeError: boom", ran=True)
    unavailable = failed_row(MNIST, golden, "migrated", "module migrate.api missing", ran=False)
    assert (crashed.verdict, unavailable.verdict) == (FAIL, NOT_RUN)
    assert exit_code([unavailable]) == 0 and exit_code([unavailable, crashed]) == 1
    console = Console(record=True, width=250)
    console.print(render([crashed, unavailable]))
    text = console.export_text()
    assert "AttributeError: boom" in text and "NOT RUN" in text and "mnist_tpu" in text


def test_a_listed_gap_is_shown_with_its_owner_and_does_not_fail_the_job():
    golden = load_golden(MNIST.golden_path)
    # A gap of the kind known_gaps.py lists (built here: the table empties as gaps get fixed).
    gap = Gap("bridge core: a summary writer inside host_call", error="SummaryWriterInterface")
    crashed = failed_row(MNIST, golden, "migrated", "NotFoundError: SummaryWriterInterface", ran=True)
    listed = with_known_gap(crashed, gap)
    assert listed.verdict == KNOWN_GAP and gap.owner in listed.note
    assert "SummaryWriterInterface" in listed.note
    assert exit_code([listed]) == 0
    # Unlisted runs and passing runs are left as they are.
    assert with_known_gap(crashed, None).verdict == FAIL
    passing = compared_row(MNIST, golden, "swapped", golden["result"], compare(golden["result"], golden["result"]))
    assert with_known_gap(passing, gap).verdict == PASS
