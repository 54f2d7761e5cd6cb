"""Device trees for QEMU's virt machine with boot modules (docs/target/xen.md, docs/amp.md).

QEMU writes the tree of the machine it emulates (``-M ...,dumpdtb=FILE``); ``dtc`` (Debian's
device-tree-compiler) turns it into source, to which a run adds what the boot needs: Xen's
``/chosen`` (its command line, the Dom0 kernel and initramfs, dom0less domains) or, next to
Linux, the firmware's ``/chosen`` properties and the memory Linux must leave alone; ``dtc``
compiles the result and QEMU boots with ``-dtb``. The files a tree names are loaded by QEMU's
generic loader at the addresses chosen here (``place``).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from latmon.campaign import qemu
from latmon.errors import LatmonError

DTC = "dtc"
MIB = 1 << 20
#: QEMU virt's RAM starts here (Xen's guests' too)
RAM_BASE = 0x4000_0000
#: where QEMU puts its own device tree (and an -initrd) when it boots a kernel: RAM + 128 MiB
#: (with at least 256 MiB of RAM); modules must stay clear of it
QEMU_DTB_WINDOW = (RAM_BASE + 128 * MIB, RAM_BASE + 130 * MIB)


#: no display, no network (which would want a ROM file) for the dump
QUIET = ("-display", "none", "-nic", "none")


class DeviceTreeError(LatmonError):
    """dtc is missing, or a tree or a module layout cannot be made."""


@dataclass(frozen=True)
class Module:
    """A file QEMU's generic loader puts into guest RAM at addr before the boot."""

    path: Path
    addr: int
    size: int

    @property
    def end(self) -> int:
        return self.addr + self.size

    def loader_args(self) -> list[str]:
        return ["-device", f"loader,file={self.path},addr={self.addr:#x},force-raw=on"]

    def reg(self) -> str:
        """The "reg" of a /chosen module node (two address and two size cells)."""
        return f"<{cells(self.addr)} {cells(self.size)}>"


def cells(value: int) -> str:
    """A 64-bit value as two 32-bit cells."""
    return f"{value >> 32:#x} {value & 0xFFFF_FFFF:#x}"


def quote(text: str) -> str:
    """A dts string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def place(
    paths: list[Path], start: int, end: int, avoid: tuple[int, int] = QEMU_DTB_WINDOW
) -> list[Module]:
    """Put the files one after the other from @start, each 2 MiB aligned, around @avoid."""
    modules: list[Module] = []
    addr = start
    align = 2 * MIB
    for path in paths:
        if not path.exists():
            raise DeviceTreeError(f"{path} is missing; run 'make target-images'")
        size = path.stat().st_size
        addr = -(-addr // align) * align
        if addr < avoid[1] and addr + size > avoid[0]:
            addr = avoid[1]
        if addr + size > end:
            raise DeviceTreeError(
                f"the boot modules do not fit below {end:#x} ({path.name} ends at "
                f"{addr + size:#x}); give the machine more memory"
            )
        modules.append(Module(path, addr, size))
        addr += size
    return modules


def _dtc() -> str:
    path = shutil.which(DTC)
    if path is None:
        raise DeviceTreeError(f"{DTC} is not installed; run 'make setup' (device-tree-compiler)")
    return path


def machine_source(machine: str, options: list[str], workdir: Path) -> str:
    """QEMU's device tree of ``-M machine`` with @options (-cpu, -smp, -m ...), as dts text."""
    workdir.mkdir(parents=True, exist_ok=True)
    blob = workdir / "machine.dtb"
    blob.unlink(missing_ok=True)
    proc = subprocess.run(
        [qemu.qemu_binary(), "-M", f"{machine},dumpdtb={blob}", *options, *QUIET],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if proc.returncode != 0 or not blob.exists():
        detail = (proc.stderr.strip().splitlines() or ["no message"])[-1]
        raise DeviceTreeError(f"QEMU did not write its device tree: {detail}")
    return decompile(blob)


def decompile(blob: Path) -> str:
    proc = subprocess.run(
        [_dtc(), "-q", "-I", "dtb", "-O", "dts", str(blob)], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise DeviceTreeError(f"dtc could not read {blob}: {proc.stderr.strip()}")
    return proc.stdout


def compile_tree(source: str, out: Path) -> Path:
    """dts text -> out (a .dtb); the source is kept beside it as .dts."""
    out.parent.mkdir(parents=True, exist_ok=True)
    dts = out.with_suffix(".dts")
    dts.write_text(source)
    proc = subprocess.run(
        [_dtc(), "-q", "-I", "dts", "-O", "dtb", "-o", str(out), str(dts)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        raise DeviceTreeError(f"dtc could not compile {dts}: {proc.stderr.strip()}")
    return out
