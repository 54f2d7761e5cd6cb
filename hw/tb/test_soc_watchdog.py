"""The fabric suite's watchdog on the virtual SoC (sw/examples/baremetal/fabric_suite*.c,
platform_rv32.c): each broken handler the firmware can be built to inject ends its case with a
message that names the interrupt and its count (or the fault), the run goes on with the next
case and the simulation ends by itself, long before its cycle limit.

The injections (fsuite_config.inject, patched by soc_sim like the rounds): the data ISR never
reads the FIFO (data-ready stays high: a storm on interrupt 0); line 0's ISR acknowledges line
1 (the wrong ID: a storm on interrupt 1); test line 5 raised with an ISR that never acknowledges
it (a storm on a second line); an illegal instruction in the data ISR (a fault).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from soc_sim import SUITE_ELF, run

pytestmark = [pytest.mark.sim]

ROUNDS = 20
MAX_CYCLES = 20_000_000  # the suite needs far fewer; reaching it would be a hang (exit 124)


def run_broken(tmp_path: Path, inject: str, cases: list[str]) -> tuple[int, str]:
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
    return result.exit_code, result.uart.read_text(errors="replace")


def storm(case: str, irq: int) -> re.Pattern[str]:
    return re.compile(
        rf"suite: case {case}: watchdog: interrupt {irq} fired (\d+) times on hart 0 without "
        rf"returning to the case \(an interrupt storm: does its handler acknowledge its "
        rf"line\?\); interrupt {irq} masked"
    )


def test_a_data_isr_that_never_reads_is_a_storm_ended_by_the_watchdog(tmp_path: Path) -> None:
    code, uart = run_broken(tmp_path, "no-ack", ["baseline", "priority"])
    m = storm("baseline", 0).search(uart)
    assert m and int(m.group(1)) == 4097, uart[-2000:]
    assert "suite: case baseline failed" in uart
    assert "suite: case priority failed" not in uart  # the next case runs normally
    assert code == 1


def test_a_wrong_acknowledge_is_a_storm_on_the_line_left_raised(tmp_path: Path) -> None:
    code, uart = run_broken(tmp_path, "wrong-ack", ["priority", "baseline"])
    assert storm("priority", 1).search(uart), uart[-2000:]
    assert "suite: case baseline failed" not in uart
    assert code == 1


def test_a_storm_on_a_second_line_is_masked(tmp_path: Path) -> None:
    code, uart = run_broken(tmp_path, "second-line-storm", ["baseline"])
    assert storm("baseline", 6).search(uart), uart[-2000:]  # test line 5 is interrupt 6
    assert code == 1


def test_a_fault_in_the_handler_is_reported(tmp_path: Path) -> None:
    code, uart = run_broken(tmp_path, "isr-fault", ["baseline"])
    assert re.search(r"trap: mcause=00000002 mepc=[0-9a-f]{8} mtval=\w+: illegal instruction", uart)
    assert code == 3
