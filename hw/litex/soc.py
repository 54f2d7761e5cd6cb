"""The example LiteX SoC for a cheap ECP5 board, with the interrupt test-case suite in its RAM,
built with the open flow.

    make bitstream BOARD=colorlight_i5      (hw/litex/soc.py --board colorlight_i5 --build)

The SoC LiteX simulates (hw/litex/sim.py) on the board: a VexRiscv (variant ``full``, the
virtual SoC's VexRiscv_Full), LiteX's bus, the firmware's RAM at 0 with its uncached alias, and
latmon's test fabric (hw/litex/fabric.py: the T1/T2 reference design, irqgen, the line monitors,
the traffic master, sysctrl, a UART on the board's serial TX pin), on the board's clock and reset
(litex-boards' CRG for it). The RAM is block RAM holding the suite's image
(build/sw/examples/fabric-suite-rv32.elf, the same binary hw/soc and the simulation run): the CPU
starts it at reset and the suite's latmon-logs come out of the serial pin at BAUD.
Yosys, nextpnr-ecp5 and ecppack are the PyPI builds (yowasp) beside this python, called through
the wrappers in hw/litex/bin.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tb"))

BOARDS = {
    # board: (litex-boards target module, system clock, RAM in bytes (block RAM)). The Colorlight
    # i5's system clock: litex-boards' default for it, 60 MHz from its 25 MHz oscillator through
    # the PLL; the RAM: the suite's image (program, .bss and stacks: about 57 KiB) in the smallest
    # power of two
    "colorlight_i5": ("litex_boards.targets.colorlight_i5", 60e6, 0x1_0000),
}
# nextpnr's placer and router for the board builds: the analytic placer (heap) and router2
# (nextpnr-ecp5's default router, router1, had not routed this SoC after 50 minutes)
PNR_OPTS = "--placer heap --router router2"
# the limits of each external run, seconds (hw/litex/toolrun.py)
TIMEOUTS = {"YOSYS": 3600, "NEXTPNR": 5400, "ECPPACK": 600}
BAUD = 115200
STACKS = 2 * 0x1000  # rv32.ld: one 4 KiB stack per hart at the RAM window's top


def image(elf: Path, out: Path, ram_bytes: int, rounds: int) -> list[int]:
    """The suite's image as RAM words: every case, ``rounds`` interrupts each, the UART at the
    board's rate (the firmware keeps the divisor the SoC sets)."""
    from fabric import check_image
    from soc_sim import _symbol, image_hex, suite_cases

    if not elf.exists():
        raise SystemExit(f"soc.py: {elf} is not built; run 'make sw-all'")
    words = [
        int(w, 16)
        for w in image_hex(elf, out, rounds=rounds, cases=list(suite_cases(elf)), uart_divisor=0)
        .read_text()
        .split()
    ]
    check_image(len(words), _symbol(elf, "__bss_end"), STACKS, ram_bytes)
    return words + [0] * (ram_bytes // 4 - len(words))


def build_soc(board: str, sys_clk_freq: float, init: list[int] | None = None) -> Any:
    from fabric import Fabric, add_ram
    from litex.soc.integration.soc_core import SoCCore

    module, _, ram_bytes = BOARDS[board]
    target = importlib.import_module(module)
    platform = target.colorlight_i5.Platform(board="i5", revision="7.0", toolchain="trellis")
    soc = SoCCore(
        platform,
        int(sys_clk_freq),
        ident=f"latmon test fabric on {board}",
        cpu_type="vexriscv",
        cpu_variant="full",
        cpu_reset_address=0,
        integrated_rom_size=0,
        integrated_sram_size=0,
        with_uart=False,
        with_timer=False,
    )
    soc.crg = target._CRG(platform, sys_clk_freq)
    add_ram(soc, ram_bytes, init if init is not None else [0] * (ram_bytes // 4))
    soc.fabric = Fabric(
        soc,
        int(sys_clk_freq),
        uart_tx=platform.request("serial").tx,
        uart_divisor=round(sys_clk_freq / BAUD),
    )
    return soc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", choices=sorted(BOARDS), required=True)
    parser.add_argument("--output-dir", type=Path, required=True)
    parser.add_argument("--build", action="store_true", help="synthesize, place, route, pack")
    parser.add_argument("--rounds", type=int, default=200, help="interrupts per case")
    parser.add_argument("--elf", type=Path, default=None, help="the suite's image")
    parser.add_argument(
        "--sys-clk-freq", type=float, default=None, help="system clock, Hz (default: the board's)"
    )
    parser.add_argument("--seed", type=int, default=1, help="nextpnr's seed")
    parser.add_argument(
        "--pnr-timeout",
        type=float,
        default=TIMEOUTS["NEXTPNR"],
        help=f"seconds nextpnr may take (default {TIMEOUTS['NEXTPNR']})",
    )
    args = parser.parse_args(argv)
    from litex.soc.integration.builder import Builder
    from soc_sim import SUITE_ELF

    os.environ["PATH"] = f"{HERE / 'bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ["LATMON_YOWASP_BIN"] = str(Path(sys.executable).parent)
    for stage, limit in TIMEOUTS.items():
        os.environ[f"LATMON_{stage}_TIMEOUT"] = str(limit)
    os.environ["LATMON_NEXTPNR_TIMEOUT"] = str(args.pnr_timeout)
    _, clock, ram_bytes = BOARDS[args.board]
    clock = args.sys_clk_freq or clock
    args.output_dir.mkdir(parents=True, exist_ok=True)
    words = image(args.elf or SUITE_ELF, args.output_dir / "firmware.hex", ram_bytes, args.rounds)
    soc = build_soc(args.board, clock, words)
    # LiteX's trellis toolchain has no option for these; its build script shows them
    soc.platform.toolchain._pnr_opts = PNR_OPTS
    builder = Builder(
        soc, output_dir=str(args.output_dir), compile_software=False, compile_gateware=args.build
    )
    times = args.output_dir / "gateware" / "tool-times.jsonl"
    times.unlink(missing_ok=True)
    start, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        builder.build(run=args.build, seed=args.seed)
    except OSError as e:
        print(f"soc.py: the build failed in {args.output_dir / 'gateware'}: {e}", file=sys.stderr)
        return 1
    if args.build:
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = sum(getattr(after, f) - getattr(before, f) for f in ("ru_utime", "ru_stime"))
        (args.output_dir / "build.json").write_text(
            json.dumps(
                {
                    "board": args.board,
                    "sys_clk_hz": clock,
                    "ram_bytes": ram_bytes,
                    "pnr_opts": PNR_OPTS,
                    "seed": args.seed,
                    "wall_s": round(time.monotonic() - start, 1),
                    "cpu_s": round(cpu, 1),
                    "command": " ".join(["hw/litex/soc.py", *(argv or sys.argv[1:])]),
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
