"""What a series measures: inferred per producer, stated by the producer, kept in run files."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from latmon.inputs.ingest import load
from latmon.inputs.logformat import LogWriter
from latmon.inputs.runfile import read_run, write_run
from latmon.model import (
    INTERRUPT,
    TIMER_TO_USER,
    UNSPECIFIED_PATH,
    WAKEUP,
    Measure,
    Run,
    Series,
    infer,
    measure_of,
)


def series(name: str, **meta: str) -> Series:
    return Series(name, "ns", columns={"latency": np.arange(3, dtype=np.int64)}, meta=meta)


CASES = [
    # source, run meta, series name, series meta, expected measure
    ("latprobe", {}, "cpu0", {}, Measure(WAKEUP, TIMER_TO_USER)),
    ("cyclictest", {}, "cpu1", {}, Measure(WAKEUP, TIMER_TO_USER)),
    ("jitterdebugger", {}, "cpu0", {}, Measure(WAKEUP, TIMER_TO_USER)),
    (
        "rtla",
        {},
        "irq-cpu0",
        {"context": "irq"},
        Measure(WAKEUP, "timer expiry → timer IRQ handler"),
    ),
    ("rtla", {}, "usr-cpu0", {"context": "usr"}, Measure(WAKEUP, TIMER_TO_USER)),
    ("ila", {"irq": "irq_in", "ack": "ack_out"}, "ila", {}, Measure(INTERRUPT, "irq_in → ack_out")),
    (
        "latmon-soc-suite",
        {},
        "T2",
        {"channel": "data-ready-to-isr-read"},
        Measure(INTERRUPT, "data ready → isr read"),
    ),
    ("latmon_core-sim", {}, "core0", {"channel": "0"}, Measure(INTERRUPT, "irq → ack, channel 0")),
    (
        "latmon-irq-suite",
        {},
        "cross-core",
        {},
        Measure(INTERRUPT, "software interrupt sent → handler entry"),
    ),
    ("plain", {}, "x", {}, Measure("latency", UNSPECIFIED_PATH)),
    ("hdrhistogram", {}, "x", {}, Measure("latency", UNSPECIFIED_PATH)),
]


def test_inferred_from_the_producer() -> None:
    for source, run_meta, name, meta, expected in CASES:
        s = series(name, **meta)
        assert infer(Run({"source": source, **run_meta}, [s]), s) == expected, source


def test_what_the_producer_states_wins() -> None:
    s = series("cpu0", quantity="I/O latency", path="request → response")
    run = Run({"source": "latprobe", "path": "ignored: the series says it"}, [s])
    assert measure_of(run, s) == Measure("I/O latency", "request → response")
    t = series("ch0")
    run = Run({"source": "liblatmon", "quantity": "I/O latency", "path": "tx → rx"}, [t])
    assert measure_of(run, t) == Measure("I/O latency", "tx → rx")


def test_readers_record_it_and_run_files_keep_it(tmp_path: Path) -> None:
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns", scenario="idle")
    a = w.series("cpu0", cpu=0)
    b = w.series("link", quantity="I/O latency", path="tx->rx")
    w.sample(a, 100)
    w.sample(b, 200)
    w.close()
    (tmp_path / "a.log").write_text(f.getvalue())
    (run,) = load(tmp_path / "a.log")
    assert [(s.meta["quantity"], s.meta["path"]) for s in run.series] == [
        (WAKEUP, TIMER_TO_USER),
        ("I/O latency", "tx->rx"),
    ]
    write_run(run, tmp_path / "a.parquet")
    again = read_run(tmp_path / "a.parquet")
    assert [s.meta["path"] for s in again.series] == [TIMER_TO_USER, "tx->rx"]
