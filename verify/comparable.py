"""What of the oracle's runs and a side's harvest the training phase compares, decided in one place.

verify's pipeline, its escalation and `verify.rejudge` must judge the same numbers, so the steps
that pair names and leave out what cannot be compared live here, in order:

* summary tags TF1 uniquified, and Keras log names, paired (verify/tag_names.py);
* output files whose count of numbers the oracle's own runs do not repeat (n-best answers,
  sampled text): left out, compared in the exact phase;
* TF 1.x queue-fill summaries (`fraction_of_N_full`, `fraction_over_M_of_N_full`, written by
  queue runners: `numpy_input_fn`, `input_producer`, `tf.train.batch`/`shuffle_batch`): how full
  the input queue was when the summary ran, a measure of the reader's speed like the `/sec` rates
  harvest.py leaves out, not of the model. The bridge reads tf.data, which has no queue to report,
  so the oracle's tag would otherwise count as a number missing on the side.

Each returns notes that say what was paired or left out.
"""

from __future__ import annotations

import re

from verify.tag_names import align_keras_log_names, align_uniquified_tags

QUEUE_FILL_TAG = re.compile(r"fraction_(?:of_\d+|over_\d+_of_\d+)_full$")


def training_inputs(oracle_runs: list[dict], ours: dict) -> tuple[list[dict], dict, list[str]]:
    """(oracle runs, the side's harvest, notes): what the training phase judges."""
    ours, notes = align_uniquified_tags(oracle_runs[0], ours)
    ours, keras_notes = align_keras_log_names(oracle_runs[0], ours)
    runs, ours, unstable = drop_unstable_outputs(oracle_runs, ours)
    runs, ours, queue_fill = drop_queue_fill_scalars(runs, ours)
    return runs, ours, [*notes, *keras_notes, *unstable, *queue_fill]


def drop_unstable_outputs(oracle_runs: list[dict], ours: dict) -> tuple[list[dict], dict, list[str]]:
    """Leave out of the training phase the output files whose shape the oracle does not repeat.

    A file of n-best answers or of sampled text holds a different count of numbers from one
    oracle run to the next: no number in it has a counterpart to be compared with. Such files are
    reported in a note (the exact phase, on one fixed checkpoint, still compares them).
    """
    counts: dict[str, set[int]] = {}
    for run in oracle_runs:
        for name in set().union(*(r.get("outputs", {}).keys() for r in oracle_runs)):
            counts.setdefault(name, set()).add(len(run.get("outputs", {}).get(name, [])))
    unstable = sorted(name for name, sizes in counts.items() if len(sizes) > 1)
    if not unstable:
        return oracle_runs, ours, []

    def without(run: dict) -> dict:
        kept = dict(run)
        kept["outputs"] = {k: v for k, v in run.get("outputs", {}).items() if k not in unstable}
        return kept

    notes = [f"outputs.{name}: the oracle's runs wrote {sorted(counts[name])} numbers; not compared in the training "
             "phase (compared in the exact phase)" for name in unstable]
    return [without(run) for run in oracle_runs], without(ours), notes


def drop_queue_fill_scalars(oracle_runs: list[dict], ours: dict) -> tuple[list[dict], dict, list[str]]:
    """Leave out TF 1.x queue-fill summaries on every run and the side (module docstring), with a note."""
    tags = sorted({tag for run in [*oracle_runs, ours] for tag in run.get("scalars", {})
                   if QUEUE_FILL_TAG.search(tag)})
    if not tags:
        return oracle_runs, ours, []

    def without(run: dict) -> dict:
        kept = dict(run)
        kept["scalars"] = {k: v for k, v in run.get("scalars", {}).items() if k not in tags}
        return kept

    note = (f"scalars {', '.join(tags)}: how full a TF 1.x input queue was (the reader's speed, not the model's); "
            "not compared")
    return [without(run) for run in oracle_runs], without(ours), [note]
