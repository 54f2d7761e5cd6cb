"""cocotb tests of hw/rtl/latmon_stim.v against model/latmon_stim_model.py: every pulse to the
cycle, the random intervals' distribution, and the interrupt throughput of a model CPU measured
by a latmon_core (hdl/tb_latmon_stim.v)."""

from __future__ import annotations

import cocotb
import numpy as np
import pytest
from cocotb.triggers import FallingEdge, RisingEdge, ValueChange
from latmon_tb import until_low
from model.latmon_stim_model import (
    BURST,
    FIRST_PULSE_DELAY,
    PERIODIC,
    RANDOM,
    expected_served,
    pulse_cycles,
)
from scipy import stats
from simulate import build_id, rtl, run_sim, tb_hdl

CONFIG = {
    "period": 0,
    "interval_min": 0,
    "interval_max": 0,
    "burst_len": 1,
    "pause": 0,
    "total": 0,
    "seed": 1,
}


class StimTB:
    def __init__(self, dut) -> None:
        self.dut = dut
        self.pulses: list[tuple[int, int]] = []  # (cycle, id)
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        while True:
            await ValueChange(self.dut.event_reg)
            value = int(self.dut.event_reg.value)
            self.pulses.append((value & (2**64 - 1), (value >> 64) & 0xFFFFFFFF))

    async def reset(self) -> None:
        dut = self.dut
        dut.rst.value = 1
        dut.start.value = 0
        dut.stop.value = 0
        dut.mode.value = 0
        dut.service.value = 2
        dut.core_clear.value = 0
        for name, value in CONFIG.items():
            getattr(dut, name).value = value
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0

    async def run(self, mode: int, **config: int) -> int:
        """Configure, strobe start; return the cycle in which start was high."""
        dut = self.dut
        await FallingEdge(dut.clk)
        dut.mode.value = mode
        for name, value in {**CONFIG, **config}.items():
            getattr(dut, name).value = value
        self.pulses.clear()
        dut.start.value = 1
        start_cycle = int(dut.cycle.value)
        await FallingEdge(dut.clk)
        dut.start.value = 0
        return start_cycle

    async def check_runs(self, runs: list[tuple[int, dict[str, int]]]) -> None:
        """Each run in turn, to its end: every pulse where the model puts it, `total` sent."""
        for mode, config in runs:
            s = await self.run(mode, **config)
            await self.until_done()
            want = [s + c for c in pulse_cycles(mode, config["total"], **config_model(config))]
            got = [c for c, _ in self.pulses]
            assert got == want, (mode, config, got, want)
            assert int(self.dut.sent.value) == config["total"], (mode, config)
            assert int(self.dut.done.value) == 1, (mode, config)  # ended by its total

    async def until_done(self) -> None:
        # `running` read at a falling edge (read right at `done`'s rising edge, it depended on
        # the order in which the simulator applied the two flip-flops' updates of that edge)
        await until_low(self.dut.running, self.dut.clk)
        for _ in range(2):  # the monitor records the last pulse
            await FallingEdge(self.dut.clk)


@cocotb.test()
async def periodic_exact(dut) -> None:
    tb = StimTB(dut)
    await tb.reset()
    s = await tb.run(PERIODIC, period=7, total=50)
    await tb.until_done()
    want = [s + c for c in pulse_cycles(PERIODIC, 50, period=7)]
    assert [c for c, _ in tb.pulses] == want
    assert [i for _, i in tb.pulses] == list(range(50))
    assert int(dut.sent.value) == 50 and int(dut.done.value) == 1
    assert int(dut.done_pulses.value) == 1


@cocotb.test()
async def burst_exact(dut) -> None:
    tb = StimTB(dut)
    await tb.reset()
    config = {"period": 3, "burst_len": 4, "pause": 20, "total": 17}
    s = await tb.run(BURST, **config)
    await tb.until_done()
    want = [s + c for c in pulse_cycles(BURST, 17, period=3, burst_len=4, pause=20)]
    got = [c for c, _ in tb.pulses]
    assert got == want
    assert np.diff(got).tolist() == [3, 3, 3, 20] * 4  # spacing in bursts, pause between
    assert int(dut.done_pulses.value) == 1


@cocotb.test()
async def random_intervals_exact_and_uniform(dut) -> None:
    """5,000 random intervals in [10, 109]: every pulse where the model puts it, and the
    intervals uniform by a chi-square test (100 classes of 50 expected)."""
    tb = StimTB(dut)
    await tb.reset()
    config = {"interval_min": 10, "interval_max": 109, "total": 5000, "seed": 12345}
    s = await tb.run(RANDOM, **config)
    await tb.until_done()
    want = [
        s + c for c in pulse_cycles(RANDOM, 5000, interval_min=10, interval_max=109, seed=12345)
    ]
    got = [c for c, _ in tb.pulses]
    assert got == want
    gaps = np.diff([s + FIRST_PULSE_DELAY, *got])  # the first gap: the first interval
    assert gaps.min() >= 10 and gaps.max() <= 109
    observed = np.bincount(gaps - 10, minlength=100)
    chi2 = float(((observed - 50.0) ** 2 / 50.0).sum())
    critical = float(stats.chi2.ppf(0.999, 99))  # 148.2
    dut._log.info(
        "chi-square %.1f (99 degrees of freedom, 0.1 %% critical value %.1f)", chi2, critical
    )
    assert chi2 < critical, chi2


@cocotb.test()
async def random_seed_zero_and_restart(dut) -> None:
    """Seed 0 runs as seed 1; a start in the cycle after a start runs with the second start's
    seed (each pulse where the model puts it)."""
    tb = StimTB(dut)
    await tb.reset()
    config = {"interval_min": 3, "interval_max": 40, "total": 200}
    s = await tb.run(RANDOM, seed=0, **config)
    await tb.until_done()
    want = [s + c for c in pulse_cycles(RANDOM, 200, seed=1, **config_intervals(config))]
    assert [c for c, _ in tb.pulses] == want

    await FallingEdge(dut.clk)
    dut.mode.value = RANDOM
    for name, value in {**CONFIG, **config, "seed": 7}.items():
        getattr(dut, name).value = value
    tb.pulses.clear()
    dut.start.value = 1
    await FallingEdge(dut.clk)
    dut.seed.value = 99  # start again, at once, with another seed
    s = int(dut.cycle.value)
    await FallingEdge(dut.clk)
    dut.start.value = 0
    await tb.until_done()
    want = [s + c for c in pulse_cycles(RANDOM, 200, seed=99, **config_intervals(config))]
    assert [c for c, _ in tb.pulses] == want


def config_intervals(config: dict[str, int]) -> dict[str, int]:
    return {k: config[k] for k in ("interval_min", "interval_max")}


@cocotb.test()
async def short_intervals_and_runs(dut) -> None:
    """The corners of the countdowns: intervals 0..3, runs of 1..3 pulses, bursts of 0..3
    pulses with pauses 0..3, random intervals pinned to 0..2 — each run's pulses where the model
    puts them, and done after exactly `total` pulses."""
    tb = StimTB(dut)
    await tb.reset()
    runs: list[tuple[int, dict[str, int]]] = []
    for total in (1, 2, 3, 5):
        for period in (0, 1, 2, 3):
            runs.append((PERIODIC, {"period": period, "total": total}))
    for burst_len in (0, 1, 2, 3):
        for pause in (0, 1, 2, 3):
            runs.append((BURST, {"period": 2, "burst_len": burst_len, "pause": pause, "total": 7}))
    for value in (0, 1, 2):
        runs.append((RANDOM, {"interval_min": value, "interval_max": value, "total": 4}))
    runs.append((RANDOM, {"interval_min": 0, "interval_max": 3, "total": 40, "seed": 5}))
    await tb.check_runs(runs)


@cocotb.test()
async def long_intervals(dut) -> None:
    """Intervals of 2^16 cycles and more, whose countdown crosses from its low half into its
    high one (bits 16 and up): loads with a low half of zero, one cycle above or below it, and
    a high half of 1 and 2, in every mode — each pulse where the model puts it."""
    tb = StimTB(dut)
    await tb.reset()
    runs: list[tuple[int, dict[str, int]]] = []
    for period in (0xFFFF, 0x10002, 0x10003, 0x10004, 0x20003):
        runs.append((PERIODIC, {"period": period, "total": 2}))
    runs.append((BURST, {"period": 5, "burst_len": 2, "pause": 0x10003, "total": 5}))
    runs.append((BURST, {"period": 0x10003, "burst_len": 2, "pause": 0x10004, "total": 3}))
    for lo, hi in ((0x10003, 0x10003), (0x10002, 0x10004), (0xFFF0, 0x10010)):
        runs.append((RANDOM, {"interval_min": lo, "interval_max": hi, "total": 3, "seed": 9}))
    await tb.check_runs(runs)


def config_model(config: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in config.items() if k != "total"}


@cocotb.test()
async def endless_run_stops(dut) -> None:
    tb = StimTB(dut)
    await tb.reset()
    s = await tb.run(PERIODIC, period=5, total=0)
    for _ in range(103):
        await FallingEdge(dut.clk)
    dut.stop.value = 1
    await FallingEdge(dut.clk)
    dut.stop.value = 0
    for _ in range(20):
        await FallingEdge(dut.clk)
    got = [c for c, _ in tb.pulses]
    assert got == [c for c in (s + FIRST_PULSE_DELAY + 5 * k for k in range(1, 30)) if c <= s + 104]
    assert int(dut.running.value) == 0 and int(dut.done.value) == 0


@cocotb.test()
async def interrupt_throughput(dut) -> None:
    """Interrupts at rising rates, a CPU busy 37 cycles per interrupt: the core's overrun
    counter equals the interrupts lost, ceil-analytically, at every rate."""
    tb = StimTB(dut)
    await tb.reset()
    service, pulses = 37, 300
    dut.service.value = service
    for period in (100, 50, 38, 37, 36, 20, 13, 10, 5, 3, 2):
        await FallingEdge(dut.clk)
        dut.core_clear.value = 1
        await FallingEdge(dut.clk)
        dut.core_clear.value = 0
        await tb.run(PERIODIC, period=period, total=pulses, service=service)
        await tb.until_done()
        for _ in range(service + 10):
            await FallingEdge(dut.clk)
        served = expected_served(pulses, period, service)
        got = (int(dut.served.value), int(dut.samples.value), int(dut.overruns.value))
        dut._log.info("period %3d: served %d, lost %d", period, served, pulses - served)
        assert got == (served, served, pulses - served), (period, got)
    assert expected_served(pulses, 2, service) == 16  # at the highest rate most are lost


@pytest.mark.sim
@pytest.mark.parametrize("id_width", [16, 8])
def test_latmon_stim(id_width: int) -> None:
    run_sim(
        toplevel="tb_latmon_stim",
        sources=rtl(
            "latmon_stim", "latmon_countdown", "latmon_sync", "latmon_trigger", "latmon_core"
        )
        + tb_hdl("tb_latmon_stim"),
        module="test_latmon_stim",
        build=build_id("latmon_stim", id_width),
        parameters={"ID_WIDTH": id_width},
        env={"ID_WIDTH": id_width},
    )
