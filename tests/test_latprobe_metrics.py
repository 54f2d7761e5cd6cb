"""latprobe --metrics under attack: 1,000 malformed HTTP requests, slow senders (slowloris) and
four concurrent scrapers while it measures, then the final counts compared with its own log.

Nothing may be lost or double counted: every scrape is consistent (each histogram's +Inf bucket
equals its _count and latmon_samples_total) and never goes backwards, the final scrape equals the
log sample for sample, the exporter's own request counters equal the responses the clients
received, and latprobe exits 0.
"""

from __future__ import annotations

import contextlib
import http.client
import random
import re
import socket
import subprocess
import threading
import time
from collections import Counter

import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families

from latmon.inputs.readers.latmon_log import read_file

MALFORMED = 1000
SCRAPERS = 4
SLOW_SENDERS = 8


def malformed_request(rng: random.Random, port: int, i: int) -> bytes:
    """The i-th bad request: each kind of mistake a client or a scanner makes."""
    kinds = [
        b"GARBAGE\r\n\r\n",
        b"GET /metrics\r\n\r\n",  # no version
        b"GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n",
        b"BREW /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nX-Big: " + b"b" * 100000 + b"\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nno colon here\r\n\r\n",
        b"GET /met\x00rics HTTP/1.1\r\nHost: x\r\n\r\n",
        bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000))),
        b"GET /nothing-here HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"\r\n\r\n\r\n",
        b"GET /metrics HTTP/1.1\r\nHost: x\r\n",  # never finished: closed by the client
    ]
    return kinds[i % len(kinds)]


def status_of(reply: bytes) -> int | None:
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", reply)
    return int(m.group(1)) if m else None


class Scraper(threading.Thread):
    """Scrapes over one kept-alive connection, checks each answer, counts its 200s."""

    def __init__(self, port: int, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.stop = port, stop
        self.ok = 0
        self.errors: list[str] = []

    def run(self) -> None:
        last: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        while not self.stop.is_set():
            try:
                conn.request("GET", "/metrics")
                resp = conn.getresponse()
                body = resp.read().decode()
            except (OSError, http.client.HTTPException) as error:
                self.errors.append(f"scrape failed: {error!r}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                continue
            if resp.status != 200:
                self.errors.append(f"status {resp.status}")
                continue
            self.ok += 1
            self.check(body, last)
        conn.close()

    def check(self, body: str, last: dict) -> None:
        inf: dict[str, float] = {}
        count: dict[str, float] = {}
        total: dict[str, float] = {}
        for family in text_string_to_metric_families(body):
            if family.type not in ("counter", "histogram"):
                continue
            for s in family.samples:
                if family.name.startswith("latmon_exporter"):
                    continue
                key = (s.name, tuple(sorted(s.labels.items())))
                if key in last and s.value < last[key]:
                    self.errors.append(f"{key} went back from {last[key]} to {s.value}")
                last[key] = s.value
                cpu = s.labels.get("cpu", "")
                if s.name == "latmon_latency_seconds_bucket" and s.labels["le"] == "+Inf":
                    inf[cpu] = s.value
                elif s.name == "latmon_latency_seconds_count":
                    count[cpu] = s.value
                elif s.name == "latmon_samples_total":
                    total[cpu] = s.value
        if not (inf == count == total) or not inf:
            self.errors.append(f"inconsistent scrape: +Inf {inf}, _count {count}, samples {total}")


def scrape(port: int) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/metrics")
    resp = conn.getresponse()
    assert resp.status == 200
    body = resp.read().decode()
    conn.close()
    return body


def samples_of(body: str) -> dict[tuple[str, ...], float]:
    return {
        (s.name, *sorted(f"{k}={v}" for k, v in s.labels.items())): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


@pytest.fixture
def probe(c_binary, tmp_path):
    log, err = tmp_path / "run.log", tmp_path / "run.err"
    proc = subprocess.Popen(
        [
            str(c_binary("latprobe")),
            *("--policy", "other", "--no-mlock", "-i", "1ms", "-D", "6s", "-o", str(log)),
            *("--metrics", "127.0.0.1:0", "--metrics-linger", "120s", "--deadline", "100us"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=err.open("w"),
    )
    end = time.monotonic() + 20
    port = None
    while port is None and time.monotonic() < end:
        m = re.search(r"metrics at http://127\.0\.0\.1:(\d+)/", err.read_text())
        port = int(m.group(1)) if m else None
        time.sleep(0.05)
    assert port, err.read_text()
    yield proc, port, log, err
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_malformed_and_concurrent_scrapes_lose_no_count(probe) -> None:
    proc, port, log, err = probe
    rng = random.Random(19)
    stop = threading.Event()
    scrapers = [Scraper(port, stop) for _ in range(SCRAPERS)]
    for s in scrapers:
        s.start()
    # slowloris: a request trickled a byte at a time must be cut off (408 or closed)
    slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(SLOW_SENDERS)]
    slow_started = time.monotonic()
    replies: Counter[int | None] = Counter()
    for i in range(MALFORMED):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            try:
                s.sendall(malformed_request(rng, port, i))
                s.shutdown(socket.SHUT_WR)
            except OSError:
                pass  # the server already answered and closed: read what it said
            reply = b""
            try:
                while chunk := s.recv(65536):
                    reply += chunk
            except ConnectionResetError:
                pass
        code = status_of(reply)
        assert code != 200, (
            f"request {i} was answered 200: {malformed_request(rng, port, i)[:80]!r}"
        )
        replies[code] += 1
        if i % 100 == 0:
            for c in slow:
                with contextlib.suppress(OSError):
                    c.send(b"G")
    # every slow sender is cut off within the request deadline (5 s) plus a margin
    for c in slow:
        c.settimeout(max(1.0, 15 - (time.monotonic() - slow_started)))
        try:
            reply = c.recv(4096)
        except (TimeoutError, ConnectionResetError):
            reply = b"timeout"
        assert reply == b"" or status_of(reply) == 408, reply[:100]
        c.close()
    # the measurement ends while the scrapers keep going
    end = time.monotonic() + 60
    while "serving the final metrics" not in err.read_text() and time.monotonic() < end:
        time.sleep(0.2)
    stop.set()
    for s in scrapers:
        s.join(timeout=30)
        assert not s.errors, s.errors[:5]
        assert s.ok > 0
    final = samples_of(scrape(port))

    # the final counts equal latprobe's own log, sample for sample
    (run,) = read_file(log)
    for series in run.series:
        if not series.name.startswith("cpu") or "." in series.name:
            continue
        lat = series.latency
        key = [
            k for k in final if k[0] == "latmon_samples_total" and f"cpu={series.meta['cpu']}" in k
        ]
        assert len(key) == 1, key
        assert final[key[0]] == len(lat)
        viol = [
            k for k in final if k[0] == "latmon_deadline_violations_total" and key[0][1:] == k[1:]
        ]
        assert final[viol[0]] == np.count_nonzero(lat > 100_000)
        for k, v in final.items():
            if k[0] == "latmon_latency_seconds_bucket" and set(key[0][1:]) <= set(k[1:]):
                le = next(x for x in k if x.startswith("le="))[3:]
                want = len(lat) if le == "+Inf" else np.count_nonzero(lat <= round(float(le) * 1e9))
                assert v == want, (k, v, want)
    # the exporter's own counters equal what the clients received
    ours = {
        int(k[1].removeprefix("code=")): v
        for k, v in final.items()
        if k[0] == "latmon_exporter_requests_total"
    }
    scrapes_ok = sum(s.ok for s in scrapers)
    assert ours[200] == scrapes_ok, (ours, scrapes_ok)
    for code, n in replies.items():
        if code is not None:
            assert ours[code] >= n, (code, ours, replies)
    assert sum(n for code, n in replies.items() if code is not None) >= MALFORMED * 0.8, replies
    print(f"replies to {MALFORMED} malformed requests: {dict(replies)}; {scrapes_ok} scrapes")
    proc.terminate()
    assert proc.wait(timeout=20) == 0, err.read_text()
