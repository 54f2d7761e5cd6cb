"""cocotb tests of hw/rtl/latmon_hist.v against model/latmon_hist_model.py.

The events come from the testbench's xorshift source (hdl/tb_latmon_hist.v): one latency per
clock, regenerated in Python by the model. Snapshots are taken at random moments while the
source runs; the scoreboard adds them up and compares the sum with the model bin by bin.
"""

from __future__ import annotations

import os
import random

import cocotb
import numpy as np
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer
from latmon_tb import until_low
from model.latmon_hist_model import Bank, histogram, source_events
from simulate import build_id, rtl, run_sim, tb_hdl
from soak import run_hist_soak

BINS_LOG2 = int(os.environ.get("BINS_LOG2", "8"))
BIN_WIDTH = int(os.environ.get("BIN_WIDTH", "32"))
CNT_WIDTH = int(os.environ.get("CNT_WIDTH", "32"))
# Cycles from rd_addr to rd_data: the RAM read register, then the RAM output register.
RD_LATENCY = 2


async def setup(dut, offset: int, shift: int) -> None:
    if os.environ.get("TB_EXTERNAL_CLOCK") == "1" and not getattr(dut, "_clocked", False):
        cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
        dut._clocked = True
    dut.rst.value = 1
    dut.clear.value = 0
    dut.offset.value = offset
    dut.shift.value = shift
    dut.snapshot.value = 0
    dut.rd_addr.value = 0
    dut.gen_start.value = 0
    dut.gen_seed.value = 1
    dut.gen_cycles.value = 0
    dut.lat_mask.value = 0
    dut.duty_mask.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    await wait_idle(dut)


async def wait_idle(dut) -> None:
    await FallingEdge(dut.clk)
    while int(dut.busy.value):
        await FallingEdge(dut.clk)


async def start_source(dut, seed: int, cycles: int, lat_mask: int, duty_mask: int = 0) -> None:
    await FallingEdge(dut.clk)
    dut.gen_seed.value = seed
    dut.gen_cycles.value = cycles
    dut.lat_mask.value = lat_mask
    dut.duty_mask.value = duty_mask
    dut.gen_start.value = 1
    await FallingEdge(dut.clk)
    dut.gen_start.value = 0


async def take_snapshot(dut) -> Bank:
    """Request a snapshot, wait for it, read the frozen bank (bins over the read port)."""
    await FallingEdge(dut.clk)
    assert int(dut.busy.value) == 0
    dut.snapshot.value = 1
    await FallingEdge(dut.clk)
    dut.snapshot.value = 0
    await wait_idle(dut)
    bins = np.zeros(1 << BINS_LOG2, dtype=np.int64)
    # rd_data is the word of rd_addr RD_LATENCY edges later (the RAM's read register, then
    # its output register): one address per cycle, the words follow RD_LATENCY cycles behind.
    for a in range(len(bins) + RD_LATENCY):
        if a >= RD_LATENCY:
            bins[a - RD_LATENCY] = int(dut.rd_data.value)
        if a < len(bins):
            dut.rd_addr.value = a
        await FallingEdge(dut.clk)
    count = int(dut.count.value)
    return Bank(
        bins=bins,
        underflow=int(dut.underflow.value),
        overflow=int(dut.overflow.value),
        count=count,
        total=int(dut.sum.value),
        min=int(dut.min.value) if count else None,
        max=int(dut.max.value) if count else None,
        saturated=bool(int(dut.saturated.value)),
    )


def assert_bank(got: Bank, want: Bank) -> None:
    assert np.array_equal(got.bins, want.bins), np.flatnonzero(got.bins != want.bins)[:10]
    assert (got.underflow, got.overflow, got.count, got.total) == (
        want.underflow,
        want.overflow,
        want.count,
        want.total,
    )
    assert (got.min, got.max, got.saturated) == (want.min, want.max, want.saturated)


@cocotb.test()
async def back_to_back_same_bin(dut) -> None:
    """One latency per clock into the same bin (and into two alternating bins): the forwarding
    of the read-modify-write must count every one."""
    await setup(dut, offset=0, shift=0)
    for mask, seed in ((0, 5), (1, 7), (3, 9)):
        await start_source(dut, seed, 1000, mask)
        await until_low(dut.gen_run, dut.clk)
        got = await take_snapshot(dut)
        want = histogram(source_events(seed, 1000, mask, 0), 0, 0, BINS_LOG2, BIN_WIDTH)
        assert_bank(got, want)


@cocotb.test()
async def read_as_busy_falls(dut) -> None:
    """A read of the frozen bank in the first cycle BUSY is low sees every write to it: after a
    snapshot taken while every latency goes to bin 0 (the last of the old bank's latencies
    still in the pipeline at the swap write bin 0 last; take_snapshot reads bin 0 first), and
    after a clear (whose last zero is the last bin's)."""
    await setup(dut, offset=0, shift=0)
    if BIN_WIDTH >= 24:  # a narrow-counter build's snapshots saturate: see bins_saturate
        events = 3000
        await start_source(dut, 13, events, 0)
        got = 0
        while int(dut.gen_run.value):
            for _ in range(300):
                await FallingEdge(dut.clk)
            got += int((await take_snapshot(dut)).bins[0])
        got += int((await take_snapshot(dut)).bins[0])
        want = histogram(source_events(13, events, 0, 0), 0, 0, BINS_LOG2)
        assert got == want.bins[0] == events

    last = (1 << BINS_LOG2) - 1
    await start_source(dut, 17, 20000, last)  # the last bin among them at 4,096 bins too
    await until_low(dut.gen_run, dut.clk)
    assert (await take_snapshot(dut)).bins[last] > 0
    await FallingEdge(dut.clk)
    dut.rd_addr.value = last
    dut.clear.value = 1
    await FallingEdge(dut.clk)
    dut.clear.value = 0
    await wait_idle(dut)
    for _ in range(RD_LATENCY):
        await FallingEdge(dut.clk)
    assert int(dut.rd_data.value) == 0  # read as BUSY fell


@cocotb.test()
async def random_snapshots_under_load(dut) -> None:
    """EVENTS latencies at one per clock; snapshots at random moments; every bin adds up."""
    if BIN_WIDTH < 24:
        return  # snapshots of a narrow-counter build saturate: see bins_saturate
    events = int(os.environ.get("EVENTS", "100000"))
    seed = int(os.environ.get("SEED", "11"))
    rng = random.Random(seed)
    # 4096 cycles from 1000 in the bins (256 bins: 16 cycles each), the rest under or over
    offset, shift, mask = 1000, max(0, 12 - BINS_LOG2), 0x3FFF
    await setup(dut, offset, shift)
    await start_source(dut, seed, events, mask)
    total = Bank(np.zeros(1 << BINS_LOG2, dtype=np.int64))
    snaps = 0
    while int(dut.gen_run.value):
        await Timer(rng.randrange(1, max(2, events // 10)) * 10, unit="ns")
        if int(dut.gen_run.value):
            total = total.add(await take_snapshot(dut))
            snaps += 1
    total = total.add(await take_snapshot(dut))
    want = histogram(source_events(seed, events, mask, 0), offset, shift, BINS_LOG2)
    assert int(dut.gen_sent.value) == events == want.count  # one per clock, every clock
    assert int(dut.dropped.value) == 0
    assert snaps >= 3, snaps
    assert int(dut.snapshots.value) == snaps + 1
    assert want.underflow and want.overflow  # the ranges were exercised
    assert_bank(total, want)
    dut._log.info("%d events, %d snapshots under load: every bin equal", events, snaps)


@cocotb.test()
async def duty_cycle_and_clear(dut) -> None:
    """Events on some clocks only; a clear zeroes both banks and counts what arrives while it
    runs as dropped."""
    await setup(dut, offset=0, shift=6)
    await start_source(dut, 3, 5000, 0xFFFF, duty_mask=0x5)
    for _ in range(100):
        await FallingEdge(dut.clk)
    dut.clear.value = 1
    await FallingEdge(dut.clk)
    dut.clear.value = 0
    await until_low(dut.gen_run, dut.clk)
    dropped = int(dut.dropped.value)
    got = await take_snapshot(dut)
    # the first 101 cycles were counted before the clear, then BINS cycles were not
    everything = source_events(3, 5000, 0xFFFF, 0x5)
    x_valid = source_events(3, 101 + (1 << BINS_LOG2), 0xFFFF, 0x5)
    first = len(source_events(3, 101, 0xFFFF, 0x5))
    assert dropped == len(x_valid) - first > 0
    want = histogram(everything[first + dropped :], 0, 6, BINS_LOG2, BIN_WIDTH)
    assert_bank(got, want)


@cocotb.test()
async def last_bin_past_every_latency(dut) -> None:
    """Shifts at which the bins reach past every latency: BINS << shift exactly 2^CNT_WIDTH (the
    range's end is the sum's carry-out) and beyond the sum's width (set from the shift alone).
    No latency is an overflow; every one at or above the offset is in a bin."""
    mask = (1 << CNT_WIDTH) - 1
    offset = 100
    for shift in (CNT_WIDTH - BINS_LOG2, CNT_WIDTH - BINS_LOG2 + 1, 31):
        if shift > 31:
            continue
        await setup(dut, offset=offset, shift=shift)
        await start_source(dut, 5 + shift, 3000, mask)
        await until_low(dut.gen_run, dut.clk)
        got = await take_snapshot(dut)
        want = histogram(
            source_events(5 + shift, 3000, mask, 0), offset, shift, BINS_LOG2, BIN_WIDTH
        )
        assert want.overflow == 0 and want.underflow > 0, shift  # the case meant
        assert_bank(got, want)


@cocotb.test()
async def bins_saturate(dut) -> None:
    """A bin counter stops at its maximum and the bank says so (BIN_WIDTH 4 build)."""
    if BIN_WIDTH > 8:
        return
    await setup(dut, offset=0, shift=0)
    await start_source(dut, 21, 300, 0x3)
    await until_low(dut.gen_run, dut.clk)
    got = await take_snapshot(dut)
    want = histogram(source_events(21, 300, 0x3, 0), 0, 0, BINS_LOG2, BIN_WIDTH)
    assert want.saturated and got.saturated
    assert_bank(got, want)


@pytest.mark.sim
@pytest.mark.parametrize(
    ("bins_log2", "bin_width", "cnt_width", "events"),
    [(8, 32, 32, 100_000), (4, 4, 16, 20_000), (12, 32, 32, 20_000)],
)
def test_latmon_hist(bins_log2: int, bin_width: int, cnt_width: int, events: int) -> None:
    params = {"BINS_LOG2": bins_log2, "BIN_WIDTH": bin_width, "CNT_WIDTH": cnt_width}
    run_sim(
        toplevel="tb_latmon_hist",
        sources=rtl("latmon_counter", "latmon_hist") + tb_hdl("tb_latmon_hist"),
        module="test_latmon_hist",
        build=build_id("latmon_hist", bins_log2, bin_width, cnt_width),
        parameters=params,
        env={**params, "EVENTS": events, "SEED": bins_log2 + bin_width},
    )


@pytest.mark.sim
@pytest.mark.slow
def test_latmon_hist_soak() -> None:
    """1,000,000 latencies at one per clock, snapshots at random moments, zero loss. On
    Verilator, many times faster than Icarus over a million clocks (make bench's bench_hw_hist
    measures the ratio); the tests above run the histogram in Icarus, whose four states show a
    value left undefined."""
    run_hist_soak(int(os.environ.get("LATMON_HIST_SOAK_EVENTS", "1000000")), "verilator")
