"""latmon fleet: latency histograms of many exporters, pulled from Prometheus into run files."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import click

from latmon.commands.options import run_files_output
from latmon.errors import LatmonError
from latmon.fleet.prometheus import http_fetch, parse_time, pull, selector_for
from latmon.inputs.runfile import write_run


def _file_name(value: str) -> str:
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", value).strip("._")
    return name or "fleet"


@click.command()
@click.argument("url")
@click.option(
    "--match",
    "matchers",
    multiple=True,
    metavar="MATCHER",
    help='A label matcher, e.g. host=~"board-.*" or site="plant3" (repeatable; all must hold).',
)
@click.option(
    "--start", default="-1h", show_default=True, help="Start: now, -30m, Unix seconds or ISO 8601."
)
@click.option("--end", default="now", show_default=True, help="End (same forms as --start).")
@click.option(
    "--by",
    default="host",
    show_default=True,
    help="The label that makes a run: one run file per value.",
)
@click.option(
    "--lookback",
    default=300.0,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Seconds before --start searched for the counters' starting values.",
)
@run_files_output
@click.option("--json", "as_json", is_flag=True, help="List the written run files as JSON.")
def command(
    url: str,
    matchers: tuple[str, ...],
    start: str,
    end: str,
    by: str,
    lookback: float,
    outdir: str,
    force: bool,
    as_json: bool,
) -> None:
    """Pull the latency histograms of latmon exporters from the Prometheus API at URL
    (Prometheus, Thanos, Mimir ...) over a time range into run files, one per --by value.

    The counts are exact: the scraped integer counters' growth over the range, exporter
    restarts (counter resets) included, no extrapolation. stats, compare, report and query then
    work on the fleet as on lab runs. See docs/fleet.md.
    """
    now = time.time()
    t0, t1 = parse_time(start, now), parse_time(end, now)
    selector = selector_for(matchers)
    runs = pull(http_fetch(url), selector, t0, t1, by=by, lookback=lookback, source_url=url)
    out = Path(outdir)
    plan = [(out / f"{_file_name(r.meta.get(by, '') or 'fleet')}.parquet", r) for r in runs]
    existing = [t for t, _ in plan if t.exists()]
    if existing and not force:
        raise LatmonError(f"{existing[0]} exists; give --force to overwrite it")
    written = []
    for target, run in plan:
        write_run(run, target)
        samples = sum(s.histogram.total for s in run.series if s.histogram)
        written.append(
            {"file": str(target), "run": run.label, "series": len(run.series), "samples": samples}
        )
        if not as_json:
            click.echo(f"wrote {target} ({len(run.series)} series, {samples} samples)")
    if as_json:
        json.dump(written, sys.stdout, indent=2)
        sys.stdout.write("\n")
