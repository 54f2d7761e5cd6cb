"""latmon compare: scenarios side by side, differences to a baseline, deadline verdicts."""

from __future__ import annotations

import json
import sys

import click

from latmon.analysis.compare import compare, comparison_table, group_runs, json_rows
from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_files,
    parse_deadline,
    report_problems,
)
from latmon.inputs.readers import ReadOptions
from latmon.tables import render


@click.command()
@input_options
@click.option("--deadline", help="Deadline for the verdict, e.g. 3ms or 250us.")
@click.option("--baseline", help="The scenario the others are compared with (default: the first).")
@click.option("--confidence", type=click.FloatRange(0.5, 0.9999), default=0.95, show_default=True)
@click.option(
    "--output-format",
    "out_format",
    type=click.Choice(["table", "markdown", "csv", "latex", "json"]),
    default="table",
    show_default=True,
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    deadline: str | None,
    baseline: str | None,
    confidence: float,
    out_format: str,
    read_options: ReadOptions,
) -> None:
    """Compare the scenarios in FILES (runs with the same scenario are pooled: every repetition
    and CPU; only series that measure the same quantity along the same path are compared). Per
    scenario: n, min, avg, median, p99 with its confidence interval, p99.9, max,
    jitter, stdev, %RSD; with --deadline the count above it, the margin and a verdict; against
    the baseline the differences of p50 and p99 with confidence intervals and the Vargha-Delaney
    A12 effect size. All values in ns."""
    deadline_ns = parse_deadline(deadline)
    runs = load_files(list(files), fmt, keep_going, read_options)
    damaged = report_problems(runs)
    groups = group_runs(runs)
    try:
        rows = compare(groups, baseline, deadline_ns, confidence)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--baseline") from None
    if out_format == "json":
        json.dump(json_rows(rows), sys.stdout, indent=2, default=lambda v: None)
        sys.stdout.write("\n")
    else:
        table = comparison_table(rows, deadline_ns is not None)
        click.echo(render(table, "terminal" if out_format == "table" else out_format), nl=False)
        notes = []
        if any(not r.get("exact", True) for r in rows):
            notes.append(
                "histogram inputs: values at their bin's lower edge, known to within their bin "
                "width; ≥: in the overflow"
            )
        if any(getattr(r.get("summary"), "open_bins", False) for r in rows):
            notes.append("a…b: the range the overflow allows")
        notes.append(f"CIs at {confidence:.0%}; percentiles nearest-rank; values in ns")
        bases = list(dict.fromkeys(str(r["vs"]) for r in rows if "vs" in r))
        if bases:
            notes.append(f"differences and A12 against {', '.join(bases)}")
        if len({(r["quantity"], r["path"]) for r in rows}) > 1:
            notes.append(
                "only scenarios that measure the same quantity along the same path are "
                "differenced, each against the first (or --baseline) of its measure"
            )
        click.echo("(" + "; ".join(notes) + ")", err=True)
    if damaged:
        sys.exit(EXIT_DAMAGED)
