"""latmon plan: the published proportion formula and the tail sample sizes, checked against
values computed here (and the figures the published study and the issue quote)."""

from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
from synthetic_tails import MODELS

from latmon.commands.plan import evt_relative_error
from latmon.tail import EXCEEDANCES_PER_ROOT, fit_pot


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


def test_pwcet_sample_counts(latmon_cli: Path) -> None:
    proc = subprocess.run(
        [str(latmon_cli), "plan", "--json", "--pwcet", "1e-9", "--pwcet-error", "0.25"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)["pwcet"]["rows"]
    # distribution-free: the maximum bounds the (1 - p) quantile once 1 - (1 - p)^n >= 0.95
    n = row["order_statistics"]["samples"]
    assert 1 - math.exp(n * math.log1p(-1e-9)) >= 0.95 > 1 - math.exp((n - 1) * math.log1p(-1e-9))
    evt = row["evt"]["samples"]
    assert evt_relative_error(evt, 1e-9, 0.95) <= 0.25 < evt_relative_error(evt - 1, 1e-9, 0.95)
    assert evt < n / 1000  # the point of extreme-value theory


def test_evt_error_formula_matches_simulation() -> None:
    """The delta-method precision behind the EVT sample count, against the spread of the
    POT estimate over simulated exponential series (ξ = 0, σ = 2 µs: x_p - u = σ ln(ζ/p))."""
    n, p = 20000, 1e-6
    k = round(EXCEEDANCES_PER_ROOT * math.sqrt(n))
    ratios = []
    for seed in range(60):
        x = MODELS["exponential"].draw(np.random.default_rng(seed), n)
        u = float(np.sort(x)[-k - 1])
        fit = fit_pot(x, u)
        assert fit is not None
        ratios.append((fit.quantile(p) - u) / (2000 * math.log(fit.rate / p)))
    predicted = evt_relative_error(n, p, 0.95) / 1.959964
    assert float(np.std(ratios, ddof=1)) == pytest.approx(predicted, rel=0.3)
    assert float(np.mean(ratios)) == pytest.approx(1.0, abs=2 * predicted / math.sqrt(60) + 0.02)
