"""latmon.tail.tables: the checks and pWCET tables hold the analysis' own numbers, with the
verdict decided by the interval's upper end, in every format of the one table writer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from latmon.tables import render
from latmon.tail import Check, GpdFit, MethodResult, Quantile, TailAnalysis
from latmon.tail.tables import checks_table, fit_text, pwcet_table


def _analysis() -> TailAnalysis:
    fit = GpdFit(1000.0, 60, 0.01, 50.0, -0.1, 0.0, (-0.3, 0.1), np.ones(60))
    quantiles = [
        Quantile(1e-6, 1400.4, 1300.0, 1600.0),
        Quantile(1e-9, 1500.0, 1350.0, math.inf),
    ]
    pot = MethodResult("POT/GPD", fit, [Check("shape", True, "light")], quantiles)
    return TailAnalysis(5000, None, [], pot=pot, probabilities=(1e-6, 1e-9))


def test_checks_table_rows_and_levels() -> None:
    checks = [
        Check("independence: Ljung-Box", False, "correlated", 50.0, 1e-5, 0.0125),
        Check("identical distribution: KPSS", True, "flat", 0.1, 0.1, 0.0125),
    ]
    text = render(checks_table(checks), "csv").splitlines()
    assert text[0] == "check,result,p,level,detail"
    assert text[1] == "independence: Ljung-Box,FAIL,1e-05,0.0125,correlated"
    assert text[2].startswith("identical distribution: KPSS,pass,0.1,")
    assert '<tr class="bad">' in render(checks_table(checks), "html")
    # checks without p-values (exceedances, shape) get no p columns
    plain = checks_table([Check("exceedances", True, "60 samples above the threshold")])
    assert [c.key for c in plain.columns] == ["check", "result", "detail"]


@pytest.mark.parametrize(("deadline", "verdicts"), [(1600.0, ["pass", "FAIL"]), (None, None)])
def test_pwcet_table_verdict_from_the_upper_end(deadline, verdicts) -> None:
    table = pwcet_table(_analysis(), 2.0, deadline)
    rows = render(table, "csv").splitlines()
    heads = rows[0].split(",")
    cells = [dict(zip(heads, r.split(","), strict=True)) for r in rows[1:]]
    assert [c["probability"] for c in cells] == ["1e-06", "1e-09"]
    assert float(cells[0]["pwcet"]) == pytest.approx(2800.8)  # times the factor
    assert cells[1]["high"] == ""  # unbounded: empty for machines, ∞ for people
    assert "∞" in render(table, "terminal")
    if verdicts is None:
        assert "verdict" not in heads
    else:
        # the deadline is in the values' own unit: 1600 is the 1e-6 upper end itself
        assert [c["verdict"] for c in cells] == verdicts
        assert table.row_classes == ["", "bad"]


def test_fit_text() -> None:
    text = fit_text(_analysis().pot, 2.0, "ns")  # type: ignore[arg-type]
    assert text.startswith("threshold 2,000 ns (60 samples above it, 0.01 of all), scale 100 ns")
    assert "ξ -0.100 [-0.300, +0.100]" in text
