"""The report's verdict: a configuration is named best only when the samples say so — its tail
interval wholly below the others' (or it alone meets the deadline) — not on one worst sample;
overlapping intervals are a tie (src/latmon/report/html.py: rank_rows)."""

from __future__ import annotations

import numpy as np

from latmon.model import Run, Series
from latmon.report import HtmlReport, report_data


def run_of(name: str, lat: np.ndarray) -> Run:
    series = Series("cpu0", "ns", columns={"latency": lat}, meta={"cpu": "0"})
    return Run({"source": "latprobe", "scenario": name}, [series], path=f"{name}.log")


def ranks(runs: list[Run], deadline: int | None = None) -> dict[str, int]:
    (m,) = report_data(runs, deadline).measures
    return {str(r["scenario"]): int(r["rank"]) for r in m.ranked}  # type: ignore[call-overload]


def base(seed: int, n: int = 20_000) -> np.ndarray:
    return np.random.default_rng(seed).integers(20_000, 60_000, n)


def test_same_distribution_with_one_high_sample_is_a_tie() -> None:
    """b is a with other draws of the same distribution and one sample far above: the old
    ranking named a best on the worst case; the intervals overlap, so it is a tie."""
    a, b = base(1), base(2)
    b[100] = 900_000
    assert ranks([run_of("a", a), run_of("b", b)]) == {"a": 1, "b": 1}
    (m,) = report_data([run_of("a", a), run_of("b", b)], None).measures
    assert m.ranked[0]["scenario"] == "a"  # within a rank: the lower worst case first
    glance = HtmlReport()._glance(m)
    assert "no best: a tie (the 95 % intervals of their p99.9 overlap)" in glance
    assert "best: <strong>" not in glance


def test_a_clearly_lower_tail_is_best_and_a_tie_shares_the_rank() -> None:
    """c is shifted 30 µs up: a and b (the same distribution) are both clearly better than c,
    not than each other: ranks 1, 1, 3."""
    runs = [run_of("c", base(3) + 30_000), run_of("a", base(1)), run_of("b", base(2))]
    assert ranks(runs) == {"a": 1, "b": 1, "c": 3}
    (m,) = report_data(runs, None).measures
    glance = HtmlReport()._glance(m)
    assert (
        "best, tied: <strong>a, b</strong>" in glance
        or "best, tied: <strong>b, a</strong>" in glance
    )
    runs = [run_of("c", base(3) + 30_000), run_of("a", base(1))]
    (m,) = report_data(runs, None).measures
    assert (
        "best: <strong>a</strong> (its p99.9 interval below every other's)"
        in HtmlReport()._glance(m)
    )


def test_the_deadline_comes_first_and_few_samples_tie() -> None:
    """Meeting the deadline beats missing it whatever the intervals; three samples each bound
    no interval on both sides: no best."""
    a, b = base(1), base(2)
    b[5] = 200_000  # b misses a 100 µs deadline by one sample
    assert ranks([run_of("a", a), run_of("b", b)], deadline=100_000) == {"a": 1, "b": 2}
    few = [run_of("x", np.array([5, 6, 7])), run_of("y", np.array([50, 60, 70]))]
    assert ranks(few) == {"x": 1, "y": 1}
    (m,) = report_data(few, None).measures
    assert "too few samples for an interval on both sides" in HtmlReport()._glance(m)
