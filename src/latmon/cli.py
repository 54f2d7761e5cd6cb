"""The `latmon` command line."""

import click

from latmon import __version__


@click.group()
@click.version_option(__version__)
def main() -> None:
    """latmon: measure, monitor and report interrupt and I/O latency."""
