"""The fabric suite's watchdog on the virtual SoC (sw/examples/baremetal: suite/fabric_*.c,
cpu/rv32/platform.c; docs/hw/soc.md, "When a handler is broken"): the firmware is built to run a
broken handler, and every run ends by itself with a message that names the interrupt and its
count (or the fault), long before the simulation's cycle limit.

Two parts, neither in the measured path and neither depending on the broken interrupt:
- the dispatcher's storm guard, after each handler has returned: a source served more than
  4,096 times without the interrupted code running in between is masked and recorded; a case
  that still completes fails with the storm's ID and count, and the run goes on;
- hart 1, between its work, wakes on its own timer (the doorbell line's compare) and ends the
  run with status 1 when hart 0 has written nothing to the console for 8-12 M cycles: a case
  left waiting by a storm on its own line, or a handler that never returns.

The injections (fsuite_config.inject, patched by soc_sim like the rounds): line 0's ISR never
acknowledges; line 0's ISR acknowledges line 1 (the wrong ID); test line 5 raised with an ISR
that never acknowledges it (a storm on a second line); the data ISR never reads the FIFO; the
data ISR never returns; an illegal instruction in the data ISR (a fault).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from soc_sim import SUITE_ELF, run

pytestmark = [pytest.mark.sim, pytest.mark.slow]

ROUNDS = 20
MAX_CYCLES = 60_000_000  # a stall is called after 8-12 M cycles; reaching this is a hang (124)
STORM = 4097  # FSUITE_STORM_LIMIT + 1: the serve that trips the guard


def run_broken(tmp_path: Path, inject: str, cases: list[str]) -> tuple[int, int, str]:
    if not SUITE_ELF.exists():
        pytest.fail(f"{SUITE_ELF} is not built; run 'make sw-all'")
    result = run(
        SUITE_ELF,
        tmp_path,
        rounds=ROUNDS,
        cases=cases,
        inject=inject,
        max_cycles=MAX_CYCLES,
        timeout_s=600,
    )
    assert result.exit_code != 124, f"inject={inject}: the cycle limit ended the run (a hang)"
    return result.exit_code, result.cycles, result.uart.read_text(errors="replace")


def stalled_by_storm(case: str, irq: int) -> re.Pattern[str]:
    return re.compile(
        rf"suite: case {case}: watchdog \(hart 1\): no progress on hart 0 for over 8000000 cycles; "
        rf"interrupt {irq} fired (\d+) times on hart 0 without returning to the case \(an "
        rf"interrupt storm: does its handler acknowledge its line\?\) and was masked; the run "
        rf"ends"
    )


def test_a_storm_on_a_second_line_is_masked_and_the_run_goes_on(tmp_path: Path) -> None:
    code, _, uart = run_broken(tmp_path, "second-line-storm", ["baseline", "priority"])
    m = re.search(
        r"suite: case baseline: watchdog: interrupt 6 fired (\d+) times on hart 0 without "
        r"returning to the case \(an interrupt storm: does its handler acknowledge its line\?\);"
        r" interrupt 6 masked",  # test line 5 is interrupt 6
        uart,
    )
    assert m and int(m.group(1)) == STORM, uart[-2000:]
    assert "suite: case baseline failed" in uart
    assert "scenario=priority" in uart and "suite: case priority failed" not in uart
    assert code == 1


@pytest.mark.parametrize("inject", ["no-ack", "wrong-ack"])
def test_a_line_never_acknowledged_stops_the_run_with_its_id_and_count(
    tmp_path: Path, inject: str
) -> None:
    """Line 0 (interrupt 1) stays raised: masked after the storm, the case then waits for it
    forever; hart 1 names the storm and ends the run."""
    code, cycles, uart = run_broken(tmp_path, inject, ["priority", "throughput"])
    m = stalled_by_storm("priority", 1).search(uart)
    assert m and int(m.group(1)) == STORM, uart[-2000:]
    assert "scenario=throughput" not in uart  # the run ended there
    assert code == 1 and cycles < 30_000_000


def test_a_data_isr_that_never_reads_is_a_storm_on_interrupt_0(tmp_path: Path) -> None:
    code, _, uart = run_broken(tmp_path, "no-read", ["baseline"])
    m = stalled_by_storm("baseline", 0).search(uart)
    assert m and int(m.group(1)) == STORM, uart[-2000:]
    assert code == 1


def test_a_handler_that_never_returns_is_stopped_by_hart_1(tmp_path: Path) -> None:
    code, cycles, uart = run_broken(tmp_path, "isr-spin", ["baseline"])
    assert (
        "suite: case baseline: watchdog (hart 1): no progress on hart 0 for over 8000000 cycles "
        "(a handler that never returns, or an interrupt that never comes?); the run ends"
    ) in uart, uart[-2000:]
    assert code == 1 and cycles < 30_000_000


def test_a_fault_in_the_handler_is_reported(tmp_path: Path) -> None:
    code, _, uart = run_broken(tmp_path, "isr-fault", ["baseline"])
    assert re.search(r"trap: mcause=00000002 mepc=[0-9a-f]{8} mtval=[0-9a-f]{8}", uart), uart
    assert code == 3
