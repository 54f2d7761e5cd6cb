"""latmon stats: statistics per series, as a table (terminal, Markdown, CSV, LaTeX, HTML) or
JSON."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path

import click

from latmon.analysis.distribution.bins import MAX_BINS
from latmon.analysis.files import (
    STREAMED_TEXT,
    SeriesStats,
    run_file_stats,
    series_stats,
    text_stats,
)
from latmon.analysis.stats import CONFIDENCE, EXTRA_KEYS, PERCENTILES, SUMMARY_KEYS, stat_cell
from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_each,
    parse_deadline,
    report_problems,
    show_progress,
)
from latmon.inputs.ingest import detect_format
from latmon.inputs.readers import ReadOptions
from latmon.inputs.runfile import read_run_header
from latmon.model import Run
from latmon.tables import FORMATS, Column, Table, fmt, render

#: Show a progress bar for run files with at least this many rows (and only on a terminal).
PROGRESS_ROWS = 20_000_000


@contextmanager
def progress_bar(path: Path, rows: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr for a large file; None when stderr is not a terminal."""
    if not show_progress(rows, PROGRESS_ROWS):
        yield None
        return
    with click.progressbar(length=rows, label=path.name, file=sys.stderr) as bar:
        yield bar.update


def file_stats(
    path: str,
    fmt_name: str,
    keep_going: bool,
    read_options: ReadOptions,
    confidence: float,
    deadline_ns: int | None,
    max_bins: int,
) -> list[SeriesStats]:
    """Statistics of every series of one input; run files are streamed in bounded memory."""
    p = Path(path)
    detected = fmt_name
    if p.is_file() and fmt_name == "auto":
        detected = detect_format(p)
    if p.is_file() and detected == "run":
        _, rows = read_run_header(p)
        with progress_bar(p, sum(rows)) as update:
            return run_file_stats(p, confidence, deadline_ns, max_bins, update)
    if p.is_file() and detected in STREAMED_TEXT:
        read_options.keep_going = keep_going
        return text_stats(p, detected, read_options, confidence, deadline_ns, max_bins)
    runs = next(load_each([path], fmt_name, keep_going, read_options))[1]
    return series_stats(runs, confidence, deadline_ns, max_bins)


@click.command()
@input_options
@click.option("--json", "as_json", is_flag=True, help="One JSON object per series, in a list.")
@click.option(
    "--output-format",
    "out_format",
    type=click.Choice([*FORMATS, "json"]),
    default="terminal",
    show_default=True,
    help="The table's format (json: the same as --json).",
)
@click.option(
    "--unit",
    type=click.Choice(["native", "ns"]),
    default="native",
    show_default=True,
    help="native: each series in its own unit (ns or cycles); ns: cycles converted to ns.",
)
@click.option(
    "--confidence",
    type=click.FloatRange(0.5, 0.9999),
    default=CONFIDENCE,
    show_default=True,
    help="Confidence of the percentile intervals.",
)
@click.option("--deadline", help="Count the samples above a deadline, e.g. 3ms or 250us.")
@click.option(
    "--wide",
    is_flag=True,
    help="Terminal: every column (resolution, mean, median, stdev, jitter, rsd%, every "
    "percentile; with --deadline the count above it and the margin) instead of the compact "
    "n, min, p50, p99 with its interval, max (and the verdict). The other formats always "
    "hold every column.",
)
@click.option(
    "--max-bins",
    type=click.IntRange(min=1024),
    default=MAX_BINS,
    show_default=True,
    help="At most this many exact-count bins per series (memory: 8 bytes each); a series "
    "spread wider is counted in coarser bins and its order statistics made exact by a "
    "second pass over the file.",
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    as_json: bool,
    out_format: str,
    unit: str,
    confidence: float,
    deadline: str | None,
    wide: bool,
    max_bins: int,
    read_options: ReadOptions,
) -> None:
    """Statistics of every series in FILES (run files, latmon-log or any supported format).

    count, min, max, mean, median, stdev (n-1), jitter = max(max-mean, mean-min), rsd_pct and
    nearest-rank percentiles p50 ... p99_999 with distribution-free confidence intervals,
    exact on integer samples at any size. Run files are read in batches, in memory bounded by
    the bins. The terminal table is compact (it fits about 100 columns); --wide, --json and the
    other formats give every figure.
    """
    deadline_ns = parse_deadline(deadline)
    results: list[SeriesStats] = []
    for path in files:
        results.extend(
            file_stats(path, fmt, keep_going, read_options, confidence, deadline_ns, max_bins)
        )
    runs: list[Run] = []
    for r in results:
        if all(r.run is not x for x in runs):
            runs.append(r.run)
    damaged = report_problems(runs)
    if unit == "ns":
        for r in results:
            if r.series.unit == "cycles":
                r.summary = r.summary.in_unit("ns", r.series.ns_per_unit)
    if as_json or out_format == "json":
        json.dump([row_of(r) for r in results], sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        compact = out_format == "terminal" and not wide
        table = stats_table(results, deadline_ns is not None, compact)
        click.echo(render(table, out_format), nl=False)
        if results and out_format == "terminal":
            click.echo(legend(results, confidence, compact))
    if damaged:
        click.echo(
            "latmon: the input was damaged: the statistics above cover only its valid records",
            err=True,
        )
        sys.exit(EXIT_DAMAGED)


def legend(results: list[SeriesStats], confidence: float, compact: bool) -> str:
    """What the marks of the terminal table mean (only those it uses), wrapped to fit."""
    items = []
    units = {r.summary.unit for r in results}
    if compact and len(units) == 1:
        items.append(f"values in {units.pop()}")
    items.append(f"p99 CI: {confidence:.0%} distribution-free interval (— : unbounded)")
    if any(not r.summary.exact for r in results):
        items.append("[hist ±W]: binned data, values at their bin's lower edge, up to W above")
    if any(r.summary.open_bins for r in results):
        items.append("≥x: in the histogram's overflow")
        if not compact:
            items.append("mean, stdev, jitter, rsd% a…b: the range the overflow allows")
    if compact:
        items.append("--wide: every column")
    return textwrap.fill("; ".join(items), width=TERMINAL_WIDTH, break_on_hyphens=False)


def row_of(r: SeriesStats) -> dict[str, object]:
    """One JSON object: the foundation's keys first, in their order, then the newer ones."""
    run, series, summary = r.run, r.series, r.summary
    row: dict[str, object] = {"source": run.source, "series": series.name, "unit": summary.unit}
    values = summary.as_dict()
    row.update({k: values[k] for k in SUMMARY_KEYS})
    row["run"] = run.label
    row["file"] = run.path
    resolution = Fraction(series.resolution) * summary.scale
    row["resolution"] = int(resolution) if resolution.denominator == 1 else float(resolution)
    row["stdev_pop"] = values["stdev_pop"]
    row["exact"] = summary.exact
    if not summary.exact:
        row["bin_error"] = int(summary.bin_error * summary.scale)
    if series.clock_hz:
        row["clock_hz"] = series.clock_hz
    row["damaged"] = run.damaged
    if run.damaged:
        row["problems"] = run.problems
    row.update({k: values[k] for k in EXTRA_KEYS})
    row.update(summary.ci_dict())
    row["confidence"] = summary.confidence
    if series.histogram is not None:
        row["underflow"] = series.histogram.underflow
        row["overflow"] = series.histogram.overflow
    row.update(summary.range_dict())
    row.update(summary.deadline_dict())
    return row


STATS_COLUMNS = [
    Column("run", "run", "l"),
    Column("series", "series", "l"),
    Column("unit", "unit", "l"),
    Column("count", "n"),
    Column("resolution", "res"),
    Column("min", "min"),
    Column("mean", "mean"),
    Column("median", "median"),
    Column("max", "max"),
    Column("stdev", "stdev"),
    Column("jitter", "jitter"),
    Column("rsd_pct", "rsd%"),
    *(Column(k, k) for k in PERCENTILES),
    Column("p99_ci", "p99 CI"),
]
#: The compact terminal table: what a reader needs first, fitting about 100 columns (the unit
#: only when the rows differ in it; else the legend names it).
COMPACT_KEYS = ("run", "series", "unit", "count", "min", "p50", "p99", "p99_ci", "max")
#: The compact table shortens run labels longer than this (in the middle: both ends tell).
COMPACT_LABEL = 22
#: The width the compact table and the legend are made for.
TERMINAL_WIDTH = 100
DEADLINE_COLUMNS = [
    Column("above_deadline", "> deadline"),
    Column("margin", "margin"),
    Column("verdict", "verdict", "l"),
]


def shorten(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters in the middle (…), both ends kept."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


def stats_table(results: list[SeriesStats], with_deadline: bool, compact: bool = False) -> Table:
    """The statistics table; every figure through :func:`latmon.analysis.stats.stat_cell`, as in
    compare and the report. ``compact``: n, min, p50, p99 with its interval and max (and
    the deadline's columns), run labels shortened."""
    columns = STATS_COLUMNS
    if compact:
        by_key = {c.key: c for c in STATS_COLUMNS}
        one_unit = len({r.summary.unit for r in results}) <= 1
        columns = [by_key[k] for k in COMPACT_KEYS if not (k == "unit" and one_unit)]
    deadline_columns = DEADLINE_COLUMNS
    if compact:
        deadline_columns = [c for c in DEADLINE_COLUMNS if c.key == "verdict"]
    table = Table(columns + (deadline_columns if with_deadline else []))
    for r in results:
        s = r.summary
        label = r.series.name + (" [DAMAGED]" if r.run.damaged else "")
        if not s.exact:
            label += f" [hist ±{fmt(Fraction(s.bin_error) * s.scale)}]"
        resolution = Fraction(r.series.resolution) * s.scale
        cells: dict[str, object] = {
            "run": shorten(r.run.label, COMPACT_LABEL) if compact else r.run.label,
            "series": label,
            "unit": s.unit,
            "count": s.count,
            "resolution": resolution,
        }
        for key in ("min", "mean", "median", "max", "stdev", "jitter", "rsd_pct", *PERCENTILES):
            cells[key] = stat_cell(s, key)
        cells["p99_ci"] = stat_cell(s, "p99_ci")
        if with_deadline and s.deadline is not None:
            d = s.deadline_dict()
            cells.update({k: d[k] for k in ("above_deadline", "margin", "verdict")})
        table.add(cells)
    return table
