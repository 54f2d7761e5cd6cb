"""Options shared by several subcommands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from latmon.ingest import FORMATS
from latmon.readers import UNIT_NS, ReadOptions

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
        **kwargs: Any,
    ) -> Any:
        options = ReadOptions(input_unit=input_unit, irq=irq, ack=ack, clock_hz=clock_hz)
        return inner(*args, read_options=options, **kwargs)

    func = wrapper
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
    return click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))(func)


def report_problems(runs: list[Any]) -> bool:
    """Print every problem of damaged runs to stderr; True if there was any."""
    damaged = False
    for run in runs:
        for problem in run.problems:
            click.echo(f"latmon: warning: {run.path}: {problem}", err=True)
            damaged = True
    return damaged
