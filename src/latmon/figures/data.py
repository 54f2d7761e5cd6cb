"""The figure data under both renderers (matplotlib in :mod:`latmon.figures.plots`, Plotly in
:mod:`latmon.figures.interactive`): what a figure shows is decided here once, so that the PNG
and the HTML report never disagree — the latency-over-time buckets, the rule that marks a
sample as a spike, and the display unit of latencies.

- **latency over time**: every sample when a series has at most ``2 * TIMELINE_BUCKETS``, else
  the minimum and the maximum of each of ``TIMELINE_BUCKETS`` buckets in time order (a spike is
  never averaged or thinned away);
- **spikes**: the samples in the top 0.1 % (or above the deadline), at most ``MAX_SPIKES`` of
  them, the largest kept; a sample at the median is no spike (a flat series has none) unless it
  misses the deadline;
- **display unit**: :func:`latmon.tables.unit_for`, the rule of the tables (ns, µs, ms: at most
  four integer digits);
- **a histogram's overflow** (values above its range, each somewhere between the overflow's
  lower bound and the recorded maximum): the exceedance falls from k/n at the bound to 1/n at
  the maximum along a dotted line, and the histogram shows the k values as a dotted bar over
  that span, not as a peak at the bound; the largest value (for the unit and the deadline) is
  the recorded maximum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from latmon.analysis import chunks
from latmon.analysis.distribution.counts import Distribution
from latmon.model import Series
from latmon.tables import unit_for

#: Buckets of a latency-over-time plot; longer series are drawn as each bucket's min and max.
TIMELINE_BUCKETS = 2000
#: Samples marked one by one in a latency-over-time plot, at most.
MAX_SPIKES = 50


def display_unit(largest_ns: float) -> tuple[float, str]:
    """Factor from ns to the unit that shows values up to ``largest_ns`` (the tables' rule,
    :func:`latmon.tables.unit_for`), and the unit's name."""
    name, ns_per_unit = unit_for(largest_ns)
    return 1.0 / ns_per_unit, name


def display_scale(series: Series, largest: float) -> tuple[Fraction, str]:
    """Factor from the series' unit to its display unit for values up to ``largest`` (in the
    series' unit), and the unit's name."""
    to_ns = series.ns_per_unit
    name, ns_per_unit = unit_for(largest * float(to_ns))
    return to_ns / ns_per_unit, name


@dataclass
class Overflow:
    """The values of a distribution above its histogram's range, in the distribution's unit:
    ``count`` of ``n`` lie in [``lo``, ``hi``]; ``hi`` is the recorded maximum (None: nobody
    recorded it). Where each of them lies is unknown, but one of them is the maximum."""

    lo: int
    count: int
    hi: int | None
    n: int

    def says(self, unit: str, factor: float) -> str:
        """What is known about them, for a hover text, in ``unit`` (``factor`` from ns)."""
        top = "not recorded" if self.hi is None else f"{self.hi * factor:,.6g} {unit}"
        return (
            f"{self.count:,} of {self.n:,} samples above the histogram's range: each ≥ "
            f"{self.lo * factor:,.6g} {unit}, the largest {top}; where the others lie is "
            "not recorded"
        )


def overflow_of(dist: Distribution) -> Overflow | None:
    """A distribution's values in open bins above all others (its histogram's overflow)."""
    over = dist.overflow() if dist.n else None
    if over is None:
        return None
    lo, count, hi = over
    return Overflow(lo, count, hi, dist.n)


def values_without_overflow(dist: Distribution) -> tuple[np.ndarray, np.ndarray]:
    """A distribution's distinct values and counts (int64) without its overflow, which a
    renderer draws on its own: its values are not at its lower bound, where the convention
    puts them."""
    values, counts = dist.values_and_counts(overflow=False)
    return values.astype(np.int64), counts.astype(np.int64)


def largest_value(dist: Distribution) -> float:
    """The largest value to show (ns): the recorded maximum, else the largest value by the
    convention (an overflow's lower bound)."""
    top = dist.maximum()
    return float(top.hi if top.hi is not None else top.lo if top.lo is not None else 0)


@dataclass
class Timeline:
    """What a latency-over-time trace draws: x (s or sample index) and y (ns) of the envelope,
    and the marked samples."""

    x: np.ndarray
    y: np.ndarray
    spike_x: np.ndarray
    spike_y: np.ndarray
    spike_index: np.ndarray
    decimated: bool
    x_is_time: bool
    #: a decimated series' buckets: where each starts (as x) and its lowest and highest sample
    #: (ns), for a renderer that draws the envelope as a band
    band_x: np.ndarray = field(default_factory=lambda: np.zeros(0))
    band_low: np.ndarray = field(default_factory=lambda: np.zeros(0))
    band_high: np.ndarray = field(default_factory=lambda: np.zeros(0))


def timeline_points(
    series: Series, deadline_ns: int | None = None, buckets: int = TIMELINE_BUCKETS
) -> Timeline | None:
    """The points of a latency-over-time plot (see the module's docstring), in ns."""
    if not series.has_samples:
        return None
    to_ns = float(series.ns_per_unit)
    raw = series.latency  # read in place: nothing of the series' size is copied
    n = len(raw)
    t = series.columns.get("t")
    x_is_time = t is not None

    def x_at(index: np.ndarray) -> np.ndarray:
        if t is None:
            return index.astype(np.float64)
        return np.asarray((t[index].astype(np.float64) * to_ns - float(t[0]) * to_ns) / 1e9)

    def ns_at(index: np.ndarray) -> np.ndarray:
        return np.asarray(raw[index].astype(np.float64) * to_ns)

    decimated = n > 2 * buckets
    if decimated:
        edges = np.linspace(0, n, buckets + 1).astype(np.int64)
        starts = edges[:-1]
        # the index of each bucket's min and max, drawn in time order within the bucket
        segments = np.split(raw, edges[1:-1])
        lo = np.array([int(np.argmin(s)) for s in segments]) + starts
        hi = np.array([int(np.argmax(s)) for s in segments]) + starts
        idx = np.sort(np.concatenate((lo, hi)))
        band = (x_at(starts), ns_at(lo), ns_at(hi))
    else:
        idx = np.arange(n)
        band = (np.zeros(0), np.zeros(0), np.zeros(0))
    px, py = x_at(idx), ns_at(idx)
    k = max(1, n // 1000)  # the top 0.1 %
    threshold = float(chunks.largest(raw, k).min()) * to_ns
    if deadline_ns is not None:
        threshold = min(threshold, float(deadline_ns))
    # a sample at the median is no spike, however many share the maximum (a flat series has
    # none), unless it misses the deadline; the median is needed only when at least half the
    # samples reach the threshold (else it lies below the threshold)
    at_least = chunks.indices(raw, lambda c: c.astype(np.float64) * to_ns >= threshold)
    if 2 * len(at_least) >= n:
        median = float(np.median(raw)) * to_ns
        at_least = at_least[raw[at_least].astype(np.float64) * to_ns > median]
    if deadline_ns is not None:
        late = chunks.indices(raw, lambda c: c.astype(np.float64) * to_ns > deadline_ns)
        at_least = np.union1d(at_least, late)
    spikes = at_least
    if len(spikes) > MAX_SPIKES:
        values = raw[spikes]
        spikes = np.sort(spikes[np.argsort(values, kind="stable")[-MAX_SPIKES:]])
    return Timeline(px, py, x_at(spikes), ns_at(spikes), spikes, decimated, x_is_time, *band)
