"""The HTML report with 10^6 samples per series against the same report with 10^4 (the
baseline, measured in the same run): the time to write it (``latmon report``, whole process),
its size, and the time headless Chromium takes to load it and draw every figure.

Two wake-up scenarios of two CPUs each (latprobe-like run files, a spike every few thousand
samples) and a fabric channel. The figures are drawn from a bounded number of points whatever
the series' length (docs/report.md), so the ratios say what 100 times more samples cost: the
statistics grow with n, the file and the browser should not.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from latmon.inputs.runfile import write_run
from latmon.model import Run, Series
from latmon.report.browser import CHROMIUM_FLAGS

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SIZES = (10_000, 1_000_000)  # samples per series: baseline, measured (--small, --large)
ROUNDS = 3  # best / median of (--rounds)


def make_runs(folder: Path, n: int) -> list[Path]:
    paths = []
    for scenario, seed in (("idle", 1), ("stress", 2)):
        series = []
        for cpu in range(2):
            rng = np.random.default_rng(seed * 10 + cpu)
            lat = rng.lognormal(np.log(25_000), 0.25, n).astype(np.int64)
            spikes = rng.choice(n, max(1, n // 5000), replace=False)
            lat[spikes] = rng.integers(200_000, 4_000_000, len(spikes))
            t = np.arange(n, dtype=np.int64) * 1_000_000
            series.append(
                Series(f"cpu{cpu}", "ns", columns={"t": t, "latency": lat}, meta={"cpu": str(cpu)})
            )
        path = folder / f"{scenario}.parquet"
        write_run(Run({"source": "latprobe", "scenario": scenario}, series), path)
        paths.append(path)
    return paths


def write_report(inputs: list[Path], out: Path) -> float:
    latmon = str(Path(sys.executable).parent / "latmon")
    t0 = time.perf_counter()
    subprocess.run(
        [latmon, "report", *map(str, inputs), "-o", str(out), "--deadline", "3ms"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - t0


def browser_seconds(page: Path, rounds: int = ROUNDS) -> float:
    """Load to every figure drawn, in a fresh headless Chromium page (median of @rounds)."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            # offline, as latmon report --pdf runs it (Playwright adds --headless itself)
            args=["--no-sandbox", *(f for f in CHROMIUM_FLAGS if f != "--headless")],
        )
        for _ in range(rounds):
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            t0 = time.perf_counter()
            tab.goto(page.as_uri())
            tab.wait_for_function(
                "document.documentElement.getAttribute('data-figures') === 'done'",
                timeout=300_000,
            )
            times.append(time.perf_counter() - t0)
            tab.close()
        browser.close()
    return float(np.median(times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--small", type=int, default=SIZES[0], help="baseline samples per series")
    parser.add_argument("--large", type=int, default=SIZES[1], help="measured samples per series")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="repetitions of each timing")
    args = parser.parse_args()
    sizes = (args.small, args.large)
    measured: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-report-") as tmp:
        for n in sizes:
            folder = Path(tmp) / str(n)
            folder.mkdir()
            inputs = make_runs(folder, n)
            page = folder / "report.html"
            write = min(write_report(inputs, page) for _ in range(args.rounds))
            measured[n] = {
                "write_s": write,
                "bytes": float(page.stat().st_size),
                "browser_s": browser_seconds(page, args.rounds),
            }
    small, large = measured[sizes[0]], measured[sizes[1]]
    note = f"4 series of {sizes[1]:,} samples against 4 of {sizes[0]:,} (baseline)"
    results = [
        {
            "metric": f"latmon report, whole process (best of {args.rounds})",
            "value": round(large["write_s"], 3),
            "unit": "s",
            "baseline": round(small["write_s"], 3),
            "ratio": round(large["write_s"] / small["write_s"], 2),
            "note": note,
        },
        {
            "metric": "report size",
            "value": int(large["bytes"]),
            "unit": "bytes",
            "baseline": int(small["bytes"]),
            "ratio": round(large["bytes"] / small["bytes"], 3),
            "note": "plotly.js is 4.8 MB of both",
        },
        {
            "metric": f"Chromium: load and draw every figure (median of {args.rounds})",
            "value": round(large["browser_s"], 3),
            "unit": "s",
            "baseline": round(small["browser_s"], 3),
            "ratio": round(large["browser_s"] / small["browser_s"], 2),
            "note": "headless, no GPU, 1280 px",
        },
    ]
    summary = {"name": "report", "results": results, "sizes": list(sizes), "series": 4}
    args.out.write_text(json.dumps(summary, indent=2) + "\n")
    for r in results:
        print(f"{r['metric']}: {r['value']} {r['unit']} (baseline {r['baseline']}, x{r['ratio']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
