"""The Linux SoC (docs/hw/linux-soc.md): its parts build (firmware, /init, initramfs, device tree),
the cross-check and the stage split are right on known traces, and the smoke test: the PREEMPT_NONE
kernel, restored from its checkpoint after the boot (make linux-soc-checkpoint, which make test
runs beside the other tests, boots it once), measures 100 interrupts of each path through /dev/uioN
and the kernel's handler, 0 mismatches against the bus and irq record, every user-space raise
finding /init asleep in poll(); and 7 no-ops before the user-space store move the samples by 7
cycles (the median of the differences, and the difference of the medians). The generated figures of
docs/hw/linux-soc.md are what their results file renders, and of this commit: the smoke test's boot
reaches their checkpoint cycle, and the campaign's no-op runs, run again, give their records."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import linux_soc
import linux_soc_figures
from linux_soc_campaign import Task, nop_effect, publish, run_config, run_tasks, time_parts
from linux_soc_campaign import main as campaign_main
from linux_soc_check import check, pairs, read_trace
from linux_soc_ftrace import compare, read_ftrace
from linux_soc_stages import STAGES, decompose, path_of, took_interrupt, windows, woken

from latmon.tables import render

TRACE = """\
100 K
5000 U
10000 L1
10012 S 0
10100 S 1
10150 S 2
10200 S 4
10220 S 3
10240 A1 1
20000 L0
20012 S 0
20200 S 4
20300 S 5
20500 S 6
20600 S 7
20700 S 8
20800 P 0
20900 A0 0
30000 X 0
"""


def test_the_check_pairs_each_raise_with_the_store_after_it(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    ev = read_trace(trace)
    assert (ev.kernel, ev.user, ev.end, ev.exit_code) == (100, 5000, 30000, 0)
    (k,) = pairs(ev, 1)
    (u,) = pairs(ev, 0)
    assert (k.latency, k.privilege) == (240, 1)
    assert (u.latency, u.privilege) == (900, 0)


def test_the_stages_add_up_to_the_raise_to_ack_time(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    trace.write_text(TRACE)
    ws = windows(trace)
    assert [w.line for w in ws] == [1, 0]
    kernel = decompose(ws[0], "kernel-ack")
    user = decompose(ws[1], "user-ack")
    assert kernel == [12, 208, 20]  # the irq layer through uio_interrupt to latmon_kack_irq
    assert user == [12, 188, 100, 200, 100, 200, 100]
    assert sum(kernel) == 240 and sum(user) == 900
    assert len(user) == len(STAGES["user-ack"])
    assert took_interrupt(ws[0], "kernel-ack") and took_interrupt(ws[1], "user-ack")
    ws[1].marks = [m for m in ws[1].marks or [] if m[1] != "uio_interrupt"]
    assert not took_interrupt(ws[1], "user-ack")  # the line seen high by polling, no interrupt


def test_the_trace_says_whether_the_raise_found_the_cpu_in_wfi(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    # round 1: armed, the CPU waits from 600 on; round 2: it waits, a tick wakes it, the line
    # rises while it is busy; round 3: it never waits; wfi outside a round is not logged
    trace.write_text(
        "100 R 2\n600 W\n1000 L1\n1010 A1 1\n"
        "2000 R 1\n2500 W\n2700 w\n3000 L0\n3100 A0 0\n"
        "4000 R 2\n5000 L1\n5040 A1 1\n"
    )
    ws = windows(trace)
    assert [(w.armed, w.wfi, w.waiting, w.to_wfi) for w in ws] == [
        (100, 600, True, 500),
        (2000, 2500, False, 500),
        (4000, -1, False, None),
    ]


def test_the_campaign_refuses_runs_without_rounds_or_gap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for opt in ("--rounds", "--nop-rounds", "--gap"):
        assert campaign_main(["--out", str(tmp_path), opt, "0"]) == 2
        assert f"{opt} 0: at least 1" in capsys.readouterr().err
    assert campaign_main(["--out", str(tmp_path), "--ftrace-rounds", "-1"]) == 2
    assert not any(tmp_path.iterdir())  # nothing written


def test_the_simulator_build_says_when_its_compiler_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(linux_soc, "SIM_BUILD", tmp_path)
    monkeypatch.setattr(linux_soc.shutil, "which", lambda name: None)
    with pytest.raises(linux_soc.LinuxSocError, match=r"clang\+\+-14 not found: .*make setup"):
        linux_soc.build_sim()
    assert [p.name for p in tmp_path.iterdir()] == ["linux-soc.lock"]  # no half-made model


FTRACE = """\
boot messages
latmon-ftrace-begin
# tracer: nop
            init-1       [000] d....     0.000090: irq_handler_entry: irq=3 name=latmon-kack
          <idle>-0       [000] d.h1.     0.000101: irq_handler_entry: irq=3 name=latmon-kack
          <idle>-0       [000] d.h1.     0.000102: irq_handler_exit: irq=3 ret=handled
          <idle>-0       [000] d.h1.     0.000201: irq_handler_entry: irq=2 name=latmon
  <idle>-0 [000] dNh2. 0.000203: sched_wakeup: comm=init pid=1 prio=49
  <idle>-0 [000] d..2. 0.000206: sched_switch: prev_comm=swapper ==> next_comm=init next_pid=1
latmon-ftrace-end
"""


def test_the_tracepoints_are_compared_with_the_stage_marks(tmp_path: Path) -> None:
    (tmp_path / "trace.txt").write_text(TRACE)
    (tmp_path / "uart.log").write_text(FTRACE.replace("     0.000090: irq_handler_entry", "x"))
    events = read_ftrace(tmp_path / "uart.log")
    assert [e.name for e in events][:2] == ["irq_handler_entry", "irq_handler_exit"]
    assert events[0].us == 101
    # trace clock: cycle 10200 (the kernel path's uio_interrupt) is 101 us: offset 100 * 101 - 10200
    res = compare(tmp_path / "uart.log", tmp_path / "trace.txt")
    assert (res.offset, res.offset_spread, res.kernel_windows, res.user_windows) == (-100, 0, 1, 1)
    d = res.summary()["deltas"]
    assert d["irq_handler_entry - uio_interrupt"]["median"] == 0  # type: ignore[index]
    assert d["sched_wakeup - try_to_wake_up"]["median"] == 20400 - 20300  # type: ignore[index]
    assert d["sched_switch - __schedule"]["median"] == 20700 - 20500  # type: ignore[index]
    assert res.user_in_order == 0  # the switch event after __switch_to retired: out of its stage
    (tmp_path / "uart.log").write_text(
        FTRACE.replace("     0.000090: irq_handler_entry", "x").replace("0.000206", "0.000205")
    )
    assert compare(tmp_path / "uart.log", tmp_path / "trace.txt").user_in_order == 1


def test_the_initramfs_is_a_newc_archive_the_kernel_reads(tmp_path: Path) -> None:
    init = tmp_path / "init"
    init.write_bytes(b"\x7fELF" + bytes(100))
    archive = linux_soc.build_initramfs(init)
    listing = subprocess.run(
        ["cpio", "-itv"], input=archive.read_bytes(), capture_output=True, check=True
    ).stdout.decode()
    assert "dev/console" in listing and "init" in listing
    assert listing.splitlines()[1].startswith("crw")


def test_the_firmware_and_init_build_freestanding() -> None:
    fw = linux_soc.build_firmware()
    assert 0 < fw.stat().st_size < 64 * 1024
    init = linux_soc.build_init()
    header = init.read_bytes()[:20]
    assert header[:4] == b"\x7fELF" and header[4] == 1  # ELF32
    assert int.from_bytes(header[18:20], "little") == 243  # EM_RISCV
    undefined = subprocess.run(
        [linux_soc.ELF_PREFIX + "nm", "-u", str(init)], capture_output=True, text=True, check=True
    ).stdout
    assert undefined.strip() == ""  # nothing from a C library


def test_the_campaign_runs_each_task_after_what_it_needs_longest_chain_first() -> None:
    lock = threading.Lock()
    running: set[str] = set()
    log: list[tuple[str, str, frozenset[str]]] = []

    def task(name: str) -> Callable[[], str]:
        def call() -> str:
            with lock:
                running.add(name)
                log.append(("start", name, frozenset(running)))
            time.sleep(0.05)
            with lock:
                running.discard(name)
                log.append(("end", name, frozenset(running)))
            return name.upper()

        return call

    done: list[str] = []
    tasks = {
        "short": Task(task("short"), (), 1.0),
        "kernel": Task(task("kernel"), (), 5.0),
        "sim": Task(task("sim"), (), 2.0),
        "boot": Task(task("boot"), ("kernel", "sim"), 2.0, done.append),
        "run": Task(task("run"), ("boot",), 4.0),
    }
    results = run_tasks(tasks, 2)
    assert results == {n: n.upper() for n in tasks}
    assert done == ["BOOT"]
    starts = [n for kind, n, _ in log if kind == "start"]
    ends = [n for kind, n, _ in log if kind == "end"]
    for name, task_ in tasks.items():
        for need in task_.needs:
            assert ends.index(need) < starts.index(name), (need, name, log)
    assert starts[:2] == ["kernel", "sim"]  # the longest chains first; "short" waits
    assert max(len(r) for kind, _, r in log if kind == "start") <= 2  # two at a time


def test_the_campaign_stops_starting_tasks_after_a_failure() -> None:
    started: list[str] = []

    def fail() -> None:
        started.append("fail")
        raise linux_soc.LinuxSocError("the kernel did not build")

    tasks = {
        "fail": Task(fail, (), 5.0),
        "after": Task(lambda: started.append("after"), ("fail",), 1.0),
    }
    with pytest.raises(linux_soc.LinuxSocError, match="did not build"):
        run_tasks(tasks, 2)
    assert started == ["fail"]
    with pytest.raises(ValueError, match="unknown"):
        run_tasks({"a": Task(lambda: None, ("b",), 1.0)}, 2)


def test_the_campaign_counts_each_tasks_cpu_time_apart_from_what_runs_beside_it(
    tmp_path: Path,
) -> None:
    # each burner is a program that spins for about 0.4 s of its own CPU time and writes what it
    # measured itself; two run side by side, a third task only waits
    burn = (
        "import sys, time\n"
        "while time.process_time() < 0.4: pass\n"
        "open(sys.argv[1], 'w').write(repr(time.process_time()))\n"
    )

    def burner(name: str) -> Callable[[], None]:
        return lambda: linux_soc._run(
            [sys.executable, "-c", burn, str(tmp_path / name)], f"burner {name}"
        )

    tasks = {
        "run-a": Task(burner("a"), (), 1.0),
        "run-b": Task(burner("b"), (), 1.0),
        "boot-c": Task(lambda: time.sleep(0.3), (), 1.0),
    }
    times: dict[str, tuple[float, float]] = {}
    run_tasks(tasks, 2, times)
    for name in "ab":
        own = float((tmp_path / name).read_text())  # the program's own count
        wall, cpu = times[f"run-{name}"]
        # its CPU time and its interpreter's start, not the other burner's
        assert own <= cpu < own + 0.3, (name, own, cpu)
        assert wall >= cpu * 0.9
    wall, cpu = times["boot-c"]
    assert wall >= 0.3 and cpu < 0.1
    parts = time_parts(times, 5.0)
    by_part = {p["part"]: p for p in parts}
    runs = by_part["the measurement and no-op runs"]
    assert runs["tasks"] == 2
    assert runs["cpu_s"] == pytest.approx(times["run-a"][1] + times["run-b"][1], abs=0.1)
    assert by_part["the boots to the checkpoints"]["tasks"] == 1
    assert sum(float(p["cpu_s"]) for p in parts) == pytest.approx(5.0, abs=0.1)
    # a campaign with everything cached: its tasks are all of its CPU time, and the two counts
    # differ in their last digits only; the rest is 0 s, not -0 s
    cached = time_parts(times, sum(c for _, c in times.values()) - 0.01)
    assert f"{cached[-1]['cpu_s']:.0f}" == "0", cached[-1]
    # the report's table: a row per part, then the campaign's with every task
    _, text, table = linux_soc_figures.time_section((time_parts(times, 6.0), 9.0, 6.0, 2))
    assert "on 2 cores its CPU time alone takes at least 3 s" in text
    last = render(table, "markdown").splitlines()[-1]
    assert last == "| the campaign | 3 | 9 | 6 | 100 % |", last


def test_the_parameter_page_is_what_init_reads(tmp_path: Path) -> None:
    hexfile = linux_soc.Params(rounds=1000, nops=7, gap=20000, load=True, config="ab").hex(tmp_path)
    lines = hexfile.read_text().split()
    assert lines[0] == f"@{(linux_soc.PARAM_ADDR - linux_soc.RAM_BASE) // 4 + 1:x}"
    words = [int(w, 16) for w in lines[1:]]
    assert words[:6] == [linux_soc.PARAM_MAGIC, 1000, 7, 20000, 1, 1]
    assert words[7] == int.from_bytes(b"ab\0\0", "little")


def test_the_device_tree_compiles_with_the_uio_nodes(tmp_path: Path) -> None:
    dtb = linux_soc.build_dtb(tmp_path, 4096)
    text = subprocess.run(
        ["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert text.count('compatible = "generic-uio"') == 2
    assert 'compatible = "latmon,irq-ack"' in text
    assert "0x8003f000 0x1000" in text  # /init's parameter page, map3
    assert "uio_pdrv_genirq.of_id=generic-uio" in text


GAP = linux_soc.GAP  # cycles from arming to the raise: /init is asleep in poll() by then


def _run(out: Path, **kw: int) -> linux_soc.Boot:
    boot = linux_soc.run(out, preempt="none", params=linux_soc.Params(**kw), timeout_s=900)
    assert boot.exit_code == 0, (out / "uart.log").read_text()[-2000:]
    return boot


@pytest.mark.sim
def test_smoke_the_kernel_and_user_paths_from_the_checkpoint(tmp_path: Path) -> None:
    boot = _run(tmp_path / "both", rounds=100, gap=GAP)
    report = check(boot.uart, boot.trace)
    assert report.mismatches == 0, report.summary()
    user, kernel = report.series["user-ack"], report.series["kernel-ack"]
    assert len(user.samples) == 100 and len(kernel.samples) == 100, report.summary()
    assert {p.privilege for p in user.pairs} == {0}  # the store came from user mode
    assert {p.privilege for p in kernel.pairs} == {1}  # from the kernel's handler
    ev = read_trace(boot.trace)
    assert ev.kernel is not None and ev.user is not None and ev.checkpoint is not None
    assert ev.checkpoint == linux_soc_figures.published_checkpoint("none"), (
        f"this commit's kernel asks for its parameters at cycle {ev.checkpoint}, the one of "
        f"{linux_soc_figures.BLOCK.page.name}'s figures at another: they are stale "
        "(make linux-soc)"
    )
    ws = windows(boot.trace)
    assert len(ws) == 200
    assert all(took_interrupt(w, path_of(w.line)) for w in ws)
    # /init arms the line just before poll(): every raise finds it asleep there
    assert all(woken(w) for w in ws if path_of(w.line) == "user-ack")
    # each raise follows its arming by the gap (less the cycles from the irqgen's NOW read to
    # the ARM store), and most find the CPU waiting in wfi, the way to it shorter than the gap
    assert all(w.armed >= 0 and 0 < GAP - (w.raise_cycle - w.armed) < 100 for w in ws)
    assert sum(w.waiting for w in ws) >= 0.9 * len(ws)
    assert all(w.to_wfi is not None and w.to_wfi < GAP for w in ws if w.waiting)


@pytest.mark.sim
def test_seven_nops_move_the_user_samples_by_seven_cycles_as_the_page_says(
    tmp_path: Path,
) -> None:
    """The campaign's no-op runs, with the settings of the page's figures and the campaign's own
    code: N no-ops move the user-space samples by N cycles (the median of the differences, and
    the difference of the medians), and each run's record (its cycles, its samples' figures, the
    no-op test with the count of samples moved by exactly N) is the one the page shows. A change
    after the boot that moves a cycle (the RTL, the kernel's paths, /init) fails here until
    `make linux-soc` publishes the figures again; the smoke test's checkpoint check covers the
    boot."""
    published = json.loads(linux_soc_figures.BLOCK.results.read_text())
    settings = published["settings"]
    runs = [
        run_config(
            tmp_path,
            model=settings["models"][0],
            load=False,
            rounds=settings["nop_rounds"],
            nops=n,
            gap=settings["gap"],
            timeout_s=900,
            kernel=False,
        )
        for n in settings["nops"]
    ]
    assert all(r["exit_code"] == 0 for r in runs), [r["config"] for r in runs]
    base = next(r for r in runs if r["nops"] == 0)
    tests = [nop_effect(base, r) for r in runs if r["nops"]]
    for t in tests:
        assert t["pairs"] == settings["nop_rounds"], t
        assert t["shift_median"] == t["nops"] and t["median_shift"] == t["nops"], t
    mine = linux_soc_figures.figures(runs, tests, None, settings)
    page = {r["config"]: r for r in published["runs"] if not r["kernel"]}
    now = {r["config"]: r for r in mine["runs"]}
    stale = _differences(page, now) + _differences(published["nop_tests"], mine["nop_tests"])
    assert not stale, (
        f"{linux_soc_figures.BLOCK.page.name}'s figures are not this commit's (make linux-soc): "
        + "; ".join(stale[:6])
    )


def _differences(page: object, now: object, where: str = "") -> list[str]:
    """Where two records differ: 'where: page's value -> this commit's'."""
    if isinstance(page, dict) and isinstance(now, dict):
        keys = sorted(set(page) | set(now), key=str)
        return [d for k in keys for d in _differences(page.get(k), now.get(k), f"{where}/{k}")]
    if isinstance(page, list) and isinstance(now, list) and len(page) == len(now):
        return [
            d
            for i, (a, b) in enumerate(zip(page, now, strict=True))
            for d in _differences(a, b, f"{where}[{i}]")
        ]
    return [] if page == now else [f"{where or '/'}: {page!r} -> {now!r}"]


@pytest.mark.sim
def test_the_firmware_answers_every_counter_read_into_every_register(tmp_path: Path) -> None:
    """sw/linux-soc/firmware/test/counters.S in the kernel's place: time, timeh, cycle, cycleh
    read into each of x1..x31 (the firmware's trap entry answers them), each other register
    kept, the value a word of mtime within the read; instructions that are no counter read
    reach the supervisor as illegal. The exit code is the number of failed checks."""
    src = linux_soc.LSOC / "firmware" / "test"
    elf, binary = tmp_path / "counters.elf", tmp_path / "counters.bin"
    subprocess.run(
        [
            linux_soc.ELF_PREFIX + "gcc",
            *linux_soc.FW_FLAGS,
            "-Wl,--no-warn-rwx-segments",
            "-T",
            str(src / "counters.ld"),
            "-o",
            str(elf),
            str(src / "counters.S"),
            str(src / "counters.c"),
        ],
        check=True,
    )
    subprocess.run(
        [linux_soc.ELF_PREFIX + "objcopy", "-O", "binary", str(elf), str(binary)], check=True
    )
    image = linux_soc.image_hex(
        tmp_path,
        [
            (linux_soc.FW_ADDR, linux_soc.build_firmware().read_bytes()),
            (linux_soc.KERNEL_ADDR, binary.read_bytes()),
        ],
    )
    exe = linux_soc.build_sim()
    trace = tmp_path / "trace.txt"
    sim = subprocess.run(
        [str(exe), f"+image={image}", f"+trace={trace}", "+max_cycles=5000000"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    ev = read_trace(trace)
    assert ev.exit_code == 0, sim.stdout  # not the cycle limit (124), no failed check
    # every probe trapped into machine mode: 124 reads, 3 other read forms, 3 redirected
    mtraps = {
        int(c): int(n)
        for c, n, _ in (ln.split()[2:] for ln in sim.stdout.splitlines() if " mtraps " in ln)
    }
    assert mtraps[2] == 130, sim.stdout


def test_the_docs_figures_are_what_their_results_file_renders() -> None:
    assert linux_soc_figures.main(["--check-page"]) == 0


def test_the_campaign_publishes_only_a_complete_run_of_the_pages_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    block = linux_soc_figures.BLOCK
    published = json.loads(block.results.read_text())
    page = tmp_path / "page.md"
    page.write_text(f"# the page\n\n{block.begin}\n{block.end}\n\nafter the figures\n")
    monkeypatch.setattr(
        linux_soc_figures,
        "BLOCK",
        dataclasses.replace(block, page=page, results=tmp_path / "figures.json", root=tmp_path),
    )
    runs, nop_tests, ftrace = published["runs"], published["nop_tests"], published["ftrace"]
    settings = published["settings"]
    for page_run, missing, bad, why in (
        (False, [], [], "other settings than the page's"),
        (True, ["full-load"], [], "runs missing (full-load)"),
        (True, [], ["none-idle"], "failed runs (none-idle)"),
    ):
        publish(settings, page_run, missing, bad, runs, nop_tests, ftrace)
        assert why in capsys.readouterr().out
        assert not (tmp_path / "figures.json").exists()
    # the host's times are left out of the results file: a run's record is the simulation's
    timed = [{**r, "wall_s": 1.0, "cpu_s": 2.0, "samples": {"user-ack": [1]}} for r in runs]
    publish(settings, True, [], [], timed, nop_tests, {**ftrace, "wall_s": 3.0})
    assert json.loads((tmp_path / "figures.json").read_text()) == published
    assert linux_soc_figures.main(["--check-page"]) == 0
    text = page.read_text()
    assert text.startswith("# the page\n") and text.endswith("after the figures\n")
    assert "| kernel-ack | none | idle | 1,000 | 0 |" in text
    page.write_text(text.replace("| 1,000 | 0 |", "| 1,000 | 1 |", 1))
    assert linux_soc_figures.main(["--check-page"]) == 1
