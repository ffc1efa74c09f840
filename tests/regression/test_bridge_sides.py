"""Every legacy example on current TensorFlow, held to the golden its oracle recorded.

Side "swapped": the unchanged script with only its TensorFlow imports swapped to
`estimator_bridge.compat` (verify/swapped_imports.py). Side "runner": the unchanged script through
`python -m estimator_bridge.run`. Both start from the golden's start state (the oracle's
model.ckpt-0, or Keras initial weights), because TF1 graph-seeded initial values cannot be
reproduced on another TensorFlow. Tolerance: the example's `rtol` (1e-6 unless the catalog
states a measured reason). Side "migrated", after estimator-migrate, is tested in
tests/migrate/test_migrated_side.py and shown by `python -m verify.shipped` (`make demo`).

The few known differences are listed, with their owner, in known_gaps.py.
"""

import pytest

from legacy_examples.catalog import EXAMPLES
from verify.shipped_runs import harvest_current, run_current
from verify.environments import ProgramFailed, program_env
from verify.compare import compare, load_golden
from legacy_examples.known_gaps import KNOWN_GAPS, Gap

pytestmark = pytest.mark.slow

CASES = [(example, side) for example in EXAMPLES for side in ("swapped", "runner") if side in example.sides]


@pytest.mark.parametrize("example,side", CASES, ids=[f"{e.name}-{p}" for e, p in CASES])
def test_example_matches_its_golden_on_current_tensorflow(example, side, tmp_path):
    golden = load_golden(example.golden_path)
    gap = KNOWN_GAPS.get((example.name, side), Gap(owner="-"))
    model_dir = tmp_path / "model_dir"
    try:
        ours, error = run_current(example, model_dir, side), None
    except ProgramFailed as failed:
        error = str(failed)
        ours = harvest_current(example, model_dir, env=program_env(onednn=False))

    if error is not None:
        assert gap.error is not None, f"{example.name} ({side}) stopped:\n{error[-3000:]}"
        assert gap.error in error, (
            f"{example.name} ({side}) stops with a different error than its known gap "
            f"{gap.error!r} ({gap.owner}):\n{error[-3000:]}")
    unproduced = gap.sections if error is not None else ()

    def failures_of(run):
        comparison = compare(golden["result"], run)
        return comparison, comparison.failures(example.rtol, ignoring=unproduced,
                                               section_rtol=example.section_rtol)

    comparison, failures = failures_of(ours)
    assert failures == [], (
        f"{example.name} ({side}): {len(failures)} number(s) outside tolerance "
        f"(rtol {example.rtol:g}, {example.section_rtol or {}}; max relative "
        f"{comparison.max_relative:.2e}):\n  " + "\n  ".join(failures[:20]))
    if "scalars" not in unproduced:
        assert len(comparison.pairs) > 10, "nothing was compared"
