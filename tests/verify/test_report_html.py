"""verify --html: one static file, checked by parsing it (no browser in the suite)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from verify.report_html import Runs, line_chart, render_html, write_html


class Page(HTMLParser):
    """The tags, attributes and text of a page, and anything that would load from elsewhere."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)

    def all(self, tag: str) -> list[dict]:
        return [attrs for name, attrs in self.tags if name == tag]

    def external(self) -> list[str]:
        """src/href values and tags that would fetch something (there must be none)."""
        found = [f"<{tag}>" for tag, _ in self.tags if tag in ("script", "link", "img", "iframe", "object")]
        found += [value for _, attrs in self.tags for key, value in attrs.items()
                  if key in ("src", "href") and value]
        return found


def harvest(loss: list[float], evaluation: float, outputs: list[float]) -> dict:
    return {"scalars": {"loss": {str(step + 1): value for step, value in enumerate(loss)}},
            "evaluation": {"eval": {"accuracy": {str(len(loss)): evaluation}}},
            "outputs": {"predictions.tsv": outputs}}


DOCUMENT = {
    "program": {"script": "/src/train.py", "args": ["--model_dir={model_dir}"]}, "oracle": "tf115",
    "oracle_reason": "train.py:3 uses tf.contrib", "tensorflow": "1.15.0", "exit_code": 1,
    "oracle_runs": [{"model_dir": "a"}, {"model_dir": "b"}, {"model_dir": "c"}],
    "diagnosis": ["migrated: training phase: `loss` first diverges at step 2 <b>"],
    "sides": [{"side": "runner", "phases": [{"phase": "training", "status": "PASS", "notes": [],
                                              "sections": {"scalars": {"compared": 3, "outside": 0}},
                                              "worst_variables": []}]},
              {"side": "migrated", "phases": [{"phase": "training", "status": "FAIL", "notes": [],
                                                "sections": {"scalars": {"compared": 3, "outside": 2}},
                                                "worst_variables": [{"name": "dense/kernel", "difference": 0.05,
                                                                     "allowed": 1e-4}]}]}]}


def test_the_page_draws_the_oracle_band_each_side_and_the_tables_with_nothing_external():
    runs = Runs(oracle=[harvest([2.0, 1.5, 1.2], 0.5, [0.1, 0.9]), harvest([2.0, 1.52, 1.21], 0.5, [0.1, 0.9]),
                        harvest([2.0, 1.49, 1.19], 0.5, [0.1, 0.9])],
                sides={"runner": {"training": harvest([2.0, 1.51, 1.2], 0.5, [0.1, 0.9])},
                       "migrated": {"training": harvest([2.0, 1.7, 1.5], 0.25, [0.2, 0.8])}})
    page = Page(render_html(DOCUMENT, runs, findings="train.py:3: MIG306 tf.contrib.foo kept"))
    assert page.external() == []
    charts = page.all("svg")
    assert len(charts) == 2  # loss, and the evaluation's accuracy
    assert len(page.all("polygon")) == 2  # the oracle's band in each
    names = [attrs["data-name"] for attrs in page.all("polyline")]
    assert names[:3] == ["oracle run 1", "runner", "migrated"]
    text = "".join(page.text)
    assert "does not reproduce the original (exit 1)" in text
    assert "dense/kernel" in text and "5.00e-02" in text
    assert "first diverges at step 2 <b>" in text  # escaped, shown as text
    assert "MIG306 tf.contrib.foo kept" in text
    assert "evaluation.eval.accuracy.3" in text and "outputs.predictions.tsv.0" in text


def test_a_chart_of_a_flat_series_still_has_a_scale():
    chart = line_chart("lr", [{1: 0.1, 2: 0.1}], {"runner": {1: 0.1, 2: 0.1}})
    assert "NaN" not in chart and "inf" not in chart and chart.count("<polyline") == 2


def test_write_html_reads_the_harvests_verify_left_in_the_work_folder(tmp_path: Path):
    work = tmp_path / "work"
    (work / "oracle").mkdir(parents=True)
    (work / "runner").mkdir()
    document = dict(DOCUMENT, work_dir=str(work), oracle_runs=[{"model_dir": str(work / "oracle" / "run1")}],
                    sides=DOCUMENT["sides"][:1])
    (work / "oracle" / "run1.harvest.json").write_text(json.dumps(harvest([2.0, 1.5], 0.5, [0.3])))
    (work / "runner" / "training.harvest.json").write_text(json.dumps(harvest([2.0, 1.6], 0.5, [0.3])))
    (work / "migrate.log").write_text("1 file(s) scanned")
    write_html(document, tmp_path / "out" / "report.html")
    page = Page((tmp_path / "out" / "report.html").read_text())
    assert [attrs["data-name"] for attrs in page.all("polyline")][:2] == ["oracle run 1", "runner"]
    assert "1 file(s) scanned" in "".join(page.text)


@pytest.mark.oracle
@pytest.mark.slow
def test_verify_html_on_a_real_run(tmp_path):
    from tests.verify.test_verify_live import PROGRAM, verify

    target = tmp_path / "report.html"
    code, text, report = verify(tmp_path, "--html", str(target), steps=6)
    assert code == 0, text
    page = Page(target.read_text())
    assert page.external() == []
    names = [attrs["data-name"] for attrs in page.all("polyline")]
    assert {"oracle run 1", "runner", "migrated"} <= set(names)
    assert "reproduces the original (exit 0)" in "".join(page.text)
    assert (tmp_path / "work" / "verify.html").exists() is False  # --html replaces the default place
    assert PROGRAM.name in "".join(page.text)
