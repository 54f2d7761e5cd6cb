"""Reference model of hw/rtl/latmon_core.v at the level of events.

The model works on the cycles at which the core *sees* trigger events (after the synchronizer
and edge logic), and produces the same output events the RTL produces, each stamped with its
cycle. It wakes per event, not per clock, so it is as fast as the testbench that feeds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum


class Kind(IntEnum):
    """What the core reports; the values match the testbench recorder's kind code."""

    SAMPLE = 1
    TIMEOUT = 2
    OVERRUN = 3
    IGNORED = 4


@dataclass(frozen=True, order=True)
class Output:
    cycle: int
    kind: Kind
    latency: int = 0
    saturated: bool = False


def core_model(
    irq_cycles: Iterable[int],
    ack_cycles: Iterable[int],
    cnt_width: int = 32,
    timeout: int = 0,
    end_cycle: int | None = None,
) -> list[Output]:
    """Outputs of latmon_core (edge modes, enabled) for events seen at the given cycles.

    A timeout that falls after ``end_cycle`` (the last cycle simulated) is not reported.
    """
    max_count = (1 << cnt_width) - 1
    irqs = set(irq_cycles)
    acks = set(ack_cycles)
    out: list[Output] = []
    start: int | None = None  # cycle of the irq event of the pending measurement

    def expire_before(cycle: int) -> None:
        """Time out the pending measurement if its timeout cycle comes before `cycle`."""
        nonlocal start
        if start is not None and timeout and start + timeout < cycle:
            out.append(Output(start + timeout, Kind.TIMEOUT))
            start = None

    for cycle in sorted(irqs | acks):
        expire_before(cycle)
        ends = False
        if start is not None:
            elapsed = cycle - start
            if cycle in acks:
                out.append(Output(cycle, Kind.SAMPLE, min(elapsed, max_count), elapsed > max_count))
                ends = True
            elif timeout and elapsed == timeout:
                out.append(Output(cycle, Kind.TIMEOUT))
                ends = True
        elif cycle in acks:
            out.append(Output(cycle, Kind.IGNORED))
        if ends:
            start = None
        if cycle in irqs:
            if start is not None:
                out.append(Output(cycle, Kind.OVERRUN))
            else:
                start = cycle
    if end_cycle is not None:
        expire_before(end_cycle + 1)
    return out
