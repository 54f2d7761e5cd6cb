"""ILA CSV reader (src/latmon/inputs/readers/ila_csv.py): latencies from irq/ack edges, on captures
built here in the Vivado export layout from a known event list (no board or Vivado here)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load
from latmon.inputs.readers import ReadOptions

HEADER = "Sample in Buffer,Sample in Window,TRIGGER,design_1_i/lm/irq,design_1_i/lm/ack_pulse\n"
RADIX = "Radix - UNSIGNED,UNSIGNED,UNSIGNED,BINARY,BINARY\n"


def capture(path: Path, irq: list[int], ack: list[int], windows: int = 1) -> None:
    n = len(irq) // windows
    lines = [HEADER, RADIX]
    for i, (a, b) in enumerate(zip(irq, ack, strict=True)):
        lines.append(f"{i},{i % n},{int(i % n == 0)},{a},{b}\n")
    path.write_text("".join(lines))


def wave(n: int, highs: list[tuple[int, int]]) -> list[int]:
    w = [0] * n
    for start, length in highs:
        for k in range(start, start + length):
            w[k] = 1
    return w


def test_latencies_overruns_ignored_and_cut(tmp_path: Path) -> None:
    n = 200
    # irq rises at 10, 40, 45 (overrun: restarts), 100, 180 (cut: no ack before the end)
    irq = wave(n, [(10, 3), (40, 2), (45, 2), (100, 5), (180, 4)])
    # ack rises at 17 (7 after 10), 30 (ignored: nothing pending), 52 (7 after 45), 133 (33)
    ack = wave(n, [(17, 1), (30, 2), (52, 1), (133, 1)])
    path = tmp_path / "ila.csv"
    capture(path, irq, ack)
    assert detect_format(path) == "ila-csv"
    (run,) = load(path, options=ReadOptions(clock_hz=100_000_000))
    (s,) = run.series
    assert s.unit == "cycles" and s.clock_hz == 100_000_000
    assert s.latency.tolist() == [7, 7, 33]
    assert s.columns["t"].tolist() == [10, 45, 100]
    assert s.counters == {"events": 3, "overruns": 1, "ignored": 1, "cut": 1}


def test_edges_never_pair_across_windows(tmp_path: Path) -> None:
    irq = wave(100, [(45, 2), (60, 1)])
    ack = wave(100, [(55, 1), (70, 1)])  # 55 is in the second window (50..99)
    path = tmp_path / "two.csv"
    capture(path, irq, ack, windows=2)
    (run,) = load(path, options=ReadOptions(clock_hz=1_000_000))
    assert run.series[0].latency.tolist() == [10]  # only 60 -> 70
    assert run.series[0].counters["cut"] == 1


def test_needs_a_clock_and_unambiguous_signals(tmp_path: Path) -> None:
    path = tmp_path / "ila.csv"
    capture(path, wave(20, [(2, 1)]), wave(20, [(5, 1)]))
    with pytest.raises(InputError, match="give --clock-hz"):
        load(path)
    with pytest.raises(InputError, match="no --irq nothere"):
        load(path, options=ReadOptions(clock_hz=1, irq="nothere"))
    (run,) = load(path, options=ReadOptions(clock_hz=1, irq="lm/irq", ack="ack_pulse"))
    assert run.series[0].latency.tolist() == [3]
    bad = tmp_path / "bad.csv"
    bad.write_text(HEADER + RADIX + "0,0,0,1,x\n1,1,0,0,0\n")
    with pytest.raises(InputError, match=r"bad.csv:3: not a sample line"):
        load(bad, options=ReadOptions(clock_hz=1))


def test_many_random_events_against_a_direct_count(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    n, t, irq, ack, expected = 20000, 5, [0] * 20000, [0] * 20000, []
    while t < n - 300:
        lat = int(rng.integers(1, 200))
        irq[t] = 1
        ack[t + lat] = 1
        expected.append(lat)
        t += lat + int(rng.integers(2, 50))
    path = tmp_path / "long.csv"
    capture(path, irq, ack)
    (run,) = load(path, options=ReadOptions(clock_hz=250_000_000))
    assert run.series[0].latency.tolist() == expected
