"""`make linux-soc`: the Linux SoC's measurements side by side (docs/hw/linux-soc.md).

For each preemption model, each of idle / load and each number of no-ops, one boot of the Linux
SoC measures the user-space path — a SCHED_FIFO process woken through /dev/uioN acknowledging
(user-ack) — ROUNDS interrupts, every sample compared with the bus and irq record and split into
stages. (The kernel path, kernel-ack, is hw/tb/linux_soc.py --kernel-ack: docs/hw/linux-soc.md.)
Writes out/linux-soc/report.html, results.json and the console logs.

    python hw/tb/linux_soc_campaign.py --out out/linux-soc [--rounds 1000] [--models none,...]
"""

from __future__ import annotations

import argparse
import html
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import linux_soc
from linux_soc_check import check, read_trace
from linux_soc_stages import STAGES, decompose, path_of, windows


def rank(values: Sequence[int], q: float) -> int:
    """Nearest-rank quantile (an observed value; exact on integer samples)."""
    s = sorted(values)
    k = max(1, -(-len(s) * q // 1))
    return s[int(k) - 1]


def run_config(
    out: Path,
    model: str,
    load: bool,
    rounds: int,
    nops: int,
    gap: int,
    timeout_s: float,
    reuse: bool = False,
) -> dict[str, object]:
    name = f"{model}-{'load' if load else 'idle'}" + (f"-nops{nops}" if nops else "")
    bootargs = (
        f"latmon.rounds={rounds} latmon.nops={nops} latmon.gap={gap} "
        f"latmon.load={int(load)} latmon.config={name}"
    )
    boot = linux_soc.read_boot(out / name) if reuse else None
    if boot is None:
        boot = linux_soc.run(out / name, preempt=model, bootargs=bootargs, timeout_s=timeout_s)
    ev = read_trace(boot.trace)
    result: dict[str, object] = {
        "config": name,
        "model": model,
        "load": load,
        "nops": nops,
        "exit_code": boot.exit_code,
        "cycles": boot.cycles,
        "wall_s": round(boot.wall_s, 1),
        "cpu_s": round(boot.cpu_s, 1),
        "kernel_cycle": ev.kernel,
        "init_cycle": ev.user,
        "series": {},
    }
    if boot.exit_code != 0:
        return result
    report = check(boot.uart, boot.trace)
    split: dict[str, list[list[int]]] = {p: [] for p in STAGES}
    for w in windows(boot.trace):
        split[path_of(w.line)].append(decompose(w, path_of(w.line)))
    series: dict[str, object] = {}
    for s in report.series.values():
        v = s.samples
        if not v and not s.pairs:
            continue  # the path this run did not measure (kernel-ack: --kernel-ack only)
        stages = split[s.name]
        if len(stages) != len(v) or any(sum(x) != t for x, t in zip(stages, v, strict=False)):
            raise linux_soc.LinuxSocError(f"{name}/{s.name}: the stages do not add up to the IP's")
        med = sorted(range(len(v)), key=lambda i: v[i])[(len(v) - 1) // 2] if v else None
        series[s.name] = {
            "n": len(v),
            "mismatches": s.mismatches,
            "first_mismatch": s.first,
            "min": min(v) if v else None,
            "median": rank(v, 0.5) if v else None,
            "p99": rank(v, 0.99) if v else None,
            "max": max(v) if v else None,
            "privileges": sorted({p.privilege for p in s.pairs}),
            "stage_names": [n for n, _ in STAGES[s.name]],
            "stages_mean": [
                round(sum(x[k] for x in stages) / len(stages), 1)
                for k in range(len(STAGES[s.name]))
            ]
            if stages
            else [],
            "stages_of_median": stages[med] if med is not None else [],
        }
    result["series"] = series
    return result


def write_report(out: Path, results: list[dict[str, object]]) -> None:
    rows = []
    for r in results:
        for name, s in (r["series"] or {}).items():  # type: ignore[union-attr]
            rows.append(
                "<tr>"
                + "".join(
                    f"<td>{html.escape(str(x))}</td>"
                    for x in (
                        r["model"],
                        "load" if r["load"] else "idle",
                        r["nops"],
                        name,
                        s["n"],
                        s["min"],
                        s["median"],
                        s["p99"],
                        s["max"],
                        s["mismatches"],
                    )
                )
                + "</tr>"
            )
    stage_rows = []
    for r in results:
        for name, s in (r["series"] or {}).items():  # type: ignore[union-attr]
            cells = " + ".join(
                f"{n} {c}" for n, c in zip(s["stage_names"], s["stages_of_median"], strict=False)
            )
            means = " + ".join(
                f"{n} {c}" for n, c in zip(s["stage_names"], s["stages_mean"], strict=False)
            )
            stage_rows.append(
                f"<tr><td>{html.escape(str(r['config']))}</td><td>{name}</td>"
                f"<td style='text-align:left'>{html.escape(cells)} = {s['median']}</td>"
                f"<td style='text-align:left'>{html.escape(means)}</td></tr>"
            )
    boots = "".join(
        f"<tr><td>{html.escape(str(r['config']))}</td><td>{r['init_cycle']}</td>"
        f"<td>{r['cycles']}</td><td>{r['wall_s']}</td><td>{r['cpu_s']}</td>"
        f"<td>{r['exit_code']}</td></tr>"
        for r in results
    )
    page = f"""<!doctype html><html><head><meta charset="utf-8">
<title>latmon: Linux on the virtual SoC</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:70em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #999;padding:.25em .6em;text-align:right}}th{{background:#eee}}</style>
</head><body>
<h1>Linux on the virtual SoC: irq &rarr; ack, measured by the latmon IP</h1>
<p>Linux 6.1 (Debian's linux-source-6.1, rv32) on VexRiscv_Linux in Verilator; one clock of
100&nbsp;MHz for CPU and fabric, so every figure is in cycles of that clock. <b>kernel-ack</b>:
the kernel's hard-IRQ handler acknowledges (irqgen line 1). <b>user-ack</b>: a SCHED_FIFO
process woken from <code>poll()</code> on <code>/dev/uioN</code> acknowledges through the
mapping with liblatmon's UIO HAL (irqgen line 0). Each sample is compared with the bus and
irq record of the simulator (mismatches column). Quantiles are nearest-rank.</p>
<h2>Latency (cycles)</h2>
<table><tr><th>preemption</th><th>load</th><th>no-ops</th><th>path</th><th>n</th><th>min</th>
<th>median</th><th>p99</th><th>max</th><th>mismatches</th></tr>
{"".join(rows)}</table>
<h2>Stages (cycles), from the CPU's retired instructions</h2>
<p>Each interrupt split where the marks first retire: trap entry (raise &rarr; the trap
vector <code>handle_exception</code>), irq layer (&rarr; the device's handler), handler,
wake-up (<code>try_to_wake_up</code> &rarr; <code>__schedule</code>), switch (&rarr;
<code>__switch_to</code>), return to user (&rarr; the first user-mode instruction), user code
(&rarr; the acknowledging store). Left: the sample with the median total; right: the mean of
each stage over all samples. The stages of every sample add up to the IP's figure.</p>
<table><tr><th>run</th><th>path</th><th>median sample</th><th>mean per stage</th></tr>
{"".join(stage_rows)}</table>
<h2>Boots</h2>
<table><tr><th>run</th><th>/init's first instruction (cycle)</th><th>cycles in all</th>
<th>wall time (s)</th><th>simulator CPU time (s)</th><th>exit</th></tr>{boots}</table>
</body></html>
"""
    (out / "report.html").write_text(page)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--gap", type=int, default=20000)
    parser.add_argument("--models", default="none,voluntary,full")
    parser.add_argument("--loads", default="idle,load")
    parser.add_argument(
        "--nops", default="0", help="no-ops before the user-space ack, a list: one run each"
    )
    parser.add_argument("--timeout", type=float, default=1800, help="wall-time limit per run, s")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="analyse the runs already in --out (boot.json) instead of rerunning",
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    start = time.monotonic()
    try:
        configs = [
            (m, ld, int(n))
            for m in args.models.split(",")
            for ld in args.loads.split(",")
            for n in args.nops.split(",")
        ]
        for model, load, nops in configs:
            r = run_config(
                args.out,
                model,
                load == "load",
                args.rounds,
                nops,
                args.gap,
                args.timeout,
                args.reuse,
            )
            results.append(r)
            print(
                f"linux-soc: {r['config']}: "
                + "; ".join(
                    f"{k} n={v['n']} median={v['median']} p99={v['p99']} "
                    f"max={v['max']} mismatches={v['mismatches']}"
                    for k, v in r["series"].items()
                )  # type: ignore[union-attr]
                + f" ({r['wall_s']} s)",
                flush=True,
            )
    except linux_soc.LinuxSocError as exc:
        print(f"linux-soc: {exc}", file=sys.stderr)
        return 1
    (args.out / "results.json").write_text(json.dumps(results, indent=1))
    write_report(args.out, results)
    bad = [
        r["config"]
        for r in results
        if r["exit_code"] != 0
        or any(
            v["mismatches"] or v["n"] != (args.rounds if k == "user-ack" else 0)
            for k, v in r["series"].items()
        )
    ]  # type: ignore
    print(
        f"linux-soc: {len(results)} runs in {time.monotonic() - start:.0f} s; "
        f"report {args.out / 'report.html'}" + (f"; FAILED: {', '.join(bad)}" if bad else "")
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
