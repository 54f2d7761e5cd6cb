"""Load any supported input into runs: run files and every reader's format (latmon-log, cyclictest,
rtla, jitterdebugger, ILA CSV, HdrHistogram, plain numbers).

The format is detected from the content, never from the file name.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from latmon.errors import InputError, LatmonError
from latmon.inputs.logformat import looks_like_latmon_log
from latmon.inputs.readers import (
    Problems,
    ReadOptions,
    cyclictest_hist,
    cyclictest_json,
    cyclictest_verbose,
    hdr_log,
    ila_csv,
    jitterdebugger,
    latmon_log,
    plain,
    rtla_timerlat_hist,
)
from latmon.inputs.runfile import PARQUET_MAGIC, read_run
from latmon.inputs.textscan import shown
from latmon.model import Run, RunSpec, build_run, record_measures

#: the readers of the text formats
_TEXT_READERS = (
    latmon_log,
    cyclictest_json,
    jitterdebugger,
    cyclictest_hist,
    cyclictest_verbose,
    ila_csv,
    hdr_log,
    rtla_timerlat_hist,
    plain,
)
_READER_OF = {reader.NAME: reader for reader in _TEXT_READERS}
FORMATS = (
    "auto",
    "run",
    *(r.NAME for r in _TEXT_READERS),
    jitterdebugger.RAW_NAME,
)
SNIFF_BYTES = 64 * 1024


def _cyclictest_verbose(head: str) -> bool:
    lines = [line for line in head.splitlines()[:200] if line.strip()]
    hits = sum(1 for line in lines if cyclictest_verbose.SAMPLE.match(line))
    return hits >= 3 and hits >= len(lines) // 2


def _hdr_log(head: str) -> bool:
    lines = [line for line in head.splitlines()[:40] if line.strip()]
    return any(hdr_log.HEADER.match(line) or hdr_log.INTERVAL.match(line) for line in lines)


def _plain(head: str) -> bool:
    """Numbers, one row per line, after an optional header: the first row all numbers and at
    least half of the first 20 (the reader then names every line that is not)."""
    complete = head.split("\n")[:-1] if "\n" in head else []
    lines = [x for x in complete[:50] if x.strip() and not x.lstrip().startswith("#")]
    if not lines:
        return False
    body = lines[1:] if not plain.NUMBER.match(lines[0].split(",")[0]) else lines
    if not body:
        return False
    rows = [all(plain.NUMBER.match(cell) for cell in line.split(",")) for line in body[:20]]
    return rows[0] and 2 * sum(rows) >= len(rows)


#: What each text format's head looks like, in the order they are tried: the one table of
#: content signatures, so that a file is sniffed once, here, and handed to its reader; a list of
#: numbers (plain) comes last.
_SIGNATURES: tuple[tuple[str, Callable[[str], bool]], ...] = (
    (latmon_log.NAME, looks_like_latmon_log),
    (
        cyclictest_json.NAME,
        lambda head: '"rt_test_version:"' in head or ('"cmdline:"' in head and '"thread"' in head),
    ),
    (
        jitterdebugger.NAME,
        lambda head: (
            '"cpu"' in head
            and '"sysinfo"' in head
            and '"resolution_in_ns"' in head
            and '"rt_test_version:"' not in head
        ),
    ),
    (
        cyclictest_hist.NAME,
        lambda head: "# Histogram" in head and bool(re.search(r"^\d{6} \d", head, re.M)),
    ),
    (cyclictest_verbose.NAME, _cyclictest_verbose),
    (
        ila_csv.NAME,
        lambda head: head.split("\n", 1)[0].startswith("Sample in Buffer") and "Radix" in head,
    ),
    (hdr_log.NAME, _hdr_log),
    (rtla_timerlat_hist.NAME, lambda head: "# RTLA timerlat histogram" in head),
    (plain.NAME, _plain),
)


def detect_format(path: Path) -> str:
    """Name the format of a file from its content."""
    try:
        with path.open("rb") as f:
            raw = f.read(SNIFF_BYTES)
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    if raw[:4] == PARQUET_MAGIC:
        return "run"
    head = raw.decode("latin-1")
    for name, looks_like in _SIGNATURES:
        if looks_like(head):
            return name
    if jitterdebugger.sniff_raw(raw[: SNIFF_BYTES - SNIFF_BYTES % 28]):
        return jitterdebugger.RAW_NAME
    raise _unrecognised(path, head)


_NUMBERISH = re.compile(r"^\s*[+-]?\d+(\.\d+)?\s*(,|$)")
# cyclictest's status line: "T: 0 ( 3545) P:90 I:1000 C:    300 Min:     14 Act:   55 Avg: ..."
_CYCLICTEST_STATUS = re.compile(r"^T:\s*\d+\s+\(\s*\d+\)\s+P:\s*\d+.*\bMin:.*\bMax:", re.M)


def _unrecognised(path: Path, head: str) -> InputError:
    """The error for a file no reader recognises: it names the first line that does not fit
    (for a list of numbers, the first line that is not a number: NaN, inf, 12us ...)."""
    formats = (
        "not a latmon run file or latmon-log, cyclictest (-h text, -v, --json), jitterdebugger "
        "(results.json, samples.raw), ILA CSV, an HdrHistogram log, rtla timerlat hist or a "
        "list of numbers; give --format to say which it is"
    )
    status = _CYCLICTEST_STATUS.search(head)
    if status:
        return InputError(
            str(path),
            head.count("\n", 0, status.start()) + 1,
            "cyclictest's status lines (T: ... Min Act Avg Max) hold no distribution, only "
            "its summary: run cyclictest with -q and -h N (the histogram), --json=FILE or -v "
            "(every sample)",
        )
    if "\n" not in head and len(head) >= SNIFF_BYTES:
        return InputError(
            str(path),
            1,
            f"a line longer than {SNIFF_BYTES >> 10} KiB ({shown(head[:30].encode('latin-1'))}…): "
            f"no format latmon reads has such lines (numbers: one per line); {formats}",
        )
    lines = head.split("\n")
    numbers = 0
    for number, line in enumerate(lines[:-1] if len(lines) > 1 else lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        if _NUMBERISH.match(text):
            numbers += 1
            continue
        shown_text = shown(line.encode("latin-1", "replace"))  # the bytes as they are
        if numbers:
            return InputError(
                str(path),
                number,
                f"{shown_text} is not a number: a list of numbers holds one integer or decimal "
                "per line, without a unit (give it with --input-unit); NaN and inf are not "
                "latencies",
            )
        return InputError(str(path), number, f"unrecognised format: {shown_text}; {formats}")
    return InputError(str(path), None, f"unrecognised format: {formats}")


def load(
    path: str | Path,
    fmt: str = "auto",
    keep_going: bool = False,
    options: ReadOptions | None = None,
) -> list[Run]:
    """Read a file into one or more complete runs: the model's objects, each series with what it
    measures (:func:`latmon.model.record_measures`)."""
    return _read(Path(path), fmt, keep_going, options)


#: What a path that is not a regular file is, by its file type.
_NOT_REGULAR = (
    (stat.S_ISFIFO, "a pipe (a FIFO, or /dev/stdin fed by a pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def check_input(path: Path) -> None:
    """Refuse what cannot be read as an input file, before opening it: a missing path, a
    folder, an unreadable file, and anything but a regular file — a FIFO would make the first
    open wait for a writer, and every input is read more than once (the format is detected
    from its head, text is streamed twice for exact ranks)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise InputError(str(path), None, "no such file") from None
    except OSError as error:
        raise InputError(str(path), None, f"cannot read: {error.strerror}") from None
    if stat.S_ISDIR(mode):
        raise InputError(str(path), None, "is a folder; give the files in it")
    for test, kind in _NOT_REGULAR:
        if test(mode):
            raise InputError(
                str(path),
                None,
                f"{kind}, not a regular file: latmon reads an input more than once; save the "
                "stream to a file first (e.g. cyclictest ... > run.txt) and give that",
            )
    if not os.access(path, os.R_OK):
        raise InputError(str(path), None, "cannot read: permission denied")


def _read(path: Path, fmt: str, keep_going: bool, options: ReadOptions | None) -> list[Run]:
    """The file's complete runs, in one pass: checked, its format detected, read, and the model
    made here from what the reader found. A reader of a whole file returns plain data
    (:class:`latmon.model.RunSpec`) and :func:`latmon.model.build_run` makes the objects with
    what each series measures, in that one place; a run file and a streamed reader (plain
    numbers, cyclictest -v) give a run, whose measures are recorded here."""
    check_input(path)
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt == "run":
        return [record_measures(read_run(path))]
    opts = options or ReadOptions()
    opts.keep_going = keep_going
    problems = Problems(str(path), keep_going)  # the reader adds to it; its runs carry it
    found: Sequence[Run | RunSpec]
    if fmt == jitterdebugger.RAW_NAME:
        found = jitterdebugger.read_raw(path, opts, problems)
    else:
        reader = next((r for r in _TEXT_READERS if fmt == r.NAME), None)
        if reader is None:
            raise LatmonError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
        found = reader.read(path, opts, problems)
    return [record_measures(run) if isinstance(run, Run) else build_run(run) for run in found]


def load_all(
    paths: list[str],
    fmt: str = "auto",
    keep_going: bool = False,
    options: ReadOptions | None = None,
    done: Callable[[int], None] | None = None,
) -> list[Run]:
    """Read every file, in order, into complete runs: the file list is handed over once and the
    runs come back once. Raises on the first unreadable file (strict or not: a file that is not
    an input at all is a user error). With keep_going, damaged logs yield their valid part.
    ``done(i)`` is called when the i-th file has been read (a progress bar)."""
    runs: list[Run] = []
    for i, path in enumerate(paths):
        runs.extend(_read(Path(path), fmt, keep_going, options))
        if done is not None:
            done(i)
    return runs
