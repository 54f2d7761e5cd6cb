"""The latmon IP's testbench, shared by its cocotb test modules and the benchmarks.

IPTB drives the IP (hw/rtl/latmon.v in hdl/tb_latmon.v) through its AXI4-Lite slave and records
the core's events; `sources` is the IP's file list with the testbench wrapper. The named
configurations and the parameters' defaults come from hw/ip_configs.py (the build passes a
configuration's parameters to the test in the environment).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cocotb
import numpy as np
from cocotb.clock import Clock
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp
from latmon_tb import CLOCK_NS, TB
from model.latmon_hist_model import Bank
from model.latmon_model import RESULT_REGISTERS, Expected, expected_registers
from regmap import regmap
from simulate import HW, ip_modules, rtl, tb_hdl

if HW.as_posix() not in sys.path:  # hw/ip_configs.py, the configurations' one home
    sys.path.insert(0, HW.as_posix())
from ip_configs import CONFIGS, DEFAULTS, MIN_DEFAULTS, OPTIONS_OFF, PARAMS, SMALL_TIMING

__all__ = [
    "CONFIGS",
    "DEFAULTS",
    "MIN_DEFAULTS",
    "OPTIONS_OFF",
    "PARAMS",
    "SMALL_TIMING",
]  # read by the test modules from here

# The IP's modules, from their one home (hw/latmon.core).
RTL_FILES = ip_modules()
# Registers whose width follows a parameter (they read zero above it).
CNT_REGS = {"TIMEOUT", "THRESHOLD", "LAST", "MIN", "MAX", "HIST_START", "HIST_MIN", "HIST_MAX"}
COUNTER_REGS = {"COUNT", "VIOLATIONS", "TIMEOUTS", "OVERRUNS", "IGNORED", "TRACE_LOST"}


def sources() -> list[Path]:
    """The IP's RTL and the testbench wrapper hdl/tb_latmon.v."""
    return rtl(*RTL_FILES) + tb_hdl("tb_latmon")


class IPTB(TB):
    """The latmon IP's testbench: event monitor plus an AXI4-Lite master."""

    def __init__(self, dut) -> None:
        super().__init__(dut, irq="irq_py", ack="ack_py")
        self.p = {k: int(os.environ.get(k, DEFAULTS[k])) for k in PARAMS}
        self.map = regmap()
        if os.environ.get("TB_EXTERNAL_CLOCK") == "1":
            cocotb.start_soon(Clock(dut.clk, CLOCK_NS, unit="ns").start())
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        dut.flush.value = 0
        dut.start_valid.value = 0
        dut.start_id.value = 0
        dut.end_valid.value = 0
        dut.end_id.value = 0

    def has(self, reg: str) -> bool:
        """Is the register in this build (its part of the IP present)?"""
        return present(self.p, reg)

    def timeout(self, cycles: int) -> int:
        """The timeout the IP applies when `cycles` is written: none without the timeout part."""
        return cycles if self.has("TIMEOUT") else 0

    def width_of(self, reg: str) -> int:
        if reg in CNT_REGS:
            return self.p["CNT_WIDTH"]
        if reg in COUNTER_REGS:
            return self.p["COUNTER_WIDTH"]
        return 32

    async def read_addr(self, addr: int) -> tuple[int, AxiResp]:
        r = await self.axil.read(addr, 4)
        return int.from_bytes(r.data, "little"), r.resp

    async def read(self, reg: str) -> int:
        value, resp = await self.read_addr(self.map.offset(reg))
        assert resp == AxiResp.OKAY, f"read {reg}: {resp}"
        return value

    async def write(self, reg: str, value: int) -> None:
        r = await self.axil.write(self.map.offset(reg), value.to_bytes(4, "little"))
        assert r.resp == AxiResp.OKAY, f"write {reg}: {r.resp}"

    def ctrl(self, **fields: int) -> int:
        value = 0
        for name, v in fields.items():
            value |= v << self.map.field("CTRL", name.upper()).lsb
        return value

    async def read_trace(self, index: int) -> int:
        value, resp = await self.read_addr(self.map.mems["TRACE"].offset + 4 * index)
        assert resp == AxiResp.OKAY
        return value

    async def bring_up(
        self,
        *,
        enable: int = 1,
        ring: int = 0,
        timeout: int = 0,
        threshold: int = 0,
        irq_mode: int = 0,
        ack_mode: int = 0,
        irq_enable: int = 0,
        idle_irq: int = 0,
        idle_ack: int = 0,
        monitor: bool = True,
    ) -> None:
        """Reset, put irq and ack at their idle levels, configure over the bus, then enable and
        start monitoring."""
        await self.reset()
        self.irq.value = idle_irq
        self.ack.value = idle_ack
        await self.settle(8)  # through the synchronizer before the modes change
        if self.has("TIMEOUT"):
            await self.write("TIMEOUT", timeout)
        await self.write("THRESHOLD", threshold)
        if self.has("IRQ_ENABLE"):
            await self.write("IRQ_ENABLE", irq_enable)
        await self.write(
            "CTRL", self.ctrl(enable=enable, trace_ring=ring, irq_mode=irq_mode, ack_mode=ack_mode)
        )
        if monitor:
            await self.start_monitor()

    def expected(self, threshold: int = 0, ring: bool = False) -> Expected:
        return expected_registers(
            self.events,
            cnt_width=self.p["CNT_WIDTH"],
            counter_width=self.p["COUNTER_WIDTH"],
            sum_width=self.p["SUM_WIDTH"],
            threshold=threshold,
            trace_depth=self.p["TRACE_DEPTH"],
            trace_width=self.p["TRACE_WIDTH"],
            ring=ring,
        )

    def fields(self, reg: str, **values: int) -> int:
        out = 0
        for name, v in values.items():
            out |= v << self.map.field(reg, name.upper()).lsb
        return out

    async def read_bank(self) -> Bank:
        """Take a histogram snapshot over the bus and read the frozen bank."""
        m = self.map
        await self.write("HIST_CTRL", m.bit("HIST_CTRL", "SNAPSHOT"))
        while m.get("HIST_STATUS", "BUSY", await self.read("HIST_STATUS")):
            pass
        bins = np.array(
            [
                (await self.read_addr(m.mems["HIST"].offset + 4 * k))[0]
                for k in range(1 << self.p["HIST_BINS_LOG2"])
            ],
            dtype=np.int64,
        )
        count = await self.read("HIST_COUNT_LO") | (await self.read("HIST_COUNT_HI") << 32)
        return Bank(
            bins=bins,
            underflow=await self.read("HIST_UNDERFLOW"),
            overflow=await self.read("HIST_OVERFLOW"),
            count=count,
            total=await self.read("HIST_SUM_LO") | (await self.read("HIST_SUM_HI") << 32),
            min=await self.read("HIST_MIN") if count else None,
            max=await self.read("HIST_MAX") if count else None,
            saturated=bool(m.get("HIST_STATUS", "SATURATED", await self.read("HIST_STATUS"))),
        )

    async def check_registers(self, e: Expected, ring: bool = False) -> None:
        """Every result register and the whole trace window against the register model."""
        got = {name: await self.read(name) for name in RESULT_REGISTERS if self.has(name)}
        want = {k: v for k, v in e.result_registers().items() if self.has(k)}
        assert got == want
        if self.has("SUM_LO"):
            # SUM_LO, then SUM_HI and SUM_COUNT: one snapshot
            lo = await self.read("SUM_LO")
            hi = await self.read("SUM_HI")
            assert (hi << 32) | lo == e.sum
            assert await self.read("SUM_COUNT") == e.count
        status = await self.read("STATUS")
        m = self.map
        assert m.get("STATUS", "ALARM", status) == e.alarm
        assert m.get("STATUS", "SATURATED", status) == e.saturated
        assert m.get("STATUS", "TRACE_FULL", status) == (e.trace_filled and not ring)
        assert m.get("STATUS", "TRACE_WRAPPED", status) == e.trace_wrapped
        assert int(self.dut.alarm.value) == e.alarm
        for index in range(self.p["TRACE_DEPTH"]):
            assert await self.read_trace(index) == e.trace.get(index, 0), f"trace word {index}"


def caps(p: dict[str, int]) -> int:
    m = regmap()
    value = 1 << m.field("CAPS", "TRACE").lsb
    value |= p["CNT_WIDTH"] << m.field("CAPS", "CNT_WIDTH").lsb
    value |= (p["TRACE_DEPTH"].bit_length() - 1) << m.field("CAPS", "TRACE_DEPTH_LOG2").lsb
    value |= p["SYNC_STAGES"] << m.field("CAPS", "SYNC_STAGES").lsb
    value |= p["TRACE_WIDTH"] << m.field("CAPS", "TRACE_WIDTH").lsb
    for part in ("HIST", "STAMP", "STIM", "IRQ", "TIMEOUT", "COUNTERS", "SUM"):
        value |= p[f"HAS_{part}"] << m.field("CAPS", part).lsb
    return value


def caps2(p: dict[str, int]) -> int:
    m = regmap()
    value = (p["HIST_BINS_LOG2"] if p["HAS_HIST"] else 0) << m.field("CAPS2", "HIST_BINS_LOG2").lsb
    value |= (p["STAMP_ENTRIES"] if p["HAS_STAMP"] else 0) << m.field("CAPS2", "STAMP_ENTRIES").lsb
    ids = p["HAS_STAMP"] or p["HAS_STIM"]
    value |= (p["ID_WIDTH"] if ids else 0) << m.field("CAPS2", "ID_WIDTH").lsb
    return value


def present(p: dict[str, int], reg: str) -> bool:
    """Is the register's part of the IP (the RDL's latmon_part) in this build?"""
    part = regmap().regs[reg].part
    return part == "core" or bool(p[f"HAS_{part.upper()}"])
