"""Wall time, CPU time and peak RSS of one command, measured from a small process of its own.

``python bench/peak_rss.py CMD...`` prints ``{"seconds": S, "cpu_seconds": C, "peak_rss_mib":
M}``. The command is forked from this small interpreter (not from a benchmark holding gigabytes
of test data, whose pages a forked child would count until it execs) and its ``ru_maxrss`` and
``ru_utime + ru_stime`` read by ``wait4``. On a shared machine the CPU time is the steadier
figure: the wall time also counts the time the command waited for a core.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple


class Usage(NamedTuple):
    """What one run of a command cost: wall time, CPU time (user + system, of the command and
    the processes it waited for) and peak RSS."""

    seconds: float
    cpu_seconds: float
    peak_rss_mib: float


def measure(cmd: list[str]) -> tuple[float, float]:
    """(seconds, peak RSS MiB) of ``cmd``, run under this script in a fresh interpreter."""
    usage = measure_usage(cmd)
    return usage.seconds, usage.peak_rss_mib


def measure_usage(cmd: list[str]) -> Usage:
    """:class:`Usage` of ``cmd``, run under this script in a fresh interpreter."""
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *cmd],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd[:3])} failed: {proc.stderr.strip()}")
    result = json.loads(proc.stdout)
    return Usage(
        float(result["seconds"]), float(result["cpu_seconds"]), float(result["peak_rss_mib"])
    )


def main() -> int:
    cmd = sys.argv[1:]
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the command, its output discarded
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"{' '.join(cmd)} failed", file=sys.stderr)
        return 1
    cpu = usage.ru_utime + usage.ru_stime
    print(
        json.dumps({"seconds": seconds, "cpu_seconds": cpu, "peak_rss_mib": usage.ru_maxrss / 1024})
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
