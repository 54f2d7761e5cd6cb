"""cocotb tests of the minimal configuration (hw/rtl/latmon_min.v), seen from its AXI4-Lite slave.

Every check is against a reference: the register map compiled from hw/regs/latmon.rdl, the
event-level model of the core (model/latmon_core_model.py: the same latency definition as the
full IP) and the register model (model/latmon_model.py, stop mode). The address decode is the
documented one (docs/hw/latmon.md, "The minimal configuration"): `answer` below. pytest sweeps the
parameters; each configuration builds in its own sim_build folder.
"""

from __future__ import annotations

import ctypes
import os
import random

import cocotb
import pytest
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiResp
from latmon_driver import Config, SimDriver, Stats, build_driver
from latmon_ip import CONFIGS, MIN_DEFAULTS
from latmon_tb import TB, Stimulus, check, random_stimulus, waveform
from model.latmon_core_model import Kind, core_model
from model.latmon_model import Expected, expected_registers
from regmap import regmap
from simulate import GENERATED, SIM_BUILD, build_id, ip_modules, rtl, run_sim, tb_hdl

PARAMS = ("CNT_WIDTH", "SYNC_STAGES", "TRACE_DEPTH")
DEFAULTS = MIN_DEFAULTS
# The registers the minimal configuration has; every other one of the RDL is absent.
PRESENT = ("ID", "VERSION", "CAPS", "CTRL", "STATUS", "TRACE_COUNT")


def lowest_bit(value: int) -> int:
    return (value & -value).bit_length() - 1


def decode_bits() -> tuple[int, int, int]:
    """The address bits a read decodes besides 3:2 (as latmon_min.v finds them from the map):
    the trace window's, the one that puts STATUS and TRACE_COUNT apart from ID..CTRL, and the one
    between STATUS and TRACE_COUNT."""
    m = regmap()
    return (
        lowest_bit(m.mems["TRACE"].offset),
        lowest_bit(m.offset("STATUS")),
        lowest_bit(m.offset("STATUS") ^ m.offset("TRACE_COUNT")),
    )


def answer(addr: int, depth: int) -> str | int | None:
    """What an access to `addr` reaches: a present register's name, the trace word's index
    (below TRACE_DEPTH), or None (SLVERR).
    Written from the map, not from the RTL's decode bits: bits 1:0 are ignored, as in the full
    IP."""
    m = regmap()
    word = addr & ~3
    for name in PRESENT:
        if m.offset(name) == word:
            return name
    window = m.mems["TRACE"]
    if window.offset <= word < window.offset + 4 * depth:
        return (word - window.offset) // 4
    return None


class MinTB(TB):
    """latmon_min's testbench: the core's event monitor plus an AXI4-Lite master."""

    def __init__(self, dut) -> None:
        super().__init__(dut, irq="irq_py", ack="ack_py")
        self.p = {k: int(os.environ.get(k, DEFAULTS[k])) for k in PARAMS}
        self.map = regmap()
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)

    async def read_addr(self, addr: int) -> int:
        r = await self.axil.read(addr, 4)
        assert r.resp == AxiResp.OKAY, f"read {addr:#x}: {r.resp}"
        return int.from_bytes(r.data, "little")

    async def read(self, reg: str) -> int:
        return await self.read_addr(self.map.offset(reg))

    async def write_addr(self, addr: int, value: int, resp: AxiResp = AxiResp.OKAY) -> None:
        r = await self.axil.write(addr, value.to_bytes(4, "little"))
        assert r.resp == resp, f"write {addr:#x}: {r.resp}, expected {resp}"

    async def write_ctrl(self, **fields: int) -> None:
        await self.write_addr(self.map.offset("CTRL"), self.fields("CTRL", **fields))

    def fields(self, reg: str, **values: int) -> int:
        out = 0
        for name, v in values.items():
            out |= v << self.map.field(reg, name.upper()).lsb
        return out

    async def read_trace(self, index: int) -> int:
        return await self.read_addr(self.map.mems["TRACE"].offset + 4 * index)

    async def status(self) -> dict[str, int]:
        value = await self.read("STATUS")
        fields = self.map.regs["STATUS"].fields
        return {f.name: self.map.get("STATUS", f.name, value) for f in fields}

    async def bring_up(self, enable: int = 1) -> None:
        """Reset, enable over the bus, start monitoring."""
        await self.reset()
        await self.settle(4)
        await self.write_ctrl(enable=enable)
        await self.start_monitor()

    def expected(self) -> Expected:
        return expected_registers(
            self.events,
            cnt_width=self.p["CNT_WIDTH"],
            trace_depth=self.p["TRACE_DEPTH"],
            trace_width=self.p["CNT_WIDTH"],
            ring=False,
        )

    async def check_trace(self, e: Expected, busy: int) -> None:
        """TRACE_COUNT, STATUS and every word of the trace against the register model."""
        assert await self.read("TRACE_COUNT") == e.trace_count
        want = {f.name: 0 for f in self.map.regs["STATUS"].fields}
        want.update(BUSY=busy, TRACE_FULL=int(e.trace_filled))
        assert await self.status() == want
        for index in range(self.p["TRACE_DEPTH"]):
            assert await self.read_trace(index) == e.trace.get(index, 0), f"trace word {index}"

    async def read_held(self, addr: int, cycles: int, during) -> int:
        """A read whose R waits `cycles` cycles for RREADY while `during` runs: RDATA must hold
        still meanwhile (AXI), and the data is what the address held at the read."""
        dut = self.dut
        self.axil.read_if.r_channel.pause = True
        read = cocotb.start_soon(self.axil.read(addr, 4))
        while not int(dut.s_axil_rvalid.value):
            await RisingEdge(dut.clk)
        await ReadOnly()
        first = int(dut.s_axil_rdata.value)
        task = cocotb.start_soon(during())
        for _ in range(cycles):
            await RisingEdge(dut.clk)
            await ReadOnly()
            assert int(dut.s_axil_rvalid.value) == 1
            assert int(dut.s_axil_rdata.value) == first, "RDATA changed while RVALID waited"
        await task
        self.axil.read_if.r_channel.pause = False
        r = await read
        assert r.resp == AxiResp.OKAY
        return int.from_bytes(r.data, "little")

    async def raw_read(self, addr: int) -> tuple[int, int]:
        """A read driven on the AR and R channels directly (cocotbext-axi aligns the addresses it
        sends); the last bus access of a test (the master's R sink does not see it)."""
        dut = self.dut
        await RisingEdge(dut.clk)
        dut.s_axil_araddr.value = addr
        dut.s_axil_arvalid.value = 1
        dut.s_axil_rready.value = 1
        while True:
            await RisingEdge(dut.clk)
            if int(dut.s_axil_arready.value):
                break
        dut.s_axil_arvalid.value = 0
        while not int(dut.s_axil_rvalid.value):
            await RisingEdge(dut.clk)
        await ReadOnly()
        value, resp = int(dut.s_axil_rdata.value), int(dut.s_axil_rresp.value)
        await RisingEdge(dut.clk)
        dut.s_axil_rready.value = 0
        return value, resp


def expected_caps(p: dict[str, int]) -> int:
    m = regmap()
    value = 0
    for name, v in (
        ("TRACE", 1),
        ("MINIMAL", 1),
        ("CNT_WIDTH", p["CNT_WIDTH"]),
        ("TRACE_DEPTH_LOG2", p["TRACE_DEPTH"].bit_length() - 1),
        ("SYNC_STAGES", p["SYNC_STAGES"]),
        ("TRACE_WIDTH", p["CNT_WIDTH"]),
    ):
        value |= v << m.field("CAPS", name).lsb
    return value  # HIST, STAMP, STIM, IRQ, TIMEOUT, COUNTERS, SUM: 0


@cocotb.test()
async def registers_and_writes(dut) -> None:
    """ID, VERSION, CAPS as the RDL defines them (CAPS.MINIMAL = 1, no option); reset values;
    CTRL keeps ENABLE only (CLEAR is a pulse; TRACE_RING and the modes are absent and read 0);
    WSTRB; a write to a register the minimal configuration lacks answers SLVERR and changes
    nothing, one to a present read-only register or the trace window OKAY and nothing."""
    tb = MinTB(dut)
    m = tb.map
    await tb.reset()
    await tb.settle(2)
    assert await tb.read("ID") == m.regs["ID"].reset
    assert await tb.read("VERSION") == m.regs["VERSION"].reset
    caps = await tb.read("CAPS")
    assert caps == expected_caps(tb.p), f"CAPS {caps:#x}"
    for part in ("HIST", "STAMP", "STIM", "IRQ", "TIMEOUT", "COUNTERS", "SUM"):
        assert m.get("CAPS", part, caps) == 0, part
    for name in ("CTRL", "STATUS", "TRACE_COUNT"):
        assert await tb.read(name) == m.regs[name].reset, name
    # every register the minimal configuration lacks: written with ones, SLVERR, nothing changes
    for reg in m.regs.values():
        if reg.name not in PRESENT:
            await tb.write_addr(reg.offset, 0xFFFFFFFF, AxiResp.SLVERR)
    for name in ("ID", "VERSION", "CAPS", "STATUS", "TRACE_COUNT"):  # read-only: ignored
        await tb.write_addr(m.offset(name), 0xFFFFFFFF)
    await tb.write_addr(0x400C, 0xFFFFFFFF)  # the trace window: ignored
    beyond = m.mems["TRACE"].offset + 4 * tb.p["TRACE_DEPTH"]  # the first word past the trace
    for addr in (beyond, 0x800C, 0xC00C, 0xFFFC):  # and the histogram window, beyond the map
        await tb.write_addr(addr, 0xFFFFFFFF, AxiResp.SLVERR)
    await tb.settle(4)
    assert await tb.read("CTRL") == 0
    assert await tb.read("TRACE_COUNT") == 0
    # CTRL: all ones reads back ENABLE only
    await tb.write_addr(m.offset("CTRL"), 0xFFFFFFFF)
    assert await tb.read("CTRL") == m.bit("CTRL", "ENABLE")
    # byte strobes: a write of bytes 1..3 leaves ENABLE (byte 0) as it is
    r = await tb.axil.write(m.offset("CTRL") + 1, b"\x00\x00\x00")
    assert r.resp == AxiResp.OKAY
    assert await tb.read("CTRL") == m.bit("CTRL", "ENABLE")
    await tb.write_ctrl(enable=0)
    assert await tb.read("CTRL") == 0
    # the low two address bits are ignored (AXI4-Lite masters send aligned addresses)
    for low in (1, 2, 3):
        assert await tb.raw_read(m.offset("ID") + low) == (m.regs["ID"].reset, 0), low
    assert int(dut.alarm.value) == 0 and int(dut.irq_out.value) == 0


@cocotb.test()
async def measure_and_trace(dut) -> None:
    """Random irq/ack traffic: every event of the core to the cycle against the model, then
    TRACE_COUNT, STATUS and every trace word against the register model (stop mode)."""
    tb = MinTB(dut)
    await tb.bring_up()
    rng = random.Random(int(os.environ.get("SEED", "1")))
    stim = random_stimulus(rng, 1500, 400)
    end = await tb.drive(waveform(stim))
    await tb.settle(20)
    model = core_model(stim.irq, stim.ack, tb.p["CNT_WIDTH"], 0, end_cycle=end)
    check(tb, model)
    n = {k: sum(1 for o in model if o.kind == k) for k in Kind}
    busy = len(stim.irq) - n[Kind.OVERRUN] - n[Kind.SAMPLE]  # started, not yet ended
    assert busy in (0, 1) and n[Kind.SAMPLE] > tb.p["TRACE_DEPTH"] // 4
    e = tb.expected()
    await tb.check_trace(e, busy)


@cocotb.test()
async def stop_mode_keeps_the_first_samples(dut) -> None:
    """TRACE_DEPTH + 5 samples: the trace keeps the first TRACE_DEPTH, TRACE_FULL rises,
    TRACE_COUNT stops at TRACE_DEPTH; CLEAR empties it and the next sample is word 0 again."""
    tb = MinTB(dut)
    await tb.bring_up()
    depth = tb.p["TRACE_DEPTH"]
    irq = [10 + 20 * k for k in range(depth + 5)]
    ack = [c + 1 + (k % 13) for k, c in enumerate(irq)]
    await tb.drive(waveform(Stimulus(irq, ack)))
    await tb.settle(20)
    check(tb, core_model(irq, ack, tb.p["CNT_WIDTH"]))
    e = tb.expected()
    assert e.trace_filled and e.trace_count == depth
    await tb.check_trace(e, busy=0)
    await tb.write_ctrl(enable=1, clear=1)
    assert await tb.read("TRACE_COUNT") == 0
    assert (await tb.status())["TRACE_FULL"] == 0
    assert await tb.read("CTRL") == tb.fields("CTRL", enable=1)  # ENABLE kept
    tb.events.clear()
    await tb.drive(waveform(Stimulus([5], [5 + 3])))
    await tb.settle(10)
    assert [(o.kind, o.latency) for o in tb.events] == [(Kind.SAMPLE, 3)]
    assert await tb.read("TRACE_COUNT") == 1
    assert await tb.read_trace(0) == 3
    assert await tb.read_trace(1) == e.trace[1]  # the RAM is not erased, only the count


@cocotb.test()
async def enable_busy_clear_reset(dut) -> None:
    """ENABLE = 0 ignores irq events but lets a pending measurement end; BUSY; CLEAR abandons a
    pending measurement and keeps the configuration; reset returns every register to its reset
    value."""
    tb = MinTB(dut)
    await tb.bring_up()
    await tb.drive([(5, 1, None), (6, 0, None)])  # irq
    await tb.settle(10)
    assert (await tb.status())["BUSY"] == 1
    await tb.write_ctrl(enable=0)
    await tb.drive([(3, 1, None), (4, 0, None)])  # irq while disabled: nothing
    await tb.drive([(3, None, 1), (4, None, 0)])  # ack: ends the pending measurement
    await tb.settle(10)
    assert [o.kind for o in tb.events] == [Kind.SAMPLE]
    assert (await tb.status())["BUSY"] == 0
    assert await tb.read("TRACE_COUNT") == 1
    # disabled: a whole irq/ack pair measures nothing
    await tb.drive(waveform(Stimulus([3], [9])))
    await tb.settle(10)
    assert [o.kind for o in tb.events] == [Kind.SAMPLE]
    assert await tb.read("TRACE_COUNT") == 1
    # CLEAR in the middle of a measurement abandons it
    await tb.write_ctrl(enable=1)
    await tb.drive([(3, 1, None), (4, 0, None)])
    await tb.settle(5)
    assert (await tb.status())["BUSY"] == 1
    await tb.write_ctrl(enable=1, clear=1)
    assert (await tb.status())["BUSY"] == 0
    assert await tb.read("TRACE_COUNT") == 0
    await tb.drive([(3, None, 1), (4, None, 0)])  # the ack finds nothing pending
    await tb.settle(10)
    assert await tb.read("TRACE_COUNT") == 0
    assert tb.events[-1].kind == Kind.IGNORED
    tb.events.clear()
    await tb.drive(waveform(Stimulus([3], [10])))
    await tb.settle(10)
    assert [(o.kind, o.latency) for o in tb.events] == [(Kind.SAMPLE, 7)]
    assert await tb.read_trace(0) == 7
    # reset in the middle of a measurement
    await tb.drive([(3, 1, None), (4, 0, None)])
    await tb.reset()
    for name in PRESENT:
        assert await tb.read(name) == (
            expected_caps(tb.p) if name == "CAPS" else tb.map.regs[name].reset
        ), name


@cocotb.test()
async def every_other_address_answers_slverr(dut) -> None:
    """The documented decode: the six registers and the TRACE_DEPTH words of the trace answer
    OKAY with their value, every other address SLVERR (its data is undefined, as in AXI) — the
    addresses that share the multiplexer's decoded bits with a present register included."""
    tb = MinTB(dut)
    assert decode_bits() == (14, 4, 6)  # as latmon_min.v's multiplexer finds them
    depth = tb.p["TRACE_DEPTH"]
    await tb.bring_up()
    latencies = [3, 5, 9]
    irq = [10 + 30 * k for k in range(len(latencies))]
    ack = [c + lat for c, lat in zip(irq, latencies, strict=True)]
    await tb.drive(waveform(Stimulus([*irq, 200], ack)))  # the last irq stays pending: BUSY
    await tb.settle(10)
    values = {name: await tb.read(name) for name in PRESENT}
    assert values["TRACE_COUNT"] == 3 and values["STATUS"] == tb.map.bit("STATUS", "BUSY")
    assert [await tb.read_trace(k) for k in range(3)] == latencies
    m = tb.map
    addrs = [r.offset for r in m.regs.values()] + [0x3FC, 0x3000, 0x8000, 0xC000, 0xFFFC]
    addrs += [m.mems["TRACE"].offset + 4 * (depth + k) for k in range(3)]  # beyond the depth
    addrs += [m.mems["HIST"].offset + 4 * k for k in range(3)]
    rng = random.Random(3)
    addrs += [rng.randrange(0, 1 << 16, 4) for _ in range(40)]
    rejected = 0
    for addr in addrs:
        target = answer(addr, depth)
        if target is None:
            r = await tb.axil.read(addr, 4)
            assert r.resp == AxiResp.SLVERR, hex(addr)
            rejected += 1
            continue
        # a trace word as read at its own address (words above TRACE_COUNT hold what earlier
        # tests of this simulation left: a clear or reset resets the count, not the RAM)
        want = await tb.read_trace(target) if isinstance(target, int) else values[target]
        assert await tb.read_addr(addr) == want, f"{addr:#x} reads {target}"
    assert rejected > len(m.regs) - len(PRESENT)  # the absent registers and more
    # beyond the 16-bit map (ADDR_WIDTH 16 here: the bits above are not on the bus)
    assert await tb.raw_read(m.offset("ID") + 2) == (m.regs["ID"].reset, 0)
    assert (await tb.raw_read(m.offset("THRESHOLD") + 1))[1] == 2  # SLVERR, bits 1:0 ignored


@cocotb.test()
async def read_data_holds_while_rready_low(dut) -> None:
    """R's data is the value at the read (AXI: RDATA holds while RVALID waits for RREADY), for
    a register and for a trace word, however the measurement moves meanwhile."""
    tb = MinTB(dut)
    await tb.bring_up()

    async def three_samples() -> None:
        await tb.drive(waveform(Stimulus([2, 20, 40], [6, 25, 47])))
        await tb.settle(5)

    assert await tb.read_held(tb.map.offset("TRACE_COUNT"), 80, three_samples) == 0
    assert await tb.read("TRACE_COUNT") == 3
    assert [(o.kind, o.latency) for o in tb.events] == [(Kind.SAMPLE, lat) for lat in (4, 5, 7)]
    await tb.write_ctrl(enable=1, clear=1)

    async def one_sample() -> None:
        await tb.drive(waveform(Stimulus([2], [11])))
        await tb.settle(5)

    word0 = tb.map.mems["TRACE"].offset
    # word 0 still holds 4 (a clear resets the count, not the RAM); the new sample overwrites it
    assert await tb.read_held(word0, 40, one_sample) == 4
    assert await tb.read_trace(0) == 9
    assert await tb.read("TRACE_COUNT") == 1


@cocotb.test()
async def driver_on_the_minimal_core(dut) -> None:
    """The real C driver (liblatmon) on the minimal core through the simulated bus: it attaches
    (CAPS.MINIMAL), configures, arms, reads STATUS, TRACE_COUNT and the trace, every sample the
    model's, and accesses no other address (every other one answers SLVERR here)."""
    tb = MinTB(dut)
    m = tb.map
    accessed: list[tuple[str, int]] = []

    async def read(offset: int) -> int:
        accessed.append(("read", offset))
        return await tb.read_addr(offset)

    async def write(offset: int, value: int) -> None:
        accessed.append(("write", offset))
        await tb.write_addr(offset, value)

    # its own build folder: test_latmon_driver builds the same library in parallel workers
    drv = SimDriver(build_driver(SIM_BUILD / "liblatmon-min"), read, write)
    dev = ctypes.byref(drv.dev)
    await tb.reset()
    await tb.settle(4)
    drv.check(await drv.call("latmon_attach", dev, ctypes.byref(drv.hal), 100_000_000), "attach")
    caps = drv.dev.caps
    depth, width = tb.p["TRACE_DEPTH"], tb.p["CNT_WIDTH"]
    assert (caps.minimal, caps.trace_depth, caps.cnt_width, caps.trace_width) == (
        1,
        depth,
        width,
        width,
    )
    parts = ("has_hist", "has_stamp", "has_stim", "has_irq", "has_timeout", "has_counters")
    assert not any(getattr(caps, name) for name in (*parts, "has_sum"))
    drv.check(await drv.call("latmon_configure", dev, ctypes.byref(Config())), "configure")
    drv.check(await drv.call("latmon_arm", dev, 1), "arm")
    await tb.start_monitor()
    rng = random.Random(int(os.environ.get("SEED", "1")) + 7)
    stim = random_stimulus(rng, depth + depth // 2, 300)
    await tb.drive(waveform(stim))
    await tb.settle(20)
    check(tb, core_model(stim.irq, stim.ack, width))
    e = tb.expected()
    stats = Stats()
    drv.check(await drv.call("latmon_read_stats", dev, ctypes.byref(stats)), "stats")
    assert stats.trace_count == e.trace_count and stats.count == 0
    assert m.get("STATUS", "TRACE_FULL", stats.status) == int(e.trace_filled)
    buf = (ctypes.c_uint32 * depth)()
    first, n = ctypes.c_uint32(), ctypes.c_size_t()
    drv.check(
        await drv.call("latmon_read_trace", dev, buf, depth, ctypes.byref(first), ctypes.byref(n)),
        "trace",
    )
    assert (first.value, list(buf)[: n.value]) == (0, [e.trace[k] for k in range(e.trace_count)])
    drv.check(await drv.call("latmon_clear", dev), "clear")
    assert await tb.read("TRACE_COUNT") == 0
    window = range(m.mems["TRACE"].offset, m.mems["TRACE"].offset + 4 * depth)
    registers = {m.offset(name) for name in PRESENT}
    for kind, offset in accessed:
        assert offset in registers or offset in window, f"{kind} {offset:#x}"
        assert kind == "read" or offset == m.offset("CTRL"), f"{kind} {offset:#x}"


# ---- pytest: parameter sweep ---------------------------------------------------------------

SWEEP = {
    # the named configuration `minimal` (make synth): 16-bit, 512 deep, no synchronizers
    "minimal": CONFIGS["minimal"].params,
    # latencies that saturate (8 bits), a trace that fills quickly, synchronizers
    "cnt8-depth16-sync2": {"CNT_WIDTH": 8, "TRACE_DEPTH": 16, "SYNC_STAGES": 2},
}


@pytest.mark.sim
@pytest.mark.parametrize("config", list(SWEEP))
def test_latmon_min(config: str) -> None:
    params = {**DEFAULTS, **SWEEP[config]}
    run_sim(
        toplevel="tb_latmon_min",
        sources=rtl(*ip_modules()) + tb_hdl("tb_latmon_min"),
        module="test_latmon_min",
        build=build_id("latmon_min", config),
        parameters=params,
        env={**params, "SEED": sum(params.values())},
        includes=[GENERATED],
    )
