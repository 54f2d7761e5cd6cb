"""latctl, the built program, against a file mapped in place of a UIO device (--device-file).

The file is a register image of a latmon core (offsets from the generated C map header, so the
test and the program agree by construction, not by a second hand-typed copy): latctl reads what
the test put there and the test reads back what latctl wrote. Real UIO needs the board; the
bounds checks, argument errors and output formats are the same code paths.
"""

from __future__ import annotations

import json
import re
import signal
import struct
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parent.parent


def header_offsets() -> dict[str, int]:
    text = (ROOT / "sw" / "include" / "latmon" / "latmon_map.h").read_text()
    return {
        m[1]: int(m[2], 16) for m in re.finditer(r"#define LATMON_(\w+) (0x[0-9A-Fa-f]+)u", text)
    }


OFF = header_offsets()
MAP = OFF["MAP_SIZE"]
MAGIC = 0x4C544D4E


class Image:
    """A register image of a core: 32 deep trace, 8 histogram bins, 32-bit counter."""

    def __init__(self, path: Path, size: int = MAP) -> None:
        self.path = path
        self.data = bytearray(size)
        self.set("ID_OFFSET", MAGIC)
        self.set("VERSION_OFFSET", (1 << 16) | 1)
        caps = 1 | (1 << 1) | (32 << 8) | (5 << 16) | (2 << 21) | (32 << 24)  # trace, hist
        self.set("CAPS_OFFSET", caps)
        self.set("CAPS2_OFFSET", 3 | (16 << 16))  # 8 bins
        self.save()

    def set(self, name: str, value: int, index: int = 0) -> None:
        struct.pack_into("<I", self.data, OFF[name] + 4 * index, value)

    def save(self) -> None:
        """Write the image in place (never truncating: latctl may have the file mapped)."""
        if not self.path.exists():
            self.path.write_bytes(self.data)
            return
        with self.path.open("r+b") as f:
            f.write(self.data)

    def get(self, name: str) -> int:
        return struct.unpack_from("<I", self.path.read_bytes(), OFF[name])[0]


def latctl(
    c_binary, image: Image | None, *args: str, size: int = MAP
) -> subprocess.CompletedProcess[str]:
    device = ["--device-file", str(image.path), "--map-size", str(size)] if image else []
    return subprocess.run(
        [str(c_binary("latctl")), *device, *args], capture_output=True, text=True, timeout=30
    )


@pytest.fixture
def image(tmp_path: Path) -> Image:
    return Image(tmp_path / "uio.img")


def test_info_json_and_text(c_binary, image: Image) -> None:
    p = latctl(c_binary, image, "--json", "info")
    assert p.returncode == 0, p.stderr
    info = json.loads(p.stdout)
    assert info["version"] == "1.1" and info["trace_depth"] == 32 and info["hist_bins"] == 8
    assert info["hist"] is True and info["stamp"] is False and info["map_size"] == MAP
    assert info["minimal"] is False
    text = latctl(c_binary, image, "info")
    assert "32 samples of 32 bits" in text.stdout and "8 bins per bank" in text.stdout
    assert "minimal" not in text.stdout


def test_info_names_the_minimal_configuration(c_binary, image: Image) -> None:
    """CAPS.MINIMAL (a core with the minimal register set) is shown, in JSON and in text."""
    image.set("VERSION_OFFSET", (1 << 16) | 3)
    image.set("CAPS_OFFSET", 1 | (16 << 8) | (1 << 15) | (9 << 16) | (16 << 24))  # 512 x 16
    image.save()
    p = latctl(c_binary, image, "--json", "info")
    assert p.returncode == 0, p.stderr
    info = json.loads(p.stdout)
    assert info["minimal"] is True and info["hist"] is False and info["version"] == "1.3"
    text = latctl(c_binary, image, "info")
    assert text.returncode == 0, text.stderr
    assert "minimal configuration" in text.stdout, text.stdout


def test_config_arm_disarm_write_the_registers(c_binary, image: Image) -> None:
    p = latctl(
        c_binary,
        image,
        "config",
        "--irq-mode",
        "falling",
        "--timeout",
        "0x100",
        "--threshold",
        "300",
        "--ring",
        "--hist-start",
        "1000",
        "--hist-shift",
        "4",
    )
    assert p.returncode == 0, p.stderr
    assert image.get("TIMEOUT_OFFSET") == 0x100 and image.get("THRESHOLD_OFFSET") == 300
    assert image.get("HIST_START_OFFSET") == 1000 and image.get("HIST_SHIFT_OFFSET") == 4
    assert image.get("CTRL_OFFSET") == (1 << 2) | (1 << 4)  # ring, irq falling, not enabled
    assert latctl(c_binary, image, "arm", "--clear").returncode == 0
    assert image.get("CTRL_OFFSET") & 0b11 == 0b11  # enable and the clear strobe
    assert latctl(c_binary, image, "disarm").returncode == 0
    assert image.get("CTRL_OFFSET") & 1 == 0


def test_status_and_read(c_binary, image: Image, latmon_cli: Path, tmp_path: Path) -> None:
    samples = [120, 95, 300, 88, 101]
    for k, v in enumerate(samples):
        image.set("TRACE_OFFSET", v, k)
    image.set("TRACE_COUNT_OFFSET", len(samples))
    image.set("COUNT_OFFSET", 5)
    image.set("MIN_OFFSET", 88)
    image.set("MAX_OFFSET", 300)
    image.set("SUM_LO_OFFSET", sum(samples))
    image.save()
    status = json.loads(latctl(c_binary, image, "--json", "status").stdout)
    assert (status["count"], status["min"], status["max"], status["sum"]) == (5, 88, 300, 704)
    p = latctl(c_binary, image, "--json", "read")
    assert json.loads(p.stdout) == {"first": 0, "samples": samples}
    log = tmp_path / "trace.log"
    p = latctl(c_binary, image, "--clock-hz", "100000000", "read", "-o", str(log))
    assert p.returncode == 0, p.stderr
    stats = subprocess.run(
        [str(latmon_cli), "stats", "--json", "--unit", "ns", str(log)],
        capture_output=True,
        text=True,
    )
    (row,) = json.loads(stats.stdout)
    assert (row["count"], row["min"], row["max"]) == (5, 880, 3000)  # 10 ns per cycle


def test_hist_json_and_log(c_binary, image: Image, latmon_cli: Path, tmp_path: Path) -> None:
    bins = [0, 4, 9, 1, 0, 0, 2, 0]
    for k, v in enumerate(bins):
        image.set("HIST_OFFSET", v, k)
    image.set("HIST_START_OFFSET", 100)
    image.set("HIST_SHIFT_OFFSET", 3)
    image.set("HIST_UNDERFLOW_OFFSET", 2)
    image.set("HIST_OVERFLOW_OFFSET", 1)
    image.set("HIST_COUNT_LO_OFFSET", 19)
    image.set("HIST_MIN_OFFSET", 50)
    image.set("HIST_MAX_OFFSET", 400)
    image.save()
    h = json.loads(latctl(c_binary, image, "--json", "hist").stdout)
    assert h["bins"] == bins and h["start"] == 100 and h["width"] == 8 and h["count"] == 19
    assert image.get("HIST_CTRL_OFFSET") == 1  # the snapshot was requested
    log = tmp_path / "h.log"
    assert (
        latctl(c_binary, image, "--clock-hz", "100000000", "hist", "-o", str(log)).returncode == 0
    )
    (row,) = json.loads(
        subprocess.run(
            [str(latmon_cli), "stats", "--json", str(log)], capture_output=True, text=True
        ).stdout
    )
    assert row["count"] == 19 and row["min"] == 50 and row["max"] == 400 and not row["exact"]


def test_stream_until_sigterm_keeps_every_sample(
    c_binary, image: Image, latmon_cli: Path, tmp_path: Path
) -> None:
    log = tmp_path / "s.log"
    proc = subprocess.Popen(
        [
            str(c_binary("latctl")),
            "--device-file",
            str(image.path),
            "--map-size",
            str(MAP),
            "--clock-hz",
            "100000000",
            "stream",
            "--interval-ms",
            "20",
            "-o",
            str(log),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    written = 0
    for _burst in range(5):  # the "core" writes samples while latctl streams
        for _ in range(10):
            image.set("TRACE_OFFSET", 1000 + written, written % 32)
            written += 1
        image.set("TRACE_COUNT_OFFSET", written)
        image.save()
        time.sleep(0.15)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    assert "50 samples written, 0 overwritten" in err
    text = log.read_text()
    assert text.rstrip().splitlines()[-1].startswith("E ")  # the trailer: closed cleanly
    (row,) = json.loads(
        subprocess.run(
            [str(latmon_cli), "stats", "--json", str(log)], capture_output=True, text=True
        ).stdout
    )
    assert (row["count"], row["min"], row["max"]) == (50, 1000, 1049)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ([], 2, "usage"),
        (["frobnicate"], 2, "unknown command 'frobnicate'"),
        (["config", "--irq-mode", "sideways"], 2, "give rising, falling, high or low"),
        (["config", "--timeout", "-5"], 2, "is not a number"),
        (["config", "--hist-shift", "40"], 2, "give 0 .. 31"),
        (["read"], 2, "needs --clock-hz"),
        (["arm", "--now"], 2, "unknown option '--now'"),
        (["--clock-hz", "0", "info"], 2, "--clock-hz 0"),
    ],
)
def test_argument_errors(c_binary, image: Image, args: list[str], code: int, message: str) -> None:
    p = latctl(c_binary, image if args else None, *args)
    assert p.returncode == code and message in (p.stderr + p.stdout), p.stderr


def test_device_errors_and_bounds(c_binary, image: Image, tmp_path: Path) -> None:
    p = latctl(c_binary, None, "info")
    assert p.returncode == 2 and "which core?" in p.stderr
    p = subprocess.run(
        [str(c_binary("latctl")), "-d", "no-such-core", "info"], capture_output=True, text=True
    )
    assert p.returncode == 2 and "no UIO device named 'no-such-core'" in p.stderr
    p = subprocess.run(
        [
            str(c_binary("latctl")),
            "--device-file",
            str(tmp_path / "none"),
            "--map-size",
            "4096",
            "info",
        ],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 1 and "No such file" in p.stderr
    # a map that ends before the trace window: every access beyond it is refused
    image.set("TRACE_COUNT_OFFSET", 3)
    image.save()
    p = latctl(c_binary, image, "--json", "read", size=0x100)
    assert p.returncode == 1 and "outside the device's map" in p.stderr
    p = latctl(c_binary, image, "info", size=MAP * 2)  # the file is smaller than that
    assert p.returncode == 1 and "at least" in p.stderr
    image.set("ID_OFFSET", 0)
    image.save()
    p = latctl(c_binary, image, "info")
    assert p.returncode == 1 and "no latmon core" in p.stderr


def test_stream_metrics_serve_every_sample_and_the_core_counters(c_binary, image: Image) -> None:
    """latctl stream --metrics: the histogram holds exactly the samples streamed (cycles at
    100 MHz: 10 ns each), lost samples and the core's counters are counted, labels are set."""
    proc = subprocess.Popen(
        [
            str(c_binary("latctl")),
            *("--device-file", str(image.path), "--map-size", str(MAP)),
            *("--clock-hz", "100000000", "stream", "--interval-ms", "20", "-o", "/dev/null"),
            *("--metrics", "127.0.0.1:0", "--metrics-label", "site=lab"),
            *("--metrics-buckets", "1us,10us,100us"),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    m = re.search(r"metrics at http://(127\.0\.0\.1:\d+)/metrics", line)
    assert m, line
    url = f"http://{m.group(1)}/metrics"
    cycles: list[int] = []
    written = 0
    for burst in (10, 10, 40):  # the last burst overruns the 32-deep ring: 8 lost
        for _ in range(burst):
            image.set("TRACE_OFFSET", 50 * written + 7, written % 32)
            if burst != 40 or written >= 28:
                cycles.append(50 * written + 7)
            written += 1
        image.set("TRACE_COUNT_OFFSET", written)
        image.set("VIOLATIONS_OFFSET", written // 10)
        image.set("TIMEOUTS_OFFSET", 2)
        image.save()
        time.sleep(0.3)

    with urllib.request.urlopen(url, timeout=10) as r:
        body = r.read().decode()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    ns = [10 * c for c in cycles]
    got = {
        (s.name, s.labels.get("le", "")): (s.value, s.labels)
        for f in text_string_to_metric_families(body)
        for s in f.samples
        if s.name.startswith("latmon_") and not s.name.startswith("latmon_exporter")
    }
    for le, bound in (("0.000001", 1000), ("0.00001", 10000), ("0.0001", 100000), ("+Inf", None)):
        value, labels = got[("latmon_latency_seconds_bucket", le)]
        want = len(ns) if bound is None else sum(v <= bound for v in ns)
        assert value == want, (le, value, want)
        assert labels["site"] == "lab" and labels["core"] == "0" and labels["source"] == "latctl"
    assert got[("latmon_samples_total", "")][0] == len(ns) == 52
    assert got[("latmon_lost_samples_total", "")][0] == 8
    assert got[("latmon_deadline_violations_total", "")][0] == 6
    assert got[("latmon_timeouts_total", "")][0] == 2
    assert got[("latmon_latency_max_seconds", "")][0] == pytest.approx(max(ns) / 1e9)


# ---- latctl ring: the shared-memory log ring of AMP (docs/amp.md) ----

# The ring's layout as docs/amp.md and latmon_ring.h document it, written here independently:
# the writer below is this test's, the reader the C program's.
RING_HEADER = 256
MAGIC_RING = b"LMRG"


class RingWriter:
    """A firmware stand-in: formats the ring in a file and writes a byte stream into it."""

    def __init__(self, path: Path, size: int) -> None:
        import mmap

        self.size = size
        path.write_bytes(b"\0" * (RING_HEADER + size))
        self.file = path.open("r+b")
        self.mem = mmap.mmap(self.file.fileno(), RING_HEADER + size)
        self.head = 0

    def u32(self, offset: int, value: int | None = None) -> int:
        if value is not None:
            struct.pack_into("<I", self.mem, offset, value & 0xFFFFFFFF)
        return int(struct.unpack_from("<I", self.mem, offset)[0])

    def format(self) -> None:
        self.u32(4, 1)  # version
        self.u32(8, self.size)
        self.u32(12, RING_HEADER)
        self.mem[0:4] = MAGIC_RING
        self.u32(16, 1)  # state: writing

    def reader_attached(self) -> bool:
        return self.u32(132) == 1

    def write(self, data: bytes, deadline: float) -> None:
        while data:
            free = self.size - (self.head - self.u32(128)) % (1 << 32)
            n = min(free, len(data))
            for i in range(n):
                self.mem[RING_HEADER + (self.head + i) % self.size] = data[i]
            self.head += n
            self.u32(64, self.head)
            data = data[n:]
            if data:
                assert time.monotonic() < deadline, "the reader stopped reading"
                time.sleep(0.002)

    def finish(self, status: int) -> None:
        self.u32(20, status)
        self.u32(16, 2)  # state: done


def test_ring_copies_the_firmware_log_through_a_small_ring(
    c_binary, tmp_path: Path, data_dir: Path
) -> None:
    # the ring carries bytes: a latmon-log eight times over goes several times round it
    text = (data_dir / "latmon-log" / "vector-basic.log").read_bytes() * 8
    assert len(text) > 4 * 1024
    ring = RingWriter(tmp_path / "shm", 1024)
    out = tmp_path / "firmware.log"
    proc = subprocess.Popen(
        [str(c_binary("latctl")), "ring", "--file", str(ring.file.name), "-o", str(out),
         "--timeout", "60", "--interval-ms", "1"],
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    time.sleep(0.2)  # the reader waits for a ring that is not formatted yet
    ring.format()
    deadline = time.monotonic() + 30
    while not ring.reader_attached():
        assert time.monotonic() < deadline and proc.poll() is None, "latctl never attached"
        time.sleep(0.01)
    ring.write(text, deadline)
    ring.finish(0)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert out.read_bytes() == text
    assert f"{len(text)} bytes read; the writer finished with status 0, 0 bytes dropped" in err


def test_ring_timeout_keeps_what_was_read(c_binary, tmp_path: Path) -> None:
    ring = RingWriter(tmp_path / "shm", 256)
    ring.format()
    ring.write(b"H latmon_log=1\n", time.monotonic() + 5)  # and then nothing more
    out = tmp_path / "part.log"
    proc = subprocess.run(
        [str(c_binary("latctl")), "ring", "--file", str(tmp_path / "shm"), "-o", str(out),
         "--timeout", "1"],
        capture_output=True,
        text=True,
    )  # fmt: skip
    assert proc.returncode == 1
    assert out.read_text() == "H latmon_log=1\n"
    assert "the writer did not finish within 1 s" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "give --phys ADDR --size BYTES, or --file PATH"),
        (["--phys", "0x40400001", "--size", "4096"], "page-aligned"),
        (["--phys", "0x40400000", "--size", "16"], "--size 16"),
        (["--file", "x", "--size", "4096"], "exclude each other"),
        (["--timeout", "0", "--file", "x"], "--timeout 0"),
        (["--colour", "red"], "unknown option '--colour'"),
        (["--file"], "--file needs a value"),
    ],
)
def test_ring_usage_errors(c_binary, args: list[str], message: str) -> None:
    proc = subprocess.run([str(c_binary("latctl")), "ring", *args], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
