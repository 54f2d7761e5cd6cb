"""latmon ingest: latmon-log (and other inputs) to run files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    load_each,
    report_problems,
    run_files_output,
)
from latmon.errors import LatmonError, printable
from latmon.model import Run
from latmon.readers import ReadOptions
from latmon.runfile import write_run


@click.command()
@input_options
@run_files_output
@click.option(
    "--meta",
    "extra_meta",
    multiple=True,
    metavar="KEY=VALUE",
    help="Add to every run's metadata what the log cannot know, e.g. "
    "env.hypervisor='Xen 4.17.3' or env.vcpu_pinning='domu v0->p2' (repeatable).",
)
@click.option("--json", "as_json", is_flag=True, help="List the written run files as JSON.")
def command(
    files: tuple[str, ...],
    fmt: str,
    keep_going: bool,
    outdir: str,
    force: bool,
    extra_meta: tuple[str, ...],
    as_json: bool,
    read_options: ReadOptions,
) -> None:
    """Convert FILES into run files: one Parquet file per run, metadata inside.

    A file holding several logs gives one run file each (NAME-1.parquet, NAME-2.parquet, ...).
    """
    added = {}
    for item in extra_meta:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise click.BadParameter(f"{item!r}: write KEY=VALUE", param_hint="--meta")
        added[key.strip()] = value.strip()
    out = Path(outdir)
    plan: list[tuple[Path, Run]] = []
    all_runs: list[Run] = []
    for name, runs in load_each(list(files), fmt, keep_going, read_options):
        all_runs.extend(runs)
        stem = Path(name).stem
        for k, run in enumerate(runs, start=1):
            target = out / (f"{stem}.parquet" if len(runs) == 1 else f"{stem}-{k}.parquet")
            plan.append((target, run))
    targets = [t for t, _ in plan]
    clashes = {t for t in targets if targets.count(t) > 1}
    if clashes:
        raise LatmonError(
            f"two inputs would both be written to {sorted(clashes)[0]}; give them different names"
        )
    existing = [t for t in targets if t.exists()]
    if existing and not force:
        raise LatmonError(f"{existing[0]} exists; give --force to overwrite it")
    damaged = report_problems(all_runs)
    written = []
    for target, run in plan:
        run.meta.update(added)
        write_run(run, target)
        n_series = len(run.series)
        n_samples = sum(len(s.latency) for s in run.series)
        written.append(
            {
                "file": printable(str(target)),
                "source": run.path,
                "run": run.label,
                "series": n_series,
                "samples": n_samples,
                "damaged": run.damaged,
            }
        )
        if not as_json:
            mark = " [DAMAGED: valid records only]" if run.damaged else ""
            click.echo(
                f"wrote {printable(str(target))} ({n_series} series, {n_samples} samples){mark}"
            )
    if as_json:
        json.dump(written, sys.stdout, indent=2)
        sys.stdout.write("\n")
    if damaged:
        sys.exit(EXIT_DAMAGED)
