"""The tables of the extreme-value analysis (latmon.tail), for ``latmon tail`` and the report:
the i.i.d. checks, each method's fit and checks, and the pWCETs. Built as
:class:`latmon.tables.Table` and rendered by the one table writer in any of its formats."""

from __future__ import annotations

import math

from latmon.tables import Cell, Column, Table, fmt, plain
from latmon.tail.base import Check
from latmon.tail.gev import GevFit
from latmon.tail.gpd import GpdFit
from latmon.tail.result import MethodResult, TailAnalysis

CHECK_COLUMNS = [
    Column("check", "check", "l"),
    Column("result", "result", "l"),
    Column("p", "p"),
    Column("level", "fails below"),
    Column("detail", "detail", "l"),
]


def _p_cell(p: float | None) -> Cell:
    return Cell("—", "") if p is None else Cell(f"{p:.3g}", repr(p))


def checks_table(checks: list[Check]) -> Table:
    """One row per check: name, pass/FAIL, its p-value and the level it is compared with (—
    for checks without a p-value; both columns left out when no check has one), and the one
    line that explains it."""
    with_p = any(c.p_value is not None for c in checks)
    table = Table([c for c in CHECK_COLUMNS if with_p or c.key not in ("p", "level")])
    for c in checks:
        table.add(
            {
                "check": c.name,
                "result": "pass" if c.passed else "FAIL",
                "p": _p_cell(c.p_value),
                "level": _p_cell(c.level),
                "detail": c.detail,
            },
            "" if c.passed else "bad",
        )
    return table


def fit_text(method: MethodResult, factor: float, unit: str) -> str:
    """One line: the fitted model's parameters (values times ``factor``, in ``unit``)."""
    fit = method.fit
    if isinstance(fit, GpdFit):
        return (
            f"threshold {fmt(fit.threshold * factor)} {unit} ({fit.exceedances:,} samples above "
            f"it, {fit.rate:.3g} of all), scale {fmt(fit.sigma * factor)} {unit}, shape ξ "
            f"{fit.xi:+.3f} [{fit.xi_ci[0]:+.3f}, {fit.xi_ci[1]:+.3f}]"
        )
    if isinstance(fit, GevFit):
        return (
            f"{fit.blocks:,} blocks of {fit.block:,} samples, location {fmt(fit.mu * factor)} "
            f"{unit}, scale {fmt(fit.sigma * factor)} {unit}, shape ξ {fit.xi:+.3f} "
            f"[{fit.xi_ci[0]:+.3f}, {fit.xi_ci[1]:+.3f}]"
        )
    return "not fitted"


def _value(v: float) -> Cell:
    """A latency, to the unit (ns or cycles: a fraction of one is no information here); ∞
    (empty for machines) where the likelihood does not bound it. The number goes with it, so
    that the HTML table can show a column in ns in the unit that fits it."""
    if not math.isfinite(v):
        return Cell("∞", "")
    return Cell(fmt(v, 0), plain(v), (round(v),), "{0}")


def pwcet_columns(confidence: float, with_deadline: bool, in_ns: bool = False) -> list[Column]:
    """The pWCET table's columns; ``in_ns``: the latencies are in ns (HTML scales them)."""
    unit = "ns" if in_ns else ""
    columns = [
        Column("method", "method", "l"),
        Column("probability", "p per activation"),
        Column("pwcet", "pWCET", unit=unit),
        Column("low", f"{confidence:.0%} low", unit=unit),
        Column("high", f"{confidence:.0%} high", unit=unit),
    ]
    if with_deadline:
        columns.append(Column("verdict", "verdict", "l"))
    return columns


def pwcet_table(
    analysis: TailAnalysis, factor: float, deadline: float | None, in_ns: bool = False
) -> Table:
    """The pWCET of every valid method at every probability with its interval (values times
    ``factor``; ``in_ns``: that makes them ns); with a deadline (in the values' own unit,
    before ``factor``) a verdict: pass when the interval's upper end is within it. FAIL rows
    carry the CSS class "bad"."""
    table = Table(pwcet_columns(analysis.confidence, deadline is not None, in_ns))
    for m in (analysis.pot, analysis.gev):
        if m is None:
            continue
        for q in m.quantiles:
            cells: dict[str, object] = {
                "method": m.method,
                "probability": Cell(f"{q.probability:g}", repr(q.probability)),
                "pwcet": _value(q.estimate * factor),
                "low": _value(q.low * factor),
                "high": _value(q.high * factor),
            }
            css = ""
            if deadline is not None:
                passed = q.high <= deadline
                cells["verdict"] = "pass" if passed else "FAIL"
                css = "" if passed else "bad"
            table.add(cells, css)
    return table
