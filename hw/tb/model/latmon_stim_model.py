"""Reference model of hw/rtl/latmon_stim.v: the cycles of the pulses of one run.

Cycles count from the start strobe (start high in cycle 0); the first pulse is high in cycle
I1 + 7 (the span max - min + 1 takes three cycles, three more fill the pipeline that computes
the intervals ahead, the sixth loads the first), each further one an interval after the previous
(intervals of 0 count as 1).
"""

from __future__ import annotations

import math

from model.xorshift import xorshift

PERIODIC, RANDOM, BURST = 0, 1, 2
# Cycles from the start strobe to the first pulse, less the first interval.
FIRST_PULSE_DELAY = 7


def random_interval(x: int, lo: int, hi: int) -> int:
    hi = max(hi, lo)
    return lo + (((x >> 16) * (hi - lo + 1)) >> 16)


def intervals(
    mode: int,
    count: int,
    period: int = 0,
    interval_min: int = 0,
    interval_max: int = 0,
    burst_len: int = 1,
    pause: int = 0,
    seed: int = 1,
) -> list[int]:
    """The first ``count`` intervals (the first: from the start strobe)."""
    out = []
    x = xorshift(seed or 1)
    burst_n = burst_len or 1
    for k in range(count):
        if mode == RANDOM:
            value = random_interval(x, interval_min, interval_max)
            x = xorshift(x)
        elif mode == BURST:
            value = pause if k and k % burst_n == 0 else period
        else:
            value = period
        out.append(max(value, 1))
    return out


def pulse_cycles(mode: int, count: int, **kw: int) -> list[int]:
    cycles, t = [], FIRST_PULSE_DELAY
    for value in intervals(mode, count, **kw):
        t += value
        cycles.append(t)
    return cycles


def expected_served(pulses: int, period: int, service: int) -> int:
    """Interrupts every ``period`` cycles, a CPU that takes one only when idle and is busy for
    ``service`` cycles (idle again in the cycle its ack goes out): it takes every m-th,
    m = ceil(service / period), so ceil(pulses / m) of them; the others are lost."""
    m = max(1, math.ceil(service / period))
    return math.ceil(pulses / m)
