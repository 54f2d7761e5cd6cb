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

import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from latmon.environment import environment
from latmon.errors import InputError, LatmonError
from latmon.ingest import load
from latmon.model import Run
from latmon.runfile import write_run
from latmon.scenario import Scenario

PR_SET_PDEATHSIG = 1
CAMPAIGN_ENV = "LATMON_CAMPAIGN"  # set in the load's environment to the campaign folder
STOP_TIMEOUT_S = 10.0


class Interrupted(Exception):
    """SIGINT or SIGTERM arrived; what was measured so far is kept."""


def _die_with_parent() -> None:  # runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def find_latprobe(explicit: str | None = None) -> Path:
    if explicit:
        path = Path(explicit)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise LatmonError(f"--latprobe {explicit}: not an executable file")
        return path
    found = shutil.which("latprobe")
    if found:
        return Path(found)
    # a development checkout: the package lives in src/latmon, the binary in build/sw
    built = Path(__file__).resolve().parents[2] / "build" / "sw" / "latprobe"
    if built.exists():
        return built
    raise LatmonError(
        "latprobe not found: build it with 'make sw-all', put it on PATH, or give --latprobe"
    )


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


class LoadProcess:
    """The background load, in its own process group."""

    def __init__(self, command: list[str] | None, log: Path, campaign: Path) -> None:
        self.command = command
        self.log = log
        self.campaign = campaign
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        if self.command is None:
            return
        program = self.command[0] if self.command[0] != "sh" else self.command[2].split()[1]
        if shutil.which(program) is None:
            raise LatmonError(f"{program} is not installed; run 'make setup'")
        with self.log.open("wb") as err:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
                preexec_fn=_die_with_parent,
                # inherited by every process the load forks: lets anyone find the campaign's
                # load processes, whatever names they give themselves
                env={**os.environ, CAMPAIGN_ENV: str(self.campaign.resolve())},
            )

    def check_running(self) -> None:
        if self.proc is not None and self.proc.poll() is not None:
            detail = self.log.read_text(errors="replace").strip().splitlines()[-3:]
            raise LatmonError(
                f"the load ({' '.join(self.command or [])}) exited with status "
                f"{self.proc.returncode}: {' / '.join(detail) or 'no message'}"
            )

    def stop(self) -> None:
        """Stop the whole group: SIGTERM, then SIGKILL; return when no member is left."""
        if self.proc is None:
            return
        pgid = self.proc.pid
        for sig, wait in ((signal.SIGTERM, STOP_TIMEOUT_S), (signal.SIGKILL, STOP_TIMEOUT_S)):
            try:
                os.killpg(pgid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + wait
            while time.monotonic() < deadline:
                self.proc.poll()
                try:
                    os.killpg(pgid, 0)  # raises once no process of the group is left
                except ProcessLookupError:
                    self.proc.wait()
                    self.proc = None
                    return
                time.sleep(0.05)
        self.proc.wait()
        self.proc = None


@contextmanager
def _signals_interrupt() -> Iterator[None]:
    """Turn SIGTERM (and SIGINT) into Interrupted while a campaign runs."""

    def handler(signum: int, frame: object) -> None:
        raise Interrupted(signal.Signals(signum).name)

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def _run_child(command: list[str], log: Path) -> int:
    """Run a measurement program; on Interrupted, stop it with SIGINT so that it writes complete
    output, wait for it, and re-raise."""
    with log.open("wb") as err:
        proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        try:
            return proc.wait()
        except Interrupted:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            raise


def _sleep(seconds: float, load: LoadProcess) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, 0.1))
        load.check_running()


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


@dataclass
class StepResult:
    step: Step
    run_files: list[Path]
    logs: list[Path]
    interrupted: bool = False
    notes: list[str] | None = None


def _scenario_meta(step: Step) -> dict[str, str]:
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


def _guest_kernel(files: dict[str, Any]) -> str:
    """The guest's kernel release from latprobe's log header (H kernel=RELEASE\x20#...), for
    when the guest's own report of it was lost."""
    log = files.get("latprobe.log")
    for line in log.text.splitlines() if log is not None else []:
        if line.startswith("H kernel="):
            return str(line.split("=", 1)[1].split("\\x20", 1)[0])
    return "unknown"


def run_guest_step(step: Step, outdir: Path, env: dict[str, str]) -> StepResult:
    """One repetition in an arm64 guest on QEMU: boot the scenario's kernel, run the load,
    latprobe, cyclictest and rtla timerlat inside (latmon.guest.measurement_job), power off;
    the results are labelled emulated, with the guest's kernel and preemption model."""
    from latmon import guest  # the guest module imports the runner's neighbours only

    s = step.scenario
    images = guest.target_dir()
    kernel = s.target.kernel
    seconds = max(1, round(s.duration_ns / 1e9))
    job = guest.measurement_job(
        s.probe.args(),
        s.name,
        s.duration_ns,
        s.warmup_ns,
        (s.load.command(Path("/tmp")) if s.load.kind != "none" else None),
        (cyclictest_command(s, Path("/tmp/cyclictest.json")) if s.cyclictest else None),
        (s.probe.priority if s.target.rtla and s.probe.policy != "other" else None),
    )
    workdir = outdir / f"{step.stem}.guest"
    result = StepResult(step, [], [], notes=[])
    tools = 1 + s.cyclictest + s.target.rtla
    timeout = 240 + (s.warmup_ns / 1e9 + tools * seconds) * 4
    try:
        run = guest.run_guest(
            images / f"vmlinuz-{kernel}",
            images / "initramfs.cpio.gz",
            job,
            workdir,
            timeout,
            cpus=s.target.cpus,
            memory_mib=s.target.memory_mib,
        )
    except guest.GuestError as error:
        raise LatmonError(f"{step.stem}: {error}") from None
    meta = {
        **_scenario_meta(step),
        "emulated": "yes",
        "platform": "qemu-virt-cortex-a53",
        "target": s.target.describe(),
        "guest_kernel": kernel,
        "env.kernel_version": run.info.get("kernel") or _guest_kernel(run.files),
        "env.preemption": guest.preemption_model(images / f"config-{kernel}"),
        "env.machine": "aarch64",
        "env.cpus_online": run.info.get("cpus", "unknown"),
        "env.virtualization": "qemu (TCG, emulated)",
        "env.host_cpu_model": env.get("env.cpu_model", "unknown"),
        "env.host_kernel": env.get("env.kernel_version", "unknown"),
    }
    saved: dict[str, Path] = {}
    for name, target in (
        ("latprobe.log", f"{step.stem}.log"),
        ("latprobe.txt", f"{step.stem}.latprobe.txt"),
        ("cyclictest.json", f"{step.stem}.cyclictest.json"),
        ("cyclictest.txt", f"{step.stem}.cyclictest.txt"),
        ("rtla.txt", f"{step.stem}.rtla.txt"),
        ("load.txt", f"{step.stem}.load.txt"),
    ):
        if name in run.files:
            path = outdir / target
            text = run.files[name].text
            path.write_text(text if text.endswith("\n") else text + "\n")
            saved[name] = path
            result.logs.append(path)
    probe = run.files.get("latprobe.txt")
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
        for run_ in _ingest(saved[name], result)[:1]:
            extra = {"tool": tool} if tool else {}
            run_file = outdir / f"{step.stem}{suffix}.parquet"
            result.run_files.append(_save(run_, {**meta, **extra}, run_file))
    if s.target.rtla and "rtla.txt" not in saved:
        assert result.notes is not None
        result.notes.append(f"{kernel} kernel has no timerlat tracer: rtla not run")
    return result


def run_step(step: Step, outdir: Path, latprobe: Path, env: dict[str, str]) -> StepResult:
    s = step.scenario
    if s.target.kind == "qemu-arm64":
        return run_guest_step(step, outdir, env)
    log = outdir / f"{step.stem}.log"
    load = LoadProcess(
        s.load.command(outdir / "load-tmp"), outdir / f"{step.stem}.load.txt", outdir
    )
    (outdir / "load-tmp").mkdir(exist_ok=True)
    result = StepResult(step, [], [log], notes=[])
    interrupted = False
    cyclic_json = outdir / f"{step.stem}.cyclictest.json"
    cyclic_text = outdir / f"{step.stem}.cyclictest.txt"
    try:
        load.start()
        _sleep(s.warmup_ns / 1e9, load)
        command = [
            str(latprobe),
            *s.probe.args(),
            "-D",
            f"{s.duration_ns}ns",
            "--scenario",
            s.name,
            "-o",
            str(log),
            "-q",
        ]
        try:
            status = _run_child(command, outdir / f"{step.stem}.latprobe.txt")
        except Interrupted:
            interrupted = True
            status = 0
        load.check_running()
        if status != 0:
            detail = (outdir / f"{step.stem}.latprobe.txt").read_text(errors="replace").strip()
            raise LatmonError(f"latprobe failed (exit {status}): {detail}")
        if s.cyclictest and not interrupted:
            if shutil.which("cyclictest") is None:
                raise LatmonError("cyclictest is not installed; run 'make setup' (rt-tests)")
            with cyclic_text.open("wb") as out:
                proc = subprocess.Popen(
                    cyclictest_command(s, cyclic_json),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    preexec_fn=_die_with_parent,
                )
                try:
                    proc.wait()
                except Interrupted:
                    proc.send_signal(signal.SIGINT)
                    proc.wait()
                    interrupted = True
            result.logs += [cyclic_text, cyclic_json]
    except Interrupted:
        interrupted = True
    finally:
        load.stop()
    meta = {**_scenario_meta(step), **env}
    if log.exists():
        for run in _ingest(log, result):
            result.run_files.append(_save(run, meta, outdir / f"{step.stem}.parquet"))
    # cyclictest's JSON and its text output describe the same run: ingest the first readable
    for extra in (cyclic_json, cyclic_text):
        runs = _ingest(extra, result) if extra.exists() and extra.stat().st_size else []
        if runs:
            target = outdir / f"{step.stem}.cyclictest.parquet"
            output = cyclic_text.read_text(errors="replace") if cyclic_text.exists() else ""
            extra_meta = {"tool": "cyclictest", "dma_latency_us": cyclictest_dma_latency(output)}
            result.run_files.append(_save(runs[0], {**meta, **extra_meta}, target))
            break
    result.interrupted = interrupted
    return result


def _ingest(path: Path, result: StepResult) -> list[Run]:
    try:
        return load(path, keep_going=True)
    except InputError as error:
        assert result.notes is not None
        result.notes.append(f"{path.name} kept as it is, not ingested: {error.problem}")
        return []


def _save(run: Run, meta: dict[str, str], target: Path) -> Path:
    run.meta.update(meta)
    write_run(run, target)
    return target


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
    with _signals_interrupt():
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
