"""The Linux SoC (docs/hw/linux-soc.md): its parts build (firmware, /init, initramfs, device
tree), and the cross-check and the stage split are right on known traces. A boot of the SoC is
not part of make test (make linux-soc runs it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import linux_soc
from linux_soc_check import pairs, read_trace
from linux_soc_stages import STAGES, decompose, windows

TRACE = """\
100 K
5000 U
10000 L1
10012 S 0
10100 S 1
10150 S 2
10200 S 3
10240 A1 1
20000 L0
20012 S 0
20200 S 4
20300 S 5
20500 S 6
20600 S 7
20700 S 8
20800 P 0
20900 A0 0
30000 X 0
"""


def test_the_check_pairs_each_raise_with_the_store_after_it(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    ev = read_trace(trace)
    assert (ev.kernel, ev.user, ev.end, ev.exit_code) == (100, 5000, 30000, 0)
    (k,) = pairs(ev, 1)
    (u,) = pairs(ev, 0)
    assert (k.latency, k.privilege) == (240, 1)
    assert (u.latency, u.privilege) == (900, 0)


def test_the_stages_add_up_to_the_raise_to_ack_time(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    ws = windows(trace)
    assert [w.line for w in ws] == [1, 0]
    kernel = decompose(ws[0], "kernel-ack")
    user = decompose(ws[1], "user-ack")
    assert kernel == [12, 188, 40]
    assert user == [12, 188, 100, 200, 100, 200, 100]
    assert sum(kernel) == 240 and sum(user) == 900
    assert len(user) == len(STAGES["user-ack"])


def test_the_initramfs_is_a_newc_archive_the_kernel_reads(tmp_path: Path) -> None:
    init = tmp_path / "init"
    init.write_bytes(b"\x7fELF" + bytes(100))
    archive = linux_soc.build_initramfs(init)
    listing = subprocess.run(
        ["cpio", "-itv"], input=archive.read_bytes(), capture_output=True, check=True
    ).stdout.decode()
    assert "dev/console" in listing and "init" in listing
    assert listing.splitlines()[1].startswith("crw")


def test_the_firmware_and_init_build_freestanding() -> None:
    fw = linux_soc.build_firmware()
    assert 0 < fw.stat().st_size < 64 * 1024
    init = linux_soc.build_init()
    header = init.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[4] == 1  # ELF32
    assert int.from_bytes(header[18:20], "little") == 243  # EM_RISCV
    undefined = subprocess.run(
        [linux_soc.ELF_PREFIX + "nm", "-u", str(init)], capture_output=True, text=True, check=True
    ).stdout
    assert undefined.strip() == ""  # nothing from a C library


def test_the_device_tree_compiles_with_the_uio_nodes(tmp_path: Path) -> None:
    dtb = linux_soc.build_dtb(tmp_path, 4096, "latmon.rounds=1")
    text = subprocess.run(
        ["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert text.count('compatible = "generic-uio"') == 2
    assert "latmon.rounds=1" in text and "uio_pdrv_genirq.of_id=generic-uio" in text
