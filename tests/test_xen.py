"""Xen on QEMU's virt machine (latmon.campaign.xen, docs/target/xen.md).

The pure parts against captured output of a real Xen 4.17 Dom0 (tests/data/xen): `xl info`,
`xl vcpu-list`, the console prefix of dom0less guests, the xl configuration and Xen's command
line. Then the smoke tests of `make test` on the real hypervisor (Debian's Xen 4.17 under
QEMU): Xen boots a Linux Dom0 that runs latprobe for a second, and Xen builds the A53 suite as
a dom0less guest whose cases pass. Nothing asserts a latency (emulated, shared machine).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

from latmon.campaign import guest, xen
from latmon.inputs.ingest import load

DATA = Path(__file__).parent / "data" / "xen"
ROOT = Path(__file__).resolve().parents[1]


def test_xl_info_and_vcpu_pinning_from_real_output() -> None:
    info = xen.xl_info((DATA / "xl-info.txt").read_text())
    assert info["xen_version"] == "4.17.7"
    assert info["xen_scheduler"] == "credit2"
    assert "dom0_vcpus_pin" in info["xen_commandline"]
    assert info["nr_cpus"] == "4"
    pinning = xen.vcpu_pinning((DATA / "vcpu-list.txt").read_text())
    assert pinning == (
        "Domain-0 v0->p0 (hard 0), v1->p1 (hard 1); domu v0->p2 (hard 2), v1->pnone (hard 3)"
    )
    assert xen.vcpu_pinning("Name ID VCPU CPU State Time(s) Affinity\n") == "unknown"


def test_partition_pins_dom0_then_domu_one_to_one() -> None:
    p = xen.Partition(pcpus=4, dom0_vcpus=2, domu_vcpus=2)
    assert p.domu_pcpus == [2, 3]
    line = xen.command_line(p)
    assert "dom0_max_vcpus=2" in line and "dom0_vcpus_pin" in line and "dom0_mem=512M" in line
    assert "vwfi=native" in line and "sched=credit2" in line
    assert "dom0" not in xen.command_line(p, with_dom0=False)
    cfg = xen.domu_config(p, "console=hvc0 rdinit=/init")
    assert 'cpus = ["2", "3"]' in cfg and "vcpus = 2" in cfg and "memory = 512" in cfg
    assert 'extra = "console=hvc0 rdinit=/init"' in cfg
    with pytest.raises(xen.XenError, match="need 5"):
        xen.Partition(pcpus=4, dom0_vcpus=2, domu_vcpus=3)


def test_dom0less_console_is_the_guests_lines_only() -> None:
    console = (
        "(XEN) Xen version 4.17.7\r\n"
        "(XEN) DOM1: H latmon_log=1 *981a2720\r\n"
        "(XEN) d0v0: vGICD: unhandled word write\r\n"
        "(XEN) DOM2: other guest\r\n"
        "(XEN) DOM1: suite: passed\r\n"
    )
    assert xen.guest_console(console) == "H latmon_log=1 *981a2720\nsuite: passed\n"


def test_dom0_and_domu_jobs_start_the_tools_and_wait() -> None:
    p = xen.Partition()
    job = xen.domu_job(p, ["stress-ng", "--cpu", "2", "--quiet"], 2_000_000_000, 300)
    assert job.startswith(". /etc/latmon/xen-dom0.sh\n")
    assert "xen_tools_start" in job and "xen_facts" in job
    # the load starts and warms up before the DomU is created, and stops after it ended
    assert job.index("stress-ng --cpu 2") < job.index("sleep 2.000") < job.index("xen_domu_start")
    assert job.index("xen_domu_wait domu 300") < job.index("kill $load_pid")
    assert "xen_domu_console domu" in job
    assert "stress-ng" not in xen.domu_job(p, None, 2_000_000_000, 300)


EMIT = (  # the guest's emit (target/guest-init.sh), into a file standing for the DomU's console
    'emit() { { echo "@@file $1"; cat "$2"; echo; echo "@@end $1 status=$3"; } >> "$CONSOLE"; }\n'
)


@pytest.mark.parametrize(
    ("load", "said"),
    [
        (["sleep", "30"], "load running: pid "),
        (["sh", "-c", "echo no such stressor; exit 1"], "load died at once\nno such stressor"),
    ],
)
def test_load_carrier_says_whether_its_load_runs(
    tmp_path: Path, load: list[str], said: str
) -> None:
    """The DomU that only carries the load, run by a real shell: its console says whether the
    load runs (what Dom0 waits for before it measures) and, if it ends, that it ended."""
    console = tmp_path / "console.log"
    script = tmp_path / "job.sh"
    script.write_text(EMIT + xen.load_carrier_job(load))
    proc = subprocess.Popen(
        ["sh", str(script)], env={"CONSOLE": str(console), "PATH": os.environ["PATH"]}
    )
    try:
        deadline = time.monotonic() + 30
        while f"@@end {xen.LOAD_STARTED}" not in (console.read_text() if console.exists() else ""):
            assert time.monotonic() < deadline and proc.poll() in (None, 0), "no load-started"
            time.sleep(0.05)
        text = console.read_text()
        assert f"@@file {xen.LOAD_STARTED}\n{said}" in text, text
        if load[0] == "sleep":
            assert proc.poll() is None and "load-ended" not in text  # runs until destroyed
        else:
            assert proc.wait(timeout=10) == 0
            assert "@@file load-ended.txt" in console.read_text()
    finally:
        proc.kill()
        proc.wait()


def test_dom0_measures_between_the_domus_load_start_and_its_destruction() -> None:
    start, stop = xen.load_carrier_start(2_000_000_000, 300), xen.load_carrier_stop()
    job = xen.dom0_job(start + "  run latprobe.txt latprobe\n" + stop)
    order = [
        "xen_domu_start",
        "xen_domu_load_wait domu 300",
        "sleep 2.000",
        "latprobe",
        "xl domid domu",
        "xl destroy domu",
        "emit domu-load.txt /tmp/domu-load.txt $status",
        "  xen_domu_console domu\n",
    ]
    positions = [job.index(word) for word in order]
    assert positions == sorted(positions), job
    # the wait's failure ends the job before anything is measured
    assert "emit domu-load.txt /tmp/domu-load.txt 1; xen_domu_console domu; return 1;" in start
    assert "xen_domu_load_wait()" in (ROOT / "target" / "xen-dom0.sh").read_text()


def test_initramfs_archives_concatenate_aligned() -> None:
    a, b = b"x" * 5, xen.archive({"job.sh": b"echo hi\n", "etc/latmon/domu.cfg": b"name=1\n"})
    joined = xen.concatenate([a, b])
    assert joined[:5] == a and joined[5:8] == b"\0\0\0" and joined[8:] == b
    assert b"etc/latmon/domu.cfg" in b and b"070701" in b[:6]


# ---- on the real hypervisor (make test) ----


def images_or_fail() -> xen.Images:
    try:
        return xen.images()
    except (xen.XenError, guest.GuestError) as error:
        pytest.fail(f"{error} (make test builds them first)")


@pytest.mark.qemu
def test_xen_boots_a_dom0_that_runs_latprobe(tmp_path: Path) -> None:
    images_or_fail()
    p = xen.Partition()
    job = xen.dom0_job(
        "  run latprobe.txt latprobe -D 1s -i 1ms -p 95 -q -o /tmp/latprobe.log\n"
        "  emit latprobe.log /tmp/latprobe.log 0\n"
        "  run vcpu-list.txt xl vcpu-list\n"
    )
    run = xen.run_dom0(p, "std", job, tmp_path / "xen", timeout_s=600)
    assert run.info["hypervisor"].startswith("xen-4.17"), run.info
    assert run.file("latprobe.txt").status == 0, run.file("latprobe.txt").text
    facts = xen.hypervisor_facts(run)
    assert facts["env.hypervisor"].startswith("Xen 4.17")
    assert facts["env.vcpu_pinning"] == "Domain-0 v0->p0 (hard 0), v1->p1 (hard 1)"
    log = tmp_path / "latprobe.log"
    log.write_text(run.file("latprobe.log").text + "\n")
    (measured,) = load(log)
    assert {s.name for s in measured.series if not s.is_stages} == {"cpu0", "cpu1"}
    assert all(len(s.latency) > 0 for s in measured.series if not s.is_stages)


@pytest.mark.qemu
def test_xen_builds_the_suite_as_a_dom0less_guest(c_binary, tmp_path: Path) -> None:
    images_or_fail()
    image = c_binary("examples/suite-a53-virt.img")
    p = xen.Partition(pcpus=2, dom0_vcpus=0, domu_vcpus=2, memory_mib=1024, domu_memory_mib=64)
    end = re.compile(r"board: exit status (\d+)")
    result, console = xen.run_dom0less(
        p, image, "cases=caches-on,wfi-idle,two-cores timeout-ms=2000", tmp_path / "xen", 600, end
    )
    assert result.stopped_at_end, result.console[-1500:]
    assert "suite: passed" in console and "board: exit status 0" in console, console[-1500:]
    log = tmp_path / "suite.log"
    log.write_text(console)
    (run,) = load(log)
    assert run.meta["platform"] == "xen-guest"
    assert run.meta["hypervisor"].startswith("xen-4.17")
    assert run.meta["emulated"] == "unknown"  # the guest cannot tell; the runner knows
    # wfi-idle with its watchdog: Xen's emulated physical timer armed before every WFI
    assert [s.name for s in run.series] == ["caches-on", "wfi-idle", "two-cores"]
    assert all(len(s.latency) == 200 for s in run.series)


def test_the_watchdog_stops_a_stuck_handler_in_a_xen_guest(c_binary, tmp_path: Path) -> None:
    """The same image as a dom0less guest, its timer handler made to spin with interrupts on:
    Xen's emulated physical timer (PPI 30), above it in priority, expires twice without
    progress (2 x 10 x timeout-ms of the counter) and the guest stops with the message."""
    images_or_fail()
    image = c_binary("examples/suite-a53-virt.img")
    p = xen.Partition(pcpus=2, dom0_vcpus=0, domu_vcpus=2, memory_mib=1024, domu_memory_mib=64)
    end = re.compile(r"board: exit status (\d+)")
    result, console = xen.run_dom0less(
        p, image, "inject=isr-spin cases=caches-on timeout-ms=100", tmp_path / "xen", 600, end
    )
    assert result.stopped_at_end, result.console[-1500:]
    assert (
        "suite: FAIL caches-on: watchdog: no progress for 125000000 counts; the handler of "
        "interrupt 27 has not returned - stopping" in console
    ), console[-1500:]
    assert "board: exit status 1" in console


@pytest.mark.qemu
def test_the_xen_images_come_from_debian_packages() -> None:
    """The hypervisor and the tools are the packaged ones, listed with their checksums."""
    manifest = (ROOT / "build/target/debs/manifest.tsv").read_text()
    assert re.search(r"^xen-hypervisor\txen-hypervisor-4\.17-arm64\t", manifest, re.M)
    assert re.search(r"^xen-tools\txen-utils-4\.17\t", manifest, re.M)
    header = images_or_fail().xen.read_bytes()[:64]
    assert header[56:60] == b"ARMd"  # an arm64 Image, as QEMU's -kernel loads it
