"""Goldens: the oracle's numbers for one example, and how another run is held against them.

A harvested run (see harvest.py) is flattened into ``{"where": number}`` pairs such as
``scalars.loss.12`` or ``variables.dense/bias.values.3``; two runs are compared pair by pair.
The relative difference of a pair is ``|ours - golden| / max(|golden|, floor)``: the floor keeps
numbers that are zero in exact arithmetic (a probability of 1e-5) from turning a float32
rounding difference into a large ratio. For a variable's elements the floor is the variable's
RMS (its L2 norm over sqrt(size)): after many optimizer steps an element can end near zero by
cancellation while carrying an absolute error of the variable's scale. Measured on mnist_tpu
through the bridge: conv2d_1/bias[8] = -0.0025343602 (TF 1.15) vs -0.0025343699, 3.9e-6 of the
value but 6.5e-7 of the bias's RMS; the L2 norms of all compared variables agree to 1.3e-7.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

# Sections of a harvest that hold numbers to compare; everything else is provenance.
COMPARED_SECTIONS = ("scalars", "eval", "predictions", "train_losses", "history", "variables",
                     "serving")
# Non-numeric leaves that must be equal (the checkpoint the run ended with).
COMPARED_STRINGS = ("final_checkpoint",)
DEFAULT_FLOOR = 1e-3


def load_golden(path: Path) -> dict:
    """The golden document; FileNotFoundError names the command that records it."""
    if not path.exists():
        raise FileNotFoundError(
            f"no golden at {path}; record it with `python -m legacy_examples.record "
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

    def failures(self, rtol: float) -> list[str]:
        """Human-readable reasons this run does not match; empty when it does."""
        reasons = [f"missing {where}" for where in self.missing]
        reasons += [f"unexpected {where}" for where in self.unexpected]
        reasons += [f"different {what}" for what in self.mismatched]
        reasons += [f"{pair.where}: golden {pair.golden!r}, ours {pair.ours!r} "
                    f"(relative {pair.relative:.2e} > {rtol:.0e})"
                    for pair in self.pairs if not pair.relative <= rtol]
        return reasons

    def section_max(self, section: str) -> float:
        return max((p.relative for p in self.pairs if p.where.startswith(section + ".")), default=0.0)


def variable_scales(result: dict) -> dict[str, float]:
    """{"variables.<name>": RMS} of every float variable summary (L2 norm / sqrt(size))."""
    scales = {}
    for name, summary in result.get("variables", {}).items():
        if "l2" in summary:
            size = math.prod(summary["shape"]) or 1
            scales[f"variables.{name}"] = summary["l2"] / math.sqrt(size)
    return scales


def relative_difference(golden: float, ours: float, floor: float) -> float:
    if math.isnan(golden) or math.isnan(ours):
        return 0.0 if math.isnan(golden) and math.isnan(ours) else math.inf
    return abs(ours - golden) / max(abs(golden), floor)


def compare(golden_result: dict, our_result: dict, *, floor: float = DEFAULT_FLOOR) -> Comparison:
    """Pair up the numbers of two harvested runs (the golden's ``result`` and ours)."""
    golden_numbers, our_numbers = flatten_numbers(golden_result), flatten_numbers(our_result)
    scales = variable_scales(golden_result)
    pairs = tuple(
        Pair(where, golden_numbers[where], our_numbers[where],
             relative_difference(golden_numbers[where], our_numbers[where],
                                 max(floor, scales.get(where.rsplit(".values.", 1)[0], 0.0))))
        for where in golden_numbers if where in our_numbers)
    mismatched = tuple(
        f"{key}: golden {golden_result.get(key)!r}, ours {our_result.get(key)!r}"
        for key in COMPARED_STRINGS
        if key in golden_result and golden_result.get(key) != our_result.get(key))
    if meta_graph_tags(golden_result) != meta_graph_tags(our_result):
        mismatched += (f"SavedModel meta graph tags: golden {meta_graph_tags(golden_result)}, "
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
