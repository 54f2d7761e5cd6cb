"""cocotb tests of hw/rtl/latmon_core.v against model/latmon_core_model.py.

pytest runs the functions named test_*; each builds one configuration with cocotb's Python runner
and runs the cocotb tests (the coroutines decorated with @cocotb.test) inside the simulator.

The testbench wakes per event, not per clock: the stimulus waits with Timer() between input
changes, and the recorder in hdl/tb_latmon_core.v packs every output event with its cycle into
one vector that the monitor waits on.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import cocotb
import pytest
from cocotb.triggers import RisingEdge, Timer, ValueChange
from model.latmon_core_model import Kind, Output, core_model
from simulate import build_id, rtl, run_sim, tb_hdl

CLOCK_NS = 10
# Cycles from an input change (driven in the middle of cycle c) to the cycle stamp of the output
# event it causes, beyond the synchronizer's stages: the edge logic is combinational from the
# last synchronizer stage, so none. Pinned by latency_and_pipeline_delay below.
PIPELINE_EXTRA = 0


@dataclass
class Stimulus:
    """Rising-edge cycles of irq and ack, each pulse one or more cycles wide."""

    irq: list[int]
    ack: list[int]


def random_stimulus(
    rng: random.Random, events: int, long_gap: int = 400, start: int = 4
) -> Stimulus:
    """irq pulses with random spacing and an ack for most of them after a random latency.

    The mixture covers back-to-back irqs, ack in the same cycle as the next irq, latencies of
    1..3 cycles, long latencies (timeouts), lost acks (overruns) and extra acks (ignored).
    """
    irq: list[int] = []
    ack: set[int] = set()
    t = start
    for _ in range(events):
        irq.append(t)
        gap = rng.choice((2, 2, 3, 4)) if rng.random() < 0.2 else rng.randint(2, 60)
        r = rng.random()
        if r < 0.08:
            pass  # no ack: the next irq overruns, or the measurement times out
        elif r < 0.18:
            ack.add(t + gap)  # ack in the same cycle as the next irq
        elif r < 0.30:
            ack.add(t + rng.randint(1, 3))
        elif r < 0.32:
            ack.add(t + gap + rng.randint(40, long_gap))  # late: overruns meanwhile
        elif r < 0.34:
            gap = long_gap + rng.randint(1, 50)  # silence: the measurement times out
        else:
            ack.add(t + rng.randint(1, 80))
        if rng.random() < 0.03:
            ack.add(t + rng.randint(1, 40))  # a second ack: ignored when nothing is pending
        t += gap
    # Two rising edges of one signal need a low cycle between them.
    acks = sorted(ack)
    kept = [acks[0]] if acks else []
    for c in acks[1:]:
        if c - kept[-1] >= 2:
            kept.append(c)
    return Stimulus(irq, kept)


def waveform(stim: Stimulus) -> list[tuple[int, int | None, int | None]]:
    """Input changes as (cycle, irq value or None, ack value or None), one-cycle-wide pulses."""
    changes: dict[int, list[int | None]] = {}
    for name_index, edges in ((0, stim.irq), (1, stim.ack)):
        for c in edges:
            changes.setdefault(c, [None, None])[name_index] = 1
            changes.setdefault(c + 1, [None, None])
            if changes[c + 1][name_index] is None:
                changes[c + 1][name_index] = 0
    # A pulse that starts where another ends keeps its 1.
    return [(c, v[0], v[1]) for c, v in sorted(changes.items())]


class TB:
    """Owns the clock, reset, the stimulus driver and the event monitor."""

    def __init__(self, dut) -> None:
        self.dut = dut
        self.cnt_width = int(os.environ.get("CNT_WIDTH", "32"))
        self.sync_stages = int(os.environ.get("SYNC_STAGES", "2"))
        self.events: list[Output] = []
        self.bad_events = 0
        self.cycle0 = 0

    async def start(self, timeout: int = 0, enable: int = 1) -> None:
        dut = self.dut
        # The clock runs inside the testbench HDL (hdl/tb_latmon_core.v): CLOCK_NS period.
        dut.rst.value = 1
        dut.enable.value = 0
        dut.clear.value = 0
        dut.irq_mode.value = 0
        dut.ack_mode.value = 0
        dut.timeout.value = timeout
        dut.irq.value = 0
        dut.ack.value = 0
        for _ in range(3):
            await RisingEdge(dut.clk)
        dut.rst.value = 0
        dut.enable.value = enable
        cocotb.start_soon(self.monitor())
        # From here on the stimulus runs in the middle of each cycle.
        await Timer(CLOCK_NS // 2, unit="ns")
        self.cycle0 = int(dut.cycle.value)

    async def monitor(self) -> None:
        while True:
            await ValueChange(self.dut.event_reg)
            word = int(self.dut.event_reg.value)
            value = word & ((1 << 64) - 1)
            cycle = (word >> 64) & ((1 << 64) - 1)
            saturated = bool((word >> 128) & 1)
            kind = (word >> 129) & 7
            if kind not in (1, 2, 3, 4):
                self.bad_events += 1
                continue
            self.events.append(
                Output(
                    cycle - self.cycle0 - self.sync_stages - PIPELINE_EXTRA,
                    Kind(kind),
                    value if kind == Kind.SAMPLE else 0,
                    saturated,
                )
            )

    async def drive(self, changes: list[tuple[int, int | None, int | None]]) -> int:
        """Apply the input changes, one Timer per change; return the last cycle driven."""
        now = 0
        for cycle, irq, ack in changes:
            if cycle > now:
                await Timer((cycle - now) * CLOCK_NS, unit="ns")
                now = cycle
            if irq is not None:
                self.dut.irq.value = irq
            if ack is not None:
                self.dut.ack.value = ack
        return now

    async def settle(self, cycles: int) -> None:
        await Timer(cycles * CLOCK_NS, unit="ns")


def check(tb: TB, expected: list[Output]) -> None:
    """The scoreboard: every event, in order, to the cycle."""
    assert tb.bad_events == 0, "the core reported two kinds of event in one cycle"
    got = tb.events
    for i, (g, e) in enumerate(zip(got, expected, strict=False)):
        assert g == e, f"event {i}: RTL {g}, model {e}"
    assert len(got) == len(expected), f"RTL reported {len(got)} events, model {len(expected)}"


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
        sources=rtl("latmon_sync", "latmon_trigger", "latmon_core") + tb_hdl("tb_latmon_core"),
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
