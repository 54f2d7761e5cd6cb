"""latmon as a LiteX core: the Verilog IP (hw/latmon.core's files) behind LiteX's AXI4-Lite
interface, its interrupt as a LiteX interrupt source, and its registers described from the RDL.

    from latmon_litex import Latmon
    soc.latmon = Latmon(platform, irq=pads.irq, ack=pads.ack)
    soc.bus.add_slave("latmon", soc.latmon.bus, SoCRegion(size=0x10000, cached=False))
    soc.irq.add("latmon")

The SoC bus may be Wishbone: LiteX inserts its Wishbone-to-AXI4-Lite bridge. The interrupt is
irq_out (level high: IRQ_STATUS AND IRQ_ENABLE, docs/hw/latmon.md); the firmware acknowledges it
in the core (IRQ_STATUS), as on every other platform.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from litex.gen import LiteXModule
from litex.soc.interconnect import axi
from migen import ClockSignal, Instance, ResetSignal, Signal

HW = Path(__file__).resolve().parents[1]
CORE = HW / "latmon.core"
RDL = HW / "regs" / "latmon.rdl"


def core_files() -> tuple[list[Path], Path]:
    """hw/latmon.core's Verilog files (without the include file) and the include directory."""
    core = yaml.safe_load(CORE.read_text())
    files = []
    for entry in core["filesets"]["rtl"]["files"]:
        name, opts = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        if not opts.get("is_include_file"):
            files.append(HW / name)
    return files, HW / "rtl" / "generated"


def core_defaults() -> dict[str, int]:
    core = yaml.safe_load(CORE.read_text())
    return {k: int(v["default"]) for k, v in core["parameters"].items()}


def axil_slave_ports(bus: axi.AXILiteInterface, addr_width: int) -> dict[str, Any]:
    """The s_axil_* ports of a Verilog AXI4-Lite slave (latmon, refdesign) on a LiteX
    AXI4-Lite interface, as Instance keywords; the slave sees the low addr_width address bits."""
    return {
        "i_s_axil_awaddr": bus.aw.addr[:addr_width],
        "i_s_axil_awprot": bus.aw.prot,
        "i_s_axil_awvalid": bus.aw.valid,
        "o_s_axil_awready": bus.aw.ready,
        "i_s_axil_wdata": bus.w.data,
        "i_s_axil_wstrb": bus.w.strb,
        "i_s_axil_wvalid": bus.w.valid,
        "o_s_axil_wready": bus.w.ready,
        "o_s_axil_bresp": bus.b.resp,
        "o_s_axil_bvalid": bus.b.valid,
        "i_s_axil_bready": bus.b.ready,
        "i_s_axil_araddr": bus.ar.addr[:addr_width],
        "i_s_axil_arprot": bus.ar.prot,
        "i_s_axil_arvalid": bus.ar.valid,
        "o_s_axil_arready": bus.ar.ready,
        "o_s_axil_rdata": bus.r.data,
        "o_s_axil_rresp": bus.r.resp,
        "o_s_axil_rvalid": bus.r.valid,
        "i_s_axil_rready": bus.r.ready,
    }


def registers() -> list[tuple[str, int, str]]:
    """(name, byte offset, description) of every register and memory window, from the RDL (the
    SystemRDL compiler): what the core's region holds, for the SoC's documentation."""
    from systemrdl import RDLCompiler
    from systemrdl.node import MemNode, RegNode

    rdl = RDLCompiler()
    rdl.compile_file(str(RDL))
    top = rdl.elaborate(top_def_name="latmon").top
    out = []
    for node in top.descendants():
        if isinstance(node, RegNode | MemNode):
            out.append((node.inst_name, node.absolute_address, node.get_property("desc") or ""))
    return out


class _Interrupt:
    """What LiteX's SoC.irq expects of an interrupt source: an `irq` signal."""

    def __init__(self) -> None:
        self.irq = Signal()


class Latmon(LiteXModule):
    """One latmon core. irq/ack: the measured edges (synchronized inside, SYNC_STAGES); start/end
    of the timestamp mode tied off unless given; stim_out/stim_id: the stimulus generator."""

    ADDR_WIDTH = 16  # the core's 64 KiB window

    def __init__(self, platform: Any, irq: Signal, ack: Signal, **params: int) -> None:
        values = {**core_defaults(), **params}
        unknown = set(params) - set(core_defaults())
        if unknown:
            raise ValueError(f"Latmon: no parameter {sorted(unknown)} in {CORE}")
        # the SoC's 32-bit address (LiteX's bridges want the bus's width); the SoC's decoder
        # selects the region, the core decodes the low ADDR_WIDTH bits
        self.bus = axi.AXILiteInterface(data_width=32, address_width=32)
        self.ev = _Interrupt()
        self.alarm = Signal()
        self.stim_out = Signal()
        self.stim_id = Signal(values["ID_WIDTH"])
        self.specials += Instance(
            "latmon",
            **{f"p_{k}": v for k, v in values.items()},
            p_ADDR_WIDTH=self.ADDR_WIDTH,
            i_clk=ClockSignal(),
            i_rst=ResetSignal(),
            i_irq=irq,
            i_ack=ack,
            o_alarm=self.alarm,
            o_irq_out=self.ev.irq,
            i_start_valid=0,
            i_start_id=0,
            i_end_valid=0,
            i_end_id=0,
            o_stim_out=self.stim_out,
            o_stim_id=self.stim_id,
            **axil_slave_ports(self.bus, self.ADDR_WIDTH),
        )
        files, include = core_files()
        platform.add_verilog_include_path(str(include))
        for f in files:
            platform.add_source(str(f))
