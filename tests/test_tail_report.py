"""latmon.tail.report: the report's section shows the checks first; pWCETs with intervals and
the tail figure only for a series that passes them; otherwise the reasons — for a dependent
series, a drifting one and a histogram."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib.figure import Figure as StaticFigure
from synthetic_tails import MODELS, ar1, drifting

from latmon.figures.plotly_style import Figure
from latmon.model import Histogram, Series
from latmon.tail.report import StaticMaker, TailSection


class Images:
    """Stands in for the report's figure writer: records the interactive figures it was given
    and draws their static versions (what --figures writes)."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.statics: list[str] = []

    def __call__(self, fig: Figure | None, statics: StaticMaker | None = None) -> str:
        if fig is None:
            return ""
        assert isinstance(fig, Figure) and fig.title
        self.names.append(fig.name)
        if statics is not None:
            for name, static in statics():
                assert isinstance(static, StaticFigure)
                self.statics.append(name)
        return f'<div class="plot" data-name="{fig.name}"></div>'


def series(latency: np.ndarray, unit: str = "ns", clock_hz: int | None = None) -> Series:
    t = np.arange(len(latency), dtype=np.int64) * 1000
    return Series("cpu0", unit, clock_hz, columns={"t": t, "latency": latency})


@pytest.fixture(scope="module")
def rendered() -> tuple[str, Images]:
    rng = np.random.default_rng(31)
    images = Images()
    # the valid series in cycles of 100 MHz: every value in the section is in ns
    cycles = np.rint(MODELS["exponential"].draw(rng, 5000) / 10).astype(np.int64)
    inputs = [
        ("iid / cpu0", series(cycles, "cycles", 100_000_000)),
        ("streaky / cpu0", series(ar1(rng, 5000, 0.3))),
        ("warming / cpu0", series(drifting(rng, 5000, 2000.0))),
        ("short / cpu0", series(MODELS["exponential"].draw(rng, 100))),
        (
            "hist / cpu0",
            Series("cpu0", "ns", histogram=Histogram(np.array([0]), np.array([10]), np.array([9]))),
        ),
    ]
    html = TailSection(deadline_ns=3_000_000).render(inputs, images)
    return html, images


def _part(html: str, label: str) -> str:
    start = html.index(f"<h3>{label}</h3>")
    end = html.find("<h3>", start + 1)
    return html[start : end if end > 0 else len(html)]


def test_valid_series_gets_checks_pwcets_and_its_figure(rendered) -> None:
    html, images = rendered
    part = _part(html, "iid / cpu0")
    assert part.index("independence: Ljung-Box") < part.index("pWCET per activation")
    assert part.count('<td class="l">pass</td>') >= 4 + 2  # the four i.i.d. checks, POT's
    # 5 µs + Exp(2 µs) in ns: the 1e-6 pWCET near 5000 + 2000 ln 1e6 = 32,631 ns, far below 3 ms;
    # shown in µs (the column's unit), the exact ns in the cell's title
    row = re.search(
        r'<th scope="row" class="key l">POT/GPD</th><td>1e-06</td>'
        r'<td title="([\d,]+) ns">([\d.,]+)</td>',
        part,
    )
    assert row is not None and 20_000 < int(row.group(1).replace(",", "")) < 50_000
    assert float(row.group(2)) == pytest.approx(int(row.group(1).replace(",", "")) / 1000, 1e-3)
    assert "pWCET (µs)" in part
    assert "Verdict against the 3 ms deadline" in part and "FAIL" not in part
    assert images.names == ["tail-iid_cpu0"] and images.statics == ["iid / cpu0-tail"]


@pytest.mark.parametrize(
    ("label", "failed"),
    [("streaky / cpu0", "independence"), ("warming / cpu0", "identical distribution")],
)
def test_series_the_checks_reject_says_why(rendered, label: str, failed: str) -> None:
    part = _part(rendered[0], label)
    assert '<tr class="bad"><th scope="row" class="key l">' + failed in part
    assert re.search(r"no pWCET: the samples are not i\.i\.d\. \(failed: [^)]*" + failed, part)
    assert "pWCET per activation" not in part and 'class="plot"' not in part


def test_series_without_an_analysis_are_listed_with_the_reason(rendered) -> None:
    part = _part(rendered[0], "Series without an analysis")
    row = '<th scope="row" class="key l">{}</th><td>{}</td><td class="l">{}'
    assert row.format("hist / cpu0", 0, "a histogram only: ") in part
    assert "time order" in part
    assert row.format("short / cpu0", 100, "100 samples: too few") in part
