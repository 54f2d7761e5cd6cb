"""latmon plan: how many samples a measurement needs."""

from __future__ import annotations

import json
import math
import sys

import click
from scipy import stats as sps

from latmon.campaign.scenario import parse_duration_ns
from latmon.tail import EXCEEDANCES_PER_ROOT, MIN_EXCEEDANCES, PROBABILITIES


def proportion_sample_size(confidence: float, error: float, proportion: float) -> int:
    """n = z² p (1 - p) / e², rounded up: the published formula (for estimating a proportion)."""
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    return math.ceil(z * z * proportion * (1 - proportion) / (error * error) - 1e-9)


def tail_sample_size(tail: float, confidence: float) -> int:
    """Samples needed to see at least one value beyond the (1 - tail) quantile with the given
    confidence: 1 - (1 - tail)^n >= confidence."""
    return math.ceil(math.log(1 - confidence) / math.log1p(-tail))


def evt_relative_error(n: int, p: float, confidence: float) -> float:
    """The half-width, relative to the extrapolated excess x_p - u, of the confidence interval
    of the pWCET x_p that ``latmon tail``'s POT fit gives from n samples, for a tail at the
    light/heavy boundary ξ = 0 (the heaviest the shape check accepts).

    The fit uses k = EXCEEDANCES_PER_ROOT · √n exceedances, a fraction ζ = k/n; with
    L = ln(ζ/p), x_p - u = σ L and the GPD's inverse Fisher information at ξ = 0
    (Var σ = 2σ²/k, Var ξ = 1/k, Cov = -σ/k) the delta method gives
    Var(x_p - u) / (σ L)² = ((L/2 - 1)² + 1) / k."""
    k = max(EXCEEDANCES_PER_ROOT * math.sqrt(n), 1.0)
    log_ratio = math.log(k / n / p)
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    return z * math.sqrt(((log_ratio / 2 - 1) ** 2 + 1) / k)


def evt_sample_size(p: float, confidence: float, error: float) -> int:
    """The fewest samples for which :func:`evt_relative_error` is at most ``error`` (and the
    fit has its MIN_EXCEEDANCES): the error falls with n, so a doubling search and bisection."""
    low = math.ceil((MIN_EXCEEDANCES / EXCEEDANCES_PER_ROOT) ** 2)
    if evt_relative_error(low, p, confidence) <= error:
        return low
    high = low
    while evt_relative_error(high, p, confidence) > error:
        low, high = high, high * 2
    while high - low > 1:
        mid = (low + high) // 2
        if evt_relative_error(mid, p, confidence) <= error:
            high = mid
        else:
            low = mid
    return high


def _duration(ns: float) -> str:
    s = ns / 1e9
    for unit, size in (("years", 365.25 * 86400), ("d", 86400), ("h", 3600), ("min", 60)):
        if s >= size:
            return f"{s / size:.1f} {unit}"
    return f"{s:.1f} s"


@click.command()
@click.option("--confidence", type=click.FloatRange(0.5, 0.999999), default=0.95, show_default=True)
@click.option(
    "--error",
    type=click.FloatRange(1e-6, 0.5),
    default=0.05,
    show_default=True,
    help="Margin of error of the proportion.",
)
@click.option(
    "--proportion",
    type=click.FloatRange(0.0, 1.0),
    default=0.5,
    show_default=True,
    help="Expected proportion (0.5 is the worst case).",
)
@click.option(
    "--tail",
    "tails",
    type=click.FloatRange(1e-12, 0.5),
    multiple=True,
    help="Tail probabilities to observe, e.g. 1e-3 for p99.9 (default: 1e-2 ... 1e-6).",
)
@click.option(
    "--pwcet",
    "pwcets",
    type=click.FloatRange(1e-15, 0.01),
    multiple=True,
    help="Exceedance probabilities per activation of a pWCET (default: 1e-6, 1e-9, 1e-12).",
)
@click.option(
    "--pwcet-error",
    type=click.FloatRange(0.01, 1.0),
    default=0.25,
    show_default=True,
    help="EVT: half-width of the pWCET's interval, relative to its part above the threshold.",
)
@click.option("--interval", default="1ms", show_default=True, help="Measurement period.")
@click.option("--json", "as_json", is_flag=True)
def command(
    confidence: float,
    error: float,
    proportion: float,
    tails: tuple[float, ...],
    pwcets: tuple[float, ...],
    pwcet_error: float,
    interval: str,
    as_json: bool,
) -> None:
    """How many samples to take. Three different questions:

    1. the published formula n = z²·p(1-p)/e² (385 at 95 % confidence and 5 % error), which
    sizes the estimate of a PROPORTION (e.g. the share of events above a deadline) — it says
    nothing about the worst case;

    2. the samples needed to see the tail at all: to observe at least one event beyond the
    (1 - t) quantile with the given confidence, n = ln(1 - c) / ln(1 - t) (about 3,000 for
    t = 1e-3 and 3e6 for 1e-6 at 95 %);

    3. for a pWCET at probability p per activation: distribution-free, the largest of n
    samples bounds the (1 - p) quantile from above with confidence c for the n of 2. (3e9
    samples for p = 1e-9); by extreme-value theory (latmon tail), the n whose POT fit gives
    the pWCET within ±E (--pwcet-error) of its extrapolated part, for a tail at the light/heavy
    boundary ξ = 0 — provided the samples pass the i.i.d. checks."""
    try:
        interval_ns = parse_duration_ns(interval, "us")
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--interval") from None
    n_prop = proportion_sample_size(confidence, error, proportion)
    rows: list[dict[str, float | int | str]] = []
    for t in tails or (1e-2, 1e-3, 1e-4, 1e-5, 1e-6):
        n = tail_sample_size(t, confidence)
        rows.append(
            {
                "tail": t,
                "percentile": f"p{100 * (1 - t):.10g}",
                "samples": n,
                "duration_s": n * interval_ns / 1e9,
            }
        )
    pwcet_rows: list[dict[str, object]] = []
    for p in pwcets or PROBABILITIES:
        n_order = tail_sample_size(p, confidence)
        n_evt = evt_sample_size(p, confidence, pwcet_error)
        pwcet_rows.append(
            {
                "probability": p,
                "order_statistics": {
                    "samples": n_order,
                    "duration_s": n_order * interval_ns / 1e9,
                },
                "evt": {
                    "samples": n_evt,
                    "exceedances": round(EXCEEDANCES_PER_ROOT * math.sqrt(n_evt)),
                    "duration_s": n_evt * interval_ns / 1e9,
                },
            }
        )
    if as_json:
        out = {
            "confidence": confidence,
            "proportion": {"error": error, "proportion": proportion, "samples": n_prop},
            "tails": rows,
            "pwcet": {"error": pwcet_error, "rows": pwcet_rows},
            "interval_ns": interval_ns,
        }
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    click.echo(
        f"proportion within ±{error:g} at {confidence:g} confidence (p = {proportion:g}): "
        f"n = {n_prop:,} samples ({_duration(n_prop * interval_ns)} at {interval})"
    )
    click.echo(f"to observe the tail at {confidence:g} confidence:")
    for r in rows:
        click.echo(
            f"  beyond {r['percentile']!s:<10} (t = {r['tail']:g}): n = {r['samples']:>13,} "
            f"samples, {_duration(float(r['duration_s']) * 1e9)} at {interval}"
        )
    click.echo(
        f"for a pWCET at {confidence:g} confidence: the largest sample (distribution-free) "
        f"or an extreme-value fit within ±{pwcet_error:g} of its extrapolated part (ξ = 0):"
    )
    for pr in pwcet_rows:
        order, evt = pr["order_statistics"], pr["evt"]
        assert isinstance(order, dict) and isinstance(evt, dict)
        click.echo(
            f"  p = {pr['probability']:<7g} order statistics: n = {order['samples']:>17,} "
            f"({_duration(float(order['duration_s']) * 1e9)}); EVT: n = {evt['samples']:>11,} "
            f"({_duration(float(evt['duration_s']) * 1e9)})"
        )
