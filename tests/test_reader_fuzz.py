"""Fuzzing every reader: mutated real inputs and random text must either read or fail with an
InputError that names the file (and the line where there is one) — never crash.

A short run is part of `make test`; `make fuzz` runs LATMON_FUZZ_EXAMPLES (default there:
20,000 per reader, > 100,000 in all) through the same tests.
"""

from __future__ import annotations

import os
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from latmon.errors import InputError, LatmonError
from latmon.inputs._textparse import parse
from latmon.inputs.ingest import load
from latmon.inputs.readers import ReadOptions
from latmon.inputs.readers.units import decimal_to_int

DATA = Path(__file__).parent / "data"
EXAMPLES = int(os.environ.get("LATMON_FUZZ_EXAMPLES", "150"))

ILA = (
    "Sample in Buffer,Sample in Window,TRIGGER,u/irq,u/ack\n"
    "Radix - UNSIGNED,UNSIGNED,UNSIGNED,BINARY,BINARY\n"
    + "".join(f"{i},{i},0,{int(i % 7 == 1)},{int(i % 7 == 4)}\n" for i in range(40))
)
SEEDS = {
    "latmon-log": (DATA / "latmon-log" / "vector-basic.log").read_bytes(),
    "cyclictest-hist": (DATA / "third-party" / "cyclictest-hist.txt").read_bytes(),
    "cyclictest-json": (DATA / "third-party" / "cyclictest-quirky-ns.json").read_bytes(),
    "cyclictest-verbose": (DATA / "third-party" / "cyclictest-verbose.txt").read_bytes()[:3000],
    "jitterdebugger": (DATA / "third-party" / "jitterdebugger-results.json").read_bytes(),
    "jitterdebugger-raw": (DATA / "third-party" / "jitterdebugger-samples.raw").read_bytes()[
        : 28 * 40
    ],
    "ila-csv": ILA.encode(),
    "plain": b"latency_us\n12.5\n13\n14.25\n",
    "hdr-log": (DATA / "third-party" / "hdrhistogram.hlog").read_bytes(),
}


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["flip", "delete", "insert", "cut", "dup-line", "digits"]))
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        if kind == "flip":
            data[at] = draw(st.integers(0, 255))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[at:at] = draw(st.binary(max_size=20))
        elif kind == "cut":
            del data[at:]
        elif kind == "digits":
            data[at:at] = str(draw(st.integers(-(2**70), 2**70))).encode()
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
    return bytes(data)


def check(fmt: str, data: bytes, keep_going: bool, auto: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input"
        path.write_bytes(data)
        options = ReadOptions(clock_hz=100_000_000)
        try:
            runs = load(path, "auto" if auto else fmt, keep_going, options)
        except LatmonError as error:
            message = str(error)
            assert message.startswith(str(path)) or str(path) in message, message
            assert "Traceback" not in message
            return
        for run in runs:
            for series in run.series:
                assert series.unit in ("ns", "cycles")
                if series.histogram is not None:
                    assert series.histogram.total >= 0


@pytest.mark.parametrize("fmt", sorted(SEEDS))
def test_reader_never_crashes(fmt: str) -> None:
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(data=mutated(SEEDS[fmt]), keep_going=st.booleans(), auto=st.booleans())
    def run(data: bytes, keep_going: bool, auto: bool) -> None:
        check(fmt, data, keep_going, auto)

    run()


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(data=st.binary(max_size=400) | st.text(max_size=400).map(str.encode))
def test_random_input_is_detected_or_refused(data: bytes) -> None:
    check("auto", data, False, True)


# -- the text parser at the integer limits ---------------------------------------------------

#: Integer parts near every limit a number meets: 2^62 (the readers' LIMIT) in each unit the
#: plain reader scales by, 2^63 (int64), 2^64 (uint64, where v * 10 + d used to wrap), and
#: powers of ten; far beyond them; and small.
EDGES = [
    *(2**62 // 10**s for s in (0, 3, 6, 9)),
    2**63,
    2**64,
    10**18,
    10**19,
    10**20,
]


@st.composite
def limit_number(draw: st.DrawFn) -> str:
    """A decimal number written as a tool might: sign, leading zeros, integer part near a
    limit (or anywhere up to 40 digits), optional fraction of up to 12 digits."""
    kind = draw(st.sampled_from(["edge", "edge", "long", "small"]))
    if kind == "edge":
        whole = max(0, draw(st.sampled_from(EDGES)) + draw(st.integers(-1100, 1100)))
    elif kind == "long":
        whole = draw(st.integers(0, 10**40))
    else:
        whole = draw(st.integers(0, 10**6))
    sign = draw(st.sampled_from(["", "", "-", "+"]))
    zeros = "0" * draw(st.integers(0, 3))
    text = f"{sign}{zeros}{whole}"
    if draw(st.booleans()):
        text += "." + draw(st.text("0123456789", min_size=1, max_size=12))
    return text


def oracle(text: str, scale: int) -> tuple[str, int | None]:
    """What the rule says, by exact rational arithmetic (independent of the parser): the value,
    or why not — "large" (|value| >= 2^62 after scaling), "fine" (not whole after scaling)."""
    value = Fraction(text) * 10**scale
    large, fine = abs(value) >= 2**62, value.denominator != 1
    if large and fine:
        return "large-or-fine", None
    if large:
        return "large", None
    if fine:
        return "fine", None
    return "ok", int(value)


STATUS = {0: "ok", 3: "large", 4: "fine", 5: "negative"}


@settings(max_examples=EXAMPLES * 4, deadline=None, database=None)
@given(
    numbers=st.lists(limit_number(), min_size=1, max_size=8), scale=st.sampled_from([0, 3, 6, 9])
)
def test_parser_at_the_integer_limits(numbers: list[str], scale: int) -> None:
    """The C parser, the pure-Python rule (units.decimal_to_int) and exact arithmetic agree on
    every number: the same value, or the same refusal; nothing wraps around."""
    out = np.zeros(len(numbers), np.int64)
    for non_negative in (False, True):
        buf = "".join(n + "\n" for n in numbers).encode()
        pos, k = 0, 0
        while k < len(numbers):
            rows, status, offset, _ = parse(buf[pos:], 44, 1, 0, scale, out, non_negative)
            for i in range(rows):
                want, value = oracle(numbers[k + i], scale)
                assert want == "ok" and int(out[i]) == value, numbers[k + i]
                assert not (non_negative and value is not None and value < 0)
                assert decimal_to_int(numbers[k + i], 10**scale) == value
            k += rows
            if status == 0:
                assert k == len(numbers)
                break
            bad = numbers[k]
            want, value = oracle(bad, scale)
            got = STATUS[status]
            if got == "negative":
                assert non_negative and want == "ok" and value is not None and value < 0, bad
            else:
                assert got == want or (want == "large-or-fine" and got in ("large", "fine")), bad
                with pytest.raises(ValueError):
                    decimal_to_int(bad, 10**scale)  # the Python rule refuses it too
            pos += offset + buf[pos + offset :].index(b"\n") + 1
            k += 1


@settings(max_examples=EXAMPLES, deadline=None, database=None)
@given(numbers=st.lists(limit_number(), min_size=1, max_size=6), unit=st.sampled_from(["ns", "us"]))
def test_plain_file_at_the_integer_limits(numbers: list[str], unit: str) -> None:
    """A plain file of such numbers reads exactly as the rule says, or fails naming file:line
    of the first number the rule refuses (a negative one included)."""
    scale = 0 if unit == "ns" else 3
    expected = [oracle(n, scale) for n in numbers]
    first_bad = next(
        (i for i, (w, v) in enumerate(expected) if w != "ok" or (v is not None and v < 0)), None
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "limits.txt"
        path.write_text("".join(n + "\n" for n in numbers))
        try:
            (run,) = load(path, "plain", False, ReadOptions(input_unit=unit))
        except InputError as error:
            assert first_bad is not None, str(error)
            assert str(error).startswith(f"{path}:{first_bad + 1}: not a latency"), str(error)
            return
        assert first_bad is None
        assert run.series[0].latency.tolist() == [v for _, v in expected]
