"""latmon.fleet.prometheus without a server: the range answers of a store, made up here, turned into
exact histograms; restarts seen by the start time or by any counter falling."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

from latmon.errors import LatmonError
from latmon.fleet.prometheus import growth, le_to_ns, parse_time, pull

BOUNDS = ["0.00001", "0.0001", "0.001", "+Inf"]


def cumulative(lat: list[int]) -> dict[str, float]:
    a = np.array(lat, dtype=np.int64)
    out = {le: float(np.count_nonzero(a <= le_to_ns(le))) for le in BOUNDS[:-1]}
    out["+Inf"] = float(len(a))
    return out


def store(scrapes: list[tuple[float, float, list[int]]]) -> Any:
    """A fetch answering range queries from scrapes (time, start time, samples so far)."""
    labels = {"host": "b", "cpu": "0", "source": "latprobe", "instance": "x:1", "job": "j"}

    def fetch(path: str, params: Mapping[str, str]) -> Any:
        assert path == "query"
        metric = params["query"].split("{", 1)[0]
        result = []
        if metric == "latmon_latency_seconds_bucket":
            for le in BOUNDS:
                pts = [[t, str(cumulative(s)[le])] for t, _, s in scrapes]
                result.append({"metric": {"__name__": metric, "le": le, **labels}, "values": pts})
        elif metric == "latmon_samples_total":
            pts = [[t, str(len(s))] for t, _, s in scrapes]
            result.append({"metric": {"__name__": metric, **labels}, "values": pts})
        elif metric == "latmon_start_time_seconds":
            pts = [[t, str(st)] for t, st, _ in scrapes]
            common = {k: v for k, v in labels.items() if k != "cpu"}
            result.append({"metric": {"__name__": metric, **common}, "values": pts})
        return {"resultType": "matrix", "result": result}

    return fetch


def test_growth_counts_resets_and_baseline() -> None:
    pts = [(0.0, 5.0), (10.0, 7.0), (20.0, 9.0), (30.0, 2.0), (40.0, 4.0)]
    assert growth(pts, 5.0, 40.0, set()) == (9 - 5) + 2 + 2  # from 5 at t=0
    assert growth(pts, -1.0, 40.0, set()) == 9 + 4  # began inside: from 0
    assert growth(pts, 5.0, 40.0, {20.0}) == 2 + 9 + 2 + 2  # a restart whose count grew
    assert growth(pts, 5.0, 25.0, set()) == 4


def test_restart_with_a_higher_count_is_seen_by_the_start_time() -> None:
    first = [5_000, 50_000, 500_000]  # one sample in each bounded bucket
    second = [5_000, 6_000, 50_000, 60_000, 2_000_000]  # more in every bucket than before
    scrapes = [
        (100.0, 1.0, first[:1]),
        (101.0, 1.0, first),
        (102.0, 2.0, second[:4]),  # restarted: no bucket fell
        (103.0, 2.0, second),
    ]
    (run,) = pull(store(scrapes), "", 99.0, 103.0)
    (s,) = run.series
    everything = np.array(first + second)
    h = s.histogram
    assert h is not None
    assert h.total == len(everything) == s.counters["samples"]
    for lo, hi, n in zip(h.lo, h.hi, h.count, strict=True):
        assert n == np.count_nonzero((everything >= lo) & (everything < hi))
    assert h.overflow == 1 and h.overflow_lo == 1_000_001
    assert run.meta["host"] == "b" and s.name == "cpu0"


def test_window_starting_after_a_scrape_counts_from_it() -> None:
    scrapes = [
        (100.0, 1.0, [5_000]),
        (101.0, 1.0, [5_000, 50_000]),
        (102.0, 1.0, [5_000, 50_000, 20]),
    ]
    (run,) = pull(store(scrapes), "", 100.5, 102.0)
    assert run.series[0].counters["samples"] == 2


def test_errors_are_one_line() -> None:
    with pytest.raises(LatmonError, match="no latmon_latency_seconds_bucket series"):
        pull(store([]), 'host="none"', 0.0, 10.0)
    with pytest.raises(LatmonError, match="not after its start"):
        pull(store([]), "", 10.0, 10.0)
    with pytest.raises(LatmonError, match="ISO 8601"):
        parse_time("yesterday-ish", 1000.0)
    assert parse_time("-30m", 10_000.0) == 10_000.0 - 1800
    assert parse_time("2026-11-23T17:00:00Z", 0) == parse_time("2026-11-23T17:00:00", 0)
