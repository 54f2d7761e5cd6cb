"""docs/grafana/latmon-fleet.json against Grafana's own schema types (grafana-foundation-sdk):
every key the dashboard sets must survive decoding into the typed models and encoding back (a
key the schema does not know, a misspelt option, a wrong panel type would be dropped or fail).
Its PromQL is run against a real Prometheus in tests/test_fleet_prometheus.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from grafana_foundation_sdk.cog import plugins
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models import heatmap, prometheus, timeseries
from grafana_foundation_sdk.models.dashboard import Dashboard

DASHBOARD = Path(__file__).resolve().parent.parent / "docs" / "grafana" / "latmon-fleet.json"


def lost_keys(given: Any, kept: Any, path: str = "") -> list[str]:
    """Paths in ``given`` that ``kept`` lacks or holds with another value."""
    if isinstance(given, dict):
        if not isinstance(kept, dict):
            return [path]
        return [
            p
            for k, v in given.items()
            for p in ([f"{path}/{k}"] if k not in kept else lost_keys(v, kept[k], f"{path}/{k}"))
        ]
    if isinstance(given, list):
        if not isinstance(kept, list) or len(given) != len(kept):
            return [path]
        return [
            p
            for i, (a, b) in enumerate(zip(given, kept, strict=True))
            for p in lost_keys(a, b, f"{path}[{i}]")
        ]
    return [] if given == kept else [f"{path}: {given!r} != {kept!r}"]


def test_dashboard_matches_grafana_schema() -> None:
    plugins.register_default_plugins()
    raw = json.loads(DASHBOARD.read_text())
    dashboard = Dashboard.from_json(raw)
    again = json.loads(json.dumps(dashboard, cls=JSONEncoder))
    assert lost_keys(raw, again) == []
    assert dashboard.panels
    kinds = {type(p.options) for p in dashboard.panels}  # type: ignore[union-attr]
    assert kinds == {heatmap.Options, timeseries.Options}
    for panel in dashboard.panels:
        assert panel.targets, panel.title  # type: ignore[union-attr]
        for t in panel.targets:  # type: ignore[union-attr]
            assert isinstance(t, prometheus.Dataquery) and t.expr


def test_dashboard_covers_the_issue() -> None:
    """A latency heatmap, p99 and p99.9 per host, deadline violations."""
    raw = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in raw["panels"] for t in p["targets"]]
    assert any(p["type"] == "heatmap" for p in raw["panels"])
    assert any("histogram_quantile(0.99," in e and "by (host, le)" in e for e in exprs)
    assert any("histogram_quantile(0.999," in e for e in exprs)
    assert any("latmon_deadline_violations_total" in e for e in exprs)
