"""The virtual SoC (hw/soc) running the fabric-measured interrupt test-case suite
(sw/examples/baremetal/suite/fabric_*.c) on its VexRiscv harts: every latency the latmon cores
measured equals the simulator's own record of the measured signals, and each case shows the
effect it is there to show.

One simulation (Verilator) runs all cases; the tests below read its UART capture and its event
trace. Nothing in the run is driven by the testbench: the firmware configures the cores,
schedules the interrupts, serves them and prints latmon-log.
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import re
import shutil
import statistics
from pathlib import Path

import pytest
import soc_figures
from soc_check import CheckReport, check
from soc_figures import ROUNDS as FIGURES_ROUNDS
from soc_sim import HW, SIM_BUILD, SUITE_ELF, SocRun, build, run, suite_cases

ROUNDS = 120  # interrupts per case: ~1,500 samples in all, about 15 M cycles
GEN_DELAY = 50  # suite/fabric_cases.c: the fabric's production time; T1 = GEN_DELAY + 2


@pytest.fixture(scope="module")
def suite():
    # one run for all tests, also when pytest-xdist gives them to different workers: the first
    # worker runs it under a lock, the others reuse it (keyed by the image and the simulator)
    if not SUITE_ELF.exists():
        pytest.fail(f"{SUITE_ELF} is not built; run 'make sw-all'")
    exe = build()
    key = hashlib.sha256(SUITE_ELF.read_bytes() + str(exe).encode() + bytes(ROUNDS)).hexdigest()
    out = SIM_BUILD / f"soc-suite-{key[:12]}"
    with open(SIM_BUILD / "soc-suite.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = out / "result.json"
        if done.exists():
            result = SocRun(
                **{
                    k: Path(v) if k in ("uart", "trace") else v
                    for k, v in json.loads(done.read_text()).items()
                }
            )
        else:
            shutil.rmtree(out, ignore_errors=True)
            result = run(SUITE_ELF, out, rounds=ROUNDS, cases=list(suite_cases()))
            done.write_text(
                json.dumps(
                    {
                        k: str(v) if isinstance(v, Path) else v
                        for k, v in dataclasses.asdict(result).items()
                    }
                )
            )
    from latmon.ingest import load

    runs = {r.meta["scenario"]: r for r in load(result.uart)}
    return result, runs, check(result.uart, result.trace)


def latencies(runs, case: str, series: str) -> list[int]:
    (s,) = [s for s in runs[case].series if s.name == series]
    return s.latency.tolist()


def median(values: list[int]) -> float:
    return float(statistics.median(values))


@pytest.mark.sim
@pytest.mark.slow
def test_every_sample_equals_the_simulators_trace(suite) -> None:
    result, runs, report = suite
    assert isinstance(report, CheckReport)
    assert result.exit_code == 0, result.uart.read_text()[-2000:]
    assert list(runs) == list(suite_cases())
    assert not any(r.problems for r in runs.values())
    assert report.mismatches == 0, report.summary()
    # T1/T2 cases print 2 x ROUNDS (and a word that arrived while stopping), line cases 2 x
    # ROUNDS, throughput up to ROUNDS per rate
    assert report.checked >= 12 * ROUNDS, report.summary()


@pytest.mark.sim
@pytest.mark.slow
def test_the_figures_page_is_this_runs(suite) -> None:
    """docs/hw/soc_figures.md is what `make soc-figures` writes from a run of this image: the
    same page, rendered from this test's own run, must equal the checked-in one."""
    result, _, report = suite
    assert ROUNDS == FIGURES_ROUNDS  # the page's run is this one
    want = soc_figures.page(result.uart, report, ROUNDS)
    have = soc_figures.PAGE.read_text() if soc_figures.PAGE.exists() else ""
    assert have == want, (
        f"{soc_figures.PAGE} is stale (not what this build measures); run 'make soc-figures'"
    )


@pytest.mark.sim
@pytest.mark.slow
def test_t1_is_the_fabrics_constant_and_nothing_is_lost(suite) -> None:
    _, runs, _ = suite
    for case in ("baseline", "isr-loop100", "cache-invalidate", "dcache-off", "bus-traffic"):
        assert set(latencies(runs, case, "T1")) == {GEN_DELAY + 2}, case
        t2 = next(s for s in runs[case].series if s.name == "T2")
        assert t2.counters["served"] >= ROUNDS
        assert t2.counters["data_errors"] == 0 and t2.counters["dropped_words"] == 0
        assert t2.counters["overruns"] == 0 and t2.counters["lost"] == 0


@pytest.mark.sim
@pytest.mark.slow
def test_a_loop_in_the_isr_moves_t2_by_the_cycles_the_loop_takes(suite) -> None:
    """The 100-iteration loop before the ack, timed by the CPU's own cycle counter, moves T2 by
    that many cycles (plus the few of one more call and return)."""
    _, runs, report = suite
    loop = int(runs["isr-loop100"].meta["isr_loop_cycles"])
    assert 200 <= loop <= 400  # 100 x (addi + a taken bnez)
    delta = median(latencies(runs, "isr-loop100", "T2")) - median(latencies(runs, "baseline", "T2"))
    assert loop <= delta <= loop + 8, (loop, delta)
    by_case = {c.case: c for c in report.cases}
    # the interrupt entry is the same up to the one cycle that depends on which instruction is in
    # flight when the line rises (code layout moves that when any firmware function changes);
    # the handler grew by the loop
    entry_shift = median(by_case["isr-loop100"].entry) - median(by_case["baseline"].entry)
    assert abs(entry_shift) <= 1, entry_shift
    handler_shift = median(by_case["isr-loop100"].handler) - median(by_case["baseline"].handler)
    assert loop - 1 <= handler_shift <= loop + 9, (loop, handler_shift)


@pytest.mark.sim
@pytest.mark.slow
def test_invalidated_caches_cost_line_refills(suite) -> None:
    _, runs, report = suite
    by_case = {c.case: c for c in report.cases}
    base, cold = by_case["baseline"], by_case["cache-invalidate"]
    assert median(base.irefills) == 0
    assert median(cold.irefills) >= 8  # trap entry, dispatcher, ISR: each line refilled
    extra = median(latencies(runs, "cache-invalidate", "T2")) - median(
        latencies(runs, "baseline", "T2")
    )
    # a 32-byte line is 8 bus beats of 2 cycles: each refill costs at least 16 cycles
    assert extra >= 16 * median(cold.irefills), (extra, median(cold.irefills))
    # the data cache bypassed: the ISR's stack pushes and data loads go to the bus
    assert median(latencies(runs, "dcache-off", "T2")) > median(latencies(runs, "baseline", "T2"))


@pytest.mark.sim
@pytest.mark.slow
def test_priority_nesting_and_parallel_handlers(suite) -> None:
    _, runs, _ = suite
    high = {c: median(latencies(runs, c, "high")) for c in ("priority", "nested-off", "nested-on")}
    low = {c: median(latencies(runs, c, "low")) for c in ("priority", "parallel")}
    # two simultaneous interrupts on one hart: the low one waits for the high one's ISR
    assert low["priority"] > high["priority"]
    # with nesting, the high-priority interrupt preempts the low one's ISR
    assert high["nested-on"] < high["nested-off"]
    # on two harts, the low one does not wait
    assert low["parallel"] < low["priority"]
    assert next(s for s in runs["parallel"].series if s.name == "low").counters["hart"] == 1


@pytest.mark.sim
@pytest.mark.slow
def test_throughput_sweep_finds_where_loss_begins(suite) -> None:
    _, runs, _ = suite
    rates = [s for s in runs["throughput"].series if s.name.startswith("p")]
    assert len(rates) >= 10
    sustained = rates[0].counters["sustained_period"]
    for s in rates:
        c = s.counters
        # every pulse is either served or counted by the core as an overrun: nothing vanishes
        assert c["served"] + c["overruns"] == c["sent"], s.name
        assert c["lost"] == c["overruns"]
        assert len(s.latency) == c["served"]
        if c["period"] >= sustained:
            assert c["lost"] == 0, s.name
    assert sustained > 0
    assert rates[-1].counters["lost"] > 0  # the fastest rate loses interrupts


def test_memory_map_of_the_firmware_matches_the_decoder() -> None:
    """sw/examples/baremetal/board/soc_map.h against the address decoder of hw/soc/soc_top.v."""
    header = (HW.parent / "sw/examples/baremetal/board/soc_map.h").read_text()
    defines = {
        m.group(1): int(m.group(2), 16)
        for m in re.finditer(r"#define (SOC_\w+)\s+0x([0-9A-Fa-f]+)u", header)
    }
    rtl = (HW / "soc/soc_top.v").read_text()
    pages = {
        m.group(2): int(m.group(1), 16) << 16
        for m in re.finditer(r"page == 16'h([0-9A-F]{4})\) slave = (S_\w+);", rtl)
    }
    assert pages == {
        "S_LINE0": defines["SOC_LINE0_MONITOR"],
        "S_LINE1": defines["SOC_LINE1_MONITOR"],
        "S_SYS": defines["SOC_SYSCTRL"],
        "S_UART": defines["SOC_UART"],
        "S_IRQGEN": defines["SOC_IRQGEN"],
        "S_TRAFFIC": defines["SOC_TRAFFIC"],
    }
    assert "page[15:2] == 14'h2800) slave = S_REF" in rtl  # 0xA000_0000 >> 18 = 0x2800
    assert defines["SOC_REFDESIGN"] == 0x2800 << 18
    assert defines["SOC_RAM_UNCACHED"] == 0x80000000


def test_the_suite_image_has_its_configuration_block() -> None:
    from soc_sim import CONFIG_MAGIC, _symbol

    if not SUITE_ELF.exists():
        pytest.fail(f"{SUITE_ELF} is not built; run 'make sw-all'")
    assert _symbol(SUITE_ELF, "fsuite_config") > 0
    assert _symbol(SUITE_ELF, "trap_entry") % 32 == 0
    assert int.from_bytes(b"SUIT", "big") == CONFIG_MAGIC
