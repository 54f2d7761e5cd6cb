"""Options shared by several subcommands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from latmon.ingest import FORMATS

#: Exit status when results were produced from damaged input (with --keep-going).
EXIT_DAMAGED = 3

F = Callable[..., Any]


def input_options(func: F) -> F:
    """FILE... arguments with --format and --keep-going."""
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
