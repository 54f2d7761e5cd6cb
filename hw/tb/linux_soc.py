"""Linux on the virtual SoC (hw/soc/linux, docs/hw/linux-soc.md): build every part once, cached
by the digest of its inputs, boot the kernel in the simulator and capture the console and the
simulator's own event trace.

Parts, each under build/linux-soc/:
- the machine-mode firmware (sw/linux-soc/firmware) with Debian's riscv64-unknown-elf GCC;
- the kernel: Debian's linux-source-6.1 (apt), tinyconfig + sw/linux-soc/kernel.config + one
  preemption model, built with gcc-riscv64-linux-gnu (-j2);
- the initramfs: /init (sw/linux-soc/init.c with liblatmon and its UIO HAL over the freestanding
  system-call layer sw/linux-soc/libc) and /dev/console, as an uncompressed newc cpio;
- the device tree (sw/linux-soc/linux-soc.dts) with the run's parameters on the command line;
- the Verilator model of tb_linux_soc (hw/tb/sim_build/linux-soc-<digest>).

Each model's boot runs once: the simulator saves the model (Verilator's save/restore) when /init
asks for its parameters, and every run restores that checkpoint and hands /init its own.

Command line:

    python hw/tb/linux_soc.py --out DIR [--preempt none|voluntary|full] [--rounds N] [--nops N]
        [--gap CYCLES] [--load] [--user-only] [--boot] [--check] [--ftrace]
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HW = Path(__file__).resolve().parents[1]
ROOT = HW.parent
SOC = HW / "soc"
TB_HDL = HW / "tb" / "hdl"
SW = ROOT / "sw"
LSOC = SW / "linux-soc"
MAIN_CPP = HW / "tb" / "linux_soc_main.cpp"
SIM_BUILD = HW / "tb" / "sim_build"
BUILD = ROOT / "build" / "linux-soc"
LINUX_TARBALL = Path("/usr/src/linux-source-6.1.tar.xz")
ELF_PREFIX = "riscv64-unknown-elf-"
LINUX_PREFIX = "riscv64-linux-gnu-"
PREEMPT = {
    "none": "preempt-none.config",
    "voluntary": "preempt-voluntary.config",
    "full": "preempt.config",
}

# Physical addresses (RAM at 0x8000_0000) and the RAM's word index of each.
RAM_BASE = 0x80000000
RAM_WORDS = 8 * 1024 * 1024  # 32 MiB
FW_ADDR = 0x80000000
KERNEL_ADDR = 0x80400000
INITRD_ADDR = 0x81800000
DTB_ADDR = 0x81F00000
PARAM_ADDR = 0x8003F000  # /init's parameter page (tb_linux_soc.v, init.c)
PARAM_MAGIC = 0x4C4D5052
CLOCK_HZ = 100_000_000

FW_FLAGS = [
    "-march=rv32ima_zicsr_zifencei",
    "-mabi=ilp32",
    "-Os",
    "-std=c11",
    "-Wall",
    "-Wextra",
    "-Werror",
    "-ffreestanding",
    "-nostdlib",
    "-nostartfiles",
    "-mcmodel=medany",
]
# no local symbols (--discard-all): the assembler's temporary object names (random) would make
# every build of the same sources a different image, hence a different checkpoint
INIT_LDFLAGS = ["-static", "-ffunction-sections", "-Wl,--gc-sections", "-Wl,--discard-all"]
LIB_SOURCES = ["lib/latmon.c", "lib/latmon_hal_uio.c", "lib/latmon_log.c", "lib/latmon_crc32.c"]


class LinuxSocError(Exception):
    """A part could not be built or a run did not finish as intended."""


def _digest(paths: Sequence[Path], *extra: object) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    h.update(repr(extra).encode())
    return h.hexdigest()[:12]


# The CPU seconds of the programs each thread ran and waited for (wait4: a program's own and its
# children's, as /usr/bin/time counts them): a campaign task's cost, whatever runs beside it.
_children_cpu = threading.local()


def _wait(proc: subprocess.Popen[bytes], timeout_s: float) -> tuple[int, bool]:
    """Wait for proc, killing it after timeout_s of wall time; (exit code, expired). Counts its
    CPU time for thread_cpu_s."""
    expired = threading.Event()

    def kill() -> None:
        expired.set()
        proc.kill()

    timer = threading.Timer(timeout_s, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    _children_cpu.s = getattr(_children_cpu, "s", 0.0) + usage.ru_utime + usage.ru_stime
    return proc.returncode, expired.is_set()


def thread_cpu_s() -> float:
    """CPU seconds of this thread and of the programs it ran through _run and _simulate."""
    return time.thread_time() + getattr(_children_cpu, "s", 0.0)


def _run(
    cmd: Sequence[str],
    what: str,
    *,
    cwd: Path | None = None,
    timeout: float = 1800,
    env: dict[str, str] | None = None,
    log: Path | None = None,
) -> None:
    with tempfile.TemporaryFile() as output:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT)
        code, expired = _wait(proc, timeout)
        output.seek(0)
        text = output.read().decode(errors="replace")
    if expired:
        raise LinuxSocError(f"{what}: no result after {timeout:.0f} s (time limit)")
    if log is not None:
        log.write_text(text)
    if code != 0:
        raise LinuxSocError(f"{what} failed (exit {code}):\n" + text[-3000:])


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise LinuxSocError(f"{tool} not found; run make setup")
    return path


def _locked(name: str) -> object:
    BUILD.mkdir(parents=True, exist_ok=True)
    f = open(BUILD / f"{name}.lock", "w")  # noqa: SIM115 - held by the caller's with
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


# ---- firmware ------------------------------------------------------------------------------------


def build_firmware() -> Path:
    """The machine-mode firmware as a flat binary for 0x8000_0000."""
    src = [LSOC / "firmware" / n for n in ("start.S", "fw.c", "fw.ld")]
    out = BUILD / f"fw-{_digest(src, FW_FLAGS)}"
    binary = out / "fw.bin"
    if binary.exists():
        return binary
    gcc = _need(ELF_PREFIX + "gcc")
    out.mkdir(parents=True, exist_ok=True)
    elf = out / "fw.elf"
    _run(
        [gcc, *FW_FLAGS, "-T", str(src[2]), "-o", str(elf), str(src[0]), str(src[1])],
        "building the firmware",
    )
    _run([ELF_PREFIX + "objcopy", "-O", "binary", str(elf), str(binary)], "objcopy firmware")
    return binary


# ---- initramfs -----------------------------------------------------------------------------------


def _init_sources() -> list[Path]:
    libc = LSOC / "libc"
    return [libc / "start.S", libc / "libc.c", LSOC / "init.c", *(SW / s for s in LIB_SOURCES)]


def _init_headers() -> list[Path]:
    return sorted(
        [
            *(LSOC / "libc" / "include").rglob("*.h"),
            *(SW / "include").rglob("*.h"),
            *(SW / "lib").glob("*.h"),
        ]
    )


def build_init() -> Path:
    """/init: static rv32 ELF, no C library (the freestanding layer of sw/linux-soc/libc)."""
    src = _init_sources()
    out = BUILD / f"init-{_digest([*src, *_init_headers()], FW_FLAGS, INIT_LDFLAGS)}"
    elf = out / "init"
    if elf.exists():
        return elf
    gcc = _need(ELF_PREFIX + "gcc")
    ginc = subprocess.run(
        [gcc, "-print-file-name=include"], capture_output=True, text=True, check=True
    ).stdout.strip()
    libgcc = subprocess.run(
        [gcc, "-march=rv32im", "-mabi=ilp32", "-print-libgcc-file-name"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    cmd = [
        gcc,
        *[f for f in FW_FLAGS if f != "-mcmodel=medany"],
        "-nostdinc",
        "-isystem",
        ginc,
        "-isystem",
        str(LSOC / "libc" / "include"),
        f"-I{SW / 'include'}",
        f"-I{SW / 'lib'}",
        *INIT_LDFLAGS,
        "-o",
        str(elf),
        *map(str, src),
        libgcc,
    ]
    _run(cmd, "building /init")
    return elf


def _cpio_entry(
    name: str, mode: int, data: bytes = b"", rdev: tuple[int, int] = (0, 0), ino: int = 1
) -> bytes:
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name) + 1, 0]
    head = b"070701" + b"".join(f"{v:08X}".encode() for v in fields)
    blob = head + name.encode() + b"\0"
    blob += b"\0" * (-len(blob) % 4)
    blob += data + b"\0" * (-len(data) % 4)
    return blob


def build_initramfs(init: Path) -> Path:
    """The newc cpio the kernel unpacks: /dev, /dev/console, /init."""
    out = init.parent / "initramfs.cpio"
    if out.exists():
        return out
    blob = (
        _cpio_entry("dev", 0o040755, ino=1)
        + _cpio_entry("dev/console", 0o020600, rdev=(5, 1), ino=2)
        + _cpio_entry("init", 0o100755, init.read_bytes(), ino=3)
        + _cpio_entry("TRAILER!!!", 0, ino=0)
    )
    out.write_bytes(blob)
    return out


# ---- kernel --------------------------------------------------------------------------------------


def linux_tree() -> Path:
    """The kernel's source tree, extracted from Debian's tarball once (shared by the models)."""
    tree = BUILD / "linux-source-6.1"
    done = BUILD / "linux-source-6.1.extracted"  # written after the whole tree: never half-made
    if done.exists():
        return tree
    if not LINUX_TARBALL.exists():
        raise LinuxSocError(f"{LINUX_TARBALL} not found; run make setup (apt: linux-source-6.1)")
    with _locked("linux-tree"):
        if not done.exists():
            with tarfile.open(LINUX_TARBALL) as tar:
                # extraction filters came with Python 3.11.4; Debian 12's 3.11.2 has none (the
                # tarball is Debian's own package, so the default is safe there)
                safe = {"filter": "tar"} if hasattr(tarfile, "tar_filter") else {}
                tar.extractall(BUILD, **safe)  # type: ignore[arg-type]
            done.touch()
    return tree


def _set_driver(tree: Path) -> None:
    """Put latmon_kack.c (the kernel-path acknowledger) into the tree's drivers/uio."""
    dst = tree / "drivers" / "uio" / "latmon_kack.c"
    makefile = tree / "drivers" / "uio" / "Makefile"
    line = "obj-$(CONFIG_UIO)\t+= latmon_kack.o\n"
    src = (LSOC / "kernel" / "latmon_kack.c").read_bytes()
    if not dst.exists() or dst.read_bytes() != src:
        dst.write_bytes(src)
    text = makefile.read_text()
    if line not in text:
        makefile.write_text(text + line)


def build_kernel(preempt: str, jobs: int = 2) -> Path:
    """The kernel Image for one preemption model, with the kernel-path driver (latmon_kack.c),
    rebuilt when its inputs' digest changes (a few minutes of CPU the first time; make -j`jobs`:
    the campaign builds at -j1 beside a simulation)."""
    if preempt not in PREEMPT:
        raise LinuxSocError(f"unknown preemption model {preempt!r}; use {', '.join(PREEMPT)}")
    frags = [LSOC / "kernel.config", LSOC / PREEMPT[preempt]]
    inputs = [*frags, LSOC / "kernel" / "latmon_kack.c"]
    version = LINUX_TARBALL.stat().st_size if LINUX_TARBALL.exists() else 0
    digest = _digest(inputs, version)
    out = BUILD / f"kernel-{preempt}"
    image = out / "arch" / "riscv" / "boot" / "Image"
    stamp = out / "latmon-digest"
    if image.exists() and stamp.exists() and stamp.read_text() == digest:
        return image
    tree = linux_tree()
    for tool in ("flex", "bison", "bc", LINUX_PREFIX + "gcc"):
        _need(tool)
    make = ["make", "-C", str(tree), "ARCH=riscv", f"CROSS_COMPILE={LINUX_PREFIX}", f"O={out}"]
    with _locked(f"kernel-{preempt}"):  # the tree is shared read-only: models build side by side
        if image.exists() and stamp.exists() and stamp.read_text() == digest:
            return image
        stamp.unlink(missing_ok=True)
        out.mkdir(parents=True, exist_ok=True)
        with _locked("linux-tree"):
            _set_driver(tree)
        _run([*make, "tinyconfig"], "kernel tinyconfig")
        _run(
            [
                str(tree / "scripts" / "kconfig" / "merge_config.sh"),
                "-m",
                "-O",
                str(out),
                str(out / ".config"),
                *map(str, frags),
            ],
            "merging the kernel config",
            cwd=tree,
            env={**os.environ, "ARCH": "riscv"},
        )
        _run([*make, "olddefconfig"], "kernel olddefconfig")
        config = (out / ".config").read_text()
        for line in (f.strip() for p in frags for f in p.read_text().splitlines()):
            if line.startswith("CONFIG_") and line.endswith("=y") and line not in config:
                raise LinuxSocError(f"{line} did not survive olddefconfig (a dependency is off)")
        # reproducible: no build time, user or host in the image (the banner's "#1" stays)
        stamp_env = {
            **os.environ,
            "KBUILD_BUILD_TIMESTAMP": time.strftime(
                "%Y-%m-%d", time.gmtime(LINUX_TARBALL.stat().st_mtime)
            ),
            "KBUILD_BUILD_USER": "latmon",
            "KBUILD_BUILD_HOST": "latmon",
        }
        _run(
            [*make, f"-j{jobs}", "Image"],
            "building the kernel",
            timeout=3600,
            env=stamp_env,
            log=out / "build.log",
        )
        stamp.write_text(digest)
    return image


# ---- device tree ---------------------------------------------------------------------------------


def build_dtb(out: Path, initrd_size: int) -> Path:
    """The device tree with the initramfs's place; the run's parameters are not in it (/init asks
    the simulator for them after the boot: the checkpoint)."""
    dts = (LSOC / "linux-soc.dts").read_text()
    dts = dts.replace("@INITRD_START@", f"0x{INITRD_ADDR:08x}")
    dts = dts.replace("@INITRD_END@", f"0x{INITRD_ADDR + initrd_size:08x}")
    out.mkdir(parents=True, exist_ok=True)
    src = out / "linux-soc.dts"
    src.write_text(dts)
    dtb = out / "linux-soc.dtb"
    _run([_need("dtc"), "-q", "-I", "dts", "-O", "dtb", "-o", str(dtb), str(src)], "dtc")
    return dtb


# ---- simulator -----------------------------------------------------------------------------------


def cpu_file() -> Path:
    import pythondata_cpu_vexriscv

    path = Path(pythondata_cpu_vexriscv.data_location) / "VexRiscv_Linux.v"
    if not path.exists():
        raise LinuxSocError(f"{path} not found; is pythondata-cpu-vexriscv installed (make setup)?")
    return path


def rtl_sources() -> list[Path]:
    from simulate import ip_modules, rtl

    shared = (
        "soc_wb_arbiter",
        "soc_wb_ram",
        "soc_wb_axil",
        "soc_sysctrl",
        "soc_uart",
        "soc_irqgen",
        "soc_traffic",
        "soc_devices",
    )
    return [
        *rtl(*ip_modules()),
        HW / "rtl" / "refdesign" / "refdesign.v",
        *(SOC / f"{name}.v" for name in shared),
        *sorted((SOC / "linux").glob("*.v")),
        TB_HDL / "tb_uart_rx.v",
        TB_HDL / "tb_linux_soc.v",
        cpu_file(),
    ]


# The simulator's C++ compiler and optimisation (the generated makefile's CXX, OPT_FAST and
# OPT_GLOBAL; Verilator's own default is the compiler it was built with, GCC, at -Os): Clang
# at -O2. Its model takes 12-19 % less CPU than GCC's, with or without GCC's profile-guided
# optimisation (docs/hw/linux-soc.md). Compiler and flags do not change what the model
# computes: every cycle stays the same.
SIM_CXX = "clang++-14"
SIM_OPT = "-O2"


def _make_sim(out: Path, env: dict[str, str], jobs: int) -> None:
    """Compile the verilated model in out into out/sim.build (make -j`jobs`)."""
    _run(
        [
            "make",
            f"-j{jobs}",
            "-C",
            str(out),
            "-f",
            "Vtb_linux_soc.mk",
            f"CXX={SIM_CXX}",
            f"LINK={SIM_CXX}",
            # the precompiled header's flag as any compiler takes it (Verilator's is GCC's)
            "CFG_CXXFLAGS_PCH_I=-include",
            f"OPT_FAST={SIM_OPT}",
            f"OPT_GLOBAL={SIM_OPT}",
            # Clang calls libatomic for the atomics in Verilator's runtime (GCC inlines them)
            "USER_LDFLAGS=-latomic",
            "sim.build",
        ],
        "building the Linux SoC with Verilator",
        env=env,
        timeout=1800,
        log=out / "make.log",
    )


def _sim_dir() -> tuple[Path, list[Path]]:
    """The simulator's build folder (keyed by the digest of its sources and flags) and sources."""
    sources = rtl_sources()
    digest = _digest([*sources, MAIN_CPP], RAM_WORDS, SIM_CXX, SIM_OPT)
    return SIM_BUILD / f"linux-soc-{digest}", sources


def _sim_lock() -> object:
    SIM_BUILD.mkdir(parents=True, exist_ok=True)
    f = open(SIM_BUILD / "linux-soc.lock", "w")  # noqa: SIM115 - held by the caller's with
    fcntl.flock(f, fcntl.LOCK_EX)
    return f


def build_sim(jobs: int = 2) -> Path:
    """The Verilator model of tb_linux_soc, built once per digest of its sources and flags;
    sim.json in its folder records the compiler, its flags and the build's wall time."""
    from simulate import SOC_VERILATOR_FLAGS, verilator_env

    out, sources = _sim_dir()
    exe = out / "Vtb_linux_soc"
    with _sim_lock():
        if exe.exists():
            return exe
        if shutil.which(SIM_CXX) is None:
            raise LinuxSocError(
                f"{SIM_CXX} not found: the Linux SoC's simulator is compiled with Clang "
                "(Debian's clang-14; make setup installs it)"
            )
        start = time.monotonic()
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        env = {**os.environ, **verilator_env()}
        cmd = [
            "verilator",
            "--cc",
            "--exe",
            "--savable",
            *SOC_VERILATOR_FLAGS,
            "--top-module",
            "tb_linux_soc",
            "-Mdir",
            str(out),
            "-o",
            "sim.build",  # renamed to exe when built: exe is never half-made
            f"-GRAM_WORDS={RAM_WORDS}",
            f"-I{HW / 'rtl' / 'generated'}",
            str(MAIN_CPP),
            *map(str, sources),
        ]
        _run(cmd, "verilating the Linux SoC", env=env, log=out / "verilate.log")
        _make_sim(out, env, jobs)
        record = {
            "cxx": SIM_CXX,
            "cxx_opt": SIM_OPT,
            "build_wall_s": round(time.monotonic() - start, 1),
        }
        (out / "sim.json").write_text(json.dumps(record, indent=1) + "\n")
        (out / "sim.build").rename(exe)
    return exe


def image_hex(out: Path, parts: Sequence[tuple[int, bytes]]) -> Path:
    """$readmemh text: @word-index records, one 32-bit little-endian word per line."""
    lines: list[str] = []
    for addr, data in parts:
        data = data + b"\0" * (-len(data) % 4)
        lines.append(f"@{(addr - RAM_BASE) // 4:x}")
        words = memoryview(data).cast("I")
        lines.extend(f"{w:08x}" for w in words)
    path = out / "image.hex"
    path.write_text("\n".join(lines) + "\n")
    return path


# Cycles from /init's arming of a line to its raise: the way from the arming into poll() and on
# to the idle task's wfi takes a median of 15,500-18,500 cycles (the campaign reports it per
# configuration as "arming -> wfi"), so that an idle run's raise finds the CPU waiting in wfi
# unless other work (a timer tick) came first (docs/hw/linux-soc.md).
GAP = 24000


@dataclass
class Params:
    """What /init reads from its parameter page after the boot (init.c)."""

    rounds: int = 100
    nops: int = 0
    gap: int = GAP
    load: bool = False
    kernel: bool = True
    config: str = "user"
    trace: bool = False  # the kernel's irq and sched tracepoints during the measurement

    def hex(self, out: Path) -> Path:
        """The page as a $readmemh file for +params (word 1 on: word 0 is /init's request)."""
        name = self.config.encode()[:31] + b"\0"
        name += b"\0" * (-len(name) % 4)
        words = [PARAM_MAGIC, self.rounds, self.nops, self.gap, int(self.load), int(self.kernel)]
        words += [int(self.trace), *memoryview(name).cast("I")]
        path = out / "params.hex"
        path.write_text(
            f"@{(PARAM_ADDR - RAM_BASE) // 4 + 1:x}\n" + "".join(f"{w:08x}\n" for w in words)
        )
        return path


@dataclass
class Boot:
    exit_code: int
    cycles: int
    wall_s: float
    cpu_s: float  # the simulator's own CPU time (user + system): the wall time of an idle host
    uart: Path
    trace: Path


@dataclass
class Checkpoint:
    """The model saved when /init asked for its parameters, and the boot that led there."""

    path: Path  # the Verilator save file
    trace: Path  # the boot's events (K, U, C)
    uart: Path  # the boot's console
    boot_cycles: int  # the cycle of the checkpoint (/init's request)
    wall_s: float
    cpu_s: float


def _simulate(cmd: Sequence[str], timeout_s: float, what: str, log: Path) -> tuple[float, float]:
    """Run the simulator; (wall, CPU) seconds. The CPU time is this child's own (wait4): runs
    side by side in threads of one process (the campaign's --jobs) must not count each other's,
    as RUSAGE_CHILDREN would."""
    start = time.monotonic()
    cpu = getattr(_children_cpu, "s", 0.0)
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        code, expired = _wait(proc, timeout_s)
    wall = time.monotonic() - start
    if expired:
        raise LinuxSocError(
            f"{what} did not finish within {timeout_s:.0f} s of wall time (time limit); "
            f"see {log.parent}"
        )
    if code != 0:
        raise LinuxSocError(f"{what}: the simulator failed (exit {code}); see {log}")
    return wall, _children_cpu.s - cpu


def _images(out: Path, preempt: str) -> tuple[Path, Path, Path]:
    """The RAM image, the stage marks and the simulator for one preemption model."""
    image, syms = _image(out, preempt)
    return image, syms, build_sim()


def _image(out: Path, preempt: str) -> tuple[Path, Path]:
    """The RAM image and the stage marks for one preemption model, written in out."""
    fw = build_firmware()
    initramfs = build_initramfs(build_init())
    kernel = build_kernel(preempt)
    cpio = initramfs.read_bytes()
    dtb = build_dtb(out, len(cpio))
    image = image_hex(
        out,
        [
            (FW_ADDR, fw.read_bytes()),
            (KERNEL_ADDR, kernel.read_bytes()),
            (INITRD_ADDR, cpio),
            (DTB_ADDR, dtb.read_bytes()),
        ],
    )
    from linux_soc_stages import write_syms

    syms = out / "syms.hex"
    write_syms(kernel.parents[3] / "System.map", syms)
    return image, syms


def checkpoint(
    preempt: str, *, timeout_s: float = 3600, max_cycles: int = 400_000_000
) -> Checkpoint:
    """Boot to /init's request for its parameters and save the model there; cached by the digest
    of what the boot ran (firmware, initramfs, kernel, device tree, simulator)."""
    with _locked(f"ckpt-{preempt}"):  # also over the images: runs side by side share them
        image, syms, exe = _images(BUILD / f"boot-{preempt}", preempt)
        out = BUILD / f"ckpt-{preempt}-{_digest([image, exe])}"
        meta = out / "boot.json"
        if not meta.exists():
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir(parents=True)
            shutil.copy(syms, out / "syms.hex")
            cmd = [
                str(exe),
                f"+image={image}",
                f"+uart={out / 'uart.log'}",
                f"+trace={out / 'trace.txt'}",
                f"+syms={out / 'syms.hex'}",
                f"+max_cycles={max_cycles}",
                f"+save={out / 'model.save'}",
            ]
            wall, cpu = _simulate(cmd, timeout_s, "the boot to the checkpoint", out / "sim.log")
            lines = (out / "trace.txt").read_text().split("\n")
            marks = [ln.split() for ln in lines if ln.strip()]
            c = [int(m[0]) for m in marks if m[1] == "C"]
            if not c or not (out / "model.save").exists():
                raise LinuxSocError(
                    f"the boot did not reach /init's request for its parameters; see {out}"
                )
            meta.write_text(json.dumps({"boot_cycles": c[0], "wall_s": wall, "cpu_s": cpu}))
    d = json.loads(meta.read_text())
    return Checkpoint(
        out / "model.save",
        out / "trace.txt",
        out / "uart.log",
        int(d["boot_cycles"]),
        float(d["wall_s"]),
        float(d["cpu_s"]),
    )


def run(
    out: Path,
    *,
    preempt: str = "none",
    params: Params | None = None,
    max_cycles: int = 2_000_000_000,
    timeout_s: float = 1800,
    restore: bool = True,
) -> Boot:
    """Build what is missing and measure: from the model's checkpoint (restore, the default) or
    from the reset (the boot included); wait for the SBI system reset; return what the run left."""
    params = params or Params()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    uart, trace = out / "uart.log", out / "trace.txt"
    cmd: list[str]
    if restore:
        ck = checkpoint(preempt)
        shutil.copy(ck.trace, trace)
        shutil.copy(ck.uart, uart)
        cmd = [str(build_sim())]
        cmd += [f"+restore={ck.path}", f"+syms={ck.path.parent / 'syms.hex'}"]
    else:
        image, syms, exe = _images(out, preempt)
        cmd = [str(exe), f"+image={image}", f"+syms={syms}"]
    cmd += [
        f"+uart={uart}",
        f"+trace={trace}",
        f"+params={params.hex(out)}",
        f"+max_cycles={max_cycles}",
    ]
    wall, cpu = _simulate(cmd, timeout_s, "the Linux SoC", out / "sim.log")
    last = trace.read_text().splitlines()[-1].split() if trace.exists() else []
    if len(last) != 3 or last[1] != "X":
        raise LinuxSocError(f"the simulator ended without its exit record; see {out / 'sim.log'}")
    boot = Boot(int(last[2]), int(last[0]), wall, cpu, uart, trace)
    write_boot(out, boot)
    return boot


def write_boot(out: Path, boot: Boot) -> None:
    """boot.json beside the run's files: what `linux_soc_campaign.py --reuse` reads back."""
    (out / "boot.json").write_text(
        json.dumps(
            {
                "exit_code": boot.exit_code,
                "cycles": boot.cycles,
                "wall_s": boot.wall_s,
                "cpu_s": boot.cpu_s,
            }
        )
    )


def read_boot(out: Path) -> Boot | None:
    """The Boot of a finished run in out, or None."""
    try:
        d = json.loads((out / "boot.json").read_text())
    except (OSError, ValueError):
        return None
    return Boot(
        int(d["exit_code"]),
        int(d["cycles"]),
        float(d["wall_s"]),
        float(d["cpu_s"]),
        out / "uart.log",
        out / "trace.txt",
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--preempt", default="none", choices=sorted(PREEMPT))
    parser.add_argument("--rounds", type=int, default=100, help="interrupts per path")
    parser.add_argument("--nops", type=int, default=0, help="no-ops before the user-space ack")
    parser.add_argument("--gap", type=int, default=GAP, help="cycles from arming to the raise")
    parser.add_argument("--load", action="store_true", help="a CPU hog and the traffic master")
    parser.add_argument(
        "--user-only", action="store_true", help="the user-space path only (no kernel-ack)"
    )
    parser.add_argument(
        "--boot",
        action="store_true",
        help="boot from the reset instead of restoring the checkpoint taken after the boot",
    )
    parser.add_argument(
        "--checkpoint-only",
        action="store_true",
        help="build the model's checkpoint after the boot (if missing) and stop there",
    )
    parser.add_argument("--max-cycles", type=int, default=2_000_000_000)
    parser.add_argument(
        "--timeout",
        type=float,
        default=3600,
        help="wall-time limit of each simulation, seconds (a boot takes 3 min of CPU; a loaded "
        "host stretches that)",
    )
    parser.add_argument(
        "--ftrace",
        action="store_true",
        help="the kernel's irq and sched tracepoints on during the measurement, compared with the "
        "stage marks (linux_soc_ftrace.py)",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="compare every sample with the bus and irq record; fail on a mismatch",
    )
    args = parser.parse_args(argv)
    from linux_soc_check import check, read_trace

    if args.out is None and not args.checkpoint_only:
        parser.error("--out is required")
    if not 0 <= args.nops <= 255 or args.rounds < 1 or args.gap < 1:
        print("linux_soc: --nops must be 0..255, --rounds and --gap positive", file=sys.stderr)
        return 2
    params = Params(
        rounds=args.rounds,
        nops=args.nops,
        gap=args.gap,
        load=args.load,
        kernel=not args.user_only,
        config=f"{args.preempt}-{'load' if args.load else 'idle'}",
        trace=args.ftrace,
    )
    try:
        if not args.boot:
            ck = checkpoint(args.preempt, timeout_s=args.timeout)
            print(
                f"linux_soc: checkpoint {ck.path.parent.name}: /init asked for its parameters at "
                f"cycle {ck.boot_cycles}; that boot took {ck.wall_s:.1f} s of wall time, "
                f"{ck.cpu_s:.1f} s of CPU time"
            )
            if args.checkpoint_only:
                return 0
        boot = run(
            args.out,
            preempt=args.preempt,
            params=params,
            max_cycles=args.max_cycles,
            timeout_s=args.timeout,
            restore=not args.boot,
        )
    except LinuxSocError as exc:
        print(f"linux_soc: {exc}", file=sys.stderr)
        return 1
    ev = read_trace(boot.trace)
    print(
        f"linux_soc: exit {boot.exit_code} at cycle {boot.cycles}; this run took "
        f"{boot.wall_s:.1f} s of wall time, {boot.cpu_s:.1f} s of CPU time; kernel entered at "
        f"cycle {ev.kernel}, /init's first instruction at cycle {ev.user}, its request for "
        f"parameters at cycle {ev.checkpoint}; console {boot.uart}"
    )
    if boot.exit_code != 0:
        return 1
    if args.check:
        report = check(boot.uart, boot.trace)
        print(f"linux_soc: {report.summary()}")
        paths = 1 if args.user_only else 2
        if report.mismatches or report.checked != paths * args.rounds:
            return 1
    if args.ftrace:
        from linux_soc_ftrace import FtraceError, compare

        try:
            print(f"linux_soc: tracepoints: {json.dumps(compare(boot.uart, boot.trace).summary())}")
        except FtraceError as exc:
            print(f"linux_soc: {exc}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
