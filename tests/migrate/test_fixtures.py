"""Before/after fixture pairs (written in 2018 style), noop lists and idempotence over every fixture.

`fixtures/<family>/<case>.before.py` migrates to `<case>.after.py` with exactly the findings in
`<case>.findings` (`line:column CODE`). `fixtures/noop/*.py` must come back byte-identical.
"""

from pathlib import Path

import pytest

from migrate.engine import migrate_text
from migrate.findings import Severity

FIXTURES = Path(__file__).parent / "fixtures"
PAIRS = sorted(FIXTURES.rglob("*.before.py"))
NOOPS = sorted((FIXTURES / "noop").glob("*.py"))


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name.split('.')[0]}"


def _findings(findings) -> list[str]:
    return [f"{f.location.line}:{f.location.column + 1} {f.code}" for f in findings]


def test_there_are_fixtures_for_every_family():
    assert {p.parent.name for p in PAIRS} == {"estimator", "layers", "contrib", "tf1", "keras", "cluster"}
    assert len(NOOPS) >= 5


@pytest.mark.parametrize("before", PAIRS, ids=_id)
def test_before_migrates_to_after(before: Path):
    after = before.with_name(before.name.replace(".before.py", ".after.py"))
    expected_findings = before.with_name(before.name.replace(".before.py", ".findings")).read_text().split("\n")
    migrated, findings = migrate_text(before.read_text(), str(before), verify=True)
    assert migrated == after.read_text()
    assert _findings(findings) == [line for line in expected_findings if line]


@pytest.mark.parametrize("before", PAIRS, ids=_id)
def test_migrating_the_output_again_changes_nothing_and_adds_no_findings(before: Path):
    first, first_findings = migrate_text(before.read_text(), str(before))
    second, second_findings = migrate_text(first, str(before))
    assert second == first
    assert {f.code for f in second_findings} <= {f.code for f in first_findings} | {"MIG101"}
    assert len([f for f in second_findings if f.code != "MIG101"]) <= len(first_findings)


@pytest.mark.parametrize("source", NOOPS, ids=_id)
def test_noop_sources_come_back_unchanged(source: Path):
    migrated, findings = migrate_text(source.read_text(), str(source))
    assert migrated == source.read_text()
    assert all(f.severity == Severity.INFO for f in findings)
