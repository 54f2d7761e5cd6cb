"""latprobe --timerlat: the kernel's timerlat tracer as latprobe's source of IRQ and thread
latency (issue 42, docs/latprobe.md "The timerlat tracer").

On this host (no timerlat tracer) the option must stop cleanly: exit 3, one line that says the
tracer is missing and what the kernel has, no output file, the tracer's settings untouched.

In an arm64 guest on QEMU with Debian's PREEMPT_RT kernel (which has the tracer), latprobe
--timerlat and `rtla timerlat hist` run at the same time. The kernel feeds every timerlat
sample to every tracefs instance running the tracer, so both tools read the same samples, each
from its own buffer and with its own code. The check is exact: for each CPU and context, rtla's
histogram (1 µs buckets) equals, bucket for bucket, the histogram of a contiguous run of
latprobe's samples (in the tracer's order) of the same length. It boots one guest (about a
minute on 2 host cores): `make target-test`, not `make test`.
"""

from __future__ import annotations

import collections
import json
import os
import shlex
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.readers.latmon_log import read_file

ROOT = Path(__file__).resolve().parent.parent
IS_ROOT = os.geteuid() == 0
TRACERS = Path("/sys/kernel/tracing/available_tracers")


def host_has_timerlat() -> bool:
    try:
        return "timerlat" in TRACERS.read_text().split()
    except OSError:
        return False


@pytest.mark.skipif(not IS_ROOT, reason="needs root (tracefs)")
@pytest.mark.skipif(host_has_timerlat(), reason="this kernel has the timerlat tracer")
def test_timerlat_option_fails_cleanly_without_the_tracer(c_binary, tmp_path: Path) -> None:
    out = tmp_path / "t.log"
    proc = subprocess.run(
        [str(c_binary("latprobe")), "--timerlat", "-D", "1s", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 3, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("latprobe: timerlat tracer not available on this kernel: ")
    assert str(TRACERS) in lines[0] and "--stages" in lines[0]
    assert not out.exists() and not Path(f"{out}.tmp").exists()
    assert not list(Path("/sys/kernel/tracing/instances").glob("latprobe-timerlat.*"))


def test_timerlat_option_refuses_what_the_tracer_cannot_do(c_binary) -> None:
    for extra, what in (
        (["--stages"], "leave out --stages"),
        (["-i", "50us"], "100us to 1s"),
        (["-i", "1000500ns"], "whole microseconds"),
    ):
        proc = subprocess.run(
            [str(c_binary("latprobe")), "--timerlat", *extra, "-D", "1s"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert proc.returncode == 2 and what in proc.stderr, (extra, proc.stderr)


def test_timerlat_series_are_measurements_of_their_own(tmp_path: Path) -> None:
    """With --timerlat there is no cpuN series: cpuN.irq and cpuN.thread (from=timerlat) are
    what latmon stats reports, while the same names from the stages stay parts of cpuN."""
    from latmon.inputs.ingest import load
    from latmon.inputs.logformat import LogWriter

    path = tmp_path / "t.log"
    with path.open("w") as f:
        w = LogWriter(f, source="latprobe", unit="ns", measured_by="timerlat")
        for name, kind, source in (("cpu0.irq", "irq", "timerlat"), ("cpu1.irq", "irq", "stages")):
            sid = w.series(
                name, ("t", "latency"), kind=kind, of=name[:4], cpu=name[3], **{"from": source}
            )
            for k in range(5):
                w.sample(sid, k * 1000, 100 + k)
        w.close()
    (run,) = load(path)
    derived = {s.name: s.is_derived for s in run.series}
    assert derived == {"cpu0.irq": False, "cpu1.irq": True}


# ---- the same run as rtla timerlat, in a guest with the tracer -------------------------------

PROBE_LIMIT_S = 120  # latprobe's time limit; it is stopped (SIGINT) once rtla has finished
RTLA_S = 4


def guest_job() -> str:
    probe = ["latprobe", "--timerlat", "-i", "1ms", "-D", f"{PROBE_LIMIT_S}s", "-q"]
    probe += ["-o", "/tmp/tl.log", "--json", "/tmp/tl.json"]
    rtla = ["rtla", "timerlat", "hist", "-d", f"{RTLA_S}s", "-E", "100000", "-P", "f:95"]
    # rtla's window (it takes seconds to start under emulation) lies inside latprobe's
    return "\n".join(
        [
            "cd /tmp",
            f"{shlex.join(probe)} 2> /tmp/tl.err & probe=$!",
            "sleep 2",
            f"run rtla.txt {shlex.join(rtla)}",
            "sleep 1",
            "kill -INT $probe; wait $probe; echo $? > /tmp/tl.rc",
            "emit tl.rc /tmp/tl.rc 0",
            "emit tl.err /tmp/tl.err 0",
            "[ -f /tmp/tl.log ] && emit tl.log /tmp/tl.log 0",
            "[ -f /tmp/tl.json ] && emit tl.json /tmp/tl.json 0",
            "emit period.txt /sys/kernel/tracing/osnoise/timerlat_period_us 0",
            "ls /sys/kernel/tracing/instances > /tmp/inst.txt; emit inst.txt /tmp/inst.txt 0",
            "",
        ]
    )


def matching_window(buckets: np.ndarray, want: collections.Counter[int]) -> int | None:
    """The first start of a contiguous run of len(want) buckets whose counts equal @want."""
    n = sum(want.values())
    if n == 0 or n > len(buckets):
        return None
    diff: collections.Counter[int] = collections.Counter()
    for b in buckets[:n]:
        diff[int(b)] += 1
    diff.subtract(want)
    bad = sum(1 for v in diff.values() if v)
    for start in range(len(buckets) - n + 1):
        if bad == 0:
            return start
        if start + n == len(buckets):
            break
        for b, d in ((int(buckets[start]), -1), (int(buckets[start + n]), +1)):
            before = diff[b]
            diff[b] += d
            bad += (diff[b] != 0) - (before != 0)
    return None


@pytest.mark.target
def test_timerlat_agrees_with_rtla_on_the_same_run(tmp_path: Path) -> None:
    from latmon.campaign.guest import run_guest, target_dir
    from latmon.inputs.ingest import load

    images = target_dir()
    run = run_guest(images / "vmlinuz-rt", images / "initramfs.cpio.gz", guest_job(), tmp_path, 300)
    assert "timerlat" in run.info["tracers"].split(","), run.info
    assert run.file("tl.rc").text.strip() == "0", run.file("tl.err").text
    assert run.file("rtla.txt").status == 0, run.file("rtla.txt").text
    # the tracer's global settings are restored and the instance is gone
    assert run.file("period.txt").text.strip() == "1000"
    assert "latprobe-timerlat" not in run.file("inst.txt").text

    (tmp_path / "tl.log").write_text(run.file("tl.log").text + "\n")
    (tmp_path / "rtla.txt").write_text(run.file("rtla.txt").text + "\n")
    (log,) = read_file(tmp_path / "tl.log")
    (as_run,) = load(tmp_path / "tl.log")  # what latmon stats and report read
    assert {s.name for s in as_run.series if not s.is_derived} == {
        f"cpu{c}.{k}" for c in (0, 1) for k in ("irq", "thread")
    }
    assert log.meta["measured_by"] == "timerlat" and log.meta["trace_lost"] == "0"
    assert log.meta["interrupted"] == "1"  # stopped by SIGINT, its output complete
    summary = json.loads(run.file("tl.json").text)
    (rtla,) = load(tmp_path / "rtla.txt", fmt="rtla-timerlat-hist")
    rows = []
    for cpu in (0, 1):
        for context in ("irq", "thread"):
            ours = next(s for s in log.series if s.name == f"cpu{cpu}.{context}")
            assert ours.meta["from"] == "timerlat" and ours.meta["kind"] == context
            theirs = next(s for s in rtla.series if s.name == f"{context}-cpu{cpu}")
            hist = theirs.histogram
            assert hist is not None
            v = ours.field("latency")
            js = next(c for c in summary["cpus"] if c["cpu"] == cpu)[context]
            assert js["n"] == len(v) and js["max"] == int(v.max())
            # rtla: bucket = latency in µs (floor), at or above -E 100000 'over:'
            buckets = np.minimum(v // 1000, 100000)
            want = collections.Counter(
                {int(lo) // 1000: int(c) for lo, c in zip(hist.lo, hist.count, strict=True)}
            )
            if hist.overflow:
                want[100000] = int(hist.overflow)
            start = matching_window(buckets, want)
            n = sum(want.values())
            assert n > 100, (cpu, context, n)
            assert start is not None, (
                f"cpu{cpu} {context}: no run of {n} of latprobe's {len(v)} samples has "
                "rtla's histogram"
            )
            rows.append([f"cpu{cpu}", context, len(v), n, start, int(np.median(v)) // 1000])
    print("\nlatprobe --timerlat and rtla timerlat hist on the same run (QEMU, emulated)")
    print("cpu  context  latprobe n  rtla n  rtla's run starts at  latprobe median µs")
    for r in rows:
        print("  ".join(str(x) for x in r))
