"""Text ingest: numbers per second read from plain text and cyclictest -v output, end to end
(read, parse strictly, count into the exact distribution, every statistic), on one core,
against numpy reading the same file and computing the same statistics, in the same run; and
`latmon stats` on a text file of 10^8 numbers: its time and peak memory.

- latmon: :func:`latmon.analysis.files.text_stats` — the path of ``latmon stats`` for these formats:
  the C parser (latmon.inputs._textparse) on 4 MiB blocks, every line checked;
- numpy: ``np.loadtxt(..., dtype=np.int64)`` (cyclictest -v: ``delimiter=":"``), then
  ``np.percentile`` (inverted_cdf) of the six quantiles, median, mean, std, min, max;
- pyarrow: ``pyarrow.csv.read_csv`` on one thread into int64 (plain numbers; parse only, a
  second reference for the parsing speed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import peak_rss

from latmon.analysis.files import text_stats
from latmon.analysis.stats import PERCENTILES
from latmon.inputs.readers import ReadOptions

QUANTILES = [100 * q for q in PERCENTILES.values()]


def write_numbers(path: Path, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    with path.open("w") as f:
        for start in range(0, n, 5_000_000):
            chunk = rng.lognormal(np.log(20_000), 0.6, min(5_000_000, n - start)).astype(np.int64)
            f.write("\n".join(map(str, chunk.tolist())))
            f.write("\n")


def write_verbose(path: Path, n: int, seed: int) -> None:
    """cyclictest -v style: two threads interleaved, whole µs."""
    rng = np.random.default_rng(seed)
    with path.open("w") as f:
        f.write("Thread 0 Interval: 1000\nThread 1 Interval: 1500\n")
        for start in range(0, n, 2_000_000):
            k = min(2_000_000, n - start)
            lat = rng.integers(3, 90, k).tolist()
            rows = (f"{(start + i) % 2:8d}:{(start + i) // 2:8d}:{v:8d}" for i, v in enumerate(lat))
            f.write("\n".join(rows))
            f.write("\n")


def numpy_stats(a: np.ndarray) -> None:
    np.percentile(a, QUANTILES, method="inverted_cdf")
    np.median(a)
    a.mean()
    a.std(ddof=1)
    a.min()
    a.max()


def best(fn, repeat: int = 2) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--numbers", type=int, default=10_000_000)
    parser.add_argument("--large", type=int, default=100_000_000)
    args = parser.parse_args()
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)
    n = args.numbers
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = Path(tmp) / "numbers.txt"
        verbose = Path(tmp) / "verbose.txt"
        write_numbers(plain, n, 1)
        write_verbose(verbose, n, 2)
        options = ReadOptions()
        t_plain = best(lambda: text_stats(plain, "plain", options, 0.95))
        t_np_plain = best(lambda: numpy_stats(np.loadtxt(plain, dtype=np.int64)), repeat=1)
        convert = pacsv.ConvertOptions(column_types={"f0": pa.int64()})
        read = pacsv.ReadOptions(use_threads=False, autogenerate_column_names=True)
        t_arrow = best(lambda: pacsv.read_csv(plain, read_options=read, convert_options=convert))
        t_verbose = best(lambda: text_stats(verbose, "cyclictest-verbose", options, 0.95))
        t_np_verbose = best(
            lambda: numpy_stats(
                np.loadtxt(verbose, dtype=np.int64, delimiter=":", skiprows=2)[:, 2]
            ),
            repeat=1,
        )
        rate = n / t_plain / 1e6
        results += [
            {
                "metric": f"plain text, {n:,} numbers: read + exact statistics, one core",
                "value": round(rate, 1),
                "unit": "M numbers/s",
                "baseline": round(n / t_np_plain / 1e6, 2),
                "ratio": round(t_np_plain / t_plain, 1),
                "note": "baseline: numpy (loadtxt + percentile/median/mean/std/min/max); goal "
                f">= 20 M/s ({'met' if rate >= 20 else 'NOT met'} on this machine)",
            },
            {
                "metric": f"plain text, {n:,} numbers: against pyarrow's CSV reader (parse only)",
                "value": round(rate, 1),
                "unit": "M numbers/s",
                "baseline": round(n / t_arrow / 1e6, 1),
                "ratio": round(t_arrow / t_plain, 2),
                "note": "latmon also checks every line and computes every statistic",
            },
            {
                "metric": f"cyclictest -v, {n:,} lines: read + checks + statistics, one core",
                "value": round(n / t_verbose / 1e6, 1),
                "unit": "M lines/s",
                "baseline": round(n / t_np_verbose / 1e6, 2),
                "ratio": round(t_np_verbose / t_verbose, 1),
                "note": "baseline: numpy loadtxt(delimiter=':') + the same statistics; latmon "
                "also checks each thread's cycle sequence",
            },
        ]
        plain.unlink()
        verbose.unlink()
        large = Path(tmp) / "large.txt"
        write_numbers(large, args.large, 3)
        size_mib = large.stat().st_size / 2**20
        latmon = str(Path(sys.executable).parent / "latmon")
        seconds, rss = peak_rss.measure([latmon, "stats", "--json", str(large)])
        results.append(
            {
                "metric": f"latmon stats on {args.large:,} numbers of text ({size_mib:.0f} MiB)",
                "value": round(seconds, 1),
                "unit": "s",
                "baseline": round(rss, 1),
                "ratio": None,
                "note": f"baseline column: peak RSS in MiB (the samples alone would be "
                f"{args.large * 8 / 2**20:.0f} MiB); goal: within a minute "
                f"({'met' if seconds <= 60 else 'NOT met'}), memory bounded by the bins",
            }
        )
    args.out.write_text(json.dumps({"name": "text_ingest", "results": results}, indent=2) + "\n")
    for r in results:
        print(
            f"{r['metric']}: {r['value']} {r['unit']}, baseline {r['baseline']}, ratio {r['ratio']}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
