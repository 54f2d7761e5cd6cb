"""`make linux-soc`: the Linux SoC's measurements side by side (docs/hw/linux-soc.md).

For each preemption model and each of idle / load, one run of the Linux SoC (restored from the
model's checkpoint after the boot) measures ROUNDS interrupts of each path: the kernel's hard-IRQ
handler acknowledging (kernel-ack) and a SCHED_FIFO process woken through /dev/uioN
acknowledging (user-ack); every sample is compared with the bus and irq record and split into
stages. The no-op test: runs of the first model, idle, user-space path only, with N no-ops before
the acknowledging store, compared sample by sample with the run without them.
Writes out/linux-soc/report.html, table.md (linux_soc_figures.py), results.json and the console
logs; with --publish, a run of the default settings also writes the figures of
docs/hw/linux-soc.md and their results file (make linux-soc).

    python hw/tb/linux_soc_campaign.py --out out/linux-soc [--rounds 1000] [--models none,...]
        [--publish]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import linux_soc
import linux_soc_figures
from linux_soc_check import check, read_trace
from linux_soc_ftrace import FtraceError
from linux_soc_stages import (
    MASKED_TRAP_ENTRY,
    STAGES,
    StageError,
    decompose,
    path_of,
    took_interrupt,
    windows,
    woken,
)


@dataclass
class Task:
    """A part to build or a run: what to call, the tasks it needs first, roughly how much CPU it
    takes (seconds; the order of the tasks only), and what to do with its result."""

    call: Callable[[], object]
    needs: tuple[str, ...]
    cpu_s: float
    then: Callable[[Any], None] | None = None


# Rough CPU seconds of each kind of task, for their order alone: the kernel's source tree
# extracted, a kernel built at -j1, the simulator's verilation and build, a boot, one
# measurement round (about 80,000 cycles), the traced run.
TASK_CPU_S = {
    "linux-tree": 30.0,
    "kernel": 200.0,
    "sim": 30.0,
    "boot": 90.0,
    "round": 0.1,
    "ftrace": 60.0,
}


def run_tasks(
    tasks: dict[str, Task], jobs: int, times: dict[str, tuple[float, float]] | None = None
) -> dict[str, object]:
    """Run the tasks, `jobs` at a time, each as soon as the ones it needs are done; of those ready,
    the one with the longest chain of work after it first (list scheduling on the critical
    path). Returns each task's result, and puts each finished task's wall and CPU seconds
    (linux_soc.thread_cpu_s: its thread's and its programs') in `times`; the first exception
    stops starting new tasks and is raised once the running ones end."""
    chain: dict[str, float] = {}

    def timed(name: str) -> object:
        wall, cpu = time.monotonic(), linux_soc.thread_cpu_s()
        result = tasks[name].call()
        if times is not None:
            times[name] = (time.monotonic() - wall, linux_soc.thread_cpu_s() - cpu)
        return result

    def tail(name: str) -> float:
        if name not in chain:
            after = [tail(n) for n, t in tasks.items() if name in t.needs]
            chain[name] = tasks[name].cpu_s + max(after, default=0.0)
        return chain[name]

    for name, task in tasks.items():
        missing = [n for n in task.needs if n not in tasks]
        if missing:
            raise ValueError(f"task {name} needs unknown tasks {missing}")
    order = sorted(tasks, key=lambda n: -tail(n))
    results: dict[str, object] = {}
    pending = dict.fromkeys(order)
    running: dict[Future[object], str] = {}
    error: BaseException | None = None
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        while running or (pending and error is None):
            if error is None:
                for name in [n for n in pending if all(d in results for d in tasks[n].needs)]:
                    if len(running) >= jobs:
                        break
                    del pending[name]
                    running[pool.submit(timed, name)] = name
            if not running:
                raise ValueError(f"tasks that cannot start: {', '.join(pending)}")
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            for f in finished:
                name = running.pop(f)
                try:
                    results[name] = f.result()
                    then = tasks[name].then
                    if then is not None:
                        then(results[name])
                except BaseException as exc:  # raised below, once the running ones end
                    error = error or exc
    if error is not None:
        raise error
    return results


# The parts of a campaign's time, by the names of its tasks (main): (prefix, what they are).
TASK_PARTS = (
    ("linux-tree", "the kernel's source tree, extracted"),
    ("kernel-", "the kernels (make -j1 each)"),
    ("sim", "the simulator's verilation and build"),
    ("boot-", "the boots to the checkpoints"),
    ("ftrace", "the traced run"),
    ("run-", "the measurement and no-op runs"),
)


def time_parts(
    times: dict[str, tuple[float, float]], total_cpu_s: float
) -> list[dict[str, object]]:
    """The tasks' wall and CPU seconds summed by part (TASK_PARTS), and what the campaign spent
    outside them (the firmware, /init and the initramfs, the analysis, the report): the rest of
    its CPU time."""
    parts = []
    for prefix, what in TASK_PARTS:
        names = [n for n in times if n.startswith(prefix)]
        if names:
            parts.append(
                {
                    "part": what,
                    "tasks": len(names),
                    "wall_s": round(sum(times[n][0] for n in names), 1),
                    "cpu_s": round(sum(times[n][1] for n in names), 1),
                }
            )
    rest = total_cpu_s - sum(t[1] for t in times.values())
    # when the tasks are all of it (a campaign with everything cached) the two counts differ
    # only in their granularity: a rest of -0.0 s is 0 s
    parts.append(
        {
            "part": "the rest of the campaign",
            "tasks": None,
            "wall_s": None,
            "cpu_s": round(rest, 1) or 0.0,
        }
    )
    return parts


def _cpu_so_far() -> float:
    """CPU seconds of this process and of the programs it has waited for."""
    own, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def rank(values: Sequence[int], q: float) -> int:
    """Nearest-rank quantile (an observed value; exact on integer samples)."""
    s = sorted(values)
    k = max(1, -(-len(s) * q // 1))
    return s[int(k) - 1]


def config_name(model: str, load: bool, nops: int, kernel: bool) -> str:
    """The run's folder under --out and its scenario name."""
    return f"{model}-{'load' if load else 'idle'}" + ("" if kernel else f"-user-nops{nops}")


def _gap_of(uart: Path) -> int | None:
    """The gap /init measured with, from its console line "init: up; ... gap=N ..."."""
    m = re.search(r"^init: up;.* gap=(\d+)", uart.read_text(errors="replace"), re.M)
    return int(m.group(1)) if m else None


def _boot_times(run: Path, model: str, timeout_s: float) -> tuple[float, float]:
    """The wall and CPU time of the boot that a run restored, kept in the run's folder
    (checkpoint.json): a re-analysis (--reuse, --no-run) reads them there instead of looking up
    the checkpoint, which would build and boot whatever is missing."""
    kept = run / "checkpoint.json"
    try:
        d = json.loads(kept.read_text())
        return float(d["boot_wall_s"]), float(d["boot_cpu_s"])
    except (OSError, ValueError, KeyError):
        pass
    ck = linux_soc.checkpoint(model, timeout_s=timeout_s)
    times = round(ck.wall_s, 1), round(ck.cpu_s, 1)
    kept.write_text(json.dumps({"boot_wall_s": times[0], "boot_cpu_s": times[1]}) + "\n")
    return times


def run_config(
    out: Path,
    model: str,
    load: bool,
    rounds: int,
    nops: int,
    gap: int,
    timeout_s: float,
    reuse: bool = False,
    kernel: bool = True,
) -> dict[str, object]:
    name = config_name(model, load, nops, kernel)
    params = linux_soc.Params(
        rounds=rounds, nops=nops, gap=gap, load=load, kernel=kernel, config=name
    )
    boot = linux_soc.read_boot(out / name) if reuse else None
    if boot is None:
        boot = linux_soc.run(out / name, preempt=model, params=params, timeout_s=timeout_s)
    boot_wall_s, boot_cpu_s = _boot_times(out / name, model, timeout_s)
    ev = read_trace(boot.trace)
    result: dict[str, object] = {
        "config": name,
        "gap": _gap_of(boot.uart),
        "model": model,
        "load": load,
        "nops": nops,
        "kernel": kernel,
        "exit_code": boot.exit_code,
        "cycles": boot.cycles,
        "wall_s": round(boot.wall_s, 1),
        "cpu_s": round(boot.cpu_s, 1),
        "kernel_cycle": ev.kernel,
        "init_cycle": ev.user,
        "checkpoint_cycle": ev.checkpoint,
        "boot_wall_s": boot_wall_s,
        "boot_cpu_s": boot_cpu_s,
        "series": {},
        "samples": {},
    }
    if boot.exit_code != 0:
        return result
    report = check(boot.uart, boot.trace)
    split: dict[str, list[list[int]]] = {p: [] for p in STAGES}
    taken: dict[str, int] = dict.fromkeys(STAGES, 0)
    asleep: dict[str, int] = dict.fromkeys(STAGES, 0)
    waiting: dict[str, int] = dict.fromkeys(STAGES, 0)
    to_wfi: dict[str, list[int]] = {p: [] for p in STAGES}
    armings: dict[str, list[int]] = {p: [] for p in STAGES}
    ws = windows(boot.trace)
    for w in ws:
        split[path_of(w.line)].append(decompose(w, path_of(w.line)))
        if w.armed >= 0:
            armings[path_of(w.line)].append(w.armed)
        taken[path_of(w.line)] += took_interrupt(w, path_of(w.line))
        asleep[path_of(w.line)] += path_of(w.line) == "user-ack" and woken(w)
        waiting[path_of(w.line)] += w.waiting
        if w.to_wfi is not None:
            to_wfi[path_of(w.line)].append(w.to_wfi)
    series: dict[str, object] = {}
    samples: dict[str, list[int]] = {}
    for s in report.series.values():
        v = s.samples
        if not v and not s.pairs:
            continue  # the path this run did not measure
        stages = split[s.name]
        if len(stages) != len(v) or any(sum(x) != t for x, t in zip(stages, v, strict=False)):
            raise linux_soc.LinuxSocError(f"{name}/{s.name}: the stages do not add up to the IP's")
        med = sorted(range(len(v)), key=lambda i: v[i])[(len(v) - 1) // 2] if v else None
        longest = max(range(len(v)), key=lambda i: v[i]) if v else None
        round_cycles = [b - a for a, b in zip(armings[s.name], armings[s.name][1:], strict=False)]
        samples[s.name] = list(v)
        series[s.name] = {
            "n": len(v),
            "mismatches": s.mismatches,
            "first_mismatch": s.first,
            "irq_taken": taken[s.name],
            # user-ack: samples where the process was asleep in poll() at the raise
            "woken": asleep[s.name] if s.name == "user-ack" else None,
            # samples whose raise found the CPU waiting in wfi (the idle task), and the cycles
            # from the arming to that wait (the gap must be longer)
            "in_wfi": waiting[s.name],
            "to_wfi_median": rank(to_wfi[s.name], 0.5) if to_wfi[s.name] else None,
            "to_wfi_max": max(to_wfi[s.name]) if to_wfi[s.name] else None,
            "min": min(v) if v else None,
            "median": rank(v, 0.5) if v else None,
            "p99": rank(v, 0.99) if v else None,
            "max": max(v) if v else None,
            # samples whose raise found interrupts masked (a trap entry of thousands of cycles),
            # and the trap entry of the longest sample
            "masked": sum(1 for x in stages if x[0] > MASKED_TRAP_ENTRY),
            "longest_trap_entry": stages[longest][0] if longest is not None else None,
            # a measurement round: from one arming of the line to the next (median)
            "round_median": rank(round_cycles, 0.5) if round_cycles else None,
            "privileges": sorted({p.privilege for p in s.pairs}),
            "stage_names": [n for n, _ in STAGES[s.name]],
            "stages_mean": [
                round(sum(x[k] for x in stages) / len(stages), 1)
                for k in range(len(STAGES[s.name]))
            ]
            if stages
            else [],
            "stages_median": [rank([x[k] for x in stages], 0.5) for k in range(len(STAGES[s.name]))]
            if stages
            else [],
            "stages_of_median": stages[med] if med is not None else [],
        }
    result["series"] = series
    result["samples"] = samples
    # between the two paths /init writes the kernel path's samples to the console: from the
    # kernel path's last acknowledge to the user-space path's first arming
    kack = [w for w in ws if path_of(w.line) == "kernel-ack" and w.ack_cycle >= 0]
    uack = [w for w in ws if path_of(w.line) == "user-ack" and w.armed >= 0]
    result["log_cycles"] = uack[0].armed - kack[-1].ack_cycle if kack and uack else None
    return result


def ftrace_run(out: Path, model: str, rounds: int, gap: int, timeout_s: float, reuse: bool):
    """A short idle run with the kernel's irq and sched tracepoints on: the stage boundaries of
    the instruction trace against the kernel's own events (linux_soc_ftrace.py)."""
    from linux_soc_ftrace import compare

    name = f"{model}-idle-ftrace"
    params = linux_soc.Params(rounds=rounds, gap=gap, config=name, trace=True)
    boot = linux_soc.read_boot(out / name) if reuse else None
    if boot is None:
        boot = linux_soc.run(out / name, preempt=model, params=params, timeout_s=timeout_s)
    if boot.exit_code != 0:
        raise linux_soc.LinuxSocError(f"{name}: exit {boot.exit_code}; see {out / name}")
    report = check(boot.uart, boot.trace)
    result = compare(boot.uart, boot.trace).summary()
    result.update(
        config=name,
        model=model,
        rounds=rounds,
        mismatches=report.mismatches,
        checked=report.checked,
        cycles=boot.cycles,
        wall_s=round(boot.wall_s, 1),
        cpu_s=round(boot.cpu_s, 1),
    )
    return result


def nop_effect(base: dict[str, object], run: dict[str, object]) -> dict[str, object]:
    """The no-op test: each user-ack sample of `run` (N no-ops) minus the same sample of `base`."""
    a = base["samples"].get("user-ack", [])  # type: ignore[union-attr]
    b = run["samples"].get("user-ack", [])  # type: ignore[union-attr]
    n = int(run["nops"])  # type: ignore[arg-type]
    d = [y - x for x, y in zip(a, b, strict=False)]
    return {
        "nops": n,
        "pairs": len(d),
        "shift_median": rank(d, 0.5) if d else None,
        "exactly_n": sum(1 for x in d if x == n),
        "median_shift": (
            int(run["series"]["user-ack"]["median"]) - int(base["series"]["user-ack"]["median"])  # type: ignore[index]
        )
        if d
        else None,
    }


def _lists(args: argparse.Namespace) -> tuple[list[str], list[str], list[int]]:
    """The models, the loads and the no-op counts (0 first when there is a no-op test)."""
    nops = [int(n) for n in args.nops.split(",") if n]
    return (
        [m for m in args.models.split(",") if m],
        [ld for ld in args.loads.split(",") if ld],
        [0, *nops] if nops and 0 not in nops else nops,
    )


def settings_of(args: argparse.Namespace) -> dict[str, object]:
    """What a run of the campaign measured, as the results file records it."""
    models, loads, nops = _lists(args)
    return {
        "models": models,
        "loads": loads,
        "rounds": args.rounds,
        "gap": args.gap,
        "nops": nops,
        "nop_rounds": args.nop_rounds,
        "ftrace_rounds": args.ftrace_rounds,
    }


def publish(
    settings: dict[str, object],
    page_run: bool,
    missing: list[str],
    bad: list[str],
    results: list[dict[str, object]],
    nop_tests: list[dict[str, object]],
    ftrace: dict[str, object] | None,
) -> None:
    """--publish: the results file and the generated block of the docs, when this run is the
    page's."""
    why = (
        f"failed runs ({', '.join(bad)})"
        if bad
        else f"runs missing ({', '.join(missing)})"
        if missing
        else "other settings than the page's"
        if not page_run
        else ""
    )
    if why:
        print(f"linux-soc: {linux_soc_figures.BLOCK.what} of the docs not written: {why}")
        return
    linux_soc_figures.publish(linux_soc_figures.figures(results, nop_tests, ftrace, settings))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=1000, help="interrupts per path and run")
    parser.add_argument(
        "--gap", type=int, default=linux_soc.GAP, help="cycles from arming to the raise"
    )
    parser.add_argument("--models", default="none,voluntary,full")
    parser.add_argument("--loads", default="idle,load")
    parser.add_argument(
        "--nops", default="0,7", help="the no-op test: N no-ops, a list (empty: no test)"
    )
    parser.add_argument("--nop-rounds", type=int, default=100, help="interrupts per no-op run")
    parser.add_argument(
        "--ftrace-rounds",
        type=int,
        default=30,
        help="interrupts per path of the run with the kernel's tracepoints on (0: no such run)",
    )
    parser.add_argument("--jobs", type=int, default=2, help="simulations side by side")
    parser.add_argument("--timeout", type=float, default=3600, help="wall-time limit per run, s")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="analyse the runs already in --out (boot.json) instead of rerunning",
    )
    parser.add_argument(
        "--no-run",
        action="store_true",
        help="analyse only the runs already in --out (boot.json), simulate nothing: the "
        "configurations without a finished run are left out of the tables (and named)",
    )
    parser.add_argument(
        "--publish",
        action="store_true",
        help="write the results file and the figures of docs/hw/linux-soc.md when the run is "
        "the page's (the defaults: every model, idle and load)",
    )
    args = parser.parse_args(argv)
    models, loads, nops = _lists(args)
    if not models or any(m not in linux_soc.PREEMPT for m in models):
        print(f"linux-soc: --models: a list of {', '.join(linux_soc.PREEMPT)}", file=sys.stderr)
        return 2
    if not loads or any(ld not in ("idle", "load") for ld in loads):
        print("linux-soc: --loads: a list of idle, load", file=sys.stderr)
        return 2
    for opt, v, low in (
        ("--rounds", args.rounds, 1),
        ("--nop-rounds", args.nop_rounds, 1),
        ("--gap", args.gap, 1),
        ("--ftrace-rounds", args.ftrace_rounds, 0),
    ):
        if v < low:
            print(f"linux-soc: {opt} {v}: at least {low}", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    start, cpu_start = time.monotonic(), _cpu_so_far()
    load_start = os.getloadavg()
    configs = [(m, ld == "load", 0, True, args.rounds) for m in models for ld in loads]
    configs += [(models[0], False, n, False, args.nop_rounds) for n in nops]
    ftrace_name = f"{models[0]}-idle-ftrace"
    missing: list[str] = []
    if args.no_run:
        args.reuse = True
        missing = [
            config_name(m, load, n, kernel)
            for m, load, n, kernel, _ in configs
            if linux_soc.read_boot(args.out / config_name(m, load, n, kernel)) is None
        ]
        if args.ftrace_rounds > 0 and linux_soc.read_boot(args.out / ftrace_name) is None:
            missing.append(ftrace_name)
            args.ftrace_rounds = 0
        configs = [c for c in configs if config_name(*c[:4]) not in missing]
        if missing:
            print(f"linux-soc: not run, left out: {', '.join(missing)}", flush=True)

    def report_run(r: dict[str, object]) -> None:
        print(
            f"linux-soc: {r['config']}: "
            + "; ".join(
                f"{k} n={v['n']} median={v['median']} p99={v['p99']} "
                f"max={v['max']} mismatches={v['mismatches']} irq taken={v['irq_taken']} "
                f"in wfi={v['in_wfi']} arming->wfi max={v['to_wfi_max']}"
                for k, v in r["series"].items()  # type: ignore[union-attr]
            )
            + f" ({r['wall_s']} s wall, {r['cpu_s']} s CPU)",
            flush=True,
        )

    def report_boot(m: str, ck: linux_soc.Checkpoint) -> None:
        print(
            f"linux-soc: {m}: checkpoint at cycle {ck.boot_cycles} "
            f"(boot: {ck.wall_s:.1f} s wall, {ck.cpu_s:.1f} s CPU)",
            flush=True,
        )

    # Every part and run is a task with the tasks it needs; --jobs run at a time, each one
    # process (a kernel or the simulator builds at make -j1 in its slot), so that a model boots
    # and is measured while the next kernel builds.
    ck_models = sorted({c[0] for c in configs}, key=models.index)
    build_jobs = 1 if args.jobs > 1 else 2
    tasks: dict[str, Task] = {}
    if ck_models:  # the tree first, on its own: a second kernel's build would wait for it
        tasks["linux-tree"] = Task(linux_soc.linux_tree, (), TASK_CPU_S["linux-tree"])
    for m in ck_models:
        tasks[f"kernel-{m}"] = Task(
            lambda m=m: linux_soc.build_kernel(m, jobs=build_jobs),
            ("linux-tree",),
            TASK_CPU_S["kernel"],
        )
    tasks["sim"] = Task(lambda: linux_soc.build_sim(jobs=build_jobs), (), TASK_CPU_S["sim"])
    for m in ck_models:
        tasks[f"boot-{m}"] = Task(
            lambda m=m: linux_soc.checkpoint(m, timeout_s=args.timeout),
            ("sim", f"kernel-{m}"),
            TASK_CPU_S["boot"],
            lambda ck, m=m: report_boot(m, ck),
        )
    for m, load, n, kernel, rounds in configs:
        tasks[f"run-{config_name(m, load, n, kernel)}"] = Task(
            lambda c=(m, load, n, kernel, rounds): run_config(
                args.out, c[0], c[1], c[4], c[2], args.gap, args.timeout, args.reuse, c[3]
            ),
            (f"boot-{m}",),
            TASK_CPU_S["round"] * rounds * (2 if kernel else 1),
            report_run,
        )
    if args.ftrace_rounds > 0:
        tasks["ftrace"] = Task(
            lambda: ftrace_run(
                args.out, models[0], args.ftrace_rounds, args.gap, args.timeout, args.reuse
            ),
            (f"boot-{models[0]}",),
            TASK_CPU_S["ftrace"],
        )
    try:
        linux_soc.build_firmware()
        linux_soc.build_initramfs(linux_soc.build_init())
        times: dict[str, tuple[float, float]] = {}
        done = run_tasks(tasks, max(1, args.jobs), times)
        results = [done[f"run-{config_name(*c[:4])}"] for c in configs]
        ftrace = done.get("ftrace")
    except (linux_soc.LinuxSocError, StageError, FtraceError) as exc:
        print(f"linux-soc: {exc}", file=sys.stderr)
        return 1
    base = next((r for r in results if not r["kernel"] and r["nops"] == 0), None)
    nop_tests = [
        nop_effect(base, r) for r in results if base is not None and not r["kernel"] and r["nops"]
    ]
    campaign_cpu_s = _cpu_so_far() - cpu_start
    wall_s, cpu_s = round(time.monotonic() - start, 1), round(campaign_cpu_s, 1)
    parts = time_parts(times, campaign_cpu_s)
    (args.out / "results.json").write_text(
        json.dumps(
            {
                "runs": results,
                "nop_tests": nop_tests,
                "ftrace": ftrace,
                "tasks": {
                    n: {"wall_s": round(w, 1), "cpu_s": round(c, 1)} for n, (w, c) in times.items()
                },
                "time_parts": parts,
                "wall_s": wall_s,
                "cpu_s": cpu_s,
                "host_load_start": load_start,
                "host_load_end": os.getloadavg(),
            },
            indent=1,
        )
    )
    linux_soc_figures.write_outputs(
        args.out, results, nop_tests, ftrace, (parts, wall_s, cpu_s, args.jobs)
    )
    settings = settings_of(args)
    bad = [
        str(r["config"])
        for r in results
        if r["exit_code"] != 0
        or any(
            v["mismatches"]
            or v["n"] != (args.rounds if r["kernel"] else args.nop_rounds)
            or v["irq_taken"] != v["n"]
            for v in r["series"].values()  # type: ignore[union-attr]
        )
        or len(r["series"]) != (2 if r["kernel"] else 1)  # type: ignore[arg-type]
    ]
    if ftrace is not None:
        print(
            f"linux-soc: tracepoints: {ftrace['user_in_order']} of {ftrace['user_windows']} "
            f"user-space windows with irq_handler_entry, sched_wakeup, sched_switch in the stages "
            f"the instruction trace gives; clock offset spread over {ftrace['kernel_windows']} "
            f"kernel-path entries {ftrace['offset_spread_cycles']} cycles; "
            f"{ftrace['mismatches']} mismatches"
        )
        if ftrace["mismatches"] or ftrace["user_in_order"] != ftrace["user_windows"]:
            bad.append(str(ftrace["config"]))
    for t in nop_tests:
        print(
            f"linux-soc: {t['nops']} no-ops: {t['exactly_n']} of {t['pairs']} samples moved by "
            f"exactly {t['nops']} cycles; median difference {t['shift_median']}"
        )
    if args.publish:
        page_run = settings_of(parser.parse_args(["--out", str(args.out)]))
        publish(settings, settings == page_run, missing, bad, results, nop_tests, ftrace)
    print(
        "linux-soc: CPU time: "
        + ", ".join(f"{p['part']} {p['cpu_s']:.0f} s" for p in parts)
        + f"; {cpu_s:.0f} s in all"
    )
    print(
        f"linux-soc: {len(results)} runs in {time.monotonic() - start:.0f} s (host load average "
        f"{load_start[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end); "
        f"report {args.out / 'report.html'}" + (f"; FAILED: {', '.join(bad)}" if bad else "")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
