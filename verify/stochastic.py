"""Is the oracle random beyond rounding? Its first logged step, run to run.

Verify's oracle runs start from one start state, runs 2.. moved by one ulp and run on other thread
counts: a program that only rounds differently repeats its first logged loss to within a few
float32 ulps (the first step is computed from the start state, before any update), whatever
Adam later makes of that rounding. A program with unseeded randomness does not: the test bed's
google-research/bert run_classifier (dropout 0.1, unseeded) logs step-1 losses 0.69147, 0.69269
and 0.69279 in three TF 1.15 runs, a relative spread of 1.9e-3 against float32's 6e-8 (but 8.1e-5 on
another cold run's start state, whose logits lie near zero). Such an
oracle's spread is the randomness', not rounding's: every run, the oracle's and each side's, is
one more draw of it (verify/escalation.py uses this to decide whether more oracle runs can turn
a narrow FAIL on continuous numbers). Pure functions of harvested runs.
"""

from __future__ import annotations

from dataclasses import dataclass

# Relative, ~200 float32 ulps. Measured on kept test-bed folders (docs/results/2026-11-29-random-oracle-escalation.md):
# oracles that only round differently spread their first logged value by 0 to 7.9e-6 (a Keras epoch mean,
# after a whole epoch), random ones by 8.1e-5 (bert run_classifier, a start state whose logits are near zero:
# the loss barely moves with dropout) to 5e-2; 2.5e-5 is about the geometric middle. 1e-4 took that bert draw
# for rounding and never escalated its near miss.
ROUNDING = 2.5e-5


@dataclass(frozen=True)
class FirstStep:
    """The first logged step of one scalar series, as the oracle runs logged it."""

    tag: str
    step: str
    values: tuple[float, ...]

    @property
    def relative(self) -> float:
        scale = max(abs(v) for v in self.values)
        return (max(self.values) - min(self.values)) / scale if scale else 0.0


def _step_key(step: str) -> float:
    try:
        return float(step)
    except ValueError:
        return float("inf")


def first_steps(oracle_runs: list[dict]) -> list[FirstStep]:
    """Every scalar series' first step that all runs logged, with its values."""
    if len(oracle_runs) < 2:
        return []
    found = []
    for tag, series in sorted(oracle_runs[0].get("scalars", {}).items()):
        common = [step for step in series
                  if all(isinstance(run.get("scalars", {}).get(tag, {}).get(step), (int, float)) for run in oracle_runs)]
        if common:
            step = min(common, key=_step_key)
            found.append(FirstStep(tag, step, tuple(float(run["scalars"][tag][step]) for run in oracle_runs)))
    return found


def beyond_rounding(oracle_runs: list[dict]) -> FirstStep | None:
    """The first step whose runs differ most, when they differ by more than ROUNDING; else None."""
    widest = max(first_steps(oracle_runs), key=lambda first: first.relative, default=None)
    return widest if widest is not None and widest.relative > ROUNDING else None


def note(first: FirstStep) -> str:
    """Why the oracle counts as random beyond rounding."""
    return (f"the oracle is random beyond rounding: its runs' {first.tag} at step {first.step} (computed from the "
            f"same start state) are {', '.join(f'{v:.6g}' for v in first.values)}, a relative spread of "
            f"{first.relative:.2g} against {ROUNDING:g} for rounding")
