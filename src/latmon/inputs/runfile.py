"""The run file: one Parquet file per run, the run's metadata inside it (docs/run-file.md).

Samples are plain int64 columns (``latency`` and any further per-event fields such as ``t`` or
``stage_*``), one row per sample, the rows of each series contiguous and tagged by a dictionary
column ``series``. Everything else — run metadata, per-series unit, clock, resolution, counters,
metadata and histograms — is JSON under the schema metadata key ``latmon.run``, so any Arrow,
DuckDB or pandas user can open the samples and a latmon reader gets the run back exactly.
"""

from __future__ import annotations

import io
import json
import os
import struct
import threading
import warnings
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from latmon.errors import InputError
from latmon.model import Histogram, Run, Series
from latmon.output import output_file

FORMAT = "latmon-run"
#: Version 2 adds the checksum; version 1 files (no checksum) are still read.
VERSION = 2
META_KEY = b"latmon.run"
#: CRC-32 of the data (every byte between the leading magic and the footer) and of the
#: latmon.run metadata, as "crc32:xxxxxxxx"; verified on every read of the samples.
CHECKSUM_KEY = b"latmon.checksum"
PARQUET_MAGIC = b"PAR1"
_READ_CHUNK = 8 << 20


class UnverifiedRunFile(UserWarning):
    """A run file written before run files had a checksum."""


class _ChecksumSink(io.RawIOBase):
    """Writes through to ``stream`` and keeps the CRC-32 of everything after the magic."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.crc = 0
        self.position = 0

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        chunk = bytes(data)
        skip = max(0, 4 - self.position)
        self.crc = zlib.crc32(chunk[skip:], self.crc)
        self.position += len(chunk)
        self.stream.write(chunk)
        return len(chunk)


def is_run_file(path: Path) -> bool:
    """True when the file starts with the Parquet magic."""
    try:
        with path.open("rb") as f:
            return f.read(4) == PARQUET_MAGIC
    except OSError:
        return False


def run_files_under(folder: Path) -> list[Path]:
    """The run files a folder holds (``*.parquet``, searched recursively), sorted by path:
    what ``latmon run``, ``latmon ingest`` and ``latmon fleet`` write."""
    return sorted(q for q in folder.rglob("*.parquet") if q.is_file())


def _histogram_to_json(h: Histogram) -> dict[str, Any]:
    return {
        "lo": h.lo.tolist(),
        "hi": h.hi.tolist(),
        "count": h.count.tolist(),
        "underflow": h.underflow,
        "underflow_hi": h.underflow_hi,
        "overflow": h.overflow,
        "overflow_lo": h.overflow_lo,
    }


def _histogram_from_json(d: dict[str, Any]) -> Histogram:
    return Histogram(
        lo=np.asarray(d["lo"], dtype=np.int64),
        hi=np.asarray(d["hi"], dtype=np.int64),
        count=np.asarray(d["count"], dtype=np.int64),
        underflow=int(d["underflow"]),
        underflow_hi=d["underflow_hi"],
        overflow=int(d["overflow"]),
        overflow_lo=d["overflow_lo"],
    )


def _meta(run: Run, rows: list[int], fields: list[list[str]]) -> dict[str, Any]:
    """The latmon metadata of a run file: the run's, and per series its rows and fields."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "meta": run.meta,
        "problems": run.problems,
        "series": [
            {
                "name": s.name,
                "rows": n,
                "fields": f,
                "unit": s.unit,
                "clock_hz": s.clock_hz,
                "resolution": s.resolution,
                "counters": s.counters,
                "meta": s.meta,
                "histogram": _histogram_to_json(s.histogram) if s.histogram else None,
            }
            for s, n, f in zip(run.series, rows, fields, strict=True)
        ],
    }


def write_streamed_run(run: Run, batches: Iterable[np.ndarray], path: Path) -> int:
    """Write a run of one series whose latencies arrive in batches (a plain-number file read
    as a stream), row group by row group: memory is bounded by a batch, whatever the number of
    samples. The metadata — rows, and what the reader learns only at the end (resolution,
    problems) — follows the last batch in the file's footer. The series' ``events`` counter is
    set to the rows written. Returns the rows; raises InputError on an empty input (nothing
    is written then)."""
    (series,) = run.series
    schema = pa.schema(
        [("series", pa.dictionary(pa.int32(), pa.string())), ("latency", pa.int64())]
    )
    names = pa.array([series.name])
    rows = 0
    with output_file(path) as stream:  # atomic: never a half-written run file
        sink = _ChecksumSink(stream)
        writer = pq.ParquetWriter(
            sink,
            schema,
            compression={"latency": "none", "series": "zstd"},
            use_dictionary=["series"],
            column_encoding={"latency": "DELTA_BINARY_PACKED"},
        )
        try:
            for values in batches:
                if not len(values):
                    continue
                tags = pa.DictionaryArray.from_arrays(
                    pa.array(np.zeros(len(values), np.int32)), names
                )
                batch = pa.record_batch([tags, pa.array(values, pa.int64())], schema=schema)
                writer.write_batch(batch)
                rows += len(values)
            if not rows:
                raise InputError(run.path, None, "no latency values")
            series.counters = {**series.counters, "events": rows}
            meta_json = json.dumps(_meta(run, [rows], [["latency"]])).encode()
            crc = zlib.crc32(meta_json, sink.crc)
            writer.add_key_value_metadata(
                {META_KEY: meta_json, CHECKSUM_KEY: f"crc32:{crc:08x}:{sink.position}".encode()}
            )
        finally:
            writer.close()
    return rows


def write_run(run: Run, path: Path) -> None:
    """Write ``run`` to ``path`` (Parquet, zstd)."""
    fields: list[str] = []
    for s in run.series:
        for name in s.columns:
            if name not in fields:
                fields.append(name)
    if "latency" in fields:
        fields.remove("latency")
        fields.insert(0, "latency")
    rows = [len(s.latency) if s.columns else 0 for s in run.series]
    total = sum(rows)
    names = [s.name for s in run.series]
    indices = np.repeat(np.arange(len(names), dtype=np.int32), rows)
    arrays: dict[str, pa.Array] = {
        "series": pa.DictionaryArray.from_arrays(pa.array(indices, pa.int32()), pa.array(names))
    }
    for name in fields:
        parts = []
        for s, n in zip(run.series, rows, strict=True):
            column = s.columns.get(name)
            parts.append(
                pa.array(column, pa.int64()) if column is not None else pa.nulls(n, pa.int64())
            )
        arrays[name] = pa.concat_arrays(parts) if parts else pa.array([], pa.int64())
        assert len(arrays[name]) == total
    meta = _meta(run, rows, [list(s.columns) for s in run.series])
    table = pa.table(arrays)
    meta_json = json.dumps(meta).encode()
    table = table.replace_schema_metadata({META_KEY: meta_json})
    # Integer columns: delta/bit-packed, uncompressed — about as small as zstd on latencies
    # and far faster to read (docs/run-file.md); the series tags: dictionary + zstd.
    compression = {name: "none" for name in fields} | {"series": "zstd"}
    with output_file(path) as stream:  # atomic: never a half-written run file
        sink = _ChecksumSink(stream)
        writer = pq.ParquetWriter(
            sink,
            table.schema,
            compression=compression,
            use_dictionary=["series"],
            column_encoding={name: "DELTA_BINARY_PACKED" for name in fields},
        )
        writer.write_table(table)
        # every data page is written; the footer (with this key) follows on close
        crc = zlib.crc32(meta_json, sink.crc)
        data_end = sink.position
        writer.add_key_value_metadata({CHECKSUM_KEY: f"crc32:{crc:08x}:{data_end}".encode()})
        writer.close()


def _verify(path: Path, f: pq.ParquetFile, meta_json: bytes) -> None:
    """Check the run file's checksum: its data bytes and metadata as written."""
    recorded = (f.metadata.metadata or {}).get(CHECKSUM_KEY)
    if recorded is None:
        warnings.warn(
            f"{path}: written by an older latmon without a checksum: its integrity cannot be "
            "verified (ingest the log again to get one)",
            UnverifiedRunFile,
            stacklevel=3,
        )
        return
    try:
        kind, crc_text, end_text = recorded.decode().split(":")
        expected, data_end = int(crc_text, 16), int(end_text)
    except ValueError:
        raise InputError(str(path), None, "damaged run file: unreadable checksum") from None
    if kind != "crc32":
        raise InputError(str(path), None, f"run file checksum {kind!r} is not supported")
    try:
        with path.open("rb") as stream:
            stream.seek(-8, 2)
            footer_len = struct.unpack("<I", stream.read(4))[0]
            size = stream.tell() + 4
            if data_end != size - 8 - footer_len:
                raise InputError(str(path), None, "damaged run file: its footer moved")
            stream.seek(4)
            crc, left = 0, data_end - 4
            buffer = bytearray(_READ_CHUNK)
            view = memoryview(buffer)
            while left > 0:
                got = stream.readinto(view[: min(left, _READ_CHUNK)])
                if not got:
                    break
                crc = zlib.crc32(view[:got], crc)
                left -= got
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    if zlib.crc32(meta_json, crc) != expected or left:
        raise InputError(
            str(path),
            None,
            "damaged run file: the checksum of its data does not match (changed or corrupted "
            "after it was written); ingest its log again",
        )


def _raw_meta(f: pq.ParquetFile) -> bytes:
    raw: bytes = (f.metadata.metadata or {}).get(META_KEY, b"")
    return raw


def _open(path: Path, verify: bool = False) -> tuple[pq.ParquetFile, dict[str, Any]]:
    """The Parquet file and its validated latmon metadata; with ``verify`` the checksum of the
    data is checked first."""
    try:
        source: Path | pa.NativeFile = path
        if not str(path).isascii():
            try:
                str(path).encode("utf-8")
            except UnicodeEncodeError:  # a name that is not UTF-8: Arrow takes only UTF-8
                source = pa.OSFile(os.fsencode(path))
        # no pre-buffering: it would hold every row group read in memory at once
        f = pq.ParquetFile(source, pre_buffer=False, buffer_size=1 << 20)
    except (OSError, pa.ArrowInvalid) as error:
        raise InputError(str(path), None, f"not a readable run file: {error}") from None
    # the file's key-value metadata: where write_run's schema metadata lands, and where
    # write_streamed_run adds it once the rows are counted
    raw = (f.metadata.metadata or {}).get(META_KEY)
    if raw is None:
        raise InputError(
            str(path), None, "a Parquet file without latmon metadata: not a latmon run file"
        )
    try:
        meta = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InputError(str(path), None, f"damaged latmon metadata: {error}") from None
    if meta.get("format") != FORMAT or meta.get("version") not in (1, VERSION):
        raise InputError(
            str(path),
            None,
            f"run file format {meta.get('format')!r} version {meta.get('version')!r} is not "
            f"supported (this latmon reads {FORMAT} version {VERSION})",
        )
    if sum(int(s["rows"]) for s in meta["series"]) != f.metadata.num_rows:
        raise InputError(str(path), None, "damaged run file: row counts do not match metadata")
    if verify:
        _verify(path, f, raw)
    return f, meta


class _Verifier(threading.Thread):
    """Checks a run file's checksum beside the decoding (zlib and file reads release the GIL,
    so on two cores it costs no wall time); :meth:`result` raises what the check found."""

    def __init__(self, path: Path, f: pq.ParquetFile, raw: bytes) -> None:
        super().__init__(daemon=True)
        self.path, self.f, self.raw = path, f, raw
        self.error: BaseException | None = None
        self.warned: list[warnings.WarningMessage] = []

    def run(self) -> None:
        try:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                _verify(self.path, self.f, self.raw)
            self.warned = list(seen)
        except BaseException as error:  # handed to the reading thread
            self.error = error

    def result(self) -> None:
        self.join()
        for w in self.warned:
            warnings.warn(w.message, w.category, stacklevel=3)
        if self.error is not None:
            raise self.error


def _int64s(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """The values of a column as a numpy array, its nulls as 0 (the rows of series without
    that field, never read). For int64 (what latmon writes) straight from the Arrow buffers:
    a view where the column is one chunk without nulls, else a copy (pyarrow's ``to_numpy``
    and ``fill_null`` would import pandas, about 0.2 s of every command that reads a run
    file); any other type through pyarrow."""
    if isinstance(column, pa.ChunkedArray):
        if column.num_chunks == 1:
            return _int64s(column.chunk(0))
        if column.type == pa.int64():
            return np.concatenate([np.empty(0, np.int64)] + [_int64s(c) for c in column.chunks])
    if column.type != pa.int64():
        if column.null_count:
            column = column.fill_null(0)
        return np.asarray(column.to_numpy(zero_copy_only=False))
    n = len(column)
    validity, data = column.buffers()
    if data is None or n == 0:
        return np.zeros(n, dtype=np.int64)
    values = np.frombuffer(data, dtype=np.int64, count=n, offset=column.offset * 8)
    if column.null_count:
        bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), bitorder="little")
        values = np.where(bits[column.offset : column.offset + n].astype(bool), values, 0)
    return values


def _series(s: dict[str, Any], columns: dict[str, np.ndarray]) -> Series:
    return Series(
        name=s["name"],
        unit=s["unit"],
        clock_hz=s["clock_hz"],
        resolution=int(s["resolution"]),
        columns=columns,
        histogram=_histogram_from_json(s["histogram"]) if s["histogram"] else None,
        counters={k: int(v) for k, v in s["counters"].items()},
        meta=dict(s["meta"]),
    )


def read_run_header(path: Path) -> tuple[Run, list[int]]:
    """The run without its samples (every series' columns empty), and each series' row count.
    Reads only the file footer."""
    _, meta = _open(path)
    series = [_series(s, {}) for s in meta["series"]]
    run = Run(meta=dict(meta["meta"]), series=series, path=str(path), problems=meta["problems"])
    return run, [int(s["rows"]) for s in meta["series"]]


def iter_latency(path: Path, batch_rows: int = 1 << 20) -> Iterator[tuple[int, np.ndarray]]:
    """(series index, latency values) in file order, one row group slice at a time: memory
    bounded by the batch, whatever the size of the file."""
    for index, values, _ in iter_samples(path, batch_rows):
        yield index, values


def iter_samples(
    path: Path, batch_rows: int = 1 << 20, with_time: bool = False, verify: bool = True
) -> Iterator[tuple[int, np.ndarray, np.ndarray | None]]:
    """(series index, latency values, their ``t`` values or None) in file order, as
    :func:`iter_latency`; ``with_time`` also reads the time column of the series that have
    one. ``verify=False``: the checksum is not checked again (a pass after one that checked
    it; a file changed in between still fails to decode or is caught by its row counts)."""
    f, meta = _open(path)
    verifier = _Verifier(path, f, _raw_meta(f)) if verify else None
    if verifier is not None:
        verifier.start()
    if "latency" not in f.schema_arrow.names:
        if verifier is not None:
            verifier.result()
        return
    rows = [int(s["rows"]) for s in meta["series"]]
    has_latency = ["latency" in s["fields"] for s in meta["series"]]
    has_time = [with_time and "t" in s["fields"] for s in meta["series"]]
    columns = ["latency", "t"] if any(has_time) else ["latency"]
    index, left = 0, rows[0] if rows else 0
    try:
        for batch in f.iter_batches(batch_size=batch_rows, columns=columns, use_threads=False):
            column = batch.column("latency")
            at = 0
            while at < len(column):
                while left == 0:
                    index += 1
                    left = rows[index]
                take = min(left, len(column) - at)
                if has_latency[index]:
                    t = None
                    if has_time[index]:
                        t = _int64s(batch.column("t").slice(at, take))
                    yield index, _int64s(column.slice(at, take)), t
                at += take
                left -= take
    except (OSError, pa.ArrowInvalid) as error:
        if verifier is not None:
            verifier.result()  # a checksum mismatch explains the decoding error best
        raise InputError(str(path), None, f"damaged run file: {error}") from None
    if verifier is not None:
        verifier.result()


def read_run(path: Path) -> Run:
    """Read a run file written by :func:`write_run`."""
    f, meta = _open(path, verify=True)
    # one row group at a time into arrays of the file's length: the samples are held once
    # (reading the whole table and converting it held them twice, 1.6 GB for 10^8 samples)
    names = [name for name in f.schema_arrow.names if name != "series"]
    rows = f.metadata.num_rows
    columns = {name: np.empty(rows, dtype=np.int64) for name in names}
    at = 0
    try:
        for group in range(f.num_row_groups):
            table = f.read_row_group(group, columns=names)
            for name in names:
                # rows of series without this field are null: never read, filled with 0
                columns[name][at : at + table.num_rows] = _int64s(table.column(name))
            at += table.num_rows
    except (OSError, pa.ArrowInvalid) as error:
        raise InputError(str(path), None, f"not a readable run file: {error}") from None
    if at != rows:
        raise InputError(str(path), None, "damaged run file: row counts do not match metadata")
    series: list[Series] = []
    start = 0
    for s in meta["series"]:
        n = int(s["rows"])
        cols = {
            f: np.ascontiguousarray(columns[f][start : start + n], dtype=np.int64)
            for f in s["fields"]
        }
        start += n
        series.append(_series(s, cols))
    return Run(
        meta=dict(meta["meta"]), series=series, path=str(path), problems=list(meta["problems"])
    )
