"""Xen on QEMU's virt machine (docs/target/xen.md): Debian's Xen 4.17 hypervisor booted at EL2
of emulated Cortex-A53 cores, with a Linux Dom0 that can create a Linux DomU with ``xl``, or
with a bare-metal guest built by Xen itself at boot (dom0less).

The machine is ``virt,virtualization=on,gic-version=2``: a GICv2 with its virtualization
extensions, as the ZCU102's GIC-400 has, so that Xen gives its guests a vGICv2 at the addresses
of its guest memory map (the same on a board). Xen, its command line and the boot modules
(Dom0's kernel and initramfs, a dom0less guest's image) are described in QEMU's own device tree
(dumped, extended with /chosen, compiled by dtc: latmon.campaign.devicetree) and loaded by QEMU's
generic loader.

vCPU pinning follows the static partitioning of the published set-ups: Dom0's vCPUs are pinned
1:1 to the first physical CPUs (``dom0_max_vcpus=N dom0_vcpus_pin``), a DomU's 1:1 to the next
ones (``cpus = ["2", "3"]`` in its xl configuration); what Xen really did is read back with
``xl vcpu-list`` and recorded in every run.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from latmon.campaign import devicetree, guest, qemu
from latmon.campaign.cpio import CpioWriter
from latmon.campaign.devicetree import MIB, RAM_BASE, Module, quote
from latmon.errors import LatmonError

MACHINE = "virt,virtualization=on,gic-version=2"
CPU = "cortex-a53"
#: Xen's console: the machine's PL011 (the node's path in QEMU's tree)
XEN_UART = "/pl011@9000000"
#: boot modules from here (Xen itself sits at the start of RAM)
MODULES_START = RAM_BASE + 32 * MIB
DOMU_NAME = "domu"
#: what Xen prints before a dom0less guest's console line (its vPL011, kept by Xen)
_GUEST_PREFIX = re.compile(r"^\(XEN\) DOM(\d+): ?(.*)$")


class XenError(LatmonError):
    """Xen, a domain or the tools did not come up, or a domain did not finish in time."""


@dataclass
class Partition:
    """The machine's physical CPUs and memory and how the domains are placed on them."""

    pcpus: int = 4
    memory_mib: int = 2048
    dom0_vcpus: int = 2
    dom0_memory_mib: int = 512
    domu_vcpus: int = 2
    domu_memory_mib: int = 512

    def __post_init__(self) -> None:
        if self.dom0_vcpus + self.domu_vcpus > self.pcpus:
            raise XenError(
                f"{self.dom0_vcpus} Dom0 and {self.domu_vcpus} DomU vCPUs, each pinned to a "
                f"physical CPU of its own, need {self.dom0_vcpus + self.domu_vcpus} CPUs; "
                f"the machine has {self.pcpus}"
            )

    @property
    def domu_pcpus(self) -> list[int]:
        return list(range(self.dom0_vcpus, self.dom0_vcpus + self.domu_vcpus))

    def machine_options(self) -> list[str]:
        return ["-cpu", CPU, "-smp", str(self.pcpus), "-m", str(self.memory_mib)]

    def describe(self) -> str:
        dom0 = ", ".join(f"v{i}->p{i}" for i in range(self.dom0_vcpus))
        domu = ", ".join(f"v{i}->p{p}" for i, p in enumerate(self.domu_pcpus))
        return f"Dom0 {dom0}; DomU {domu} (planned, 1:1)"


def command_line(p: Partition, with_dom0: bool = True) -> str:
    """Xen's command line: console on the PL011, no boot-time memory scrub, credit2 (Debian's
    Xen has no null scheduler), a guest's WFI not trapped (vwfi=native: with one vCPU per
    physical CPU nothing else wants it, as in the published real-time set-ups), Dom0 pinned."""
    words = [
        f"console=dtuart dtuart={XEN_UART}",
        "bootscrub=0",
        "sched=credit2",
        "vwfi=native",
    ]
    if with_dom0:
        words += [
            f"dom0_mem={p.dom0_memory_mib}M",
            f"dom0_max_vcpus={p.dom0_vcpus}",
            "dom0_vcpus_pin",
        ]
    return " ".join(words)


@dataclass
class Images:
    """What target/initramfs.py built: the hypervisor, Dom0's additions, kernels, initramfs."""

    root: Path

    @property
    def xen(self) -> Path:
        return self.root / "xen" / "xen"

    @property
    def dom0_archive(self) -> Path:
        return self.root / "xen" / "dom0.cpio.gz"

    @property
    def initramfs(self) -> Path:
        return self.root / "initramfs.cpio.gz"

    def kernel(self, name: str) -> Path:
        return self.root / f"vmlinuz-{name}"

    def config(self, name: str) -> Path:
        return self.root / f"config-{name}"


def images() -> Images:
    found = Images(guest.target_dir())
    for f in (found.xen, found.dom0_archive):
        if not f.exists():
            raise XenError(f"{f} is missing; run 'make target-images'")
    return found


def concatenate(parts: list[bytes]) -> bytes:
    """Several cpio archives as one initramfs (the kernel unpacks them in order; each one
    starts 4-byte aligned)."""
    out = b""
    for p in parts:
        out += b"\0" * (-len(out) % 4) + p
    return out


def archive(files: dict[str, bytes], executable: tuple[str, ...] = ("job.sh",)) -> bytes:
    w = CpioWriter()
    for name in sorted({str(Path(n).parent) for n in files} - {"."}):
        w.directory(name)
    for name, data in files.items():
        w.file(name, data, 0o755 if name in executable else 0o644)
    return w.to_bytes()


def boot(
    p: Partition,
    chosen: str,
    modules: list[Module],
    workdir: Path,
    timeout_s: float,
    data_channel: bool,
    until: re.Pattern[str] | None = None,
) -> qemu.QemuResult:
    """Xen on the machine with @chosen as the body of /chosen and @modules loaded."""
    source = devicetree.machine_source(MACHINE, p.machine_options(), workdir)
    source += f"\n/ {{\n\tchosen {{\n{chosen}\t}};\n}};\n"
    dtb = devicetree.compile_tree(source, workdir / "xen.dtb")
    args = [
        "-M",
        MACHINE,
        *p.machine_options(),
        "-nic",
        "none",
        "-no-reboot",
        "-kernel",
        str(images().xen),
        "-dtb",
        str(dtb),
    ]
    for m in modules:
        args += m.loader_args()
    return qemu.run(args, workdir, timeout_s, data_channel=data_channel, until=until)


def _module_node(m: Module, kind: str, bootargs: str | None = None, indent: str = "\t\t") -> str:
    node = (
        f"{indent}module@{m.addr:x} {{\n"
        f'{indent}\tcompatible = "multiboot,{kind}", "multiboot,module";\n'
        f"{indent}\treg = {m.reg()};\n"
    )
    if bootargs is not None:
        node += f"{indent}\tbootargs = {quote(bootargs)};\n"
    return node + f"{indent}}};\n"


# ---- a Linux Dom0 (and a DomU it creates with xl) ----


def domu_config(p: Partition, cmdline: str) -> str:
    """The xl configuration of the DomU: kernel and initramfs from Dom0's /boot, each vCPU
    pinned to a physical CPU of its own."""
    cpus = ", ".join(f'"{c}"' for c in p.domu_pcpus)
    return (
        f'name = "{DOMU_NAME}"\n'
        'kernel = "/boot/domu-kernel"\n'
        'ramdisk = "/boot/domu-initrd.img"\n'
        f"extra = {quote(cmdline)}\n"
        f"memory = {p.domu_memory_mib}\n"
        f"vcpus = {p.domu_vcpus}\n"
        f"cpus = [{cpus}]\n"
        'on_poweroff = "destroy"\n'
        'on_crash = "destroy"\n'
    )


def dom0_job(body: str) -> str:
    """A Dom0 job: start Xen's tools, record Xen's facts and the pinning, then @body."""
    return (
        ". /etc/latmon/xen-dom0.sh\n"
        "xen_main() {\n"
        "  xen_tools_start > /tmp/xen-tools.txt 2>&1 || "
        "{ emit xen-tools.txt /tmp/xen-tools.txt 1; return 1; }\n"
        "  xen_facts\n"
        f"{body}"
        "}\n"
        "xen_main\n"
    )


def domu_job(p: Partition, load: list[str] | None, warmup_ns: int, timeout_s: int) -> str:
    """Dom0's part when the DomU measures: the load (if it runs in Dom0), xl create, the
    pinning while the DomU runs, wait for it, its console."""
    lines = ["  cd /tmp", "  load_pid="]
    if load:
        lines.append(f"  {shlex.join(load)} > /tmp/load.txt 2>&1 & load_pid=$!")
        lines.append(f"  sleep {warmup_ns / 1e9:.3f}")
    lines.append("  xen_domu_start /etc/latmon/domu.cfg")
    lines.append(f"  xen_domu_wait {DOMU_NAME} {timeout_s}; waited=$?")
    lines.append('  [ -z "$load_pid" ] || kill -0 $load_pid || echo "load died" >> /tmp/load.txt')
    lines.append('  [ -z "$load_pid" ] || { kill $load_pid; wait $load_pid; }')
    lines.append("  [ -f /tmp/load.txt ] && emit load.txt /tmp/load.txt 0")
    lines.append(f"  xen_domu_console {DOMU_NAME}")
    lines.append("  return $waited")
    return dom0_job("\n".join(lines) + "\n")


#: the DomU that only carries the load emits this file once the load runs
LOAD_STARTED = "load-started.txt"


def load_carrier_job(load: list[str]) -> str:
    """The job of a DomU that only carries the load beside a measuring Dom0: start the load,
    say so on its console (Dom0 waits for that line), run until Dom0 destroys the domain."""
    return (
        "cd /tmp\n"
        f"{shlex.join(load)} > /tmp/load.txt 2>&1 & load_pid=$!\n"
        "sleep 1\n"
        'kill -0 $load_pid && echo "load running: pid $load_pid" > /tmp/started '
        '|| { echo "load died at once" > /tmp/started; cat /tmp/load.txt >> /tmp/started; }\n'
        f"emit {LOAD_STARTED} /tmp/started 0\n"
        "wait $load_pid\n"
        'echo "load ended before Dom0 destroyed this domain" > /tmp/ended\n'
        "emit load-ended.txt /tmp/ended 0\n"
    )


def load_carrier_start(warmup_ns: int, timeout_s: int) -> str:
    """Dom0's part before it measures with the load in a DomU: xl create, wait until the
    DomU's load runs, then the warm-up. On failure: emit domu-load.txt with status 1."""
    return (
        "  xen_domu_start /etc/latmon/domu.cfg\n"
        f"  xen_domu_load_wait {DOMU_NAME} {timeout_s} > /tmp/domu-load.txt 2>&1 || "
        f"{{ emit domu-load.txt /tmp/domu-load.txt 1; xen_domu_console {DOMU_NAME}; return 1; }}\n"
        f"  sleep {warmup_ns / 1e9:.3f}\n"
    )


def load_carrier_stop() -> str:
    """Dom0's part after it measured: was the DomU's load still running (the pinning was taken
    while it was), destroy the DomU, keep its console."""
    return (
        f"  if xl domid {DOMU_NAME} > /dev/null 2>&1 && "
        f"! grep -q '@@end load-ended' /var/log/xen/console/guest-{DOMU_NAME}.log; then\n"
        '    echo "the DomU\'s load ran until the measurement ended" >> /tmp/domu-load.txt\n'
        "    status=0\n"
        "  else\n"
        '    echo "the DomU\'s load ended before the measurement did" >> /tmp/domu-load.txt\n'
        "    status=1\n"
        "  fi\n"
        f"  xl destroy {DOMU_NAME}\n"
        "  emit domu-load.txt /tmp/domu-load.txt $status\n"
        f"  xen_domu_console {DOMU_NAME}\n"
    )


def run_dom0(
    p: Partition,
    kernel: str,
    job: str,
    workdir: Path,
    timeout_s: float,
    extra_files: dict[str, bytes] | None = None,
    dom0_cmdline: str = guest.APPEND,
) -> guest.GuestRun:
    """Boot Xen with a Linux Dom0 that runs @job (after /init, target/guest-init.sh); the files
    it emitted on the results channel. @extra_files go into Dom0's initramfs."""
    imgs = images()
    workdir.mkdir(parents=True, exist_ok=True)
    files = {"job.sh": job.encode(), **(extra_files or {})}
    initrd = workdir / "dom0-initrd.img"
    initrd.write_bytes(
        concatenate([imgs.initramfs.read_bytes(), imgs.dom0_archive.read_bytes(), archive(files)])
    )
    (workdir / "job.sh").write_text(job)
    kernel_path = imgs.kernel(kernel)
    end = RAM_BASE + p.memory_mib * MIB - p.dom0_memory_mib * MIB
    mods = devicetree.place([kernel_path, initrd], MODULES_START, end)
    # Dom0's console is Xen's (hvc0), not the PL011, which Xen keeps for itself
    dom0_console = dom0_cmdline.replace("console=ttyAMA0", "console=hvc0")
    chosen = (
        "\t\t#address-cells = <0x2>;\n\t\t#size-cells = <0x2>;\n"
        f"\t\txen,xen-bootargs = {quote(command_line(p))};\n"
        f"\t\txen,dom0-bootargs = {quote(dom0_console)};\n"
        f"\t\tstdout-path = {quote(XEN_UART)};\n"
        + _module_node(mods[0], "kernel")
        + _module_node(mods[1], "ramdisk")
    )
    result = boot(p, chosen, mods, workdir, timeout_s, data_channel=True)
    files_, info, done = guest.parse_channel(result.data)
    run = guest.GuestRun(result, files_, info, done)
    if result.timed_out or done is None:
        why = f"no power-off within {timeout_s:.0f} s" if result.timed_out else "Dom0 ended early"
        raise XenError(
            f"Xen Dom0 ({kernel} kernel): {why}; files so far: {', '.join(files_) or 'none'}; "
            f"console (in {workdir}) ends with: {result.console.strip()[-400:]!r}"
        )
    return run


def domu_files(p: Partition, kernel: str, domu_job_text: str, cmdline: str) -> dict[str, bytes]:
    """What Dom0 needs to create the DomU: its kernel, its initramfs with its job, the xl
    configuration."""
    imgs = images()
    initrd = concatenate([imgs.initramfs.read_bytes(), archive({"job.sh": domu_job_text.encode()})])
    return {
        "boot/domu-kernel": imgs.kernel(kernel).read_bytes(),
        "boot/domu-initrd.img": initrd,
        "etc/latmon/domu.cfg": domu_config(p, cmdline).encode(),
    }


def domu_channel(run: guest.GuestRun) -> guest.GuestRun:
    """The DomU's own results, from its console as Dom0's xenconsoled logged it."""
    console = run.file(f"{DOMU_NAME}.console")
    files, info, done = guest.parse_channel(console.text)
    return guest.GuestRun(run.qemu, files, info, done)


# ---- facts Xen reports in Dom0 ----


def xl_info(text: str) -> dict[str, str]:
    """`xl info` as key -> value."""
    out = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() and " " not in key.strip():
            out[key.strip()] = value.strip()
    return out


def vcpu_pinning(text: str) -> str:
    """`xl vcpu-list` as 'Domain-0 v0->p0 (hard 0), v1->p1 (hard 1); domu v0->p2 (hard 2)':
    each vCPU's physical CPU at that moment and its hard affinity."""
    domains: dict[str, list[str]] = {}
    for line in text.splitlines():
        words = line.split()
        # Name ID VCPU CPU State Time(s) Affinity(Hard / Soft)
        if len(words) >= 8 and words[1].isdigit() and words[2].isdigit() and words[6 + 1] == "/":
            cpu = words[3] if words[3] != "-" else "none"
            domains.setdefault(words[0], []).append(f"v{words[2]}->p{cpu} (hard {words[6]})")
    return "; ".join(f"{name} {', '.join(v)}" for name, v in domains.items()) or "unknown"


def hypervisor_facts(run: guest.GuestRun) -> dict[str, str]:
    """Run metadata from `xl info` and `xl vcpu-list` as Dom0 saw them."""
    info = xl_info(run.files["xl-info.txt"].text) if "xl-info.txt" in run.files else {}
    version = info.get("xen_version", "unknown")
    meta = {
        "env.hypervisor": f"Xen {version}",
        "env.xen_scheduler": info.get("xen_scheduler", "unknown"),
        "env.xen_cmdline": info.get("xen_commandline", "unknown"),
        "env.xen_pcpus": info.get("nr_cpus", "unknown"),
    }
    if "vcpu-list.txt" in run.files:
        meta["env.vcpu_pinning"] = vcpu_pinning(run.files["vcpu-list.txt"].text)
    return meta


# ---- a bare-metal guest built by Xen at boot (dom0less) ----


def guest_console(console: str, domid: int = 1) -> str:
    """The lines a dom0less guest wrote on its vPL011, without Xen's '(XEN) DOMn: ' prefix."""
    out = []
    for line in console.replace("\r\n", "\n").split("\n"):
        m = _GUEST_PREFIX.match(line)
        if m and int(m.group(1)) == domid:
            out.append(m.group(2))
    return "\n".join(out) + "\n"


def run_dom0less(
    p: Partition,
    image: Path,
    bootargs: str,
    workdir: Path,
    timeout_s: float,
    end: re.Pattern[str],
) -> tuple[qemu.QemuResult, str]:
    """Xen with no Dom0 and one guest built from @image (an arm64 Image) at boot, on
    p.domu_vcpus vCPUs with a vPL011; stopped when the guest's console matches @end (the
    domain ends, Xen runs on). Returns QEMU's result and the guest's console."""
    workdir.mkdir(parents=True, exist_ok=True)
    (mod,) = devicetree.place([image], MODULES_START, RAM_BASE + p.memory_mib * MIB)
    chosen = (
        "\t\t#address-cells = <0x2>;\n\t\t#size-cells = <0x2>;\n"
        f"\t\txen,xen-bootargs = {quote(command_line(p, with_dom0=False))};\n"
        f"\t\tstdout-path = {quote(XEN_UART)};\n"
        "\t\tdomU1 {\n"
        '\t\t\tcompatible = "xen,domain";\n'
        "\t\t\t#address-cells = <0x2>;\n\t\t\t#size-cells = <0x2>;\n"
        f"\t\t\tmemory = <{devicetree.cells(p.domu_memory_mib * 1024)}>;\n"
        f"\t\t\tcpus = <{p.domu_vcpus}>;\n"
        "\t\t\tvpl011;\n" + _module_node(mod, "kernel", bootargs, indent="\t\t\t") + "\t\t};\n"
    )
    result = boot(p, chosen, [mod], workdir, timeout_s, data_channel=False, until=end)
    return result, guest_console(result.console)
