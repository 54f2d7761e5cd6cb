"""Reference model of hw/rtl/latmon_stamp.v, cycle by cycle.

Events are given by the cycle in which the RTL decides them (INPUT_DELAY cycles after the
cycle they are on the inputs). The rules (docs/hw/latmon_stamp.md): the end is matched against
the table as it was before the cycle; a start takes the lowest entry free before the cycle, is
refused when none is (full) or when its ID is outstanding (duplicate); the timeout scan looks at
entry `scan` (advancing every cycle) and frees it when it is at least `timeout` cycles old,
unless the end of the same cycle matched it. A match emits a sample SAMPLE_DELAY cycles later (the
RTL selects, subtracts and saturates the latency in a pipeline). The counters are compared once
the traffic has settled: the RTL counts an outcome three or four cycles after its decision.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Cycles from the cycle an event is on the inputs to the cycle the RTL decides it (the inputs
# are registered, then compared with the table in two steps).
INPUT_DELAY = 3
# Cycles from the cycle that matches an end to the cycle its sample is valid.
SAMPLE_DELAY = 7


@dataclass
class StampResult:
    samples: list[tuple[int, int]] = field(default_factory=list)  # (cycle, latency)
    matched: int = 0
    unmatched: int = 0
    timeouts: int = 0
    full: int = 0
    duplicates: int = 0
    outstanding: int = 0


def stamp_model(
    starts: dict[int, int],
    ends: dict[int, int],
    entries: int,
    timeout: int,
    first_cycle: int,
    last_cycle: int,
    scan_at_first: int,
    cnt_width: int = 32,
) -> StampResult:
    used = [False] * entries
    ids = [0] * entries
    times = [0] * entries
    scan = scan_at_first
    out = StampResult()
    top = (1 << cnt_width) - 1
    for p in range(first_cycle, last_cycle + 1):
        hit = None
        if p in ends:
            hits = [i for i in range(entries) if used[i] and ids[i] == ends[p]]
            hit = hits[0] if hits else None
            if hit is None:
                out.unmatched += 1
        store = None
        if p in starts:
            if any(used[i] and ids[i] == starts[p] for i in range(entries)):
                out.duplicates += 1
            elif all(used):
                out.full += 1
            else:
                store = used.index(False)
        expire = timeout != 0 and used[scan] and p - times[scan] >= timeout and hit != scan
        if hit is not None:
            out.matched += 1
            out.samples.append((p + SAMPLE_DELAY, min(p - times[hit], top)))
            used[hit] = False
        if expire:
            out.timeouts += 1
            used[scan] = False
        if store is not None:
            used[store] = True
            ids[store] = starts[p]
            times[store] = p
        scan = (scan + 1) % entries
    out.outstanding = sum(used)
    return out
