"""cocotb tests of the latmon IP (hw/rtl/latmon.v), seen from its AXI4-Lite slave.

Every check is against a reference: the register map compiled from hw/regs/latmon.rdl, the
event-level and cycle-level models of the core, and the register model (model/latmon_model.py).
pytest sweeps the parameters; each configuration builds in its own sim_build folder.
"""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.clock import Clock
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp
from latmon_tb import CLOCK_NS, TB, Stimulus, check, random_stimulus, waveform
from model.latmon_core_model import Kind, core_model
from model.latmon_model import (
    RESULT_REGISTERS,
    Expected,
    core_cycle_model,
    expected_registers,
)
from regmap import regmap
from simulate import build_id, rtl, run_sim, tb_hdl

RTL_FILES = [
    "latmon",
    "latmon_core",
    "latmon_sync",
    "latmon_trigger",
    "latmon_stats",
    "latmon_counter",
    "latmon_trace",
    "latmon_axil",
]
PARAMS = ("CNT_WIDTH", "SYNC_STAGES", "TRACE_DEPTH", "TRACE_WIDTH", "COUNTER_WIDTH", "SUM_WIDTH")
DEFAULTS = {
    "CNT_WIDTH": 32,
    "SYNC_STAGES": 2,
    "TRACE_DEPTH": 512,
    "TRACE_WIDTH": 32,
    "COUNTER_WIDTH": 32,
    "SUM_WIDTH": 48,
}
# Registers whose width follows a parameter (they read zero above it).
CNT_REGS = {"TIMEOUT", "THRESHOLD", "LAST", "MIN", "MAX"}
COUNTER_REGS = {"COUNT", "VIOLATIONS", "TIMEOUTS", "OVERRUNS", "IGNORED", "TRACE_LOST"}


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
        await self.write("TIMEOUT", timeout)
        await self.write("THRESHOLD", threshold)
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

    async def check_registers(self, e: Expected, ring: bool = False) -> None:
        """Every result register and the whole trace window against the register model."""
        got = {name: await self.read(name) for name in RESULT_REGISTERS}
        want = e.result_registers()
        assert got == want
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


def _caps(p: dict[str, int]) -> int:
    m = regmap()
    value = 1 << m.field("CAPS", "TRACE").lsb
    value |= p["CNT_WIDTH"] << m.field("CAPS", "CNT_WIDTH").lsb
    value |= (p["TRACE_DEPTH"].bit_length() - 1) << m.field("CAPS", "TRACE_DEPTH_LOG2").lsb
    value |= p["SYNC_STAGES"] << m.field("CAPS", "SYNC_STAGES").lsb
    value |= p["TRACE_WIDTH"] << m.field("CAPS", "TRACE_WIDTH").lsb
    return value


@cocotb.test()
async def register_map_matches_rdl(dut) -> None:
    """Every register of the RDL: address, reset value and access type, as the RTL has them."""
    tb = IPTB(dut)
    await tb.reset()
    m = tb.map
    for reg in m.regs.values():
        mask = (1 << tb.width_of(reg.name)) - 1
        value, resp = await tb.read_addr(reg.offset)
        assert resp == AxiResp.OKAY, f"{reg.name} at {reg.offset:#x} is not mapped"
        want = _caps(tb.p) if reg.name == "CAPS" else reg.reset & mask
        assert value == want, f"{reg.name}: reset {value:#x}, RDL says {want:#x}"
    # access types: write all ones, read back
    for reg in m.regs.values():
        if reg.name == "CTRL":
            continue  # enabling would start measuring; CTRL is checked below
        before = await tb.read(reg.name)
        r = await tb.axil.write(reg.offset, b"\xff\xff\xff\xff")
        assert r.resp == AxiResp.OKAY, reg.name
        after = await tb.read(reg.name)
        expect = before
        for f in reg.fields:
            fmask = ((1 << f.width) - 1) << f.lsb
            if f.access == "rw":
                expect = (expect & ~fmask) | fmask
            elif f.access in ("rw1c", "w1pulse"):
                expect &= ~fmask
        expect &= (1 << tb.width_of(reg.name)) - 1
        assert after == expect, f"{reg.name}: wrote ones, read {after:#x}, expected {expect:#x}"
    # CTRL: rw fields read back, CLEAR is a pulse that reads 0
    all_fields = tb.ctrl(enable=1, trace_ring=1, irq_mode=3, ack_mode=3, clear=1)
    await tb.write("CTRL", all_fields)
    assert await tb.read("CTRL") == all_fields & ~m.bit("CTRL", "CLEAR")
    # byte strobes: a write of byte 1 only changes byte 1
    await tb.write("THRESHOLD", 0x11223344 & ((1 << tb.p["CNT_WIDTH"]) - 1))
    r = await tb.axil.write(m.offset("THRESHOLD") + 1, b"\xab")
    assert r.resp == AxiResp.OKAY
    assert await tb.read("THRESHOLD") == 0x1122AB44 & ((1 << tb.p["CNT_WIDTH"]) - 1)
    # unmapped addresses answer SLVERR; the trace window answers OKAY, zero beyond the depth
    last = max(r.offset for r in m.regs.values())
    for addr in (last + 4, 0x3FC, 0x3000, m.mems["TRACE"].offset - 4, 0xC000, 0xFFFC):
        _, resp = await tb.read_addr(addr)
        assert resp == AxiResp.SLVERR, f"read {addr:#x}: {resp}"
        w = await tb.axil.write(addr, b"\x00\x00\x00\x00")
        assert w.resp == AxiResp.SLVERR, f"write {addr:#x}: {w.resp}"
    trace = m.mems["TRACE"]
    for index in (tb.p["TRACE_DEPTH"], trace.entries - 1):
        if index < trace.entries:
            value, resp = await tb.read_addr(trace.offset + 4 * index)
            assert (value, resp) == (0, AxiResp.OKAY)
    # ID and VERSION as the RDL defines them
    assert await tb.read("ID") == m.regs["ID"].reset
    assert await tb.read("VERSION") == m.regs["VERSION"].reset


@cocotb.test()
async def measure_stats_and_trace(dut) -> None:
    """Random events: every event to the cycle, then every register and the trace window."""
    tb = IPTB(dut)
    cnt_max = (1 << tb.p["CNT_WIDTH"]) - 1
    timeout = min(300, cnt_max)
    threshold = min(60, cnt_max - 1)
    await tb.bring_up(timeout=timeout, threshold=threshold)
    stim = random_stimulus(random.Random(int(os.environ.get("SEED", "1"))), 1500, timeout + 20)
    end = await tb.drive(waveform(stim))
    await tb.settle(timeout + 20)
    model = core_model(stim.irq, stim.ack, tb.p["CNT_WIDTH"], timeout, end_cycle=end + timeout)
    check(tb, model)
    await tb.check_registers(tb.expected(threshold))
    # accounting: each irq started a sample or a timeout, or overran; each ack ended one or
    # was ignored
    e = tb.expected(threshold)
    n_samples = len(e.samples)
    n = {k: sum(1 for o in model if o.kind == k) for k in Kind}
    assert n_samples + n[Kind.TIMEOUT] + n[Kind.OVERRUN] == len(stim.irq)
    assert n_samples + n[Kind.IGNORED] == len(stim.ack)


@cocotb.test()
async def ring_mode_keeps_the_last_samples(dut) -> None:
    tb = IPTB(dut)
    await tb.bring_up(ring=1)
    depth = tb.p["TRACE_DEPTH"]
    events = 2 * depth + 7
    irq = [10 + 20 * k for k in range(events)]
    ack = [c + 1 + (k % 13) for k, c in enumerate(irq)]
    await tb.drive(waveform(Stimulus(irq, ack)))
    await tb.settle(30)
    e = tb.expected(ring=True)
    assert e.trace_wrapped and e.trace_count == events
    await tb.check_registers(e, ring=True)
    # consistent-window protocol: the samples still in the RAM are the last `depth`
    count = await tb.read("TRACE_COUNT")
    kept = [await tb.read_trace(k % depth) for k in range(count - depth, count)]
    assert kept == [min(v, (1 << tb.p["TRACE_WIDTH"]) - 1) for v in e.samples[-depth:]]


@cocotb.test()
async def stop_mode_counts_lost_samples(dut) -> None:
    tb = IPTB(dut)
    await tb.bring_up(ring=0, irq_enable=tb.map.bit("IRQ_ENABLE", "TRACE_FULL"))
    depth = tb.p["TRACE_DEPTH"]
    events = depth + 5
    irq = [10 + 12 * k for k in range(events)]
    ack = [c + 3 for c in irq]
    await tb.drive(waveform(Stimulus(irq, ack)))
    await tb.settle(20)
    e = tb.expected()
    assert e.trace_lost == 5 or e.trace_lost == (1 << tb.p["COUNTER_WIDTH"]) - 1
    await tb.check_registers(e)
    status = await tb.read("IRQ_STATUS")
    assert tb.map.get("IRQ_STATUS", "TRACE_FULL", status) == 1
    assert int(dut.irq_out.value) == 1


@cocotb.test()
async def trigger_modes(dut) -> None:
    """Falling edges and levels, against the cycle-level model."""
    tb = IPTB(dut)
    rng = random.Random(7)
    for irq_mode, ack_mode in ((1, 1), (0, 1), (1, 0), (2, 0), (0, 2), (3, 3), (2, 2)):
        # random levels with runs of 1..12 cycles, starting idle for the active-low modes
        irq_idle = 1 if irq_mode in (1, 3) else 0
        ack_idle = 1 if ack_mode in (1, 3) else 0
        await tb.bring_up(
            irq_mode=irq_mode, ack_mode=ack_mode, timeout=40, idle_irq=irq_idle, idle_ack=ack_idle
        )
        tb.events.clear()
        length = 600
        irq_lv, ack_lv = [], []
        for idle, out in ((irq_idle, irq_lv), (ack_idle, ack_lv)):
            value = idle
            while len(out) < length:
                out.extend([value] * rng.randint(1, 12))
                value ^= 1
            del out[length:]
            out[:3] = [idle] * 3
        changes = [(0, irq_lv[0], ack_lv[0])]
        changes += [
            (
                c,
                irq_lv[c] if irq_lv[c] != irq_lv[c - 1] else None,
                ack_lv[c] if ack_lv[c] != ack_lv[c - 1] else None,
            )
            for c in range(1, length)
        ]
        await tb.drive([c for c in changes if c[1] is not None or c[2] is not None])
        await tb.settle(60)
        tail = [irq_lv[-1]] * 60, [ack_lv[-1]] * 60
        model = core_cycle_model(
            irq_lv + tail[0], ack_lv + tail[1], irq_mode, ack_mode, 40, tb.p["CNT_WIDTH"]
        )
        check(tb, model)
        assert any(o.kind == Kind.SAMPLE for o in model), (irq_mode, ack_mode)


@cocotb.test()
async def enable_disable_clear_reset(dut) -> None:
    """Each at any moment leaves a consistent state."""
    tb = IPTB(dut)
    await tb.bring_up()
    # a measurement pending when the core is disabled still completes
    await tb.drive([(5, 1, None), (6, 0, None)])  # irq
    await tb.settle(10)
    assert tb.map.get("STATUS", "BUSY", await tb.read("STATUS")) == 1
    await tb.write("CTRL", tb.ctrl(enable=0))
    await tb.drive([(3, 1, None), (4, 0, None)])  # irq while disabled: not counted
    await tb.drive([(3, None, 1), (4, None, 0)])  # ack: ends the pending measurement
    await tb.settle(10)
    assert [e.kind for e in tb.events] == [Kind.SAMPLE]
    assert await tb.read("COUNT") == 1 and await tb.read("OVERRUNS") == 0
    # an ack while disabled and idle is not counted either
    await tb.drive([(3, None, 1), (4, None, 0)])
    await tb.settle(10)
    assert await tb.read("IGNORED") == 0
    # clear in the middle of a measurement abandons it and zeroes every result
    await tb.write("CTRL", tb.ctrl(enable=1))
    await tb.drive([(3, 1, None), (4, 0, None)])
    await tb.settle(5)
    assert tb.map.get("STATUS", "BUSY", await tb.read("STATUS")) == 1
    await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
    assert tb.map.get("STATUS", "BUSY", await tb.read("STATUS")) == 0
    await tb.drive([(3, None, 1), (4, None, 0)])  # the ack finds nothing pending
    await tb.settle(10)
    assert await tb.read("COUNT") == 0 and await tb.read("IGNORED") == 1
    assert await tb.read("MIN") == (1 << tb.p["CNT_WIDTH"]) - 1
    assert await tb.read("CTRL") == tb.ctrl(enable=1)  # configuration kept
    # measuring works right after a clear
    tb.events.clear()
    await tb.drive([(3, 1, None), (4, 0, None), (10, None, 1), (11, None, 0)])
    await tb.settle(10)
    assert [(e.kind, e.latency) for e in tb.events] == [(Kind.SAMPLE, 7)]
    # reset in the middle of a measurement: everything, configuration included, to reset values
    await tb.drive([(3, 1, None), (4, 0, None)])
    await tb.reset()
    for name in ("CTRL", "COUNT", "STATUS", "TRACE_COUNT", "IRQ_STATUS"):
        assert await tb.read(name) == tb.map.regs[name].reset, name


@cocotb.test()
async def interrupts_and_alarm(dut) -> None:
    """irq_out follows IRQ_STATUS AND IRQ_ENABLE; W1C; the alarm pin is sticky until cleared."""
    tb = IPTB(dut)
    m = tb.map
    sample_bit = m.bit("IRQ_STATUS", "SAMPLE")
    alarm_bit = m.bit("IRQ_STATUS", "ALARM")
    await tb.bring_up(threshold=20, irq_enable=sample_bit)
    await tb.drive([(3, 1, None), (4, 0, None), (8, None, 1), (9, None, 0)])  # latency 5
    await tb.settle(5)
    assert await tb.read("IRQ_STATUS") == sample_bit
    assert int(dut.irq_out.value) == 1 and int(dut.alarm.value) == 0
    await tb.write("IRQ_STATUS", sample_bit)  # write 1 to clear
    await tb.settle(3)
    assert await tb.read("IRQ_STATUS") == 0 and int(dut.irq_out.value) == 0
    # a violation: alarm pin and STATUS.ALARM stay up until IRQ_STATUS.ALARM is cleared
    await tb.drive([(3, 1, None), (4, 0, None), (40, None, 1), (41, None, 0)])  # latency 37
    await tb.settle(5)
    assert int(dut.alarm.value) == 1
    assert await tb.read("IRQ_STATUS") == sample_bit | alarm_bit
    assert await tb.read("VIOLATIONS") == 1
    assert int(dut.irq_out.value) == 1  # SAMPLE enabled; ALARM not
    await tb.write("IRQ_ENABLE", alarm_bit)
    await tb.write("IRQ_STATUS", sample_bit)
    await tb.settle(3)
    assert int(dut.irq_out.value) == 1  # ALARM pending and now enabled
    assert int(dut.alarm.value) == 1  # clearing SAMPLE does not clear the alarm
    await tb.write("IRQ_STATUS", alarm_bit)
    await tb.settle(3)
    assert int(dut.alarm.value) == 0 and int(dut.irq_out.value) == 0
    assert m.get("STATUS", "ALARM", await tb.read("STATUS")) == 0
    assert await tb.read("VIOLATIONS") == 1  # counts stay


@cocotb.test(skip=os.environ.get("SOAK") != "1")
async def soak(dut) -> None:
    """Events replayed by the HDL player; Python only reads over the bus meanwhile."""
    from soak import soak_body

    await soak_body(IPTB(dut))


# ---- pytest: parameter sweep ---------------------------------------------------------------

CONFIGS = {
    "default": {},
    "paper": {"CNT_WIDTH": 16, "TRACE_WIDTH": 16, "COUNTER_WIDTH": 16},
    "depth16-nosync": {"TRACE_DEPTH": 16, "SYNC_STAGES": 0},
    "depth4096-nosync": {"TRACE_DEPTH": 4096, "SYNC_STAGES": 0},
    "cnt16-depth16": {"CNT_WIDTH": 16, "TRACE_DEPTH": 16},
    # everything saturates quickly: 8-bit latencies, 4-bit counters, 10-bit sum, 6-bit trace
    "tiny": {
        "CNT_WIDTH": 8,
        "TRACE_DEPTH": 16,
        "TRACE_WIDTH": 6,
        "COUNTER_WIDTH": 4,
        "SUM_WIDTH": 10,
    },
}


def sources() -> list:
    return rtl(*RTL_FILES) + tb_hdl("tb_latmon")


@pytest.mark.sim
@pytest.mark.parametrize("config", list(CONFIGS))
def test_latmon(config: str) -> None:
    params = {**DEFAULTS, **CONFIGS[config]}
    run_sim(
        toplevel="tb_latmon",
        sources=sources(),
        module="test_latmon",
        build=build_id("latmon", config),
        parameters={**params, "STIM_MAX": 16},
        env={**params, "SEED": sum(params.values())},
        includes=[rtl("latmon")[0].parent],
    )


def run_soak(events: int, sim: str = "verilator", seed: int = 2026) -> tuple[dict, float]:
    """Build and run the soak, then the scoreboard; return its summary and the seconds the
    simulation took (build excluded when the build is up to date)."""
    import time

    from simulate import SIM_BUILD
    from soak import check_soak, soak_stimulus, write_stimulus

    # Verilator hangs with cocotb when the clock is generated in HDL (--timing): there cocotb's
    # C++ clock driver runs it; Icarus toggles the HDL clock natively.
    external_clock = sim == "verilator"
    build = build_id("latmon-soak", sim, events)
    folder = SIM_BUILD / build / "data"
    stim = soak_stimulus(events, seed)
    params = dict(DEFAULTS)
    t0 = time.monotonic()
    run_sim(
        toplevel="tb_latmon",
        sources=sources(),
        module="test_latmon",
        build=build,
        simulator=sim,
        parameters={**params, "STIM_MAX": max(len(stim.irq), len(stim.ack)) + 16},
        env={
            **params,
            "SOAK": "1",
            "SOAK_SEED": seed,
            "SOAK_DIR": folder,
            "TB_EXTERNAL_CLOCK": "1" if external_clock else "0",
            "COCOTB_LOG_LEVEL": "WARNING",
        },
        defines={"TB_EXTERNAL_CLOCK": 1} if external_clock else {},
        testcase="soak",
        includes=[rtl("latmon")[0].parent],
        plusargs=write_stimulus(stim, folder),
    )
    elapsed = time.monotonic() - t0
    return check_soak(folder, stim, params), elapsed


@pytest.mark.sim
@pytest.mark.slow
def test_latmon_soak() -> None:
    """A million random events through the IP (Verilator), the scoreboard after the run."""
    events = int(os.environ.get("LATMON_SOAK_EVENTS", "1000000"))
    summary, seconds = run_soak(events, os.environ.get("LATMON_SOAK_SIM", "verilator"))
    print(f"soak: {summary} in {seconds:.1f} s")
    assert summary["irq"] == events
