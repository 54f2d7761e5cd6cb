"""The real C driver against the real RTL: liblatmon (sw/lib/latmon.c) attaches to, configures,
arms and reads the latmon IP in simulation through a HAL that performs AXI4-Lite transactions
(latmon_driver.py). Everything it returns is compared with the models."""

from __future__ import annotations

import ctypes
import os
import random
from fractions import Fraction

import cocotb
import numpy as np
import pytest
from cocotb.triggers import First, RisingEdge, Timer
from latmon_driver import Config, HistBank, SimDriver, Stats, build_driver
from latmon_ip import DEFAULTS, IPTB, sources
from latmon_tb import CLOCK_NS, random_stimulus, waveform
from model.latmon_core_model import Kind
from model.latmon_hist_model import histogram
from simulate import GENERATED, SIM_BUILD, build_id, run_sim


def driver_for(tb: IPTB) -> SimDriver:
    async def read(offset: int) -> int:
        value, _ = await tb.read_addr(offset)
        return value

    async def write(offset: int, value: int) -> None:
        await tb.axil.write(offset, value.to_bytes(4, "little"))

    async def wait_irq(timeout_ms: int) -> bool:
        # one simulated "ms" is 1,000 cycles here
        timer = Timer(max(timeout_ms, 1) * 1000 * CLOCK_NS, unit="ns")
        fired = await First(RisingEdge(tb.dut.irq_out), timer)
        return fired is not timer

    lib = build_driver(SIM_BUILD / "liblatmon")
    return SimDriver(lib, read, write, wait_irq)


@cocotb.test()
async def driver_configures_arms_and_reads(dut) -> None:
    tb = IPTB(dut)
    drv = driver_for(tb)
    await tb.reset()
    await tb.settle(1 << (tb.p["HIST_BINS_LOG2"] + 1))
    clock = 100_000_000
    drv.check(
        await drv.call("latmon_attach", ctypes.byref(drv.dev), ctypes.byref(drv.hal), clock),
        "attach",
    )
    caps = drv.dev.caps
    version = tb.map.regs["VERSION"].reset  # the map's version, as the RDL defines it
    assert (caps.major, caps.minor) == (
        tb.map.get("VERSION", "MAJOR", version),
        tb.map.get("VERSION", "MINOR", version),
    )
    assert caps.cnt_width == tb.p["CNT_WIDTH"] and caps.trace_depth == tb.p["TRACE_DEPTH"]
    assert caps.has_hist == tb.p["HAS_HIST"]
    assert caps.hist_bins == (1 << tb.p["HIST_BINS_LOG2"] if tb.p["HAS_HIST"] else 0)
    timeout, threshold, start, shift = 300, 60, 20, 1
    config = Config(0, 0, timeout, threshold, 0, 0, start, shift, 0, 0)
    drv.check(
        await drv.call("latmon_configure", ctypes.byref(drv.dev), ctypes.byref(config)), "configure"
    )
    drv.check(await drv.call("latmon_clear", ctypes.byref(drv.dev)), "clear")
    drv.check(await drv.call("latmon_arm", ctypes.byref(drv.dev), 1), "arm")
    # CTRL.CLEAR also clears the histogram banks (BINS cycles, latencies meanwhile dropped)
    await tb.settle(1 << (tb.p["HIST_BINS_LOG2"] + 1))
    await tb.start_monitor()
    stim = random_stimulus(random.Random(int(os.environ.get("SEED", "3"))), 700, timeout + 20)
    await tb.drive(waveform(stim))
    await tb.settle(timeout + 20)
    e = tb.expected(threshold)
    # statistics, with the exact sum snapshot
    stats = Stats()
    drv.check(
        await drv.call("latmon_read_stats", ctypes.byref(drv.dev), ctypes.byref(stats)), "stats"
    )
    got = {
        name: getattr(stats, name)
        for name in (
            "last",
            "min",
            "max",
            "count",
            "violations",
            "timeouts",
            "overruns",
            "ignored",
            "trace_count",
            "trace_lost",
        )
    }
    want = {
        "last": e.last,
        "min": e.min,
        "max": e.max,
        "count": e.count,
        "violations": e.violations,
        "timeouts": e.timeouts,
        "overruns": e.overruns,
        "ignored": e.ignored,
        "trace_count": e.trace_count,
        "trace_lost": e.trace_lost,
    }
    assert got == want
    assert (stats.sum, stats.sum_count) == (e.sum, e.count)
    # the trace: the driver returns the samples still in the RAM, oldest first
    depth = tb.p["TRACE_DEPTH"]
    buf = (ctypes.c_uint32 * depth)()
    first, n = ctypes.c_uint32(), ctypes.c_size_t()
    drv.check(
        await drv.call(
            "latmon_read_trace",
            ctypes.byref(drv.dev),
            buf,
            depth,
            ctypes.byref(first),
            ctypes.byref(n),
        ),
        "trace",
    )
    cap = (1 << tb.p["TRACE_WIDTH"]) - 1
    kept = [min(s, cap) for s in e.samples[: min(len(e.samples), depth)]]  # stop mode: the first
    assert (first.value, list(buf)[: n.value]) == (0, kept)
    # the histogram snapshot
    if tb.p["HAS_HIST"]:
        bins = (ctypes.c_uint32 * caps.hist_bins)()
        bank = HistBank()
        drv.check(
            await drv.call(
                "latmon_hist_snapshot",
                ctypes.byref(drv.dev),
                bins,
                caps.hist_bins,
                ctypes.byref(bank),
            ),
            "hist",
        )
        lat = np.array([o.latency for o in tb.events if o.kind == Kind.SAMPLE], dtype=np.int64)
        model = histogram(lat, start, shift, tb.p["HIST_BINS_LOG2"])
        assert np.array_equal(np.array(list(bins)), model.bins)
        assert (bank.underflow, bank.overflow, bank.count, bank.sum, bank.min, bank.max) == (
            model.underflow,
            model.overflow,
            model.count,
            model.total,
            model.min,
            model.max,
        )
    # cycles to ns, against exact rational arithmetic
    out = ctypes.c_uint64()
    for cycles in (0, 1, 7, 12_345_678_901, 2**63):
        for hz in (100_000_000, 333_333_333, 1):
            err = drv.lib.latmon_cycles_to_ns(
                ctypes.c_uint64(cycles), ctypes.c_uint64(hz), ctypes.byref(out)
            )
            exact = Fraction(cycles * 10**9, hz)
            rounded = int(exact + Fraction(1, 2))
            if rounded < 2**64:
                assert err == 0 and out.value == rounded, (cycles, hz)
            else:
                assert err == 34  # ERANGE
    dut._log.info("driver: %d bus accesses", drv.accesses)


@cocotb.test()
async def driver_waits_for_the_interrupt(dut) -> None:
    tb = IPTB(dut)
    drv = driver_for(tb)
    await tb.reset()
    await tb.settle(8)
    drv.check(
        await drv.call("latmon_attach", ctypes.byref(drv.dev), ctypes.byref(drv.hal), 0), "attach"
    )
    config = Config(0, 0, 0, 0, 0, 1, 0, 0, 0, 0)  # IRQ_ENABLE.SAMPLE
    drv.check(
        await drv.call("latmon_configure", ctypes.byref(drv.dev), ctypes.byref(config)), "configure"
    )
    drv.check(await drv.call("latmon_arm", ctypes.byref(drv.dev), 1), "arm")

    async def one_event() -> None:
        await tb.settle(50)
        tb.irq.value = 1
        await tb.settle(3)
        tb.irq.value = 0
        await tb.settle(20)
        tb.ack.value = 1
        await tb.settle(3)
        tb.ack.value = 0

    cocotb.start_soon(one_event())
    assert await drv.call("latmon_wait", ctypes.byref(drv.dev), 5) == 0
    stats = Stats()
    drv.check(
        await drv.call("latmon_read_stats", ctypes.byref(drv.dev), ctypes.byref(stats)), "stats"
    )
    assert stats.count == 1 and stats.last == 23 and stats.irq_status & 1  # 3 + 20 cycles
    drv.check(await drv.call("latmon_irq_ack", ctypes.byref(drv.dev), 0xFFFFFFFF), "ack")
    # nothing more happens: the wait times out
    assert await drv.call("latmon_wait", ctypes.byref(drv.dev), 1) == 110


@pytest.mark.sim
@pytest.mark.parametrize("config", ["default", "paper-like"])
def test_latmon_driver(config: str) -> None:
    params = dict(DEFAULTS)
    if config == "paper-like":
        params.update(
            CNT_WIDTH=16, TRACE_WIDTH=16, TRACE_DEPTH=64, HAS_HIST=0, HAS_STAMP=0, HAS_STIM=0
        )
    run_sim(
        toplevel="tb_latmon",
        sources=sources(),
        module="test_latmon_driver",
        build=build_id("latmon_driver", config),
        parameters={**params, "STIM_MAX": 16},
        env={**params},
        includes=[GENERATED],
    )
