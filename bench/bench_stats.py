"""Statistics speed: latmon (run file -> exact statistics) against plain numpy and HdrHistogram_py,
same data, same run.

Data: N latency-like samples (lognormal around 20 µs with a long tail, integer ns) in one run
file. Every side reads the same file:

- latmon: ``summarize_run_file`` — the file streamed batch by batch into an exact integer
  counter; count, min, max, exact mean, median, stdev, jitter, rsd, six nearest-rank
  percentiles with their 95 % confidence intervals (what ``latmon stats`` does);
- numpy: ``pq.read_table`` then ``np.percentile`` (inverted_cdf) of the same six quantiles +
  median + mean + std + min + max, on one array;
- HdrHistogram_py (3 significant digits): ``record_value`` per sample, then the same
  percentiles, mean, stdev, min, max. It records about 0.3 M values/s, so it runs on the first
  HDR_SAMPLES samples and its rate is compared per sample.

Single-threaded throughout (Arrow's thread pool is limited to one thread) so the rates are per
core. Best of REPEAT runs; peak memory as tracemalloc sees it (numpy buffers).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from latmon.model import Run, Series
from latmon.runfile import write_run
from latmon.stats import PERCENTILES, summarize_run_file

REPEAT = 3
HDR_REPEAT = 1  # HdrHistogram_py takes seconds per million; one run is enough for its rate
HDR_SAMPLES = 1_000_000


def best(fn: Callable[[], object], repeat: int = REPEAT) -> tuple[float, int]:
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
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--samples", type=int, default=100_000_000)
    args = parser.parse_args()
    n = args.samples
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    rng = np.random.default_rng(1)
    lat = rng.lognormal(np.log(20_000), 0.6, n).astype(np.int64)
    quantiles = [100 * q for q in PERCENTILES.values()]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.parquet"
        write_run(Run({"source": "bench"}, [Series("cpu0", "ns", columns={"latency": lat})]), path)
        file_mib = path.stat().st_size / 2**20

        def latmon_side() -> None:
            _, (summary,) = summarize_run_file(path)
            assert summary is not None and summary.count == n and summary.exact

        def numpy_side() -> None:
            v = pq.read_table(path, columns=["latency"], use_threads=False)
            a = v.column("latency").to_numpy()
            np.percentile(a, quantiles, method="inverted_cdf")
            np.median(a)
            a.mean()
            a.std(ddof=1)
            a.min()
            a.max()

        t_latmon, m_latmon = best(latmon_side)
        t_numpy, m_numpy = best(numpy_side)
        t_hdr = hdr_seconds(path, min(HDR_SAMPLES, n), quantiles)
    hdr_n = min(HDR_SAMPLES, n)
    rate = n / t_latmon / 1e6
    results = [
        {
            "metric": f"run file + exact statistics, {n:,} samples, one core",
            "value": round(rate, 1),
            "unit": "M samples/s",
            "baseline": round(n / t_numpy / 1e6, 1),
            "ratio": round(t_numpy / t_latmon, 2),
            "note": "baseline: plain numpy (read_table + np.percentile inverted_cdf + "
            f"median/mean/std/min/max); ratio > 1: latmon faster; goal 100 M/s "
            f"{'met' if rate >= 100 else 'NOT met'}; file {file_mib:.0f} MiB",
        },
        {
            "metric": f"same against HdrHistogram_py (record_value, {hdr_n:,} samples)",
            "value": round(rate, 1),
            "unit": "M samples/s",
            "baseline": round(hdr_n / t_hdr / 1e6, 2) if t_hdr else None,
            "ratio": round((hdr_n / t_hdr) and rate / (hdr_n / t_hdr / 1e6), 1) if t_hdr else None,
            "note": "per-sample rates; HdrHistogram_py also rounds values to 3 digits"
            if t_hdr
            else "HdrHistogram_py (package hdrhistogram) is not installed",
        },
        {
            "metric": "peak memory seen by tracemalloc (numpy buffers, not Arrow's pool)",
            "value": round(m_latmon / 2**20, 1),
            "unit": "MiB",
            "baseline": round(m_numpy / 2**20, 1),
            "ratio": round(m_latmon / m_numpy, 3),
            "note": f"data itself: {lat.nbytes / 2**20:.0f} MiB; latmon streams, memory is "
            "its bins",
        },
    ]
    args.out.write_text(json.dumps({"name": "stats", "results": results}, indent=2) + "\n")
    for r in results:
        print(
            f"{r['metric']}: latmon {r['value']} {r['unit']}, baseline {r['baseline']}, "
            f"ratio {r['ratio']}"
        )
    return 0


def hdr_seconds(path: Path, count: int, quantiles: list[float]) -> float | None:
    """Seconds HdrHistogram_py takes for the first ``count`` samples of the file (best of
    REPEAT), or None when it is not installed."""
    try:
        from hdrh.histogram import HdrHistogram
    except ImportError:
        return None
    head = pq.read_table(path, columns=["latency"]).column("latency").to_numpy()[:count]

    def run() -> None:
        h = HdrHistogram(1, 3_600_000_000_000, 3)
        for value in head.tolist():
            h.record_value(value)
        h.get_percentile_to_value_dict(quantiles)
        h.get_mean_value()
        h.get_stddev()
        h.get_min_value()
        h.get_max_value()

    return best(run, HDR_REPEAT)[0]


if __name__ == "__main__":
    sys.exit(main())
