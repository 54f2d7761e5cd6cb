"""The values a reader takes: nanoseconds per unit, the unit of a tool's text (µs, or ns when
told), the largest count or latency accepted, and decimal text as an exact integer of a unit."""

from __future__ import annotations

import re
from fractions import Fraction

from latmon.errors import InputError
from latmon.inputs.readers import ReadOptions

#: nanoseconds per unit of the plain inputs
UNIT_NS = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}


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
