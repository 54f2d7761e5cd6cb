"""Hostile inputs and outputs, the installed command, table-driven: every malformed input
fails with exit status 2 and one line naming the file and (where there is one) the line;
outputs never replace what is not a regular file."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from latmon.inputs.logformat import LogWriter
from latmon.inputs.runfile import write_run
from latmon.model import Run, Series

DATA = Path(__file__).parent / "data" / "third-party"


def run(cli: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(cli), *args], capture_output=True, text=True, cwd=cwd, check=False, timeout=120
    )


def truncated_hist(tmp: Path) -> str:
    lines = (DATA / "cyclictest-hist.txt").read_text().splitlines(keepends=True)
    end = next(i for i, line in enumerate(lines) if line.startswith("# Total"))
    (tmp / "cut.txt").write_text("".join(lines[: end - 60]))  # rows and footer lost
    return "cut.txt"


def corrupted_hist(tmp: Path) -> str:
    lines = (DATA / "cyclictest-hist.txt").read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.startswith("000004"))
    lines[first] = "000004 0x00ZZ\t000003\n"
    (tmp / "zz.txt").write_text("".join(lines))
    return "zz.txt"


def damaged_run_file(tmp: Path) -> str:
    lat = np.random.default_rng(1).integers(1000, 70_000, 200_000)
    path = tmp / "r.parquet"
    write_run(Run({"source": "t"}, [Series("c", "ns", columns={"latency": lat})]), path)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = np.random.default_rng(2).integers(0, 256, 64, np.uint8).tobytes()
    path.write_bytes(bytes(data))
    return "r.parquet"


def one_long_line(tmp: Path) -> str:
    with (tmp / "long.csv").open("w") as f:
        f.write(",".join(["123"] * 1_500_000))  # 6 MB on one line
    return "long.csv"


def short_json(tmp: Path) -> str:
    """cyclictest --json whose thread 1 counts 1,000 cycles, max 60 µs, but whose histogram
    holds 990: the missing counts cannot be overflows (they would be above 60 µs)."""
    doc = json.loads((DATA / "cyclictest.json").read_text())
    hist = doc["thread"]["1"]["histogram"]
    key = max(hist, key=lambda k: hist[k])
    hist[key] -= 10
    (tmp / "short.json").write_text(json.dumps(doc))
    return "short.json"


def copied(name: str):  # type: ignore[no-untyped-def]
    def make(tmp: Path) -> str:
        (tmp / name).write_bytes((DATA / name).read_bytes())
        return name

    return make


def fifo(tmp: Path) -> str:
    os.mkfifo(tmp / "pipe")  # nobody writes: opening it would wait forever
    return "pipe"


def write(name: str, data: bytes):  # type: ignore[no-untyped-def]
    def make(tmp: Path) -> str:
        (tmp / name).write_bytes(data)
        return name

    return make


CASES = [
    # name, make the input, stderr pattern (the whole of stderr: one line)
    ("NaN", write("nan.txt", b"10\n20\nNaN\n"), r"nan\.txt:3: .*not a number: 'NaN'"),
    ("inf", write("inf.txt", b"10\ninf\n"), r"inf\.txt:2: .*not a number: 'inf'"),
    ("unit in value", write("us.txt", b"10\n12us\n"), r"us\.txt:2: .*not a number: '12us'"),
    ("non-UTF-8", write("bin.txt", b"10\n\xff\xfe12\n"), r"bin\.txt:2: .*not a number: '.*xff"),
    ("only NaN", write("nans.txt", b"NaN\nNaN\n"), r"nans\.txt:1: unrecognised format: 'NaN'"),
    (
        "cyclictest status lines",
        copied("cyclictest-status.txt"),
        r"cyclictest-status\.txt:4: cyclictest's status lines .* hold no distribution.*-h N",
    ),
    (
        "bad line later",
        write("late.txt", b"1\n" * 1000 + b"12.5.3\n"),
        r"late\.txt:1001: not a latency: not a number: '12\.5\.3'",
    ),
    (
        "headerless multi-column",
        write("multi.csv", b"5,6,7\n8,9,10\n"),
        r"multi\.csv:1: 3 columns .* choose the latency column with --column",
    ),
    (
        "ragged csv",
        write("ragged.csv", b"latency,cpu\n5,0\n6\n"),
        r"ragged\.csv:3: not a latency: wrong number of fields: '6'",
    ),
    ("one long line", one_long_line, r"long\.csv:1: a line longer than 64 KiB"),
    (
        "a long line later",
        write("later.txt", b"10\n20\n" + b"1" * (5 << 20) + b"\n"),
        r"later\.txt:3: a line longer than 4 MiB",
    ),
    ("truncated histogram", truncated_hist, r"cut\.txt: no '# Total' or '# Max Latencies' footer"),
    (
        "corrupted histogram row",
        corrupted_hist,
        r"zz\.txt:\d+: not a histogram row: '000004 0x00ZZ\\t000003'",
    ),
    ("damaged run file", damaged_run_file, r"r\.parquet: damaged run file"),
    (
        "2^64 + 100",  # used to wrap to 100: max 200, mean 133
        write("wrap.txt", b"100\n18446744073709551716\n200\n"),
        r"wrap\.txt:2: not a latency: a number too large to be a latency: '18446744073709551716'",
    ),
    (
        "2^63",  # used to be written as -2^63
        write("i64.txt", b"100\n9223372036854775808\n"),
        r"i64\.txt:2: not a latency: a number too large",
    ),
    (
        "negative",
        write("neg.txt", b"100\n-5\n200\n"),
        r"neg\.txt:2: not a latency: a negative number .*'-5'",
    ),
    (
        "cyclictest json with lost counts",
        short_json,
        r"short\.json: thread 1: cycles 1000 but the histogram holds 990 samples and max 60 "
        r"lies within it: 10 counts are missing",
    ),
    ("FIFO", fifo, r"pipe: a pipe \(a FIFO, .*\), not a regular file: .*save the stream"),
    (
        "folder without run files",
        lambda tmp: (tmp / "d").mkdir() or ((tmp / "d" / "n.txt").write_text("1\n") and "d"),
        r"d: a folder without run files \(\*\.parquet\): give the files in it",
    ),
    ("missing", lambda tmp: "nope.txt", r"nope\.txt: no such file"),
]


@pytest.mark.parametrize(("name", "make", "err"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("command", ["stats", "report", "compare", "ingest"])
def test_malformed_input_is_one_line_exit_2(
    latmon_cli: Path, tmp_path: Path, name: str, make, err: str, command: str
) -> None:
    target = make(tmp_path)
    extra = {"report": ["--markdown", "-"], "ingest": ["-o", "out"]}.get(command, [])
    proc = run(latmon_cli, command, target, *extra, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert re.search(err, lines[0]), lines[0]


def test_a_folder_stands_for_the_run_files_under_it(latmon_cli: Path, tmp_path: Path) -> None:
    """latmon run -o DIR, then latmon report DIR: a folder is its run files (recursively, in
    name order), the same as naming them."""
    (tmp_path / "a.txt").write_text("\n".join(str(v) for v in range(100, 400)) + "\n")
    (tmp_path / "b.txt").write_text("\n".join(str(v) for v in range(200, 900, 3)) + "\n")
    proc = run(latmon_cli, "ingest", "-o", "runs/x", "a.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    proc = run(latmon_cli, "ingest", "-o", "runs", "b.txt", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "runs" / "notes.txt").write_text("not a run file\n")
    named = run(latmon_cli, "stats", "--json", "runs/b.parquet", "runs/x/a.parquet", cwd=tmp_path)
    folder = run(latmon_cli, "stats", "--json", "runs", cwd=tmp_path)
    assert named.returncode == folder.returncode == 0, folder.stderr
    assert folder.stdout == named.stdout and len(json.loads(folder.stdout)) == 2


def test_keep_going_keeps_the_valid_rows(latmon_cli: Path, tmp_path: Path) -> None:
    (tmp_path / "late.txt").write_bytes(b"1\n2\nx\n3\n")
    proc = run(latmon_cli, "stats", "--json", "--keep-going", "late.txt", cwd=tmp_path)
    assert proc.returncode == 3
    assert '"count": 3' in proc.stdout and "late.txt: line 3: not a latency" in proc.stderr


def test_usage_errors_are_one_line(latmon_cli: Path, tmp_path: Path) -> None:
    for args in (["stats"], ["stats", "--confidence", "2", "x"], ["report", "x"], ["nope"]):
        proc = run(latmon_cli, *args, cwd=tmp_path)
        assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1, proc.stderr


@pytest.fixture
def log(tmp_path: Path) -> Path:
    (tmp_path / "n.txt").write_text("\n".join(str(v) for v in range(1000, 3000)) + "\n")
    return tmp_path


def test_report_onto_a_symlink_updates_its_target(latmon_cli: Path, log: Path) -> None:
    (log / "target.html").write_text("old")
    (log / "link.html").symlink_to("target.html")
    proc = run(latmon_cli, "report", "n.txt", "-o", "link.html", cwd=log)
    assert proc.returncode == 0, proc.stderr
    assert (log / "link.html").is_symlink()  # still a link
    assert (log / "target.html").read_text().startswith("<!DOCTYPE html>")


def test_report_into_a_fifo_streams_it(latmon_cli: Path, log: Path) -> None:
    fifo = log / "pipe"
    os.mkfifo(fifo)
    # the reader drains the FIFO into a file: a report of megabytes fills no pipe buffer
    with (log / "drained").open("wb") as sink:
        reader = subprocess.Popen(["cat", str(fifo)], stdout=sink)
        proc = run(latmon_cli, "report", "n.txt", "-o", "pipe", cwd=log)
        reader.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert (log / "drained").read_bytes().startswith(b"<!DOCTYPE html>")
    assert fifo.is_fifo()  # not replaced by a regular file


def test_report_to_dev_null_leaves_the_device(latmon_cli: Path, log: Path) -> None:
    proc = run(latmon_cli, "report", "n.txt", "-o", "/dev/null", cwd=log)
    assert proc.returncode == 0, proc.stderr
    assert Path("/dev/null").is_char_device()


def test_unwritable_output_is_a_user_error(latmon_cli: Path, log: Path) -> None:
    (log / "file").write_text("")
    proc = run(latmon_cli, "report", "n.txt", "-o", "file/r.html", cwd=log)
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert "cannot write file/r.html" in proc.stderr and "internal error" not in proc.stderr


def test_non_ascii_names_draw_without_warnings(latmon_cli: Path, log: Path) -> None:
    (log / "n.txt").rename(log / "lat-日本語-ünï.txt")
    proc = run(latmon_cli, "report", "lat-日本語-ünï.txt", "-o", "r.html", cwd=log)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "日本語" in (log / "r.html").read_text()


def test_stdin_from_a_pipe_is_named(latmon_cli: Path, tmp_path: Path) -> None:
    """`... | latmon stats /dev/stdin`: refused in one line that names /dev/stdin and says what
    to do, without waiting."""
    proc = subprocess.run(
        [str(latmon_cli), "stats", "/dev/stdin"],
        input="1\n2\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert re.fullmatch(
        r"latmon: error: /dev/stdin: a pipe .*not a regular file: .*\n", proc.stderr
    )


def test_file_names_that_are_not_utf8(latmon_cli: Path, tmp_path: Path) -> None:
    """lat\\xff.txt: ingest, stats of the run file, report and JSON work; the name is shown
    with its byte escaped, in every output; a bad line names the file the same way."""
    raw = os.fsencode(tmp_path) + b"/lat\xff.txt"
    Path(os.fsdecode(raw)).write_bytes(b"1200\n1300\n900\n")
    name = os.fsdecode(b"lat\xff.txt")
    proc = run(latmon_cli, "ingest", "-o", "out", name, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "wrote out/lat\\xff.parquet (1 series, 3 samples)\n"
    stored = os.fsdecode(b"out/lat\xff.parquet")
    proc = run(latmon_cli, "stats", "--json", stored, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)
    assert row["series"] == "lat\\xff" and row["file"] == "out/lat\\xff.parquet"
    assert row["count"] == 3 and row["max"] == 1300
    proc = run(latmon_cli, "report", "-o", "r.html", name, stored, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "lat\\xff.txt" in (tmp_path / "r.html").read_text(encoding="utf-8")
    Path(os.fsdecode(raw)).write_bytes(b"1200\nx\n")
    proc = run(latmon_cli, "stats", name, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("latmon: error: lat\\xff.txt:2: not a latency")


def test_report_on_a_log_holding_the_largest_int64(latmon_cli: Path, tmp_path: Path) -> None:
    """The latmon-log allows any int64 value: a report of 2^63 - 1 is written and shows it."""
    f = io.StringIO()
    w = LogWriter(f, source="t", unit="ns")
    sid = w.series("cpu0")
    w.samples(sid, [100, 2**63 - 1, 200] * 50)
    w.close()
    (tmp_path / "big.log").write_text(f.getvalue())
    proc = run(latmon_cli, "report", "-o", "big.html", "big.log", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "9,223,372,036,854,775,807" in (tmp_path / "big.html").read_text()
