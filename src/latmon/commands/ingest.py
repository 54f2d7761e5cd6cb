"""latmon ingest: latmon-log (and other inputs) to run files."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from latmon.commands.options import (
    EXIT_DAMAGED,
    input_options,
    report_problems,
    run_files_output,
)
from latmon.errors import LatmonError, printable
from latmon.inputs.ingest import check_input, detect_format, load
from latmon.inputs.readers import ReadOptions, plain
from latmon.inputs.readers.plain import Streamed
from latmon.inputs.runfile import write_run, write_streamed_run
from latmon.model import Run, record_measures


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
    plan: list[tuple[Path, Run, Streamed | None]] = []
    loaded: list[Run] = []
    for name in files:
        streamed = _plain_stream(Path(name), fmt, keep_going, read_options)
        if streamed is not None:
            plan.append((out / f"{Path(name).stem}.parquet", streamed.run, streamed))
            continue
        runs = load(name, fmt, keep_going, read_options)
        loaded.extend(runs)
        stem = Path(name).stem
        for k, run in enumerate(runs, start=1):
            target = out / (f"{stem}.parquet" if len(runs) == 1 else f"{stem}-{k}.parquet")
            plan.append((target, run, None))
    targets = [t for t, _, _ in plan]
    clashes = {t for t in targets if targets.count(t) > 1}
    if clashes:
        raise LatmonError(
            f"two inputs would both be written to {sorted(clashes)[0]}; give them different names"
        )
    existing = [t for t in targets if t.exists()]
    if existing and not force:
        raise LatmonError(f"{existing[0]} exists; give --force to overwrite it")
    damaged = report_problems(loaded)
    written: list[dict[str, object]] = []
    with _all_or_nothing(out) as staged:
        for target, run, streamed in plan:
            run.meta.update(added)
            partial = staged(target)
            if streamed is not None:
                # plain numbers: parsed and written block by block, never held whole
                write_streamed_run(run, streamed.batches(), partial)
                damaged |= report_problems([run])
            else:
                write_run(run, partial)
            n_series = len(run.series)
            n_samples = sum(
                int(s.counters.get("events", 0)) if streamed else len(s.latency) for s in run.series
            )
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
    for done in [] if as_json else written:
        mark = " [DAMAGED: valid records only]" if done["damaged"] else ""
        click.echo(
            f"wrote {done['file']} ({done['series']} series, {done['samples']} samples){mark}"
        )
    if as_json:
        json.dump(written, sys.stdout, indent=2)
        sys.stdout.write("\n")
    if damaged:
        sys.exit(EXIT_DAMAGED)


def _plain_stream(path: Path, fmt: str, keep_going: bool, options: ReadOptions) -> Streamed | None:
    """A plain-number input as a stream (its values are never held whole), or None for every
    other format (read whole by :func:`latmon.inputs.ingest.load`)."""
    if fmt not in ("auto", plain.NAME):
        return None
    check_input(path)
    if fmt == "auto" and detect_format(path) != plain.NAME:
        return None
    options.keep_going = keep_going
    streamed = plain.stream(path, options)
    record_measures(streamed.run)
    return streamed


@contextmanager
def _all_or_nothing(out: Path) -> Iterator[Callable[[Path], Path]]:
    """Run files written under temporary names beside their targets and renamed over them
    only when every one is written: a bad input (found while streaming) leaves nothing, not
    even the output folder when this made it."""
    staged: list[tuple[Path, Path]] = []
    made = not out.exists()

    def stage(target: Path) -> Path:
        partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
        staged.append((partial, target))
        return partial

    try:
        yield stage
    except BaseException:
        for partial, _ in staged:
            partial.unlink(missing_ok=True)
        if made and out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        raise
    for partial, target in staged:
        os.replace(partial, target)
