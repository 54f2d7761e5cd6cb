"""The analysis of one series in the order it runs (docs/tail.md; see latmon.tail): the i.i.d.
checks, the pool of the largest values, the POT fit with its threshold and the heavy-tail and
mixture screen, the block-maxima fit, the checks of each fit (:mod:`.fitchecks`); the result
types are :mod:`.result`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from latmon.errors import LatmonError
from latmon.model import Series
from latmon.tables import fmt
from latmon.tail import probability
from latmon.tail.base import (
    ALPHA,
    CONFIDENCE,
    EXCEEDANCES_PER_ROOT,
    MIN_BLOCKS,
    MIN_DISTINCT,
    MIN_EXCEEDANCES,
    PROBABILITIES,
    SCREEN_PER_ROOT,
    STABILITY_CONFIDENCE,
    Check,
    quiet,
)
from latmon.tail.checks import HalfCounts, iid_checks, streamed_iid_checks
from latmon.tail.fitchecks import Grid, count_check, held_out_check, shape_check
from latmon.tail.gev import GevFit, default_block_size, fit_gev
from latmon.tail.gpd import QUANTISATION, GpdFit, data_tick, fit_pot
from latmon.tail.result import MethodResult, TailAnalysis
from latmon.tail.source import Digest, Samples
from latmon.tail.threshold import (
    StabilityPoint,
    mean_residual_life,
    select_threshold,
    stability,
)


@quiet
def analyse_tail(
    values: np.ndarray | Digest,
    probabilities: Sequence[float] = PROBABILITIES,
    alpha: float = ALPHA,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    unit: str = "",
    resolution: int = 1,
    quantisation: str = "round",
) -> TailAnalysis:
    """Checks, then (when they pass) the POT and block-maxima fits of samples in time order.

    ``threshold`` fixes the POT threshold (a value in the samples' unit) instead of the
    automatic choice; ``block`` fixes the block size; ``unit`` names the samples' unit in the
    checks' details; ``resolution`` is the run's recorded resolution and ``quantisation`` how
    a recorded value stands for the true latency (:data:`QUANTISATION`)."""
    src = values if isinstance(values, Digest) else Samples(values)
    n = src.n
    probs = tuple(sorted(set(probabilities), reverse=True))
    min_n = math.ceil((min_exceedances / EXCEEDANCES_PER_ROOT) ** 2)
    result = TailAnalysis(n, None, [], alpha=alpha, confidence=confidence, probabilities=probs)
    if n < min_n:
        result.unavailable = (
            f"{n:,} samples: too few for an extreme-value analysis (at least {min_n:,} give "
            f"{min_exceedances} exceedances; see latmon plan)"
        )
        return result
    result.sample_max = src.maximum()
    counts: HalfCounts | None
    if isinstance(src, Digest):
        median: float | None = src.middle()
        # the serial sums' pass counts the halves too
        result.checks = streamed_iid_checks(
            n,
            src.low == src.high,
            src.mean(),
            src.middle(),
            src.counts,
            (src.half_max("first"), src.half_max("second")),
            src.batches,
            alpha,
            unit,
            src.serial_sums(),
        )
        counts = src.counts()
    else:
        counts = src.counts()
        median = counts.median() if counts is not None else None
        result.checks = iid_checks(src.values, alpha, unit, counts)
    if not result.iid:
        return result
    result.pot, result.gev, result.stability = fit_tail(
        src,
        probs,
        confidence,
        threshold,
        block,
        min_exceedances,
        resolution=resolution,
        quantisation=quantisation,
        unit=unit,
    )
    exact = counts.values() if counts is not None and counts.width == 1 else None
    if isinstance(src, Samples):
        result.mean_excess = mean_residual_life(
            src.values, confidence=confidence, median=median, distinct=exact
        )
    else:
        result.mean_excess = mean_residual_life(
            None,
            confidence=confidence,
            median=median,
            distinct=exact,
            n=n,
            batches=src.batches,
            top=src.top(10),
        )
    return result


@quiet
def fit_tail(
    values: np.ndarray | Samples | Digest,
    probabilities: Sequence[float] = PROBABILITIES,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    resolution: int = 1,
    quantisation: str = "round",
    unit: str = "",
    held_out: bool = True,
) -> tuple[MethodResult, MethodResult, list[StabilityPoint]]:
    """The POT and block-maxima fits with their own checks (exceedances, blocks, shape, the
    held-out check) and pWCETs, and the threshold-stability points — without the i.i.d.
    checks (which :func:`analyse_tail` runs first).

    The grid of the samples is found in the largest values (:func:`data_tick`, at least the
    recorded ``resolution``): POT fits it by the interval-censored likelihood, block maxima
    take each maximum at the middle of its cell. A tail that POT shows heavy gets no number
    from block maxima either (POT sees √n times more of the tail)."""
    src = values if isinstance(values, Samples | Digest) else Samples(values)
    probs = tuple(sorted(set(probabilities), reverse=True))
    if quantisation not in QUANTISATION:
        raise LatmonError(f"quantisation must be one of {', '.join(QUANTISATION)}")
    n = src.n
    # POT sees only the largest values (sorted): every candidate threshold's exceedances, and
    # the screen's, are among them
    pool = src.top(screen_size(n) + 1)
    if threshold is not None and (len(pool) == 0 or threshold < float(pool.min())):
        if not isinstance(src, Samples):
            raise LatmonError("a threshold below the largest values needs the series in memory")
        pool = src.values[src.values > threshold]
    tick = float(data_tick(pool, resolution))
    grid = Grid(tick, quantisation, resolution)
    points = stability(pool, min_exceedances, tick, quantisation, n)
    pot = _pot(pool, n, points, probs, confidence, threshold, min_exceedances, grid)
    if isinstance(pot.fit, GpdFit):
        screen = tail_screen(pool, n, pot.fit, grid)
        if screen is not None:
            pot.checks.append(screen)
            if not screen.passed:
                pot.quantiles = []
    gev = _block_maxima(src, probs, confidence, block, grid)
    if held_out:
        for method in (pot, gev):
            if method.valid and isinstance(method.fit, GpdFit | GevFit):
                check = held_out_check(method.fit, src, min_exceedances, grid, unit)
                method.checks.append(check)
                if not check.passed:
                    method.quantiles = []
    heavy = next((c for c in pot.checks if c.name in ("shape", SCREEN) and not c.passed), None)
    if heavy is not None and gev.fit is not None:
        what = "a heavy tail" if heavy.name == "shape" else "a heavy tail or a mixture"
        gev.checks.append(
            Check("shape (POT)", False, f"the peaks over threshold show {what}: " + heavy.detail)
        )
        gev.quantiles = []
    return pot, gev, points


SCREEN = "heavy tail or mixture"


def screen_size(n: int) -> int:
    """How many of the largest samples the heavy-tail and mixture screen fits."""
    return min(n - 1, round(SCREEN_PER_ROOT * math.sqrt(n))) if n > 1 else 0


def tail_screen(pool: np.ndarray, n: int, fit: GpdFit, grid: Grid) -> Check | None:
    """The heavy-tail and mixture screen: a GPD fitted to the :func:`screen_size` largest
    samples (``pool`` holds them), whose light-tail test (:func:`shape_check`) must pass too.
    It sees twice the exceedances of the lowest candidate threshold, so it has the power to
    refuse a heavy tail that the fit's own threshold cannot tell from a light one; a tail
    heavy there but light above the fit's threshold is a mixture — a rarer, slower path whose
    samples first appear among the largest (TailID, Manau et al., ECRTS 2025, finds such
    mixtures by the same change of ξ): the fit then rests on the slow path's few samples alone,
    and the pWCET is refused. None when the screen's threshold is the fit's own (small
    series)."""
    k = screen_size(n)
    if k <= fit.exceedances or len(pool) <= k:
        return None
    u = float(np.partition(pool, len(pool) - k - 1)[len(pool) - k - 1])
    if u >= fit.threshold:
        return None
    wide = fit_pot(pool, u, fit.confidence, grid.tick, grid.quantisation, n)
    if wide is None:
        return None
    shape = shape_check(wide.xi, wide.xi_ci, fit.confidence, wide.nll, wide.light_nll)
    text = (
        f"the {wide.exceedances:,} samples above {fmt(u)}: ξ = {wide.xi:+.3f}, "
        f"{fit.confidence:.0%} interval [{wide.xi_ci[0]:+.3f}, {wide.xi_ci[1]:+.3f}]"
    )
    if shape.passed:
        return Check(
            SCREEN, True, text + ": light or bounded", shape.statistic, shape.p_value, shape.level
        )
    # nested estimates (select_threshold): does the fit's ξ agree with the screen's?
    c = max(1.0, 1.0 + wide.xi) ** 2
    spread = math.sqrt(max(c * (1 / fit.exceedances - 1 / wide.exceedances), 1e-12))
    z = probability.norm_ppf(1 - (1 - STABILITY_CONFIDENCE) / 2)
    if wide.xi - fit.xi > z * spread:
        text += (
            f", against ξ = {fit.xi:+.3f} above the fit's threshold {fmt(fit.threshold)}: the "
            "tail changes shape between the two, a mixture — a rarer, slower path whose few "
            "samples the fit rests on alone; no pWCET (record more samples, or analyse the "
            "slow path's activations apart)"
        )
    else:
        text += (
            ": a heavy tail (a light one, ξ ≤ 0, is rejected): the latency has no upper bound "
            "in this model and its quantiles grow as a power of 1/p"
        )
    return Check(SCREEN, False, text, shape.statistic, shape.p_value, shape.level)


def _pot(
    x: np.ndarray,
    n: int,
    points: list[StabilityPoint],
    probs: tuple[float, ...],
    confidence: float,
    threshold: float | None,
    min_exceedances: int,
    grid: Grid,
) -> MethodResult:
    method = "POT/GPD"
    if threshold is None:
        if not points:
            check = Check(
                "exceedances",
                False,
                f"no threshold has {min_exceedances} samples with {MIN_DISTINCT} distinct "
                f"values above it ({grid.text()}): too few distinct values in the tail to fit "
                "its shape; record with a finer resolution or more samples",
            )
            return MethodResult(method, None, [check], [])
        chosen = select_threshold(points)
        threshold = points[chosen].threshold
        choice = Check("threshold", True, _threshold_choice(points, chosen))
        # the stability point fitted the same excesses (stability: the same pool and grid)
        point = points[chosen]
        fitted: tuple[float, float, float] | None = (point.sigma, point.xi, point.nll)
    else:
        choice = Check("threshold", True, "given (--threshold)")
        fitted = None
    fit = fit_pot(x, threshold, confidence, grid.tick, grid.quantisation, n, fitted)
    above = x[x > threshold]
    checks = [
        choice,
        Check("resolution", True, grid.text() + " (interval-censored likelihood)")
        if grid.tick > 0
        else Check("resolution", True, "continuous values"),
        count_check("exceedances", len(above), min_exceedances, "samples above the threshold"),
    ]
    distinct = len(np.unique(above))
    if distinct < MIN_DISTINCT:
        checks.append(
            count_check(
                "distinct exceedances",
                distinct,
                MIN_DISTINCT,
                f"distinct values above the threshold ({grid.text()})",
            )
        )
    if fit is None:
        return MethodResult(method, None, checks, [])
    checks.append(shape_check(fit.xi, fit.xi_ci, confidence, fit.nll, fit.light_nll))
    bad = [p for p in probs if p > fit.rate]
    if bad:
        checks.append(
            Check(
                "probability",
                False,
                f"p = {bad[0]:g} is not beyond the threshold's exceedance rate {fit.rate:.3g}: "
                "read it from the samples (latmon stats)",
            )
        )
    result = MethodResult(method, fit, checks, [])
    if result.valid:
        _quantiles(result, fit, probs)
    return result


def _quantiles(result: MethodResult, fit: GpdFit | GevFit, probs: tuple[float, ...]) -> None:
    """The pWCETs of a valid method, and a note when an upper end is the light tail's
    (:func:`_light_bound`)."""
    result.quantiles = [fit.quantile_ci(p) for p in probs]
    if any(q.light_bound for q in result.quantiles):
        model = "exponential tail" if isinstance(fit, GpdFit) else "Gumbel (ξ = 0) fit"
        result.checks.append(
            Check(
                "light-tail bound",
                True,
                f"ξ = {fit.xi:+.3f} [{fit.xi_ci[0]:+.3f}, {fit.xi_ci[1]:+.3f}] says bounded, "
                "but a light unbounded tail (Weibull, normal, gamma) looks bounded at every "
                f"threshold a series reaches: the upper end of the interval is the {model}'s "
                "quantile where it lies higher",
            )
        )


def _threshold_choice(points: Sequence[StabilityPoint], chosen: int) -> str:
    """How the automatic threshold was chosen, in one line."""
    first = f"{len(points)} candidates from {points[0].exceedances:,} down to "
    first += f"{points[-1].exceedances:,} exceedances"
    if chosen == 0:
        return (
            f"the lowest of {first}: its ξ agrees with ξ at every higher one "
            f"({STABILITY_CONFIDENCE:.0%} family)"
        )
    return (
        f"candidate {chosen + 1} of {first}: ξ at the {chosen} lower one(s) disagrees with ξ "
        "higher up (the tail is not yet generalised Pareto there; see the stability plot)"
    )


def _block_maxima(
    src: Samples | Digest,
    probs: tuple[float, ...],
    confidence: float,
    block: int | None,
    grid: Grid,
) -> MethodResult:
    method = "block maxima/GEV"
    b = block or default_block_size(src.n)
    maxima = src.maxima(b)
    checks = [count_check("blocks", len(maxima), MIN_BLOCKS, f"blocks of {b:,} samples")]
    if len(maxima) < MIN_BLOCKS or len(np.unique(maxima)) < MIN_DISTINCT:
        if len(maxima) >= MIN_BLOCKS:
            checks.append(
                Check("distinct maxima", False, f"{len(np.unique(maxima))} distinct block maxima")
            )
        return MethodResult(method, None, checks, [])
    # on a grid, each maximum at the middle of the cell it stands for
    fit = fit_gev(maxima + grid.midpoint_shift(), b, confidence)
    checks.append(shape_check(fit.xi, fit.xi_ci, confidence, fit.nll, fit.light_nll))
    result = MethodResult(method, fit, checks, [])
    if result.valid:
        _quantiles(result, fit, probs)
    return result


def time_ordered(series: Series) -> np.ndarray | None:
    """The series' samples in time order (sorted by its time column ``t`` when it has one and
    that column is not already in order), or None for a histogram-only series."""
    if not series.has_samples:
        return None
    latency = series.latency
    t = series.columns.get("t")
    if t is not None and len(t) > 1 and bool(np.any(np.diff(t) < 0)):
        return np.asarray(latency[np.argsort(t, kind="stable")])
    return latency


def analyse_series(
    series: Series,
    probabilities: Sequence[float] = PROBABILITIES,
    alpha: float = ALPHA,
    confidence: float = CONFIDENCE,
    threshold: float | None = None,
    block: int | None = None,
    min_exceedances: int = MIN_EXCEEDANCES,
    quantisation: str = "round",
    digest: Digest | None = None,
) -> TailAnalysis:
    """:func:`analyse_tail` of a series in time order (on the series' recorded resolution, its
    values standing for their cells as ``quantisation`` says); a histogram-only series gets a
    reason instead. ``digest``: the series streamed from its file (its samples not in
    memory), analysed from that."""
    values: np.ndarray | Digest | None = digest if digest is not None else time_ordered(series)
    if values is None:
        kind = "a histogram only" if series.histogram is not None else "no samples"
        return TailAnalysis(
            0,
            f"{kind}: an extreme-value analysis needs the samples in time order (for the "
            "independence and stationarity checks and the block maxima); record samples "
            "(e.g. latprobe without --hist, latctl read) to get a pWCET",
            [],
            alpha=alpha,
            confidence=confidence,
            probabilities=tuple(sorted(set(probabilities), reverse=True)),
        )
    return analyse_tail(
        values,
        probabilities,
        alpha,
        confidence,
        threshold,
        block,
        min_exceedances,
        series.unit,
        series.resolution,
        quantisation,
    )


def quantisation_of(meta: dict[str, str]) -> str:
    """How a run's tool turns a latency into the value it records (:data:`QUANTISATION`):
    cyclictest truncates (its µs are ns divided by 1000); every other source is taken as
    rounding to its grid (a cycle counter's count is the elapsed time to within a cycle)."""
    return "floor" if meta.get("source") == "cyclictest" else "round"
