"""Figures: the data drawn equals the data computed independently from the samples."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.collections import PolyCollection

from latmon.figures.data import MAX_SPIKES
from latmon.figures.plots import (
    exceedance_figure,
    labelled,
    save,
    timeline_figure,
    violin_figure,
)
from latmon.model import Histogram, Series


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def samples(n: int = 20_000, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lat = rng.lognormal(np.log(20_000), 0.5, n).astype(np.int64)
    lat[rng.integers(0, n, 7)] *= 40  # a few spikes
    return lat


def test_distribution_is_the_exact_value_count() -> None:
    lat = samples()
    d = labelled(Series("c", "ns", columns={"latency": lat}), "c")
    assert d is not None
    values, counts = np.unique(lat, return_counts=True)
    got_v, got_c = d.values_counts()
    assert np.array_equal(got_v, values) and np.array_equal(got_c, counts)
    # cycles are scaled to ns with the clock (100 MHz: 10 ns per cycle)
    d = labelled(Series("c", "cycles", clock_hz=100_000_000, columns={"latency": lat}), "c")
    assert d is not None and np.array_equal(d.values_counts()[0], values * 10.0)


def test_distribution_of_a_histogram_uses_the_bins_lower_edges() -> None:
    h = Histogram([0, 10, 20], [10, 20, 30], [5, 0, 2], overflow=1, overflow_lo=30)
    d = labelled(Series("h", "ns", histogram=h, counters={"max": 95}), "h")
    assert d is not None
    values, counts = d.values_counts()
    assert values.tolist() == [0.0, 20.0, 30.0] and counts.tolist() == [5, 2, 1]
    assert d.dist.bin_error == 10


def test_exceedance_curve_is_the_fraction_at_or_above() -> None:
    lat = samples(5000)
    d = labelled(Series("c", "ns", columns={"latency": lat}), "c")
    assert d is not None
    fig = exceedance_figure([d])
    assert fig is not None
    line = fig.axes[0].lines[0]
    x, y = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    factor = 1e-3  # µs on the axis
    for value, frac in zip(x[::97], y[::97], strict=True):
        raw = round(value / factor)
        assert frac == pytest.approx(np.mean(lat >= raw), abs=1e-12)
    assert y[-1] == pytest.approx(np.sum(lat == lat.max()) / len(lat))  # the tail ends at 1/n
    assert fig.axes[0].get_xscale() == "log" and fig.axes[0].get_yscale() == "log"


def test_violin_bodies_follow_the_counts() -> None:
    fast = samples(20_000, 2) // 4
    slow = samples(20_000, 3)
    dists = [
        labelled(Series("f", "ns", columns={"latency": fast}), "fast"),
        labelled(Series("s", "ns", columns={"latency": slow}), "slow"),
    ]
    fig = violin_figure([d for d in dists if d is not None], deadline_ns=3_000_000)
    assert fig is not None
    ax = fig.axes[0]
    bodies = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bodies) == 2
    for i, (body, lat) in enumerate(zip(bodies, (fast, slow), strict=True)):
        vertices = body.get_paths()[0].vertices
        # the body spans the samples' range (log axis: bin centres are geometric means)
        y = vertices[:, 1] * 1e3  # µs -> ns
        widest = y[np.argmax(np.abs(vertices[:, 0] - i))]
        assert abs(np.log(widest) - np.log(np.median(lat))) < 0.6  # the bulk is at the median
        drawn = y[np.abs(vertices[:, 0] - i) > 1e-9]  # bins with samples have a width
        assert drawn.min() == pytest.approx(lat.min(), rel=0.05)  # a bin centre near the min
        assert drawn.max() == pytest.approx(lat.max(), rel=0.05)  # ... and the lone max is drawn
        assert np.max(np.abs(vertices[:, 0] - i)) == pytest.approx(0.4)  # widest bin: full width
    # median markers at the nearest-rank medians
    dots = [line for line in ax.lines if line.get_marker() == "o"]
    for dot, lat in zip(dots, (fast, slow), strict=True):
        median = np.sort(lat)[(len(lat) + 1) // 2 - 1]
        assert dot.get_ydata()[0] * 1e3 == pytest.approx(median)
    assert ax.get_yscale() == "log"


def test_timeline_marks_the_largest_samples_and_keeps_every_spike() -> None:
    lat = samples(100_000, 4)
    t = np.arange(len(lat), dtype=np.int64) * 1_000_000
    fig = timeline_figure(Series("c", "ns", columns={"t": t, "latency": lat}), "c")
    assert fig is not None
    ax = fig.axes[0]
    marks = next(line for line in ax.lines if line.get_marker() == "x")
    marked = np.sort(np.asarray(marks.get_ydata()) * 1e3)
    expected = np.sort(lat)[-MAX_SPIKES:]  # 100 samples above p99.9: the 50 largest shown
    assert marked == pytest.approx(expected)
    # the band's top is the bucket maxima: the largest sample is on it, not averaged away
    band = next(c for c in ax.collections if isinstance(c, PolyCollection))
    assert np.max(band.get_paths()[0].vertices[:, 1]) * 1e3 == pytest.approx(lat.max())
    assert ax.get_xlabel().startswith("time")


def test_save_writes_png_and_svg() -> None:
    fig = violin_figure([labelled(Series("a", "ns", columns={"latency": samples(100)}), "a")])  # type: ignore[list-item]
    assert fig is not None
    assert save(fig, "svg", close=False).lstrip().startswith(b"<?xml")
    assert save(fig, "png").startswith(b"\x89PNG")


def test_png_figures_draw_a_histograms_overflow_up_to_the_recorded_maximum() -> None:
    """cyclictest -H 200 (tests/data/third-party), thread 0: 14 samples above 200 µs, the max
    2,836 µs. The violin's red bar and the exceedance's end are at the max, not at 200 µs; the
    series' histogram shows the overflow as a dotted bar from 200 µs to the max."""
    import re
    from pathlib import Path

    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_rgba

    from latmon.figures.plots import exceedance_figure, histogram_figure, labelled, violin_figure
    from latmon.inputs.ingest import load

    path = Path(__file__).parent / "data" / "third-party" / "cyclictest-histofall.txt"
    text = path.read_text()
    overflow = int(re.search(r"^# Histogram Overflows: (\d+)", text, re.M).group(1))  # type: ignore[union-attr]
    largest = int(re.search(r"^# Max Latencies: (\d+)", text, re.M).group(1))  # µs
    (run,) = load(path)
    series = run.series[0]
    d = labelled(series, "thread0")
    assert d is not None
    n = d.n
    fig = exceedance_figure([d], 1_000_000)
    assert fig is not None
    marks = [ln for ln in fig.axes[0].lines if ln.get_marker() == "x"]
    assert [(float(x), float(y)) for ln in marks for x, y in ln.get_xydata()] == [(largest, 1 / n)]
    dotted = [ln for ln in fig.axes[0].lines if ln.get_linestyle() == ":"]
    assert dotted[0].get_xydata().tolist() == [[200, overflow / n], [largest, 1 / n]]
    fig = violin_figure([d], 1_000_000)
    assert fig is not None
    red = list(to_rgba("#b33"))
    lines = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    reds = [c for c in lines if c.get_color().tolist() == [red]]
    tops = {round(float(seg[0][1]), 6) for c in reds for seg in c.get_segments()}
    assert tops == {largest}
    fig = histogram_figure(series, "h")
    assert fig is not None
    (bar,) = [
        c
        for c in fig.axes[0].collections
        if isinstance(c, LineCollection) and c.get_linestyle()[0][1] is not None
    ]
    ((start, height), (end, _)) = bar.get_segments()[0].tolist()
    assert (start, end, height) == (200, largest, overflow)
