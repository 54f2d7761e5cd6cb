"""The interrupt path through Linux split into stages, from the CPU's retired instructions
(docs/hw/linux-soc.md).

The testbench logs, between each raise of a line and the store that acknowledges it, every
retirement of an instruction at one of the addresses of MARKS (the first instruction of a kernel
function, from the kernel's System.map) and every change of privilege. A stage ends where the
next mark first retires after the previous one; the stages of one interrupt therefore add up to
its raise -> acknowledge time, which the cross-check (linux_soc_check.py) equals to the IP's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# The kernel functions whose first instruction marks a stage boundary, in the tb's index order.
MARKS = (
    "handle_exception",  # 0: the trap vector (stvec): the hardware's entry is done
    "plic_handle_irq",  # 1: the PLIC's chained handler (after the CPU intc's)
    "handle_fasteoi_irq",  # 2: the generic IRQ layer's flow handler
    "latmon_kack_irq",  # 3: the kernel-ack device handler
    "uio_interrupt",  # 4: the UIO core's handler (user-ack)
    "try_to_wake_up",  # 5: the poll()er is woken
    "__schedule",  # 6: the scheduler runs
    "__switch_to",  # 7: the context switch
    "ret_from_exception",  # 8: the way back to user space
)

# (stage name, the mark that ends it; "user" = the first user-mode instruction, "ack" = the store)
STAGES = {
    "kernel-ack": (
        ("trap entry", "handle_exception"),
        ("irq layer", "latmon_kack_irq"),
        ("handler", "ack"),
    ),
    "user-ack": (
        ("trap entry", "handle_exception"),
        ("irq layer", "uio_interrupt"),
        ("handler", "try_to_wake_up"),
        ("wake-up", "__schedule"),
        ("switch", "__switch_to"),
        ("return to user", "user"),
        ("user code", "ack"),
    ),
}


class StageError(Exception):
    """The kernel's System.map lacks a mark, or the trace a window."""


def write_syms(system_map: Path, out: Path) -> list[str]:
    """The $readmemh file of the marks' addresses for +syms (0 for a mark the kernel lacks);
    returns the marks it lacks."""
    addr: dict[str, int] = {}
    for line in system_map.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tT" and parts[2] in MARKS:
            addr.setdefault(parts[2], int(parts[0], 16))
    out.write_text("".join(f"{addr.get(m, 0):08x}\n" for m in MARKS))
    return [m for m in MARKS if m not in addr]


#: A trap entry (raise -> trap vector) longer than this found interrupts masked at the raise:
#: with them enabled it takes tens of cycles here, masked it waits for the kernel to enable them.
MASKED_TRAP_ENTRY = 1000


@dataclass
class Window:
    line: int
    raise_cycle: int
    ack_cycle: int = -1
    marks: list[tuple[int, str]] | None = None  # (cycle, mark name or "user")
    armed: int = -1  # the cycle of the arming before the raise (-1: none in the trace)
    wfi: int = -1  # the first cycle after that arming at which the CPU waited in wfi (-1: none)
    waiting: bool = False  # the CPU waited in wfi when the line rose

    @property
    def to_wfi(self) -> int | None:
        """Cycles from the arming to the CPU's first wait in wfi, if it waited before the raise."""
        return self.wfi - self.armed if self.armed >= 0 and self.wfi >= 0 else None


def windows(trace: Path) -> list[Window]:
    out: list[Window] = []
    cur: Window | None = None
    armed, wfi, waiting = -1, -1, False
    for line in trace.read_text().splitlines():
        parts = line.split()
        cycle, kind = int(parts[0]), parts[1]
        if kind == "R":
            armed, wfi, waiting = cycle, -1, False
        elif kind == "W":
            wfi, waiting = wfi if wfi >= 0 else cycle, True
        elif kind == "w":
            waiting = False
        if kind in ("L0", "L1"):
            cur = Window(int(kind[1]), cycle, marks=[], armed=armed, wfi=wfi, waiting=waiting)
            out.append(cur)
            armed, wfi, waiting = -1, -1, False
        elif kind in ("A0", "A1") and cur is not None and cur.ack_cycle < 0:
            cur.ack_cycle = cycle
            cur = None
        elif cur is not None and cur.marks is not None:
            if kind == "S":
                cur.marks.append((cycle, MARKS[int(parts[2])]))
            elif kind == "P" and parts[2] == "0":
                cur.marks.append((cycle, "user"))
    return [w for w in out if w.ack_cycle >= 0]


def decompose(w: Window, path: str) -> list[int]:
    """Cycles per stage of one interrupt; they add up to ack - raise."""
    t, i, result = w.raise_cycle, 0, []
    marks = w.marks or []
    for _, end in STAGES[path]:
        if end == "ack":
            nxt = w.ack_cycle
        else:
            j = i
            while j < len(marks) and (marks[j][1] != end or marks[j][0] < t):
                j += 1
            if j < len(marks):
                nxt, i = marks[j][0], j + 1
            else:
                nxt = t  # the mark did not retire in this window: the stage is empty
        result.append(nxt - t)
        t = nxt
    if t != w.ack_cycle:
        raise StageError("stage marks after the acknowledge")
    return result


def path_of(line: int) -> str:
    return "kernel-ack" if line == 1 else "user-ack"


# The device's handler: a window without it is a sample the CPU did not take as an interrupt
# (e.g. the process saw the line high while it polled the irqgen's PENDING after a wake-up for an
# earlier, re-latched interrupt): not a measurement of the interrupt path.
HANDLER = {"kernel-ack": "latmon_kack_irq", "user-ack": "uio_interrupt"}


def took_interrupt(w: Window, path: str) -> bool:
    """The window holds the trap vector and then the device's handler."""
    names = [m for _, m in w.marks or []]
    return "handle_exception" in names and HANDLER[path] in names[names.index("handle_exception") :]


def woken(w: Window) -> bool:
    """A user-ack sample: the process was asleep when the line rose: the window holds the
    device's handler and, after it, the switch to the woken process (a process still on its way
    into poll() when the line rises is not switched to, and its sample is not the path)."""
    names = [m for _, m in w.marks or []]
    return "uio_interrupt" in names and "__switch_to" in names[names.index("uio_interrupt") :]
