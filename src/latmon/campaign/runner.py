"""`latmon run`: measurement campaigns from scenario files.

For each repetition of each scenario the runner starts the load in its own process group, waits
for the warm-up, runs latprobe (and, for side-by-side scenarios, cyclictest under the same load
right after), stops the load, and turns the log into a run file whose metadata holds the
scenario, the repetition, the load and the machine's environment. Repetitions of several
scenarios are interleaved (a1 b1 a2 b2 ...) so that slow drifts of the machine spread over all
of them instead of biasing one.

Load processes never outlive the runner: they are stopped by process group after each
measurement, on Ctrl-C or SIGTERM, and the kernel kills them (PR_SET_PDEATHSIG) if the runner
itself is killed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from latmon.campaign.environment import environment
from latmon.campaign.host import find_latprobe, signals_interrupt
from latmon.campaign.kinds import run_step
from latmon.campaign.scenario import Scenario
from latmon.campaign.steps import Interrupted, StepResult, interleave

__all__ = ["find_latprobe", "run_campaign"]


def run_campaign(
    scenarios: list[Scenario],
    outdir: Path,
    latprobe: Path,
    repetitions: int | None = None,
    progress: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> tuple[list[StepResult], bool]:
    """Run every step; return the results and whether the campaign was interrupted."""
    outdir.mkdir(parents=True, exist_ok=True)
    steps = interleave(scenarios, repetitions)
    env = environment()
    results: list[StepResult] = []
    interrupted = False
    with signals_interrupt():
        for step in steps:
            progress(
                f"[{step.order}/{len(steps)}] {step.scenario.name}, repetition "
                f"{step.repetition}: load {step.scenario.load.describe()}"
            )
            try:
                result = run_step(step, outdir, latprobe, env)
            except Interrupted:
                interrupted = True
                break
            results.append(result)
            for note in result.notes or []:
                progress(f"  note: {note}")
            if result.interrupted:
                interrupted = True
                break
    manifest = {
        "interrupted": interrupted,
        "environment": env,
        "steps": [
            {
                "order": r.step.order,
                "scenario": r.step.scenario.name,
                "repetition": r.step.repetition,
                "run_files": [p.name for p in r.run_files],
                "logs": [p.name for p in r.logs if p.exists()],
                "interrupted": r.interrupted,
                "notes": r.notes,
            }
            for r in results
        ],
        "planned": [
            {"order": s.order, "scenario": s.scenario.name, "repetition": s.repetition}
            for s in steps
        ],
    }
    (outdir / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return results, interrupted
