"""latmon plan: how many samples a measurement needs."""

from __future__ import annotations

import json
import math
import sys

import click
from scipy import stats as sps

from latmon.scenario import parse_duration_ns


def proportion_sample_size(confidence: float, error: float, proportion: float) -> int:
    """n = z² p (1 - p) / e², rounded up: the published formula (for estimating a proportion)."""
    z = float(sps.norm.ppf(0.5 + confidence / 2))
    return math.ceil(z * z * proportion * (1 - proportion) / (error * error) - 1e-9)


def tail_sample_size(tail: float, confidence: float) -> int:
    """Samples needed to see at least one value beyond the (1 - tail) quantile with the given
    confidence: 1 - (1 - tail)^n >= confidence."""
    return math.ceil(math.log(1 - confidence) / math.log1p(-tail))


def _duration(ns: float) -> str:
    s = ns / 1e9
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
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
@click.option("--interval", default="1ms", show_default=True, help="Measurement period.")
@click.option("--json", "as_json", is_flag=True)
def command(
    confidence: float,
    error: float,
    proportion: float,
    tails: tuple[float, ...],
    interval: str,
    as_json: bool,
) -> None:
    """How many samples to take. Two different questions:

    1. the published formula n = z²·p(1-p)/e² (385 at 95 % confidence and 5 % error), which
    sizes the estimate of a PROPORTION (e.g. the share of events above a deadline) — it says
    nothing about the worst case;

    2. the samples needed to see the tail at all: to observe at least one event beyond the
    (1 - t) quantile with the given confidence, n = ln(1 - c) / ln(1 - t) (about 3,000 for
    t = 1e-3 and 3e6 for 1e-6 at 95 %)."""
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
    if as_json:
        out = {
            "confidence": confidence,
            "proportion": {"error": error, "proportion": proportion, "samples": n_prop},
            "tails": rows,
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
