"""HdrHistogram interval logs (``.hlog``), as written by HdrHistogram's HistogramLogWriter (Java,
C, Python), wrk2, Gatling and other load and latency tools::

    #[Histogram log format version 1.3]
    #[StartTime: 1441812279.474 (seconds since epoch), Wed Sep 09 08:24:39 PDT 2015]
    "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"
    0.127,1.007,2.769,HISTFAAAAEV42pNpmSz...
    Tag=A,1.134,0.999,0.442,HISTFAAAAEF42pNpm...

Each line holds one interval's histogram, compressed and base64-encoded; it is decoded with the
HdrHistogram_py library. The intervals of each tag (untagged lines form one series) are added
into one histogram whose bins are HdrHistogram's buckets: every value in a bucket is equivalent
at the recorded precision, so the statistics state the widest bucket as their error. The log
does not say the unit of the recorded values: ns unless --input-unit says otherwise (wrk2
records µs).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT, UNIT_NS
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "hdr-log"
INTERVAL = re.compile(
    r"^(?:Tag=(?P<tag>[^,]*),)?(?P<start>\d+(?:\.\d+)?),(?P<length>\d+(?:\.\d+)?),"
    r"(?P<max>\d+(?:\.\d+)?),(?P<payload>HIST[A-Za-z0-9+/=]+)\s*$"
)
HEADER = re.compile(r"^#\[(Histogram log format version|StartTime:|BaseTime:)")
#: The largest encoded interval accepted (a decoded histogram's counts array grows with it).
MAX_PAYLOAD = 16 << 20


def _decode(payload: str):  # type: ignore[no-untyped-def]
    from hdrh.histogram import HdrHistogram

    return HdrHistogram.decode(payload)


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    try:
        import hdrh.histogram  # noqa: F401  (the decoder)
    except ImportError:
        raise InputError(
            str(path), None, "reading HdrHistogram logs needs the hdrhistogram package"
        ) from None
    factor = UNIT_NS[options.input_unit or "ns"]
    totals: dict[str, object] = {}
    intervals: dict[str, int] = {}
    start_time: str | None = None
    with path.open(errors="replace") as f:
        for number, line in enumerate(f, 1):
            text = line.strip()
            if not text:
                continue
            if text.startswith("#"):
                m = re.match(r"^#\[StartTime:\s*([\d.]+)", text)
                if m:
                    start_time = m.group(1)
                continue
            if text.startswith('"StartTimestamp"'):
                continue  # the legend
            m = INTERVAL.match(text)
            if m is None:
                problems.add(number, "not an interval line (start,length,max,HIST...)")
                continue
            if len(m.group("payload")) > MAX_PAYLOAD:
                problems.add(number, "the encoded histogram is implausibly large")
                continue
            try:
                decoded = _decode(m.group("payload"))
            except Exception as error:  # the decoder raises anything from zlib to ValueError
                problems.add(
                    number, f"cannot decode the histogram: {error or type(error).__name__}"
                )
                continue
            if decoded is None:
                problems.add(number, "cannot decode the histogram")
                continue
            tag = m.group("tag") or ""
            if tag in totals:
                try:
                    totals[tag].add(decoded)  # type: ignore[attr-defined]
                except Exception as error:  # incompatible precision or range
                    problems.add(number, f"cannot add this interval to tag {tag!r}: {error}")
                    continue
            else:
                totals[tag] = decoded
            intervals[tag] = intervals.get(tag, 0) + 1
    if not totals:
        raise problems.fatal(None, "no interval histograms in this HdrHistogram log")
    series = [
        _series(str(path), tag or "hdr", h, factor, intervals[tag]) for tag, h in totals.items()
    ]
    meta = {"source": "hdrhistogram", "format": NAME, "unit_assumed": options.input_unit or "ns"}
    if start_time:
        meta["start_time"] = start_time
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]


def _series(path: str, name: str, h: object, factor: int, intervals: int) -> SeriesSpec:
    counts = np.ctypeslib.as_array(h.counts)[: h.counts_len]  # type: ignore[attr-defined]
    nonzero = np.flatnonzero(counts)
    lo, hi = [], []
    for index in nonzero.tolist():
        value = h.get_value_from_index(index)  # type: ignore[attr-defined]
        lo.append(h.get_lowest_equivalent_value(value))  # type: ignore[attr-defined]
        hi.append(h.get_highest_equivalent_value(value) + 1)  # type: ignore[attr-defined]
    lo_ns = np.asarray(lo, dtype=object) * factor
    hi_ns = np.asarray(hi, dtype=object) * factor
    if len(nonzero) and (max(hi_ns) >= LIMIT or int(counts[nonzero].sum()) >= LIMIT):
        raise InputError(path, None, f"series {name!r}: values or counts too large")
    histogram = HistogramSpec(
        lo=lo_ns.astype(np.int64), hi=hi_ns.astype(np.int64), count=counts[nonzero].astype(np.int64)
    )
    return SeriesSpec(
        name=name,
        unit="ns",
        resolution=factor,
        histogram=histogram,
        meta={"intervals": str(intervals), "significant_digits": str(h.significant_figures)},  # type: ignore[attr-defined]
    )
