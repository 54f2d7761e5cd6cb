"""latmon.tail_report: the report's section shows the checks first; pWCETs with intervals and
the tail figure only for a series that passes them; otherwise the reasons — for a dependent
series, a drifting one and a histogram."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib.figure import Figure
from synthetic_tails import MODELS, ar1, drifting

from latmon.model import Histogram, Series
from latmon.tail_report import TailSection


class Images:
    """Stands in for the report's image writer: records what it was given."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def __call__(self, fig: Figure, name: str, alt: str) -> str:
        assert isinstance(fig, Figure) and alt
        self.names.append(name)
        return f'<img alt="{alt}">'


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
    assert part.count("<td class=l>pass</td>") >= 4 + 2  # the four i.i.d. checks, POT's
    # 5 µs + Exp(2 µs) in ns: the 1e-6 pWCET near 5000 + 2000 ln 1e6 = 32,631 ns, far below 3 ms
    row = re.search(r"<td class=l>POT/GPD</td><td>1e-06</td><td>([\d,]+)</td>", part)
    assert row is not None and 20_000 < int(row.group(1).replace(",", "")) < 50_000
    assert "Verdict against the 3,000,000 ns deadline" in part and "FAIL" not in part
    assert images.names == ["iid / cpu0-tail"]


@pytest.mark.parametrize(
    ("label", "failed"),
    [("streaky / cpu0", "independence"), ("warming / cpu0", "identical distribution")],
)
def test_series_the_checks_reject_says_why(rendered, label: str, failed: str) -> None:
    part = _part(rendered[0], label)
    assert '<tr class="bad"><td class=l>' + failed in part
    assert re.search(r"no pWCET: the samples are not i\.i\.d\. \(failed: [^)]*" + failed, part)
    assert "pWCET per activation" not in part and "<img" not in part


def test_series_without_an_analysis_are_listed_with_the_reason(rendered) -> None:
    part = _part(rendered[0], "Series without an analysis")
    assert "<td class=l>hist / cpu0</td><td>0</td><td class=l>a histogram only: " in part
    assert "time order" in part
    assert "<td class=l>short / cpu0</td><td>100</td><td class=l>100 samples: too few" in part
