"""AMP on QEMU's virt machine (docs/amp.md): Linux on two cores, the A53 bare-metal suite on two
others, the suite's latmon-log carried through a shared-memory ring (latmon_ring.h) that
``latctl ring`` reads in Linux — the data path OpenAMP's RPMsg provides on a board.

The boot: QEMU starts the suite image (``-kernel``) on CPU 0 with the device tree; the image
starts Linux on CPU 1 with PSCI CPU_ON at the address QEMU's loader put the kernel, handing
over the same tree (QEMU cannot start one core at an address while it boots Linux on another;
on a board, the boot loader or Linux's remoteproc starts the firmware's cores). Linux brings up
CPU 2 and never sees CPUs 0 and 3, whose nodes the tree leaves out; the firmware's memory and
the ring are a no-map reserved-memory region Linux does not touch; the firmware uses only its
own cores' banked part of the GIC distributor, which Linux owns. The firmware waits for the
reader to attach (so that Linux has set up the GIC), runs its cases on CPUs 0 and 3 and marks
the ring done; Linux then powers the machine off.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from latmon.campaign import devicetree, guest, qemu, xen
from latmon.campaign.devicetree import MIB, RAM_BASE, cells
from latmon.errors import LatmonError

MACHINE = "virt,gic-version=2"
CPUS = 4
FIRMWARE_CPU, LINUX_CPU, SECOND_CPU = 0, 1, 3
#: the firmware's image (at RAM + 0x80000) and the ring: memory Linux leaves alone
RESERVED = (RAM_BASE, 8 * MIB)
RING = (RAM_BASE + 4 * MIB, 1 * MIB)
#: where QEMU's loader puts the Linux kernel (2 MiB aligned, clear of the initramfs and the tree
#: QEMU places at RAM + 128 MiB)
LINUX_ADDR = RAM_BASE + 512 * MIB
#: how long latctl ring waits for the firmware to finish
READER_TIMEOUT_S = 1200


class AmpError(LatmonError):
    """The AMP machine did not come up or the firmware's log did not arrive."""


def device_tree(memory_mib: int, workdir: Path) -> Path:
    """QEMU's tree of the machine without CPUs 0 and 3 (the firmware's), with the reserved
    memory and the firmware's /chosen properties."""
    source = devicetree.machine_source(
        MACHINE, ["-cpu", xen.CPU, "-smp", str(CPUS), "-m", str(memory_mib)], workdir
    )
    source += (
        "\n/ {\n"
        "\tcpus {\n"
        "\t\t/delete-node/ cpu-map;\n"
        f"\t\t/delete-node/ cpu@{FIRMWARE_CPU};\n"
        f"\t\t/delete-node/ cpu@{SECOND_CPU};\n"
        "\t};\n"
        "\treserved-memory {\n"
        "\t\t#address-cells = <0x2>;\n\t\t#size-cells = <0x2>;\n\t\tranges;\n"
        f"\t\tlatmon-firmware@{RESERVED[0]:x} {{\n"
        f"\t\t\treg = <{cells(RESERVED[0])} {cells(RESERVED[1])}>;\n"
        "\t\t\tno-map;\n"
        "\t\t};\n"
        "\t};\n"
        "\tchosen {\n"
        f"\t\tlatmon,ring = <{cells(RING[0])} {cells(RING[1])}>;\n"
        f"\t\tlatmon,linux = <{cells(LINUX_ADDR)}>;\n"
        f"\t\tlatmon,linux-cpu = <{LINUX_CPU:#x}>;\n"
        f"\t\tlatmon,second-cpu = <{SECOND_CPU:#x}>;\n"
        "\t};\n"
        "};\n"
    )
    return devicetree.compile_tree(source, workdir / "amp.dtb")


def linux_job(load: list[str] | None, warmup_ns: int) -> str:
    """Linux's part: its load, then latctl ring until the firmware is done; the log as file
    firmware.log, latctl's summary as ring.txt."""
    lines = ["cd /tmp", "load_pid="]
    if load:
        lines.append(f"{shlex.join(load)} > /tmp/load.txt 2>&1 & load_pid=$!")
        lines.append(f"sleep {warmup_ns / 1e9:.3f}")
    ring = [
        "latctl",
        "ring",
        "--phys",
        f"{RING[0]:#x}",
        "--size",
        f"{RING[1]:#x}",
        "-o",
        "/tmp/firmware.log",
        "--timeout",
        str(READER_TIMEOUT_S),
    ]
    lines.append(f"run ring.txt {shlex.join(ring)}")
    lines.append('[ -z "$load_pid" ] || kill -0 $load_pid || echo "load died" >> /tmp/load.txt')
    lines.append('[ -z "$load_pid" ] || { kill $load_pid; wait $load_pid; }')
    lines.append("[ -f /tmp/load.txt ] && emit load.txt /tmp/load.txt 0")
    lines.append("[ -f /tmp/firmware.log ] && emit firmware.log /tmp/firmware.log 0")
    return "\n".join(lines) + "\n"


def run(
    kernel: str,
    firmware: Path,
    suite_args: str,
    job: str,
    workdir: Path,
    timeout_s: float,
    memory_mib: int = 2048,
) -> guest.GuestRun:
    """Boot the AMP machine; the files Linux's @job emitted (firmware.log, ring.txt, ...)."""
    images = xen.images()
    workdir.mkdir(parents=True, exist_ok=True)
    dtb = device_tree(memory_mib, workdir)
    initrd = workdir / "initrd.img"
    initrd.write_bytes(
        xen.concatenate([images.initramfs.read_bytes(), xen.archive({"job.sh": job.encode()})])
    )
    (workdir / "job.sh").write_text(job)
    linux = images.kernel(kernel)
    if LINUX_ADDR + linux.stat().st_size > RAM_BASE + memory_mib * MIB:
        raise AmpError(f"the kernel does not fit at {LINUX_ADDR:#x}; give more memory")
    # /chosen/bootargs is one for both: Linux's words and the suite's (each ignores the other's)
    append = f"console=ttyAMA0 {guest.APPEND.replace('console=ttyAMA0 ', '')} {suite_args}"
    args = [
        "-M",
        MACHINE,
        "-cpu",
        xen.CPU,
        "-smp",
        str(CPUS),
        "-m",
        str(memory_mib),
        "-nic",
        "none",
        "-no-reboot",
        "-kernel",
        str(firmware),
        "-initrd",
        str(initrd),
        "-dtb",
        str(dtb),
        "-append",
        append,
        *devicetree.Module(linux, LINUX_ADDR, linux.stat().st_size).loader_args(),
    ]
    result = qemu.run(args, workdir, timeout_s, data_channel=True)
    files, info, done = guest.parse_channel(result.data)
    out = guest.GuestRun(result, files, info, done)
    if result.timed_out or done is None:
        why = f"no power-off within {timeout_s:.0f} s" if result.timed_out else "Linux ended early"
        raise AmpError(
            f"AMP machine: {why}; files so far: {', '.join(files) or 'none'}; console (in "
            f"{workdir}) ends with: {result.console.strip()[-400:]!r}"
        )
    return out
