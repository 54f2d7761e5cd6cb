"""SQL over many run files at once, with DuckDB (embedded; the Parquet read in place).

A campaign is a folder of run files (latmon ingest, latmon run, latmon fleet). :func:`connect`
opens an in-memory DuckDB database with four views over them (docs/fleet.md):

- ``runs``: one row per run file — file, run (its label), scenario, host, source, tool;
- ``series``: one row per series — file, series, cpu, core, unit, clock_hz, samples (rows kept),
  and every counter of the series as JSON (``counters``);
- ``samples``: one row per kept sample — file, run, scenario, host, series, cpu, unit, latency
  (an integer in the series' unit, ns or cycles), read from the Parquet files themselves;
- ``bins``: one row per histogram bin of series kept as histograms (latmon fleet, cyclictest
  histograms) — file, run, scenario, host, series, cpu, unit, lo, hi (latency in [lo, hi);
  hi NULL for the overflow), count.

Each file's checksum is verified when its header is read (latmon.inputs.runfile).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import duckdb

from latmon.errors import LatmonError
from latmon.inputs.runfile import is_run_file, read_run_header, run_files_under


def run_files(paths: Iterable[str]) -> list[Path]:
    """The run files named, and those under the folders named (recursively), sorted."""
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            found += run_files_under(p)
        elif p.is_file():
            found.append(p)
        else:
            raise LatmonError(f"{name}: no such file or folder")
    files = []
    for p in found:
        if not is_run_file(p):
            raise LatmonError(f"{p}: not a latmon run file; convert it with latmon ingest first")
        files.append(p)
    if not files:
        raise LatmonError(
            f"no run files (*.parquet) in {', '.join(paths)}; write some with latmon ingest"
        )
    return files


def _sql_str(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def connect(files: list[Path]) -> duckdb.DuckDBPyConnection:
    """An in-memory database with the views runs, series, samples and bins over ``files``."""
    db = duckdb.connect(":memory:")
    db.execute(
        "CREATE TABLE runs (file VARCHAR, run VARCHAR, scenario VARCHAR, host VARCHAR, "
        "source VARCHAR, tool VARCHAR)"
    )
    db.execute(
        "CREATE TABLE series (file VARCHAR, series VARCHAR, cpu VARCHAR, core VARCHAR, "
        "unit VARCHAR, clock_hz BIGINT, samples BIGINT, counters JSON)"
    )
    db.execute(
        "CREATE TABLE bin_rows (file VARCHAR, series VARCHAR, lo BIGINT, hi BIGINT, count BIGINT)"
    )
    with_samples: list[str] = []
    for path in files:
        run, rows = read_run_header(path)
        name = str(path)
        meta = run.meta
        db.execute(
            "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)",
            [name, run.label, meta.get("scenario"), meta.get("host"), run.source, meta.get("tool")],
        )
        for s, n in zip(run.series, rows, strict=True):
            if s.is_derived:
                continue
            db.execute(
                "INSERT INTO series VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    name,
                    s.name,
                    s.meta.get("cpu"),
                    s.meta.get("core"),
                    s.unit,
                    s.clock_hz,
                    n,
                    json.dumps(s.counters),
                ],
            )
            h = s.histogram
            if h is not None:
                bins = [
                    (name, s.name, int(lo), int(hi), int(c))
                    for lo, hi, c in zip(h.lo, h.hi, h.count, strict=True)
                    if c
                ]
                if h.underflow:
                    bins.append((name, s.name, None, int(h.lo[0]), h.underflow))  # type: ignore[arg-type]
                if h.overflow:
                    bins.append((name, s.name, h.overflow_lo, None, h.overflow))  # type: ignore[arg-type]
                if bins:
                    db.executemany("INSERT INTO bin_rows VALUES (?, ?, ?, ?, ?)", bins)
        if any(rows):
            with_samples.append(name)
    if with_samples:
        listing = ", ".join(_sql_str(f) for f in with_samples)
        source = (
            f"SELECT filename AS file, series, latency FROM read_parquet([{listing}], "
            "filename = true, union_by_name = true)"
        )
    else:
        source = (
            "SELECT NULL::VARCHAR AS file, NULL::VARCHAR AS series, NULL::BIGINT AS latency "
            "WHERE false"
        )
    db.execute(
        "CREATE VIEW samples AS SELECT p.file, r.run, r.scenario, r.host, p.series, s.cpu, "
        f"s.unit, p.latency FROM ({source}) p JOIN runs r ON r.file = p.file "
        "JOIN series s ON s.file = p.file AND s.series = p.series"
    )
    db.execute(
        "CREATE VIEW bins AS SELECT b.file, r.run, r.scenario, r.host, b.series, s.cpu, s.unit, "
        "b.lo, b.hi, b.count FROM bin_rows b JOIN runs r ON r.file = b.file "
        "JOIN series s ON s.file = b.file AND s.series = b.series"
    )
    return db


def run_query(files: list[Path], sql: str) -> tuple[list[str], list[tuple[object, ...]]]:
    """Column names and rows of ``sql`` over the views of :func:`connect`."""
    db = connect(files)
    try:
        result = db.execute(sql)
    except duckdb.Error as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise LatmonError(f"query: {first} (views: runs, series, samples, bins)") from None
    if result.description is None:
        return [], []
    columns = [d[0] for d in result.description]
    return columns, result.fetchall()
