"""Device trees with boot modules (latmon.campaign.devicetree): module placement, dts literals, and
a tree dumped by the real QEMU, extended and compiled by the real dtc, read back."""

from __future__ import annotations

from pathlib import Path

import pytest

from latmon.campaign import devicetree
from latmon.campaign.devicetree import MIB, QEMU_DTB_WINDOW, RAM_BASE, Module


def files(tmp_path: Path, *sizes: int) -> list[Path]:
    out = []
    for i, size in enumerate(sizes):
        p = tmp_path / f"m{i}"
        p.write_bytes(b"\0" * size)
        out.append(p)
    return out


def test_modules_are_2mib_aligned_and_skip_qemus_tree(tmp_path: Path) -> None:
    a, b, c = files(tmp_path, 3 * MIB + 5, 40 * MIB, 1)
    start = RAM_BASE + 90 * MIB
    mods = devicetree.place([a, b, c], start, RAM_BASE + 1024 * MIB)
    assert [m.addr % (2 * MIB) for m in mods] == [0, 0, 0]
    assert mods[0].addr == start and mods[0].size == 3 * MIB + 5
    # b at RAM + 94 MiB would cross QEMU's own device tree at RAM + 128 MiB: it goes after it
    assert mods[1].addr == QEMU_DTB_WINDOW[1]
    assert mods[2].addr == mods[1].end  # 40 MiB keeps the next one 2 MiB aligned
    for m in mods:
        assert m.end <= QEMU_DTB_WINDOW[0] or m.addr >= QEMU_DTB_WINDOW[1], m
    with pytest.raises(devicetree.DeviceTreeError, match="do not fit"):
        devicetree.place([b], start, start + 16 * MIB)
    with pytest.raises(devicetree.DeviceTreeError, match="missing"):
        devicetree.place([tmp_path / "absent"], start, start + 16 * MIB)


def test_module_node_values_and_loader_arguments(tmp_path: Path) -> None:
    m = Module(tmp_path / "Image", 0x1_4200_0000, 0x1F6_DFC0)
    assert m.reg() == "<0x1 0x42000000 0x0 0x1f6dfc0>"
    assert m.loader_args() == [
        "-device",
        f"loader,file={tmp_path / 'Image'},addr=0x142000000,force-raw=on",
    ]
    assert devicetree.quote('a "b" \\c') == '"a \\"b\\" \\\\c"'


@pytest.mark.qemu
def test_qemus_tree_extended_and_compiled(tmp_path: Path) -> None:
    source = devicetree.machine_source(
        "virt,virtualization=on,gic-version=2", ["-cpu", "cortex-a53", "-smp", "2"], tmp_path
    )
    assert "arm,cortex-a15-gic" in source and "pl011@9000000" in source
    source += (
        '\n/ {\n\tchosen {\n\t\txen,xen-bootargs = "console=dtuart";\n'
        f"\t\tmodule@42000000 {{ reg = <{devicetree.cells(0x42000000)} "
        f"{devicetree.cells(4096)}>; }};\n\t}};\n}};\n"
    )
    blob = devicetree.compile_tree(source, tmp_path / "x.dtb")
    back = devicetree.decompile(blob)
    assert 'xen,xen-bootargs = "console=dtuart";' in back
    assert "reg = <0x00 0x42000000 0x00 0x1000>;" in back
    assert (tmp_path / "x.dts").read_text() == source
    with pytest.raises(devicetree.DeviceTreeError, match="could not compile"):
        devicetree.compile_tree("/dts-v1/;\n/ { broken", tmp_path / "bad.dtb")
