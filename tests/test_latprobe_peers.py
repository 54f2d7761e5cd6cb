"""latprobe's options from cyclictest and rtla timerlat (issue 42), each checked from outside.

Every effect is read where the kernel shows it, not from latprobe's own output: the cpuidle
switches in sysfs during and after the run (also after SIGTERM and SIGINT), the threads'
affinity and scheduling in /proc/PID/task/*, the clock and mode of a blocked clock_nanosleep in
/proc/PID/task/TID/syscall, a POSIX timer in /proc/PID/timers, the threshold action's trace and
shell command in their files. No absolute latency is asserted: this machine is a VM.
"""

from __future__ import annotations

import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from tracefs_support import tracing_unavailable

from latmon.analysis.distribution.ranks import nearest_rank
from latmon.inputs.readers.latmon_log import read_file

IS_ROOT = os.geteuid() == 0
CPUS = sorted(os.sched_getaffinity(0))
needs_root = pytest.mark.skipif(not IS_ROOT, reason="needs root (real-time policy, sysfs, /proc)")
needs_two_cpus = pytest.mark.skipif(len(CPUS) < 2, reason="needs two CPUs")
MEASURED = CPUS[-1]
OTHER = CPUS[0]
CPUIDLE = Path("/sys/devices/system/cpu")
# syscall numbers as /proc/PID/task/TID/syscall shows them
SYSCALLS = {
    "x86_64": {"clock_nanosleep": 230, "rt_sigtimedwait": 128},
    "aarch64": {"clock_nanosleep": 115, "rt_sigtimedwait": 137},
}


@pytest.fixture(scope="module")
def latprobe(c_binary) -> Path:
    return c_binary("latprobe")


def argv(*parts: list[str]) -> list[str]:
    """One command line from its parts."""
    return [a for part in parts for a in part]


def tasks(pid: int) -> dict[int, str]:
    """Thread id -> /proc status text of each thread of pid."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            out[int(task.name)] = (task / "status").read_text()
        except FileNotFoundError:
            continue
    return out


def allowed(status: str) -> str:
    m = re.search(r"^Cpus_allowed_list:\s*(\S+)", status, re.MULTILINE)
    assert m, status
    return m.group(1)


def wait_for_threads(pid: int, n: int, timeout: float = 10.0) -> dict[int, str]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = tasks(pid)
        if len(found) >= n:
            return found
        time.sleep(0.05)
    raise AssertionError(f"latprobe {pid} did not start {n} threads in {timeout} s")


def measuring_tid(pid: int, cpu: int, timeout: float = 10.0) -> int:
    """The measurement thread: the one pinned to exactly that CPU. glibc sets a new thread's
    affinity just after creating it, so a thread may be seen with its parent's CPUs first."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for tid, status in tasks(pid).items():
            if tid != pid and allowed(status) == str(cpu):
                return tid
        time.sleep(0.02)
    raise AssertionError(f"no thread of latprobe {pid} pinned to cpu{cpu} in {timeout} s")


def idle_switches(cpu: int) -> list[str]:
    states = sorted(
        (CPUIDLE / f"cpu{cpu}" / "cpuidle").glob("state*"), key=lambda p: int(p.name[5:])
    )
    return [(s / "disable").read_text().strip() for s in states]


def idle_unavailable() -> str | None:
    if not IS_ROOT:
        return "needs root to write cpuidle switches"
    if len(CPUS) < 2:
        return "needs two CPUs (one measured, one left alone)"
    if len(idle_switches(MEASURED)) < 2:
        return f"cpu{MEASURED} has fewer than two cpuidle states: nothing to limit"
    return None


# ---- per-CPU idle-state limit (cyclictest/rtla --deepest-idle-state) --------------------------


@pytest.mark.skipif(idle_unavailable() is not None, reason=str(idle_unavailable()))
@pytest.mark.parametrize("end", ["duration", signal.SIGTERM, signal.SIGINT])
def test_deepest_idle_state_limits_only_the_measured_cpu_and_is_restored(
    latprobe: Path, tmp_path: Path, end: str | signal.Signals
) -> None:
    before_measured, before_other = idle_switches(MEASURED), idle_switches(OTHER)
    duration = "2s" if end == "duration" else "60s"
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "-a", str(MEASURED), "-D", duration, "--deepest-idle-state", "0"],
            ["-q", "-o", str(tmp_path / "r.log"), "--json", str(tmp_path / "r.json")],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        measuring_tid(proc.pid, MEASURED)
        time.sleep(0.5)
        during = idle_switches(MEASURED)
        # every state deeper than state0 is off on the measured CPU; the others untouched
        assert during[0] == before_measured[0]
        assert all(v == "1" for v in during[1:]), during
        assert idle_switches(OTHER) == before_other
        if end != "duration":
            proc.send_signal(end)
        _, stderr = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    assert idle_switches(MEASURED) == before_measured, "restored after the run"
    assert idle_switches(OTHER) == before_other
    summary = json.loads((tmp_path / "r.json").read_text())
    assert summary["deepest_idle_state"] == 0
    assert summary["idle_states_disabled"] == sum(v == "0" for v in before_measured[1:])
    assert summary["interrupted"] is (end != "duration")


# the error path without cpuidle, and restoring what was set before: test_latprobe_idle.c


# ---- housekeeping CPUs (cyclictest --mainaffinity, rtla -H) -----------------------------------


@needs_two_cpus
def test_housekeeping_cpus_hold_every_thread_but_the_measuring_ones(
    latprobe: Path, tmp_path: Path
) -> None:
    # the metrics exporter's thread too: every thread latprobe starts besides the measuring one
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "--policy", "other", "--no-mlock", "-a", str(MEASURED)],
            ["-H", str(OTHER), "-D", "3s", "--metrics", "127.0.0.1:0", "-q"],
            ["-o", str(tmp_path / "h.log")],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        measuring_tid(proc.pid, MEASURED)
        wait_for_threads(proc.pid, 3)
        time.sleep(0.2)  # the exporter's thread too has its affinity by now
        affinity = {tid: allowed(status) for tid, status in tasks(proc.pid).items()}
        measuring = [t for t, a in affinity.items() if a == str(MEASURED)]
        housekeeping = [t for t, a in affinity.items() if a == str(OTHER)]
        assert len(measuring) == 1, affinity
        assert proc.pid in housekeeping and len(housekeeping) == len(affinity) - 1, affinity
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    (log,) = read_file(tmp_path / "h.log")
    assert log.meta["housekeeping"] == str(OTHER)


def test_housekeeping_cpu_not_available(latprobe: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [str(latprobe), "-H", "1023", "-D", "1s", "-q", "-o", str(tmp_path / "x")],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 3
    assert "--housekeeping: CPU 1023 is not online" in proc.stderr


# ---- SCHED_DEADLINE (rtla -P d:runtime:period) -------------------------------------------------

RT_RUNTIME = Path("/proc/sys/kernel/sched_rt_runtime_us")


@needs_root
@needs_two_cpus
def test_sched_deadline_thread_attributes(latprobe: Path, tmp_path: Path) -> None:
    """The kernel admits a SCHED_DEADLINE task pinned to one CPU only in a root domain of its
    own or with admission control off: latprobe says so, and with admission control off (for
    the seconds of this run, then restored) its thread runs with the asked-for attributes."""
    args = [str(latprobe), "-a", str(MEASURED), "--policy", "deadline:100us:1ms", "-q"]
    args += ["-o", str(tmp_path / "d.log"), "--json", str(tmp_path / "d.json")]
    saved = RT_RUNTIME.read_text().strip()
    if saved != "-1":
        refused = subprocess.run(
            [*args, "-D", "1s"], capture_output=True, text=True, timeout=30, check=False
        )
        assert refused.returncode == 3, refused.stderr
        assert "under SCHED_DEADLINE" in refused.stderr and "root domain" in refused.stderr
    try:
        RT_RUNTIME.write_text("-1\n")
        proc = subprocess.Popen([*args, "-D", "3s"], stderr=subprocess.PIPE, text=True)
        try:
            tid = measuring_tid(proc.pid, MEASURED)
            time.sleep(0.5)
            sched = Path(f"/proc/{proc.pid}/task/{tid}/sched").read_text()
            chrt = subprocess.run(
                ["chrt", "-p", str(tid)], capture_output=True, text=True, timeout=10, check=True
            ).stdout
            _, stderr = proc.communicate(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    finally:
        RT_RUNTIME.write_text(saved + "\n")
    assert proc.returncode == 0, stderr
    assert re.search(r"^policy\s*:\s*6$", sched, re.MULTILINE), sched  # SCHED_DEADLINE
    assert "SCHED_DEADLINE" in chrt
    assert "runtime/deadline/period parameters: 100000/1000000/1000000" in chrt
    summary = json.loads((tmp_path / "d.json").read_text())
    assert summary["policy"] == "deadline"
    assert summary["deadline"] == {
        "runtime_ns": 100000,
        "deadline_ns": 1000000,
        "period_ns": 1000000,
    }
    assert summary["cpus"][0]["events"] + summary["cpus"][0]["missed"] == 3000


# ---- warm-up (rtla --warm-up) --------------------------------------------------------------------


def test_warm_up_is_absent_from_the_statistics_and_counted_in_the_json(
    latprobe: Path, tmp_path: Path
) -> None:
    out, js = tmp_path / "w.log", tmp_path / "w.json"
    proc = subprocess.run(
        argv(
            [str(latprobe), "--policy", "other", "--no-mlock", "-a", str(MEASURED), "-i", "1ms"],
            ["--warm-up", "1s", "-D", "1s", "-o", str(out), "--json", str(js), "-q"],
        ),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    cpu = json.loads(js.read_text())["cpus"][0]
    (log,) = read_file(out)
    (series,) = [s for s in log.series if "kind" not in s.meta]
    t = series.field("t")
    # no kept sample lies in the warm-up (t is the wake-up time since the start)
    assert len(t) == cpu["events"] == cpu["samples_kept"] and t.min() > 1_000_000_000
    # the histogram and counters of the log hold the same samples, not the warm-up's
    assert sum(count for _, _, count in series.bins) == cpu["events"]
    # the measured second after the warm-up: every period is a wake-up or a missed one
    assert cpu["events"] + cpu["missed"] == 1000
    # the warm-up's wake-ups are counted apart (those not skipped by a late one)
    assert 0 < cpu["warmup"] <= 1000
    assert series.counters["warmup"] == cpu["warmup"]
    assert json.loads(js.read_text())["warmup_ns"] == 1_000_000_000


# ---- clock, relative/absolute timers, POSIX timers (cyclictest -c, -r, -x) -----------------------


def blocked_syscalls(pid: int, tid: int, seconds: float = 0.5) -> list[list[str]]:
    """What thread tid was blocked in, read repeatedly: syscall number and arguments (hex). A
    thread preempted inside another call (on a loaded machine) shows that call now and then."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end or not seen:
        text = Path(f"/proc/{pid}/task/{tid}/syscall").read_text().split()
        if text and text[0] not in ("running", "-1"):
            seen.append(text)
        time.sleep(0.005)
        if time.monotonic() > end + 5:
            raise AssertionError("the measurement thread was never seen blocked")
    return seen


@needs_root
@pytest.mark.skipif(platform.machine() not in SYSCALLS, reason="syscall numbers not known")
@pytest.mark.parametrize(
    ("args", "clock", "flags"),
    [([], 1, 1), (["-c", "realtime"], 0, 1), (["-r"], 1, 0), (["-c", "1", "-r"], 0, 0)],
)
def test_clock_and_relative_timers_as_the_kernel_sees_them(
    latprobe: Path, tmp_path: Path, args: list[str], clock: int, flags: int
) -> None:
    """clock_nanosleep(clockid, flags, ...): clockid 1 monotonic / 0 realtime, flags 1
    TIMER_ABSTIME / 0 relative, read from the blocked thread's syscall."""
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "-a", str(MEASURED), "-i", "10ms", "-D", "2s", *args, "-q"],
            ["-o", str(tmp_path / "c.log"), "--json", str(tmp_path / "c.json")],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        tid = measuring_tid(proc.pid, MEASURED)
        time.sleep(0.2)
        seen = blocked_syscalls(proc.pid, tid)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    sleeps = [s for s in seen if int(s[0]) == SYSCALLS[platform.machine()]["clock_nanosleep"]]
    # it sleeps in clock_nanosleep (most of the time), always with that clock and flags
    assert len(sleeps) > len(seen) // 2, seen
    assert all(int(s[1], 16) == clock and int(s[2], 16) == flags for s in sleeps), sleeps
    summary = json.loads((tmp_path / "c.json").read_text())
    assert summary["clock"] == ("monotonic" if clock == 1 else "realtime")
    assert summary["timer_mode"] == ("absolute" if flags else "relative")
    cpu = summary["cpus"][0]
    assert cpu["events"] > 0
    if not flags:
        assert cpu["missed"] == 0  # relative: no grid, nothing to miss
    (log,) = read_file(tmp_path / "c.log")
    (series,) = [s for s in log.series if "kind" not in s.meta]
    # every wake-up after the common start, in time order, within the 2 s
    t = series.field("t")
    assert t.min() > 0 and np.all(np.diff(t) > 0) and t.max() <= 2_000_000_000


@needs_root
@pytest.mark.skipif(platform.machine() not in SYSCALLS, reason="syscall numbers not known")
@pytest.mark.parametrize(("args", "clock"), [(["-x"], 1), (["-x", "-c", "realtime"], 0)])
def test_posix_timers_as_the_kernel_sees_them(
    latprobe: Path, tmp_path: Path, args: list[str], clock: int
) -> None:
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "-a", str(MEASURED), "-i", "10ms", "-D", "2s", *args, "-q"],
            ["-o", str(tmp_path / "x.log"), "--json", str(tmp_path / "x.json")],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        tid = measuring_tid(proc.pid, MEASURED)
        time.sleep(0.2)
        timers = Path(f"/proc/{proc.pid}/timers").read_text()
        seen = blocked_syscalls(proc.pid, tid)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    # one timer, signalling the measuring thread itself, on the asked-for clock
    assert f"notify: signal/tid.{tid}" in timers, timers
    assert re.search(rf"ClockID: {clock}\b", timers), timers
    # it waits for the timer's signal (most of the time), never in clock_nanosleep
    numbers = [int(s[0]) for s in seen]
    waits = numbers.count(SYSCALLS[platform.machine()]["rt_sigtimedwait"])
    assert waits > len(numbers) // 2, seen
    assert SYSCALLS[platform.machine()]["clock_nanosleep"] not in numbers, seen
    summary = json.loads((tmp_path / "x.json").read_text())
    assert summary["timer"] == "posix" and summary["cpus"][0]["events"] > 0


# ---- live snapshot (cyclictest SIGUSR2) ----------------------------------------------------------


def test_sigusr2_prints_a_snapshot_and_the_run_goes_on(latprobe: Path, tmp_path: Path) -> None:
    js = tmp_path / "s.json"
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "--policy", "other", "--no-mlock", "-a", str(MEASURED), "-D", "3s"],
            ["-o", str(tmp_path / "s.log"), "--json", str(js), "-q"],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        measuring_tid(proc.pid, MEASURED)
        time.sleep(1.0)
        proc.send_signal(signal.SIGUSR2)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, stderr
    m = re.search(r"snapshot at ([0-9.]+) s.*\n.*\nlatprobe: cpu(\d+)\s+(\d+)", stderr)
    assert m, stderr
    at, cpu, events = float(m.group(1)), int(m.group(2)), int(m.group(3))
    final = json.loads(js.read_text())
    assert cpu == MEASURED and not final["interrupted"]
    # the snapshot is a part of the run, which went on to its end
    assert 0 < events < final["cpus"][0]["events"] and 0 < at < 3
    assert final["cpus"][0]["events"] + final["cpus"][0]["missed"] == 3000


# ---- the summary prints the log's exact percentiles ----------------------------------------------


def test_summary_prints_the_exact_percentiles_of_the_log(latprobe: Path, tmp_path: Path) -> None:
    out = tmp_path / "p.log"
    proc = subprocess.run(
        argv(
            [str(latprobe), "--policy", "other", "--no-mlock", "-a", str(MEASURED), "-l", "1500"],
            ["-i", "200us", "-o", str(out)],
        ),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    row = re.search(rf"^latprobe: cpu{MEASURED}\s+(\d+)\s+(\d+)(.*)$", proc.stderr, re.MULTILINE)
    assert row, proc.stderr
    fields = row.group(3).split()
    assert "*" not in row.group(3), "every sample was kept: no bin edge"
    p50, p99, mx = int(fields[2]), int(fields[3]), int(fields[4])
    (log,) = read_file(out)
    (series,) = [s for s in log.series if "kind" not in s.meta]
    v = np.sort(series.latency)
    # nearest rank, as latmon stats computes it from the same samples
    assert p50 == v[nearest_rank(0.5, len(v)) - 1]
    assert p99 == v[nearest_rank(0.99, len(v)) - 1]
    assert mx == v[-1]


def test_summary_says_when_a_percentile_is_a_bin_edge(latprobe: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        argv(
            [str(latprobe), "--policy", "other", "--no-mlock", "-a", str(MEASURED), "-l", "300"],
            ["-i", "200us", "--max-samples", "100", "-o", str(tmp_path / "b.log")],
        ),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"\d+\* +\d+\* +\d+$", proc.stderr, re.MULTILINE), proc.stderr
    assert "the upper edge of a histogram bin (1000 ns wide)" in proc.stderr


# ---- IRQ and thread latency apart (rtla timerlat's IRQ / Thread columns) ---------------------


@pytest.mark.skipif(tracing_unavailable() is not None, reason=str(tracing_unavailable()))
def test_irq_and_thread_series_agree_with_the_stages(latprobe: Path, tmp_path: Path) -> None:
    out, js = tmp_path / "it.log", tmp_path / "it.json"
    proc = subprocess.run(
        [str(latprobe), "--stages", "-l", "1000", "-i", "1ms", "-o", str(out), "--json", str(js)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    (log,) = read_file(out)
    by_name = {s.name: s for s in log.series}
    summary = {c["cpu"]: c for c in json.loads(js.read_text())["cpus"]}
    for cpu in [s for s in log.series if "kind" not in s.meta]:
        stages = by_name[f"{cpu.name}.stages"]
        irq, thread = by_name[f"{cpu.name}.irq"], by_name[f"{cpu.name}.thread"]
        assert irq.meta == {"kind": "irq", "of": cpu.name, "cpu": cpu.meta["cpu"], "from": "stages"}
        # recomputed from the stage columns, sample by sample
        want_irq = stages.field("stage_irq") + stages.field("stage_handler")
        want_thread = want_irq + stages.field("stage_wakeup") + stages.field("stage_sched")
        assert np.array_equal(irq.field("t"), stages.field("t"))
        assert np.array_equal(irq.latency, want_irq)
        assert np.array_equal(thread.latency, want_thread)
        # each part within the whole: irq <= thread <= the latency the probe measured
        assert np.all(irq.latency <= thread.latency)
        assert np.all(thread.latency <= stages.latency)
        js_cpu = summary[int(cpu.meta["cpu"])]
        for name, values in (("irq", want_irq), ("thread", want_thread)):
            v = np.sort(values)
            assert js_cpu[name]["n"] == len(v)
            if len(v):
                for key, q in (("p50", 0.5), ("p99", 0.99), ("p99_9", 0.999)):
                    assert js_cpu[name][key] == v[nearest_rank(q, len(v)) - 1]
                assert js_cpu[name]["max"] == v[-1]
        assert f"cpu{cpu.meta['cpu']}".ljust(6) in proc.stderr


# ---- action on a threshold (rtla --on-threshold), the run going on -------------------------------

BUSY = """
import ctypes, os, sys, time
os.sched_setaffinity(0, {int(sys.argv[1])})
ctypes.CDLL(None).prctl(15, b"latmon-busy", 0, 0, 0)
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(99))
c = time.thread_time_ns()
time.sleep(float(sys.argv[2]))
wake = time.monotonic_ns()
across = time.thread_time_ns() - c  # its way out of the sleep is inside: the earliest switch-in
t0 = time.monotonic_ns()
while time.monotonic_ns() - t0 < 3_000_000:
    pass
t1 = time.monotonic_ns()
os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
print(wake - across, t0, t1, flush=True)
"""

CATCHER = """
import signal, sys
SIG = signal.SIGRTMIN + 2  # a real-time signal: queued, never merged with the next one
signal.pthread_sigmask(signal.SIG_BLOCK, [SIG])
print("ready", flush=True)
n = 0
while signal.sigtimedwait([SIG], 20) is not None:
    n += 1
    print(n, flush=True)
"""


@needs_root
@needs_two_cpus
@pytest.mark.skipif(tracing_unavailable() is not None, reason=str(tracing_unavailable()))
def test_threshold_action_runs_once_for_a_provoked_busy_loop_and_the_run_goes_on(
    latprobe: Path, tmp_path: Path
) -> None:
    """A 3 ms busy loop at SCHED_FIFO 99 on the measured CPU (latprobe at 95) delays one
    wake-up (its expiry within the loop's first ms: at least 2 ms late) past the 1.5 ms
    threshold: that event gets its trace saved, its shell command run and its
    signal sent exactly once, and the measurement goes on to its end. Other spikes of this VM
    may cross the threshold too; each is then one event with one of each action. When one came
    just before the loop, its actions may still run when the loop's wake-up crosses the
    threshold: that sample is then counted, not an event (docs/latprobe.md). The shell command
    writes the time it ends; when it ended less than 100 ms (its reaping and the trace's re-arm)
    before the loop's window, the test tries again, three times at most."""
    for attempt in range(3):
        if threshold_run(latprobe, tmp_path / f"attempt{attempt}"):
            return
    pytest.fail("three times another event's actions still ran when the busy loop came")


REARM_NS = 100_000_000


def threshold_run(latprobe: Path, tmp_path: Path) -> bool:
    """One run; False when an earlier event's actions may still have run at the loop."""
    tmp_path.mkdir()
    events_file, trace = tmp_path / "events", tmp_path / "thr.trace"
    catcher = subprocess.Popen([sys.executable, "-c", CATCHER], stdout=subprocess.PIPE, text=True)
    assert catcher.stdout is not None and catcher.stdout.readline().strip() == "ready"
    js = tmp_path / "t.json"
    # the last field: CLOCK_REALTIME when the command ends, in ns
    cmd = (
        "echo $LATPROBE_EVENT $LATPROBE_CPU $LATPROBE_T_NS $LATPROBE_LATENCY_NS $(date +%s%N) >> "
        + str(events_file)
    )
    realtime_minus_mono = time.clock_gettime_ns(time.CLOCK_REALTIME) - time.monotonic_ns()
    proc = subprocess.Popen(
        argv(
            [str(latprobe), "-a", str(MEASURED), "-p", "95", "-i", "1ms", "-D", "4s"],
            ["--threshold", "1500us", "--on-threshold", f"trace,file={trace}"],
            ["--on-threshold", f"shell,command={cmd}"],
            ["--on-threshold", f"signal,num={int(signal.SIGRTMIN) + 2},pid={catcher.pid}"],
            ["-o", str(tmp_path / "t.log"), "--json", str(js)],
        ),
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        measuring_tid(proc.pid, MEASURED)
        busy = subprocess.run(
            [sys.executable, "-c", BUSY, str(MEASURED), "1.5"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        _, stderr = proc.communicate(timeout=60)
    finally:
        for p in (proc, catcher):
            if p.poll() is None:
                p.kill()
                p.wait()
    assert proc.returncode == 0, stderr
    # the earliest the helper can have been switched in, its loop's start and end
    switch_in, busy_from, busy_to = (int(x) for x in busy.stdout.split())
    summary = json.loads(js.read_text())
    thr = summary["threshold"]
    t0 = summary["t0_mono_ns"]
    lines = [[int(x) for x in ln.split()] for ln in events_file.read_text().splitlines()]
    # once per event: as many shell commands, traces and signals as events
    assert thr["events"] == len(lines) == thr["traces_saved"] == thr["shells_ok"]
    assert thr["signals_sent"] == thr["events"] and thr["action_errors"] == 0
    caught = catcher.stdout.read().split()
    assert len(caught) == thr["events"]
    assert sorted(ln[0] for ln in lines) == list(range(1, len(lines) + 1))
    # the run went on to its end: every period of the 4 s is a wake-up or a missed one
    cpu_summary = summary["cpus"][0]
    assert cpu_summary["events"] + cpu_summary["missed"] == 4000
    assert not summary["interrupted"]
    assert thr["samples_above"] >= thr["events"]
    # exactly one event during the busy loop (its expiry inside it, or up to a period before the
    # helper's switch-in), above the threshold
    window_from = min(busy_from, switch_in) - 1_000_000
    during = [ln for ln in lines if window_from <= t0 + ln[2] <= busy_to]
    if not during:
        ended = [ln[4] - realtime_minus_mono for ln in lines if t0 + ln[2] < window_from]
        if ended and max(ended) + REARM_NS > window_from:
            return False
    assert len(during) == 1, (lines, window_from - t0, busy_to - t0)
    number, cpu, _, latency, _ = during[0]
    assert cpu == MEASURED and latency > 1_500_000
    # its trace was saved, with latprobe's marker and the busy loop in it
    saved = trace if number == 1 else Path(f"{trace}.{number}")
    text = saved.read_text(errors="replace")
    assert f"latprobe: threshold: cpu{MEASURED} woke {latency} ns late" in text
    assert "latmon-busy" in text
    return True


# ---- spike explanations: hypervisor steal and the idle state woken from ----------------------


def steal_ns(cpu: int) -> int:
    """The CPU's steal time from /proc/stat, in ns (USER_HZ ticks)."""
    for line in Path("/proc/stat").read_text().splitlines():
        parts = line.split()
        if parts[0] == f"cpu{cpu}":
            return int(parts[8]) * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
    raise AssertionError(f"no cpu{cpu} line in /proc/stat")


@pytest.mark.skipif(tracing_unavailable() is not None, reason=str(tracing_unavailable()))
def test_spikes_name_the_steal_around_them_and_the_idle_state_woken_from(
    latprobe: Path, tmp_path: Path
) -> None:
    js = tmp_path / "e.json"
    before = steal_ns(MEASURED)
    proc = subprocess.run(
        argv(
            [str(latprobe), "-a", str(MEASURED), "-D", "2s", "--dma-latency", "none"],
            ["--explain", "20us", "--explain-max", "50", "-q", "-o", str(tmp_path / "e.log")],
            ["--json", str(js)],
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    after = steal_ns(MEASURED)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(js.read_text())
    assert "power:cpu_idle" in summary["trace"]["used"]
    spikes = summary["cpus"][0]["spikes"]
    assert spikes, "a VM has wake-ups above 20 us"
    for s in spikes:
        # the steal between the main thread's readings around the spike: within what
        # /proc/stat counted for the CPU over the whole run, read by this test
        assert 0 < s["steal_window_ns"] < 2_000_000_000
        assert 0 <= s["steal_ns"] <= after - before
        if s["steal_ns"]:
            assert "the hypervisor stole" in s["why"]
        if "idle_state" in s:
            # only a CPU the idle task held at the expiry, named as sysfs names the state
            assert s["running_at_expiry"] == 0
            name = CPUIDLE / f"cpu{MEASURED}/cpuidle/state{s['idle_state']}/name"
            assert s["idle_state_name"] == name.read_text().strip()
            assert f"woke from idle state {s['idle_state']}" in s["why"]
