"""The committed core goldens are exactly what TF 1.15 says today (re-recorded live).

`core_goldens/record.py` wrote them; this runs the same recorder in the oracle (each case twice,
checked for determinism) and compares with the committed files, so they can never drift from
the oracle. The initial checkpoints under core_goldens/init are inputs, not outputs: reused.
"""

import json

import pytest

from tests.estimator_bridge.core_goldens import record

pytestmark = pytest.mark.oracle


def test_design_probe_golden_is_what_tf115_computes_now():
    committed = json.loads(record.DESIGN_PROBE_GOLDEN_FILE.read_text())
    assert record.record_design_probe() == committed


def test_case_goldens_are_what_tf115_computes_now():
    committed = json.loads(record.GOLDEN_FILE.read_text())
    live = record.record()
    assert sorted(live) == sorted(committed) == sorted(record.CASES)
    for case in record.CASES:
        assert live[case] == committed[case], case
