"""Summary tags TF1 uniquified: the oracle's `loss_1` is the side's `loss`.

A TF1 graph gives every op a unique name, and a summary's tag was its op's name: a model_fn that
opens a `loss` name scope (BERT's classifier does) pushes the Estimator's own `loss` summary to
`loss_1`. Current TensorFlow's summaries are not graph ops, so the same series is written as
`loss` (the bridge names the Estimator's own loss summary as TF1 did: estimator_bridge/runtime/
loss_tag.py; other programs and tags may still differ). verify pairs the two (only when the oracle's `<tag>_<n>` is absent on the side and the
side's `<tag>` absent in the oracle), compares their values as one series, and reports the
renaming as a note: the numbers must still match; a dashboard keyed on the old tag would not.
"""

from __future__ import annotations

import copy
import re

_UNIQUIFIED = re.compile(r"^(?P<base>.+)_(?P<n>[1-9][0-9]*)$")


def _pairs(oracle_tags: set[str], side_tags: set[str]) -> dict[str, str]:
    """{side tag: oracle tag} for tags TF1 uniquified."""
    renamed = {}
    for tag in sorted(oracle_tags - side_tags):
        match = _UNIQUIFIED.match(tag)
        if match and match.group("base") in side_tags - oracle_tags and match.group("base") not in renamed:
            renamed[match.group("base")] = tag
    return renamed


def align_uniquified_tags(oracle: dict, side: dict) -> tuple[dict, list[str]]:
    """`side` with its tags renamed to the oracle's uniquified ones, and one note per renaming."""
    aligned = copy.deepcopy(side)
    notes = []
    scalar_groups = [("scalars", oracle.get("scalars", {}), aligned.get("scalars", {}))]
    for folder, scalars in oracle.get("evaluation", {}).items():
        scalar_groups.append((f"evaluation.{folder}", scalars, aligned.get("evaluation", {}).get(folder, {})))
    for where, theirs, ours in scalar_groups:
        for side_tag, oracle_tag in _pairs(set(theirs), set(ours)).items():
            ours[oracle_tag] = ours.pop(side_tag)
            notes.append(f"{where}: the oracle's tag `{oracle_tag}` is `{side_tag}` on this side (TF1 uniquified "
                         "summary tags by graph op names); compared as one series")
    return aligned, notes


# Keras log keys spelled by era: TF 1.x's Keras logged metrics=['accuracy'] as `acc` and the
# learning-rate callbacks as `lr`; TF 2.x's Keras 2 logs `accuracy` (and still `lr`); Keras 3
# logs `accuracy` and `learning_rate`. The compat runner keeps TF 1.x's, the codemod keeps the
# program's own. One number under two spellings is one series.
KERAS_LOG_SYNONYMS = (("acc", "accuracy"), ("val_acc", "val_accuracy"), ("lr", "learning_rate"))
KERAS_LOG_PREFIXES = ("keras/batch/", "keras/epoch/")


def align_keras_log_names(oracle: dict, side: dict) -> tuple[dict, list[str]]:
    """`side` with its Keras log keys (keras_record.py's `keras/batch/<key>`, `keras/epoch/<key>`)
    renamed to the oracle's spelling where the two eras spell one number differently (only when
    the oracle's spelling is absent on the side and the side's absent in the oracle)."""
    theirs = oracle.get("scalars", {})
    ours = side.get("scalars", {})
    renames = {}
    for prefix in KERAS_LOG_PREFIXES:
        for first, second in KERAS_LOG_SYNONYMS:
            for oracle_key, side_key in ((first, second), (second, first)):
                oracle_tag, side_tag = prefix + oracle_key, prefix + side_key
                if oracle_tag in theirs and oracle_tag not in ours and side_tag in ours and side_tag not in theirs:
                    renames[side_tag] = oracle_tag
    if not renames:
        return side, []
    aligned = copy.deepcopy(side)
    notes = []
    for side_tag, oracle_tag in sorted(renames.items()):
        aligned["scalars"][oracle_tag] = aligned["scalars"].pop(side_tag)
        notes.append(f"scalars: the oracle's Keras log key `{oracle_tag}` is `{side_tag}` on this side (Keras "
                     "spells it by era: acc/accuracy, lr/learning_rate); compared as one series")
    return aligned, notes
