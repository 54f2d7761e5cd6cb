"""Cross-check of the Linux SoC's measurements with the simulator's own record
(docs/hw/linux-soc.md).

Each latency a latmon core printed (the latmon-log on the console) is compared, in order, with
what the testbench saw independently of the IP: the cycle irqgen line n rose (the interrupt
edge, ``Ln``) and the cycle the shared bus completed the store to ACK[n] (``An``, with the
privilege the CPU was in). Both are logged one cycle after the edge they record, so the
difference is the latency in the IP's terms (its raise and acknowledge pulses are those edges).
Series ``kernel-ack`` is line 1 (acknowledged in the kernel's handler: privilege supervisor),
``user-ack`` line 0 (acknowledged by the user-space process: privilege user).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

PRIV = {0: "user", 1: "supervisor", 3: "machine"}


LINES = {"kernel-ack": 1, "user-ack": 0}


@dataclass
class TraceEvents:
    raises: dict[int, list[int]] = field(default_factory=lambda: {0: [], 1: []})
    # (cycle, privilege) per line
    acks: dict[int, list[tuple[int, int]]] = field(default_factory=lambda: {0: [], 1: []})
    kernel: int | None = None
    user: int | None = None
    checkpoint: int | None = None  # /init asked for its parameters (the boot's end)
    end: int | None = None
    exit_code: int | None = None


def read_trace(path: Path) -> TraceEvents:
    ev = TraceEvents()
    for n, line in enumerate(path.read_text().splitlines(), 1):
        parts = line.split()
        if len(parts) < 2 or not parts[0].isdigit():
            raise ValueError(f"{path}:{n}: not a trace line: {line!r}")
        cycle, kind = int(parts[0]), parts[1]
        if kind in ("L0", "L1"):
            ev.raises[int(kind[1])].append(cycle)
        elif kind in ("A0", "A1"):
            ev.acks[int(kind[1])].append((cycle, int(parts[2])))
        elif kind == "K":
            ev.kernel = cycle
        elif kind == "U":
            ev.user = cycle
        elif kind == "C":
            ev.checkpoint = cycle
        elif kind == "X":
            ev.end, ev.exit_code = cycle, int(parts[2])
    return ev


@dataclass
class Pair:
    raise_cycle: int
    ack_cycle: int
    privilege: int

    @property
    def latency(self) -> int:
        return self.ack_cycle - self.raise_cycle


def pairs(ev: TraceEvents, line: int) -> list[Pair]:
    """Each raise of a line with the first acknowledging store after it."""
    acks = ev.acks[line]
    ack_cycles = [a[0] for a in acks]
    out = []
    for r in ev.raises[line]:
        k = bisect.bisect_right(ack_cycles, r)
        if k < len(acks):
            out.append(Pair(r, acks[k][0], acks[k][1]))
    return out


@dataclass
class SeriesCheck:
    name: str
    samples: list[int]
    pairs: list[Pair]
    mismatches: int
    first: str


@dataclass
class CheckReport:
    series: dict[str, SeriesCheck]

    @property
    def checked(self) -> int:
        return sum(len(s.samples) for s in self.series.values())

    @property
    def mismatches(self) -> int:
        return sum(s.mismatches for s in self.series.values())

    def summary(self) -> str:
        parts = [
            f"{s.name} {len(s.samples)} samples, {s.mismatches} mismatches"
            + (f" (first: {s.first})" if s.first else "")
            for s in self.series.values()
        ]
        return "compared with the bus and irq record: " + "; ".join(parts)


def _compare(name: str, got: list[int], want: list[Pair]) -> SeriesCheck:
    mismatches = sum(1 for g, w in zip(got, want, strict=False) if g != w.latency)
    mismatches += abs(len(got) - len(want))
    first = ""
    for i, (g, w) in enumerate(zip(got, want, strict=False)):
        if g != w.latency:
            first = f"sample {i}: the IP measured {g}, the bus and irq record {w.latency}"
            break
    if not first and len(got) != len(want):
        first = f"{len(got)} samples printed, {len(want)} raise/ack pairs in the trace"
    return SeriesCheck(name, got, want, mismatches, first)


def check(uart_log: Path, trace: Path) -> CheckReport:
    from latmon.inputs.ingest import load

    runs = load(uart_log)
    ev = read_trace(trace)
    out = {}
    for name, line in LINES.items():
        got = [
            int(v) for run in runs for s in run.series if s.name == name for v in s.latency.tolist()
        ]
        out[name] = _compare(name, got, pairs(ev, line))
    return CheckReport(out)
