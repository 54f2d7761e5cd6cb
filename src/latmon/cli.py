"""The `latmon` command line: a thin dispatcher, one module per subcommand in latmon.commands.

User errors (:class:`latmon.errors.LatmonError`) become one line on stderr and exit status 2,
never a traceback. Exit statuses are documented in docs/cli.md.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings

import click

from latmon import __version__
from latmon.errors import LatmonError

# Subcommand name -> module in latmon.commands that defines `command` (a click.Command).
COMMANDS: dict[str, str] = {
    "compare": "compare",
    "ingest": "ingest",
    "plan": "plan",
    "report": "report",
    "run": "run",
    "stats": "stats",
    "tail": "tail",
}

EXIT_USAGE = 2
EXIT_INTERNAL = 70


class LatmonGroup(click.Group):
    """Loads subcommands lazily so `latmon --help` stays fast."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = COMMANDS.get(cmd_name)
        if module is None:
            return None
        command = importlib.import_module(f"latmon.commands.{module}").command
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LatmonGroup)
@click.version_option(__version__, prog_name="latmon")
def cli() -> None:
    """latmon: measure, monitor and report interrupt and I/O latency."""


def _warning(message: Warning | str, category: type[Warning], *_: object, **__: object) -> None:
    """Warnings as one line each (never a source line or a traceback)."""
    click.echo(f"latmon: warning: {message}", err=True)


def main(argv: list[str] | None = None) -> int:
    warnings.showwarning = _warning
    try:
        cli.main(args=argv, prog_name="latmon", standalone_mode=False)
    except LatmonError as error:
        click.echo(f"latmon: error: {error}", err=True)
        return EXIT_USAGE
    except click.exceptions.Abort:
        click.echo("latmon: aborted", err=True)
        return 130
    except click.UsageError as error:
        # one line: what is wrong and where the usage is, not the usage text itself
        command = error.ctx.command_path if error.ctx is not None else "latmon"
        message = " ".join(error.format_message().split())
        click.echo(f"{command}: error: {message} (see '{command} --help')", err=True)
        return EXIT_USAGE
    except click.ClickException as error:
        click.echo(f"latmon: error: {' '.join(error.format_message().split())}", err=True)
        return EXIT_USAGE
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except BrokenPipeError:
        # `latmon stats ... | head`: the reader went away; that is not an error of ours.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        click.echo("latmon: interrupted", err=True)
        return 130
    except OSError as error:  # the machine's, not a bug: a full disk, a vanished file
        where = f"{error.filename}: " if error.filename else ""
        click.echo(f"latmon: error: {where}{error.strerror or error}", err=True)
        return EXIT_USAGE
    except Exception as error:  # a bug of ours, not the user's
        if os.environ.get("LATMON_DEBUG"):
            raise
        click.echo(
            f"latmon: internal error: {type(error).__name__}: {error}. This is a bug in latmon; "
            "please report it with the command line (LATMON_DEBUG=1 shows the traceback).",
            err=True,
        )
        return EXIT_INTERNAL
    return 0


def run() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    run()
