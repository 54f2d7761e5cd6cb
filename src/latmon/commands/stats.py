"""latmon stats: statistics per series, as a table or JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_each,
    parse_deadline,
    report_problems,
    show_progress,
)
from latmon.counting import MAX_BINS
from latmon.formatting import fmt
from latmon.ingest import detect_format
from latmon.model import Run, Series
from latmon.readers import ReadOptions
from latmon.runfile import read_run_header
from latmon.stats import (
    CONFIDENCE,
    EXTRA_KEYS,
    PERCENTILES,
    SUMMARY_KEYS,
    Summary,
    deadline_in_unit,
    summarize_run_file,
    summarize_series,
)

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


def summaries(
    path: str,
    fmt_name: str,
    keep_going: bool,
    read_options: ReadOptions,
    confidence: float,
    deadline_ns: int | None,
    max_bins: int,
) -> list[tuple[Run, Series, Summary]]:
    """(run, series, statistics) of one input; run files are streamed in bounded memory."""
    p = Path(path)
    if p.is_file() and (fmt_name == "run" or (fmt_name == "auto" and detect_format(p) == "run")):
        _, rows = read_run_header(p)
        with progress_bar(p, sum(rows)) as update:
            run, stats = summarize_run_file(
                p, PERCENTILES, confidence, deadline_ns, max_bins, update
            )
        return [(run, s, st) for s, st in zip(run.series, stats, strict=True) if st is not None]
    out = []
    for run in next(load_each([path], fmt_name, keep_going, read_options))[1]:
        for series in run.series:
            if series.is_derived:
                continue  # stages or spike explanations of another series: see latmon report
            deadline = None if deadline_ns is None else deadline_in_unit(series, deadline_ns)
            out.append((run, series, summarize_series(series, PERCENTILES, confidence, deadline)))
    return out


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
@click.option(
    "--confidence",
    type=click.FloatRange(0.5, 0.9999),
    default=CONFIDENCE,
    show_default=True,
    help="Confidence of the percentile intervals.",
)
@click.option("--deadline", help="Count the samples above a deadline, e.g. 3ms or 250us.")
@click.option(
    "--max-bins",
    type=click.IntRange(min=1024),
    default=MAX_BINS,
    show_default=True,
    help="Run files: at most this many exact-count bins per series (memory: 8 bytes each); "
    "wider-spread series larger than 32 M samples get bin-width statistics (stated).",
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    as_json: bool,
    unit: str,
    confidence: float,
    deadline: str | None,
    max_bins: int,
    read_options: ReadOptions,
) -> None:
    """Statistics of every series in FILES (run files, latmon-log or any supported format).

    count, min, max, mean, median, stdev (n-1), jitter = max(max-mean, mean-min), rsd_pct and
    nearest-rank percentiles p50 ... p99_999 with distribution-free confidence intervals,
    exact on integer samples. Run files are read in batches, in memory bounded by the bins.
    """
    deadline_ns = parse_deadline(deadline)
    results = []
    for path in files:
        results.extend(
            summaries(path, fmt, keep_going, read_options, confidence, deadline_ns, max_bins)
        )
    runs: list[Run] = []
    for run, _, _ in results:
        if all(run is not r for r in runs):
            runs.append(run)
    damaged = report_problems(runs)
    rows = [row_of(run, series, summary, unit) for run, series, summary in results]
    if as_json:
        json.dump(rows, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        print_table(rows, deadline_ns is not None)
    if damaged:
        click.echo(
            "latmon: the input was damaged: the statistics above cover only its valid records",
            err=True,
        )
        sys.exit(EXIT_DAMAGED)


def row_of(run: Run, series: Series, summary: Summary, unit: str) -> dict[str, object]:
    """One JSON object: the foundation's keys first, in their order, then the newer ones."""
    shown_unit = series.unit
    if unit == "ns" and series.unit == "cycles":
        summary = summary.scaled(series.ns_per_unit)
        shown_unit = "ns"
    row: dict[str, object] = {"source": run.source, "series": series.name, "unit": shown_unit}
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
    row.update({k: values[k] for k in EXTRA_KEYS})
    row.update(summary.ci_dict())
    row["confidence"] = summary.confidence
    if series.histogram is not None:
        row["underflow"] = series.histogram.underflow
        row["overflow"] = series.histogram.overflow
    if summary.deadline is not None:
        row.update(summary.deadline.as_dict())
    return row


def _ci(bounds: object) -> str:
    assert isinstance(bounds, list)
    return f"[{fmt(bounds[0])}, {fmt(bounds[1])}]"


def print_table(rows: list[dict[str, object]], with_deadline: bool) -> None:
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
        "p99 CI",
    ]
    if with_deadline:
        heads += ["> deadline", "margin", "verdict"]
    table = [heads]
    for r in rows:
        label = str(r["series"]) + (" [DAMAGED]" if r["damaged"] else "")
        if not r["exact"]:
            label += f" [hist ±{r['bin_error']}]"
        cells = [
            str(r["run"]),
            label,
            str(r["unit"]),
            fmt(r["count"]),
            fmt(r["resolution"]),
            *(fmt(r[k]) for k in ("min", "mean", "median", "max", "stdev", "jitter")),
            fmt(r["rsd_pct"], 2),
            *(fmt(r[k]) for k in PERCENTILES),
            _ci(r["p99_ci"]),
        ]
        if with_deadline:
            cells += [fmt(r.get("above_deadline")), fmt(r.get("margin")), str(r.get("verdict"))]
        table.append(cells)
    widths = [max(len(row[i]) for row in table) for i in range(len(heads))]
    for j, row in enumerate(table):
        cells = [
            c.ljust(w) if i < 3 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        click.echo("  ".join(cells).rstrip())
        if j == 0:
            click.echo("  ".join("-" * w for w in widths))
    if rows:
        confidence = rows[0]["confidence"]
        assert isinstance(confidence, float)
        click.echo(f"p99 CI: {confidence:.0%} distribution-free interval (— : unbounded)")
