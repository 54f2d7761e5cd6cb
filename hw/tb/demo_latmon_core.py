"""cocotb module of the demo: latmon_core under an interrupt-like workload, results as latmon-log.

Workload (100 MHz clock): an irq every 10 µs ± 2 µs; the "ISR" acknowledges after a base
latency with jitter and an occasional long tail; a few interrupts are never acknowledged in
time (timeouts) and a few arrive while one is pending (overruns). The latencies written are the
ones the RTL measured, not the workload's: the scoreboard checks them against the model first.
"""

from __future__ import annotations

import os
import random

import cocotb
from latmon_tb import TB, Stimulus, check, waveform
from model.latmon_core_model import Kind, core_model

from latmon.inputs.logformat import LogWriter

CLOCK_HZ = 100_000_000
TIMEOUT = 5000  # cycles: 50 µs


def isr_workload(rng: random.Random, events: int) -> Stimulus:
    irq, ack = [], []
    t = 100
    for _ in range(events):
        irq.append(t)
        r = rng.random()
        if r < 0.005:
            latency = None  # never acknowledged: timeout
        elif r < 0.03:
            latency = rng.randint(400, 3000)  # long tail: the ISR was held off
        else:
            latency = 60 + int(rng.expovariate(1 / 15))  # base + jitter
        if latency is not None:
            ack.append(t + latency)
        gap = 1000 + rng.randint(-200, 200)
        if rng.random() < 0.003:
            gap = rng.randint(20, 50)  # a second interrupt too soon: overrun if still pending
        t += max(gap, (latency or 0) + 2 if gap > 50 else gap)
    return Stimulus(irq, sorted(set(ack)))


@cocotb.test()
async def demo_workload(dut) -> None:
    events = int(os.environ.get("EVENTS", "5000"))
    rng = random.Random(int(os.environ.get("SEED", "2026")))
    stim = isr_workload(rng, events)
    tb = TB(dut)
    await tb.start(timeout=TIMEOUT)
    end = await tb.drive(waveform(stim))
    await tb.settle(TIMEOUT + 20)
    check(tb, core_model(stim.irq, stim.ack, tb.cnt_width, TIMEOUT, end_cycle=end + TIMEOUT + 10))
    counts = {k: sum(1 for e in tb.events if e.kind == k) for k in Kind}
    with open(os.environ["LOG_PATH"], "w", encoding="ascii", newline="\n") as f:
        w = LogWriter(
            f,
            source="latmon_core-sim",
            unit="cycles",
            clock_hz=CLOCK_HZ,
            scenario=os.environ.get("SCENARIO", "fabric-sim"),
            simulator="icarus",
            timeout_cycles=TIMEOUT,
            seed=os.environ.get("SEED", "2026"),
        )
        sid = w.series("core0", channel=0)
        for e in tb.events:
            if e.kind == Kind.SAMPLE:
                w.sample(sid, e.latency)
        w.counters(
            sid,
            events=len(stim.irq),
            count=counts[Kind.SAMPLE],
            timeouts=counts[Kind.TIMEOUT],
            overruns=counts[Kind.OVERRUN],
            ignored=counts[Kind.IGNORED],
        )
        w.close()
