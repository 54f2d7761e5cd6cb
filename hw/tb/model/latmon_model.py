"""Reference model of the latmon IP: what software must read after a given sequence of events.

Two parts:

- :func:`core_cycle_model` — the measurement semantics clock by clock, with the run-time trigger
  modes (edges and levels) and enable. It is written independently of the event-level model in
  latmon_core_model.py; a test checks that the two agree on edge-mode stimulus.
- :func:`expected_registers` — the statistics, counters, alarm and trace RAM contents that follow
  from the core's output events, with every saturation rule of the RTL.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from model.latmon_core_model import Kind, Output

RISING, FALLING, LEVEL_HIGH, LEVEL_LOW = 0, 1, 2, 3


def _trigger(mode: int, now: int, prev: int) -> bool:
    if mode == RISING:
        return bool(now and not prev)
    if mode == FALLING:
        return bool(prev and not now)
    if mode == LEVEL_HIGH:
        return bool(now)
    return not now


def core_cycle_model(
    irq: Sequence[int],
    ack: Sequence[int],
    irq_mode: int = RISING,
    ack_mode: int = RISING,
    timeout: int = 0,
    cnt_width: int = 32,
    enable: Sequence[int] | None = None,
) -> list[Output]:
    """Outputs of latmon_core for the input levels it sees in each cycle (after synchronization).

    irq[c], ack[c] are the synchronized levels in cycle c; enable[c] the enable (default 1).
    """
    max_count = (1 << cnt_width) - 1
    out: list[Output] = []
    busy = False
    count = 0
    full = False
    prev_irq = irq[0] if irq else 0
    prev_ack = ack[0] if ack else 0
    for c in range(len(irq)):
        en = 1 if enable is None else enable[c]
        irq_ev = _trigger(irq_mode, irq[c], prev_irq)
        ack_ev = _trigger(ack_mode, ack[c], prev_ack)
        prev_irq, prev_ack = irq[c], ack[c]
        timed_out = busy and not ack_ev and timeout != 0 and count == timeout
        ends = busy and (ack_ev or timed_out)
        starts = bool(en) and irq_ev and (not busy or ends)
        if busy and ack_ev:
            out.append(Output(c, Kind.SAMPLE, count, full))
        if timed_out:
            out.append(Output(c, Kind.TIMEOUT))
        if en and irq_ev and irq_mode < LEVEL_HIGH and busy and not ends:
            out.append(Output(c, Kind.OVERRUN))
        if en and ack_ev and ack_mode < LEVEL_HIGH and not busy:
            out.append(Output(c, Kind.IGNORED))
        # next state
        if starts:
            busy, count, full = True, 1, False
        else:
            if ends:
                busy = False
            elif busy:
                if count == max_count:
                    full = True
                else:
                    count += 1
    return out


@dataclass
class Expected:
    """Register values and trace contents after a sequence of core output events."""

    last: int = 0
    min: int = 0
    max: int = 0
    count: int = 0
    sum: int = 0
    violations: int = 0
    timeouts: int = 0
    overruns: int = 0
    ignored: int = 0
    alarm: bool = False
    saturated: bool = False
    trace_count: int = 0
    trace_lost: int = 0
    trace_filled: bool = False
    trace_wrapped: bool = False
    trace: dict[int, int] = field(default_factory=dict)  # word index -> value
    samples: list[int] = field(default_factory=list)  # every sample, in order

    def result_registers(self) -> dict[str, int]:
        """The single-word result registers (RESULT_REGISTERS) as the RTL must show them."""
        return {
            "LAST": self.last,
            "MIN": self.min,
            "MAX": self.max,
            "COUNT": self.count,
            "VIOLATIONS": self.violations,
            "TIMEOUTS": self.timeouts,
            "OVERRUNS": self.overruns,
            "IGNORED": self.ignored,
            "TRACE_COUNT": self.trace_count,
            "TRACE_LOST": self.trace_lost,
        }


#: result registers that hold one value each (the 48-bit sum is read as SUM_LO/SUM_HI)
RESULT_REGISTERS = tuple(Expected().result_registers())


def expected_registers(
    outputs: Sequence[Output],
    *,
    cnt_width: int = 32,
    counter_width: int = 32,
    sum_width: int = 48,
    threshold: int = 0,
    trace_depth: int = 512,
    trace_width: int = 32,
    ring: bool = False,
) -> Expected:
    cmax = (1 << counter_width) - 1
    smax = (1 << sum_width) - 1
    wmax = (1 << trace_width) - 1
    e = Expected(min=(1 << cnt_width) - 1)

    def bump(value: int) -> int:
        """A saturating counter: stops at all ones, which STATUS.SATURATED reports."""
        if value < cmax:
            value += 1
        if value == cmax:
            e.saturated = True
        return value

    for o in outputs:
        if o.kind == Kind.SAMPLE:
            v = o.latency
            e.samples.append(v)
            e.last = v
            e.min = min(e.min, v)
            e.max = max(e.max, v)
            if e.sum + v > smax:
                e.sum = smax
                e.saturated = True
            else:
                e.sum += v
            e.count = bump(e.count)
            if threshold and v > threshold:
                e.violations = bump(e.violations)
                e.alarm = True
            if ring or not e.trace_filled:
                index = e.trace_count % trace_depth
                e.trace[index] = min(v, wmax)
                if e.trace_filled:
                    e.trace_wrapped = True
                if index == trace_depth - 1:
                    e.trace_filled = True
                e.trace_count = (e.trace_count + 1) % (1 << 32)
            else:
                e.trace_lost = bump(e.trace_lost)
        elif o.kind == Kind.TIMEOUT:
            e.timeouts = bump(e.timeouts)
        elif o.kind == Kind.OVERRUN:
            e.overruns = bump(e.overruns)
        elif o.kind == Kind.IGNORED:
            e.ignored = bump(e.ignored)
    return e
