"""latmon stats: statistics per series, as a table or JSON."""

from __future__ import annotations

import json
import sys

import click

from latmon.commands.options import EXIT_DAMAGED, input_options, report_problems
from latmon.formatting import fmt
from latmon.ingest import load_all
from latmon.readers import ReadOptions
from latmon.stats import PERCENTILES, SUMMARY_KEYS, summarize_series


@click.command()
@input_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per series, in a list.")
@click.option(
    "--unit",
    type=click.Choice(["native", "ns"]),
    default="native",
    show_default=True,
    help="native: each series in its own unit (ns or cycles); ns: cycles converted to ns.",
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    as_json: bool,
    unit: str,
    read_options: ReadOptions,
) -> None:
    """Statistics of every series in FILES (latmon-log or run files).

    count, min, max, mean, median, stdev (n-1), jitter = max(max-mean, mean-min), rsd_pct and
    nearest-rank percentiles, exact on integer samples.
    """
    runs = load_all(list(files), fmt, keep_going, read_options)
    damaged = report_problems(runs)
    rows = []
    for run in runs:
        for series in run.series:
            if series.is_stages:
                continue  # a subset of another series, split into stages: see latmon report
            summary = summarize_series(series)
            shown_unit = series.unit
            if unit == "ns" and series.unit == "cycles":
                summary = summary.scaled(series.ns_per_unit)
                shown_unit = "ns"
            row: dict[str, object] = {
                "source": run.source,
                "series": series.name,
                "unit": shown_unit,
            }
            values = summary.as_dict()
            row.update({k: values[k] for k in SUMMARY_KEYS})
            row["run"] = run.label
            row["file"] = run.path
            row["resolution"] = series.resolution * (
                float(series.ns_per_unit) if shown_unit != series.unit else 1
            )
            row["stdev_pop"] = values["stdev_pop"]
            row["exact"] = summary.exact
            if not summary.exact:
                row["bin_error"] = summary.bin_error
            if series.clock_hz:
                row["clock_hz"] = series.clock_hz
            row["damaged"] = run.damaged
            if run.damaged:
                row["problems"] = run.problems
            rows.append(row)
    if as_json:
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_table(rows)
    if damaged:
        click.echo(
            "latmon: the input was damaged: the statistics above cover only its valid records",
            err=True,
        )
        sys.exit(EXIT_DAMAGED)


def print_table(rows: list[dict[str, object]]) -> None:
    heads = [
        "run",
        "series",
        "unit",
        "n",
        "res",
        "min",
        "mean",
        "median",
        "max",
        "stdev",
        "jitter",
        "rsd%",
        *PERCENTILES,
    ]
    table = [heads]
    for r in rows:
        label = str(r["series"]) + (" [DAMAGED]" if r["damaged"] else "")
        if not r["exact"]:
            label += f" [hist ±{r['bin_error']}]"
        table.append(
            [
                str(r["run"]),
                label,
                str(r["unit"]),
                fmt(r["count"]),
                fmt(r["resolution"]),
                *(fmt(r[k]) for k in ("min", "mean", "median", "max", "stdev", "jitter")),
                fmt(r["rsd_pct"], 2),
                *(fmt(r[k]) for k in PERCENTILES),
            ]
        )
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]
    for j, row in enumerate(table):
        cells = [
            c.ljust(w) if i < 3 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        click.echo("  ".join(cells).rstrip())
        if j == 0:
            click.echo("  ".join("-" * w for w in widths))
