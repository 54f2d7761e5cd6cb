"""The cost of latprobe's Prometheus exporter, scraped every second, measured against latprobe
without it in the same run.

Two configurations alternate in every round (6 rounds of 5 s by default; the order flips each
round, so that a drift in the shared machine's load touches both alike): latprobe alone, and
latprobe --metrics with a scraper that GETs /metrics once a second as Prometheus does (its
Accept header, the OpenMetrics answer). Both measure every CPU at 1 ms with latprobe's defaults
(SCHED_FIFO 95 and mlockall as root).

Figures:
- the exporter thread's CPU time (/proc/PID/task/TID/schedstat of the thread named
  latmon-exporter, nanoseconds) per second of measuring, in % of one CPU — the goal is < 1 %;
  baseline: latprobe's own CPU time per second without the exporter (wait4);
- the whole process's CPU time per second, with / without;
- p50, p99, p99.9 of the pooled latencies, with / without (ratio 1: no change);
- the two-sample Kolmogorov-Smirnov distance D between the two configurations' latencies,
  against the D between the odd and the even rounds of latprobe alone (the noise floor of this
  machine): a ratio near 1 or below means the exporter's effect is within the noise.

Nothing is asserted here: the machine is shared and its tails are milliseconds long.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import numpy as np
from scipy.stats import ks_2samp

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from latmon.analysis.distribution.ranks import nearest_rank  # noqa: E402
from latmon.inputs.readers.latmon_log import read_file  # noqa: E402

LATPROBE = ROOT / "build" / "sw" / "latprobe"
ACCEPT = (
    "application/openmetrics-text;version=1.0.0;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
)


def latencies(log: Path) -> np.ndarray:
    (run,) = read_file(log)
    parts = [s.latency for s in run.series if s.name.startswith("cpu") and "." not in s.name]
    return np.concatenate(parts)


def thread_cpu_ns(pid: int, name: str) -> int | None:
    """CPU time (ns) of the thread of `pid` called `name`, or None when it is not there."""
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            task = Path(f"/proc/{pid}/task/{tid}")
            if (task / "comm").read_text().strip() == name:
                return int((task / "schedstat").read_text().split()[0])
    except OSError:
        return None
    return None


class Scraper(threading.Thread):
    """GET /metrics every `period` s; the exporter thread's CPU time after each scrape."""

    def __init__(self, proc: subprocess.Popen[bytes], err: Path, period: float) -> None:
        super().__init__(daemon=True)
        self.proc, self.err, self.period = proc, err, period
        self.scrapes = 0
        self.bytes = 0
        self.cpu_ns = 0
        self.serving_s = 0.0
        self.failures: list[str] = []

    def run(self) -> None:
        port = None
        while port is None and self.proc.poll() is None:
            m = re.search(r"metrics at http://127\.0\.0\.1:(\d+)/", self.err.read_text())
            port = int(m.group(1)) if m else None
            time.sleep(0.01)
        t0 = time.monotonic()
        next_at = t0 + self.period
        while self.proc.poll() is None:
            if "serving the final metrics" in self.err.read_text():
                break
            time.sleep(max(0.0, next_at - time.monotonic()))
            next_at += self.period
            try:
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/metrics", headers={"Accept": ACCEPT}
                )
                with urllib.request.urlopen(req, timeout=5) as r:
                    self.bytes += len(r.read())
                self.scrapes += 1
            except OSError as error:
                self.failures.append(repr(error))
                continue
            cpu = thread_cpu_ns(self.proc.pid, "latmon-exporter")
            if cpu is not None:
                self.cpu_ns = cpu
                self.serving_s = time.monotonic() - t0


def run_once(tmp: Path, name: str, seconds: int, exporter: bool) -> dict[str, object]:
    log, err = tmp / f"{name}.log", tmp / f"{name}.err"
    args = [str(LATPROBE), "-D", f"{seconds}s", "-i", "1ms", "-o", str(log)]
    if exporter:
        args += ["--metrics", "127.0.0.1:0", "--metrics-linger", "2s"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=err.open("w"))
    scraper = Scraper(proc, err, 1.0) if exporter else None
    if scraper:
        scraper.start()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"latprobe failed ({proc.returncode}): {err.read_text()}")
    out: dict[str, object] = {"lat": latencies(log), "cpu_s": usage.ru_utime + usage.ru_stime}
    if scraper:
        scraper.join(timeout=10)
        if scraper.failures:
            raise SystemExit(f"scrapes failed: {scraper.failures[:3]}")
        out |= {
            "scrapes": scraper.scrapes,
            "bytes": scraper.bytes,
            "exporter_cpu_ns": scraper.cpu_ns,
            "serving_s": scraper.serving_s,
        }
    return out


def pct(lat: np.ndarray, q: float) -> float:
    s = np.sort(lat)
    return float(s[nearest_rank(q, len(s)) - 1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=int, default=5)
    args = parser.parse_args()
    if not LATPROBE.exists():
        print(f"{LATPROBE} is not built; run make sw-all", file=sys.stderr)
        return 2
    plain: list[dict] = []
    with_exporter: list[dict] = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for r in range(args.rounds):
            order = [False, True] if r % 2 == 0 else [True, False]
            for exp in order:
                res = run_once(tmp, f"r{r}-{'exp' if exp else 'plain'}", args.seconds, exp)
                (with_exporter if exp else plain).append(res)
    lat_a = np.concatenate([x["lat"] for x in plain])
    lat_b = np.concatenate([x["lat"] for x in with_exporter])
    odd = np.concatenate([x["lat"] for x in plain[1::2]])
    even = np.concatenate([x["lat"] for x in plain[0::2]])
    measured_s = args.rounds * args.seconds
    exporter_cpu = sum(x["exporter_cpu_ns"] for x in with_exporter) / 1e9
    serving = sum(x["serving_s"] for x in with_exporter)
    scrapes = sum(x["scrapes"] for x in with_exporter)
    exp_pct = 100 * exporter_cpu / serving
    cpu_a = 100 * sum(x["cpu_s"] for x in plain) / measured_s
    cpu_b = 100 * sum(x["cpu_s"] for x in with_exporter) / measured_s
    d_ab = float(ks_2samp(lat_a, lat_b).statistic)
    d_aa = float(ks_2samp(odd, even).statistic)
    mode = "root: SCHED_FIFO 95, mlockall" if os.geteuid() == 0 else "not root: SCHED_OTHER"
    common = f"{args.rounds} interleaved rounds of {args.seconds} s, every CPU, 1 ms, {mode}"
    results = [
        {
            "metric": "exporter thread CPU at 1 s scrapes (% of one CPU)",
            "value": exp_pct,
            "unit": "%",
            "baseline": cpu_a,
            "ratio": exp_pct / cpu_a if cpu_a else None,
            "note": f"goal < 1 %; baseline: latprobe's own CPU % without the exporter; "
            f"{scrapes} scrapes of {sum(x['bytes'] for x in with_exporter) // max(scrapes, 1)} "
            f"bytes (OpenMetrics); {common}",
        },
        {
            "metric": "latprobe process CPU, with / without exporter",
            "value": cpu_b,
            "unit": "% of one CPU",
            "baseline": cpu_a,
            "ratio": cpu_b / cpu_a if cpu_a else None,
            "note": common,
        },
    ]
    for q, label in ((0.5, "p50"), (0.99, "p99"), (0.999, "p99.9")):
        a, b = pct(lat_a, q), pct(lat_b, q)
        results.append(
            {
                "metric": f"latency {label}, with / without exporter",
                "value": b,
                "unit": "ns",
                "baseline": a,
                "ratio": b / a,
                "note": f"{len(lat_b)} / {len(lat_a)} samples pooled; {common}",
            }
        )
    results.append(
        {
            "metric": "KS distance D, with vs without exporter (baseline: odd vs even rounds)",
            "value": d_ab,
            "unit": "",
            "baseline": d_aa,
            "ratio": d_ab / d_aa if d_aa else None,
            "note": "ratio <= ~1: the exporter's effect on the distribution is within the "
            "round-to-round noise of this machine",
        }
    )
    args.out.write_text(json.dumps({"name": "exporter", "results": results}, indent=2) + "\n")
    for r in results:
        print(f"{r['metric']}: {r['value']:.4g} {r['unit']} (baseline {r['baseline']:.4g})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
