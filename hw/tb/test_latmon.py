"""cocotb tests of the latmon IP (hw/rtl/latmon.v), seen from its AXI4-Lite slave.

Every check is against a reference: the register map compiled from hw/regs/latmon.rdl, the
event-level and cycle-level models of the core, and the register model (model/latmon_model.py).
pytest sweeps the parameters; each configuration builds in its own sim_build folder.
"""

from __future__ import annotations

import os
import random

import cocotb
import numpy as np
import pytest
from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiResp
from latmon_ip import CONFIGS as NAMED
from latmon_ip import (
    DEFAULTS,
    IPTB,
    OPTIONS_OFF,
    RTL_FILES,
    SMALL_TIMING,
    caps,
    caps2,
    present,
    sources,
)
from latmon_tb import CLOCK_NS, Stimulus, check, random_stimulus, waveform
from model.latmon_core_model import Kind, core_model
from model.latmon_hist_model import histogram
from model.latmon_model import core_cycle_model
from model.latmon_stamp_model import stamp_model
from simulate import GENERATED, build_id, clock_of, run_sim
from soak import netlist_soak, run_soak

# soc_sim.py, linux_soc.py and test_refdesign.py take the IP's file list from here.
__all__ = ["RTL_FILES"]

# Registers that change by themselves (the free-running timebase).
VOLATILE = {"STAMP_TIME_LO", "STAMP_TIME_HI"}


@cocotb.test()
async def register_map_matches_rdl(dut) -> None:
    """Every register of the RDL: address, reset value and access type, as the RTL has them."""
    tb = IPTB(dut)
    await tb.reset()
    await tb.settle(1 << (tb.p["HIST_BINS_LOG2"] + 1))  # the histogram clears its banks
    m = tb.map
    for reg in m.regs.values():
        mask = (1 << tb.width_of(reg.name)) - 1
        value, resp = await tb.read_addr(reg.offset)
        if not present(tb.p, reg.name):
            assert resp == AxiResp.SLVERR, f"{reg.name} answers in a build without its part"
            w = await tb.axil.write(reg.offset, b"\xff\xff\xff\xff")
            assert w.resp == AxiResp.SLVERR, reg.name
            continue
        assert resp == AxiResp.OKAY, f"{reg.name} at {reg.offset:#x} is not mapped"
        if reg.name in VOLATILE:
            continue
        want = {"CAPS": caps(tb.p), "CAPS2": caps2(tb.p)}.get(reg.name, reg.reset & mask)
        assert value == want, f"{reg.name}: reset {value:#x}, RDL says {want:#x}"
    # access types: write all ones, read back
    for reg in m.regs.values():
        if reg.name in ("CTRL", "STIM_CTRL") or reg.name in VOLATILE:
            continue  # CTRL would start measuring, STIM_CTRL the stimulus: checked below
        if not present(tb.p, reg.name):
            continue
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
    # STIM_CTRL: MODE, LOOP and STAMP read back (without START: nothing runs)
    if tb.p["HAS_STIM"]:
        fields = m.bit("STIM_CTRL", "MODE") | m.bit("STIM_CTRL", "LOOP")
        fields |= m.bit("STIM_CTRL", "STAMP") | m.bit("STIM_CTRL", "STOP")
        await tb.write("STIM_CTRL", fields)
        assert await tb.read("STIM_CTRL") == fields & ~m.bit("STIM_CTRL", "STOP")
        assert await tb.read("STIM_SENT") == 0
    # byte strobes: a write of byte 1 only changes byte 1 (a value that no longer fits the
    # register's width saturates: an 8-bit THRESHOLD with byte 1 written reads all ones)
    cnt_max = (1 << tb.p["CNT_WIDTH"]) - 1
    await tb.write("THRESHOLD", 0x11223344 & cnt_max)
    r = await tb.axil.write(m.offset("THRESHOLD") + 1, b"\xab")
    assert r.resp == AxiResp.OKAY
    assert await tb.read("THRESHOLD") == min(((0x11223344 & cnt_max) & ~0xFF00) | 0xAB00, cnt_max)
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
    # the histogram window: bins answer (zero beyond their number), or SLVERR without the part
    hist = m.mems["HIST"]
    for index in (0, (1 << tb.p["HIST_BINS_LOG2"]) - 1, hist.entries - 1):
        value, resp = await tb.read_addr(hist.offset + 4 * index)
        if tb.p["HAS_HIST"]:
            assert (value, resp) == (0, AxiResp.OKAY), index
        else:
            assert resp == AxiResp.SLVERR
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
    model = core_model(
        stim.irq, stim.ack, tb.p["CNT_WIDTH"], tb.timeout(timeout), end_cycle=end + timeout
    )
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
    has_irq = tb.has("IRQ_STATUS")
    depth = tb.p["TRACE_DEPTH"]
    events = depth + 5
    irq = [10 + 12 * k for k in range(events)]
    ack = [c + 3 for c in irq]
    await tb.drive(waveform(Stimulus(irq, ack)))
    await tb.settle(20)
    e = tb.expected()
    assert e.trace_lost == 5 or e.trace_lost == (1 << tb.p["COUNTER_WIDTH"]) - 1
    await tb.check_registers(e)
    if has_irq:
        status = await tb.read("IRQ_STATUS")
        assert tb.map.get("IRQ_STATUS", "TRACE_FULL", status) == 1
    assert int(dut.irq_out.value) == int(has_irq)


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
            irq_lv + tail[0],
            ack_lv + tail[1],
            irq_mode,
            ack_mode,
            tb.timeout(40),
            tb.p["CNT_WIDTH"],
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
    assert await tb.read("COUNT") == 1
    if tb.has("OVERRUNS"):
        assert await tb.read("OVERRUNS") == 0
    # an ack while disabled and idle is not counted either (and reported as no event at all)
    await tb.drive([(3, None, 1), (4, None, 0)])
    await tb.settle(10)
    assert [e.kind for e in tb.events] == [Kind.SAMPLE]
    if tb.has("IGNORED"):
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
    assert await tb.read("COUNT") == 0
    if tb.has("IGNORED"):
        assert await tb.read("IGNORED") == 1
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
        if tb.has(name):
            assert await tb.read(name) == tb.map.regs[name].reset, name


@cocotb.test()
async def interrupts_and_alarm(dut) -> None:
    """irq_out follows IRQ_STATUS AND IRQ_ENABLE; W1C; the alarm pin is sticky until cleared."""
    tb = IPTB(dut)
    m = tb.map
    if not tb.has("IRQ_STATUS"):
        return
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
    # the alarm pin rises SYNC_STAGES + 4 cycles after the ack, one more with the timestamp
    # mode built in (the sample register after the source select), one less with the
    # statistics' comparisons unpipelined (docs/hw/latmon.md, timing)
    await tb.settle(
        tb.p["SYNC_STAGES"]
        + 4
        + (1 if tb.p["HAS_STAMP"] else 0)
        - (0 if tb.p["PIPE_COMPARE"] else 1)
    )
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


@cocotb.test()
async def histogram_over_the_bus(dut) -> None:
    """Random irq/ack events: the histogram read over the bus (two snapshots, summed) equals
    the model's histogram of the latencies the core measured."""
    tb = IPTB(dut)
    if not tb.p["HAS_HIST"]:
        return
    cnt_max = (1 << tb.p["CNT_WIDTH"]) - 1
    timeout = min(300, cnt_max)
    start, shift = 20, 1
    await tb.bring_up(timeout=timeout)
    await tb.settle(1 << (tb.p["HIST_BINS_LOG2"] + 1))  # the banks' clear after reset
    await tb.write("HIST_START", start)
    await tb.write("HIST_SHIFT", shift)
    rng = random.Random(int(os.environ.get("SEED", "1")) + 5)
    first = random_stimulus(rng, 400, timeout + 20)
    end = await tb.drive(waveform(first))
    await tb.settle(timeout + 20)
    bank = await tb.read_bank()
    second = random_stimulus(rng, 400, timeout + 20)
    await tb.drive(waveform(second))
    await tb.settle(timeout + 20)
    bank = bank.add(await tb.read_bank())
    latencies = np.array([e.latency for e in tb.events if e.kind == Kind.SAMPLE], dtype=np.int64)
    want = histogram(latencies, start, shift, tb.p["HIST_BINS_LOG2"])
    assert len(latencies) > 100 and end > 0
    assert np.array_equal(bank.bins, want.bins)
    assert (bank.underflow, bank.overflow, bank.count, bank.total, bank.min, bank.max) == (
        want.underflow,
        want.overflow,
        want.count,
        want.total,
        want.min,
        want.max,
    )
    assert await tb.read("HIST_SNAPSHOTS") == 2


async def drive_stamp_events(tb: IPTB, starts: dict[int, int], ends: dict[int, int]) -> int:
    """Put timestamp-mode start and end events (cycle -> ID, counted from the next falling
    edge) on the IP's inputs; return the last cycle driven. The inputs reach the IP at the
    rising edge after their cycle."""
    dut = tb.dut
    await RisingEdge(dut.clk)
    await Timer(CLOCK_NS // 2, unit="ns")
    now = 0
    for c in sorted(set(starts) | set(ends) | {c + 1 for c in (*starts, *ends)}):
        await Timer((c - now) * CLOCK_NS, unit="ns")
        now = c
        dut.start_valid.value = int(c in starts)
        dut.start_id.value = starts.get(c, 0)
        dut.end_valid.value = int(c in ends)
        dut.end_id.value = ends.get(c, 0)
    return now


async def play_stamp_events(tb: IPTB, starts: dict[int, int], ends: dict[int, int]):
    """drive_stamp_events, let the IP settle, and return what the timestamp model (no timeout)
    says of the events."""
    now = await drive_stamp_events(tb, starts, ends)
    await tb.settle(20)
    return stamp_model(
        {c + 1: i for c, i in starts.items()},
        {c + 1: i for c, i in ends.items()},
        tb.p["STAMP_ENTRIES"],
        0,
        0,
        now + 2,
        0,
        tb.p["CNT_WIDTH"],
    )


@cocotb.test()
async def stamp_over_the_bus(dut) -> None:
    """Timestamp mode: requests and out-of-order responses on the start/end inputs; the
    statistics and trace hold the matched latencies, the counters account for every event."""
    tb = IPTB(dut)
    if not tb.p["HAS_STAMP"]:
        return
    await tb.bring_up()
    await tb.write("STAMP_CTRL", tb.fields("STAMP_CTRL", enable=1))
    rng = random.Random(int(os.environ.get("SEED", "1")) + 9)
    id_mask = (1 << tb.p["ID_WIDTH"]) - 1
    starts, ends, t = {}, {}, 10
    for k in range(60):
        t += rng.randint(1, 8)
        starts[t] = k & id_mask
        if k % 7:  # every 7th response is lost
            c = t + rng.randint(1, 60)
            while c in ends:
                c += 1
            ends[c] = k & id_mask
    ends[t + 100] = 0x55 & id_mask if 0x55 & id_mask >= 60 else id_mask  # unknown ID
    want = await play_stamp_events(tb, starts, ends)
    got = {
        name: await tb.read(f"STAMP_{name.upper()}")
        for name in ("matched", "unmatched", "timeouts", "full", "duplicates", "outstanding")
    }
    assert got == {
        "matched": want.matched,
        "unmatched": want.unmatched,
        "timeouts": 0,
        "full": want.full,
        "duplicates": want.duplicates,
        "outstanding": want.outstanding,
    }
    latencies = [lat for _, lat in want.samples]
    assert await tb.read("COUNT") == len(latencies)
    assert await tb.read("MAX") == max(latencies)
    depth = tb.p["TRACE_DEPTH"]
    cap = (1 << tb.p["TRACE_WIDTH"]) - 1
    for k, lat in enumerate(latencies[:depth]):
        assert await tb.read_trace(k) == min(lat, cap), k


@cocotb.test()
async def stamp_clear_around_a_match(dut) -> None:
    """CTRL.CLEAR written at every moment around one start/end pair: the statistics count the
    match exactly when STAMP_MATCHED does (the timestamp mode takes the pulse a cycle later, so a
    match decided before it must not reach the statistics after it), and a read after the
    write's response sees every STAMP_* counter cleared."""
    tb = IPTB(dut)
    if not tb.p["HAS_STAMP"]:
        return
    await tb.bring_up()
    await tb.write("STAMP_CTRL", tb.fields("STAMP_CTRL", enable=1))
    outcomes = set()
    for delay in range(24):
        # start (ID 3) in cycle 1, its end in cycle 4; CTRL.CLEAR written from cycle `delay`
        events = cocotb.start_soon(drive_stamp_events(tb, {1: 3}, {4: 3}))
        await ClockCycles(dut.clk, delay)
        await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
        if delay >= 14:  # every event was decided and counted before the pulse
            for name in ("MATCHED", "UNMATCHED", "OUTSTANDING", "FULL", "DUPLICATES"):
                assert await tb.read(f"STAMP_{name}") == 0, (delay, name)
        await events
        await tb.settle(20)
        got = {
            name: await tb.read(name)
            for name in (
                "COUNT",
                "TRACE_COUNT",
                "STAMP_MATCHED",
                "STAMP_UNMATCHED",
                "STAMP_OUTSTANDING",
            )
        }
        assert got["COUNT"] == got["STAMP_MATCHED"] == got["TRACE_COUNT"], (delay, got)
        # the pair whole after the clear, its end alone (its start cleared), or nothing left
        assert (got["STAMP_MATCHED"], got["STAMP_UNMATCHED"]) in ((1, 0), (0, 1), (0, 0)), (
            delay,
            got,
        )
        assert got["STAMP_OUTSTANDING"] == 0, (delay, got)
        outcomes.add((got["STAMP_MATCHED"], got["STAMP_UNMATCHED"]))
        await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
        await tb.settle(4)
    assert outcomes == {(1, 0), (0, 1), (0, 0)}, outcomes


@cocotb.test()
async def min_max_exact_for_samples_in_consecutive_cycles(dut) -> None:
    """The statistics compare a sample a cycle before they apply it (docs/hw/latmon.md), so with
    samples in consecutive cycles MIN and MAX must take the one before into account: after a new
    MIN (MAX), a sample between it and the old MIN (MAX) must not replace it. Timestamp mode ends
    one measurement per cycle: latencies 4, 1, 3 (MIN 1, not 3), then after a clear 1, 3, 2 (MAX
    3, not 2)."""
    tb = IPTB(dut)
    if not tb.p["HAS_STAMP"]:
        return
    await tb.bring_up()
    await tb.write("STAMP_CTRL", tb.fields("STAMP_CTRL", enable=1))

    async def play(latencies: list[int], first_id: int) -> None:
        """End one measurement per cycle with these latencies (starts in distinct cycles)."""
        end0 = 10
        starts = {end0 + j - lat: first_id + j for j, lat in enumerate(latencies)}
        ends = {end0 + j: first_id + j for j in range(len(latencies))}
        assert len(starts) == len(latencies), "two starts in one cycle"
        want = await play_stamp_events(tb, starts, ends)
        assert [lat for _, lat in want.samples] == latencies  # the model agrees
        assert await tb.read("COUNT") == len(latencies)
        assert await tb.read("MIN") == min(latencies)
        assert await tb.read("MAX") == max(latencies)
        assert await tb.read("LAST") == latencies[-1]
        if tb.has("SUM_LO"):
            assert await tb.read("SUM_LO") == sum(latencies)

    await play([4, 1, 3], first_id=1)
    await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
    await play([1, 3, 2], first_id=4)


@cocotb.test()
async def stimulus_drives_the_monitor(dut) -> None:
    """The stimulus as start events (STIM_CTRL.STAMP): a model device answers each ID after a
    fixed delay, so every latency equals that delay; then LOOP into the irq input without any
    ack: the first pulse starts a measurement, every further one is an overrun."""
    tb = IPTB(dut)
    if not (tb.p["HAS_STIM"] and tb.p["HAS_STAMP"]):
        return
    await tb.bring_up(irq_enable=tb.fields("IRQ_ENABLE", stim_done=1))
    delay, pulses = 9, 40
    await tb.write("STAMP_CTRL", tb.fields("STAMP_CTRL", enable=1))
    await tb.write("STIM_PERIOD", 23)
    await tb.write("STIM_TOTAL", pulses)

    async def device() -> None:
        for _ in range(pulses):
            await RisingEdge(dut.stim_out)
            await ReadOnly()  # the ID settles in the same time step as the pulse
            pulse_id = int(dut.stim_id.value)
            # mid-cycle, `delay` cycles after the pulse's cycle (never on a clock edge)
            await Timer(delay * CLOCK_NS + CLOCK_NS // 2, unit="ns")
            dut.end_valid.value = 1
            dut.end_id.value = pulse_id
            await Timer(CLOCK_NS, unit="ns")
            dut.end_valid.value = 0

    answering = cocotb.start_soon(device())
    await tb.write("STIM_CTRL", tb.fields("STIM_CTRL", start=1, stamp=1))
    await answering
    await tb.settle(20)
    assert await tb.read("STIM_SENT") == pulses
    assert tb.map.get("STIM_STATUS", "DONE", await tb.read("STIM_STATUS")) == 1
    assert tb.map.get("IRQ_STATUS", "STIM_DONE", await tb.read("IRQ_STATUS")) == 1
    assert int(dut.irq_out.value) == 1
    stamp = {n: await tb.read(f"STAMP_{n}") for n in ("MATCHED", "UNMATCHED", "FULL", "DUPLICATES")}
    assert await tb.read("COUNT") == pulses, stamp
    assert (await tb.read("MIN"), await tb.read("MAX")) == (delay, delay)
    assert await tb.read("STAMP_MATCHED") == pulses
    # LOOP: the pulses enter the irq input; nothing acknowledges them
    await tb.write("STAMP_CTRL", 0)
    await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
    await tb.write("STIM_TOTAL", 10)
    await tb.write("STIM_CTRL", tb.fields("STIM_CTRL", start=1, loop=1))
    await tb.settle(23 * 10 + 20)
    assert await tb.read("OVERRUNS") == 9
    assert tb.map.get("STATUS", "BUSY", await tb.read("STATUS")) == 1


@cocotb.test()
async def stimulus_is_the_only_start_source(dut) -> None:
    """With STIM_CTRL.STAMP = 1 the stimulus's pulses are the timestamp mode's only starts: a
    start held on the start inputs through the whole run (in every pulse's cycle and between)
    is not looked at; with STAMP = 0 again, the inputs are starts as before."""
    tb = IPTB(dut)
    if not (tb.p["HAS_STIM"] and tb.p["HAS_STAMP"]):
        return
    await tb.bring_up()
    pulses = min(10, tb.p["STAMP_ENTRIES"] - 1)  # every pulse and the last start find an entry
    await tb.write("STAMP_CTRL", tb.fields("STAMP_CTRL", enable=1))
    await tb.write("STIM_PERIOD", 23)
    await tb.write("STIM_TOTAL", pulses)
    await tb.write("STIM_CTRL", tb.fields("STIM_CTRL", stamp=1))  # the source, nothing runs
    dut.start_id.value = 0xAB & ((1 << tb.p["ID_WIDTH"]) - 1)
    dut.start_valid.value = 1
    await tb.settle(10)
    await tb.write("STIM_CTRL", tb.fields("STIM_CTRL", start=1, stamp=1))
    await tb.settle(23 * pulses + 20)
    assert await tb.read("STIM_SENT") == pulses
    got = {n: await tb.read(f"STAMP_{n}") for n in ("OUTSTANDING", "FULL", "DUPLICATES")}
    assert got == {"OUTSTANDING": pulses, "FULL": 0, "DUPLICATES": 0}, got
    # STAMP = 0 (with the start still held): the input's start is taken, once; the rest of the
    # held cycles are duplicates of it
    await tb.write("STIM_CTRL", 0)
    await tb.settle(4)
    dut.start_valid.value = 0
    await tb.settle(20)
    got = {n: await tb.read(f"STAMP_{n}") for n in ("OUTSTANDING", "FULL")}
    assert got == {"OUTSTANDING": pulses + 1, "FULL": 0}, got
    assert await tb.read("STAMP_DUPLICATES") > 0


@cocotb.test()
async def threshold_and_timeout_saturate(dut) -> None:
    """A THRESHOLD or TIMEOUT that does not fit CNT_WIDTH bits is stored as all ones and reads
    back so: it never wraps (THRESHOLD = 1000 with an 8-bit counter is 255, not 232, so a
    240-cycle latency is no violation; TIMEOUT = 256 is 255 cycles, not 0 = never)."""
    tb = IPTB(dut)
    cnt_max = (1 << tb.p["CNT_WIDTH"]) - 1
    if cnt_max >= 0xFFFFFFFF:
        return  # every 32-bit value fits
    await tb.bring_up()
    for value in (cnt_max + 1, max(1000, cnt_max + 1), 0x12345678 | (cnt_max + 1), 0xFFFFFFFF):
        await tb.write("THRESHOLD", value)
        assert await tb.read("THRESHOLD") == cnt_max, hex(value)
        if tb.has("TIMEOUT"):
            await tb.write("TIMEOUT", value)
            assert await tb.read("TIMEOUT") == cnt_max, hex(value)
    await tb.write("THRESHOLD", cnt_max - 1)
    assert await tb.read("THRESHOLD") == cnt_max - 1  # a value that fits is kept
    if cnt_max > 300:
        return  # the measurements below take 2^CNT_WIDTH cycles each
    await tb.write("THRESHOLD", max(1000, cnt_max + 1))
    if tb.has("TIMEOUT"):
        await tb.write("TIMEOUT", cnt_max + 1)
    latency = cnt_max - 15  # 240 cycles with an 8-bit counter
    await tb.drive([(3, 1, None), (4, 0, None), (3 + latency, None, 1), (4 + latency, None, 0)])
    await tb.settle(10)
    assert [(e.kind, e.latency) for e in tb.events] == [(Kind.SAMPLE, latency)]
    assert int(dut.alarm.value) == 0
    if tb.has("VIOLATIONS"):
        assert await tb.read("VIOLATIONS") == 0
    if tb.has("TIMEOUT"):
        # no ack: the measurement ends after TIMEOUT = 2^CNT_WIDTH - 1 cycles
        tb.events.clear()
        await tb.drive([(3, 1, None), (4, 0, None)])
        await tb.settle(cnt_max - 10)
        assert tb.events == []  # not yet
        await tb.settle(30)
        assert [e.kind for e in tb.events] == [Kind.TIMEOUT]
        assert await tb.read("TIMEOUTS") == 1


@cocotb.test()
async def irq_in_the_timeout_cycle_starts_the_next(dut) -> None:
    """An irq event in the very cycle a measurement times out is not an overrun: the timeout
    ends the pending measurement in that cycle and the irq starts the next one — as an ack and
    an irq in one cycle do (docs/hw/latmon.md, corner cases)."""
    tb = IPTB(dut)
    if not tb.has("TIMEOUT"):
        return
    timeout = 20
    await tb.bring_up(timeout=timeout)
    irq = [10, 10 + timeout, 10 + timeout + 40]  # the second irq in the timeout cycle
    ack = [10 + timeout + 7]
    end = await tb.drive(waveform(Stimulus(irq, ack)))
    await tb.settle(timeout + 20)
    model = core_model(irq, ack, tb.p["CNT_WIDTH"], timeout, end_cycle=end + timeout + 10)
    check(tb, model)
    assert [(e.kind, e.latency) for e in tb.events] == [
        (Kind.TIMEOUT, 0),
        (Kind.SAMPLE, 7),
        (Kind.TIMEOUT, 0),
    ]
    if tb.has("OVERRUNS"):
        assert await tb.read("OVERRUNS") == 0
    assert await tb.read("TIMEOUTS") == 2 and await tb.read("COUNT") == 1


@cocotb.test()
async def saturated_latency_leaves_status_saturated_alone(dut) -> None:
    """A latency above 2^CNT_WIDTH - 1 reads as all ones (LAST, MAX, the trace word); it does not
    set STATUS.SATURATED, which is about statistics and counters that stopped."""
    tb = IPTB(dut)
    cnt_max = (1 << tb.p["CNT_WIDTH"]) - 1
    if cnt_max > 0xFFFF:
        return  # 2^32 cycles: too long to simulate
    await tb.bring_up()
    await tb.drive([(3, 1, None), (4, 0, None), (cnt_max + 50, None, 1), (cnt_max + 51, None, 0)])
    await tb.settle(10)
    assert [(e.kind, e.latency, e.saturated) for e in tb.events] == [(Kind.SAMPLE, cnt_max, True)]
    assert await tb.read("LAST") == cnt_max and await tb.read("MAX") == cnt_max
    assert await tb.read_trace(0) == min(cnt_max, (1 << tb.p["TRACE_WIDTH"]) - 1)
    assert tb.map.get("STATUS", "SATURATED", await tb.read("STATUS")) == 0


@cocotb.test()
async def clear_clears_every_interrupt(dut) -> None:
    """CTRL.CLEAR clears every IRQ_STATUS bit (and so irq_out), whatever set it."""
    tb = IPTB(dut)
    if not tb.has("IRQ_STATUS"):
        return
    m = tb.map
    await tb.bring_up(threshold=2, irq_enable=0x7F, timeout=50)
    # a sample with a violation, an overrun, a timeout
    await tb.drive([(3, 1, None), (4, 0, None), (8, None, 1), (9, None, 0)])
    await tb.drive([(3, 1, None), (4, 0, None), (6, 1, None), (7, 0, None)])
    await tb.settle(80)
    want = {"SAMPLE", "ALARM", "OVERRUN"} | ({"TIMEOUT"} if tb.has("TIMEOUT") else set())
    status = await tb.read("IRQ_STATUS")
    assert {
        f.name for f in m.regs["IRQ_STATUS"].fields if m.get("IRQ_STATUS", f.name, status)
    } >= want
    assert int(dut.irq_out.value) == 1
    await tb.write("CTRL", tb.ctrl(enable=1, clear=1))
    assert await tb.read("IRQ_STATUS") == 0
    await tb.settle(2)
    assert int(dut.irq_out.value) == 0 and int(dut.alarm.value) == 0


@cocotb.test()
async def low_address_bits_are_ignored(dut) -> None:
    """The slave decodes byte-address bits 15:2: an AR or AW at 0x001..0x003 is the word at
    0x000 (AXI4-Lite masters send aligned addresses; WSTRB selects the bytes)."""
    tb = IPTB(dut)
    await tb.reset()
    await tb.settle(2)
    ident = tb.map.regs["ID"].reset

    async def raw_read(addr: int) -> tuple[int, int]:
        # drive the AR channel directly: cocotbext-axi aligns the addresses it sends
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

    for low in (1, 2, 3):
        assert await raw_read(low) == (ident, 0), low
    threshold = tb.map.offset("THRESHOLD")
    assert await raw_read(threshold + 3) == (0, 0)


# ---- pytest: parameter sweep ---------------------------------------------------------------

CONFIGS = {
    "default": {},
    # the published configuration: its sizes and register set (no interrupt, timeout, counters,
    # sum, histogram, timestamp mode or stimulus)
    "published": NAMED["published"].params,
    # the same with the statistics' comparisons pipelined: the base of its larger options
    "published-pipe": NAMED["published+pipe_compare"].params,
    # the published core: no histogram, timestamp mode or stimulus
    "paper": NAMED["paper"].params,
    # the whole core map with the small timing structure (the read decode in the AR cycle, the
    # statistics' comparisons straight into their registers): the interrupts, the alarm's
    # timing and SUM_LO's snapshot with it
    "paper-small": {**NAMED["paper"].params, **SMALL_TIMING},
    "hist4096-stamp4-id8": {"HIST_BINS_LOG2": 12, "STAMP_ENTRIES": 4, "ID_WIDTH": 8},
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
        **OPTIONS_OFF,
    },
}


# The simulator of each configuration. Icarus is four-state: a value left undefined (an
# uninitialised register, an undriven net) is X there and fails a comparison, so it runs every
# configuration whose parts differ in kind. The three that scale a size up run the same tests
# over up to 8 times the cycles (a ring of 4,096 samples filled twice, 2^16 cycles to saturate
# a 16-bit latency, 4,096 bins), and Icarus is slow on the whole IP, so they run on Verilator
# (two-state; make bench's bench_hw_soak measures the ratio), with cocotb driving its clock
# (simulate.clock_of).
VERILATOR_CONFIGS = ("depth4096-nosync", "cnt16-depth16", "hist4096-stamp4-id8")


@pytest.mark.sim
@pytest.mark.parametrize("config", list(CONFIGS))
def test_latmon(config: str) -> None:
    params = {**DEFAULTS, **CONFIGS[config]}
    simulator = "verilator" if config in VERILATOR_CONFIGS else "icarus"
    defines, clock_env = clock_of(simulator)
    run_sim(
        toplevel="tb_latmon",
        sources=sources(),
        module="test_latmon",
        build=build_id("latmon", config, *([simulator] if simulator != "icarus" else [])),
        simulator=simulator,
        parameters={**params, "STIM_MAX": 16},
        env={**params, "SEED": sum(params.values()), **clock_env},
        defines=defines,
        includes=[GENERATED],
    )


@pytest.mark.sim
@pytest.mark.slow
def test_latmon_soak() -> None:
    """A million random events through the IP (Verilator), the scoreboard after the run."""
    events = int(os.environ.get("LATMON_SOAK_EVENTS", "1000000"))
    summary, seconds = run_soak(events, os.environ.get("LATMON_SOAK_SIM", "verilator"))
    print(f"soak: {summary} in {seconds:.1f} s")
    assert summary["irq"] == events


# Every part built in, at small sizes, so that Yosys's netlist of it builds and simulates in
# about a minute: the netlist soak of make test (make netlist-soak runs `default`).
NETLIST_QUICK = {
    "CNT_WIDTH": 16,
    "TRACE_DEPTH": 64,
    "TRACE_WIDTH": 16,
    "COUNTER_WIDTH": 16,
    "SUM_WIDTH": 32,
    "HIST_BINS_LOG2": 4,
    "STAMP_ENTRIES": 4,
    "ID_WIDTH": 8,
}
NETLIST_QUICK_EVENTS = 2000


@pytest.mark.sim
def test_latmon_netlist_soak_quick() -> None:
    """The soak on Yosys's netlist of a narrow everything-on configuration gives the RTL's
    events and reads, every one (Icarus, 4-state: a value synthesis left undefined is X there)."""
    events = int(os.environ.get("LATMON_NETLIST_QUICK_EVENTS", NETLIST_QUICK_EVENTS))
    diff = netlist_soak(events, "icarus", NETLIST_QUICK)
    assert diff["events"] >= events and diff["reads"] > 0
    assert diff["event_mismatches"] == 0 and diff["read_mismatches"] == 0, diff


@pytest.mark.sim
def test_latmon_netlist_soak_quick_small_timing() -> None:
    """The same with the small timing structure (REG_DECODE = 0: every register block's read
    multiplexer and the trace RAM's read reset; PIPE_COMPARE = 0): its netlist gives the RTL's
    events and reads too."""
    events = int(os.environ.get("LATMON_NETLIST_QUICK_EVENTS", NETLIST_QUICK_EVENTS))
    diff = netlist_soak(events, "icarus", {**NETLIST_QUICK, **SMALL_TIMING})
    assert diff["events"] >= events and diff["reads"] > 0
    assert diff["event_mismatches"] == 0 and diff["read_mismatches"] == 0, diff


@pytest.mark.sim
@pytest.mark.slow
@pytest.mark.skipif(
    "LATMON_NETLIST_SOAK_EVENTS" not in os.environ,
    reason="make netlist-soak runs it (the netlist's Verilator model takes long to compile)",
)
def test_latmon_netlist_soak() -> None:
    """The soak on Yosys's netlist of the IP gives the RTL's events and reads, every one
    (`make netlist-soak`: a million events in Verilator)."""
    events = int(os.environ["LATMON_NETLIST_SOAK_EVENTS"])
    diff = netlist_soak(events, os.environ.get("LATMON_NETLIST_SOAK_SIM", "verilator"))
    assert diff["events"] >= events and diff["reads"] > 0
    assert diff["event_mismatches"] == 0 and diff["read_mismatches"] == 0, diff
