"""cocotb tests of hw/rtl/latmon_core.v against model/latmon_core_model.py.

pytest runs the functions named test_*; each builds one configuration with cocotb's Python runner
and runs the cocotb tests (the coroutines decorated with @cocotb.test) inside the simulator.

The testbench (latmon_tb.py, hdl/tb_latmon_core.v) wakes per event, not per clock.
"""

from __future__ import annotations

import os
import random

import cocotb
import pytest
from cocotb.triggers import Timer
from latmon_tb import CLOCK_NS, TB, Stimulus, check, random_stimulus, waveform
from model.latmon_core_model import Kind, Output, core_model
from simulate import build_id, rtl, run_sim, tb_hdl


@cocotb.test()
async def latency_and_pipeline_delay(dut) -> None:
    """One irq at cycle 10, ack at cycle 17: latency 7, reported in the ack's cycle."""
    tb = TB(dut)
    await tb.start()
    await tb.drive(waveform(Stimulus([10], [17])))
    await tb.settle(10)
    assert tb.events == [Output(17, Kind.SAMPLE, 7)], tb.events


@cocotb.test()
async def corners(dut) -> None:
    """Ack in the next irq's cycle, ignored ack, overrun: checked against hand-derived results."""
    tb = TB(dut)
    await tb.start()
    stim = Stimulus(irq=[10, 15, 17, 25, 27, 32], ack=[15, 17, 20, 23, 30, 33])
    expected = [
        Output(15, Kind.SAMPLE, 5),  # ack in the same cycle as the next irq ...
        Output(17, Kind.SAMPLE, 2),  # ... which starts the next measurement
        Output(20, Kind.SAMPLE, 3),
        Output(23, Kind.IGNORED),  # nothing pending
        Output(27, Kind.OVERRUN),  # irq while the one of cycle 25 waits for its ack
        Output(30, Kind.SAMPLE, 5),
        Output(33, Kind.SAMPLE, 1),
    ]
    assert core_model(stim.irq, stim.ack) == expected
    await tb.drive(waveform(stim))
    await tb.settle(20)
    check(tb, expected)


@cocotb.test()
async def timeout(dut) -> None:
    """A timeout ends a measurement; an ack in exactly the timeout cycle still counts."""
    tb = TB(dut)
    await tb.start(timeout=50)
    stim = Stimulus(irq=[10, 100, 200, 300], ack=[65, 150, 349])
    expected = [
        Output(60, Kind.TIMEOUT),
        Output(65, Kind.IGNORED),
        Output(150, Kind.SAMPLE, 50),
        Output(250, Kind.TIMEOUT),
        Output(349, Kind.SAMPLE, 49),
    ]
    assert core_model(stim.irq, stim.ack, tb.cnt_width, timeout=50) == expected
    await tb.drive(waveform(stim))
    await tb.settle(100)
    check(tb, expected)


@cocotb.test()
async def timeout_change_while_pending(dut) -> None:
    """A new TIMEOUT applies to the measurements that start after it; the pending one keeps the
    value it started with, whether the new one turns the timeout off or on."""
    tb = TB(dut)
    await tb.start(timeout=50)

    async def set_timeout(changes: list[tuple[int, int]]) -> None:
        now = 0
        for cycle, value in changes:
            await Timer((cycle - now) * CLOCK_NS, unit="ns")
            now = cycle
            dut.timeout.value = value

    # Each change falls well inside a pending measurement (started at 10 and 120).
    cocotb.start_soon(set_timeout([(30, 0), (140, 20), (500, 30)]))
    stim = Stimulus(irq=[10, 120, 400, 600], ack=[300])
    expected = [
        Output(60, Kind.TIMEOUT),  # started with 50: turning the timeout off does not stop it
        Output(300, Kind.SAMPLE, 180),  # started with 0: turning it on does not end it
        Output(420, Kind.TIMEOUT),  # the new value, 20, for the next one
        Output(630, Kind.TIMEOUT),  # and 30 after that
    ]
    await tb.drive(waveform(stim))
    await tb.settle(100)
    check(tb, expected)


@cocotb.test()
async def saturation_without_timeout(dut) -> None:
    """With no timeout a measurement longer than the counter saturates and is flagged."""
    tb = TB(dut)
    await tb.start(timeout=0)
    max_count = (1 << tb.cnt_width) - 1
    if max_count > 100_000:
        return  # only meaningful for the narrow-counter configuration
    stim = Stimulus(irq=[10, 12 + max_count + 10], ack=[10 + max_count + 7, 14 + max_count + 10])
    await tb.drive(waveform(stim))
    await tb.settle(20)
    expected = core_model(stim.irq, stim.ack, tb.cnt_width)
    assert expected[0] == Output(10 + max_count + 7, Kind.SAMPLE, max_count, True)
    check(tb, expected)


@cocotb.test()
async def disable_and_clear(dut) -> None:
    """Disabled: irqs are not counted, a pending measurement still ends; clear abandons it."""
    tb = TB(dut)
    await tb.start()
    await tb.drive(waveform(Stimulus([10], [])))
    await tb.settle(5)  # now in cycle 15, measurement pending
    dut.enable.value = 0
    await tb.drive([(5, 1, None), (6, 0, None), (10, None, 1), (11, None, 0)])  # irq ignored
    await tb.settle(5)
    dut.enable.value = 1
    # pending again, then clear in the middle of it
    await tb.drive([(5, 1, None), (6, 0, None)])
    await tb.settle(3)
    dut.clear.value = 1
    await tb.settle(1)
    dut.clear.value = 0
    await tb.drive([(3, None, 1), (4, None, 0)])  # ack after clear: nothing pending
    await tb.settle(10)
    kinds = [(e.kind, e.latency) for e in tb.events]
    assert kinds == [(Kind.SAMPLE, 16), (Kind.IGNORED, 0)], tb.events
    assert int(dut.busy.value) == 0


@cocotb.test()
async def random_events(dut) -> None:
    """Random irq/ack spacings against the model, every event to the cycle."""
    events = int(os.environ.get("EVENTS", "10000"))
    seed = int(os.environ.get("SEED", "1"))
    timeout = int(os.environ.get("TIMEOUT", "300"))
    rng = random.Random(seed)
    stim = random_stimulus(rng, events, long_gap=timeout + 20)
    tb = TB(dut)
    await tb.start(timeout=timeout)
    end = await tb.drive(waveform(stim))
    await tb.settle(timeout + 20)
    expected = core_model(stim.irq, stim.ack, tb.cnt_width, timeout, end_cycle=end + timeout + 10)
    check(tb, expected)
    counts = {k: sum(1 for e in expected if e.kind == k) for k in Kind}
    dut._log.info("events %d: %s", events, {k.name: v for k, v in counts.items()})
    # The mixture must have exercised every kind of outcome.
    assert all(counts[k] > 0 for k in Kind), counts


@pytest.mark.sim
@pytest.mark.parametrize(
    ("cnt_width", "sync_stages"),
    [(32, 2), (32, 0), (8, 2), (16, 3)],
)
def test_latmon_core(cnt_width: int, sync_stages: int) -> None:
    run_sim(
        toplevel="tb_latmon_core",
        sources=rtl("latmon_sync", "latmon_trigger", "latmon_countdown", "latmon_core")
        + tb_hdl("tb_latmon_core"),
        module="test_latmon_core",
        build=build_id("latmon_core", cnt_width, sync_stages),
        parameters={"CNT_WIDTH": cnt_width, "SYNC_STAGES": sync_stages},
        env={
            "CNT_WIDTH": cnt_width,
            "SYNC_STAGES": sync_stages,
            "EVENTS": 10_000 if (cnt_width, sync_stages) == (32, 2) else 2_000,
            "SEED": cnt_width * 10 + sync_stages,
            "TIMEOUT": 50 if cnt_width == 8 else 300,
        },
    )
