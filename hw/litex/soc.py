"""An example LiteX SoC with latmon for a cheap ECP5 board, built with the open flow.

    make bitstream BOARD=colorlight_i5      (hw/litex/soc.py --board colorlight_i5 --build)

The board's own LiteX target (litex-boards) with a VexRiscv, and one latmon core (Latmon,
hw/litex/latmon_litex.py) on the SoC bus at 0x9000_0000, its irq_out an interrupt of the CPU.
The measured edges come from a two-bit output register the firmware writes (bit 0: the interrupt
line, bit 1: the acknowledge), as the virtual SoC's test interrupt lines do (hw/soc).
Yosys, nextpnr-ecp5 and ecppack are the PyPI builds (yowasp) beside this python, called
through the wrappers in hw/litex/bin.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

BOARDS = {
    # board: (litex-boards target module, system clock the board's target uses by default)
    "colorlight_i5": ("litex_boards.targets.colorlight_i5", 60e6),
}
ORIGIN = 0x9000_0000


def build_soc(board: str, sys_clk_freq: float) -> object:
    from latmon_litex import Latmon
    from litex.soc.cores.gpio import GPIOOut
    from litex.soc.integration.soc import SoCRegion
    from migen import Signal

    target = importlib.import_module(BOARDS[board][0])
    soc = target.BaseSoC(
        sys_clk_freq=sys_clk_freq,
        cpu_type="vexriscv",
        cpu_variant="standard",
        with_led_chaser=False,
        integrated_main_ram_size=0x4000,
    )
    lines = Signal(2)
    soc.test_lines = GPIOOut(lines)
    soc.latmon = Latmon(soc.platform, irq=lines[0], ack=lines[1])
    soc.bus.add_slave(
        "latmon", soc.latmon.bus, SoCRegion(origin=ORIGIN, size=0x10000, cached=False)
    )
    soc.irq.add("latmon", use_loc_if_exists=True)
    return soc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", choices=sorted(BOARDS), required=True)
    parser.add_argument("--output-dir", type=Path, required=True)
    parser.add_argument("--build", action="store_true", help="synthesize, place, route, pack")
    parser.add_argument("--no-compile-software", action="store_true")
    args = parser.parse_args(argv)
    from litex.soc.integration.builder import Builder

    os.environ["PATH"] = f"{HERE / 'bin'}{os.pathsep}{os.environ['PATH']}"
    os.environ["LATMON_YOWASP_BIN"] = str(Path(sys.executable).parent)
    soc = build_soc(args.board, BOARDS[args.board][1])
    builder = Builder(
        soc,
        output_dir=str(args.output_dir),
        compile_software=not args.no_compile_software,
        compile_gateware=args.build,
    )
    builder.build(run=args.build)
    return 0


if __name__ == "__main__":
    sys.exit(main())
