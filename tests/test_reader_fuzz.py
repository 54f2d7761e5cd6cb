"""Fuzzing every reader: mutated real inputs and random text must either read or fail with an
InputError that names the file (and the line where there is one) — never crash.

A short run is part of `make test`; `make fuzz` runs LATMON_FUZZ_EXAMPLES (default there:
20,000 per reader, > 100,000 in all) through the same tests.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from latmon.errors import LatmonError
from latmon.ingest import load
from latmon.readers import ReadOptions

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
