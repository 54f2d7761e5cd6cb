"""cyclictest ``--json=FILE`` output (rt-tests >= 2.0).

Quirks handled: the keys ``"cmdline:"`` and ``"rt_test_version:"`` end with a colon; the command
line is written without escaping (a quote or backslash in it makes the file invalid JSON, so that
one line is repaired before parsing); ``resolution_in_ns`` is a 0/1 flag (1: values in ns, from
-N), not a resolution; there is no overflow field: overflows = cycles - the histogram's sum,
which holds only when ``max`` lies above every bucket used (a file whose counts fall short
while its max lies inside the histogram has lost counts, and is refused).
The histogram holds one bucket per unit, each latency truncated to it: bucket k is [k, k+1).
The file lists only the buckets used, so the histogram's size (``-h N``/``-H N``: latencies of N
units and more are overflows) is read from the command line; without it, the overflows' lower
edge is the highest bucket used plus one, a weaker bound.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from latmon.errors import InputError
from latmon.inputs.readers import Problems, ReadOptions
from latmon.inputs.readers.units import LIMIT
from latmon.model import HistogramSpec, RunSpec, SeriesSpec

NAME = "cyclictest-json"

_CMDLINE = re.compile(r'^(\s*"cmdline:"\s*:\s*")(.*)(",\s*)$', re.M)


def _repair(text: str) -> str:
    """Escape the raw command line so that the rest of the file parses."""
    return _CMDLINE.sub(lambda m: m.group(1) + json.dumps(m.group(2))[1:-1] + m.group(3), text)


# cyclictest's short options that take no argument, which getopt lets precede -h in one word
_FLAGS = "mnquvxMNSU"
_SIZE_OPTION = re.compile(rf"^-[{_FLAGS}]*[hH](\d*)$|^--(?:histogram|histofall)(?:=(\d*))?$")


def histogram_size(cmdline: str) -> int | None:
    """N of the last -h N, -H N, --histogram=N or --histofall=N on cyclictest's command line."""
    size = None
    words = cmdline.split()
    for i, word in enumerate(words):
        m = _SIZE_OPTION.match(word)
        if not m:
            continue
        value = m.group(1) or m.group(2)
        if not value and m.group(2) is None and i + 1 < len(words):
            value = words[i + 1]
        if value and value.isdigit() and int(value) > 0:
            size = int(value)
    return size


def _int(problems: Problems, where: str, value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < LIMIT:
        problems.add(None, f"{where}: {value!r} is not a non-negative whole number")
        return None
    return value


def read(path: Path, options: ReadOptions, problems: Problems) -> list[RunSpec]:
    text = path.read_text(errors="replace")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError:
        try:
            doc = json.loads(_repair(text))
        except json.JSONDecodeError as error:
            raise InputError(str(path), error.lineno, f"not valid JSON: {error.msg}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("thread"), dict):
        raise InputError(str(path), None, 'no "thread" object: not cyclictest --json output')
    flag = doc.get("resolution_in_ns", 0)
    if flag not in (0, 1):
        problems.add(None, f"resolution_in_ns is {flag!r}; cyclictest writes 0 or 1")
    unit_ns = 1 if flag == 1 else 1000
    cmdline = str(doc.get("cmdline:", doc.get("cmdline", "")))
    size = histogram_size(cmdline)
    series = []
    for key, thread in sorted(
        doc["thread"].items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 1 << 30
    ):
        where = f"thread {key}"
        if not isinstance(thread, dict) or not isinstance(thread.get("histogram"), dict):
            problems.add(None, f"{where}: no histogram")
            continue
        buckets, counts = [], []
        for b, c in thread["histogram"].items():
            if not str(b).isdigit() or int(b) * unit_ns >= LIMIT:
                problems.add(None, f"{where}: histogram bucket {b!r} is not a whole number")
                continue
            value = _int(problems, f"{where}: bucket {b}", c)
            if value is not None:
                buckets.append(int(b))
                counts.append(value)
        order = np.argsort(np.asarray(buckets, dtype=np.int64), kind="stable")
        lo = np.asarray(buckets, dtype=np.int64)[order]
        count = np.asarray(counts, dtype=np.int64)[order]
        total = int(count.sum())
        cycles = _int(problems, f"{where}: cycles", thread.get("cycles"))
        overflow = 0
        top = int(lo[count > 0][-1]) if np.any(count > 0) else -1  # the highest bucket used
        largest = thread.get("max")
        if cycles is not None:
            if cycles < total:
                problems.add(None, f"{where}: cycles {cycles} < the histogram's {total} samples")
            elif cycles > total and not (
                isinstance(largest, int) and not isinstance(largest, bool) and largest > top
            ):
                # cyclictest counts a latency outside its histogram only in cycles, so missing
                # counts are overflows only when the max lies above every bucket used
                problems.add(
                    None,
                    f"{where}: cycles {cycles} but the histogram holds {total} samples and max "
                    f"{largest!r} lies within it: {cycles - total} counts are missing (an "
                    "overflow would make max larger than every bucket)",
                )
            else:
                overflow = cycles - total
        keep = count > 0
        events = cycles if cycles is not None and cycles - total == overflow else total
        counters = {"events": events, "overflows": overflow}
        for name in ("min", "max"):
            value = thread.get(name)
            if (
                isinstance(value, int)
                and not isinstance(value, bool)
                and -LIMIT < value * unit_ns < LIMIT
            ):
                counters[name] = value * unit_ns
        cpu = thread.get("cpu")
        name = f"cpu{cpu}" if isinstance(cpu, int) and cpu >= 0 else f"thread{key}"
        end = int(lo[-1]) + 1 if len(lo) else 0
        if size is not None and size >= end:
            end = size  # every latency of N units and more is an overflow
        series.append(
            SeriesSpec(
                name=name,
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
                meta={"thread": str(key), **({"cpu": str(cpu)} if isinstance(cpu, int) else {})},
            )
        )
    sysinfo = doc.get("sysinfo") if isinstance(doc.get("sysinfo"), dict) else {}
    meta = {
        "source": "cyclictest",
        "format": NAME,
        "tool_version": str(doc.get("rt_test_version:", doc.get("rt_test_version", "unknown"))),
        "cmdline": cmdline,
        "start": str(doc.get("start_time", "unknown")),
        "input_unit": "ns" if unit_ns == 1 else "us",
    }
    if size is not None:
        meta["histogram_size"] = str(size)
    if sysinfo:
        meta["host"] = str(sysinfo.get("nodename", ""))
        meta["kernel"] = f"{sysinfo.get('release', '')} {sysinfo.get('version', '')}".strip()
    if "return_code" in doc:
        meta["return_code"] = str(doc["return_code"])
    return [RunSpec(meta=meta, series=series, path=str(path), problems=problems.items)]
