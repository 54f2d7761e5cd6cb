"""Plain numbers: one latency per line, or a CSV whose column ``latency`` (or its only column)
holds them. The unit comes from the column name (``latency_us``, ``lat_ns``, ``cycles``…) or
--input-unit, else ns. Decimals are converted exactly (``12.5`` µs = 12500 ns); a value finer
than 1 ns is refused rather than rounded. Blank lines and ``#`` comments are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.model import Run, Series
from latmon.readers import UNIT_NS, Problems, ReadOptions, decimal_to_int

NAME = "plain"
_NUMBER = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*$")
_UNIT_IN_NAME = re.compile(r"(?:^|[_\s(\[])(ns|us|ms|s)[)\]]?$")


def sniff(head: str) -> bool:
    lines = [x for x in head.splitlines()[:50] if x.strip() and not x.startswith("#")]
    if not lines:
        return False
    body = lines[1:] if not _NUMBER.match(lines[0].split(",")[0]) else lines
    return bool(body) and all(
        all(_NUMBER.match(cell) for cell in line.split(",")) for line in body[:20]
    )


def read(path: Path, options: ReadOptions) -> list[Run]:
    problems = Problems(str(path), options.keep_going)
    column = 0
    unit = options.input_unit
    values: list[int] = []
    decimals = 0
    header_seen = False
    factor = UNIT_NS.get(unit or "ns", 1)
    with path.open(errors="replace") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            cells = [c.strip() for c in text.split(",")]
            if not header_seen and not _NUMBER.match(cells[0]) and not values:
                header_seen = True
                names = [c.lower() for c in cells]
                picks = [i for i, n in enumerate(names) if n.startswith("lat")] or (
                    [0] if len(names) == 1 else []
                )
                if len(picks) != 1:
                    raise InputError(
                        str(path),
                        number,
                        f"which column holds the latency? name one 'latency' (found "
                        f"{', '.join(cells)})",
                    )
                column = picks[0]
                m = _UNIT_IN_NAME.search(names[column])
                if m and unit is None:
                    unit = m.group(1)
                elif "cycle" in names[column] and unit is None:
                    unit = "cycles"
                if unit == "cycles":
                    raise InputError(
                        str(path),
                        number,
                        "latencies in cycles: convert them, or write a "
                        "latmon-log with clock_hz (docs/latmon-log.md)",
                    )
                factor = UNIT_NS.get(unit or "ns", 1)
                continue
            try:
                values.append(decimal_to_int(cells[column], factor))
                _, dot, frac = cells[column].partition(".")
                decimals = max(decimals, len(frac) if dot else 0)
            except (ValueError, IndexError) as error:
                problems.add(number, f"not a latency: {error}")
    if not values:
        raise InputError(str(path), None, "no latency values")
    series = Series(
        name=path.stem,
        unit="ns",
        # the step the numbers are written in: 1 µs for whole µs, 100 ns for 12.3 µs
        resolution=max(1, factor // 10**decimals),
        columns={"latency": np.asarray(values, dtype=np.int64)},
        counters={"events": len(values)},
    )
    meta = {"source": "plain", "format": NAME, "input_unit": unit or "ns"}
    return [Run(meta=meta, series=[series], path=str(path), problems=problems.items)]
