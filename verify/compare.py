"""Goldens: the oracle's numbers for one example, and how another run is held against them.

A harvested run (see harvest.py) is flattened into ``{"where": number}`` pairs such as
``scalars.loss.12`` or ``variables.dense/bias.values.3``; two runs are compared pair by pair.
The relative difference of a pair is ``|ours - golden| / max(|golden|, floor, scale)``: the
floor (1e-3) keeps numbers that are zero in exact arithmetic from turning a float32 rounding
difference into a large ratio, and ``scale`` is the size of the tensor the element belongs to
(value_scales): a variable's RMS, the RMS of one prediction row's outputs, the RMS of a serving
output. An element that is small by cancellation (a bias after many updates, a logit summed from
terms of size 3, a probability of 1e-4) carries an absolute error of its tensor's scale.
Measured through the bridge: mnist_tpu conv2d_1/bias[8] = -0.0025343602 (TF 1.15) vs
-0.0025343699, 3.9e-6 of the value but 6.5e-7 of the bias's RMS; iris_tpu serving logit
0.22067855 vs 0.22067921 (3.0e-6 of the value; the other logits of that output are up to 3.7);
mnist_tpu_v1 probability 0.040834144 vs 0.040834244 (2.5e-6 of the value). The L2 norms of all
compared variables agree to 1.3e-7.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

# Sections of a harvest that hold numbers to compare; everything else is provenance.
COMPARED_SECTIONS = ("scalars", "eval", "predictions", "train_losses", "history", "variables",
                     "serving", "evaluation", "outputs")
# Non-numeric leaves that must be equal (the checkpoint the run ended with).
COMPARED_STRINGS = ("final_checkpoint",)
DEFAULT_FLOOR = 1e-3


def load_golden(path: Path) -> dict:
    """The golden document; FileNotFoundError names the command that records it."""
    if not path.exists():
        raise FileNotFoundError(
            f"no golden at {path}; record it with `python -m verify.goldens "
            f"{path.parent.name}` (needs the oracles: `make oracles`).")
    return json.loads(path.read_text())


def meta_graph_tags(result: dict):
    return result.get("serving", {}).get("meta_graph_tags")


def flatten_numbers(result: dict) -> dict[str, float]:
    """{"section.key.index": number} for every number in the compared sections."""
    flat: dict[str, float] = {}

    def walk(prefix: str, node) -> None:
        if isinstance(node, dict):
            for key in sorted(node):
                walk(f"{prefix}.{key}", node[key])
        elif isinstance(node, list):
            for index, item in enumerate(node):
                walk(f"{prefix}.{index}", item)
        elif isinstance(node, (bool, str)) or node is None:
            return
        elif isinstance(node, (int, float)):
            flat[prefix] = float(node)

    for section in COMPARED_SECTIONS:
        if section in result:
            walk(section, result[section])
    return flat


@dataclass(frozen=True)
class Pair:
    """One compared number."""

    where: str
    golden: float
    ours: float
    relative: float


@dataclass(frozen=True)
class Comparison:
    """Every compared number of one run against its golden, plus what did not line up."""

    pairs: tuple[Pair, ...]
    missing: tuple[str, ...]  # in the golden, absent from our run
    unexpected: tuple[str, ...]  # in our run, absent from the golden
    mismatched: tuple[str, ...]  # non-numeric leaves that differ

    @property
    def max_relative(self) -> float:
        return max((pair.relative for pair in self.pairs), default=0.0)

    @property
    def worst(self) -> Pair | None:
        return max(self.pairs, key=lambda pair: pair.relative, default=None)

    def failures(self, rtol: float, ignoring: tuple[str, ...] = (),
                 section_rtol: dict[str, float] | None = None) -> list[str]:
        """Human-readable reasons this run does not match; empty when it does.

        ignoring: sections ("predictions", "serving", ...) left out, e.g. the ones a run that
        stopped early never produced. section_rtol: {section: rtol} replacing `rtol` there.
        """
        section_rtol = section_rtol or {}

        def tolerance(where: str) -> float:
            return section_rtol.get(where.split(".", 1)[0], rtol)

        def kept(where: str) -> bool:
            return not any(where == s or where.startswith(s + ".") or where.startswith(s + ":")
                           for s in ignoring)

        reasons = [f"missing {where}" for where in self.missing if kept(where)]
        reasons += [f"unexpected {where}" for where in self.unexpected if kept(where)]
        reasons += [f"different {what}" for what in self.mismatched if kept(what)]
        reasons += [f"{pair.where}: golden {pair.golden!r}, ours {pair.ours!r} "
                    f"(relative {pair.relative:.2e} > {tolerance(pair.where):.0e})"
                    for pair in self.pairs
                    if not pair.relative <= tolerance(pair.where) and kept(pair.where)]
        return reasons

    def section_max(self, section: str) -> float:
        return max((p.relative for p in self.pairs if p.where.startswith(section + ".")), default=0.0)


def _rms(values) -> float:
    values = [float(v) for v in values]
    return math.sqrt(sum(v * v for v in values) / len(values)) if values else 0.0


def _flat(node):
    if isinstance(node, list):
        for item in node:
            yield from _flat(item)
    else:
        yield node


def value_scales(result: dict) -> dict[str, float]:
    """The scale each compared element is measured against, keyed by its prefix.

    * ``variables.<name>``: the variable's RMS (L2 norm / sqrt(size));
    * ``predictions.rows.<i>``: the RMS of row i's model outputs (columns not named class*);
    * ``serving.outputs.<key>``: the RMS of that output tensor.
    """
    scales = {}
    for name, summary in result.get("variables", {}).items():
        if "l2" in summary:
            size = math.prod(summary["shape"]) or 1
            scales[f"variables.{name}"] = summary["l2"] / math.sqrt(size)
    predictions = result.get("predictions", {})
    outputs = [index for index, column in enumerate(predictions.get("columns", []))
               if not column.startswith("class")]
    for row_index, row in enumerate(predictions.get("rows", [])):
        scales[f"predictions.rows.{row_index}"] = _rms(row[i] for i in outputs)
    for key, tensor in result.get("serving", {}).get("outputs", {}).items():
        scales[f"serving.outputs.{key}"] = _rms(_flat(tensor))
    return scales


def _scale_of(where: str, scales: dict[str, float]) -> float:
    prefix = where.rsplit(".", 1)[0]
    while prefix:
        if prefix in scales:
            return scales[prefix]
        if prefix.endswith(".values"):
            prefix = prefix[: -len(".values")]
            continue
        if "." not in prefix:
            return 0.0
        prefix = prefix.rsplit(".", 1)[0]
    return 0.0


def relative_difference(golden: float, ours: float, floor: float) -> float:
    if math.isnan(golden) or math.isnan(ours):
        return 0.0 if math.isnan(golden) and math.isnan(ours) else math.inf
    return abs(ours - golden) / max(abs(golden), floor)


def compare(golden_result: dict, our_result: dict, *, floor: float = DEFAULT_FLOOR) -> Comparison:
    """Pair up the numbers of two harvested runs (the golden's ``result`` and ours)."""
    golden_numbers, our_numbers = flatten_numbers(golden_result), flatten_numbers(our_result)
    scales = value_scales(golden_result)
    pairs = tuple(
        Pair(where, golden_numbers[where], our_numbers[where],
             relative_difference(golden_numbers[where], our_numbers[where],
                                 max(floor, _scale_of(where, scales))))
        for where in golden_numbers if where in our_numbers)
    mismatched = tuple(
        f"{key}: golden {golden_result.get(key)!r}, ours {our_result.get(key)!r}"
        for key in COMPARED_STRINGS
        if key in golden_result and golden_result.get(key) != our_result.get(key))
    if meta_graph_tags(golden_result) != meta_graph_tags(our_result):
        mismatched += (f"serving.meta_graph_tags: golden {meta_graph_tags(golden_result)}, "
                       f"ours {meta_graph_tags(our_result)}",)
    return Comparison(
        pairs=pairs,
        missing=tuple(where for where in golden_numbers if where not in our_numbers),
        unexpected=tuple(where for where in our_numbers if where not in golden_numbers),
        mismatched=mismatched,
    )


def loss_at_last_step(result: dict, tag: str = "loss") -> tuple[int, float] | None:
    """(step, value) of the last recorded training loss, for the main job's table."""
    scalars = result.get("scalars", {}).get(tag, {})
    if scalars:
        step = max(scalars, key=int)
        return int(step), scalars[step]
    rows = result.get("train_losses", {}).get("rows", [])
    if rows:
        return int(rows[-1][0]), rows[-1][1]
    return None


RUNNING_MEAN_SAME = 1e-6  # relative: an epoch's last logged batch value equal to the epoch's value


def logs_running_means(rows: list[list[float]], epoch_values: list[float], steps_per_epoch: int) -> bool:
    """Whether per-batch logs [[step, value]] are running means of their epoch, told apart as
    verify/keras_record.py does: each epoch's last logged value equals the epoch's value.

    TF 1.x's Keras (and tf-keras' v1 graph-mode loops) log each batch's own loss; TF 2.2+'s eager
    loops and Keras 3 log the epoch's running mean, whose last value is the epoch's loss.
    """
    if not epoch_values or len(rows) < steps_per_epoch * len(epoch_values):
        return False
    for epoch, epoch_value in enumerate(epoch_values, 1):
        last = rows[epoch * steps_per_epoch - 1][1]
        if abs(last - epoch_value) > RUNNING_MEAN_SAME * max(abs(epoch_value), 1e-12):
            return False
    return True


def per_batch_from_running_means(rows: list[list[float]], steps_per_epoch: int) -> list[list[float]]:
    """[[step, batch loss]] from Keras 3's [[step, running mean of the epoch so far]].

    Within an epoch, mean_k = (l_1 + ... + l_k) / k, so l_k = k * mean_k - (k - 1) * mean_(k-1).
    The subtraction amplifies the means' float32 rounding by about k (at most steps_per_epoch).
    """
    losses = []
    for index, (step, mean) in enumerate(rows):
        k = index % steps_per_epoch + 1
        previous = rows[index - 1][1] if k > 1 else 0.0
        losses.append([step, k * mean - (k - 1) * previous])
    return losses
