"""The report's interactive figures: what they draw equals what is computed here from the
samples, every maximum is kept, and the deadline never stretches an axis."""

from __future__ import annotations

import json
import re
from itertools import pairwise

import numpy as np
import plotly.io as pio
import pytest

from latmon.analysis.distribution.counts import Distribution
from latmon.figures.data import MAX_SPIKES, TIMELINE_BUCKETS, timeline_points
from latmon.figures.interactive import (
    EXCEEDANCE_TAIL,
    Dist,
    bin_index,
    exceedance_figure,
    exceedance_points,
    histogram_edges,
    histogram_figure,
    histogram_steps,
    timeline_figure,
)
from latmon.figures.plotly_style import DASHES, PALETTE, spec_json, style, ticks_125
from latmon.model import Run, Series
from latmon.report.html import HtmlReport


def spiky(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    lat = rng.lognormal(np.log(20_000), 0.3, n).astype(np.int64)
    lat[rng.choice(n, 40, replace=False)] = rng.integers(1_000_000, 9_000_000, 40)
    return lat


def test_decimated_timeline_keeps_every_bucket_maximum() -> None:
    lat = spiky(1_000_000)
    s = Series("cpu0", "ns", columns={"latency": lat})
    tl = timeline_points(s)
    assert tl is not None and tl.decimated and len(tl.x) <= 2 * TIMELINE_BUCKETS
    edges = np.linspace(0, len(lat), TIMELINE_BUCKETS + 1).astype(np.int64)
    maxima = np.maximum.reduceat(lat, edges[:-1])
    minima = np.minimum.reduceat(lat, edges[:-1])
    drawn = tl.y.astype(np.int64)
    assert set(maxima.tolist()) <= set(drawn.tolist())
    assert set(minima.tolist()) <= set(drawn.tolist())
    assert drawn.max() == lat.max() and np.all(np.diff(tl.x) >= 0)  # in time order
    # the marked spikes are the largest samples, with their index and exact value
    top = np.sort(lat)[-MAX_SPIKES:]
    assert sorted(tl.spike_y.astype(np.int64).tolist()) == top.tolist()
    assert np.array_equal(lat[tl.spike_index], tl.spike_y.astype(np.int64))


def test_short_series_are_drawn_sample_by_sample_in_seconds() -> None:
    lat = np.array([5, 7, 100, 6], dtype=np.int64)
    t = np.array([0, 1_000_000_000, 2_000_000_000, 3_000_000_000], dtype=np.int64)
    tl = timeline_points(Series("x", "ns", columns={"t": t, "latency": lat}))
    assert tl is not None and not tl.decimated and tl.x_is_time
    assert tl.x.tolist() == [0, 1, 2, 3] and tl.y.tolist() == [5, 7, 100, 6]
    assert tl.spike_y.tolist() == [100]


def test_a_flat_series_has_no_spike_unless_it_misses_the_deadline() -> None:
    flat = Series("x", "ns", columns={"latency": np.array([7_740] * 49 + [3_490])})
    tl = timeline_points(flat)
    assert tl is not None and len(tl.spike_y) == 0
    late = timeline_points(flat, deadline_ns=5_000)
    assert late is not None and late.spike_y.tolist() == [7_740] * 49  # all 49 above it


def test_exceedance_thinned_but_exact_at_the_tail() -> None:
    lat = spiky(200_000)
    values, counts = np.unique(lat, return_counts=True)
    x, y = exceedance_points(values, counts)
    assert len(x) < len(values)
    n = len(lat)
    for v, p in zip(x.tolist(), y.tolist(), strict=True):
        assert p == np.count_nonzero(lat >= v) / n
    assert np.array_equal(x[-EXCEEDANCE_TAIL:], values[-EXCEEDANCE_TAIL:])
    assert x[-1] == lat.max() and y[-1] == 1 / n * np.count_nonzero(lat == lat.max())


def test_histogram_counts_every_sample_once() -> None:
    lat = spiky(50_000)
    d = Dist("a", Distribution.from_samples(lat))
    fig = histogram_figure([d], "h", None)
    assert fig is not None and fig.meta["log"]  # a heavy tail: geometric bins, log axis
    (trace,) = json.loads(spec_json(fig))["data"]
    x, y = np.asarray(_decoded(trace["x"])), np.asarray(_decoded(trace["y"]))
    bins = np.asarray(_decoded(trace["customdata"]), dtype=np.float64).reshape(-1, 2)
    counted = x == bins[:, 0]  # a bin's count at its lower edge (not where a run closes)
    assert y[counted].sum() == len(lat)
    # a gap (NaN) wherever empty bins lie between two runs: no line crosses them
    gaps = np.flatnonzero(np.isnan(y))
    assert len(gaps) > 0 and np.all(bins[gaps + 1, 0] > bins[gaps - 1, 1])
    edges = histogram_edges(int(lat.min()), int(lat.max()), log=False, resolution=10)
    assert np.all(edges % 10 == 0) and edges[0] <= lat.min() < lat.max() < edges[-1]


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize(
    "values", [[2**63 - 1], [0, 2**63 - 1], [100, 200, 2**63 - 1], [-(2**63), 5, 2**63 - 1]]
)
def test_histogram_bins_reach_the_largest_int64(values: list[int], log: bool) -> None:
    """The latmon-log allows 2^63 - 1: the edges stay int64, ascending, and every value falls
    in a bin (the last bin holds its upper edge)."""
    v = np.asarray(values, np.int64)
    edges = histogram_edges(int(v.min()), int(v.max()), log=log)
    e = edges.tolist()  # Python ints: np.diff would wrap across the int64 range
    assert edges.dtype == np.int64 and all(b > a for a, b in pairwise(e))
    index = bin_index(edges, v)
    assert np.all(index >= 0) and np.all(index < len(edges) - 1)
    assert np.all(edges[index] <= v)


def test_histogram_steps_break_at_empty_bins() -> None:
    edges = np.array([0.0, 1, 2, 3, 4, 5])
    x, y, bins = histogram_steps(edges, np.array([2, 3, 0, 0, 1]))
    np.testing.assert_array_equal(x, [0, 1, 2, np.nan, 4, 5])
    np.testing.assert_array_equal(y, [2, 3, 3, np.nan, 1, 1])
    np.testing.assert_array_equal(bins[:, 1], [1, 2, 2, np.nan, 5, 5])
    assert [len(a) for a in histogram_steps(edges, np.zeros(5, dtype=int))] == [0, 0, 0]


def _decoded(value: object) -> list[float]:
    """A plotly array: a list, or a typed array {dtype, bdata} (base64)."""
    if isinstance(value, dict):
        import base64

        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"]).tolist()
    assert isinstance(value, list)
    return value


def _shapes_and_notes(spec: dict) -> tuple[list, list]:
    layout = spec["layout"]
    return layout.get("shapes", []), [a["text"] for a in layout.get("annotations", [])]


def test_deadline_far_above_the_data_is_a_note_not_a_line() -> None:
    lat = np.full(1000, 20_000, dtype=np.int64)
    lat[500] = 40_000
    s = Series("cpu0", "ns", columns={"latency": lat})
    far = json.loads(spec_json(timeline_figure([("a", s)], "t", 3_000_000)))  # type: ignore[arg-type]
    shapes, notes = _shapes_and_notes(far)
    assert shapes == [] and any("deadline 3 ms" in n and "above" in n for n in notes)
    near = json.loads(spec_json(timeline_figure([("a", s)], "t", 50_000)))  # type: ignore[arg-type]
    shapes, _ = _shapes_and_notes(near)
    assert len(shapes) == 1 and shapes[0]["y0"] == 50.0  # in µs: the unit of the figure
    assert near["layout"]["yaxis"]["title"]["text"] == "latency (µs)"


def test_styles_are_distinct_and_labels_escaped() -> None:
    styles = [style(i) for i in range(len(PALETTE) * len(DASHES))]
    assert len(set(styles)) == len(styles)
    d = Dist("<b>x</b>", Distribution.from_samples(np.arange(1, 100, dtype=np.int64)))
    text = spec_json(exceedance_figure([d], "e", None))  # type: ignore[arg-type]
    assert "<b>" not in text and "</" not in text and "&lt;b&gt;x&lt;/b&gt;" in text


def test_ticks_125_label_a_short_log_axis_with_round_values() -> None:
    assert ticks_125(14.6, 2110.0) == [20, 50, 100, 200, 500, 1000, 2000]
    assert ticks_125(1.0, 10.0) == [1, 2, 5, 10]
    # less than two round values inside: the ends themselves
    assert ticks_125(3.0, 4.0) == [3.0, 4.0]
    assert ticks_125(0.0, 10.0) == []


def test_the_page_carries_the_template_once_and_no_figure_its_own() -> None:
    """Every figure is drawn with plotly_white (the page's script gives it to each one), and
    the template is plotly's own, written once."""
    s = Series("cpu0", "ns", columns={"latency": spiky(20_000)})
    page = HtmlReport("r", None).render([Run({"source": "t"}, [s])])
    found = re.findall(r'<script type="application/json" id="plotly-template">(.*?)</script>', page)
    assert len(found) == 1
    assert json.loads(found[0]) == pio.templates["plotly_white"].to_plotly_json()
    specs = re.findall(r'<script type="application/json" id="spec-\d+">(.*?)</script>', page)
    assert len(specs) >= 3
    assert all("template" not in json.loads(spec)["layout"] for spec in specs)


def _cyclictest_overflow() -> tuple[Dist, int, int, int, int]:
    """cyclictest -H 200, thread 0 (tests/data/third-party): 14 of 1,000 samples above the
    200 µs histogram, the recorded max 2,836 µs. The figures' figures are read off the file."""
    from pathlib import Path

    from latmon.inputs.ingest import load

    path = Path(__file__).parent / "data" / "third-party" / "cyclictest-histofall.txt"
    text = path.read_text()
    overflow = int(re.search(r"^# Histogram Overflows: (\d+)", text, re.M).group(1))  # type: ignore[union-attr]
    largest = int(re.search(r"^# Max Latencies: (\d+)", text, re.M).group(1)) * 1000  # type: ignore[union-attr]
    n = int(re.search(r"^# Total: (\d+)", text, re.M).group(1)) + overflow  # type: ignore[union-attr]
    (run,) = load(path)
    dist = Distribution.from_series(run.series[0]).in_ns()
    return Dist("thread0", dist), overflow, largest, n, 200_000


def test_a_histograms_overflow_runs_to_the_recorded_maximum_and_the_deadline_is_a_line() -> None:
    """The overflow's samples lie between 200 µs and the max (2.836 ms): the exceedance ends
    on a dotted line from k/n at 200 µs to 1/n at the max, the histogram draws them as a
    dotted bar over that span (not as a peak at 200 µs), and a 1 ms deadline, below the max,
    is a line in both, not a note that it lies above the data."""
    d, overflow, largest, n, bound = _cyclictest_overflow()
    exceedance = json.loads(spec_json(exceedance_figure([d], "e", 1_000_000)))  # type: ignore[arg-type]
    curve, dotted = exceedance["data"]
    assert dotted["line"]["dash"] == "dot" and dotted["legendgroup"] == curve["legendgroup"]
    assert _decoded(dotted["x"]) == [bound / 1000, largest / 1000]  # µs
    assert dotted["y"] == [overflow / n, 1 / n]
    assert _decoded(curve["x"])[-1] == bound / 1000
    assert _decoded(curve["y"])[-1] == pytest.approx(overflow / n)
    shapes, notes = _shapes_and_notes(exceedance)
    assert len(shapes) == 1 and shapes[0]["x0"] == 1000.0 and not any("above" in t for t in notes)
    hist = json.loads(spec_json(histogram_figure([d], "h", 1_000_000)))  # type: ignore[arg-type]
    bar, trace = hist["data"]
    assert _decoded(bar["x"]) == [bound / 1000, largest / 1000] and bar["y"] == [overflow] * 2
    assert f"{overflow} of {n:,} samples" in bar["hovertemplate"]
    x, y = np.asarray(_decoded(trace["x"])), np.asarray(_decoded(trace["y"]))
    bins = np.asarray(_decoded(trace["customdata"]), dtype=np.float64).reshape(-1, 2)
    assert y[x == bins[:, 0]].sum() == n - overflow  # the overflow is not also a peak
    shapes, _ = _shapes_and_notes(hist)
    assert len(shapes) == 1


def test_percentile_labels_break_at_the_series_and_slant_when_long() -> None:
    from latmon.figures.interactive import TICK_CHARACTERS, percentile_figure

    stats = {"min": 1000.0, "p50": 2000.0, "max": 9000.0}
    short = [("a.txt / cpu0", stats), ("a.txt / cpu1", stats)]
    spec = json.loads(spec_json(percentile_figure(short, "p", None)))  # type: ignore[arg-type]
    axis = spec["layout"]["xaxis"]
    assert axis["ticktext"] == ["a.txt<br>cpu0", "a.txt<br>cpu1"] and axis["tickangle"] == 0
    name = "x" * (TICK_CHARACTERS // 4 + 1) + ".txt"
    long = [(f"{name} / thread{i}", stats) for i in range(4)]
    spec = json.loads(spec_json(percentile_figure(long, "p", None)))  # type: ignore[arg-type]
    assert spec["layout"]["xaxis"]["tickangle"] == -30
    assert spec["layout"]["xaxis"]["tickvals"] == [label for label, _ in long]


def test_percentiles_in_an_overflow_are_one_open_marker_at_its_bound() -> None:
    from latmon.figures.interactive import AT_LEAST, percentile_figure

    exact = {"min": 1000.0, "p50": 2000.0, "p99": 5000.0, "max": 9000.0}
    over = {"min": 1000.0, "p50": 2000.0, "p99": None, "max": 3_000_000.0}
    over |= {"p99" + AT_LEAST: 200_000.0, "p99_9" + AT_LEAST: 200_000.0}
    spec = json.loads(spec_json(percentile_figure([("a", exact), ("b", over)], "p", None)))  # type: ignore[arg-type]
    (marks,) = [t for t in spec["data"] if t["name"] == "≥ (overflow)"]
    assert marks["x"] == ["b"] and _decoded(marks["y"]) == [200.0]  # µs
    assert marks["customdata"] == ["p99, p99.9"] and marks["marker"]["symbol"].endswith("-open")
    (p99,) = [t for t in spec["data"] if t["name"] == "p99"]
    assert p99["x"] == ["a"]  # no value drawn where only a bound is known
