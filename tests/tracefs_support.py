"""What the tests of latprobe's tracing share: tracefs, whether this machine can trace, and the
trace instances latprobe leaves (it must leave none)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

TRACEFS = Path("/sys/kernel/tracing")

# The events latprobe --stages cannot do without; the timer interrupt's entry is one of two.
REQUIRED = ["timer/hrtimer_start", "timer/hrtimer_expire_entry", "sched/sched_waking"]
REQUIRED += ["sched/sched_switch"]
TIMER_IRQ = ["irq_vectors/local_timer_entry", "irq/irq_handler_entry"]


def tracing_unavailable() -> str | None:
    """Why latprobe cannot trace here (a skip reason), or None."""
    if os.geteuid() != 0:
        return "--stages needs root"
    if not (TRACEFS / "events").exists():
        subprocess.run(["mount", "-t", "tracefs", "nodev", str(TRACEFS)], check=False)
    events = TRACEFS / "events"
    missing = [e for e in REQUIRED if not (events / e).exists()]
    if missing:
        return f"this kernel has no trace event {', '.join(missing)}"
    if not any((events / e).exists() for e in TIMER_IRQ):
        return "this kernel traces no timer interrupt entry"
    return None


def instances() -> set[str]:
    """latprobe's trace instances that exist now (latprobe.<pid>, latprobe-break.<pid>)."""
    return {
        p.name
        for p in (TRACEFS / "instances").iterdir()
        if p.name.startswith(("latprobe.", "latprobe-break."))
    }
