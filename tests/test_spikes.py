"""latmon.analysis.spikes: spike explanations read back from latprobe's series, field by field,
against the values written; priorities as people read them; a damaged spike series named."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from latmon.analysis.spikes import Contributor, spikes_of
from latmon.errors import InputError
from latmon.inputs.ingest import load
from latmon.inputs.logformat import LogWriter

FIELDS = ("latency", "stage", "holder", "id", "prio", "first")


def write(path: Path, spikes: list[dict]) -> None:
    f = io.StringIO()
    w = LogWriter(f, source="latprobe", unit="ns")
    w.series("cpu0", fields=("t", "latency"), cpu=0)
    for k, spike in enumerate(spikes):
        rows = spike.pop("rows")
        counters = spike.pop("counters", {})
        sid = w.series(f"cpu0.spike.{k + 1}", fields=FIELDS, kind="spike", of="cpu0", **spike)
        for row in rows:
            w.sample(sid, *row)
        if counters:
            w.counters(sid, **counters)
    w.close()
    path.write_text(f.getvalue())


def test_spikes_read_back(tmp_path: Path) -> None:
    write(
        tmp_path / "s.log",
        [
            {
                "rank": 2,
                "t": 5_000_000,
                "latency": 30_000,
                "cause": "idle",
                "class": "hardware",
                "why": "30.0 us late: the CPU was idle",
                "stage_result": "ok",
                "stage_irq": 25000,
                "stage_handler": 1000,
                "stage_wakeup": 500,
                "stage_sched": 3000,
                "stage_user": 500,
                "switch_traced": 0,
                "who0": "idle",
                "who1": "latprobe",
                "rows": [(28_000, 0, 1, 0, -32768, 0), (2_000, 3, 0, 700, -32768, 28_000)],
                "counters": {"other_ns": 0, "events": 6, "silence_ns": 25_000},
            },
            {
                "rank": 1,
                "t": 9_000_000,
                "latency": 500_000,
                "cause": "not_preemptible",
                "class": "scheduler",
                "why": "500.0 us late: stress-ng kept the CPU",
                "stage_result": "no_switch",
                "who0": "stress-ng",
                "rows": [(500_000, 5, 2, 1234, 120, 0)],
            },
        ],
    )
    (run,) = load(tmp_path / "s.log")
    first, second = spikes_of(run)  # the largest latency first
    assert (first.rank, first.t, first.latency, first.cause) == (
        1,
        9_000_000,
        500_000,
        "not_preemptible",
    )
    assert (
        first.stages is None and first.stage_result == "no_switch" and first.switch_traced is None
    )
    (c,) = first.contributors
    assert (c.name, c.holder, c.stage, c.ns, c.id, c.prio) == (
        "stress-ng",
        "task",
        "unstaged",
        500_000,
        1234,
        120,
    )
    assert c.label == "stress-ng (pid 1234, nice 0)"
    assert second.stages == {
        "irq": 25000,
        "handler": 1000,
        "wakeup": 500,
        "sched": 3000,
        "user": 500,
    }
    assert second.switch_traced is False and second.silence_ns == 25_000
    assert [(c.name, c.holder, c.stage, c.prio) for c in second.contributors] == [
        ("idle", "idle", "irq", None),
        ("latprobe", "probe", "sched", None),
    ]
    assert sum(c.ns for c in second.contributors) + second.other_ns == second.latency
    # the spikes are not latency series of their own
    assert [s.name for s in run.series if not s.is_derived] == ["cpu0"]


@pytest.mark.parametrize(
    ("holder", "prio", "label"),
    [
        ("task", 0, "x (pid 7, rt 99)"),
        ("task", 4, "x (pid 7, rt 95)"),
        ("task", 139, "x (pid 7, nice 19)"),
        ("task", -1, "x (pid 7, deadline)"),
        ("task", None, "x (pid 7)"),
        ("softirq", None, "softirq x"),
        ("hrtimer", None, "hrtimer x"),
        ("vector", None, "interrupt x"),
        ("irq", None, "x"),
    ],
)
def test_labels(holder: str, prio: int | None, label: str) -> None:
    c = Contributor(name="x", holder=holder, stage="sched", ns=1, id=7, prio=prio, first=0)
    assert c.label == label


def test_a_spike_without_its_sample_is_named(tmp_path: Path) -> None:
    write(tmp_path / "bad.log", [{"rank": 1, "latency": 5, "rows": []}])
    (run,) = load(tmp_path / "bad.log")
    with pytest.raises(InputError, match=r"spike series 'cpu0.spike.1': no integer t="):
        spikes_of(run)
