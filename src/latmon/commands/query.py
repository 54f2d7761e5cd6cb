"""latmon query: SQL (DuckDB) over a campaign of run files."""

from __future__ import annotations

import json
import sys
from decimal import Decimal

import click

from latmon.fleet.query import run_files, run_query
from latmon.tables import Column, Table, render


def _json_value(value: object) -> object:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


@click.command()
@click.argument("sql")
@click.argument("paths", nargs=-1)
@click.option(
    "--output-format",
    "out_format",
    type=click.Choice(["terminal", "markdown", "csv", "json"]),
    default="terminal",
    show_default=True,
    help="How the result is printed.",
)
def command(sql: str, paths: tuple[str, ...], out_format: str) -> None:
    """Run SQL over the run files in PATHS (files or folders, searched recursively; default:
    the current folder) with DuckDB.

    Views: runs (file, run, scenario, host, source, tool), series (file, series, cpu, core,
    unit, clock_hz, samples, counters), samples (file, run, scenario, host, series, cpu, unit,
    latency) and bins (... lo, hi, count) for histogram series. Example:

      latmon query "SELECT scenario, cpu, quantile_disc(latency, 0.999) AS p999
      FROM samples GROUP BY ALL ORDER BY ALL" runs/
    """
    files = run_files(paths or (".",))
    columns, rows = run_query(files, sql)
    if out_format == "json":
        records = [{c: _json_value(v) for c, v in zip(columns, row, strict=True)} for row in rows]
        json.dump(records, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return
    table = Table([Column(f"c{i}", c, "l", csv_name=c) for i, c in enumerate(columns)])
    for row in rows:
        table.add({f"c{i}": v for i, v in enumerate(row)})
    sys.stdout.write(render(table, out_format))
