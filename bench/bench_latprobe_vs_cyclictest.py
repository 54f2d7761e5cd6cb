"""latprobe against cyclictest on this machine: min, p50 and p99 latency and CPU time.

Both run alternately (latprobe, cyclictest, latprobe, ...) under the same conditions: every CPU,
SCHED_FIFO 95 with mlockall (SCHED_OTHER without them when not root), 1 ms interval, the same
duration, no load. Latencies of all rounds and CPUs are pooled per tool; the CPU time is the
user + system time of the tool's process (wait4), per second of measuring. Ratios are
latprobe / cyclictest: below 1 means latprobe measured less latency or used less CPU.

cyclictest truncates to whole µs (its 7 µs means 7.0-7.999 µs); its percentiles are taken
from its histogram as the lower end of the µs bucket, so the comparison favours cyclictest by up
to 1 µs. latprobe's values are exact ns. Nothing here is asserted: the figures are this
machine's, which is a VM with millisecond tails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from latmon.distribution import nearest_rank  # noqa: E402
from latmon.ingest import load  # noqa: E402


def run_timed(command: list[str]) -> float:
    """Run command; return its CPU time (user + system) in seconds."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{command[0]} failed ({proc.returncode}): {err.strip()}")
    return usage.ru_utime + usage.ru_stime


def latprobe_values(path: Path) -> np.ndarray:
    (run,) = load(path)
    return np.concatenate([s.latency for s in run.series if not s.is_stages])


def cyclictest_values(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """Bucket lower ends (ns) and counts, pooled; overflows counted at the overflow edge."""
    (run,) = load(path)
    lo, count = [], []
    for s in run.series:
        h = s.histogram
        assert h is not None
        lo.append(h.lo)
        count.append(h.count)
        if h.overflow:
            lo.append(np.array([h.overflow_lo or h.hi.max()]))
            count.append(np.array([h.overflow]))
    return np.concatenate(lo), np.concatenate(count)


def weighted_stats(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    order = np.argsort(values, kind="stable")
    v, c = values[order], counts[order]
    cum = np.cumsum(c)
    n = int(cum[-1])

    def rank(q: float) -> float:
        return float(v[int(np.searchsorted(cum, nearest_rank(q, n)))])

    return {"min": float(v[c > 0][0]), "p50": rank(0.5), "p99": rank(0.99), "n": n}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--duration", type=int, default=10, help="seconds per run")
    args = parser.parse_args()
    latprobe = ROOT / "build" / "sw" / "latprobe"
    root = os.geteuid() == 0
    rt_lp = ["--policy", "fifo", "-p", "95"] if root else ["--policy", "other", "--no-mlock"]
    rt_ct = ["-p", "95", "-m"] if root else []
    lp_values, ct_lo, ct_count = [], [], []
    cpu = {"latprobe": 0.0, "cyclictest": 0.0}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            log = Path(tmp) / f"lp{r}.log"
            cpu["latprobe"] += run_timed(
                [
                    str(latprobe),
                    *rt_lp,
                    "-i",
                    "1000us",
                    "-D",
                    f"{args.duration}s",
                    "-q",
                    "-o",
                    str(log),
                ]
            )
            lp_values.append(latprobe_values(log))
            js = Path(tmp) / f"ct{r}.json"
            cpu["cyclictest"] += run_timed(
                [
                    "cyclictest",
                    "-q",
                    "-S",
                    *rt_ct,
                    "-i",
                    "1000",
                    "-D",
                    str(args.duration),
                    "-h",
                    "20000",
                    f"--json={js}",
                ]
            )
            lo, count = cyclictest_values(js)
            ct_lo.append(lo)
            ct_count.append(count)
            print(f"round {r + 1}/{args.rounds} done", flush=True)
            time.sleep(0.5)
    lp_all = np.concatenate(lp_values)
    lp = weighted_stats(lp_all, np.ones(len(lp_all), dtype=np.int64))
    ct = weighted_stats(np.concatenate(ct_lo), np.concatenate(ct_count))
    seconds = args.rounds * args.duration
    conditions = f"{args.rounds}x{args.duration}s each, all CPUs, " + (
        "SCHED_FIFO 95 + mlockall" if root else "SCHED_OTHER (not root)"
    )
    results = []
    for key in ("min", "p50", "p99"):
        results.append(
            {
                "metric": f"wake-up latency {key} ({conditions})",
                "value": lp[key],
                "unit": "ns",
                "baseline": ct[key],
                "ratio": round(lp[key] / ct[key], 3) if ct[key] else None,
                "note": "latprobe (exact ns) vs cyclictest (whole µs, bucket lower end); "
                "goal ratio <= 1",
            }
        )
    results.append(
        {
            "metric": f"CPU time per second measured ({conditions})",
            "value": round(cpu["latprobe"] / seconds * 1000, 3),
            "unit": "ms/s",
            "baseline": round(cpu["cyclictest"] / seconds * 1000, 3),
            "ratio": round(cpu["latprobe"] / cpu["cyclictest"], 3) if cpu["cyclictest"] else None,
            "note": f"user+system time; samples: latprobe {lp['n']}, cyclictest {ct['n']}; "
            "goal ratio <= 1",
        }
    )
    for r in results:
        print(
            f"{r['metric']}: latprobe {r['value']} vs cyclictest {r['baseline']} {r['unit']}"
            f" (ratio {r['ratio']})"
        )
    args.out.write_text(
        json.dumps({"name": "latprobe_vs_cyclictest", "results": results}, indent=2) + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
