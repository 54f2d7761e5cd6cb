"""A step on this machine (target kind ``host``): the load in its own process group, latprobe,
then cyclictest under the same load; nothing outlives the runner."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from latmon.campaign.steps import (
    Interrupted,
    Step,
    StepResult,
    cyclictest_command,
    cyclictest_dma_latency,
    ingest_output,
    save_run,
    scenario_meta,
)
from latmon.errors import LatmonError

PR_SET_PDEATHSIG = 1
CAMPAIGN_ENV = "LATMON_CAMPAIGN"  # set in the load's environment to the campaign folder
STOP_TIMEOUT_S = 10.0


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
    built = Path(__file__).resolve().parents[3] / "build" / "sw" / "latprobe"
    if built.exists():
        return built
    raise LatmonError(
        "latprobe not found: build it with 'make sw-all', put it on PATH, or give --latprobe"
    )


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
def signals_interrupt() -> Iterator[None]:
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


def run_host_step(step: Step, outdir: Path, env: dict[str, str], latprobe: Path) -> StepResult:
    """latprobe on this machine under the scenario's load (cyclictest after it, same load)."""
    s = step.scenario
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
    meta = {**scenario_meta(step), **env}
    if log.exists():
        for run in ingest_output(log, result):
            result.run_files.append(save_run(run, meta, outdir / f"{step.stem}.parquet"))
    # cyclictest's JSON and its text output describe the same run: ingest the first readable
    for extra in (cyclic_json, cyclic_text):
        runs = ingest_output(extra, result) if extra.exists() and extra.stat().st_size else []
        if runs:
            target = outdir / f"{step.stem}.cyclictest.parquet"
            output = cyclic_text.read_text(errors="replace") if cyclic_text.exists() else ""
            extra_meta = {"tool": "cyclictest", "dma_latency_us": cyclictest_dma_latency(output)}
            result.run_files.append(save_run(runs[0], {**meta, **extra_meta}, target))
            break
    result.interrupted = interrupted
    return result
