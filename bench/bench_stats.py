"""Statistics of a run file: `latmon stats` against plain numpy and DuckDB, same file, same run,
time and peak memory.

Data: N latency-like samples (lognormal around 20 µs with a long tail, integer ns) in one run
file. Each side runs as its own process, so that its wall time includes what a user waits for
(interpreter, imports, reading, computing) and its peak RSS is its own (``ru_maxrss`` of the
child):

- latmon: ``latmon stats --json FILE`` — the installed command: checksum verified, the file
  streamed into the exact integer distribution; count, min, max, exact mean, median, stdev,
  jitter, rsd, six nearest-rank percentiles with 95 % confidence intervals;
- numpy: ``pq.read_table`` then ``np.percentile`` (inverted_cdf) of the six quantiles + median,
  mean, std, min, max on one array (pyarrow limited to one thread);
- DuckDB: ``quantile_disc`` of the six quantiles + min, max, avg, stddev_samp, count over
  ``read_parquet`` — on one thread, and on two (its default here).

Best of REPEAT runs each.

And ``latmon report`` of the same file against ``latmon stats`` of it (the baseline), each run
REPEAT times in turn (``bench/peak_rss.py``): the best wall time, the best CPU time (user +
system: on a shared machine the wall time also counts the waits for a core) and the peak RSS,
with the issue's goals (at most 3 times the time of stats, under 1 GiB).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peak_rss

from latmon.analysis.stats import PERCENTILES
from latmon.inputs.runfile import write_run
from latmon.model import Run, Series

REPEAT = 2
QUANTILES = list(PERCENTILES.values())

NUMPY_SIDE = """
import sys, numpy as np, pyarrow as pa, pyarrow.parquet as pq
pa.set_cpu_count(1); pa.set_io_thread_count(1)
a = pq.read_table(sys.argv[1], columns=["latency"], use_threads=False).column(0).to_numpy()
np.percentile(a, [100 * q for q in {quantiles}], method="inverted_cdf")
np.median(a); a.mean(); a.std(ddof=1); a.min(); a.max()
"""

DUCKDB_SIDE = """
import sys, duckdb
con = duckdb.connect()
con.execute("SET threads = {threads}")
con.execute("SET enable_progress_bar = false")
con.execute(
    "select quantile_disc(latency, {quantiles}), min(latency), max(latency), avg(latency), "
    "stddev_samp(latency), count(*) from read_parquet(?)", [sys.argv[1]]
).fetchall()
"""


def measure(cmd: list[str]) -> float:
    """Best wall time (s) of REPEAT runs of a command."""
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"bench: {' '.join(cmd[:3])} failed: {proc.stderr.strip()}")
        best = min(best, elapsed)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--samples", type=int, default=100_000_000)
    args = parser.parse_args()
    n = args.samples
    python = sys.executable
    latmon = str(Path(python).parent / "latmon")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.parquet"
        rng = np.random.default_rng(1)
        lat = rng.lognormal(np.log(20_000), 0.6, n).astype(np.int64)
        write_run(Run({"source": "bench"}, [Series("cpu0", "ns", columns={"latency": lat})]), path)
        del lat
        file_mib = path.stat().st_size / 2**20
        sides = {
            "latmon stats": [latmon, "stats", "--json", str(path)],
            "numpy": [python, "-c", NUMPY_SIDE.format(quantiles=QUANTILES), str(path)],
            "DuckDB, 1 thread": [
                python,
                "-c",
                DUCKDB_SIDE.format(threads=1, quantiles=QUANTILES),
                str(path),
            ],
            "DuckDB, 2 threads": [
                python,
                "-c",
                DUCKDB_SIDE.format(threads=2, quantiles=QUANTILES),
                str(path),
            ],
        }
        seconds = {name: measure(cmd) for name, cmd in sides.items()}
        rss = {name: peak_rss.measure(cmd)[1] for name, cmd in sides.items()}
        report = [latmon, "report", str(path), "-o", str(Path(tmp) / "report.html")]
        turns: dict[str, list[peak_rss.Usage]] = {"stats": [], "report": []}
        for _ in range(REPEAT):  # in turn: both see the same load
            turns["stats"].append(peak_rss.measure_usage(sides["latmon stats"]))
            turns["report"].append(peak_rss.measure_usage(report))
    t_l, m_l = seconds["latmon stats"], rss["latmon stats"]
    results = []
    for name in ("numpy", "DuckDB, 1 thread", "DuckDB, 2 threads"):
        results.append(
            {
                "metric": f"stats of a run file, {n:,} samples: time vs {name}",
                "value": round(t_l, 2),
                "unit": "s",
                "baseline": round(seconds[name], 2),
                "ratio": round(seconds[name] / t_l, 2),
                "note": f"ratio > 1: latmon faster; whole process (start, imports, read, "
                f"compute); file {file_mib:.0f} MiB; goal for latmon: <= 1.5 s "
                f"({'met' if t_l <= 1.5 else 'NOT met'} on this machine)",
            }
        )
        results.append(
            {
                "metric": f"stats of a run file, {n:,} samples: peak RSS vs {name}",
                "value": round(m_l, 1),
                "unit": "MiB",
                "baseline": round(rss[name], 1),
                "ratio": round(rss[name] / m_l, 2),
                "note": "ratio > 1: latmon smaller; goal for latmon: <= 256 MB "
                f"({'met' if m_l * 2**20 <= 256e6 else 'NOT met'})",
            }
        )
    best = {
        side: (
            min(u.seconds for u in runs),
            min(u.cpu_seconds for u in runs),
            max(u.peak_rss_mib for u in runs),
        )
        for side, runs in turns.items()
    }
    (stats_s, stats_cpu, stats_mib), (report_s, report_cpu, report_mib) = (
        best["stats"],
        best["report"],
    )
    goal_rss = report_mib * 2**20 < 2**30
    whole = f"whole process, best of {REPEAT} run in turn with latmon stats --json of the file"
    results += [
        {
            "metric": f"latmon report vs latmon stats, {n:,} samples: time",
            "value": round(report_s, 2),
            "unit": "s",
            "baseline": round(stats_s, 2),
            "ratio": round(report_s / stats_s, 2),
            "note": f"wall; {whole}; goal <= 3x "
            f"({'met' if report_s <= 3 * stats_s else 'NOT met'})",
        },
        {
            "metric": f"latmon report vs latmon stats, {n:,} samples: CPU time",
            "value": round(report_cpu, 2),
            "unit": "s",
            "baseline": round(stats_cpu, 2),
            "ratio": round(report_cpu / stats_cpu, 2),
            "note": f"user + system; {whole}; goal <= 3x "
            f"({'met' if report_cpu <= 3 * stats_cpu else 'NOT met'})",
        },
        {
            "metric": f"latmon report vs latmon stats, {n:,} samples: peak RSS",
            "value": round(report_mib, 1),
            "unit": "MiB",
            "baseline": round(stats_mib, 1),
            "ratio": round(report_mib / stats_mib, 2),
            "note": f"goal < 1 GiB ({'met' if goal_rss else 'NOT met'})",
        },
    ]
    summary = {"name": "stats", "results": results, "samples": n}
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    for r in results:
        print(
            f"{r['metric']}: latmon {r['value']} {r['unit']}, baseline {r['baseline']}, "
            f"ratio {r['ratio']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
