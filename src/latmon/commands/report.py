"""latmon report: one self-contained HTML report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from latmon.commands.options import EXIT_DAMAGED, input_options, report_problems
from latmon.ingest import load_all
from latmon.readers import ReadOptions
from latmon.report import HtmlReport


@click.command()
@input_options
@click.option(
    "-o", "--output", required=True, type=click.Path(dir_okay=False), help="The HTML file."
)
@click.option("--title", default="latmon report", show_default=True)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    output: str,
    title: str,
    read_options: ReadOptions,
) -> None:
    """Write one self-contained HTML report of FILES: summary table, log-y latency histogram per
    series, each run's metadata."""
    runs = load_all(list(files), fmt, keep_going, read_options)
    damaged = report_problems(runs)
    text = HtmlReport(title).render(runs)
    path = Path(output)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    click.echo(str(path))
    if damaged:
        sys.exit(EXIT_DAMAGED)
