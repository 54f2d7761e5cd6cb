"""latmon.tail.interactive: the report's interactive tail figure draws the measured curve
(thinned, the maximum kept), the fit's own extrapolated quantiles with their band, the pWCETs
and the diagnostics, in the unit of the figure; the deadline never stretches the axis."""

from __future__ import annotations

import json

import numpy as np
import pytest
from synthetic_tails import MODELS, ar1

from latmon import tail
from latmon.figures.plotly_style import spec_json
from latmon.tail.curve import CURVE_POINTS, LOWEST_PROBABILITY, extrapolated
from latmon.tail.interactive import measured_curve, tail_figure


def _decoded(value: object) -> np.ndarray:
    """A plotly array: a list, or a typed array {dtype, bdata} (base64)."""
    if isinstance(value, dict):
        import base64

        return np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    return np.asarray(value, dtype=np.float64)


@pytest.fixture(scope="module")
def analysis() -> tuple[np.ndarray, tail.TailAnalysis]:
    x = MODELS["exponential"].draw(np.random.default_rng(21), 20_000)
    a = tail.analyse_tail(x, block=len(x))  # POT only: keeps the test short
    assert a.pot is not None and a.pot.valid
    return x, a


def _traces(fig: object) -> dict[str, dict]:
    spec = json.loads(spec_json(fig))  # type: ignore[arg-type]
    return {t.get("name", ""): t for t in spec["data"]}, spec["layout"]


def test_measured_curve_is_thinned_and_keeps_the_top(analysis) -> None:
    x, _ = analysis
    xs, above, n = measured_curve(x)
    distinct = np.unique(x)
    assert n == len(x) and len(xs) == 2 * CURVE_POINTS < len(distinct)
    assert np.array_equal(xs[-CURVE_POINTS:], distinct[-CURVE_POINTS:])
    assert xs[-1] == x.max() and above[-1] == 0
    for v, p in zip(xs[::97], above[::97], strict=True):
        assert p == np.count_nonzero(x > v) / len(x)


def test_figure_draws_the_fit_band_and_pwcets_in_its_unit(analysis) -> None:
    x, a = analysis
    assert a.pot is not None and isinstance(a.pot.fit, tail.GpdFit)
    fig = tail_figure(x, a, 1.0, "cpu0", deadline_ns=60_000)
    assert fig is not None
    traces, layout = _traces(fig)
    assert layout["xaxis"]["title"]["text"] == "latency (µs)"  # tens of µs
    measured = next(t for name, t in traces.items() if name.startswith("measured"))
    mx = _decoded(measured["x"])
    assert mx[-1] == pytest.approx(x.max() / 1000)
    fitted = next(t for name, t in traces.items() if name.endswith("fit, extrapolated"))
    px, py = _decoded(fitted["x"]), _decoded(fitted["y"])
    quantiles = extrapolated(a.pot)
    assert py.tolist() == pytest.approx([q.probability for q in quantiles])
    assert px.tolist() == pytest.approx([q.estimate / 1000 for q in quantiles])
    assert py[-1] == pytest.approx(LOWEST_PROBABILITY)
    band = next(t for name, t in traces.items() if "band" in name)
    assert len(_decoded(band["x"])) == 2 * len(quantiles)
    pwcet = traces["pWCET"]
    assert _decoded(pwcet["x"]).tolist() == pytest.approx(
        [q.estimate / 1000 for q in a.pot.quantiles]
    )
    # the diagnostics below: mean residual life and ξ per threshold
    assert traces["mean excess"]["xaxis"] == "x2" and traces["ξ"]["xaxis"] == "x3"
    # a deadline near the tail is a line on the top plot
    shapes = [s for s in layout.get("shapes", []) if s.get("label", {}).get("text")]
    assert any("deadline 60 µs" in s["label"]["text"] for s in shapes)


def test_a_far_deadline_is_a_note_not_an_axis(analysis) -> None:
    x, a = analysis
    fig = tail_figure(x, a, 1.0, "cpu0", deadline_ns=3_000_000)
    assert fig is not None
    _, layout = _traces(fig)
    notes = [n["text"] for n in layout.get("annotations", [])]
    assert any("deadline 3 ms" in n and "times the largest value" in n for n in notes)
    assert not any(
        "deadline" in s.get("label", {}).get("text", "") for s in layout.get("shapes", [])
    )


def test_no_figure_without_a_pwcet() -> None:
    x = ar1(np.random.default_rng(22), 3000, 0.4)
    a = tail.analyse_tail(x)
    assert tail_figure(x, a, 1.0, "cpu0") is None
