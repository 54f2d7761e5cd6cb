"""latmon compare: scenarios side by side, differences to a baseline, deadline verdicts."""

from __future__ import annotations

import csv
import io
import json
import sys

import click

from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_files,
    parse_deadline,
    report_problems,
)
from latmon.compare import columns_for, compare, group_runs, table_cells
from latmon.readers import ReadOptions


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
    and CPU). Per scenario: n, min, avg, median, p99 with its confidence interval, p99.9, max,
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
    columns = columns_for(rows, deadline_ns is not None)
    if out_format == "json":
        json.dump(rows, sys.stdout, indent=2, default=lambda v: None)
        sys.stdout.write("\n")
    elif out_format == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow([k for k, _ in columns])
        for r in rows:
            cells: list[object] = []
            for k, _ in columns:
                value = r.get(k, "")
                cells.append(";".join(str(v) for v in value) if isinstance(value, list) else value)
            writer.writerow(cells)
        sys.stdout.write(out.getvalue())
    else:
        heads = [h for _, h in columns]
        body = table_cells(rows, columns)
        if out_format == "markdown":
            click.echo("| " + " | ".join(heads) + " |")
            click.echo("|" + "|".join("---" for _ in heads) + "|")
            for line in body:
                click.echo("| " + " | ".join(c.replace("|", "\\|") for c in line) + " |")
        elif out_format == "latex":
            click.echo("\\begin{tabular}{l" + "r" * (len(heads) - 1) + "}")
            click.echo(" & ".join(_tex(h) for h in heads) + " \\\\ \\hline")
            for line in body:
                click.echo(" & ".join(_tex(c) for c in line) + " \\\\")
            click.echo("\\end{tabular}")
        else:
            widths = [max(len(h), *(len(line[i]) for line in body)) for i, h in enumerate(heads)]
            click.echo("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)))
            click.echo("  ".join("-" * w for w in widths))
            for line in body:
                click.echo(
                    "  ".join(
                        c.rjust(w) if i else c.ljust(w)
                        for i, (c, w) in enumerate(zip(line, widths, strict=True))
                    )
                )
        notes = []
        if any(not r.get("exact", True) for r in rows):
            notes.append("histogram inputs: values known to within their bin width")
        notes.append(f"CIs at {confidence:.0%}; percentiles nearest-rank; values in ns")
        if len(rows) > 1:
            notes.append(
                f"differences and A12 against {baseline if baseline else rows[0]['scenario']}"
            )
        click.echo("(" + "; ".join(notes) + ")", err=True)
    if damaged:
        sys.exit(EXIT_DAMAGED)


def _tex(text: str) -> str:
    for a, b in (
        ("\\", "\\textbackslash{}"),
        ("&", "\\&"),
        ("%", "\\%"),
        ("_", "\\_"),
        ("#", "\\#"),
        ("Δ", "$\\Delta$"),
    ):
        text = text.replace(a, b)
    return text
