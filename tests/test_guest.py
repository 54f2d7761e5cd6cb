"""The guest side of `latmon run` in QEMU (latmon.campaign.guest) without booting: the results
channel is split into files even when a file holds marker-like text, the job script has the commands
the scenario asks for, and the preemption model is read from a kernel config."""

from __future__ import annotations

from pathlib import Path

from latmon.campaign.guest import measurement_job, parse_channel, preemption_model

CHANNEL = """@@guest kernel=6.1.0-56-rt-arm64 cpus=2 preempt=#1_SMP_PREEMPT_RT
@@guest tracers=timerlat,osnoise,nop
@@file latprobe.txt
line one
@@end other status=9
@@end latprobe.txt status=0
@@file cyclictest.txt
ERROR: x

@@end cyclictest.txt status=3
@@done status=0
"""


def test_channel_files_status_and_facts() -> None:
    files, info, done = parse_channel(CHANNEL)
    assert info == {
        "kernel": "6.1.0-56-rt-arm64",
        "cpus": "2",
        "preempt": "#1_SMP_PREEMPT_RT",
        "tracers": "timerlat,osnoise,nop",
    }
    assert files["latprobe.txt"].text == "line one\n@@end other status=9"
    assert files["latprobe.txt"].status == 0
    assert files["cyclictest.txt"].text == "ERROR: x\n" and files["cyclictest.txt"].status == 3
    assert done == "0"


def test_an_unfinished_channel_says_not_done() -> None:
    files, _, done = parse_channel("@@file a\npartial")
    assert files == {} and done is None


def test_job_runs_the_load_the_tools_and_stops_the_load() -> None:
    job = measurement_job(
        ["-i", "1000000ns", "-p", "95"],
        "arm64-rt-stress",
        10_000_000_000,
        2_000_000_000,
        ["stress-ng", "--cpu", "2"],
        ["cyclictest", "-q", "--json", "/tmp/cyclictest.json"],
        95,
    )
    lines = job.splitlines()
    assert lines[2].startswith("stress-ng --cpu 2 > /tmp/load.txt 2>&1 & load_pid=$!")
    assert "sleep 2.000" in lines
    probe = next(x for x in lines if x.startswith("run latprobe.txt"))
    assert "-D 10000000000ns --scenario arm64-rt-stress -o /tmp/latprobe.log" in probe
    assert any(x.startswith("run cyclictest.txt cyclictest -q") for x in lines)
    assert any("rtla timerlat hist -d 10s -E 100000 -P f:95" in x for x in lines)
    assert lines.index(probe) < next(i for i, x in enumerate(lines) if "kill $load_pid" in x)


def test_job_without_load_or_rtla() -> None:
    job = measurement_job([], "idle", 1_000_000_000, 0, None, None, None)
    assert "stress-ng" not in job and "rtla" not in job and "cyclictest" not in job


def test_preemption_model_from_config(tmp_path: Path) -> None:
    rt = tmp_path / "config-rt"
    rt.write_text("CONFIG_HZ=250\n# CONFIG_PREEMPT is not set\nCONFIG_PREEMPT_RT=y\n")
    std = tmp_path / "config-std"
    std.write_text("CONFIG_PREEMPT_VOLUNTARY=y\nCONFIG_HZ=250\n")
    assert preemption_model(rt) == "PREEMPT_RT (HZ=250)"
    assert preemption_model(std) == "PREEMPT_VOLUNTARY (HZ=250)"
    assert preemption_model(tmp_path / "none") == "unknown"
