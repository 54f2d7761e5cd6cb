"""arm64 Linux guests on QEMU (docs/target/qemu.md), run by `make target-test`, not `make test`
(four guest boots and measurements: minutes). One campaign, the published comparison of
preemption models reproduced end to end: Debian's standard (PREEMPT_VOLUNTARY) and PREEMPT_RT
arm64 kernels, idle and under stress-ng, each measured by latprobe --stages, cyclictest and (RT
kernel: the standard one has no timerlat tracer) rtla timerlat in the same guest.

Nothing here asserts a latency: they are emulated and this machine is shared. What is asserted
is structure and exact arithmetic: every run labelled emulated with its kernel's preemption
model, every matched wake-up's stages adding up to its latency exactly, rtla's thread latency at
or above its IRQ latency, and a report with both kernels side by side.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.runfile import read_run

pytestmark = pytest.mark.target

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = [
    ROOT / "scenarios" / f"qemu-arm64-{k}-{load}.yaml"
    for k in ("std", "rt")
    for load in ("idle", "stress")
]
NAMES = [f"arm64-{k}-{load}" for k in ("std", "rt") for load in ("idle", "stress")]
REPETITIONS = 3  # the scenarios' own (repetitions: in scenarios/qemu-arm64-*.yaml)


@pytest.fixture(scope="module")
def campaign(latmon_cli: Path, tmp_path_factory) -> Path:
    base = os.environ.get("LATMON_TARGET_OUT")
    out = (Path(base) if base else tmp_path_factory.mktemp("target")) / "preemption"
    if not (ROOT / "build" / "target" / "initramfs.cpio.gz").exists():
        pytest.fail("no guest images: run 'make target-images' (make target-test does)")
    proc = subprocess.run(
        [str(latmon_cli), "run", *map(str, SCENARIOS), "-o", str(out), "--stages"],
        capture_output=True,
        text=True,
        timeout=3600,
    )
    assert proc.returncode == 0, proc.stderr
    report = subprocess.run(
        [
            str(latmon_cli),
            "report",
            *sorted(str(p) for p in out.glob("*.parquet")),
            "-o",
            str(out / "report.html"),
            "--deadline",
            "3ms",
            "--title",
            "Preemption models on arm64: standard vs PREEMPT_RT, idle and stressed (QEMU)",
        ],
        capture_output=True,
        text=True,
    )
    assert report.returncode == 0, report.stderr
    print(f"\npreemption-model campaign: {out}; report: {out / 'report.html'}")
    return out


def runs_of(campaign: Path, suffix: str) -> dict[str, object]:
    return {name: read_run(campaign / f"{name}-r1{suffix}.parquet") for name in NAMES}


def test_every_kernel_and_load_ran_with_each_tool(campaign: Path) -> None:
    manifest = json.loads((campaign / "manifest.json").read_text())
    # every scenario REPETITIONS times, interleaved (a1 b1 ... a2 b2 ...)
    steps = [(s["scenario"], s["repetition"]) for s in manifest["steps"]]
    assert steps == [(name, r) for r in range(1, REPETITIONS + 1) for name in NAMES]
    assert not manifest["interrupted"]
    for name in NAMES:
        files = set(next(s for s in manifest["steps"] if s["scenario"] == name)["run_files"])
        assert {f"{name}-r1.parquet", f"{name}-r1.cyclictest.parquet"} <= files
        assert (f"{name}-r1.rtla.parquet" in files) == ("-rt-" in name), files
    std_notes = [n for s in manifest["steps"] if "-std-" in s["scenario"] for n in s["notes"]]
    assert all("no timerlat tracer" in n for n in std_notes) and std_notes


def test_runs_are_labelled_emulated_with_the_guest_kernel(campaign: Path) -> None:
    for suffix in ("", ".cyclictest"):
        for name, run in runs_of(campaign, suffix).items():
            assert run.meta["emulated"] == "yes"
            assert run.label.endswith("[emulated]")
            model = run.meta["env.preemption"]
            assert model.startswith("PREEMPT_RT" if "-rt-" in name else "PREEMPT_VOLUNTARY")
            assert ("-rt-" in run.meta["env.kernel_version"]) == ("-rt-" in name)


def print_table(title: str, heads: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(r[i])) for r in [heads, *rows]) for i in range(len(heads))]
    print(f"\n{title}")
    for r in [heads, ["-" * w for w in widths], *rows]:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths, strict=True)))


def rank(v: np.ndarray, q: float) -> float:
    """Nearest-rank percentile of sorted values."""
    return float(v[min(len(v) - 1, int(np.ceil(q * len(v))) - 1)])


def us(v: float) -> str:
    return f"{v / 1000:.1f}"


def test_the_tools_side_by_side(campaign: Path) -> None:
    """latprobe's samples, cyclictest's and rtla's histograms: n, median, p99, max in µs."""
    rows = []
    for suffix, tool in (("", "latprobe"), (".cyclictest", "cyclictest"), (".rtla", "rtla")):
        for name in NAMES:
            path = campaign / f"{name}-r1{suffix}.parquet"
            if not path.exists():
                continue
            run = read_run(path)
            for s in run.series:
                if s.is_derived:  # stages and spike explanations of cpuN
                    continue
                if s.has_samples:
                    v = np.sort(s.latency)
                else:
                    assert s.histogram is not None
                    v = np.repeat(s.histogram.lo, s.histogram.count)
                assert len(v) > 0, (name, tool, s.name)
                p50, p99 = (rank(v, q) for q in (0.5, 0.99))
                rows.append([name, tool, s.name, len(v), us(p50), us(p99), us(v[-1])])
    print_table(
        "latprobe, cyclictest and rtla timerlat per kernel and load (QEMU, emulated; µs)",
        ["scenario", "tool", "series", "n", "median", "p99", "max"],
        rows,
    )
    assert {r[1] for r in rows} == {"latprobe", "cyclictest", "rtla"}


def test_stages_add_up_to_the_measured_latency_on_arm64(campaign: Path) -> None:
    """Tolerance 0: each matched wake-up's five stages sum to its latency exactly (latprobe
    checks it per sample and counts a mismatch under 'sum'; here it is checked again)."""
    rows = []
    for name, run in runs_of(campaign, "").items():
        assert run.meta["trace_irq_event"] == "irq/irq_handler_entry"
        for s in run.series:
            if not s.is_stages:
                continue
            stages = np.vstack([s.columns[k] for k in s.stage_names])
            assert len(s.latency) > 0, (name, s.name, s.counters)
            assert np.array_equal(stages.sum(axis=0), s.latency), (name, s.name)
            assert s.counters["sum"] == 0 and s.counters["disorder"] == 0
            of = next(x for x in run.series if x.name == s.meta["of"])
            rows.append(
                [name, s.meta["of"], f"{len(s.latency)}/{len(of.latency)}"]
                + [us(float(np.median(s.columns[k]))) for k in s.stage_names]
                + [us(float(np.median(s.latency)))]
            )
    print_table(
        "latprobe --stages on arm64: median of each stage (µs; they add up per wake-up)",
        ["scenario", "cpu", "matched", "irq", "handler", "wakeup", "sched", "user", "total"],
        rows,
    )


def test_stages_compared_with_rtla_irq_thread_split(campaign: Path) -> None:
    """rtla timerlat splits a wake-up into the IRQ latency (timer expiry to its handler) and the
    thread latency (expiry to the timerlat thread running); latprobe's irq stage and its
    irq..sched stages are the same two spans for latprobe's own thread."""
    rows = []
    for name in NAMES:
        if "-rt-" not in name:
            continue
        probe = read_run(campaign / f"{name}-r1.parquet")
        rtla = read_run(campaign / f"{name}-r1.rtla.parquet")
        for cpu in (0, 1):
            st = next(s for s in probe.series if s.name == f"cpu{cpu}.stages")
            irq_h = next(s for s in rtla.series if s.name == f"irq-cpu{cpu}").histogram
            thr_h = next(s for s in rtla.series if s.name == f"thread-cpu{cpu}").histogram
            assert irq_h is not None and thr_h is not None
            irq = np.repeat(irq_h.lo, irq_h.count)
            thr = np.repeat(thr_h.lo, thr_h.count)
            # per wake-up the thread runs after its IRQ: so do the medians
            assert np.median(thr) >= np.median(irq)
            to_thread = sum(st.columns[k] for k in ("stage_irq", "stage_handler"))
            to_thread = to_thread + st.columns["stage_wakeup"] + st.columns["stage_sched"]
            rows.append(
                [
                    name,
                    f"cpu{cpu}",
                    us(float(np.median(irq))),
                    us(float(np.median(st.columns["stage_irq"]))),
                    us(float(np.median(thr))),
                    us(float(np.median(to_thread))),
                ]
            )
    print_table(
        "IRQ/thread split, rtla timerlat vs latprobe stages (medians, µs, QEMU emulated)",
        ["scenario", "cpu", "rtla IRQ", "latprobe irq", "rtla thread", "latprobe irq..sched"],
        rows,
    )


def test_report_shows_both_kernels_side_by_side(campaign: Path) -> None:
    page = (campaign / "report.html").read_text()
    for name in NAMES:
        assert name in page
    assert "Emulated:" in page and "QEMU" in page
    assert 'src="http' not in page  # self-contained
    assert "PREEMPT_RT" in page and "PREEMPT_VOLUNTARY" in page
    # a caption for this campaign (kernels and loads), no deadline verdict on emulated time
    assert "Dom0" not in page and "DomU" not in page
    assert "no verdict on emulated time" in page and "miss it" not in page
    # each comparison with its spread over the repetitions
    assert "p99 per repetition" in page and "Δp99 over repetitions" in page
