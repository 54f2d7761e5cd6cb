"""Fleet data from Prometheus (or a compatible store: Thanos, Mimir, VictoriaMetrics) as runs.

latmon's exporters (latprobe --metrics, docs/fleet.md) serve a classic histogram
``latmon_latency_seconds_bucket{le=...}`` per CPU or core with integer counts. This module asks
the store's HTTP API for the raw scraped values over a time range (a range selector in an
instant query: the samples as stored, no PromQL extrapolation) and turns each series into an
exact integer histogram:

- the count of a bucket over [start, end] is its reset-corrected growth, as Prometheus's own
  ``increase()`` counts it but without extrapolation: the sum of the steps between consecutive
  scrapes, a step to a lower value being a restart of the exporter that counts its new value;
- the growth is taken from the last scrape at or before ``start`` (within the lookback); a
  series with no scrape before ``start`` began inside the range (a new exporter: its counters
  start at 0) and counts from 0;
- a bucket ``le=B`` (value <= B seconds, B a whole number of nanoseconds) is the latmon bin
  [previous bound + 1 ns, B + 1 ns); ``+Inf`` is the overflow.

One run per value of the ``by`` label (default ``host``), one series per remaining label set
(``cpu3`` or ``core0``), the counters (samples, deadline violations, missed periods, ...) as the
series' counters.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from latmon import __version__
from latmon.errors import LatmonError
from latmon.model import Histogram, Run, Series

HISTOGRAM = "latmon_latency_seconds_bucket"
#: counters beside the histogram, by their name in a run's series
COUNTERS = {
    "samples": "latmon_samples_total",
    "missed_periods": "latmon_missed_periods_total",
    "deadline_violations": "latmon_deadline_violations_total",
    "timeouts": "latmon_timeouts_total",
    "overruns": "latmon_overruns_total",
    "lost": "latmon_lost_samples_total",
    "ignored": "latmon_ignored_acks_total",
}
#: labels that name a series within a run (the first one present wins)
SERIES_LABELS = ("cpu", "core")
#: labels of the scrape, not of the measurement
SCRAPE_LABELS = ("__name__", "le", "instance", "job")

Fetch = Callable[[str, Mapping[str, str]], Any]


def http_fetch(base_url: str, timeout: float = 30.0) -> Fetch:
    """A fetch function for the store at ``base_url``: GET /api/v1/PATH, the answer's data."""
    base = base_url.rstrip("/")

    def fetch(path: str, params: Mapping[str, str]) -> Any:
        url = f"{base}/api/v1/{path}?{urllib.parse.urlencode(params)}"
        try:
            with urllib.request.urlopen(url, timeout=timeout) as r:
                body = json.load(r)
        except urllib.error.HTTPError as error:
            try:
                detail = json.load(error).get("error", "")
            except (ValueError, OSError):
                detail = ""
            raise LatmonError(
                f"{base_url}: the store answered {error.code} {error.reason}"
                + (f": {detail}" if detail else "")
            ) from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise LatmonError(
                f"{base_url}: cannot reach the Prometheus API ({reason}); check the URL "
                "(e.g. http://prometheus:9090)"
            ) from None
        except ValueError:
            raise LatmonError(
                f"{base_url}: the answer is not JSON; is this a Prometheus API?"
            ) from None
        if not isinstance(body, dict) or body.get("status") != "success":
            raise LatmonError(f"{base_url}: query failed: {body.get('error', body)}")
        return body["data"]

    return fetch


_RELATIVE = re.compile(r"^(now)?-(\d+(?:\.\d+)?)(s|m|h|d)$")
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_time(text: str, now: float) -> float:
    """A time as Unix seconds: 'now', '-30m' / 'now-2h' (before now), Unix seconds, or ISO 8601
    ('2026-11-23T17:00:00Z'; without a zone: UTC)."""
    t = text.strip()
    if t == "now":
        return now
    m = _RELATIVE.match(t)
    if m:
        return now - float(m.group(2)) * _SECONDS[m.group(3)]
    try:
        return float(t)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(t.replace("Z", "+00:00"))
    except ValueError:
        raise LatmonError(
            f"time {text!r}: give now, -30m (before now), Unix seconds or ISO 8601 "
            "such as 2026-11-23T17:00:00Z"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def growth(
    points: Sequence[tuple[float, float]], start: float, end: float, restarts: set[float]
) -> int:
    """The reset-corrected growth over (start, end] of a counter's scraped (time, value) points
    in time order: from its last value at or before ``start`` (none: it began at 0 inside the
    range), a step to a lower value or a scrape in ``restarts`` starting again from 0."""
    before = [v for t, v in points if t <= start]
    prev = before[-1] if before else 0.0
    total = 0.0
    for t, v in points:
        if t <= start or t > end:
            continue
        total += v if (v < prev or t in restarts) else v - prev
        prev = v
    return round(total)


def le_to_ns(le: str) -> int | None:
    """A bucket bound in seconds as whole nanoseconds (None for +Inf)."""
    if le in ("+Inf", "Inf", "inf"):
        return None
    try:
        value = float(le)
    except ValueError:
        raise LatmonError(f"bucket bound le={le!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise LatmonError(f"bucket bound le={le!r} is not a latency")
    return round(value * 1e9)


@dataclass
class _Group:
    """Everything scraped for one series (one label set without le)."""

    labels: dict[str, str]
    buckets: dict[str, int] = field(default_factory=dict)  # le -> count over the range
    counters: dict[str, int] = field(default_factory=dict)


def _key(labels: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, v) for k, v in labels.items() if k not in SCRAPE_LABELS))


def _exporter(labels: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The labels of the exporter a series comes from (a restart restarts all its series)."""
    return tuple((k, v) for k, v in _key(labels) if k not in SERIES_LABELS)


def _range_points(
    fetch: Fetch, metric: str, selector: str, start: float, end: float, lookback: float
) -> list[tuple[dict[str, str], list[tuple[float, float]]]]:
    """Each series of ``metric{selector}`` scraped in [start - lookback, end]: its labels and
    its (time, value) points."""
    window = max(1, math.ceil(end - start + lookback))
    inner = selector.strip()
    if inner.startswith("{") and inner.endswith("}"):
        inner = inner[1:-1]
    data = fetch("query", {"query": f"{metric}{{{inner}}}[{window}s]", "time": f"{end:.3f}"})
    if data.get("resultType") != "matrix":
        raise LatmonError(f"{metric}: expected a range of samples, got {data.get('resultType')}")
    out = []
    for series in data["result"]:
        points = [(float(t), float(v)) for t, v in series.get("values", [])]
        if points:  # (a native histogram has none: the classic buckets hold the counts)
            out.append((dict(series["metric"]), points))
    return out


def _restarts(points: Sequence[tuple[float, float]]) -> set[float]:
    """The scrapes at which latmon_start_time_seconds changed: the exporter restarted."""
    return {t for (_, a), (t, b) in itertools.pairwise(points) if a != b}


def pull(
    fetch: Fetch,
    selector: str,
    start: float,
    end: float,
    by: str = "host",
    lookback: float = 300.0,
    source_url: str = "",
) -> list[Run]:
    """The runs of every matching exporter series over [start, end] (see the module text)."""
    if end <= start:
        raise LatmonError("the end of the range is not after its start; give --start before --end")
    # restarts: where the exporter's start time changed, and where any counter of a series
    # fell (each bucket alone can miss a restart: its new count may exceed its old one)
    restarts: dict[tuple[tuple[str, str], ...], set[float]] = {}
    for labels, points in _range_points(
        fetch, "latmon_start_time_seconds", selector, start, end, lookback
    ):
        restarts.setdefault(_exporter(labels), set()).update(_restarts(points))
    scraped = _range_points(fetch, HISTOGRAM, selector, start, end, lookback)
    counters = {
        name: _range_points(fetch, metric, selector, start, end, lookback)
        for name, metric in COUNTERS.items()
    }
    for labels, points in scraped + [x for c in counters.values() for x in c]:
        drops = {t for (_, a), (t, b) in itertools.pairwise(points) if b < a}
        # a restart of the exporter restarts all its series (each CPU's, each counter)
        restarts.setdefault(_exporter(labels), set()).update(drops)

    def restarts_of(labels: Mapping[str, str]) -> set[float]:
        return restarts.get(_exporter(labels), set())

    groups: dict[tuple[tuple[str, str], ...], _Group] = {}
    for labels, points in scraped:
        le = labels.get("le")
        if le is None:
            continue
        key = _key(labels)
        g = groups.setdefault(key, _Group(dict(key)))
        g.buckets[le] = growth(points, start, end, restarts_of(labels))
    if not groups:
        raise LatmonError(
            f"no {HISTOGRAM} series match {selector or '{}'} between "
            f"{_iso(start)} and {_iso(end)}; check the selector and the time range"
        )
    for name, series_points in counters.items():
        for labels, points in series_points:
            key = _key(labels)
            if key in groups:
                groups[key].counters[name] = growth(points, start, end, restarts_of(labels))
    runs: dict[str, list[Series]] = {}
    run_labels: dict[str, dict[str, str]] = {}
    for g in groups.values():
        run_name = g.labels.get(by, "")
        runs.setdefault(run_name, []).append(_series(g))
        common = run_labels.setdefault(run_name, dict(g.labels))
        for k in list(common):
            if g.labels.get(k) != common[k]:
                del common[k]
    out = []
    for run_name in sorted(runs):
        series = sorted(runs[run_name], key=lambda s: _natural(s.name))
        meta = {
            "source": "prometheus",
            "tool": "latmon fleet",
            "latmon_version": __version__,
            "url": source_url,
            "selector": selector,
            "start": _iso(start),
            "end": _iso(end),
            by: run_name,
        }
        meta |= {k: v for k, v in run_labels[run_name].items() if k not in SERIES_LABELS}
        if "scenario" in meta:
            meta["scenario"] = f"{meta['scenario']} {run_name}".strip()
        else:
            meta["scenario"] = run_name or "fleet"
        out.append(Run(meta=meta, series=series, path=source_url))
    return out


def _natural(name: str) -> tuple[str, int]:
    m = re.match(r"^(\D*)(\d+)$", name)
    return (m.group(1), int(m.group(2))) if m else (name, -1)


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _series(g: _Group) -> Series:
    """The exact histogram of one label set: cumulative le counts to latmon bins."""
    label = next((k for k in SERIES_LABELS if k in g.labels), None)
    name = f"{label}{g.labels[label]}" if label else "latency"
    bounds: list[tuple[int, int]] = []
    inf = 0
    for le, count in g.buckets.items():
        ns = le_to_ns(le)
        if ns is None:
            inf = count
        else:
            bounds.append((ns, count))
    bounds.sort()
    lo, hi, counts = [], [], []
    prev_bound, prev_cum = -1, 0
    for ns, cum in bounds:
        if cum < prev_cum:
            raise LatmonError(
                f"{name}: the bucket le={ns / 1e9:g} counts fewer than a lower one "
                "(the scrapes of one series disagree); try a range without a gap in the scrapes"
            )
        lo.append(prev_bound + 1)
        hi.append(ns + 1)
        counts.append(cum - prev_cum)
        prev_bound, prev_cum = ns, cum
    overflow = inf - prev_cum
    if overflow < 0:
        raise LatmonError(f"{name}: the +Inf bucket counts fewer than a bounded one")
    hist = Histogram(
        lo=np.array(lo, dtype=np.int64),
        hi=np.array(hi, dtype=np.int64),
        count=np.array(counts, dtype=np.int64),
        overflow=overflow,
        overflow_lo=prev_bound + 1 if overflow or bounds else None,
    )
    meta = {k: v for k, v in g.labels.items()}
    meta["bounds_ns"] = ",".join(str(ns) for ns, _ in bounds)
    return Series(name=name, unit="ns", histogram=hist, counters=dict(g.counters), meta=meta)


def selector_for(matchers: Iterable[str]) -> str:
    """Label matchers (``host=~"board-.*"``, ``site="plant3"``) as one selector body."""
    return ",".join(m.strip() for m in matchers if m.strip())
