"""latmon report: one self-contained HTML report, figure files and a Markdown summary."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import click

from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_files,
    parse_deadline,
    report_problems,
)
from latmon.inputs.ingest import detect_format
from latmon.inputs.readers import ReadOptions
from latmon.model import Run
from latmon.output import write_text
from latmon.report import HtmlReport, MarkdownReport
from latmon.report.browser import open_in_browser, print_pdf
from latmon.report.stream import StreamedSeries, should_stream, stream_run_file


def load_for_report(
    files: list[str],
    fmt: str,
    keep_going: bool,
    read_options: ReadOptions,
    deadline_ns: int | None,
) -> tuple[list[Run], dict[int, StreamedSeries]]:
    """Every input's runs; a large run file streamed (latmon.report.stream: its samples never
    held whole), what the report draws from each of its series by the series' id."""
    runs: list[Run] = []
    streamed: dict[int, StreamedSeries] = {}
    pending: list[str] = []  # the files read whole, handed to the loader as one list

    def flush() -> None:
        if pending:
            runs.extend(load_files(pending, fmt, keep_going, read_options))
            pending.clear()

    for path in files:
        p = Path(path)
        try:
            whole = not (
                fmt in ("auto", "run")
                and p.is_file()
                and detect_format(p) == "run"
                and should_stream(p)
            )
        except Exception:
            flush()  # the files before it are read first, and fail first, in the given order
            raise
        if whole:
            pending.append(path)
            continue
        flush()
        run, found = stream_run_file(p, deadline_ns)
        runs.append(run)
        streamed.update(found)
    flush()
    return runs, streamed


@click.command()
@input_options
@click.option(
    "-o",
    "--output",
    help="The HTML report file (a FIFO or device is written as a stream; '-': standard output).",
)
@click.option(
    "--markdown",
    help="Also write the summary table as Markdown to this file ('-': standard output), "
    "e.g. for a CI log or $GITHUB_STEP_SUMMARY.",
)
@click.option(
    "--figures",
    help="Also write every figure of the report into this directory.",
)
@click.option(
    "--figure-format",
    type=click.Choice(["png", "svg"]),
    default="png",
    show_default=True,
    help="File format of the --figures files.",
)
@click.option("--deadline", help="Mark the deadline and give a verdict per series, e.g. 3ms.")
@click.option("--title", default="latmon report", show_default=True)
@click.option(
    "--open",
    "open_browser",
    is_flag=True,
    help="Open the HTML report in your browser ($BROWSER, else the system's) once written.",
)
@click.option(
    "--pdf",
    help="Also print the report to this PDF file with headless Chromium (figures drawn, A4 "
    "landscape), e.g. to attach to a test record.",
)
@click.option(
    "--notes",
    type=click.Path(exists=True, dir_okay=False),
    help="A text file shown verbatim under the summary of the HTML report (what the figures "
    "mean, how they were produced).",
)
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    output: str | None,
    markdown: str | None,
    figures: str | None,
    figure_format: str,
    deadline: str | None,
    title: str,
    notes: str | None,
    open_browser: bool,
    pdf: str | None,
    read_options: ReadOptions,
) -> None:
    """Report on FILES: first the verdict per configuration (with --deadline), ranked, for each
    measure (quantity and path: only series that measure the same are compared); then per
    measure the configurations compared, interactive figures (percentiles, exceedance,
    histogram, latency over time with its spikes) and every series' statistics; the stages of
    the interrupt path; the probabilistic worst case (extreme-value analysis with its
    checks; docs/tail.md); each run's metadata. One self-contained file that works offline.

    Give at least one of -o (HTML), --markdown, --figures and --pdf.
    """
    if not (output or markdown or figures or pdf):
        raise click.UsageError(
            "nothing to write: give -o REPORT.html, --markdown, --figures or --pdf"
        )
    if open_browser and (not output or output == "-"):
        raise click.UsageError("--open needs the HTML report in a file: give -o REPORT.html")
    deadline_ns = parse_deadline(deadline)
    runs, streamed = load_for_report(list(files), fmt, keep_going, read_options, deadline_ns)
    damaged = report_problems(runs)
    if output or figures or pdf:
        report = HtmlReport(
            title,
            deadline_ns,
            Path(figures) if figures else None,
            figure_format,
        )
        if notes:
            try:
                report.notes = Path(notes).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                raise click.BadParameter(f"cannot read {notes}: {e}", param_hint="--notes") from e
        text = report.render(runs, streamed)
        if output:
            write_text(output, text)
            if output != "-":
                click.echo(output)
        for path in report.written:
            click.echo(str(path))
        if pdf:
            with tempfile.TemporaryDirectory(prefix="latmon-report-") as folder:
                page = Path(folder) / "report.html"
                page.write_text(text, encoding="utf-8")
                print_pdf(page, pdf)
            if pdf != "-":
                click.echo(pdf)
        if open_browser and output:
            problem = open_in_browser(Path(output))
            if problem:
                click.echo(f"latmon: note: {problem}", err=True)
    if markdown:
        summary = MarkdownReport(title, deadline_ns).render(runs, streamed)
        write_text(markdown, summary)
        if markdown != "-":
            click.echo(markdown)
    if damaged:
        sys.exit(EXIT_DAMAGED)
