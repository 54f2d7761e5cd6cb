"""jitterdebugger output (``jitterdebugger -o DIR [-s]``): ``results.json`` and ``samples.raw``.

results.json::

    {"version": 3, "sysinfo": {..., "resolution_in_ns": 1000},
     "cpu": {"0": {"histogram": {"6": 2, ...}, "count": 300, "min": 6, "max": 45, "avg": 19.5}}}

Here ``resolution_in_ns`` is the unit in ns (1000: µs, 1 with -N), unlike cyclictest's flag.
Overflows (above the histogram) = count - the histogram's sum.

samples.raw: packed little-endian records of 28 bytes, ``u32 cpu, s64 tv_sec, s64 tv_nsec,
u64 latency``, in the unit of the results.json beside it (µs when there is none, unless
--input-unit says otherwise). A trailing partial record (a capture cut short) is reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT, us_or_ns
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "jitterdebugger"
RAW_NAME = "jitterdebugger-raw"
RECORD = np.dtype([("cpu", "<u4"), ("sec", "<i8"), ("nsec", "<i8"), ("value", "<u8")])


def sniff_raw(data: bytes) -> bool:
    if len(data) < RECORD.itemsize * 2:
        return False
    n = len(data) // RECORD.itemsize
    rec = np.frombuffer(data[: n * RECORD.itemsize], dtype=RECORD)
    return bool(
        np.all(rec["cpu"] < 65536)
        and np.all((rec["nsec"] >= 0) & (rec["nsec"] < 1_000_000_000))
        and np.all(rec["sec"] >= 0)
        and np.all(np.diff(rec["sec"]) >= -1)
    )


def _load_json(path: Path) -> dict[str, object]:
    try:
        doc = json.loads(path.read_text(errors="replace"))
    except json.JSONDecodeError as error:
        raise InputError(str(path), error.lineno, f"not valid JSON: {error.msg}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cpu"), dict):
        raise InputError(str(path), None, 'no "cpu" object: not jitterdebugger results.json')
    return doc


def _unit_ns(doc: dict[str, object], problems: Problems) -> int:
    sysinfo = doc.get("sysinfo")
    res = sysinfo.get("resolution_in_ns", 1000) if isinstance(sysinfo, dict) else 1000
    if res not in (1, 1000):
        problems.add(None, f"resolution_in_ns {res!r}: expected 1000 (µs) or 1 (ns)")
        return 1000
    return int(res)


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    doc = _load_json(path)
    unit_ns = _unit_ns(doc, problems)
    cpus = doc["cpu"]
    assert isinstance(cpus, dict)
    series = []
    for key in sorted(cpus, key=lambda k: int(k) if str(k).isdigit() else 1 << 30):
        entry = cpus[key]
        if not isinstance(entry, dict) or not isinstance(entry.get("histogram"), dict):
            problems.add(None, f"cpu {key}: no histogram")
            continue
        pairs = []
        for b, c in entry["histogram"].items():
            if (
                not str(b).isdigit()
                or isinstance(c, bool)
                or not isinstance(c, int)
                or not 0 <= c < LIMIT
                or int(b) * unit_ns >= LIMIT
            ):
                problems.add(None, f"cpu {key}: bad histogram entry {b!r}: {c!r}")
                continue
            pairs.append((int(b), c))
        pairs.sort()
        lo = np.asarray([p[0] for p in pairs], dtype=np.int64)
        count = np.asarray([p[1] for p in pairs], dtype=np.int64)
        total = int(count.sum())
        events = entry.get("count", total)
        if isinstance(events, bool) or not isinstance(events, int) or not total <= events < LIMIT:
            problems.add(None, f"cpu {key}: count {events!r} is below the histogram's {total}")
            events = total
        overflow = events - total
        counters = {"events": events, "overflows": overflow}
        for name in ("min", "max"):
            if isinstance(entry.get(name), int) and -LIMIT < int(entry[name]) * unit_ns < LIMIT:
                counters[name] = int(entry[name]) * unit_ns
        keep = count > 0
        end = int(lo[-1]) + 1 if len(lo) else 0
        series.append(
            SeriesSpec(
                name=f"cpu{key}",
                unit="ns",
                resolution=unit_ns,
                histogram=HistogramSpec(
                    lo=lo[keep] * unit_ns,
                    hi=(lo[keep] + 1) * unit_ns,
                    count=count[keep],
                    overflow=overflow,
                    overflow_lo=end * unit_ns if overflow else None,
                ),
                counters=counters,
                meta={"cpu": str(key)},
            )
        )
    sysinfo = doc.get("sysinfo") if isinstance(doc.get("sysinfo"), dict) else {}
    assert isinstance(sysinfo, dict)
    meta = {
        "source": "jitterdebugger",
        "format": NAME,
        "tool_version": f"results v{doc.get('version', '?')}",
        "host": str(sysinfo.get("nodename", "")),
        "kernel": f"{sysinfo.get('release', '')} {sysinfo.get('version', '')}".strip(),
        "input_unit": "ns" if unit_ns == 1 else "us",
    }
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]


def read_raw(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    data = path.read_bytes()
    if options.input_unit:
        unit_ns = us_or_ns(options, str(path), "jitterdebugger samples")
    elif (path.parent / "results.json").exists():
        unit_ns = _unit_ns(_load_json(path.parent / "results.json"), problems)
    else:
        unit_ns = 1000
    n, rest = divmod(len(data), RECORD.itemsize)
    if rest:
        problems.add(None, f"{rest} bytes after the last whole 28-byte record (cut short?)")
    rec = np.frombuffer(data[: n * RECORD.itemsize], dtype=RECORD)
    if not n:
        raise problems.fatal(None, "no samples")
    too_large = (
        (rec["sec"] > 1 << 32)
        | (rec["sec"] < 0)
        | (rec["nsec"] < 0)
        | (rec["nsec"] >= 1_000_000_000)
        | (rec["value"] > (1 << 62) // unit_ns)
    )
    if np.any(too_large):
        problems.add(None, f"{int(too_large.sum())} records with impossible values (damaged?)")
        rec = rec[~too_large]
    if not len(rec):
        raise problems.fatal(None, "no valid samples")
    t0 = int(rec["sec"].min()) * 1_000_000_000
    series = []
    for cpu in np.unique(rec["cpu"]):
        mine = rec[rec["cpu"] == cpu]
        t = mine["sec"].astype(np.int64) * 1_000_000_000 + mine["nsec"].astype(np.int64) - t0
        latency = mine["value"].astype(np.int64) * unit_ns
        series.append(
            SeriesSpec(
                name=f"cpu{cpu}",
                unit="ns",
                resolution=unit_ns,
                columns={"latency": latency, "t": t},
                counters={"events": len(latency)},
                meta={"cpu": str(int(cpu))},
            )
        )
    meta = {
        "source": "jitterdebugger",
        "format": RAW_NAME,
        "input_unit": "ns" if unit_ns == 1 else "us",
    }
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]
