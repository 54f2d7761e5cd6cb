"""Testbench parts shared by the latmon testbenches: stimulus, waveform, event monitor, TB base.

The testbenches wake per event, not per clock: the clock runs in the testbench HDL, the stimulus
waits with Timer() between input changes, and the HDL recorder packs every output event of the
measurement core with its cycle into one vector (event_reg) that the monitor waits on.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge, Timer, ValueChange
from model.latmon_core_model import Kind, Output

CLOCK_NS = 10
# Cycles from an input change (driven in the middle of cycle c) to the cycle stamp of the output
# event it causes, beyond the synchronizer's stages: the trigger's event register and the core's
# output register. Pinned by test_latmon_core.latency_and_pipeline_delay.
PIPELINE_EXTRA = 2


@dataclass
class Stimulus:
    """Rising-edge cycles of irq and ack, each pulse one or more cycles wide."""

    irq: list[int]
    ack: list[int]


def random_stimulus(
    rng: random.Random,
    events: int,
    long_gap: int = 400,
    start: int = 4,
    max_gap: int = 60,
    max_latency: int = 80,
) -> Stimulus:
    """irq pulses with random spacing and an ack for most of them after a random latency.

    The mixture covers back-to-back irqs, ack in the same cycle as the next irq, latencies of
    1..3 cycles, long silences (timeouts when long_gap exceeds the timeout), lost acks
    (overruns) and extra acks (ignored).
    """
    irq: list[int] = []
    ack: set[int] = set()
    t = start
    for _ in range(events):
        irq.append(t)
        gap = rng.choice((2, 2, 3, 4)) if rng.random() < 0.2 else rng.randint(2, max_gap)
        r = rng.random()
        if r < 0.08:
            pass  # no ack: the next irq overruns, or the measurement times out
        elif r < 0.18:
            ack.add(t + gap)  # ack in the same cycle as the next irq
        elif r < 0.30:
            ack.add(t + rng.randint(1, 3))
        elif r < 0.32:
            ack.add(t + gap + rng.randint(min(40, long_gap), long_gap))  # late: overruns
        elif r < 0.34:
            gap = long_gap + rng.randint(1, 50)  # silence: the measurement times out
        else:
            ack.add(t + rng.randint(1, max_latency))
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


async def until_low(signal, clk) -> None:
    """Until `signal` reads 0 at a falling edge of `clk`, when every update of the rising edge
    has settled: Python wakes when the signal falls, not at every clock."""
    while int(signal.value):
        await FallingEdge(signal)
        await FallingEdge(clk)


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


def decode_event(word: int, cycle0: int, sync_stages: int) -> Output | None:
    """An Output from the packed event vector of the testbench recorder (None: bad event)."""
    value = word & ((1 << 64) - 1)
    cycle = (word >> 64) & ((1 << 64) - 1)
    saturated = bool((word >> 128) & 1)
    kind = (word >> 129) & 7
    if kind not in (1, 2, 3, 4):
        return None
    return Output(
        cycle - cycle0 - sync_stages - PIPELINE_EXTRA,
        Kind(kind),
        value if kind == Kind.SAMPLE else 0,
        saturated,
    )


class TB:
    """Owns reset, the stimulus driver and the event monitor (the clock runs in the HDL).

    irq and ack are the names of the DUT inputs the stimulus drives."""

    def __init__(self, dut, irq: str = "irq", ack: str = "ack") -> None:
        self.dut = dut
        self.irq = getattr(dut, irq)
        self.ack = getattr(dut, ack)
        self.cnt_width = int(os.environ.get("CNT_WIDTH", "32"))
        self.sync_stages = int(os.environ.get("SYNC_STAGES", "2"))
        self.events: list[Output] = []
        self.bad_events = 0
        self.cycle0 = 0
        self.monitor_task: cocotb.task.Task | None = None

    async def reset(self, cycles: int = 3) -> None:
        """Hold rst for some cycles with the inputs low, then release it."""
        self.dut.rst.value = 1
        self.irq.value = 0
        self.ack.value = 0
        for _ in range(cycles):
            await RisingEdge(self.dut.clk)
        self.dut.rst.value = 0

    async def start_monitor(self) -> None:
        """Start recording events (once); the stimulus runs in the middle of each cycle from now
        on, and cycles count from here."""
        if self.monitor_task is None:
            self.monitor_task = cocotb.start_soon(self.monitor())
        await Timer(CLOCK_NS // 2, unit="ns")
        self.cycle0 = int(self.dut.cycle.value)

    async def start(self, timeout: int = 0, enable: int = 1) -> None:
        """latmon_core's testbench: configure the core's ports directly, reset, monitor."""
        dut = self.dut
        dut.enable.value = 0
        dut.clear.value = 0
        dut.irq_mode.value = 0
        dut.ack_mode.value = 0
        dut.timeout.value = timeout
        await self.reset()
        dut.enable.value = enable
        await self.start_monitor()

    async def monitor(self) -> None:
        while True:
            await ValueChange(self.dut.event_reg)
            event = decode_event(int(self.dut.event_reg.value), self.cycle0, self.sync_stages)
            if event is None:
                self.bad_events += 1
            else:
                self.events.append(event)

    def now(self) -> int:
        """The current cycle, counted as the stimulus counts (0 when the monitor started)."""
        return int(self.dut.cycle.value) - self.cycle0

    async def drive(self, changes: list[tuple[int, int | None, int | None]]) -> int:
        """Apply the input changes (cycles relative to now), one Timer per change; return the
        last cycle driven."""
        now = 0
        for cycle, irq, ack in changes:
            if cycle > now:
                await Timer((cycle - now) * CLOCK_NS, unit="ns")
                now = cycle
            if irq is not None:
                self.irq.value = irq
            if ack is not None:
                self.ack.value = ack
        return now

    async def settle(self, cycles: int) -> None:
        await Timer(cycles * CLOCK_NS, unit="ns")


def check(tb: TB, expected: list[Output]) -> None:
    """The scoreboard: every event, in order, to the cycle."""
    assert tb.bad_events == 0, "the core reported two kinds of event in one cycle"
    got = tb.events
    for i, (g, e) in enumerate(zip(got, expected, strict=False)):
        context = f"RTL {got[max(0, i - 3) : i + 3]} model {expected[max(0, i - 3) : i + 3]}"
        assert g == e, f"event {i}: RTL {g}, model {e}; {context}"
    assert len(got) == len(expected), f"RTL reported {len(got)} events, model {len(expected)}"
