"""latmon run: measurement campaigns from scenario files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from latmon.campaign.runner import find_latprobe, run_campaign
from latmon.campaign.scenario import load_scenario, parse_duration_ns

EXIT_INTERRUPTED = 130


@click.command()
@click.argument("scenarios", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "-o",
    "--output",
    "outdir",
    required=True,
    type=click.Path(file_okay=False),
    help="Folder for the logs, run files and manifest.json.",
)
@click.option("--repetitions", type=click.IntRange(1, 1000), help="Override every scenario's.")
@click.option("--duration", help="Override every scenario's duration, e.g. 5s.")
@click.option("--warmup", help="Override every scenario's warm-up, e.g. 1s.")
@click.option(
    "--stages",
    is_flag=True,
    help="Split every wake-up into the stages of the interrupt path (latprobe --stages; root).",
)
@click.option(
    "--policy",
    type=click.Choice(["fifo", "rr", "other"]),
    help="Override every scenario's scheduling policy (other: no real-time priority, no root).",
)
@click.option(
    "--latprobe",
    "latprobe_path",
    help="The latprobe binary (default: on PATH or build/sw/latprobe of this checkout).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the manifest (JSON) on stdout.")
def command(
    scenarios: tuple[str, ...],
    outdir: str,
    repetitions: int | None,
    duration: str | None,
    warmup: str | None,
    stages: bool,
    policy: str | None,
    latprobe_path: str | None,
    as_json: bool,
) -> None:
    """Run the SCENARIOS (YAML files, see docs/scenarios.md), repetitions interleaved, and write
    one run file per repetition into OUTPUT. Ctrl-C stops cleanly: the load is stopped, the
    repetition in progress is kept with what it measured, and the exit status is 130."""
    loaded = [load_scenario(p) for p in scenarios]
    names = [s.name for s in loaded]
    if len(set(names)) != len(names):
        raise click.BadParameter(
            f"two scenarios are named {sorted(set(n for n in names if names.count(n) > 1))[0]!r}"
        )
    for s in loaded:
        try:
            if duration:
                s.duration_ns = parse_duration_ns(duration)
            if warmup:
                s.warmup_ns = parse_duration_ns(warmup)
            if stages:
                s.probe.stages = True
            if policy:
                s.probe.policy = policy
                if policy == "other":
                    s.probe.mlock = False
        except ValueError as error:
            raise click.BadParameter(str(error)) from None
    # guest scenarios run the arm64 latprobe inside the initramfs, not this machine's
    needs_host = any(s.target.kind == "host" for s in loaded)
    latprobe = find_latprobe(latprobe_path) if needs_host else Path("latprobe")
    results, interrupted = run_campaign(loaded, Path(outdir), latprobe, repetitions)
    manifest = Path(outdir) / "manifest.json"
    if as_json:
        click.echo(manifest.read_text(encoding="utf-8"), nl=False)
    else:
        for r in results:
            for f in r.run_files:
                click.echo(str(f))
    click.echo(f"manifest: {manifest}", err=True)
    if interrupted:
        click.echo("latmon: interrupted; the runs measured so far are kept", err=True)
        sys.exit(EXIT_INTERRUPTED)
