"""Run files: round trips, the metadata inside, and refusal of what is not one."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from latmon.errors import InputError
from latmon.inputs.runfile import META_KEY, read_run, write_run
from latmon.model import Histogram, Run, Series


def sample_run() -> Run:
    rng = np.random.default_rng(3)
    n = 1000
    lat = rng.integers(1000, 90000, n)
    stages = rng.integers(0, 200, (n, 2))
    return Run(
        meta={"source": "latprobe", "host": "lab <bench>", "scenario": "idle"},
        series=[
            Series(
                "cpu0",
                "ns",
                columns={
                    "t": np.arange(n) * 1_000_000,
                    "latency": lat,
                    "stage_irq": stages[:, 0],
                    "stage_sched": stages[:, 1],
                },
                counters={"events": n, "missed": 2},
                meta={"cpu": "0"},
            ),
            Series("t1", "cycles", clock_hz=100_000_000, columns={"latency": [5, 7, 2**40]}),
            Series(
                "hist",
                "ns",
                resolution=1000,
                histogram=Histogram(
                    [0, 1000, 5000],
                    [1000, 2000, 6000],
                    [10, 3, 1],
                    underflow=0,
                    overflow=2,
                    overflow_lo=100_000,
                ),
                counters={"min": 12, "max": 250_000},
            ),
        ],
        problems=["line 7: CRC mismatch"],
    )


def test_round_trip(tmp_path: Path) -> None:
    run = sample_run()
    path = tmp_path / "r.parquet"
    write_run(run, path)
    back = read_run(path)
    assert back.meta == run.meta and back.problems == run.problems
    assert [s.name for s in back.series] == ["cpu0", "t1", "hist"]
    for a, b in zip(run.series, back.series, strict=True):
        assert (a.unit, a.clock_hz, a.resolution, a.counters, a.meta) == (
            b.unit,
            b.clock_hz,
            b.resolution,
            b.counters,
            b.meta,
        )
        assert list(a.columns) == list(b.columns)
        for k in a.columns:
            assert b.columns[k].dtype == np.int64
            assert np.array_equal(a.columns[k], b.columns[k])
    h = back.series[2].histogram
    assert h is not None and not back.series[2].has_samples
    assert h.count.tolist() == [10, 3, 1] and h.overflow == 2 and h.overflow_lo == 100_000


def test_plain_parquet_readers_see_samples_and_metadata(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    write_run(sample_run(), path)
    table = pq.read_table(path)
    assert table.num_rows == 1003
    assert table.column_names[:2] == ["series", "latency"]
    import pyarrow.compute as pc

    cpu0 = table.filter(pc.equal(pc.cast(table.column("series"), "string"), "cpu0"))
    assert cpu0.num_rows == 1000
    meta = json.loads(table.schema.metadata[META_KEY])
    assert meta["format"] == "latmon-run" and meta["meta"]["scenario"] == "idle"


def test_not_a_run_file(tmp_path: Path) -> None:
    import pyarrow as pa

    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table({"x": [1, 2]}), plain)
    with pytest.raises(InputError, match="without latmon metadata"):
        read_run(plain)
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(InputError, match="not a readable run file"):
        read_run(junk)


def test_write_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    write_run(sample_run(), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.parquet"]


def test_checksum_detects_damage_anywhere_in_the_data(tmp_path: Path) -> None:
    """64 random bytes written into the middle of a run file: refused on every read, never
    turned into wrong statistics."""
    from latmon.inputs.runfile import iter_latency

    path = tmp_path / "r.parquet"
    write_run(sample_run(), path)
    good = path.read_bytes()
    rng = np.random.default_rng(4)
    for where in (len(good) // 3, len(good) // 2, 2 * len(good) // 3):
        data = bytearray(good)
        data[where : where + 64] = rng.integers(0, 256, 64, np.uint8).tobytes()
        bad = tmp_path / f"bad{where}.parquet"
        bad.write_bytes(bytes(data))
        # the data: the checksum; the footer (small files): Parquet's own structure
        refused = r"damaged run file|not a readable run file"
        with pytest.raises(InputError, match=refused):
            read_run(bad)
        with pytest.raises(InputError, match=refused):
            list(iter_latency(bad))


def test_checksum_covers_the_metadata_and_old_files_warn(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    write_run(sample_run(), path)
    meta = pq.ParquetFile(path).metadata.metadata
    assert meta[b"latmon.checksum"].startswith(b"crc32:")
    # a version 1 file (written without a checksum) is read, with a warning
    table = pq.read_table(path)
    old = json.loads(table.schema.metadata[META_KEY])
    old["version"] = 1
    pq.write_table(table.replace_schema_metadata({META_KEY: json.dumps(old).encode()}), path)
    with pytest.warns(UserWarning, match="without a checksum"):
        run = read_run(path)
    assert run.series[0].latency.tolist() == sample_run().series[0].latency.tolist()


def test_reading_samples_needs_no_pandas(tmp_path: Path) -> None:
    """The samples come out of the Arrow buffers as they are (pyarrow's to_numpy would import
    pandas, a fifth of a second of every command): the same values, in several batches and
    series, with and without the time column, and pandas never imported."""
    import subprocess
    import sys

    path = tmp_path / "r.parquet"
    write_run(sample_run(), path)
    script = (
        "import sys, json\n"
        "from pathlib import Path\n"
        "from latmon.inputs.runfile import iter_samples, read_run\n"
        "out = [[i, v.tolist(), None if t is None else t.tolist()]\n"
        "       for i, v, t in iter_samples(Path(sys.argv[1]), batch_rows=77, with_time=True)]\n"
        "run = read_run(Path(sys.argv[1]))\n"
        "cols = [{k: v.tolist() for k, v in s.columns.items()} for s in run.series]\n"
        "print(json.dumps([out, cols, 'pandas' in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    batches, columns, pandas = json.loads(done.stdout)
    assert pandas is False
    expected = sample_run()
    for s, got in zip(expected.series, columns, strict=True):
        assert got == {k: np.asarray(v).tolist() for k, v in s.columns.items()}
    joined: dict[int, tuple[list[int], list[int] | None]] = {}
    for index, values, times in batches:
        v, t = joined.setdefault(index, ([], [] if times is not None else None))
        v.extend(values)
        if t is not None:
            t.extend(times)
    for index, s in enumerate(expected.series):
        if "latency" not in s.columns:
            continue
        v, t = joined[index]
        assert v == np.asarray(s.columns["latency"]).tolist()
        if "t" in s.columns:
            assert t == np.asarray(s.columns["t"]).tolist()


def test_int64_columns_from_arrow_buffers_match_pyarrow() -> None:
    """Slices, several chunks, nulls (as 0) at any offset: the same values as pyarrow gives."""
    import pyarrow as pa

    from latmon.inputs.runfile import _int64s

    nulls = pa.array([5, None, 7, None, 9, 10, None, 12, 13, 14, 15, None, 2**62], pa.int64())
    whole = pa.array(np.arange(100, dtype=np.int64))
    cases = [
        whole, whole.slice(7, 20), whole.slice(100), nulls, nulls.slice(1, 7), nulls.slice(3),
        pa.chunked_array([whole.slice(3, 5), whole.slice(50, 4)]),
        pa.chunked_array([], pa.int64()), pa.chunked_array([whole.slice(10, 3)]),
        pa.chunked_array([nulls.slice(2, 5), nulls]), pa.nulls(5, pa.int64()),
        pa.array([1, None, 3], pa.int32()),
    ]  # fmt: skip
    for column in cases:
        got = _int64s(column)
        assert got.tolist() == [0 if v is None else v for v in column.to_pylist()], column
