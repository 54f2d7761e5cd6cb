"""AMP on QEMU virt (latmon.campaign.amp, docs/amp.md): the device tree Linux and the firmware share
— read back through the real dtc — and Linux's job. The whole machine (Linux on CPUs 1-2, the
suite on CPUs 0 and 3, the log through shared memory) runs in `make hv-campaign`
(tests/test_hv_campaign.py); the ring's two ends are tested in sw/tests/test_latmon_ring.c and
tests/test_latctl.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from latmon.campaign import amp, devicetree


@pytest.mark.qemu
def test_tree_hides_the_firmwares_cores_and_memory_from_linux(tmp_path: Path) -> None:
    blob = amp.device_tree(2048, tmp_path)
    text = devicetree.decompile(blob)
    cpus = sorted(re.findall(r"\bcpu@(\d+) \{", text))
    assert cpus == ["1", "2"]  # Linux's; 0 and 3 are the firmware's
    assert "cpu-map" not in text
    reserved = text[text.index("reserved-memory {") :]
    assert "latmon-firmware@40000000" in reserved and "no-map;" in reserved
    assert "reg = <0x00 0x40000000 0x00 0x800000>;" in reserved
    # the ring lies inside the reserved region; Linux's kernel outside it
    ring_lo, ring_size = amp.RING
    assert amp.RESERVED[0] <= ring_lo and ring_lo + ring_size <= sum(amp.RESERVED)
    assert sum(amp.RESERVED) <= amp.LINUX_ADDR and amp.LINUX_ADDR % (2 << 20) == 0
    chosen = text[text.index("chosen {") :]
    assert "latmon,ring = <0x00 0x40400000 0x00 0x100000>;" in chosen
    assert "latmon,linux = <0x00 0x60000000>;" in chosen
    assert "latmon,linux-cpu = <0x01>;" in chosen and "latmon,second-cpu = <0x03>;" in chosen
    assert 'method = "hvc";' in text  # the firmware calls PSCI the way the tree says


def test_linux_job_reads_the_ring_under_its_load() -> None:
    job = amp.linux_job(["stress-ng", "--cpu", "2", "--quiet"], 2_000_000_000)
    assert job.index("stress-ng --cpu 2") < job.index("sleep 2.000") < job.index("latctl ring")
    assert "--phys 0x40400000 --size 0x100000 -o /tmp/firmware.log" in job
    assert job.index("latctl ring") < job.index("kill $load_pid")
    assert "emit firmware.log /tmp/firmware.log 0" in job
    assert "stress-ng" not in amp.linux_job(None, 0)
