"""Spike explanations as latprobe writes them (docs/latprobe.md, "Spikes explained").

latprobe --stages explains the worst wake-ups of each CPU (and, with --explain, every one above
a threshold): one series per explained wake-up, ``kind=spike``, whose C record holds the
explanation (the sample's ``t`` and ``latency``, the ``cause``, its ``class``, the one-line
``why``, the stages) and whose rows are the contributors: what held the CPU, in which stage, for
how long (the ``latency`` column), their names in ``who0``, ``who1``, ... This module reads
them back into plain objects for reports.
"""

from __future__ import annotations

from dataclasses import dataclass

from latmon.errors import InputError
from latmon.model import Run, Series

#: latprobe's stage numbers (``stage`` column; 5: the sample has no stages).
STAGES = ("irq", "handler", "wakeup", "sched", "user", "unstaged")
#: latprobe's holder numbers (``holder`` column): what held the CPU.
HOLDERS = ("probe", "idle", "task", "irq", "vector", "softirq", "hrtimer", "unknown")
#: kernel priority latprobe writes when it is not known
UNKNOWN_PRIO = -32768


@dataclass
class Contributor:
    """One thing that held the CPU within one stage of a late wake-up."""

    name: str
    holder: str
    stage: str
    ns: int
    id: int
    prio: int | None  # kernel priority of a task (0..99 real-time 99..0, 100..139 nice -20..19)
    first: int  # when it first held the CPU, ns after the expiry

    @property
    def prio_text(self) -> str:
        """ "rt 99", "nice 0", "deadline", "" when not a task or unknown."""
        if self.holder != "task" or self.prio is None:
            return ""
        if self.prio < 0:
            return "deadline"
        if self.prio < 100:
            return f"rt {99 - self.prio}"
        return f"nice {self.prio - 120}"

    @property
    def label(self) -> str:
        """ "stress-ng (pid 99, nice 0)", "softirq NET_RX", "irq 11 virtio0"."""
        if self.holder == "task":
            prio = f", {self.prio_text}" if self.prio_text else ""
            return f"{self.name} (pid {self.id}{prio})"
        if self.holder in ("softirq", "hrtimer"):
            return f"{self.holder} {self.name}"
        if self.holder == "vector":
            return f"interrupt {self.name}"
        return self.name


@dataclass
class Spike:
    """One explained late wake-up."""

    cpu: str
    rank: int
    t: int  # ns since the run's start (the sample's t)
    latency: int  # ns
    cause: str
    cause_class: str  # hardware, interrupts, scheduler, probe, unknown
    why: str
    stages: dict[str, int] | None  # irq..user in ns, None when not decomposed
    stage_result: str
    switch_traced: bool | None
    contributors: list[Contributor]
    other_ns: int
    silence_ns: int


def _int(series: Series, key: str, where: str) -> int:
    try:
        return int(series.meta[key])
    except (KeyError, ValueError):
        raise InputError(where, None, f"spike series {series.name!r}: no integer {key}=") from None


def spike_of(series: Series, where: str = "") -> Spike:
    """The explanation held by one ``kind=spike`` series."""
    meta = series.meta
    stages = None
    if meta.get("stage_result") == "ok":
        stages = {name: _int(series, f"stage_{name}", where) for name in STAGES[:5]}
    columns = series.columns
    contributors = []
    for k in range(len(series.latency)):
        stage, holder = int(columns["stage"][k]), int(columns["holder"][k])
        prio = int(columns["prio"][k])
        contributors.append(
            Contributor(
                name=meta.get(f"who{k}", "?"),
                holder=HOLDERS[holder] if 0 <= holder < len(HOLDERS) else "unknown",
                stage=STAGES[stage] if 0 <= stage < len(STAGES) else "unstaged",
                ns=int(series.latency[k]),
                id=int(columns["id"][k]),
                prio=None if prio == UNKNOWN_PRIO else prio,
                first=int(columns["first"][k]),
            )
        )
    switch = meta.get("switch_traced")
    return Spike(
        cpu=meta.get("of", series.name.split(".")[0]),
        rank=_int(series, "rank", where),
        t=_int(series, "t", where),
        latency=_int(series, "latency", where),
        cause=meta.get("cause", "none"),
        cause_class=meta.get("class", "unknown"),
        why=meta.get("why", ""),
        stages=stages,
        stage_result=meta.get("stage_result", ""),
        switch_traced=None if switch is None else switch == "1",
        contributors=contributors,
        other_ns=series.counters.get("other_ns", 0),
        silence_ns=series.counters.get("silence_ns", 0),
    )


def spikes_of(run: Run) -> list[Spike]:
    """Every explained wake-up of a run, the largest latency first."""
    found = [spike_of(s, run.path) for s in run.series if s.is_spike]
    return sorted(found, key=lambda s: (-s.latency, s.cpu, s.t))
