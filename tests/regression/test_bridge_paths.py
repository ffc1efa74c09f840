"""Every legacy example on current TensorFlow, held to the golden its oracle recorded.

Path (a): the unchanged script with only its TensorFlow imports swapped to
`estimator_bridge.compat` (legacy_examples/swapped.py). Path (b): the unchanged script through
`python -m estimator_bridge.run`. Both start from the golden's start state (the oracle's
model.ckpt-0, or Keras initial weights), because TF1 graph-seeded initial values cannot be
reproduced on another TensorFlow. Tolerance: the example's `rtol` (1e-6 unless the catalog
states a measured reason). Path (c), after estimator-migrate, is tested by the codemod's issue
(tests/migrate/test_regression_path_c.py) and shown by `python -m legacy_examples.compare`.

The few known differences are listed, with their owner, in known_gaps.py.
"""

import pytest

from legacy_examples.catalog import EXAMPLES
from legacy_examples.current import harvest_current, run_current
from legacy_examples.environments import ProgramFailed, program_env
from legacy_examples.golden import compare, load_golden
from legacy_examples.known_gaps import KNOWN_GAPS, Gap

pytestmark = pytest.mark.slow

CASES = [(example, path) for example in EXAMPLES for path in ("a", "b")]


@pytest.mark.parametrize("example,path", CASES, ids=[f"{e.name}-{p}" for e, p in CASES])
def test_example_matches_its_golden_on_current_tensorflow(example, path, tmp_path):
    golden = load_golden(example.golden_path)
    gap = KNOWN_GAPS.get((example.name, path), Gap(owner="-"))
    model_dir = tmp_path / "model_dir"
    try:
        ours, error = run_current(example, model_dir, path), None
    except ProgramFailed as failed:
        error = str(failed)
        ours = harvest_current(example, model_dir, env=program_env(onednn=False))

    if error is not None:
        assert gap.error is not None, f"{example.name} path ({path}) stopped:\n{error[-3000:]}"
        assert gap.error in error, (
            f"{example.name} path ({path}) stops with a different error than its known gap "
            f"{gap.error!r} ({gap.owner}):\n{error[-3000:]}")
    unproduced = gap.sections if error is not None else ()

    def failures_of(run):
        comparison = compare(golden["result"], run)
        return comparison, comparison.failures(example.rtol, ignoring=unproduced,
                                               section_rtol=example.section_rtol)

    comparison, failures = failures_of(ours)
    assert failures == [], (
        f"{example.name} path ({path}): {len(failures)} number(s) outside tolerance "
        f"(rtol {example.rtol:g}, {example.section_rtol or {}}; max relative "
        f"{comparison.max_relative:.2e}):\n  " + "\n  ".join(failures[:20]))
    if "scalars" not in unproduced:
        assert len(comparison.pairs) > 10, "nothing was compared"
