"""The A53 images run on QEMU's ZCU102 model (docs/target/qemu.md): the interrupt test-case
suite passes its own checks, its latmon-log is read back by the installed `latmon ingest`, it
is deterministic under -icount, and a broken interrupt handler or a fault ends the run with a
clear message and a status, never a hang."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from latmon.campaign import firmware, qemu

pytestmark = pytest.mark.qemu

CORE1_CASES = ("two-cores", "cross-core")  # the cases measured on the second core


def cases() -> dict[str, str]:
    """Every case of the image's table (their one home), with the core it measures on."""
    names = firmware.timer_suite_cases(firmware.EXAMPLES / "suite-a53-qemu.elf")
    return {name: "1" if name in CORE1_CASES else "0" for name in names}


SAMPLES = 200
TIMEOUT_S = 120  # a few seconds normally; the machine is shared


def run_image(c_binary, tmp_path: Path, image: str, *args: str) -> qemu.QemuResult:
    elf = c_binary(f"examples/{image}.elf")
    result = qemu.run(qemu.zcu102_args(elf, list(args)), tmp_path, TIMEOUT_S)
    assert not result.timed_out, f"{image} {args}: no exit within {TIMEOUT_S} s (a hang)"
    return result


@pytest.fixture(scope="module")
def suite_run(c_binary, tmp_path_factory) -> qemu.QemuResult:
    return run_image(c_binary, tmp_path_factory.mktemp("suite"), "suite-a53-qemu")


def test_suite_passes_and_latmon_reads_every_case(suite_run, latmon_cli, tmp_path) -> None:
    assert suite_run.status == 0, suite_run.console[-2000:] + suite_run.stderr
    assert "suite: passed" in suite_run.console
    log = tmp_path / "uart.log"
    log.write_text(suite_run.console)
    proc = subprocess.run(
        [str(latmon_cli), "ingest", str(log), "-o", str(tmp_path), "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    listing = json.loads(proc.stdout)
    assert len(listing) == 1
    stats = subprocess.run(
        [str(latmon_cli), "stats", str(log), "--json"], capture_output=True, text=True
    )
    assert stats.returncode == 0, stats.stderr
    series = {s["series"]: s for s in json.loads(stats.stdout)}
    assert set(series) == set(cases())
    for name, s in series.items():
        assert s["count"] == SAMPLES, name
        assert s["min"] >= 0, name  # entry is never before the programmed time


def test_suite_metadata_says_emulated(suite_run, tmp_path) -> None:
    from latmon.inputs.ingest import load  # the reader `latmon ingest` uses

    log = tmp_path / "uart.log"
    log.write_text(suite_run.console)
    run = load(log)[0]
    assert run.meta["emulated"] == "yes"
    assert run.meta["platform"] == "qemu-xlnx-zcu102"
    assert run.series[0].clock_hz == 62_500_000  # the ZCU102 model's generic timer
    for s in run.series:
        assert s.meta["cpu"] == cases()[s.name], s.name
    assert run.label.endswith("[emulated]")


def test_suite_case_checks_hold(suite_run) -> None:
    """Counters the firmware wrote: nothing lost, the high priority first every time, every
    measured interrupt of the nested case preempted the low-priority handler."""
    counters = {}
    for line in suite_run.console.splitlines():
        m = re.match(r"^X (\d+) (events=.*) \*", line)
        if m:
            counters[int(m.group(1))] = dict(kv.split("=") for kv in m.group(2).split())
    names = list(cases())
    for i, name in enumerate(names):
        c = counters[i]
        assert c["lost"] == "0", name
        assert c["order_errors"] == "0", name
    assert counters[names.index("nested")]["nested"] == str(SAMPLES)


def test_suite_is_deterministic_under_icount(suite_run, c_binary, tmp_path) -> None:
    again = run_image(c_binary, tmp_path, "suite-a53-qemu")
    assert again.status == 0
    assert again.console == suite_run.console  # every count, every CRC


def test_broken_isr_fails_with_a_message_not_a_hang(c_binary, tmp_path) -> None:
    """The handler ends another interrupt ID than it acknowledged: the timer's interrupt stays
    active, no second one is taken; each case times out inside the firmware and says why."""
    result = run_image(c_binary, tmp_path, "suite-a53-qemu", "inject=wrong-eoi")
    assert result.status == 1
    assert "suite: FAIL caches-on: sample 1: interrupt not taken" in result.console
    assert "does the handler end it (EOIR) with the ID it acknowledged?" in result.console
    assert "suite: FAILED" in result.console


# The watchdog's limits (suite/timer_watch.c): a storm ends the case after 1000 interrupts; a
# case that makes no progress is cut by the physical timer after 10 x 20 ms of the counter, the run
# stopped after a second expiry. Each broken handler must end with its message well inside
# the runner's limit.
BROKEN_LIMIT_S = 30


def run_broken(c_binary, tmp_path: Path, inject: str) -> qemu.QemuResult:
    elf = c_binary("examples/suite-a53-qemu.elf")
    result = qemu.run(qemu.zcu102_args(elf, [f"inject={inject}"]), tmp_path, BROKEN_LIMIT_S)
    assert not result.timed_out, f"inject={inject}: no exit within {BROKEN_LIMIT_S} s (a hang)"
    return result


STORM = (
    "suite: FAIL {case}: sample 0: watchdog: interrupt {irq} fired 1001 times on core 0 "
    "without the case advancing (an interrupt storm: does its handler clear the interrupt at "
    "its source"
)


def test_timer_never_cleared_is_a_storm_ended_by_the_watchdog(c_binary, tmp_path) -> None:
    """The most common ISR bug: cntv_ctl_el0 left enabled, the timer's line stays asserted and
    the interrupt is taken again at once, forever. The watchdog counts it in the dispatcher,
    masks PPI 27 after 1000 and ends the case; every case fails the same way, the run ends."""
    result = run_broken(c_binary, tmp_path, "no-clear")
    assert result.status == 1, result.console[-2000:]
    for case in ("caches-on", "wfi-idle", "nested", "two-cores"):
        assert STORM.format(case=case, irq=27) in result.console, result.console[-3000:]
    assert result.console.rstrip().endswith("suite: FAILED")


def test_a_storm_on_a_second_line_is_masked_and_the_run_goes_on(c_binary, tmp_path) -> None:
    """A second device's interrupt (UART0's TX-empty, ID 53) enabled by the timer's handler
    with a handler that never clears it: the watchdog masks ID 53 and ends the case; the
    cases after it run normally (the many-irqs case enables every interrupt again, and is the
    storm's once more)."""
    result = run_broken(c_binary, tmp_path, "second-line-storm")
    assert result.status == 1, result.console[-2000:]
    assert STORM.format(case="caches-on", irq=53) in result.console
    assert STORM.format(case="many-irqs", irq=53) in result.console
    failed = re.findall(r"^suite: FAIL (\S+):", result.console, re.M)
    assert failed == ["caches-on", "many-irqs"], failed
    counters = re.findall(r"^X (\d+) events=200 lost=(\d+) ", result.console, re.M)
    lost = {int(i): int(n) for i, n in counters}
    assert all(lost[i] == 0 for i in lost if i not in (0, 4)), lost  # the others complete


def test_a_handler_that_never_returns_is_stopped_by_the_watchdog(c_binary, tmp_path) -> None:
    """The timer's handler spins with interrupts on: the physical timer, above it in priority,
    expires twice without progress and stops the run, naming the case and the interrupt."""
    result = run_broken(c_binary, tmp_path, "isr-spin")
    assert result.status == 1
    assert (
        "suite: FAIL caches-on: watchdog: no progress for 25000000 counts; the handler of "
        "interrupt 27 has not returned - stopping" in result.console
    )


def test_a_fault_in_the_handler_is_reported(c_binary, tmp_path) -> None:
    result = run_broken(c_binary, tmp_path, "isr-fault")
    assert result.status == 3  # PLATFORM_EXIT_FAULT
    assert "fault: data abort at address 0x00000000a0010001: alignment fault" in result.console


def test_data_abort_is_reported_with_its_address(c_binary, tmp_path) -> None:
    result = run_image(c_binary, tmp_path, "suite-a53-qemu", "inject=data-abort")
    assert result.status == 3  # PLATFORM_EXIT_FAULT
    assert "fault: data abort at address 0x00000000a0010001: alignment fault" in result.console


def test_example_without_the_pl_says_what_to_check(c_binary, tmp_path) -> None:
    """QEMU has no PL: the latmon core's ID register does not answer; the example stops with
    the driver's error and the hint, instead of hanging."""
    result = run_image(c_binary, tmp_path, "example-a53-qemu")
    assert result.status == 1
    assert "no latmon core at this address" in result.console
    assert "is the bitstream loaded" in result.console


def test_a_hang_is_cut_at_the_time_limit(c_binary, tmp_path) -> None:
    """The board build has no semihosting exit: it stops in a loop, which the runner's time
    limit ends (what a wedged firmware would do)."""
    elf = c_binary("examples/example-a53.elf")
    result = qemu.run(qemu.zcu102_args(elf), tmp_path, timeout_s=3)
    assert result.timed_out and result.status is None
    assert "is the bitstream loaded" in result.console  # what it printed is kept


def test_the_host_limit_names_the_case_that_was_running(c_binary, tmp_path) -> None:
    """With the firmware's watchdog set beyond the host's limit, a stuck handler is ended by
    the host's time limit; the console's `suite: case` lines say which case ran (what the
    campaign runner's note reports)."""
    from latmon.campaign.kinds import running_case

    elf = c_binary("examples/suite-a53-qemu.elf")
    args = ["inject=isr-spin", "cases=caches-off", "case-timeout-ms=3600000"]
    result = qemu.run(qemu.zcu102_args(elf, args), tmp_path, timeout_s=3)
    assert result.timed_out and result.status is None
    assert running_case(result.console) == "in case caches-off"
    assert running_case("H latmon_log=1\n") == "before its first case"


def test_print_the_suite_cases(suite_run, tmp_path) -> None:
    """The case table as make target-test shows it (counts of the 62.5 MHz generic timer; under
    -icount shift=4 one count is one executed instruction)."""
    from latmon.inputs.ingest import load

    log = tmp_path / "uart.log"
    log.write_text(suite_run.console)
    run = load(log)[0]
    print("\nA53 interrupt test-case suite on QEMU xlnx-zcu102 (emulated, generic timer counts)")
    print(f"{'case':<20} {'cpu':>3} {'samples':>7} {'min':>5} {'median':>6} {'max':>5}  test")
    for s in run.series:
        v = sorted(int(x) for x in s.latency)
        assert len(v) == SAMPLES
        print(
            f"{s.name:<20} {s.meta['cpu']:>3} {len(v):>7} {v[0]:>5} {v[len(v) // 2]:>6} "
            f"{v[-1]:>5}  {s.meta['test']}"
        )
