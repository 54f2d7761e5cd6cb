"""The step kit of a campaign: one repetition of one scenario (a step), its result, the metadata
and the Linux measurement job every kind of target shares, and how a step's outputs become run
files."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from latmon.campaign import guest
from latmon.campaign.scenario import Scenario
from latmon.errors import InputError, LatmonError
from latmon.inputs.ingest import load
from latmon.inputs.runfile import write_run
from latmon.model import Run


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; what was measured so far is kept."""


@dataclass
class Step:
    """One repetition of one scenario, in the order the campaign runs them."""

    scenario: Scenario
    repetition: int
    order: int

    @property
    def stem(self) -> str:
        return f"{self.scenario.name}-r{self.repetition}"


def interleave(scenarios: list[Scenario], repetitions: int | None = None) -> list[Step]:
    """a1 b1 c1 a2 b2 c2 ...: each round runs every scenario once."""
    reps = {s.name: repetitions or s.repetitions for s in scenarios}
    steps: list[Step] = []
    for r in range(1, max(reps.values(), default=0) + 1):
        for s in scenarios:
            if r <= reps[s.name]:
                steps.append(Step(s, r, len(steps) + 1))
    return steps


@dataclass
class StepResult:
    step: Step
    run_files: list[Path]
    logs: list[Path]
    interrupted: bool = False
    notes: list[str] | None = None


def scenario_meta(step: Step) -> dict[str, str]:
    s = step.scenario
    return {
        "scenario": s.name,
        "scenario_file": s.path,
        "scenario_description": s.description,
        "repetition": str(step.repetition),
        "campaign_order": str(step.order),
        "load": s.load.describe(),
        "warmup_ns": str(s.warmup_ns),
        "duration_ns": str(s.duration_ns),
        **({"deadline_ns": str(s.deadline_ns)} if s.deadline_ns else {}),
    }


def cyclictest_command(s: Scenario, json_out: Path) -> list[str]:
    """cyclictest under the same conditions as latprobe: same CPUs, policy, priority, interval,
    duration and memory locking."""
    p = s.probe
    cmd = [
        "cyclictest",
        "-q",
        "--json",
        str(json_out),
        "-i",
        str(max(1, p.interval_ns // 1000)),
        "-D",
        f"{max(1, round(s.duration_ns / 1e9))}",
        "-h",
        "20000",
    ]
    cmd += ["-a", p.cpus, "-t"] if p.cpus != "all" else ["-S"]
    if p.cpus != "all":
        cmd.append(str(len(_expand_cpus(p.cpus))))
    if p.policy != "other":
        cmd += ["-p", str(p.priority), f"--policy={p.policy}"]
    if p.mlock:
        cmd.append("-m")
    # /dev/cpu_dma_latency as latprobe has it: cyclictest holds 0 by default
    if p.dma_latency == "none":
        cmd.append("--default-system")
    elif p.dma_latency is not None:
        cmd.append(f"--latency={p.dma_latency}")
    return cmd


_CYCLICTEST_DMA = re.compile(r"^# /dev/cpu_dma_latency set to (\d+)us", re.MULTILINE)


def cyclictest_dma_latency(output: str) -> str:
    """What cyclictest did with /dev/cpu_dma_latency, from its output ("# /dev/cpu_dma_latency
    set to 0us" when it held it), as latprobe records it (``dma_latency_us``: µs or none)."""
    m = _CYCLICTEST_DMA.search(output)
    return m.group(1) if m else "none"


def _expand_cpus(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def ingest_output(path: Path, result: StepResult) -> list[Run]:
    try:
        return load(path, keep_going=True)
    except InputError as error:
        assert result.notes is not None
        result.notes.append(f"{path.name} kept as it is, not ingested: {error.problem}")
        return []


def save_run(run: Run, meta: dict[str, str], target: Path) -> Path:
    run.meta.update(meta)
    write_run(run, target)
    return target


def guest_kernel(files: dict[str, Any]) -> str:
    """The guest's kernel release from latprobe's log header (H kernel=RELEASE\x20#...), for
    when the guest's own report of it was lost."""
    log = files.get("latprobe.log")
    for line in log.text.splitlines() if log is not None else []:
        if line.startswith("H kernel="):
            return str(line.split("=", 1)[1].split("\\x20", 1)[0])
    return "unknown"


def save_guest_outputs(
    files: dict[str, Any], step: Step, outdir: Path, meta: dict[str, str], result: StepResult
) -> None:
    """Keep what a Linux guest's measurement job emitted (latprobe, cyclictest, rtla, the
    load's messages) beside the run files, and turn each tool's output into a run file with
    @meta. A latprobe that failed in the guest is an error; a kernel without timerlat a note."""
    s = step.scenario
    saved: dict[str, Path] = {}
    for name, target in (
        ("latprobe.log", f"{step.stem}.log"),
        ("latprobe.txt", f"{step.stem}.latprobe.txt"),
        ("cyclictest.json", f"{step.stem}.cyclictest.json"),
        ("cyclictest.txt", f"{step.stem}.cyclictest.txt"),
        ("rtla.txt", f"{step.stem}.rtla.txt"),
        ("load.txt", f"{step.stem}.load.txt"),
    ):
        if name in files:
            path = outdir / target
            text = files[name].text
            path.write_text(text if text.endswith("\n") else text + "\n")
            saved[name] = path
            result.logs.append(path)
    probe = files.get("latprobe.txt")
    if probe is not None and probe.status != 0:
        raise LatmonError(
            f"latprobe failed in the guest (exit {probe.status}): {probe.text.strip()}"
        )
    for name, tool, suffix in (
        ("latprobe.log", None, ""),
        ("cyclictest.json", "cyclictest", ".cyclictest"),
        ("rtla.txt", "rtla timerlat", ".rtla"),
    ):
        if name not in saved:
            continue
        for run_ in ingest_output(saved[name], result)[:1]:
            extra = {"tool": tool} if tool else {}
            run_file = outdir / f"{step.stem}{suffix}.parquet"
            result.run_files.append(save_run(run_, {**meta, **extra}, run_file))
    if s.target.rtla and "rtla.txt" not in saved and s.probe.policy != "other":
        assert result.notes is not None
        result.notes.append(f"{s.target.kernel} kernel has no timerlat tracer: rtla not run")


def emulated_meta(step: Step, env: dict[str, str]) -> dict[str, str]:
    """The metadata of every run measured on an emulated machine: the scenario, where it ran
    and the host that emulated it."""
    return {
        **scenario_meta(step),
        "emulated": "yes",
        "target": step.scenario.target.describe(),
        "env.machine": "aarch64",
        "env.virtualization": "qemu (TCG, emulated)",
        "env.host_cpu_model": env.get("env.cpu_model", "unknown"),
        "env.host_kernel": env.get("env.kernel_version", "unknown"),
    }


def linux_job(s: Scenario, load: bool) -> str:
    """The measuring Linux's job: load (if it runs there), latprobe, cyclictest, rtla."""
    return guest.measurement_job(
        s.probe.args(),
        s.name,
        s.duration_ns,
        s.warmup_ns,
        (s.load.command(Path("/tmp")) if load and s.load.kind != "none" else None),
        (cyclictest_command(s, Path("/tmp/cyclictest.json")) if s.cyclictest else None),
        (s.probe.priority if s.target.rtla and s.probe.policy != "other" else None),
    )
