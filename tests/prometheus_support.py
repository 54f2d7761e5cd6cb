"""A real Prometheus server for the fleet tests: Debian's `prometheus`, started on a free localhost
port with a temporary TSDB and a 1 s scrape interval, queried through its HTTP API.

Not the systemd service: each test starts its own server and stops it.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

PROMETHEUS = "/usr/bin/prometheus"


def free_port() -> int:
    """A localhost TCP port nobody listens on now (bound once and released)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def require_prometheus() -> str:
    path = shutil.which("prometheus") or (PROMETHEUS if Path(PROMETHEUS).exists() else None)
    if path is None:
        pytest.fail(
            "prometheus is not installed; run 'make setup' (it installs Debian's prometheus)"
        )
    return path


class Prometheus:
    """One Prometheus process scraping `targets` (job name -> list of HOST:PORT) every second."""

    def __init__(
        self,
        workdir: Path,
        targets: dict[str, Sequence[str]],
        native_histograms: bool = False,
        scrape_interval: str = "1s",
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        workdir.mkdir(parents=True, exist_ok=True)
        jobs = [
            {
                "job_name": job,
                "scrape_interval": scrape_interval,
                "scrape_timeout": scrape_interval,
                "static_configs": [{"targets": list(addrs)}],
            }
            for job, addrs in targets.items()
        ]
        config = workdir / "prometheus.yml"
        # JSON is YAML: no YAML writer needed.
        config.write_text(
            json.dumps({"global": {"scrape_interval": scrape_interval}, "scrape_configs": jobs})
        )
        args = [
            require_prometheus(),
            f"--config.file={config}",
            f"--storage.tsdb.path={workdir / 'tsdb'}",
            f"--web.listen-address=127.0.0.1:{self.port}",
            "--storage.tsdb.retention.time=1h",
        ]
        if native_histograms:
            args.append("--enable-feature=native-histograms")
        self.log = (workdir / "prometheus.log").open("w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        self._wait_ready()

    def _wait_ready(self, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"prometheus exited with {self.proc.returncode}; see {self.log.name}"
                )
            try:
                with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise RuntimeError(
            f"prometheus did not become ready within {timeout} s; see {self.log.name}"
        )

    def wait_scraping(self, targets: int, timeout: float = 90.0) -> None:
        """Until the scrape loops of `targets` targets have run once (up or down): Prometheus
        applies a new target list only every 5 s, so an exporter that starts before this would
        go unscraped for its first seconds. The wait ends as soon as they have; its limit is
        generous because a loaded machine (synthesis beside the tests) once took over 30 s."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            active = self.api("targets", state="active")["activeTargets"]
            started = [t for t in active if not t["lastScrape"].startswith("0001-")]
            if len(started) >= targets:
                return
            time.sleep(0.2)
        raise RuntimeError(f"prometheus did not scrape {targets} targets within {timeout} s")

    def api(self, path: str, **params: str) -> Any:
        """GET /api/v1/PATH; the `data` member of a successful answer."""
        query = urllib.parse.urlencode(params)
        with urllib.request.urlopen(f"{self.url}/api/v1/{path}?{query}", timeout=10) as r:
            body = json.load(r)
        if body.get("status") != "success":
            raise RuntimeError(f"{path} {params}: {body}")
        return body["data"]

    def query(self, promql: str) -> list[dict[str, Any]]:
        """An instant query at the server's now: the vector's elements."""
        data = self.api("query", query=promql)
        assert data["resultType"] == "vector", data
        return list(data["result"])

    def scalar_by(self, promql: str, label: str) -> dict[str, float]:
        """An instant query's values keyed by one label."""
        return {e["metric"][label]: float(e["value"][1]) for e in self.query(promql)}

    def wait_until(
        self, promql: str, predicate: Any, timeout: float = 30.0
    ) -> list[dict[str, Any]]:
        """Poll an instant query until predicate(result) holds; the last result."""
        end = time.monotonic() + timeout
        result = self.query(promql)
        while not predicate(result) and time.monotonic() < end:
            time.sleep(0.5)
            result = self.query(promql)
        return result

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
