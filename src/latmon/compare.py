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

import numpy as np
from scipy import stats as sps

from latmon.formatting import fmt
from latmon.model import Run, Series
from latmon.stats import nearest_rank, quantile_ci_ranks

QUANTILES = {"p50": 0.5, "p99": 0.99, "p99_9": 0.999}


@dataclass
class Distribution:
    """Sorted distinct values (ns) with their counts."""

    values: np.ndarray
    counts: np.ndarray
    exact: bool = True
    bin_error: int = 0
    sum_exact: int | None = None

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    @property
    def cum(self) -> np.ndarray:
        return np.cumsum(self.counts)

    def at_rank(self, rank: int) -> int:
        """The rank-th smallest value (1-based)."""
        return int(self.values[int(np.searchsorted(self.cum, rank))])

    def quantile(self, q: float) -> int:
        return self.at_rank(nearest_rank(q, self.n))

    def quantile_ci(self, q: float, confidence: float) -> tuple[int | None, int | None]:
        """Distribution-free CI of the q-quantile: order statistics at binomial ranks; None on
        a side that n samples cannot bound."""
        lo, hi = quantile_ci_ranks(q, self.n, confidence)
        return (
            None if lo is None else self.at_rank(lo),
            None if hi is None else self.at_rank(hi),
        )

    @property
    def mean(self) -> float:
        if self.sum_exact is not None:
            return self.sum_exact / self.n
        return float(np.dot(self.values.astype(np.float64), self.counts) / self.n)

    @property
    def var(self) -> float:
        if self.n < 2:
            return math.nan
        d = self.values.astype(np.float64) - self.mean
        return float(np.dot(d * d, self.counts) / (self.n - 1))


def distribution_of(series: list[Series]) -> Distribution:
    """Pool the series (samples, or histograms where there are no samples) in ns."""
    values, counts = [], []
    exact = True
    bin_error = 0
    for s in series:
        scale = s.ns_per_unit
        if s.has_samples:
            v = s.latency
            if scale != 1:
                v = (v.astype(object) * scale).astype(np.float64).round().astype(np.int64)
            u, c = np.unique(v, return_counts=True)
            values.append(u)
            counts.append(c)
        elif s.histogram is not None and s.histogram.total:
            exact = False
            h = s.histogram
            hi = int(s.counters.get("max", int(h.hi.max()) - 1 if len(h.hi) else 0))
            upper = np.minimum(h.hi - 1, hi)
            extra_v = [hi] if h.overflow else []
            extra_c = [h.overflow] if h.overflow else []
            if h.underflow:
                extra_v.append(int(s.counters.get("min", h.underflow_hi or 0)))
                extra_c.append(h.underflow)
            v = np.concatenate((upper, np.asarray(extra_v, dtype=np.int64)))
            values.append(np.round(v * float(scale)).astype(np.int64))
            counts.append(np.concatenate((h.count, np.asarray(extra_c, dtype=np.int64))))
            bin_error = max(bin_error, round(h.max_bin_width * float(scale)))
    if not values:
        return Distribution(np.empty(0, np.int64), np.empty(0, np.int64))
    allv = np.concatenate(values)
    allc = np.concatenate(counts)
    u, inverse = np.unique(allv, return_inverse=True)
    c = np.bincount(inverse, weights=allc, minlength=len(u)).astype(np.int64)
    keep = c > 0
    total = int(np.dot(u[keep].astype(object), c[keep].astype(object))) if exact else None
    return Distribution(u[keep], c[keep], exact, bin_error, total)


def a12(x: Distribution, y: Distribution) -> float:
    """Vargha-Delaney A12: P(X > Y) + P(X = Y)/2, exactly, from the two distributions."""
    cy = np.concatenate(([0], np.cumsum(y.counts)))
    below = cy[np.searchsorted(y.values, x.values, side="left")]
    upto = cy[np.searchsorted(y.values, x.values, side="right")]
    wins = below.astype(np.float64) + 0.5 * (upto - below)
    return float(np.dot(x.counts.astype(np.float64), wins) / (x.n * y.n))


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
    row: dict[str, object] = field(default_factory=dict)


def group_runs(runs: list[Run]) -> list[Group]:
    """One group per scenario label, in first-seen order: all repetitions and CPUs (series named
    cpuN) of a scenario pooled; any other series (a hardware channel such as T1, T2) is a group
    of its own, "label / series", pooled over repetitions only — channels that measure different
    things are never mixed."""
    order: list[str] = []
    members: dict[str, list[Series]] = {}
    run_count: dict[str, set[int]] = {}
    for run in runs:
        for s in run.series:
            if s.is_derived:
                continue
            key = run.label if s.name.startswith("cpu") else f"{run.label} / {s.name}"
            if key not in members:
                order.append(key)
                members[key] = []
                run_count[key] = set()
            members[key].append(s)
            run_count[key].add(id(run))
    return [
        Group(key, distribution_of(members[key]), len(run_count[key]), len(members[key]))
        for key in order
    ]


def compare(
    groups: list[Group],
    baseline: str | None = None,
    deadline_ns: int | None = None,
    confidence: float = 0.95,
) -> list[dict[str, object]]:
    """One row per group: statistics, deadline verdict, differences to the baseline."""
    if not groups:
        return []
    base = next((g for g in groups if g.label == baseline), None) if baseline else groups[0]
    if base is None:
        names = ", ".join(g.label for g in groups)
        raise ValueError(f"no scenario named {baseline!r} to compare with; there are {names}")
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    rows: list[dict[str, object]] = []
    for g in groups:
        d = g.dist
        row: dict[str, object] = {"scenario": g.label, "runs": g.runs, "n": d.n}
        if not d.n:
            rows.append(row)
            continue
        mean, lo, hi = d.mean, int(d.values[0]), int(d.values[-1])
        stdev = math.sqrt(d.var) if d.n > 1 else math.nan
        row.update(
            {
                "min": lo,
                "mean": mean,
                "median": d.quantile(0.5),
                "max": hi,
                "stdev": stdev,
                "jitter": max(hi - mean, mean - lo),
                "rsd_pct": 100 * stdev / mean if mean else math.nan,
                "exact": d.exact,
                "bin_error": d.bin_error,
            }
        )
        for key, q in QUANTILES.items():
            row[key] = d.quantile(q)
            row[f"{key}_ci"] = list(d.quantile_ci(q, confidence))
        if deadline_ns is not None:
            above = int(d.counts[d.values > deadline_ns].sum())
            row.update(
                {
                    "deadline": deadline_ns,
                    "above_deadline": above,
                    "above_fraction": above / d.n,
                    "margin": deadline_ns - hi,
                    "verdict": "pass" if above == 0 else "FAIL",
                }
            )
        if g is not base and base.dist.n:
            b = base.dist
            diff = mean - b.mean
            se = math.sqrt(d.var / d.n + b.var / b.n) if d.n > 1 and b.n > 1 else math.nan
            row["vs"] = base.label
            row["d_mean"] = diff
            row["d_mean_ci"] = [diff - z * se, diff + z * se]
            for key, q in QUANTILES.items():
                a_lo, a_hi = d.quantile_ci(q, confidence)
                b_lo, b_hi = b.quantile_ci(q, confidence)
                row[f"d_{key}"] = d.quantile(q) - b.quantile(q)
                row[f"d_{key}_ci"] = [
                    None if a_lo is None or b_hi is None else a_lo - b_hi,
                    None if a_hi is None or b_lo is None else a_hi - b_lo,
                ]
            row["a12"] = a12(d, b)
            row["effect"] = a12_words(float(row["a12"]))  # type: ignore[arg-type]
        rows.append(row)
    return rows


# -- the comparison table (latmon compare, the report) ---------------------------------------

COLUMNS = [
    ("scenario", "scenario"),
    ("runs", "runs"),
    ("n", "n"),
    ("min", "min"),
    ("mean", "avg"),
    ("median", "median"),
    ("p99", "p99"),
    ("p99_ci", "p99 95% CI"),
    ("p99_9", "p99.9"),
    ("max", "max"),
    ("jitter", "jitter"),
    ("stdev", "stdev"),
    ("rsd_pct", "%RSD"),
]
DEADLINE_COLUMNS = [("above_deadline", "> deadline"), ("margin", "margin"), ("verdict", "verdict")]
VERSUS_COLUMNS = [
    ("d_p50", "Δp50"),
    ("d_p50_ci", "Δp50 CI"),
    ("d_p99", "Δp99"),
    ("d_p99_ci", "Δp99 CI"),
    ("a12", "A12"),
    ("effect", "effect"),
]


def columns_for(rows: list[dict[str, object]], with_deadline: bool) -> list[tuple[str, str]]:
    """(key, heading) of the comparison table: the deadline and difference columns when they
    apply."""
    columns = COLUMNS + (DEADLINE_COLUMNS if with_deadline else [])
    return columns + (VERSUS_COLUMNS if len(rows) > 1 else [])


def _cell(value: object, key: str) -> str:
    if isinstance(value, list):
        return f"[{fmt(value[0])}, {fmt(value[1])}]"
    if key == "a12" and isinstance(value, float):
        return f"{value:.3f}"
    if key == "rsd_pct" and isinstance(value, float):
        return fmt(value, 2)
    if isinstance(value, float) and math.isnan(value):
        return ""
    return fmt(value) if value is not None else ""


def table_cells(rows: list[dict[str, object]], columns: list[tuple[str, str]]) -> list[list[str]]:
    """The rows of :func:`compare` as formatted table cells."""
    return [[_cell(r.get(k), k) for k, _ in columns] for r in rows]
