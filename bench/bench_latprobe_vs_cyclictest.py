"""latprobe against cyclictest on this machine, like for like, and the effect of cpu_dma_latency.

Four configurations run in turn in every round (latprobe, cyclictest, latprobe with
/dev/cpu_dma_latency untouched, cyclictest with it untouched, latprobe, ...; 6 rounds of 5 s by
default: short rounds, so that the load of a shared machine drifts little between the
configurations of a round) under the same conditions: every CPU, SCHED_FIFO 95 with mlockall
(SCHED_OTHER without them when not root), 1 ms interval, the same duration, no load. Latencies
of all rounds and CPUs are pooled per configuration; the CPU time is the user + system time of
the tool's process (wait4), per second of measuring.

Like for like: each tool with its defaults, which as root both hold /dev/cpu_dma_latency at
0 µs while measuring (checked: latprobe's log header, cyclictest's "# /dev/cpu_dma_latency set to
0us"), and at the same resolution: cyclictest truncates every latency to whole µs (its 7 µs
means 7.0-7.999 µs), so latprobe's exact ns are truncated the same way for the comparison (the
exact values are in the note). Ratios are latprobe / cyclictest: below 1 means latprobe measured
less latency or used less CPU. The effect of the setting is its own figure per tool: held at
0 / untouched (latprobe --dma-latency none, cyclictest --default-system); below 1 means holding
0 lowers the latency. As root, a fifth configuration gives the cost of tracing: latprobe
--stages (stages of every wake-up, the worst explained) against latprobe without it.

Each ratio comes with its round-to-round spread: the same ratio computed from each round alone
(median and range over the rounds). Where the pooled ratio is above 1 but the per-round ratios
straddle 1, the difference is inside the spread of this machine and the note says so.

rtla timerlat joins the comparison where it can run: the rtla command installed and the
kernel's timerlat tracer present (tracefs available_tracers). Otherwise the report says which of
the two is missing; nothing is measured in its place.

Nothing here is asserted: the figures are this machine's, which is a VM with millisecond tails,
shared with other work (measure under the same load, compare within one run).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from latmon.analysis.distribution.ranks import nearest_rank  # noqa: E402
from latmon.inputs.ingest import load  # noqa: E402

CYCLICTEST_DMA = re.compile(r"^# /dev/cpu_dma_latency set to (\d+)us", re.MULTILINE)


@dataclass
class Config:
    """One way of measuring, with what it measured in each round."""

    name: str
    tool: str  # latprobe or cyclictest
    extra: list[str]
    #: per round: values and their counts (latprobe: exact ns, count 1; cyclictest: the lower
    #: ends of its µs buckets and their counts)
    rounds: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)
    cpu_s: float = 0.0
    cpu_rounds: list[float] = field(default_factory=list)  # CPU seconds of each round
    dma: set[str] = field(default_factory=set)  # what each run did with cpu_dma_latency

    def stats(self, whole_us: bool = False, round_: int | None = None) -> dict[str, float]:
        """min, p50, p99, n of all rounds (or one); with whole_us latprobe's values are
        truncated to whole µs, as cyclictest reports its own."""
        parts = self.rounds if round_ is None else [self.rounds[round_]]
        v = np.concatenate([p[0] for p in parts])
        c = np.concatenate([p[1] for p in parts])
        if whole_us and self.tool == "latprobe":
            v = v // 1000 * 1000
        return weighted_stats(v, c)


def run_timed(command: list[str]) -> tuple[float, str]:
    """Run command; return its CPU time (user + system) in seconds and its standard output."""
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise SystemExit(f"{command[0]} failed ({proc.returncode}): {err.strip()}")
        out.seek(0)
        return usage.ru_utime + usage.ru_stime, out.read().decode(errors="replace")


def weighted_stats(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    order = np.argsort(values, kind="stable")
    v, c = values[order], counts[order]
    cum = np.cumsum(c)
    n = int(cum[-1])

    def rank(q: float) -> float:
        return float(v[int(np.searchsorted(cum, nearest_rank(q, n)))])

    return {"min": float(v[c > 0][0]), "p50": rank(0.5), "p99": rank(0.99), "n": n}


def measure(cfg: Config, tmp: Path, r: int, rt: bool, seconds: int) -> None:
    latprobe = ROOT / "build" / "sw" / "latprobe"
    if cfg.tool == "latprobe":
        log = tmp / f"{cfg.name}{r}.log"
        policy = ["--policy", "fifo", "-p", "95"] if rt else ["--policy", "other", "--no-mlock"]
        command = [str(latprobe), *policy, *cfg.extra, "-i", "1000us", "-D", f"{seconds}s"]
        cpu_s, _ = run_timed([*command, "-q", "-o", str(log)])
        (run,) = load(log)
        v = np.concatenate([s.latency for s in run.series if not s.is_derived])
        cfg.rounds.append((v, np.ones(len(v), dtype=np.int64)))
        cfg.dma.add(run.meta.get("dma_latency_us", "?"))
    else:
        js = tmp / f"{cfg.name}{r}.json"
        policy = ["-p", "95", "-m"] if rt else []
        command = ["cyclictest", "-q", "-S", *policy, *cfg.extra, "-i", "1000"]
        command += ["-D", str(seconds), "-h", "20000", f"--json={js}"]
        cpu_s, out = run_timed(command)
        m = CYCLICTEST_DMA.search(out)
        cfg.dma.add(m.group(1) if m else "none")
        (run,) = load(js)
        lo, counts = [], []
        for s in run.series:
            h = s.histogram
            assert h is not None
            lo.append(h.lo)
            counts.append(h.count)
            if h.overflow:
                lo.append(np.array([h.overflow_lo or h.hi.max()]))
                counts.append(np.array([h.overflow]))
        cfg.rounds.append((np.concatenate(lo), np.concatenate(counts)))
    cfg.cpu_s += cpu_s
    cfg.cpu_rounds.append(cpu_s)


def rtla_unavailable() -> str | None:
    """Why rtla timerlat cannot run here, or None when it can."""
    reasons = []
    if shutil.which("rtla") is None:
        reasons.append("the rtla command is not installed")
    tracers = ""
    for root in (Path("/sys/kernel/tracing"), Path("/sys/kernel/debug/tracing")):
        try:
            tracers = (root / "available_tracers").read_text()
            break
        except OSError:
            continue
    if "timerlat" not in tracers.split():
        reasons.append(
            "this kernel has no timerlat tracer (available_tracers: "
            + (" ".join(tracers.split()) or "tracefs not mounted")
            + ")"
        )
    return "; ".join(reasons) or None


def spread(ratios: list[float]) -> str:
    """Median and range of per-round ratios, and whether they straddle 1."""
    r = sorted(ratios)
    text = f"median {float(np.median(r)):.3f}, range {r[0]:.3f}-{r[-1]:.3f}"
    if r[0] <= 1.0 <= r[-1]:
        text += " (straddles 1: the difference is inside the round-to-round spread)"
    return text


def dma_text(cfg: Config) -> str:
    held = sorted(cfg.dma)
    return "untouched" if held == ["none"] else f"held at {'/'.join(held)} µs"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--duration", type=int, default=5, help="seconds per run")
    args = parser.parse_args()
    rt = os.geteuid() == 0
    configs = [
        Config("lp", "latprobe", []),
        Config("ct", "cyclictest", []),
        Config("lp-untouched", "latprobe", ["--dma-latency", "none"]),
        Config("ct-untouched", "cyclictest", ["--default-system"]),
    ]
    lp, ct, lp_off, ct_off = configs
    traced = Config("lp-traced", "latprobe", ["--stages"]) if rt else None
    if traced is not None:
        configs.append(traced)
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for cfg in configs:
                measure(cfg, Path(tmp), r, rt, args.duration)
                time.sleep(0.5)
            print(f"round {r + 1}/{args.rounds} done", flush=True)
    stats = {cfg.name: cfg.stats() for cfg in configs}
    whole = {cfg.name: cfg.stats(whole_us=True) for cfg in configs}
    seconds = args.rounds * args.duration
    conditions = f"{args.rounds}x{args.duration}s each, all CPUs, " + (
        "SCHED_FIFO 95 + mlockall" if rt else "SCHED_OTHER (not root)"
    )
    like = f"cpu_dma_latency: latprobe {dma_text(lp)}, cyclictest {dma_text(ct)}"
    # how stable the comparison is: each ratio computed from each round alone
    per_round = {
        key: [
            lp.stats(True, r)[key] / ct.stats(True, r)[key]
            for r in range(args.rounds)
            if ct.stats(True, r)[key]
        ]
        for key in ("min", "p50", "p99")
    }
    per_round["cpu"] = [a / b for a, b in zip(lp.cpu_rounds, ct.cpu_rounds, strict=True) if b]
    results = []
    for key in ("min", "p50", "p99"):
        a, b = whole["lp"][key], whole["ct"][key]
        results.append(
            {
                "metric": f"wake-up latency {key}, like for like ({conditions})",
                "value": a,
                "unit": "ns",
                "baseline": b,
                "ratio": round(a / b, 3) if b else None,
                "note": f"both tools with their defaults, both in whole µs as cyclictest reports "
                f"(latprobe exact: {stats['lp'][key]:.0f} ns); {like}; ratio per round: "
                f"{spread(per_round[key])}; goal ratio <= 1",
            }
        )
    results.append(
        {
            "metric": f"CPU time per second measured, like for like ({conditions})",
            "value": round(lp.cpu_s / seconds * 1000, 3),
            "unit": "ms/s",
            "baseline": round(ct.cpu_s / seconds * 1000, 3),
            "ratio": round(lp.cpu_s / ct.cpu_s, 3) if ct.cpu_s else None,
            "note": f"user+system time; samples: latprobe {stats['lp']['n']}, cyclictest "
            f"{stats['ct']['n']}; ratio per round: {spread(per_round['cpu'])}; goal ratio <= 1",
        }
    )
    for on, off in ((lp, lp_off), (ct, ct_off)):
        for key in ("p50", "p99"):
            a, b = whole[on.name][key], whole[off.name][key]
            results.append(
                {
                    "metric": f"effect of cpu_dma_latency 0 on {on.tool} {key} ({conditions})",
                    "value": a,
                    "unit": "ns",
                    "baseline": b,
                    "ratio": round(a / b, 3) if b else None,
                    "note": f"{dma_text(on)} vs {dma_text(off)} ({' '.join(off.extra)}), "
                    "whole µs; below 1: holding 0 lowers the latency",
                }
            )
    if traced is not None:
        for key in ("p50", "p99"):
            a, b = stats[traced.name][key], stats[lp.name][key]
            results.append(
                {
                    "metric": f"cost of tracing: latprobe --stages {key} ({conditions})",
                    "value": a,
                    "unit": "ns",
                    "baseline": b,
                    "ratio": round(a / b, 3) if b else None,
                    "note": "with the stages and the worst wake-ups explained vs without "
                    "tracing (exact ns); above 1: what tracing adds",
                }
            )
        results.append(
            {
                "metric": f"cost of tracing: latprobe --stages CPU time per second ({conditions})",
                "value": round(traced.cpu_s / seconds * 1000, 3),
                "unit": "ms/s",
                "baseline": round(lp.cpu_s / seconds * 1000, 3),
                "ratio": round(traced.cpu_s / lp.cpu_s, 3) if lp.cpu_s else None,
                "note": "user+system time of latprobe (reading and decoding the trace)",
            }
        )
    why_not = rtla_unavailable()
    results.append(
        {
            "metric": "rtla timerlat, like for like",
            "value": None,
            "unit": "ns",
            "baseline": None,
            "ratio": None,
            "note": "not measured: " + why_not
            if why_not
            else "rtla and the timerlat tracer are present, but this benchmark does not run "
            "rtla yet",
        }
    )
    for r in results:
        if r["value"] is None:
            print(f"{r['metric']}: {r['note']}")
        else:
            print(
                f"{r['metric']}: {r['value']} vs {r['baseline']} {r['unit']} (ratio {r['ratio']})"
            )
    args.out.write_text(
        json.dumps({"name": "latprobe_vs_cyclictest", "results": results}, indent=2) + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
