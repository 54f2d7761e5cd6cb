"""The benchmark tables in docs/report.md are generated from the recorded results
(bench/recorded/*.json, written by a full `make bench`): the page fails this test when a table
differs from the figures it was generated from, and the generator refuses a page without its
markers. The recorded figures themselves are measured by the benchmarks, never here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import doc_tables  # noqa: E402  (bench/ is not a package)


def test_report_page_tables_are_the_recorded_figures() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "doc_tables.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", sorted(doc_tables.TABLES))
def test_a_changed_figure_makes_the_tables_stale(tmp_path: Path, name: str) -> None:
    doc = doc_tables.PAGE.read_text()
    for other in doc_tables.TABLES:
        report = json.loads((doc_tables.RECORDED / f"{other}.json").read_text())
        if other == name:  # every figure of this one changed
            for r in report["results"]:
                r["value"] = r["value"] * 2 + 1
        (tmp_path / f"{other}.json").write_text(json.dumps(report))
    changed = doc_tables.page(doc, tmp_path)
    block = doc_tables.begin(name)
    assert (
        changed.split(block)[1].split(doc_tables.END)[0]
        != (doc.split(block)[1].split(doc_tables.END)[0])
    )
    assert doc_tables.page(changed) == doc  # generated again from the recorded: as committed


def test_stats_table_says_whether_the_goals_are_met() -> None:
    report = json.loads((doc_tables.RECORDED / "stats.json").read_text())
    text = doc_tables.stats_table(report)
    ratios = {r["metric"].rsplit(": ", 1)[1]: r for r in report["results"]}
    met = ratios["time"]["ratio"] <= 3 and ratios["CPU time"]["ratio"] <= 3
    assert ("— met (wall" if met else "— not met (wall") in text
    assert f"{ratios['CPU time']['ratio']:.2f}" in text


def test_a_page_without_its_markers_is_refused() -> None:
    doc = doc_tables.PAGE.read_text().replace(doc_tables.begin("stats"), "")
    with pytest.raises(doc_tables.TableError, match="expected one block"):
        doc_tables.page(doc)
