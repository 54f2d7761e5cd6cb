"""Comparing scenarios: pooled statistics per group, differences to a baseline with
confidence intervals, the Vargha-Delaney A12 effect size, and a deadline verdict.

With a million samples any significance test calls a 10 ns difference "significant"; what a
real-time engineer needs is how large the difference is and how sure we are of it:

* **percentile CIs** are distribution-free: the ranks of the order statistics that bracket the
  q-quantile with the given confidence come from the binomial distribution B(n, q)
  (Hahn & Meeker); no bootstrap, exact for any n, valid on quantised data;
* the **CI of a percentile difference** combines the two intervals conservatively
  ([lo_a - hi_b, hi_a - lo_b], at least the stated confidence);
* the **CI of the mean difference** is Welch's normal interval;
* **A12** = P(X > Y) + P(X = Y) / 2 for X from the scenario and Y from the baseline: 0.5 is no
  difference, 0.56 / 0.64 / 0.71 are the conventional small / medium / large effects
  (and 0.44 / 0.36 / 0.29 the other way).

Histogram inputs are compared by their bins' upper values (the values are then known to within
the bin width, which the table states).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from latmon.analysis.distribution.counts import Distribution
from latmon.analysis.stats import PERCENTILES, Summary, number, stat_cell, summarize
from latmon.model import Measure, Run, Series, measure_of
from latmon.tables import Cell, Column, Table, plain

QUANTILES = {"p50": 0.5, "p99": 0.99, "p99_9": 0.999}
#: two-sided normal quantiles of the usual confidences (Welch's interval of the mean difference)
_Z = {0.9: 1.6448536269514722, 0.95: 1.959963984540054, 0.99: 2.5758293035489004}


def distribution_of(
    series: list[Series], known: dict[int, Distribution] | None = None
) -> Distribution:
    """Pool the series (samples, or histograms where there are no samples) into one
    distribution in ns. ``known``: the distributions already built, by ``id`` of their
    series (each series is counted once however many groups it is pooled into)."""
    if known is None:
        known = {}
    parts = []
    for s in series:
        if id(s) not in known:
            known[id(s)] = Distribution.from_series(s)
        parts.append(known[id(s)])
    return Distribution.pool(parts).in_ns()


def a12(x: Distribution, y: Distribution) -> float:
    """Vargha-Delaney A12: P(X > Y) + P(X = Y)/2, exactly (integer counts), from the two
    distributions."""
    xv, xc = x.values_and_counts()
    yv, yc = y.values_and_counts()
    cy = np.concatenate(([0], np.cumsum(yc)))
    below = cy[np.searchsorted(yv, xv, side="left")]
    upto = cy[np.searchsorted(yv, xv, side="right")]
    # 2·(wins) = 2·below + ties, as exact integers
    twice = sum(
        int(c) * (2 * int(b) + int(u) - int(b))
        for c, b, u in zip(xc.tolist(), below.tolist(), upto.tolist(), strict=True)
    )
    return float(Fraction(twice, 2 * x.n * y.n))


def a12_words(a: float) -> str:
    d = abs(a - 0.5)
    size = "negligible" if d < 0.06 else "small" if d < 0.14 else "medium" if d < 0.21 else "large"
    if size == "negligible":
        return size
    return f"{size}, {'higher' if a > 0.5 else 'lower'}"


@dataclass
class Group:
    label: str
    dist: Distribution
    runs: int
    series: int
    #: what its series measure (every series of a group measures the same)
    measure: Measure = field(default_factory=lambda: Measure("latency", "unspecified"))
    row: dict[str, object] = field(default_factory=dict)
    #: one distribution per run (repetition) of the group, in run order
    per_run: list[Distribution] = field(default_factory=list)


def _per_cpu(series: Series) -> bool:
    return series.name.startswith("cpu") or "cpu" in series.meta


def group_runs(runs: list[Run], known: dict[int, Distribution] | None = None) -> list[Group]:
    """Comparable groups, in first-seen order: first by what the series measure
    (:func:`latmon.model.measure_of`: quantity and path; series of different measures are
    never pooled or compared), then by scenario label: all repetitions and CPUs of a scenario
    pooled. A scenario with several other series of one measure (hardware channels) has a group
    "label / series" per series, pooled over repetitions only. ``known``: distributions the
    caller has built already, by ``id`` of their series (:func:`distribution_of`)."""
    order: list[tuple[Measure, str, str]] = []
    members: dict[tuple[Measure, str, str], list[Series]] = {}
    run_count: dict[tuple[Measure, str, str], set[int]] = {}
    by_run: dict[tuple[Measure, str, str], dict[int, list[Series]]] = {}
    names: dict[tuple[Measure, str], set[str]] = {}
    for run in runs:
        for s in run.series:
            if s.is_derived:
                continue
            m = measure_of(run, s)
            part = "" if _per_cpu(s) else s.name
            names.setdefault((m, run.label), set()).add(part)
            key = (m, run.label, part)
            if key not in members:
                order.append(key)
                members[key] = []
                run_count[key] = set()
            members[key].append(s)
            run_count[key].add(id(run))
            by_run.setdefault(key, {}).setdefault(id(run), []).append(s)
    groups = []
    built: dict[int, Distribution] = dict(known or {})  # each series' distribution, once
    for key in order:
        m, label, part = key
        shown = f"{label} / {part}" if part and len(names[(m, label)]) > 1 else label
        per_run = [distribution_of(series, built) for series in by_run[key].values()]
        groups.append(
            Group(
                shown,
                distribution_of(members[key], built),
                len(run_count[key]),
                len(members[key]),
                m,
                per_run=per_run,
            )
        )
    # the groups of one measure together, measures in first-seen order
    first = {m: i for i, (m, _, _) in reversed(list(enumerate(order)))}
    return sorted(groups, key=lambda g: first[g.measure])


def measures(groups: list[Group]) -> list[Measure]:
    """The measures of ``groups``, in order."""
    return list(dict.fromkeys(g.measure for g in groups))


def _z(confidence: float) -> float:
    if confidence in _Z:
        return _Z[confidence]
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + confidence / 2)


def compare(
    groups: list[Group],
    baseline: str | None = None,
    deadline_ns: int | None = None,
    confidence: float = 0.95,
) -> list[dict[str, object]]:
    """One row per group: statistics (the same :func:`latmon.analysis.stats.summarize` as latmon
    stats), deadline verdict, differences to the baseline of its measure: the group named
    ``baseline`` where that measure has one, else the measure's first group. Groups of different
    measures
    are never differenced."""
    if not groups:
        return []
    if baseline and not any(g.label == baseline for g in groups):
        names = ", ".join(dict.fromkeys(g.label for g in groups))
        raise ValueError(f"no scenario named {baseline!r} to compare with; there are {names}")
    bases: dict[Measure, Group] = {}
    for g in groups:
        if g.measure not in bases or (g.label == baseline and bases[g.measure].label != baseline):
            bases[g.measure] = g
    z = _z(confidence)
    summaries = {id(g): summarize(g.dist, PERCENTILES, confidence, deadline_ns) for g in groups}
    rows: list[dict[str, object]] = []
    for g in groups:
        s = summaries[id(g)]
        base = bases[g.measure]
        row: dict[str, object] = {
            "scenario": g.label,
            "quantity": g.measure.quantity,
            "path": g.measure.path,
            "runs": g.runs,
            "n": s.count,
        }
        row["summary"] = s
        if not s.count:
            rows.append(row)
            continue
        values = s.as_dict()
        row.update({k: values[k] for k in ("min", "mean", "median", "max", "stdev", "jitter")})
        row["rsd_pct"] = values["rsd_pct"]
        row["exact"] = s.exact
        row["bin_error"] = s.bin_error
        for key in QUANTILES:
            row[key] = number(s.value(key))  # type: ignore[arg-type]
            row[f"{key}_ci"] = [number(b) for b in s.ci(key)]
        row.update(s.range_dict())
        reps = _repetition_p99(g)
        if reps is not None:
            row["rep_p99"] = [number(reps[0]), number(reps[1])]
        if s.deadline is not None:
            d = s.deadline_dict()
            row.update({k: d[k] for k in ("deadline", "above_deadline", "above_fraction")})
            row.update({"margin": d["margin"], "verdict": d["verdict"]})
        b = summaries[id(base)]
        if g is not base and b.count:
            diff = s.mean - b.mean  # type: ignore[operator]
            var_a, var_b = s.variance, b.variance
            se = (
                math.sqrt(float(var_a / s.count + var_b / b.count))
                if var_a is not None and var_b is not None
                else math.nan
            )
            row["vs"] = base.label
            row["d_mean"] = float(diff)
            row["d_mean_ci"] = [float(diff) - z * se, float(diff) + z * se]
            for key in QUANTILES:
                a_lo, a_hi = s.ci(key)
                b_lo, b_hi = b.ci(key)
                va, vb = s.value(key), b.value(key)
                row[f"d_{key}"] = (
                    None if va is None or vb is None else number(Fraction(va) - Fraction(vb))
                )
                row[f"d_{key}_ci"] = [
                    None if a_lo is None or b_hi is None else number(a_lo - b_hi),
                    None if a_hi is None or b_lo is None else number(a_hi - b_lo),
                ]
            row["a12"] = a12(g.dist, base.dist)
            row["effect"] = a12_words(float(row["a12"]))  # type: ignore[arg-type]
            mine, theirs = _repetition_p99(g), _repetition_p99(base)
            if (mine is None or theirs is None) and len(g.per_run) > 1 and len(base.per_run) > 1:
                # repeated, but a repetition's p99 cannot be placed (beyond a histogram)
                row["effect"] = "none called: a repetition's p99 is beyond its histogram"
            if mine is not None and theirs is not None:
                # every repetition's p99 against every repetition's p99 of the baseline
                lo, hi = mine[0] - theirs[1], mine[1] - theirs[0]
                row["d_p99_reps"] = [number(lo), number(hi)]
                if lo <= 0 <= hi:
                    row["effect"] = "none shown: repetitions overlap"
                else:
                    side = "higher" if lo > 0 else "lower"
                    row["effect"] = f"p99 {side} in every pair of repetitions; A12: {row['effect']}"
        rows.append(row)
    return rows


def _repetition_p99(g: Group) -> tuple[Fraction, Fraction] | None:
    """The lowest and highest p99 of the group's repetitions (runs), or None with fewer than
    two runs or a p99 a run cannot place (an overflow bin)."""
    if len(g.per_run) < 2:
        return None
    values = []
    for d in g.per_run:
        if not d.n:
            return None
        v = d.percentile(0.99).value
        if v is None:
            return None
        values.append(Fraction(v))
    return min(values), max(values)


def json_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """The rows of :func:`compare` without their Summary objects (for JSON)."""
    return [{k: v for k, v in r.items() if k != "summary"} for r in rows]


# -- the comparison table (latmon compare, the report) ---------------------------------------

COLUMNS = [
    Column("scenario", "scenario", "l"),
    Column("runs", "runs"),
    Column("n", "n"),
    Column("min", "min", unit="ns"),
    Column("mean", "avg", unit="ns"),
    Column("median", "median", unit="ns"),
    Column("p99", "p99", unit="ns"),
    Column("p99_ci", "p99 95% CI", unit="ns"),
    Column("p99_9", "p99.9", unit="ns"),
    Column("max", "max", unit="ns"),
    Column("jitter", "jitter", unit="ns"),
    Column("stdev", "stdev", unit="ns"),
    Column("rsd_pct", "%RSD"),
]
DEADLINE_COLUMNS = [
    Column("above_deadline", "> deadline"),
    Column("margin", "margin", unit="ns", title="deadline - max: negative when it is missed"),
    Column("verdict", "verdict", "l"),
]
MEASURE_COLUMN = Column("measure", "measures", "l")
VERSUS_COLUMNS = [
    Column("d_p50", "Δp50", unit="ns"),
    Column("d_p50_ci", "Δp50 CI", unit="ns"),
    Column("d_p99", "Δp99", unit="ns"),
    Column("d_p99_ci", "Δp99 CI", unit="ns"),
    Column("a12", "A12"),
    Column(
        "d_p99_reps",
        "Δp99 over repetitions",
        unit="ns",
        title="each repetition's p99 against each of the baseline's: lowest and highest "
        "difference; an effect is called only where this excludes 0",
    ),
    Column("effect", "effect", "l"),
]
REPETITION_COLUMN = Column(
    "rep_p99", "p99 per repetition", unit="ns", title="lowest and highest p99 of the repetitions"
)
_STATS = ("min", "mean", "median", "p99", "p99_ci", "p99_9", "max", "jitter", "stdev", "rsd_pct")


def comparison_table(rows: list[dict[str, object]], with_deadline: bool) -> Table:
    """The comparison as a :class:`latmon.tables.Table`; statistics cells are the ones
    ``latmon stats`` prints (:func:`latmon.analysis.stats.stat_cell`)."""
    columns = COLUMNS + (DEADLINE_COLUMNS if with_deadline else [])
    if any("rep_p99" in r for r in rows):
        at = next(i for i, c in enumerate(columns) if c.key == "p99_ci") + 1
        columns = [*columns[:at], REPETITION_COLUMN, *columns[at:]]
    versus = [c for c in VERSUS_COLUMNS if c.key != "d_p99_reps" or any(c.key in r for r in rows)]
    columns = columns + (versus if any("vs" in r for r in rows) else [])
    several = len({(r.get("quantity"), r.get("path")) for r in rows}) > 1
    if several:
        columns = [columns[0], MEASURE_COLUMN, *columns[1:]]
    table = Table(columns)
    for r in rows:
        s = r["summary"]
        assert isinstance(s, Summary)
        cells: dict[str, object] = {"scenario": r["scenario"], "runs": r["runs"], "n": r["n"]}
        if several:
            cells["measure"] = f"{r.get('quantity')}, {r.get('path')}"
        if s.count:
            cells.update({k: stat_cell(s, k) for k in _STATS})
        for c in DEADLINE_COLUMNS:
            if c.key in r:
                cells[c.key] = r[c.key]
        for key in ("rep_p99", "d_p99_reps"):
            if key in r:
                bounds = r[key]
                assert isinstance(bounds, list)
                lo, hi = bounds
                cells[key] = Cell.made_of(
                    "[{0}, {1}]", lo, hi, plain_text=f"{plain(lo)};{plain(hi)}"
                )
        for key in ("d_p50", "d_p99"):
            if key in r:
                cells[key] = r[key]
                bounds = r[f"{key}_ci"]
                assert isinstance(bounds, list)
                lo, hi = bounds
                cells[f"{key}_ci"] = Cell.made_of(
                    "[{0}, {1}]", lo, hi, plain_text=f"{plain(lo)};{plain(hi)}"
                )
        if "a12" in r:
            a = float(r["a12"])  # type: ignore[arg-type]
            cells["a12"] = Cell(f"{a:.3f}", repr(a))
            cells["effect"] = r["effect"]
        table.add(cells)
    return table
