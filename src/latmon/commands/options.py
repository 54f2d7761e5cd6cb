"""Options shared by several subcommands."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from latmon.campaign.scenario import parse_duration_ns
from latmon.errors import InputError
from latmon.inputs.ingest import FORMATS, load, load_all
from latmon.inputs.readers import ReadOptions
from latmon.inputs.readers.units import UNIT_NS
from latmon.inputs.runfile import run_files_under
from latmon.model import Run

#: Exit status when results were produced from damaged input (with --keep-going).
EXIT_DAMAGED = 3

F = Callable[..., Any]


def input_options(func: F) -> F:
    """FILE... arguments with --format, --keep-going and the options some formats need; the
    command receives the latter as ``read_options``."""

    inner = func

    @functools.wraps(inner)
    def wrapper(
        *args: Any,
        input_unit: str | None,
        irq: str | None,
        ack: str | None,
        clock_hz: int | None,
        column: str | None,
        **kwargs: Any,
    ) -> Any:
        options = ReadOptions(
            input_unit=input_unit, irq=irq, ack=ack, clock_hz=clock_hz, column=column
        )
        if "files" in kwargs:
            kwargs["files"] = tuple(expand_folders(kwargs["files"]))
        return inner(*args, read_options=options, **kwargs)

    func = wrapper
    func = click.option(
        "--column",
        help="Plain numbers in a CSV: the column that holds the latency (its header name, or "
        "its number from 1); needed when there are several and no 'latency' header.",
    )(func)
    func = click.option(
        "--clock-hz",
        type=click.IntRange(min=1),
        help="ILA CSV: the sample clock in Hz (latencies are counted in its cycles).",
    )(func)
    func = click.option(
        "--ack", help="ILA CSV: the ack signal's column (default: the one named *ack*)."
    )(func)
    func = click.option(
        "--irq", help="ILA CSV: the irq signal's column (default: the one named *irq*)."
    )(func)
    func = click.option(
        "--input-unit",
        type=click.Choice(sorted(UNIT_NS, key=UNIT_NS.__getitem__)),
        help="Unit of inputs that do not say it: plain numbers (default ns), cyclictest text "
        "and samples.raw (default us; give ns for output of -N).",
    )(func)
    func = click.option(
        "--keep-going",
        is_flag=True,
        help="Use the valid records of damaged logs (reported, marked, exit status 3) "
        "instead of stopping at the first problem.",
    )(func)
    func = click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        default="auto",
        show_default=True,
        help="Input format; auto detects it from the content.",
    )(func)
    # plain strings: a missing file or an unreadable file is reported by the reader in one
    # line (file: problem), not by click's usage text; a folder stands for its run files
    return click.argument("files", nargs=-1, required=True)(func)


def expand_folders(names: tuple[str, ...]) -> list[str]:
    """The inputs named, a folder standing for the run files under it
    (:func:`latmon.inputs.runfile.run_files_under`)."""
    out: list[str] = []
    for name in names:
        path = Path(name)
        if not path.is_dir():
            out.append(name)
            continue
        found = [str(q) for q in run_files_under(path)]
        if not found:
            raise InputError(
                name,
                None,
                "a folder without run files (*.parquet): give the files in it, or convert "
                "them with latmon ingest",
            )
        out.extend(found)
    return out


def report_problems(runs: list[Any]) -> bool:
    """Print every problem of damaged runs to stderr; True if there was any."""
    damaged = False
    for run in runs:
        for problem in run.problems:
            click.echo(f"latmon: warning: {run.path}: {problem}", err=True)
            damaged = True
    return damaged


#: Show a progress bar when the inputs total at least this many bytes (and stderr is a terminal).
PROGRESS_BYTES = 64 << 20


def show_progress(size: int, threshold: int) -> bool:
    """Progress bars go to stderr, only on a terminal and for large inputs;
    LATMON_NO_PROGRESS=1 turns them off."""
    return size >= threshold and sys.stderr.isatty() and not os.environ.get("LATMON_NO_PROGRESS")


def _size(name: str) -> int:
    try:
        return Path(name).stat().st_size
    except OSError:
        return 0  # load() reports the problem with the file


def load_each(
    paths: list[str], fmt: str, keep_going: bool, options: ReadOptions
) -> Iterator[tuple[str, list[Run]]]:
    """(path, its runs) for every input, with a progress bar over the bytes read when the
    inputs are large and stderr is a terminal."""
    sizes = [_size(p) for p in paths]
    if not show_progress(sum(sizes), PROGRESS_BYTES):
        for path in paths:
            yield path, load(path, fmt, keep_going, options)
        return
    with click.progressbar(length=sum(sizes), label="reading", file=sys.stderr) as bar:
        for path, size in zip(paths, sizes, strict=True):
            runs = load(path, fmt, keep_going, options)
            bar.update(size)
            yield path, runs


def load_files(paths: list[str], fmt: str, keep_going: bool, options: ReadOptions) -> list[Run]:
    """Every input's runs, the list handed to :func:`latmon.inputs.ingest.load_all` once, with a
    progress bar over the bytes read when the inputs are large and stderr is a terminal."""
    sizes = [_size(p) for p in paths]
    if not show_progress(sum(sizes), PROGRESS_BYTES):
        return load_all(paths, fmt, keep_going, options)
    with click.progressbar(length=sum(sizes), label="reading", file=sys.stderr) as bar:
        return load_all(paths, fmt, keep_going, options, done=lambda i: bar.update(sizes[i]))


def parse_deadline(deadline: str | None) -> int | None:
    """The --deadline option (e.g. 3ms, 250us; a bare number is µs) in ns, or None."""
    try:
        return parse_duration_ns(deadline, "us") if deadline else None
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--deadline") from None


def run_files_output(func: F) -> F:
    """-o/--output FOLDER for the run files a command writes, and --force to overwrite them;
    the command receives ``outdir`` and ``force``."""
    func = click.option("--force", is_flag=True, help="Overwrite run files that exist.")(func)
    return click.option(
        "-o",
        "--output",
        "outdir",
        required=True,
        type=click.Path(file_okay=False),
        help="Folder for the run files (created if missing).",
    )(func)
