"""The stages of the Linux SoC's interrupt path cross-checked with the kernel's own tracepoints
(docs/hw/linux-soc.md).

A run with `Params(trace=True)` has /init enable the irq and sched events of ftrace
(irq_handler_entry/exit, sched_wakeup, sched_switch) for the measurement and print the trace
buffer to the console between the lines `latmon-ftrace-begin` and `latmon-ftrace-end`. The
kernel stamps each event with its trace clock (sched_clock: the `time` CSR, which the firmware
emulates from the CLINT's `mtime`, which counts every cycle), printed in microseconds (100
cycles). The testbench's stage marks are cycles of the same clock, taken from the retiring
instructions. The two are independent records of the same execution:

- the offset between the two clocks is estimated from the kernel path's irq_handler_entry
  events alone, each against its own window's `uio_interrupt` mark: the UIO core's handler,
  which the generic IRQ layer calls right after the event for either path's device (for the
  kernel path it then calls `latmon_kack_irq`); the estimates' spread over those windows (the
  trace clock's microsecond and the event's own cycles, which vary with the caches) is the
  offset's uncertainty;
- with that offset, each user-space window where the instruction trace shows /init woken must
  hold, in this order, irq_handler_entry of the UIO device (before `uio_interrupt` retires, to
  within the offset's uncertainty),
  sched_wakeup of /init (after `try_to_wake_up`, before `__schedule`) and sched_switch to /init
  (after `__schedule`, before `__switch_to`), each within the microsecond of the trace clock of
  the stage boundary the instruction trace gives; a window where /init was not asleep must hold
  the device's irq_handler_entry and no wake-up of /init.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from linux_soc_stages import Window, windows, woken

CYCLES_PER_US = 100  # the 100 MHz clock
BEGIN, END = "latmon-ftrace-begin", "latmon-ftrace-end"
LINE = re.compile(
    r"^\s*(?P<task>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<flags>\S+)\s+"
    r"(?P<sec>\d+)\.(?P<usec>\d{6}):\s+(?P<event>\w+):\s*(?P<args>.*)$"
)


class FtraceError(Exception):
    """The console holds no trace, or the trace does not match the run's windows."""


@dataclass
class Event:
    us: int  # the trace clock, microseconds
    name: str
    args: str


def read_ftrace(uart_log: Path) -> list[Event]:
    """The events /init printed between the markers."""
    text = uart_log.read_text(errors="replace").replace("\r", "")
    if BEGIN not in text or END not in text:
        raise FtraceError(f"{uart_log}: no kernel trace ({BEGIN} ... {END})")
    body = text.split(BEGIN, 1)[1].split(END, 1)[0]
    out = []
    for line in body.splitlines():
        m = LINE.match(line)
        if m:
            us = int(m["sec"]) * 1_000_000 + int(m["usec"])
            out.append(Event(us, m["event"], m["args"].strip()))
    if not out:
        raise FtraceError(f"{uart_log}: the kernel trace is empty")
    return out


def _mark(w: Window, name: str, after: int | None = None) -> int | None:
    for cycle, m in w.marks or []:
        if m == name and (after is None or cycle >= after):
            return cycle
    return None


@dataclass
class Comparison:
    """Per event kind: event cycle (trace clock, aligned) minus the mark that bounds it."""

    offset: int = 0  # cycles: trace clock * 100 - testbench cycle
    offset_spread: int = 0  # max - min of the kernel path's per-event offsets
    kernel_windows: int = 0
    user_windows: int = 0
    user_in_order: int = 0  # windows where the kernel's events agree with the instruction trace
    user_not_woken: int = 0  # of which /init was not asleep at the raise (no wake-up in either)
    deltas: dict[str, list[int]] = field(default_factory=dict)
    events: int = 0

    def summary(self) -> dict[str, object]:
        return {
            "events": self.events,
            "offset_cycles": self.offset,
            "offset_spread_cycles": self.offset_spread,
            "kernel_windows": self.kernel_windows,
            "user_windows": self.user_windows,
            "user_in_order": self.user_in_order,
            "user_not_woken": self.user_not_woken,
            "deltas": {
                k: {"n": len(v), "min": min(v), "median": statistics.median_low(v), "max": max(v)}
                for k, v in self.deltas.items()
                if v
            },
        }


def compare(uart_log: Path, trace: Path) -> Comparison:
    events = read_ftrace(uart_log)
    ws = windows(trace)
    kws = [w for w in ws if w.line == 1]
    uws = [w for w in ws if w.line == 0]
    kentries = [e for e in events if e.name == "irq_handler_entry" and "name=latmon-kack" in e.args]
    if len(kentries) != len(kws) or not kws:
        raise FtraceError(
            f"{len(kentries)} irq_handler_entry events of latmon-kack in the trace, "
            f"{len(kws)} kernel-path windows in the run"
        )
    res = Comparison(events=len(events), kernel_windows=len(kws), user_windows=len(uws))
    offsets = []
    for e, w in zip(kentries, kws, strict=True):
        mark = _mark(w, "uio_interrupt")
        if mark is None:
            raise FtraceError(f"the kernel-path window at cycle {w.raise_cycle} has no handler")
        offsets.append(e.us * CYCLES_PER_US - mark)
    # the trace clock truncates to the microsecond: the event lies in [us, us + 1) * 100
    res.offset = max(offsets)
    res.offset_spread = max(offsets) - min(offsets)

    def cycle(e: Event) -> int:
        return e.us * CYCLES_PER_US - res.offset

    res.deltas = {
        "irq_handler_entry - uio_interrupt, kernel path": [o - res.offset for o in offsets],
        "irq_handler_entry - uio_interrupt": [],
        "sched_wakeup - try_to_wake_up": [],
        "__schedule - sched_wakeup": [],
        "sched_switch - __schedule": [],
        "__switch_to - sched_switch": [],
        "irq_handler_exit - kernel ack": [],
    }
    # the kernel path's exits: the first irq_handler_exit after each latmon-kack entry
    k = 0
    for i, e in enumerate(events):
        if e.name == "irq_handler_entry" and "name=latmon-kack" in e.args:
            nxt = next((x for x in events[i + 1 :] if x.name == "irq_handler_exit"), None)
            if nxt is not None:
                res.deltas["irq_handler_exit - kernel ack"].append(cycle(nxt) - kws[k].ack_cycle)
            k += 1
    for w in uws:
        inside = [e for e in events if w.raise_cycle - 100 <= cycle(e) <= w.ack_cycle + 100]
        entry = next(
            (e for e in inside if e.name == "irq_handler_entry" and e.args.endswith("name=latmon")),
            None,
        )
        wake = next(
            (e for e in inside if e.name == "sched_wakeup" and "comm=init " in e.args + " "),
            None,
        )
        switch = next(
            (e for e in inside if e.name == "sched_switch" and "next_comm=init " in e.args), None
        )
        uio = _mark(w, "uio_interrupt")
        if not woken(w):
            # /init was not asleep at the raise (the instruction trace has no switch to it): the
            # kernel's trace agrees if it has the device's irq and no wake-up of /init either
            res.user_not_woken += 1
            res.user_in_order += entry is not None and wake is None and switch is None
            continue
        ttwu = _mark(w, "try_to_wake_up", uio)
        sched = _mark(w, "__schedule", ttwu)
        sw = _mark(w, "__switch_to", sched)
        if None in (entry, wake, switch, uio, ttwu, sched, sw):
            continue
        assert entry and wake and switch and uio and ttwu and sched and sw  # for mypy
        d = {
            "irq_handler_entry - uio_interrupt": cycle(entry) - uio,
            "sched_wakeup - try_to_wake_up": cycle(wake) - ttwu,
            "__schedule - sched_wakeup": sched - cycle(wake),
            "sched_switch - __schedule": cycle(switch) - sched,
            "__switch_to - sched_switch": sw - cycle(switch),
        }
        for k, v in d.items():
            res.deltas[k].append(v)
        # in order and inside its stage, to the trace clock's microsecond: each event's cycle is
        # known to [c, c + 100)
        ok = (
            entry.us <= wake.us <= switch.us
            and d["irq_handler_entry - uio_interrupt"] <= res.offset_spread
            and d["sched_wakeup - try_to_wake_up"] >= -CYCLES_PER_US
            and d["__schedule - sched_wakeup"] >= 0
            and d["sched_switch - __schedule"] >= -CYCLES_PER_US
            and d["__switch_to - sched_switch"] >= 0
        )
        res.user_in_order += ok
    return res
