"""latmon-log reader and writer: the shared vector, the C writer, and every kind of damage."""

from __future__ import annotations

import io
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from latmon.errors import InputError
from latmon.inputs.logformat import LogWriter, escape_value, looks_like_latmon_log
from latmon.inputs.readers.latmon_log import read_file, read_lines, unescape_value

VECTOR = "latmon-log/vector-basic.log"


def write_vector() -> str:
    """The same calls as write_vector() in sw/tests/test_latmon_log.c."""
    f = io.StringIO()
    w = LogWriter(
        f, source="vector", unit="cycles", clock_hz=100000000, host="lab bench\\1", scenario="basic"
    )
    t1 = w.series("t1", channel=0)
    cpu = w.series("cpu1", fields=("t", "latency"), cpu=1)
    for v in (120, 0, 4294967295):
        w.sample(t1, v)
    for a, b in ((1000, 5123), (2000, -7), (3000, 2**63 - 1), (-(2**63), 1)):
        w.sample(cpu, a, b)
    w.bin(t1, None, 100, 0)
    w.bin(t1, 100, 200, 2)
    w.bin(t1, 200, None, 1)
    w.counters(t1, overruns=1, timeouts=0)
    w.close()
    return f.getvalue()


def make_log(n: int = 20, series: int = 2) -> list[str]:
    f = io.StringIO()
    w = LogWriter(f, source="test", unit="ns")
    ids = [w.series(f"cpu{i}", cpu=i) for i in range(series)]
    for k in range(n):
        for sid in ids:
            w.sample(sid, 1000 + 7 * k + sid)
    w.close()
    return f.getvalue().splitlines(keepends=True)


def test_python_writer_reproduces_the_shared_vector(data_dir: Path) -> None:
    assert write_vector() == (data_dir / VECTOR).read_text()


def test_reader_reads_the_shared_vector(data_dir: Path) -> None:
    (run,) = read_file(data_dir / VECTOR)
    assert not run.damaged
    assert run.meta == {
        "latmon_log": "1",
        "source": "vector",
        "unit": "cycles",
        "clock_hz": "100000000",
        "host": "lab bench\\1",
        "scenario": "basic",
    }
    t1, cpu = run.series
    assert (t1.name, t1.fields, t1.meta) == ("t1", ("latency",), {"channel": "0"})
    assert t1.latency.tolist() == [120, 0, 4294967295]
    assert t1.bins == [(None, 100, 0), (100, 200, 2), (200, None, 1)]
    assert t1.counters == {"overruns": 1, "timeouts": 0, "samples": 3, "bins": 3}
    assert cpu.fields == ("t", "latency")
    assert cpu.field("t").tolist() == [1000, 2000, 3000, -(2**63)]
    assert cpu.latency.tolist() == [5123, -7, 2**63 - 1, 1]
    assert cpu.latency.dtype == np.int64


def test_c_writer_round_trip(c_binary) -> None:
    """Values written by the C writer come back unchanged through the Python reader."""
    rng = np.random.default_rng(7)
    pairs = rng.integers(-(2**63), 2**63 - 1, size=(5000, 2), dtype=np.int64)
    pairs[:4] = [[0, 0], [-1, 1], [-(2**63), 2**63 - 1], [2**63 - 1, -(2**63)]]
    stdin = "".join(f"{a} {b}\n" for a, b in pairs.tolist())
    proc = subprocess.run(
        [c_binary("tests/test_latmon_log"), "--roundtrip"],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    (run,) = read_lines(proc.stdout.splitlines(), "c-roundtrip")
    assert not run.damaged
    (series,) = run.series
    assert np.array_equal(series.values, pairs)
    assert series.seq.tolist() == list(range(len(pairs)))


@given(st.text(min_size=1, max_size=40))
def test_escape_round_trip(value: str) -> None:
    escaped = escape_value(value)
    assert all(0x21 <= ord(c) <= 0x7E for c in escaped)
    assert unescape_value(escaped) == value


def test_foreign_lines_and_crlf_are_tolerated() -> None:
    lines = make_log(5)
    noisy = ["U-Boot 2024.01\n", "Starting kernel ...\n"]
    for i, line in enumerate(lines):
        noisy.append(line.replace("\n", "\r\n"))
        if i == 4:
            noisy.append("[   12.345] random: crng init done\n")
    noisy.append("root@zynq:~# \n")
    (run,) = read_lines(noisy, "console.txt")
    assert not run.damaged
    assert run.foreign_lines == 1
    assert [s.latency.tolist() for s in run.series] == [
        [1000 + 7 * k for k in range(5)],
        [1001 + 7 * k for k in range(5)],
    ]


def test_several_logs_in_one_file() -> None:
    (first, second) = read_lines([*make_log(3), "noise\n", *make_log(4)], "two.txt")
    assert len(first.series[0].latency) == 3
    assert len(second.series[0].latency) == 4
    assert second.first_line == len(make_log(3)) + 2


def damaged_line(lines: list[str], kind: str) -> tuple[list[str], int, str]:
    """Apply one kind of damage; return the lines, the line the reader must name, and text."""
    lines = list(lines)
    k = 10  # a sample line, 0-based
    assert lines[k].startswith("S ")
    if kind == "corrupt":
        lines[k] = lines[k][:6] + "9" + lines[k][6:]
        return lines, k + 1, "CRC mismatch"
    if kind == "digit":
        body, crc = lines[k].rsplit(" *", 1)
        digit = body[-1]
        lines[k] = f"{body[:-1]}{(int(digit) + 1) % 10} *{crc}"
        return lines, k + 1, "CRC mismatch"
    if kind == "lost":
        del lines[k]
        return lines, k + 2, "lost"  # the next sample of the same series shows the gap
    if kind == "duplicated":
        lines.insert(k + 1, lines[k])
        return lines, k + 2, "duplicate"
    if kind == "reordered":
        lines[k], lines[k + 2] = lines[k + 2], lines[k]
        return lines, k + 1, "expected seq"
    if kind == "truncated":
        return lines[: k + 3], k + 3, "truncated"
    if kind == "trailer-count":
        lines[-1] = lines[-1].replace("lines=", "lines=1")
        return lines, len(lines), "trailer counts"
    if kind == "last-sample-lost":
        # the last S line of series 1 goes; only the X samples= count can tell
        last = max(i for i, line in enumerate(lines) if line.startswith("S 1 "))
        del lines[last]
        return lines, len(lines), "missing"
    raise AssertionError(kind)


KINDS = [
    "corrupt",
    "digit",
    "lost",
    "duplicated",
    "reordered",
    "truncated",
    "trailer-count",
    "last-sample-lost",
]


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_damage_is_named_by_line(kind: str) -> None:
    lines, line_number, text = damaged_line(make_log(), kind)
    with pytest.raises(InputError) as caught:
        read_lines(lines, "damaged.log")
    assert caught.value.path == "damaged.log"
    assert caught.value.line == line_number, str(caught.value)
    assert text in caught.value.problem


@pytest.mark.parametrize("kind", KINDS)
def test_keep_going_keeps_every_valid_sample(kind: str) -> None:
    clean = make_log()
    (good,) = read_lines(clean)
    lines, _, _ = damaged_line(clean, kind)
    (run,) = read_lines(lines, keep_going=True)
    assert run.damaged
    for got, want in zip(run.series, good.series, strict=True):
        # every sample kept is a true sample at its true position; nothing is invented
        want_by_seq = dict(zip(want.seq.tolist(), want.latency.tolist(), strict=True))
        assert all(want_by_seq[s] == v for s, v in zip(got.seq, got.latency, strict=True))
        # and every undamaged sample line that is still there is kept
        present = {line for line in lines if line.startswith(f"S {want.sid} ")}
        assert len(got.seq) >= len(present) - 1


def test_unknown_version_is_refused() -> None:
    from latmon.inputs.logformat import with_crc

    with pytest.raises(InputError, match="version '2' is not supported"):
        read_lines([with_crc("H latmon_log=2") + "\n"], "future.log", keep_going=True)


def test_no_log_at_all() -> None:
    with pytest.raises(InputError, match="no latmon-log found"):
        read_lines(["hello\n", "world\n"], "empty.txt")


def test_unreadable_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_file(tmp_path / "nope.log")


def test_detection() -> None:
    assert looks_like_latmon_log("garbage\n" + "".join(make_log(1)))
    assert not looks_like_latmon_log("# Histogram\n000000 000000\n")


@settings(max_examples=300, deadline=None)
@given(
    line=st.integers(min_value=0, max_value=40),
    op=st.sampled_from(["flip", "drop", "dup", "swap"]),
    pos=st.integers(min_value=0, max_value=200),
    bit=st.integers(min_value=0, max_value=6),
)
def test_any_single_line_damage_is_detected(line: int, op: str, pos: int, bit: int) -> None:
    lines = make_log(10)
    line = min(line, len(lines) - 2)  # records, not the trailer
    if op == "flip":
        text = lines[line]
        i = pos % (len(text) - 1)
        lines[line] = text[:i] + chr(ord(text[i]) ^ (1 << bit)) + text[i + 1 :]
    elif op == "drop":
        del lines[line]
    elif op == "dup":
        lines.insert(line, lines[line])
    else:
        lines[line], lines[line + 1] = lines[line + 1], lines[line]
    if lines == make_log(10):
        return  # swapping two identical lines changes nothing
    with pytest.raises(InputError):
        read_lines(lines, "fuzzed.log")


def test_trailer_crc_matches_zlib() -> None:
    lines = make_log(2)
    body = "".join(lines[:-1]).encode()
    assert lines[-1].strip() == f"E lines={len(lines) - 1} crc32={zlib.crc32(body):08x}"
