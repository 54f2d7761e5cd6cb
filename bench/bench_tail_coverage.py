"""Extreme-value analysis against tails whose truth is known (tests/synthetic_tails.py).

For each model, REPS independent series of N samples: the POT and block-maxima fits of
latmon.tail, and whether their 95 % profile-likelihood interval of the 1e-6 quantile holds the
model's true value (coverage; the baseline is the nominal 0.95), how often the shape check
calls the tail heavy, and how often the i.i.d. checks refuse the series. Then the power of the
checks on an autocorrelated (AR(1), lag-1 correlation 0.3) and a drifting series, and the time
of one whole analysis against `latmon stats`' summary of the same samples (baseline).

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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from synthetic_tails import MODELS, ar1, drifting  # noqa: E402

from latmon.stats import summarize  # noqa: E402
from latmon.tail import analyse_tail, fit_tail, iid_checks  # noqa: E402

P = 1e-6


def true_integer_quantile(name: str) -> float:
    """The models round to whole ns: the smallest integer k with P(round(X) > k) <= p."""
    return math.ceil(MODELS[name].true_quantile(P) - 0.5)


def one_repetition(args: tuple[str, int, int]) -> dict[str, object]:
    name, n, seed = args
    x = MODELS[name].draw(np.random.default_rng(seed), n)
    truth = true_integer_quantile(name)
    iid = all(c.passed for c in iid_checks(x))
    pot, gev, _ = fit_tail(x, (P,))
    out: dict[str, object] = {"iid": iid}
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


def rejection(kind: str, n: int, reps: int, seed: int) -> float:
    refused = 0
    for r in range(reps):
        rng = np.random.default_rng(seed + r)
        x = ar1(rng, n, 0.3) if kind == "ar1" else drifting(rng, n, 1000.0)
        refused += not all(c.passed for c in iid_checks(x))
    return refused / reps


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

    results: list[dict[str, object]] = []
    table = [
        f"Synthetic tails, {args.n:,} samples per series, {args.reps} series per model; "
        f"coverage of the true {P:g} quantile by the 95 % profile-likelihood interval.",
        "",
        "| model (ξ) | method | coverage | interval above the truth | shape called heavy "
        "| median interval width / truth | i.i.d. checks refuse |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    with ProcessPoolExecutor(args.workers) as pool:
        for name in args.models:
            model = MODELS[name]
            jobs = [(name, args.n, 1000 + r) for r in range(args.reps)]
            reps = list(pool.map(one_repetition, jobs))
            refused = sum(not r["iid"] for r in reps) / len(reps)
            for key, label in (("pot", "POT/GPD"), ("gev", "block maxima/GEV")):
                rows = [r[key] for r in reps]
                assert all(isinstance(row, dict) for row in rows)
                coverage = sum(row["covered"] for row in rows) / len(rows)  # type: ignore[index]
                above = sum(row["above"] for row in rows) / len(rows)  # type: ignore[index]
                heavy = sum(row["heavy"] for row in rows) / len(rows)  # type: ignore[index]
                width = float(np.median([row["relative_width"] for row in rows]))  # type: ignore[index]
                results.append(
                    {
                        "metric": f"coverage of the 1e-6 quantile, {name}, {label}",
                        "value": coverage,
                        "unit": "fraction",
                        "baseline": 0.95,
                        "ratio": coverage / 0.95,
                        "note": f"{args.reps} series of {args.n}; heavy {heavy:.0%}",
                    }
                )
                table.append(
                    f"| {name} ({model.xi:+.2g}) | {label} | {coverage:.1%} | {above:.1%} "
                    f"| {heavy:.0%} | {width:.2f} | {refused:.1%} |"
                )
            print(table[-2], table[-1], sep="\n", flush=True)

    reps_power = max(args.reps // 4, 20)
    power = {kind: rejection(kind, args.n, reps_power, 5000) for kind in ("ar1", "drift")}
    table += [
        "",
        f"The i.i.d. checks refuse {power['ar1']:.0%} of AR(1) series (lag-1 correlation 0.3) "
        f"and {power['drift']:.0%} of series whose level drifts by half a standard deviation "
        f"({reps_power} series of {args.n:,} each).",
    ]
    for kind, value in power.items():
        results.append(
            {
                "metric": f"i.i.d. checks refuse {kind} series",
                "value": value,
                "unit": "fraction",
                "note": f"{reps_power} series of {args.n}",
            }
        )

    x = MODELS["exponential"].draw(np.random.default_rng(7), args.n)
    t0 = time.perf_counter()
    summarize(x)
    baseline = time.perf_counter() - t0
    t0 = time.perf_counter()
    analyse_tail(x)
    elapsed = time.perf_counter() - t0
    results.append(
        {
            "metric": f"latmon tail analysis of {args.n} samples (3 probabilities, 2 methods)",
            "value": elapsed,
            "unit": "s",
            "baseline": baseline,
            "ratio": elapsed / baseline,
            "note": "baseline: latmon stats' exact summary of the same samples",
        }
    )

    args.out.write_text(json.dumps({"name": "tail_coverage", "results": results}, indent=2))
    (args.out.parent / "tail_coverage.md").write_text("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
