"""latmon tail: the probabilistic worst case (pWCET) of every series, after the checks that
make it valid (docs/tail.md)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import click

from latmon.analysis.stats import deadline_in_unit
from latmon.campaign.scenario import parse_duration_ns
from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_files,
    parse_deadline,
    report_problems,
)
from latmon.inputs.readers import ReadOptions
from latmon.model import Run, Series
from latmon.tables import Table, escape_markdown, fmt, render
from latmon.tail import (
    ALPHA,
    CONFIDENCE,
    MIN_EXCEEDANCES,
    PROBABILITIES,
    TailAnalysis,
    analyse_series,
    quantisation_of,
)
from latmon.tail.tables import checks_table, fit_text, pwcet_table


def row_of(
    run: Run, series: Series, analysis: TailAnalysis, unit: str, deadline_ns: int | None
) -> dict[str, object]:
    """One JSON object: the run and series, then the analysis in the shown unit."""
    factor = float(series.ns_per_unit) if unit == "ns" else 1.0
    deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
    row: dict[str, object] = {
        "run": run.label,
        "file": run.path,
        "series": series.name,
        "unit": "ns" if unit == "ns" else series.unit,
        "damaged": run.damaged,
    }
    row.update(analysis.as_dict(factor, deadline))
    if deadline_ns is not None:
        row["deadline_ns"] = deadline_ns
    return row


def _probability(text: str) -> float:
    try:
        p = float(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a number", param_hint="--probability") from None
    if not 0 < p < 0.5:
        raise click.BadParameter(
            f"{text} is not a probability in (0, 0.5), e.g. 1e-9", param_hint="--probability"
        )
    return p


@click.command()
@input_options
@click.option(
    "--probability",
    "probabilities",
    multiple=True,
    help="Exceedance probability per activation for a pWCET (repeatable; default 1e-6, 1e-9, "
    "1e-12).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(1e-6, 0.5),
    default=ALPHA,
    show_default=True,
    help="Family-wise significance of the four i.i.d. tests (each is run at alpha/4).",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0.5, 0.999),
    default=CONFIDENCE,
    show_default=True,
    help="Confidence of the profile-likelihood intervals.",
)
@click.option(
    "--threshold",
    help="POT threshold, e.g. 40us (default: chosen by parameter stability).",
)
@click.option(
    "--block-size",
    type=click.IntRange(min=2),
    help="Samples per block for the block maxima (default: √n).",
)
@click.option(
    "--min-exceedances",
    type=click.IntRange(min=10),
    default=MIN_EXCEEDANCES,
    show_default=True,
    help="Fewest samples above the threshold a POT fit accepts.",
)
@click.option("--deadline", help="Give a verdict: is the pWCET's upper bound within it, e.g. 3ms.")
@click.option(
    "--unit",
    type=click.Choice(["native", "ns"]),
    default="native",
    show_default=True,
    help="native: each series in its own unit (ns or cycles); ns: cycles converted to ns.",
)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per series, in a list.")
@click.option(
    "--output-format",
    "out_format",
    type=click.Choice(["terminal", "markdown", "json"]),
    default="terminal",
    show_default=True,
    help="Text for a terminal, Markdown (e.g. a CI job summary), or JSON (as --json).",
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    probabilities: tuple[str, ...],
    alpha: float,
    confidence: float,
    threshold: str | None,
    block_size: int | None,
    min_exceedances: int,
    deadline: str | None,
    unit: str,
    as_json: bool,
    out_format: str,
    read_options: ReadOptions,
) -> None:
    """Probabilistic worst case of every series in FILES by extreme-value theory.

    First the checks that make an extrapolation valid, on the samples in time order:
    independence (Ljung-Box, runs test), identical distribution (KPSS, KS between the
    halves), enough exceedances, and the sign of the shape ξ (a heavy tail gets no number).
    Then peaks over threshold (generalised Pareto, on the samples' own grid) and block maxima
    (GEV), each with the latency exceeded with probability p per activation (pWCET) and its
    profile-likelihood interval, and a held-out check (the fit to the first half predicts the
    second half's exceedances). A failed check gives its reason and no pWCET.
    """
    probs = tuple(_probability(p) for p in probabilities) or PROBABILITIES
    deadline_ns = parse_deadline(deadline)
    threshold_ns = None
    if threshold is not None:
        try:
            threshold_ns = parse_duration_ns(threshold, "us")
        except ValueError as error:
            raise click.BadParameter(str(error), param_hint="--threshold") from None
    runs = load_files(list(files), fmt, keep_going, read_options)
    damaged = report_problems(runs)
    rows = []
    for run in runs:
        for series in run.series:
            if series.is_stages:
                continue
            unit_threshold = None
            if threshold_ns is not None:
                unit_threshold = float(Fraction(threshold_ns) / series.ns_per_unit)
            analysis = analyse_series(
                series,
                probs,
                alpha,
                confidence,
                unit_threshold,
                block_size,
                min_exceedances,
                quantisation_of(run.meta),
            )
            rows.append((run, series, analysis))
    if as_json or out_format == "json":
        out = [row_of(r, s, a, unit, deadline_ns) for r, s, a in rows]
        json.dump(out, sys.stdout, indent=2, allow_nan=False, default=_json_default)
        sys.stdout.write("\n")
    else:
        for run, series, analysis in rows:
            print_analysis(run, series, analysis, unit, deadline_ns, out_format)
    if damaged:
        click.echo(
            "latmon: the input was damaged: the analysis above covers only its valid records",
            err=True,
        )
        sys.exit(EXIT_DAMAGED)


def _json_default(value: object) -> object:
    raise TypeError(f"not JSON: {value!r}")


def print_analysis(
    run: Run,
    series: Series,
    a: TailAnalysis,
    unit: str,
    deadline_ns: int | None,
    out_format: str = "terminal",
) -> None:
    """The analysis of one series as text: the i.i.d. checks, each method's fit, checks and
    pWCETs (or the reasons for none), tables through the one table writer."""
    factor = float(series.ns_per_unit) if unit == "ns" else 1.0
    shown = "ns" if unit == "ns" else series.unit
    title = f"{run.label} / {series.name}" + (" [DAMAGED]" if run.damaged else "")
    heading = f"{title}: {a.n:,} samples in time order ({shown})"
    if out_format == "markdown":
        click.echo(f"### {escape_markdown(heading)}\n")
    else:
        click.echo(f"== {heading}")

    def line(text: str) -> None:
        click.echo(escape_markdown(text) + "\n" if out_format == "markdown" else text)

    def table(t: Table) -> None:
        text = render(t, out_format)
        if out_format == "terminal":
            text = "".join(f"   {row}\n" for row in text.splitlines())
        click.echo(text)

    if a.unavailable is not None:
        line(f"no pWCET: {a.unavailable}")
        click.echo("")
        return
    line(f"i.i.d. checks (family significance {a.alpha:g}, each test at {a.alpha / 4:g}):")
    table(checks_table(a.checks))
    if not a.iid:
        line("no pWCET: the samples are not i.i.d., so an extreme-value model does not apply")
        click.echo("")
        return
    deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
    for method in (a.pot, a.gev):
        if method is None:
            continue
        line(f"{method.method}: {fit_text(method, factor, shown)}")
        table(checks_table(method.checks))
    if a.valid:
        line(f"pWCET ({shown}):")
        table(pwcet_table(a, factor, deadline))
        if deadline is not None:
            line(
                "verdict: pass when the upper end of the interval is within the deadline "
                f"({fmt(deadline_ns)} ns)"
            )
    else:
        line("no pWCET: " + "; ".join(a.reasons()))
    click.echo("")
