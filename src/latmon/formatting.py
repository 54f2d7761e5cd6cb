"""Number formatting shared by the text table and the reports."""

from __future__ import annotations

import math


def fmt(value: object, digits: int = 1) -> str:
    """A number for a table: integers as integers, others with `digits` decimals, NaN/None as
    an em dash."""
    if value is None:
        return "—"
    if not isinstance(value, int | float):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return "—"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"
