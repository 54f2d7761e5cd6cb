"""Run every benchmark (bench/bench_*.py) and collect the results.

Each benchmark is a script that measures something together with its baseline in the same run and
writes one JSON object to the path given by --out:

    {"name": "...", "results": [{"metric": "...", "value": N, "unit": "...",
                                 "baseline": N, "ratio": N, "note": "..."}, ...]}

This runner runs them one after another (so they do not disturb each other), writes
build/bench/<name>.json for each and build/bench/summary.md for all, prints the summary, and
exits non-zero if any benchmark failed (the others still run and keep their results).

--quick (make bench QUICK=1, what CI runs) runs every benchmark with small sizes (QUICK_ARGS):
it proves that each one runs to its end and writes its report, in minutes; its figures are
not the benchmark's (too few samples for its ratios to mean much) and summary.md says so.

A full run (not --quick) of a benchmark whose figures docs/report.md shows (bench/doc_tables.py:
TABLES) records its result as bench/recorded/<name>.json and writes that table in the page; each
result also notes the CPUs and the load average before and after the benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import doc_tables  # noqa: E402  (bench/ is not a package)

#: the short mode's arguments per benchmark (each script's own options; none: its defaults)
QUICK_ARGS: dict[str, list[str]] = {
    "exporter": ["--rounds", "2", "--seconds", "1"],
    "hw_hist": ["--events", "20000"],
    "hw_soak": ["--events", "5000"],
    "latprobe_vs_cyclictest": ["--rounds", "2", "--duration", "1"],
    "report": ["--small", "1000", "--large", "20000", "--rounds", "1"],
    "soc": ["--soak-rounds", "20", "--icarus-cycles", "20000"],
    "stats": ["--samples", "1000000"],
    "tail_coverage": ["--reps", "10", "--n", "2000"],
    "text_ingest": ["--numbers", "200000", "--large", "1000000"],
}


def format_value(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "" if value is None else str(value)


def summary_table(reports: list[dict]) -> str:
    lines = [
        "| benchmark | metric | value | unit | baseline | ratio | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for report in reports:
        for r in report.get("results", []):
            cells = [
                report["name"],
                r.get("metric", ""),
                format_value(r.get("value")),
                r.get("unit", ""),
                format_value(r.get("baseline")),
                format_value(r.get("ratio")),
                r.get("note", ""),
            ]
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/bench"))
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes: every benchmark runs to its end in minutes (CI); figures not meaningful",
    )
    parser.add_argument("only", nargs="*", help="run only these benchmarks (names without bench_)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    scripts = sorted(HERE.glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.only]
        if not scripts:
            print(f"bench: no benchmark named {' '.join(args.only)}", file=sys.stderr)
            return 2
    reports: list[dict] = []
    failed: list[str] = []
    for script in scripts:
        name = script.stem.removeprefix("bench_")
        out = args.out / f"{name}.json"
        out.unlink(missing_ok=True)
        print(f"== bench {name}", flush=True)
        load_before = os.getloadavg()[0]
        t0 = time.monotonic()
        extra = QUICK_ARGS.get(name, []) if args.quick else []
        proc = subprocess.run([sys.executable, str(script), "--out", str(out), *extra], check=False)
        elapsed = time.monotonic() - t0
        if proc.returncode != 0 or not out.exists():
            failed.append(name)
            print(f"bench: {name} failed (exit {proc.returncode})", file=sys.stderr)
            continue
        report = json.loads(out.read_text())
        report["elapsed_s"] = round(elapsed, 2)
        report["quick"] = args.quick
        report["cpus"] = os.cpu_count()
        report["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
        out.write_text(json.dumps(report, indent=2) + "\n")
        reports.append(report)
        if not args.quick:
            try:
                if doc_tables.record(name, report):
                    print(f"bench: {name}: recorded, its table written in docs/report.md")
            except (OSError, doc_tables.TableError) as e:
                failed.append(name)
                print(f"bench: {name}: its table: {e}", file=sys.stderr)
    table = summary_table(reports)
    if args.quick:
        table = (
            "Short mode (--quick): every benchmark ran with small sizes to prove it runs; "
            "these figures are not the benchmarks' (run make bench for them).\n\n" + table
        )
    (args.out / "summary.md").write_text(table)
    print(table)
    if failed:
        print(f"bench: failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
