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
