"""Readers of third-party formats, one module per format, all producing the run model.

Each module has ``NAME`` and ``read(path, options, problems)``; which reader a file goes to is
decided once, from its content, by :func:`latmon.inputs.ingest.detect_format`, which also hands
the reader the file's :class:`Problems`. Errors name the file, the line and the problem; with
``options.keep_going`` a reader keeps what is valid and records each problem in the run. A reader
that reads the whole file at once returns what it found as plain data
(:class:`latmon.model.RunSpec`), and the loader has :func:`latmon.model.build_run` make the
model objects, in one place; the streamed readers (plain numbers, cyclictest -v) make their run
first and fill it as they stream.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from latmon.errors import InputError

#: nanoseconds per unit of the plain inputs
UNIT_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


@dataclass
class ReadOptions:
    keep_going: bool = False
    #: unit of inputs that do not say it (plain numbers, cyclictest text: default us)
    input_unit: str | None = None
    #: ILA CSV: the irq and ack signal columns and the sample clock
    irq: str | None = None
    ack: str | None = None
    clock_hz: int | None = None
    #: plain numbers: the column of a CSV that holds the latency (a name or 1-based number)
    column: str | None = None


class Problems:
    """Collects the problems of one input: raises at the first unless keep_going."""

    def __init__(self, path: str, keep_going: bool) -> None:
        self.path = path
        self.keep_going = keep_going
        self.items: list[str] = []

    def add(self, line: int | None, problem: str) -> None:
        if not self.keep_going:
            raise InputError(self.path, line, problem)
        where = f"line {line}: " if line is not None else ""
        self.items.append(where + problem)

    def fatal(self, line: int | None, problem: str) -> InputError:
        """A problem nothing can be kept after, even with keep_going: raise what this returns."""
        return InputError(self.path, line, problem)


def us_or_ns(options: ReadOptions, path: str, what: str) -> int:
    """ns per unit of a tool that writes µs, or ns when told (-N): the text does not say."""
    unit = options.input_unit or "us"
    if unit not in ("us", "ns"):
        raise InputError(path, None, f"{what} are in us or ns, not {unit}")
    return UNIT_NS[unit]


#: the largest count or latency (in ns) a reader accepts: leaves int64 headroom for sums
LIMIT = 2**62


def in_range(value: int) -> bool:
    return -LIMIT < value < LIMIT


_DECIMAL = re.compile(r"^[+-]?(\d+)(\.\d+)?$")


def decimal_to_int(text: str, factor: int) -> int:
    """'12.345' x factor as an exact integer; ValueError if not a number or not a whole
    number of the target unit."""
    if not _DECIMAL.match(text):
        raise ValueError(f"{text!r} is not a number")
    value = Fraction(text) * factor
    if value.denominator != 1:
        raise ValueError(f"{text} has more digits than the unit's resolution")
    if not in_range(int(value)):
        raise ValueError(f"{text} is too large to be a latency")
    return int(value)
