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
