"""The committed core goldens are exactly what TF 1.15 says today (re-recorded live).

`core_goldens/record.py` wrote them; this runs the same recorder in the oracle (each case twice,
checked for determinism) and compares with the committed files, so they can never drift from
the oracle. The initial checkpoints under core_goldens/init are inputs, not outputs: reused.
Exactly on the CPU a case was recorded on; on another one, TF 1.15's own last bits move, and the
live run is held to what the bridge is held to (tests/support/goldens.py).
"""

import json

import pytest

from tests.estimator_bridge.core_goldens import record
from tests.estimator_bridge.test_core_regression import RTOL, assert_same_run
from tests.support.goldens import assert_probe_run_matches, recorded_here
from tests.support.numbers import assert_close

pytestmark = pytest.mark.oracle


def test_design_probe_golden_is_what_tf115_computes_now():
    committed = json.loads(record.DESIGN_PROBE_GOLDEN_FILE.read_text())
    assert_probe_run_matches(record.record_design_probe(), committed, rtol=RTOL)


def test_case_goldens_are_what_tf115_computes_now():
    committed = json.loads(record.GOLDEN_FILE.read_text())
    live = record.record()
    assert sorted(live) == sorted(committed) == sorted(record.CASES)
    for case in record.CASES:
        if recorded_here(committed[case]):
            assert live[case] == committed[case], case
        else:  # another CPU: TF 1.15's own last bits move (tests/support/goldens.py)
            assert_same_run(live[case], committed[case])
            assert sorted(live[case]["eval_to_end"]) == sorted(committed[case]["eval_to_end"])
            for name, value in committed[case]["eval_to_end"].items():
                assert_close(live[case]["eval_to_end"][name], value, rtol=RTOL, what=f"{case} eval to end {name}")
