"""Statistics speed: latmon (run file -> exact statistics) against plain numpy, same data, same run.

Data: N latency-like samples (lognormal around 20 µs with a long tail, integer ns) in one run
file. Both sides read the same file; latmon computes its full summary (count, min, max, mean,
median, stdev, jitter, rsd, 4 nearest-rank percentiles), numpy computes np.percentile for the
same 4 quantiles (method inverted_cdf) + median + mean + std + min + max. Best of REPEAT runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from latmon.model import Run, Series
from latmon.runfile import read_run, write_run
from latmon.stats import summarize

REPEAT = 3


def best(fn, repeat: int = REPEAT) -> tuple[float, int]:
    """Best wall time of fn() and its peak traced memory (bytes)."""
    times = []
    peak = 0
    for _ in range(repeat):
        tracemalloc.start()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return min(times), peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--samples", type=int, default=10_000_000)
    args = parser.parse_args()
    n = args.samples
    rng = np.random.default_rng(1)
    lat = rng.lognormal(np.log(20_000), 0.6, n).astype(np.int64)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.parquet"
        write_run(Run({"source": "bench"}, [Series("cpu0", "ns", columns={"latency": lat})]), path)

        def latmon_side() -> None:
            run = read_run(path)
            summarize(run.series[0].latency)

        def numpy_side() -> None:
            v = pq.read_table(path, columns=["latency"]).column("latency").to_numpy()
            np.percentile(v, [50, 90, 99, 99.9], method="inverted_cdf")
            np.median(v)
            v.mean()
            v.std(ddof=1)
            v.min()
            v.max()

        t_latmon, m_latmon = best(latmon_side)
        t_numpy, m_numpy = best(numpy_side)
    results = [
        {
            "metric": f"run file + exact statistics, {n:,} samples",
            "value": round(n / t_latmon / 1e6, 1),
            "unit": "M samples/s",
            "baseline": round(n / t_numpy / 1e6, 1),
            "ratio": round(t_numpy / t_latmon, 2),
            "note": "baseline: plain numpy (np.percentile inverted_cdf + median/mean/std/min/max); "
            "ratio > 1: latmon faster",
        },
        {
            "metric": "peak memory seen by tracemalloc (numpy buffers, not Arrow's pool)",
            "value": round(m_latmon / 2**20, 1),
            "unit": "MiB",
            "baseline": round(m_numpy / 2**20, 1),
            "ratio": round(m_latmon / m_numpy, 2),
            "note": f"data itself: {lat.nbytes / 2**20:.0f} MiB",
        },
    ]
    args.out.write_text(json.dumps({"name": "stats", "results": results}, indent=2) + "\n")
    for r in results:
        print(
            f"{r['metric']}: latmon {r['value']} {r['unit']}, numpy {r['baseline']}, "
            f"ratio {r['ratio']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
