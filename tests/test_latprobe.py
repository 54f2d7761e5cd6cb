"""latprobe, the real binary: arguments, counts, missed-period accounting, signals, output.

These tests assert behaviour, never an absolute latency: this machine is a VM whose tails are
milliseconds long.
"""

from __future__ import annotations

import json
import os
import signal
import struct
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.readers.latmon_log import read_file

IS_ROOT = os.geteuid() == 0
# Quick, unprivileged settings unless a test is about something else.
PLAIN = ["--policy", "other", "--no-mlock", "--max-samples", "100000", "-q"]


@pytest.fixture(scope="module")
def latprobe(c_binary) -> Path:
    return c_binary("latprobe")


def run(latprobe: Path, *args: str, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(latprobe), *args], capture_output=True, text=True, timeout=30, check=False, **kw
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-i", "5us"], "--interval 5us: give a period from 10us to 1h"),
        (["-i", "abc"], "--interval abc"),
        (["-p", "100"], "--priority 100: give a real-time priority from 1 to 99"),
        (["--policy", "other", "-p", "10"], "needs --policy fifo or rr"),
        (["--policy", "deadline"], "--policy deadline: give fifo, rr, other or deadline:"),
        (["--policy", "deadline:2ms:1ms"], "runtime from 1024ns up to the period"),
        (["-c", "tai"], "--clock tai: give monotonic (0) or realtime (1)"),
        (["--warm-up", "x"], "--warm-up x: give a time"),
        (["-H", "0-"], "--housekeeping 0-: give CPU numbers"),
        (["--deepest-idle-state", "deep"], "--deepest-idle-state deep: give the deepest"),
        (["--on-threshold", "trace"], "--on-threshold needs --threshold TIME"),
        (["--threshold", "1ms", "--on-threshold", "beep"], "--on-threshold beep: give trace"),
        (["--threshold", "1ms", "--on-threshold", "signal"], "give the signal, e.g."),
        (["--threshold", "1ms", "--on-threshold", "shell"], "give shell,command=CMD"),
        (["--threshold", "1ms", "--break", "1ms"], "give one of them"),
        (["--stages", "-x"], "leave out --clock realtime, --relative and --posix-timers"),
        (["-D", "0"], "--duration 0: give a positive time"),
        (["-D", "1ms", "-i", "10ms"], "shorter than one --interval"),
        (["-l", "-3"], "--loops -3"),
        (["-a", "0-"], "--cpus 0-"),
        (["--json", "-"], "cannot both go to standard output"),
        (["--frobnicate"], "unknown option --frobnicate"),
        (["-o"], "option -o needs a value"),
        (["stray"], "unexpected argument 'stray'"),
        (["--max-samples", "x"], "--max-samples x"),
        (["--dma-latency", "some"], "--dma-latency some: give microseconds"),
        (["--explain", "0"], "--explain 0: give a latency"),
        (["--break", "soon"], "--break soon: give a latency"),
        (["--stages", "--max-samples", "0"], "give --max-samples above 0"),
    ],
)
def test_bad_arguments(latprobe: Path, args: list[str], message: str) -> None:
    proc = run(latprobe, *args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert proc.stderr.startswith("latprobe: error: ")
    assert proc.stdout == ""


def test_help(latprobe: Path) -> None:
    proc = run(latprobe, "--help")
    assert proc.returncode == 0
    assert "usage: latprobe" in proc.stdout and "--interval" in proc.stdout


def test_unwritable_output_fails_before_measuring(latprobe: Path, tmp_path: Path) -> None:
    t0 = time.monotonic()
    proc = run(latprobe, *PLAIN, "-D", "10s", "-o", str(tmp_path / "no" / "such" / "dir.log"))
    assert proc.returncode == 3
    assert "cannot write the latmon-log" in proc.stderr
    assert time.monotonic() - t0 < 5


def test_cpu_not_available(latprobe: Path) -> None:
    proc = run(latprobe, *PLAIN, "-l", "5", "-a", "1023")
    assert proc.returncode == 3
    assert "CPU 1023 is not online or not available" in proc.stderr


def test_aligned_wakeups(latprobe: Path, tmp_path: Path) -> None:
    """--aligned: every CPU wakes at the same instants (cyclictest -A)."""
    out = tmp_path / "aligned.log"
    proc = run(latprobe, *PLAIN, "-l", "20", "-i", "1ms", "--aligned", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    (log,) = read_file(out)
    assert log.meta["wakeups"] == "aligned"
    for series in log.series:
        assert np.all(series.field("t") % 1_000_000 == 0)


def test_count_limited_run(latprobe: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.log"
    proc = run(latprobe, *PLAIN, "-l", "300", "-i", "1ms", "-o", str(out), "--scenario", "t")
    assert proc.returncode == 0, proc.stderr
    (log,) = read_file(out)
    assert not log.damaged
    assert log.meta["source"] == "latprobe"
    assert log.meta["unit"] == "ns"
    assert log.meta["interval_ns"] == "1000000"
    assert log.meta["scenario"] == "t"
    assert log.meta["interrupted"] == "0"
    online = len(os.sched_getaffinity(0))
    assert [s.name for s in log.series] == [f"cpu{c}" for c in sorted(os.sched_getaffinity(0))]
    assert len(log.series) == online
    assert log.meta["wakeups"] == "spread"
    for k, series in enumerate(log.series):
        t = series.field("t")
        latency = series.latency
        assert series.counters["events"] == 300 == len(latency)
        # wake-ups sit on the period grid, the first one period after the start, CPU k of n
        # shifted by k/n of a period (the CPUs' timers do not coincide)
        phase = 1_000_000 * k // online
        assert t[0] >= 1_000_000 + phase and np.all(t % 1_000_000 == phase)
        # the missed periods are exactly the holes in that grid
        holes = int(np.sum(np.diff(t) // 1_000_000 - 1))
        assert series.counters["missed"] == holes
        # each wake-up time was still in the future when the previous wake-up happened
        assert np.all(t[1:] > t[:-1] + latency[:-1])
        assert latency.min() >= 0
        assert series.counters["min"] == latency.min()
        assert series.counters["max"] == latency.max()
        assert series.counters["sum"] == int(latency.sum())
        # the histogram counts every event once
        assert sum(count for _, _, count in series.bins) == 300


def test_missed_periods_are_counted_exactly(latprobe: Path, tmp_path: Path) -> None:
    """Stop the process for 300 ms in a 1 s run: those periods are missed, and counted."""
    out = tmp_path / "stopped.log"
    proc = subprocess.Popen(
        [str(latprobe), *PLAIN, "-D", "1s", "-i", "1ms", "-a", "0", "-o", str(out)],
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.3)
    proc.send_signal(signal.SIGSTOP)
    time.sleep(0.3)
    proc.send_signal(signal.SIGCONT)
    _, stderr = proc.communicate(timeout=20)
    assert proc.returncode == 0, stderr
    ((series,),) = [log.series for log in read_file(out)]
    events, missed = series.counters["events"], series.counters["missed"]
    # every period of the run was either measured or missed: 1 s / 1 ms
    assert events + missed == 1000
    assert missed >= 290, f"the 300 ms stop must show as missed periods, got {missed}"
    t = series.field("t")
    holes = int(np.sum(np.diff(t) // 1_000_000 - 1))
    tail = (1_000_000_000 - int(t[-1])) // 1_000_000  # periods after the last wake-up
    assert missed == holes + tail
    # after the stop, the probe skipped to a wake-up time in the future instead of "catching
    # up" with one already past (which would report a late wake-up that never was one)
    assert np.all(t[1:] > t[:-1] + series.latency[:-1])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_stops_cleanly_with_complete_output(latprobe: Path, tmp_path: Path, sig) -> None:
    out = tmp_path / "interrupted.log"
    js = tmp_path / "summary.json"
    proc = subprocess.Popen(
        [str(latprobe), *PLAIN, "-i", "1ms", "-o", str(out), "--json", str(js)],
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.5)
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=10)
    assert proc.returncode == 0, stderr
    (log,) = read_file(out)  # strict: the trailer and every count must be there
    assert log.meta["interrupted"] == "1"
    summary = json.loads(js.read_text())
    assert summary["interrupted"] is True
    for series, cpu in zip(log.series, summary["cpus"], strict=True):
        assert series.counters["events"] == cpu["events"] == len(series.latency) > 100


def test_json_summary_agrees_with_the_log(latprobe: Path, tmp_path: Path) -> None:
    out = tmp_path / "run.log"
    proc = run(latprobe, *PLAIN, "-l", "200", "-i", "500us", "-o", str(out), "--json", "-")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["unit"] == "ns" and summary["interval_ns"] == 500_000
    (log,) = read_file(out)
    for series, cpu in zip(log.series, summary["cpus"], strict=True):
        latency = series.latency
        assert cpu["percentiles_from"] == "samples"
        assert cpu["min"] == latency.min() and cpu["max"] == latency.max()
        for key, q in (("p50", 50), ("p90", 90), ("p99", 99), ("p99_9", 99.9)):
            assert cpu[key] == np.percentile(latency, q, method="inverted_cdf")
        assert cpu["mean"] == pytest.approx(latency.mean(), abs=0.001)


def test_histogram_only_percentiles_bound_the_exact_ones(latprobe: Path, tmp_path: Path) -> None:
    """With --max-samples 0 the summary comes from the histogram, within one bin above."""
    proc = run(
        latprobe,
        *PLAIN,
        "-l",
        "300",
        "-i",
        "500us",
        "--max-samples",
        "0",
        "-a",
        "0",
        "--hist-bin",
        "2us",
        "-o",
        str(tmp_path / "h.log"),
        "--json",
        "-",
    )
    assert proc.returncode == 0, proc.stderr
    (cpu,) = json.loads(proc.stdout)["cpus"]
    assert cpu["percentiles_from"] == "histogram" and cpu["histogram_bin_ns"] == 2000
    ((series,),) = [log.series for log in read_file(tmp_path / "h.log")]
    assert len(series.latency) == 0 and series.counters["events"] == 300
    # rebuild the per-bin counts and check p99 lies in its bin
    counts = {lo: c for lo, _, c in series.bins}
    rank = int(np.ceil(0.99 * 300))
    seen = 0
    for lo in sorted(k for k in counts if k is not None):
        seen += counts[lo]
        if seen >= rank:
            assert lo <= cpu["p99"] < lo + 2000
            break


def test_main_thread_is_pinned_off_the_measured_cpu(latprobe: Path, tmp_path: Path) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs two CPUs")
    proc = subprocess.Popen(
        [str(latprobe), *PLAIN, "-D", "2s", "-a", str(cpus[0]), "-o", str(tmp_path / "p.log")],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(0.5)
        tasks = {}
        for task in Path(f"/proc/{proc.pid}/task").iterdir():
            status = (task / "status").read_text()
            allowed = next(x for x in status.splitlines() if x.startswith("Cpus_allowed_list"))
            tasks[int(task.name)] = allowed.split(":")[1].strip()
        assert str(cpus[0]) not in tasks[proc.pid].split(",")
        measuring = [tid for tid in tasks if tid != proc.pid]
        assert len(measuring) == 1 and tasks[measuring[0]] == str(cpus[0])
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
    assert proc.returncode == 0


def _dma_latency_fds(pid: int) -> list[str]:
    out = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            if os.readlink(fd) == "/dev/cpu_dma_latency":
                out.append(fd.name)
        except OSError:
            pass
    return out


@pytest.mark.root
@pytest.mark.skipif(not IS_ROOT, reason="needs root: SCHED_FIFO and /dev/cpu_dma_latency")
@pytest.mark.parametrize(
    ("option", "held", "note"),
    [
        ([], 0, None),  # the default as root: 0, as cyclictest holds it
        (["--dma-latency", "7"], 7, None),
        (["--dma-latency", "none"], None, "--dma-latency none"),
    ],
)
def test_realtime_and_dma_latency(
    latprobe: Path, tmp_path: Path, option: list[str], held: int | None, note: str | None
) -> None:
    """SCHED_FIFO at the priority asked; /dev/cpu_dma_latency held at 0 by default as root, at
    the value given, or untouched with `none`, only while measuring; the log header says which.

    (Other processes may hold their own requests, so the test looks at latprobe's open file
    and at the system value being at most the request, not at the value before and after.)"""

    def qos() -> int:
        with open("/dev/cpu_dma_latency", "rb") as f:
            return struct.unpack("i", f.read(4))[0]

    log = tmp_path / "rt.log"
    args = [str(latprobe), "-D", "1s", "-p", "90", "-q", "-o", str(log), *option]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    # measuring: the threads run (after the set-up, which takes longer on a loaded machine)
    deadline = time.monotonic() + 10
    while len(list(Path(f"/proc/{proc.pid}/task").iterdir())) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "latprobe did not start"
        time.sleep(0.02)
    time.sleep(0.1)
    fds = _dma_latency_fds(proc.pid)
    during = qos()
    policies = set()
    for task in Path(f"/proc/{proc.pid}/task").iterdir():
        if int(task.name) != proc.pid:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            policies.add((int(fields[37]), int(fields[38])))  # rt_priority, policy
    _, stderr = proc.communicate(timeout=10)
    assert proc.returncode == 0, stderr
    assert policies == {(90, 1)}  # SCHED_FIFO = 1
    (run,) = read_file(log)
    if held is not None:
        assert len(fds) == 1, "the cpu_dma_latency request must be held while measuring"
        assert during <= held
        assert run.meta["dma_latency_us"] == str(held)
        assert "dma_latency_note" not in run.meta
    else:
        assert fds == [], "with --dma-latency none the device must not be touched"
        assert run.meta["dma_latency_us"] == "none"
        assert run.meta["dma_latency_note"] == note


@pytest.mark.root
@pytest.mark.skipif(not IS_ROOT, reason="needs root to drop to an unprivileged user")
def test_dma_latency_untouched_without_root(latprobe: Path, tmp_path: Path) -> None:
    """Not root: the default leaves /dev/cpu_dma_latency alone and the output says why; asking
    for a value is a setup error that names the option."""
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=-all"]
    base = [str(latprobe), *PLAIN, "-l", "3", "--json", "-", "-o", "/dev/null"]
    proc = subprocess.run(
        [*drop, *base], capture_output=True, text=True, timeout=30, check=False, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["dma_latency_us"] is None
    assert summary["dma_latency_note"].startswith("not root")
    proc = subprocess.run(
        [*drop, *base, "--dma-latency", "0"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd=tmp_path,
    )
    assert proc.returncode == 3
    assert "cannot hold /dev/cpu_dma_latency at 0 us for --dma-latency" in proc.stderr


@pytest.mark.root
@pytest.mark.skipif(not IS_ROOT, reason="needs root to drop to an unprivileged user")
def test_realtime_without_permission_says_how_to_fix_it(latprobe: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            "setpriv",
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "--inh-caps=-all",
            str(latprobe),
            "--no-mlock",
            "--max-samples",
            "10",
            "-l",
            "5",
            "-o",
            "/dev/null",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 3, proc.stderr
    assert "no permission to run at SCHED_FIFO priority 95" in proc.stderr
    assert "CAP_SYS_NICE" in proc.stderr and "--policy other" in proc.stderr
