"""Extreme-value analysis against tails whose truth is known (tests/synthetic_tails.py), and
what it costs.

1. Coverage. For each model, REPS independent series of N samples (seeded, so a rerun gives
   the same table): the POT and block-maxima fits of latmon.tail as ``latmon tail`` runs them
   (threshold chosen automatically), and whether their 95 % profile-likelihood interval of
   the 1e-6 quantile holds the model's true value. The baseline is the nominal 0.95; each
   coverage comes with its exact (Clopper–Pearson) 95 % binomial interval, because with REPS
   series a coverage is itself an estimate. Also: how often the interval lies above the
   truth, how often the shape check calls the tail heavy (no pWCET), how often the i.i.d.
   checks refuse the i.i.d. series (their false-alarm rate, nominal 5 %), the median interval
   width relative to the truth.
2. Power of the checks on an autocorrelated (AR(1), lag-1 correlation 0.3) and a drifting
   series (level rising by half a standard deviation over the run).
3. Time: one whole analysis of N and of 1,000,000 samples against `latmon stats`' exact
   summary of the same samples (baseline); the report's tail section against the whole
   report of the same runs (the share it adds).

Writes the JSON result for bench/run.py and a Markdown table (tail_coverage.md beside it) that
docs/tail.md quotes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from scipy import stats as sps

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from synthetic_tails import MODELS, ar1, drifting  # noqa: E402

from latmon.distribution import Distribution  # noqa: E402
from latmon.model import Run, Series  # noqa: E402
from latmon.report import HtmlReport, analyse  # noqa: E402
from latmon.stats import summarize  # noqa: E402
from latmon.tail import analyse_tail, fit_tail, iid_checks  # noqa: E402
from latmon.tail_report import TailSection  # noqa: E402

P = 1e-6
METHODS = (("pot", "POT/GPD"), ("gev", "block maxima/GEV"))


def true_integer_quantile(name: str) -> float:
    """The models round to whole ns: the smallest integer k with P(round(X) > k) <= p."""
    return math.ceil(MODELS[name].true_quantile(P) - 0.5)


def one_repetition(args: tuple[str, int, int]) -> dict[str, object]:
    name, n, seed = args
    x = MODELS[name].draw(np.random.default_rng(seed), n)
    truth = true_integer_quantile(name)
    out: dict[str, object] = {"iid": all(c.passed for c in iid_checks(x))}
    pot, gev, _ = fit_tail(x, (P,))
    for key, method in (("pot", pot), ("gev", gev)):
        fit = method.fit
        assert fit is not None
        q = fit.quantile_ci(P)
        out[key] = {
            "covered": bool(q.low <= truth <= q.high),
            "above": bool(q.low > truth),
            "heavy": bool(fit.xi_ci[0] > 0),
            "relative_width": (q.high - q.low) / truth,
        }
    return out


def exact_interval(k: int, n: int) -> tuple[float, float]:
    """Clopper–Pearson 95 % interval of a proportion k/n (scipy)."""
    ci = sps.binomtest(k, n).proportion_ci(0.95, method="exact")
    return float(ci.low), float(ci.high)


def refused(args: tuple[str, int, int]) -> bool:
    kind, n, seed = args
    rng = np.random.default_rng(seed)
    x = ar1(rng, n, 0.3) if kind == "ar1" else drifting(rng, n, 1000.0)
    return not all(c.passed for c in iid_checks(x))


def coverage(pool: ProcessPoolExecutor, args: argparse.Namespace) -> tuple[list, list[str]]:
    results: list[dict[str, object]] = []
    table = [
        f"{args.reps} series of {args.n:,} samples per model; coverage of the true {P:g} "
        "quantile by the 95 % profile-likelihood interval, with its exact 95 % binomial "
        "interval.",
        "",
        "| model (ξ) | method | coverage [95 % interval] | interval above the truth "
        "| shape called heavy (no pWCET) | median interval width / truth "
        "| i.i.d. checks refuse |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for name in args.models:
        jobs = [(name, args.n, 1000 + r) for r in range(args.reps)]
        reps = list(pool.map(one_repetition, jobs))
        refusals = sum(not r["iid"] for r in reps) / len(reps)
        for key, label in METHODS:
            rows = [r[key] for r in reps]
            assert all(isinstance(row, dict) for row in rows)
            covered = sum(bool(row["covered"]) for row in rows)  # type: ignore[index]
            above = sum(bool(row["above"]) for row in rows) / len(rows)  # type: ignore[index]
            heavy = sum(bool(row["heavy"]) for row in rows) / len(rows)  # type: ignore[index]
            width = float(np.median([row["relative_width"] for row in rows]))  # type: ignore[index]
            rate = covered / len(rows)
            low, high = exact_interval(covered, len(rows))
            results.append(
                {
                    "metric": f"coverage of the 1e-6 quantile, {name}, {label}",
                    "value": rate,
                    "unit": "fraction",
                    "baseline": 0.95,
                    "ratio": rate / 0.95,
                    "note": f"{args.reps} series of {args.n}; exact 95 % interval "
                    f"[{low:.3f}, {high:.3f}]; heavy {heavy:.0%}",
                }
            )
            table.append(
                f"| {name} ({MODELS[name].xi:+.2g}) | {label} | {rate:.1%} [{low:.1%}, {high:.1%}] "
                f"| {above:.1%} | {heavy:.0%} | {width:.2g} | {refusals:.1%} |"
            )
        print("\n".join(table[-2:]), flush=True)
    return results, table


def power(pool: ProcessPoolExecutor, args: argparse.Namespace) -> tuple[list, list[str]]:
    reps = max(args.reps // 4, 20)
    rates = {
        kind: sum(pool.map(refused, [(kind, args.n, 5000 + r) for r in range(reps)])) / reps
        for kind in ("ar1", "drift")
    }
    results = [
        {
            "metric": f"i.i.d. checks refuse {kind} series",
            "value": value,
            "unit": "fraction",
            "note": f"{reps} series of {args.n}",
        }
        for kind, value in rates.items()
    ]
    text = (
        f"The i.i.d. checks refuse {rates['ar1']:.0%} of AR(1) series (lag-1 correlation 0.3) "
        f"and {rates['drift']:.0%} of series whose level drifts by half a standard deviation "
        f"({reps} series of {args.n:,} each)."
    )
    return results, ["", text]


def timed(func, *args) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    func(*args)
    return time.perf_counter() - t0


def cost(n: int) -> list[dict[str, object]]:
    results: list[dict[str, object]] = []
    analyse_tail(MODELS["exponential"].draw(np.random.default_rng(6), 1000))  # imports
    for size in (n, 1_000_000):
        x = MODELS["exponential"].draw(np.random.default_rng(7), size)
        baseline = timed(lambda v: summarize(Distribution.from_samples(v)), x)
        elapsed = timed(analyse_tail, x)
        results.append(
            {
                "metric": f"latmon tail analysis of {size:,} samples (3 probabilities, 2 methods)",
                "value": elapsed,
                "unit": "s",
                "baseline": baseline,
                "ratio": elapsed / baseline,
                "note": "baseline: latmon stats' exact summary of the same samples",
            }
        )
    # the report: two i.i.d. series that get a pWCET, two dependent ones that do not
    rng = np.random.default_rng(8)
    latencies = [
        MODELS["exponential"].draw(rng, n),
        MODELS["lognormal"].draw(rng, n),
        ar1(rng, n, 0.3),
        drifting(rng, n, 1000.0),
    ]
    series = [
        Series(f"cpu{i}", "ns", columns={"t": np.arange(n) * 1000, "latency": v})
        for i, v in enumerate(latencies)
    ]
    runs = [Run({"scenario": "bench", "source": "latprobe"}, series)]
    report = HtmlReport(deadline_ns=3_000_000)
    whole = timed(report.render, runs)
    pairs = [(r.label, r.series) for r in analyse(runs, 3_000_000)]
    section = timed(TailSection(3_000_000).render, pairs, report._figure)
    results.append(
        {
            "metric": f"latmon report's tail section, 4 series of {n:,} (2 get a pWCET)",
            "value": section,
            "unit": "s",
            "baseline": whole,
            "ratio": section / whole,
            "note": "baseline: the whole report of the same runs, the section included",
        }
    )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--models", nargs="*", default=list(MODELS), choices=list(MODELS), help="a subset"
    )
    args = parser.parse_args()
    with ProcessPoolExecutor(args.workers) as pool:
        results, table = coverage(pool, args)
        more, text = power(pool, args)
    results += more
    table += text
    results += cost(args.n)
    args.out.write_text(json.dumps({"name": "tail_coverage", "results": results}, indent=2))
    (args.out.parent / "tail_coverage.md").write_text("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
