"""latprobe's spike explanations against a delay of known length (needs root).

A helper process named ``latmon-busy`` runs at SCHED_FIFO 99 on the measured CPU and busy-loops
for exactly 3 ms a few times, reading CLOCK_MONOTONIC at the start and the end of each loop.
The probe (SCHED_FIFO 95) is woken inside each loop and can only run when the helper sleeps
again, so the wake-up whose expiry E falls into a loop [s, e) is late by at least e - E (or the
one just before s, when the helper already ran its own code before its first clock read). Its
explanation must name the helper — its pid, its priority (rt 99), the cause "preempted" — with
the right duration: the time the explanation attributes to the helper plus the interrupts that
ran inside the spike must lie within what the helper's own clocks say it held the CPU for, from
-20 µs to +100 µs (the probe's own timer callback inside the loop, a few µs, is the probe's).

What the helper held is bounded from both sides by its own reads (docs/latprobe.md, "Spikes
explained": any moment the host did not run the vCPU counts as the task's that held it):
- it held the CPU at least from the later of E and its wake-up (its first read after the
  previous sleep) up to its last read before the next sleep;
- at most from E (or its switch-in, at the earliest its wake-up minus the CPU time the kernel
  charged it across the previous sleep) up to that last read plus the CPU time charged across the
  next sleep. It reads its thread CPU clock just before each sleep and just after it; the kernel
  charges it its way into the sleep and back out, and the interrupts that ran meanwhile (this
  kernel has no separate interrupt time accounting). On this VM the way into a sleep once took
  331 µs (two clean-room runs at once), and on a day the host was noisy the kernel charged the
  helper 0.5-1.4 ms across each sleep with nothing else running here: the kernel's accounting
  sees those as the helper's, and so does the trace.

--break stops the run at the first such wake-up and keeps the kernel's trace with latprobe's
marker in it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tracefs_support import instances, tracing_unavailable

from latmon.analysis.spikes import spikes_of
from latmon.inputs.ingest import load
from latmon.inputs.readers.latmon_log import read_file

pytestmark = pytest.mark.skipif(
    tracing_unavailable() is not None, reason=str(tracing_unavailable())
)

LOOP_NS = 3_000_000
INTERVAL_NS = 1_000_000
TOLERANCE_BELOW_NS = 20_000
TOLERANCE_ABOVE_NS = 100_000

# The helper: argv = cpu, loops, loop length (ns), gap (s), delay before the first loop (s).
# Prints as JSON its pid and for every loop its [start, end), its first read after the sleep
# before it ("wake") and its last read before the sleep after it ("sleep") — CLOCK_MONOTONIC ns —
# and the thread CPU time charged to it across the sleep before and the sleep after it.
BUSY_LOOP = """
import array, json, os, sys, time
cpu, loops, length, gap, delay = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), \\
    float(sys.argv[4]), float(sys.argv[5])
with open("/proc/self/comm", "w") as f:
    f.write("latmon-busy")
os.sched_setaffinity(0, {cpu})
# A SCHED_IDLE spinner keeps the CPU out of the idle task: this VM does not trace a switch away
# from the idle task, so the helper woken on an idle CPU would run unseen until its next event.
parent = os.getpid()
spinner = os.fork()
if spinner == 0:
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    while os.getppid() == parent:  # never outlives the helper
        pass
    os._exit(0)
os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(99))
clock, now = time.CLOCK_MONOTONIC, time.clock_gettime_ns
other, normal = os.SCHED_OTHER, os.sched_param(0)
starts, ends = array.array("q", [0] * loops), array.array("q", [0] * loops)
sleeps, wakes = array.array("q", [0] * loops), array.array("q", [0] * loops)
across = array.array("q", [0] * (loops + 1))  # CPU time charged across each sleep
cpu_now, sleep = time.thread_time_ns, time.sleep
c = cpu_now()
sleep(delay)
wake = now(clock)
across[0] = cpu_now() - c
for i in range(loops):
    s = e = now(clock)
    while e - s < length:
        e = now(clock)
    # nothing allocated between the last loop read and the sleep; the CPU clock is read first
    # on the way in and last on the way out, so that it covers both wall-clock reads
    c = cpu_now()
    sleeps[i] = now(clock)
    sleep(gap)
    w = now(clock)
    across[i + 1] = cpu_now() - c
    starts[i], ends[i], wakes[i], wake = s, e, wake, w
# Back to a normal task only after the last sleep, so that its exit delays nothing: changed
# before it, the switch away from the last loop would show nice 0, and where this VM does not
# trace the switch to the helper (woken on an idle CPU) that is the only priority the trace has.
os.sched_setscheduler(0, other, normal)
os.kill(spinner, 9)
os.waitpid(spinner, 0)
print(json.dumps({"pid": os.getpid(), "loops": [
    {"start": starts[i], "end": ends[i], "wake": wakes[i], "sleep": sleeps[i],
     "cpu_before": across[i], "cpu_after": across[i + 1]} for i in range(loops)]}), flush=True)
"""

INTERRUPTS = ("irq", "vector", "softirq", "hrtimer")


@pytest.fixture(scope="module")
def latprobe(c_binary) -> Path:
    return c_binary("latprobe")


@pytest.fixture(scope="module")
def cpu() -> int:
    """The highest CPU this process may use (the helper and the probe share it)."""
    return max(os.sched_getaffinity(0))


def busy_helper(
    probe: subprocess.Popen[str], cpu: int, loops: int, gap: float, loop_ns: int = LOOP_NS
) -> subprocess.Popen[str]:
    """Start the helper once the probe traces (its instance exists) and its measurement thread
    runs (the process has two threads)."""
    deadline = time.monotonic() + 20
    task = Path(f"/proc/{probe.pid}/task")
    while f"latprobe.{probe.pid}" not in instances() or len(list(task.iterdir())) < 2:
        assert probe.poll() is None and time.monotonic() < deadline, "latprobe did not start"
        time.sleep(0.02)
    args = [str(cpu), str(loops), str(loop_ns), str(gap), "0.2"]
    return subprocess.Popen(
        [sys.executable, "-c", BUSY_LOOP, *args], stdout=subprocess.PIPE, text=True
    )


def helper_result(helper: subprocess.Popen[str], keep: Path) -> dict:
    out, _ = helper.communicate(timeout=30)
    assert helper.returncode == 0
    keep.write_text(out)  # next to latprobe's output, for a look after a failure
    return json.loads(out)


def probe_args(cpu: int, *args: str | Path) -> list[str]:
    """The probe on @p cpu at SCHED_FIFO 95, every 1 ms; the last two arguments are the
    latmon-log and the JSON summary."""
    *rest, log, summary = map(str, args)
    return ["-a", str(cpu), "-p", "95", "-i", "1ms", *rest, "-o", log, "--json", summary]


def spike_in(spikes: list[dict], t0: int, loop: dict) -> dict | None:
    """The explained wake-up the loop delayed: its expiry lies in the loop, or up to one
    interval before the helper's switch-in (woken from its sleep, at priority 99, it runs its
    own code before its first clock read)."""
    earliest = loop["wake"] - loop["cpu_before"] - INTERVAL_NS
    found = [s for s in spikes if earliest <= t0 + s["t"] < loop["end"]]
    found = [s for s in found if s["latency"] > (loop["end"] - t0 - s["t"]) // 2]
    assert len(found) <= 1, "one wake-up per loop: the periods after it are missed"
    return found[0] if found else None


def check_names_the_loop(spike: dict, pid: int, expiry: int, loop: dict) -> None:
    first = spike["contributors"][0]
    assert (first["holder"], first["name"], first["id"]) == ("task", "latmon-busy", pid)
    # sched stage as a rule; user when the helper woke right after the probe was switched in,
    # unstaged when it held the probe up before it could re-arm its timer (armed_late)
    assert first["prio"] == "rt 99" and first["stage"] in ("sched", "user", "unstaged")
    # the cause comes from the priority the switch to the helper showed; where the kernel did
    # not trace that switch (this VM's never records one away from the idle task) it is only
    # what the switch away showed, and no cause is named from it
    if first["prio_seen"] == "switch_in":
        assert spike["cause"] == "preempted"
    else:
        assert first["prio_seen"] == "switch_away", first
        assert spike["cause"] == "task_prio_untraced"
        assert "priority seen only at the switch away" in spike["why"]
    assert spike["class"] == "scheduler"
    assert f"latmon-busy (pid {pid}, rt 99) held the CPU for" in spike["why"]
    held = sum(c["ns"] for c in spike["contributors"] if c["name"] == "latmon-busy")
    interrupts = sum(c["ns"] for c in spike["contributors"] if c["holder"] in INTERRUPTS)
    # what the helper's own reads say it held (module docstring)
    at_least = loop["sleep"] - max(expiry, loop["wake"])
    at_most = loop["sleep"] + loop["cpu_after"] - max(expiry, loop["wake"] - loop["cpu_before"])
    in_loop = loop["end"] - max(expiry, loop["wake"])
    # The helper holds most of the spike. Interrupts that ran inside the loop are not its time:
    # under `make test` the other xdist worker's I/O completes on this CPU too (softirqs), and
    # once only 2.94 ms of a 3.52 ms spike were the helper's (a fresh machine) — so the share is
    # taken of what the interrupts left.
    breakdown = (
        f"held {held}, interrupts {interrupts}, the helper's reads: at least {at_least}, at most "
        f"{at_most}, in its loop {in_loop}: {spike}"
    )
    assert held >= 0.5 * in_loop, breakdown
    assert held >= 0.9 * (in_loop - interrupts), breakdown
    assert at_least - TOLERANCE_BELOW_NS <= held + interrupts <= at_most + TOLERANCE_ABOVE_NS, (
        breakdown
    )
    # the explanation holds the whole spike: every nanosecond is someone's
    assert sum(c["ns"] for c in spike["contributors"]) + spike["other_ns"] == spike["latency"]
    # a busy loop in user space leaves no events but the scheduler tick's: the longest stretch
    # without one lies in the spike
    assert 0 < spike["silence_ns"] <= spike["latency"]
    assert 0 <= spike["silence_at"] <= spike["latency"] - spike["silence_ns"]


def test_a_busy_loop_is_named_with_its_duration(latprobe: Path, tmp_path: Path, cpu: int) -> None:
    log, summary = tmp_path / "busy.log", tmp_path / "busy.json"
    proc = subprocess.Popen(
        [str(latprobe), *probe_args(cpu, "-D", "2.5s", "--explain", "1ms", log, summary)],
        stderr=subprocess.PIPE,
        text=True,
    )
    helper = busy_helper(proc, cpu, loops=4, gap=0.25)
    _, stderr = proc.communicate(timeout=60)
    result = helper_result(helper, tmp_path / "helper.json")
    assert proc.returncode == 0, stderr
    data = json.loads(summary.read_text())
    (cpu_summary,) = data["cpus"]
    spikes = cpu_summary["spikes"]
    assert cpu_summary["spikes_above"] >= len(result["loops"])
    for loop in result["loops"]:
        assert loop["end"] - loop["start"] >= LOOP_NS
        spike = spike_in(spikes, data["t0_mono_ns"], loop)
        assert spike is not None, f"no explained wake-up inside the loop {loop}"
        check_names_the_loop(spike, result["pid"], data["t0_mono_ns"] + spike["t"], loop)

    # the latmon-log carries the same explanations, as latmon reads them back
    (run,) = load(log)
    read_back = spikes_of(run)
    assert [(s.cpu, s.t, s.latency, s.cause, s.why) for s in read_back] == [
        (f"cpu{cpu}", s["t"], s["latency"], s["cause"], s["why"])
        for s in sorted(spikes, key=lambda s: (-s["latency"], s["t"]))
    ]
    by_t_json = {s["t"]: s for s in spikes}
    for back in read_back:
        contributors = by_t_json[back.t]["contributors"]
        assert [
            (c.name, c.holder, c.stage, c.ns, c.id, c.prio_text) for c in back.contributors
        ] == [
            (c["name"], c["holder"], c["stage"], c["ns"], c["id"], c.get("prio", ""))
            for c in contributors
        ]
    (run,) = read_file(log)
    by_t = {int(s.meta["t"]): s for s in run.series if s.meta.get("kind") == "spike"}
    for spike in spikes:
        series = by_t[spike["t"]]
        assert series.meta["of"] == f"cpu{cpu}" and series.meta["why"] == spike["why"]
        assert series.meta["cause"] == spike["cause"]
        assert int(series.meta["latency"]) == spike["latency"]
        assert [series.meta[f"who{k}"] for k in range(len(series.latency))] == [
            c["name"] for c in spike["contributors"]
        ]
        assert list(series.latency) == [c["ns"] for c in spike["contributors"]]
    # the worst of them on standard error (on a loaded machine it may be another one)
    worst = max(spikes, key=lambda s: s["latency"])
    assert f"cpu{cpu:<3} worst at t={worst['t'] / 1e9:.6f} s: {worst['why']}" in stderr


def test_break_stops_at_the_spike_and_keeps_the_trace(
    latprobe: Path, tmp_path: Path, cpu: int
) -> None:
    """A 20 ms loop and a 10 ms threshold. On this shared VM another spike above it may come
    first (the host not running the vCPU for tens of ms happens): then that one broke the run,
    which is checked as well, and the test tries again, three times at most."""
    for attempt in range(3):
        if break_on_the_loop(latprobe, tmp_path / f"attempt{attempt}", cpu):
            return
    pytest.fail("three times another spike broke the run before the helper's loop")


def break_on_the_loop(latprobe: Path, tmp_path: Path, cpu: int) -> bool:
    """One --break run; True when the helper's loop broke it."""
    tmp_path.mkdir()
    trace = tmp_path / "break.trace"
    log, summary = tmp_path / "break.log", tmp_path / "break.json"
    t0 = time.monotonic()
    proc = subprocess.Popen(
        [
            str(latprobe),
            *probe_args(cpu, "-D", "20s", "--break", "10ms", log, summary),
            *("--break-trace", str(trace)),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    helper = busy_helper(proc, cpu, loops=1, gap=0.01, loop_ns=20_000_000)
    _, stderr = proc.communicate(timeout=60)
    elapsed = time.monotonic() - t0
    result = helper_result(helper, tmp_path / "helper.json")
    assert proc.returncode == 0, stderr
    assert elapsed < 15, "the run must stop at the spike, not run its 20 s"
    data = json.loads(summary.read_text())
    brk = data["break"]
    assert brk["cpu"] == cpu and brk["latency"] > 10_000_000 and brk["trace"] == str(trace)
    (run,) = read_file(log)
    assert run.meta["break_latency"] == str(brk["latency"]) and run.meta["break_trace"]
    assert f"latprobe: break: cpu{cpu} woke {brk['latency']} ns late" in stderr
    # both trace instances are gone
    assert not {f"latprobe.{proc.pid}", f"latprobe-break.{proc.pid}"} & instances()
    # the kernel's own trace, ending with latprobe's marker
    text = trace.read_text()
    marker = f"latprobe: break: cpu{cpu} woke {brk['latency']} ns late"
    assert marker in text
    # the wake-up that broke the run is explained
    (cpu_summary,) = data["cpus"]
    assert brk["t"] in [s["t"] for s in cpu_summary["spikes"]]
    (loop,) = result["loops"]
    spike = spike_in(cpu_summary["spikes"], data["t0_mono_ns"], loop)
    if spike is None or spike["t"] != brk["t"]:
        return False
    # it was the loop: named, and in the kernel's trace before the marker
    expiry = data["t0_mono_ns"] + spike["t"]
    check_names_the_loop(spike, result["pid"], expiry, loop)
    assert text.index(marker) > text.rindex("prev_comm=latmon-busy")
    return True
