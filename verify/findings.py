"""Named limitations: why a phase could not be judged (not proven, not disproven). Pure data.

A limitation is not a failure: verify says which phase it could not judge and why, and exits 2
when nothing else failed. The test bed's table (docs/verify.md) names each by its code.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limitation:
    code: str
    title: str
    message: str


LIMITATIONS = {
    "VER001": ("no initial checkpoint",
               "the original program wrote no model.ckpt-0 in its oracle (a Keras or hand-written Session "
               "program, or one that deletes it before verify could copy it), so the sides cannot start from "
               "the oracle's initial weights and training cannot be compared; the exact phase still runs"),
    "VER002": ("exact phase trained",
               "the exact phase seeds the oracle's final checkpoint and reruns the program expecting training "
               "to be skipped (train(max_steps=...) already reached), but the program trained further (it "
               "trains with steps= or its own loop); give arguments that only evaluate and predict with "
               "--exact-args"),
    "VER003": ("no final checkpoint",
               "the oracle's run left no checkpoint to evaluate, so there is no exact phase"),
    "VER005": ("original fails in its oracle",
               "the unchanged program stops with an error in the oracle, so there is nothing to compare with; "
               "it may need another TensorFlow (--oracle), packages (--with), or arguments that run on CPU"),
    "VER006": ("the oracle races on its global step",
               "the original program reads its global step for the learning-rate schedule without ordering the "
               "read against its own increment (google-research/bert's optimization.py and its copies: "
               "`global_step.assign(global_step + 1)` grouped with the updates), so TF 1.15 uses step or step + 1 "
               "by thread timing and its runs differ; the bridge reads the step in program order, one fixed "
               "outcome of that race, so a training phase outside the oracle's spread cannot be told from the "
               "race (within it, it passes); the judgement is shown in the notes; the exact phase and "
               "checkpoint names are judged. "
               "To judge training, order the increment after the updates in a copy of the program "
               "(`with tf.control_dependencies([train_op]): global_step.assign_add(1)`)"),
    "VER007": ("migrated copy imports TF1 code it does not contain",
               "the migrated program stopped in a TF1 call of a module outside the migrated tree (a pip "
               "package such as bert-tensorflow, or a folder on --path): estimator-migrate rewrites only the "
               "tree it is given; migrate that code too (copy it into --source-root, or run estimator-migrate "
               "on it and put the result on the path) or use the runner side, which serves TF1's API to every "
               "module"),
    "VER008": ("the model's weights differ from the oracle's",
               "a Keras program's model on this side does not have the layers and weights the oracle's has (their "
               "count, names or shapes, in layer order), so it cannot start from the oracle's initial weights and "
               "its training is not compared (verify/keras_record.py); the detail names the first differences: a "
               "layer built differently on current TensorFlow, or a model the program builds only on one side"),
    "VER004": ("nothing to compare",
               "the oracle's run of this phase wrote no number verify reads (no summaries in model_dir or its "
               "eval folders, no text output at its top); for the exact phase, a program that evaluates only "
               "while it trains needs --exact-args that evaluate (e.g. --mode=eval)"),
}


def limitation(code: str, detail: str = "") -> Limitation:
    title, message = LIMITATIONS[code]
    return Limitation(code, title, f"{code} {title}: {message}" + (f" ({detail})" if detail else ""))
