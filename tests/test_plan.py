"""latmon plan: the published proportion formula and the tail sample sizes, checked against
values computed here (and the figures the published study and the issue quote)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path


def test_sample_sizes(latmon_cli: Path) -> None:
    proc = subprocess.run(
        [str(latmon_cli), "plan", "--json", "--tail", "1e-3", "--tail", "1e-6"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    plan = json.loads(proc.stdout)
    # the published figure: 385 for 95 % confidence and 5 % error (1.96² · 0.25 / 0.05²)
    assert plan["proportion"]["samples"] == 385
    n3, n6 = (row["samples"] for row in plan["tails"])
    # smallest n with 1 - (1 - t)^n >= 0.95, found by checking n and n - 1 directly
    for n, t in ((n3, 1e-3), (n6, 1e-6)):
        assert 1 - (1 - t) ** n >= 0.95 > 1 - (1 - t) ** (n - 1)
    assert 2900 < n3 < 3100 and 2.9e6 < n6 < 3.1e6
    assert plan["tails"][0]["duration_s"] == n3 * 1e-3  # at the default 1 ms interval


def test_bad_arguments(latmon_cli: Path) -> None:
    proc = subprocess.run(
        [str(latmon_cli), "plan", "--interval", "soon"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2 and "--interval" in proc.stderr and "Traceback" not in proc.stderr
