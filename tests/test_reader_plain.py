"""Plain-number reader (src/latmon/inputs/readers/plain.py): units, exact decimals, bad lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from latmon.errors import InputError
from latmon.inputs.ingest import detect_format, load
from latmon.inputs.readers import ReadOptions


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_one_number_per_line_is_ns(tmp_path: Path) -> None:
    path = write(tmp_path, "lat.txt", "# from a scope\n1200\n1300\n\n900\n")
    assert detect_format(path) == "plain"
    (run,) = load(path)
    assert run.series[0].latency.tolist() == [1200, 1300, 900]
    assert run.series[0].resolution == 1


def test_csv_column_and_unit_from_its_name(tmp_path: Path) -> None:
    path = write(tmp_path, "lat.csv", "n,latency_us\n1,12.5\n2,13\n3,0.001\n")
    (run,) = load(path)
    assert run.series[0].latency.tolist() == [12500, 13000, 1]
    assert run.series[0].resolution == 1  # 0.001 us: three decimals


def test_unit_option_and_refusals(tmp_path: Path) -> None:
    path = write(tmp_path, "ms.txt", "1.5\n2\n")
    (run,) = load(path, options=ReadOptions(input_unit="ms"))
    assert run.series[0].latency.tolist() == [1_500_000, 2_000_000]
    assert run.series[0].resolution == 100_000
    fine = write(tmp_path, "fine.txt", "1.5\n")
    with pytest.raises(InputError, match="more digits than the unit's resolution"):
        load(fine)  # 1.5 ns cannot be an integer ns: refused, not rounded
    bad = write(tmp_path, "bad.txt", "10\n20\nabc\n30\n")
    with pytest.raises(InputError, match=r"bad.txt:3: not a latency"):
        load(bad, fmt="plain")
    (run,) = load(bad, fmt="plain", keep_going=True)
    assert run.series[0].latency.tolist() == [10, 20, 30] and run.damaged
    two = write(tmp_path, "two.csv", "a,b\n1,2\n")
    with pytest.raises(InputError, match="which column holds the latency"):
        load(two)
