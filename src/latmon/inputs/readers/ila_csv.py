"""Xilinx ILA / Vivado hardware-manager CSV export (File > Export ILA Data, or
``write_hw_ila_data -csv_file``)::

    Sample in Buffer,Sample in Window,TRIGGER,design_1_i/irq,design_1_i/ack
    Radix - UNSIGNED,UNSIGNED,UNSIGNED,BINARY,BINARY
    0,0,0,0,0
    1,1,0,1,0

Latency = samples from a rising edge of the irq signal to the next rising edge of ack, in
cycles of the sample clock (--clock-hz; one cycle resolution). An irq edge while one is pending
is an overrun (counted; the measurement restarts, as the latmon core does); an ack without a
pending irq is ignored (counted). Edges are never paired across capture windows (``Sample in
Window`` restarting at 0): a measurement still open at a window's end is counted as cut.
The signal columns are found by --irq/--ack (a name or the end of one), else the one column
whose name contains "irq" and the one containing "ack".
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT
from latmon.model import RunSpec, SeriesSpec

NAME = "ila-csv"


def _column(header: list[str], wanted: str | None, default: str, path: Path) -> int:
    if wanted:
        hits = [i for i, h in enumerate(header) if h == wanted or h.endswith(wanted)]
        what = f"--{default} {wanted}"
    else:
        hits = [i for i, h in enumerate(header) if default in h.rsplit("/", 1)[-1].lower()]
        what = f"a column with {default!r} in its name"
    if len(hits) != 1:
        raise InputError(
            str(path),
            1,
            f"{'no' if not hits else 'more than one'} {what} among {', '.join(header[3:])}; "
            f"name the signal with --{default}",
        )
    return hits[0]


def _bit(text: str) -> int:
    text = text.strip().lower()
    if text.startswith("0x"):
        text = text[2:]
    return int(text, 16) & 1 if text else 0


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    if not options.clock_hz:
        raise InputError(str(path), None, "an ILA capture needs the sample clock: give --clock-hz")
    rows = list(csv.reader(io.StringIO(path.read_text(errors="replace"))))
    if len(rows) < 3 or not rows[1] or not rows[1][0].startswith("Radix"):
        raise InputError(str(path), 2, "no 'Radix - ...' line after the header: not an ILA CSV")
    header = [h.strip() for h in rows[0]]
    irq_col = _column(header, options.irq, "irq", path)
    ack_col = _column(header, options.ack, "ack", path)
    window_col = header.index("Sample in Window") if "Sample in Window" in header else None
    latencies: list[int] = []
    starts: list[int] = []
    overruns = ignored = cut = 0
    pending: int | None = None
    prev_irq = prev_ack = None
    prev_window = -1
    for number, row in enumerate(rows[2:], 3):
        if not row:
            continue
        try:
            irq, ack = _bit(row[irq_col]), _bit(row[ack_col])
            window = int(row[window_col]) if window_col is not None else prev_window + 1
            sample = int(row[0])
            if not (0 <= sample < LIMIT and 0 <= window < LIMIT):
                raise ValueError(sample)
        except (ValueError, IndexError):
            problems.add(number, f"not a sample line: {','.join(row)[:60]!r}")
            continue
        if window <= prev_window:  # a new capture window: edges do not pair across it
            if pending is not None:
                cut += 1
            pending = None
            prev_irq = prev_ack = None
        prev_window = window
        if prev_irq is not None and irq and not prev_irq:
            if pending is not None:
                overruns += 1
            pending = sample
        if prev_ack is not None and ack and not prev_ack:
            if pending is None:
                ignored += 1
            elif sample < pending:
                problems.add(number, f"sample number {sample} goes back (after {pending})")
                pending = None
            else:
                latencies.append(sample - pending)
                starts.append(pending)
                pending = None
        prev_irq, prev_ack = irq, ack
    if pending is not None:
        cut += 1
    series = SeriesSpec(
        name=f"{header[irq_col]}->{header[ack_col]}",
        unit="cycles",
        clock_hz=options.clock_hz,
        columns={
            "latency": np.asarray(latencies, dtype=np.int64),
            "t": np.asarray(starts, dtype=np.int64),
        },
        counters={"events": len(latencies), "overruns": overruns, "ignored": ignored, "cut": cut},
    )
    meta = {"source": "ila", "format": NAME, "irq": header[irq_col], "ack": header[ack_col]}
    return [RunSpec(meta=meta, series=[series], path=str(path), problems=problems.items)]
