"""The report's data: every series analysed, grouped by measure, the configurations ranked."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from latmon.analysis.compare import Group, compare, group_runs, measures
from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.distribution.ranks import nearest_rank
from latmon.analysis.files import series_stats
from latmon.analysis.stats import CONFIDENCE, PERCENTILES, Summary
from latmon.model import Measure, Run, Series, measure_of
from latmon.report.stream import StreamedSeries
from latmon.tables import say_ns


@dataclass
class SeriesResult:
    """A series with its statistics (native unit) and the same in ns (the report's unit)."""

    run: Run
    series: Series
    native: Summary
    ns: Summary
    #: the series' exact distribution (native unit), as its statistics were computed from
    dist: Distribution
    #: what the report draws from a series streamed from its run file (no samples in memory)
    streamed: StreamedSeries | None = None

    @property
    def label(self) -> str:
        return f"{self.run.label} / {self.series.name}"

    @property
    def measure(self) -> Measure:
        return measure_of(self.run, self.series)


def analyse(
    runs: list[Run],
    deadline_ns: int | None = None,
    streamed: dict[int, StreamedSeries] | None = None,
) -> list[SeriesResult]:
    """The statistics of every series, by the same path as ``latmon stats`` (a series in
    ``streamed``, by id: the statistics of its streamed pass)."""
    streamed = streamed or {}
    out = []
    for run in runs:
        for series in run.series:
            if series.is_derived:
                continue
            done = streamed.get(id(series))
            if done is not None:
                r = done.stats
            else:
                (r,) = series_stats([replace(run, series=[series])], CONFIDENCE, deadline_ns)
                r.run = run
            ns = r.summary.in_unit("ns", series.ns_per_unit) if series.unit != "ns" else r.summary
            out.append(SeriesResult(run, series, r.summary, ns, r.dist, done))
    return out


STAGE_COUNTERS = (
    "matched",
    "no_start",
    "no_expire",
    "no_irq",
    "no_waking",
    "no_switch",
    "disorder",
    "sum",
    "armed_late",
)


def stage_stat(values: np.ndarray, stat: str) -> float | int:
    """Mean, or a nearest-rank percentile (p50, p99) or the max of one stage column."""
    if stat == "mean":
        return float(values.mean())
    if stat == "max":
        return int(values.max())
    ordered = np.sort(values)
    return int(ordered[nearest_rank(float(stat[1:]) / 100, len(ordered)) - 1])


# -- what the report is made of ----------------------------------------------------------------


@dataclass
class MeasureData:
    """The comparable groups of one measure, their comparison rows (best first in ``ranked``)
    and the series behind them."""

    measure: Measure
    groups: list[Group]
    rows: list[dict[str, object]]
    results: list[SeriesResult]
    ranked: list[dict[str, object]] = field(default_factory=list)

    @property
    def failed(self) -> list[dict[str, object]]:
        return [r for r in self.rows if r.get("verdict") == "FAIL"]

    @property
    def anchor(self) -> str:
        return "m-" + re.sub(r"[^a-z0-9]+", "-", self.measure.label.lower()).strip("-")


@dataclass
class ReportData:
    """Everything the sections draw from, computed once."""

    runs: list[Run]
    results: list[SeriesResult]
    measures: list[MeasureData]
    deadline_ns: int | None


def worst_case(row: dict[str, object]) -> Fraction:
    """The highest possible maximum of a comparison row (ns)."""
    s = row["summary"]
    assert isinstance(s, Summary)
    lo, hi = s.bounds("max")
    return Fraction(hi if hi is not None else lo if lo is not None else 0)


def rank_key(row: dict[str, object]) -> tuple[int, int, Fraction, float]:
    """The order of the verdict table: by rank (:func:`rank_rows`), then the configurations
    that meet the deadline before those that miss it, the lowest worst case, the lowest p99."""
    p99 = row.get("p99")
    rank = row.get("rank")
    return (
        rank if isinstance(rank, int) else 0,
        1 if row.get("verdict") == "FAIL" else 0,
        worst_case(row),
        float(p99) if isinstance(p99, int | float) else float("inf"),
    )


def common_tail(rows: list[dict[str, object]]) -> str | None:
    """The highest percentile whose 95 % interval every row's samples bound on both sides (the
    one the configurations are compared on); None when some row bounds none."""
    order = list(PERCENTILES)
    keys = []
    for row in rows:
        s = row["summary"]
        assert isinstance(s, Summary)
        key = tail_key(s)
        if key is None:
            return None
        keys.append(key)
    return min(keys, key=order.index) if keys else None


def clearly_below(a: dict[str, object], b: dict[str, object], key: str) -> bool:
    """``a``'s interval of percentile ``key`` lies wholly below ``b``'s: the samples say that
    ``a`` is better, not chance."""
    sa, sb = a["summary"], b["summary"]
    assert isinstance(sa, Summary) and isinstance(sb, Summary)
    a_hi, b_lo = sa.ci(key)[1], sb.ci(key)[0]
    return a_hi is not None and b_lo is not None and a_hi < b_lo


def rank_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows with samples, each with its ``rank`` = 1 + the configurations clearly better:
    one that meets the deadline is better than one that misses it; between two on the same
    side, one is better only when its interval of the common tail percentile
    (:func:`common_tail`, stored as ``rank_by``) lies wholly below the other's. Overlapping
    intervals share a rank — a tie, not a "best" named on one extreme sample. Best first."""
    with_samples = [r for r in rows if r.get("n")]
    key = common_tail(with_samples)
    for row in with_samples:
        fails = row.get("verdict") == "FAIL"
        better = 0
        for other in with_samples:
            if other is row:
                continue
            other_fails = other.get("verdict") == "FAIL"
            if other_fails != fails:
                better += fails
            elif key is not None and clearly_below(other, row, key):
                better += 1
        row["rank"] = 1 + better
        row["rank_by"] = key
    return sorted(with_samples, key=rank_key)


def report_data(
    runs: list[Run],
    deadline_ns: int | None,
    streamed: dict[int, StreamedSeries] | None = None,
) -> ReportData:
    results = analyse(runs, deadline_ns, streamed)
    groups = group_runs(runs, {id(r.series): r.dist for r in results})
    rows = compare(groups, None, deadline_ns)
    out = []
    for m in measures(groups):
        mine = [(g, r) for g, r in zip(groups, rows, strict=True) if g.measure == m]
        data = MeasureData(
            m,
            [g for g, _ in mine],
            [r for _, r in mine],
            [r for r in results if r.measure == m],
        )
        data.ranked = rank_rows(data.rows)
        out.append(data)
    # with a deadline, the measures closest to it first (a missed one before all others: the
    # highest worst case); without, in the order of the inputs
    if deadline_ns is not None:
        out.sort(key=lambda d: -max((worst_case(r) for r in d.ranked), default=Fraction(0)))
    return ReportData(runs, results, out, deadline_ns)


def tail_key(summary: Summary) -> str | None:
    """The highest percentile whose 95 % interval the samples bound on both sides."""
    best = None
    for key in PERCENTILES:
        lo, hi = summary.ci(key)
        if lo is not None and hi is not None and summary.value(key) is not None:
            best = key
    return best


def ns_cell(value: object) -> str:
    """A latency in ns as people say it (:func:`latmon.tables.say_ns`)."""
    return say_ns(None if value is None else float(value))  # type: ignore[arg-type]
