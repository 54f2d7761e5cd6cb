"""The virtual SoC's test fabric (hw/soc, docs/hw/soc.md) as LiteX modules, on a LiteX SoC's bus.

The same Verilog as hw/soc: the published T1/T2 reference design (hw/rtl/refdesign), the irqgen's
eight test lines, the latmon cores of lines 0 and 1 (line 0's with the stimulus generator), the
traffic generator (a bus master), sysctrl and the UART, at the addresses the firmware knows
(sw/examples/baremetal/board/soc_map.h). With a VexRiscv whose external interrupt array gets the
reference design's data ready on bit 0 and the lines on bits 1..8, a LiteX SoC runs the
fabric-measured suite's image (fabric-suite-rv32.elf: cpu/rv32 with board/soc.c) unchanged;
what differs from hw/soc is LiteX's own: its bus (interconnect, Wishbone-to-AXI4-Lite bridge),
its RAM and its CPU wrapper.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from latmon_litex import Latmon, axil_slave_ports, core_files
from litex.gen import LiteXModule
from litex.soc.integration.soc import SoCRegion
from litex.soc.interconnect import axi, wishbone
from migen import ClockSignal, If, Instance, ResetSignal, Signal

HW = Path(__file__).resolve().parents[1]
SOC_MAP = HW.parent / "sw" / "examples" / "baremetal" / "board" / "soc_map.h"
IRQ_LINES = 8  # irqgen lines, on the CPU's external interrupts 1..8 (0: data ready)
WINDOW = 0x1_0000  # every block's region, but the reference design's
RAM_WINDOW = 0x2_0000  # hw/soc's RAM (sw/examples/baremetal/rv32.ld: 128 KiB at 0)
REFDESIGN_WINDOW = 0x4_0000


def soc_map() -> dict[str, int]:
    """The firmware's addresses (``SOC_*`` constants of soc_map.h), the one list the firmware
    and both SoCs share."""
    out = {}
    for m in re.finditer(r"#define\s+SOC_(\w+)\s+(0x[0-9A-Fa-f]+|\d+)u?\b", SOC_MAP.read_text()):
        out[m.group(1)] = int(m.group(2), 0)
    return out


def byte_offset(word_adr: Any, bits: int) -> Any:
    """A byte offset of ``bits`` bits from a word address: {adr, 2'b00}."""
    from migen import Cat, Constant

    return Cat(Constant(0, 2), word_adr) if bits > 2 else Constant(0, bits)


def add_ram(soc: Any, size: int, init: list[int]) -> None:
    """The firmware's RAM as hw/soc has it: at 0 (cached) and at SOC_RAM_UNCACHED (VexRiscv's
    I/O range: the data cache is bypassed), each a RAM_WINDOW region. ``size`` may be smaller
    than the window (a board's block RAM): the RAM then repeats within it, so the stacks at the
    window's top land at the top of the RAM (the image must end below them: check_image)."""
    if size > RAM_WINDOW or size & (size - 1):
        raise ValueError(f"RAM of {size} bytes: a power of two up to {RAM_WINDOW}")
    soc.ram = wishbone.SRAM(size, init=init)
    cached = wishbone.Interface(data_width=32, address_width=30, addressing="word")
    alias = wishbone.Interface(data_width=32, address_width=30, addressing="word")
    # LiteX's bus serves one access at a time: the two windows share the SRAM's port
    soc.comb += If(alias.cyc, alias.connect(soc.ram.bus)).Else(cached.connect(soc.ram.bus))
    soc.bus.add_slave("ram", cached, SoCRegion(origin=0, size=RAM_WINDOW, cached=True))
    soc.bus.add_slave(
        "ram_uncached",
        alias,
        SoCRegion(origin=soc_map()["RAM_UNCACHED"], size=RAM_WINDOW, cached=False),
    )


def check_image(words: int, bss_end: int, stacks: int, size: int) -> None:
    """An image of ``words`` words whose .bss ends at ``bss_end``, with ``stacks`` bytes of
    stacks at the window's top, fits a RAM of ``size`` bytes repeating in the window."""
    if max(4 * words, bss_end) + stacks > size:
        raise ValueError(
            f"the image (to {max(4 * words, bss_end):#x}) and its {stacks} bytes of stacks do not "
            f"fit the {size} bytes of RAM"
        )


class _SimpleSlave(LiteXModule):
    """A hw/soc register block (stb/we/adr/dat_w -> dat_r, one registered ack per access) as a
    Wishbone slave; ``adr_bits``: the byte offset's width the block decodes."""

    def __init__(self, module: str, adr_bits: int, params: dict[str, Any], ports: dict[str, Any]):
        self.bus = wishbone.Interface(data_width=32, address_width=30, addressing="word")
        self.stb = Signal()
        self.comb += self.stb.eq(self.bus.cyc & self.bus.stb)
        b = self.bus
        self.specials += Instance(
            module,
            **{f"p_{k}": v for k, v in params.items()},
            i_clk=ClockSignal(),
            i_rst=ResetSignal(),
            i_stb=self.stb,
            i_we=b.we,
            i_adr=byte_offset(b.adr[: adr_bits - 2], adr_bits),
            i_dat_w=b.dat_w,
            o_dat_r=b.dat_r,
            o_ack=b.ack,
            **ports,
        )


class _AxiLiteInstance(LiteXModule):
    """The reference design (AXI4-Lite slave, 256 KiB window) and its outputs."""

    ADDR_WIDTH = 18

    def __init__(self, platform: Any) -> None:
        self.bus = axi.AXILiteInterface(data_width=32, address_width=32)
        self.pl_ps_irq = Signal()
        self.monitor_irq = Signal()
        self.timer_irq = Signal()
        self.data_read = Signal()
        self.specials += Instance(
            "refdesign",
            p_ADDR_WIDTH=self.ADDR_WIDTH,
            i_clk=ClockSignal(),
            i_rst=ResetSignal(),
            o_pl_ps_irq=self.pl_ps_irq,
            o_monitor_irq=self.monitor_irq,
            o_timer_irq=self.timer_irq,
            o_data_read=self.data_read,
            **axil_slave_ports(self.bus, self.ADDR_WIDTH),
        )
        files, include = core_files()
        platform.add_verilog_include_path(str(include))
        for f in [*files, HW / "rtl" / "refdesign" / "refdesign.v"]:
            platform.add_source(str(f))


class Fabric(LiteXModule):
    """hw/soc's test fabric for one LiteX SoC (``soc``: a LiteX SoC with a VexRiscv).

    ``uart_tx``: the UART's line (a board's serial pin) or None, ``uart_divisor`` its clock
    cycles per bit until the firmware sets its own; ``tx_byte``/``tx_valid`` carry
    each byte the firmware writes to the UART (a simulation's console); ``done``/``exit_code``:
    the firmware's EXIT."""

    def __init__(
        self, soc: Any, clock_hz: int, uart_tx: Any = None, uart_divisor: int = 16
    ) -> None:
        platform = soc.platform
        addr = soc_map()
        self.done = Signal()
        self.exit_code = Signal(32)
        self.tx_valid = Signal()
        self.tx_byte = Signal(8)
        lines, raised, ack_pulse = Signal(IRQ_LINES), Signal(IRQ_LINES), Signal(IRQ_LINES)
        stim0 = Signal()
        tx = Signal() if uart_tx is None else uart_tx

        self.refdesign = _AxiLiteInstance(platform)
        # the line monitors: irq = each raise of the line, ack = the ISR's write of ACK[line]
        self.line0 = Latmon(
            platform, irq=raised[0], ack=ack_pulse[0], TRACE_DEPTH=1024, HAS_HIST=0, HAS_STAMP=0,
            HAS_STIM=1,
        )  # fmt: skip
        self.line1 = Latmon(
            platform, irq=raised[1], ack=ack_pulse[1], TRACE_DEPTH=1024, HAS_HIST=0, HAS_STAMP=0,
            HAS_STIM=0,
        )  # fmt: skip
        self.comb += stim0.eq(self.line0.stim_out)
        self.sysctrl = _SimpleSlave(
            "soc_sysctrl", 5, {"HARTS": 1, "CLOCK_HZ": clock_hz},
            {"o_done": self.done, "o_exit_code": self.exit_code},
        )  # fmt: skip
        self.uart = _SimpleSlave("soc_uart", 4, {"DEFAULT_DIVISOR": uart_divisor}, {"o_tx": tx})
        self.irqgen = _SimpleSlave(
            "soc_irqgen", 7, {"LINES": IRQ_LINES},
            {"i_trigger": stim0, "o_lines": lines, "o_raised": raised, "o_ack_pulse": ack_pulse},
        )  # fmt: skip
        m = wishbone.Interface(data_width=32, address_width=30, addressing="word")
        self.traffic = _SimpleSlave(
            "soc_traffic", 5, {},
            {
                "o_m_cyc": m.cyc, "o_m_stb": m.stb, "o_m_we": m.we, "o_m_adr": m.adr,
                "o_m_dat_w": m.dat_w, "o_m_sel": m.sel, "i_m_ack": m.ack, "i_m_err": m.err,
            },
        )  # fmt: skip
        u = self.uart
        self.comb += [
            self.tx_valid.eq(u.stb & u.bus.we & u.bus.ack & (u.bus.adr[:2] == 0)),
            self.tx_byte.eq(u.bus.dat_w[:8]),
        ]
        for name in ("soc_sysctrl", "soc_uart", "soc_irqgen", "soc_traffic"):
            platform.add_source(str(HW / "soc" / f"{name}.v"))

        bus = soc.bus
        bus.add_master("traffic", m)
        bus.add_slave(
            "refdesign", self.refdesign.bus,
            SoCRegion(origin=addr["REFDESIGN"], size=REFDESIGN_WINDOW, cached=False),
        )  # fmt: skip
        for name, key in (
            ("line0", "LINE0_MONITOR"),
            ("line1", "LINE1_MONITOR"),
            ("sysctrl", "SYSCTRL"),
            ("uart", "UART"),
            ("irqgen", "IRQGEN"),
            ("traffic", "TRAFFIC"),
        ):
            block = getattr(self, name)
            bus.add_slave(
                f"fabric_{name}", block.bus, SoCRegion(origin=addr[key], size=WINDOW, cached=False)
            )
        # the interrupts, LiteX's way (its IRQ handler wires them and names them in irq.h)
        sources = {"fabric_data_ready": self.refdesign.pl_ps_irq}
        sources.update({f"fabric_line{i}": lines[i] for i in range(IRQ_LINES)})
        for n, (name, sig) in enumerate(sources.items()):
            setattr(soc, name, _Source(sig))
            soc.irq.add(name, n=addr["IRQ_DATA_READY"] if n == 0 else addr["IRQ_LINE0"] + n - 1)


class _Source:
    """An interrupt source as LiteX's SoC IRQ handler expects it: ``.ev.irq``."""

    def __init__(self, irq: Signal) -> None:
        self.ev = SimpleNamespace(irq=irq)
