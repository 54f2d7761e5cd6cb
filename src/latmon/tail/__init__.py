"""Probabilistic worst case: extreme-value analysis of a latency tail (docs/tail.md).

A maximum observed in n samples says nothing about one event in 10⁹. Measurement-based
probabilistic timing analysis fits an extreme-value model to the tail and reports the latency
exceeded with a stated probability per activation (the pWCET) — but only for samples that are
fit for it. This package does both, in this order:

1. **Validity checks** on the series in time order, one family at significance ``alpha``
   (Bonferroni: each of the four tests at ``alpha / 4``, so perfectly i.i.d. data are refused
   at most ``alpha`` of the time):

   - independence: Ljung–Box on the autocorrelations (statsmodels) and the Wald–Wolfowitz runs
     test above/below the median;
   - identical distribution: KPSS level stationarity (statsmodels) and the two-sample
     Kolmogorov–Smirnov test between the first and the second half;
   - enough exceedances above the selected threshold (and blocks for the block maxima);
   - the sign of the shape parameter ξ: a tail shown to be heavy (the ξ confidence interval
     lies above 0) has no upper bound and its quantiles grow as a power of 1/p; no number is
     given for it.

2. **Two fits** by maximum likelihood:

   - peaks over threshold (POT): the excesses over a threshold u follow a generalised Pareto
     distribution GPD(σ, ξ); u is chosen among high quantiles as the lowest one whose ξ agrees
     with the ξ at every higher candidate (parameter stability, automated); the pWCET at p is
     x_p = u + σ/ξ ((ζ/p)^ξ - 1), ζ the fraction of samples above u;
   - block maxima: the maxima of blocks of b samples follow a GEV(μ, σ, ξ); the pWCET at p per
     activation is the GEV quantile at (1 - p)^b.

   Confidence intervals of ξ and of every quantile are **profile likelihood** intervals (Coles
   2001, §2.6.6, §4.3.3), which are not symmetric and follow the likelihood far into the tail,
   where the normal (delta-method) interval is known to be poor. The exceedance rate ζ is taken
   as known (its binomial error is small against the shape's).

Samples must be in time order: a histogram has no order, so histogram-only series get no
pWCET (a reason says so).

The package, in the order of the analysis: ``base`` (settings, a check, a quantile),
``checks`` (the i.i.d. checks), ``threshold`` (the POT threshold and its pool), ``gpd`` and
``gev`` (the two models), ``fitchecks`` (the checks of a fitted model), ``analysis`` (both
fits of one series with their checks) and ``result`` (what it gives); then what
shows the result: ``tables``, ``plotting`` (matplotlib), ``interactive`` (Plotly) and ``report``
(the report's section). This module names the analysis' public API.
"""

from __future__ import annotations

from latmon.tail.analysis import (
    SCREEN,
    analyse_series,
    analyse_tail,
    fit_tail,
    quantisation_of,
    time_ordered,
)
from latmon.tail.base import (
    ALPHA,
    CONFIDENCE,
    EXCEEDANCES_PER_ROOT,
    HEAVY_LEVEL,
    MIN_EXCEEDANCES,
    PROBABILITIES,
    Check,
    Quantile,
)
from latmon.tail.checks import (
    half_counts,
    iid_checks,
    kpss_level,
    ljung_box,
    runs_test,
    value_counts,
)
from latmon.tail.gev import GevFit, block_maxima, fit_gev, gev_quantile
from latmon.tail.gpd import GpdFit, data_tick, fit_gpd, fit_pot, gpd_quantile
from latmon.tail.result import MethodResult, TailAnalysis
from latmon.tail.threshold import (
    StabilityPoint,
    mean_residual_life,
    select_threshold,
    stability,
    tail_pool,
)

__all__ = [
    "ALPHA",
    "CONFIDENCE",
    "EXCEEDANCES_PER_ROOT",
    "HEAVY_LEVEL",
    "MIN_EXCEEDANCES",
    "PROBABILITIES",
    "SCREEN",
    "Check",
    "GevFit",
    "GpdFit",
    "MethodResult",
    "Quantile",
    "StabilityPoint",
    "TailAnalysis",
    "analyse_series",
    "analyse_tail",
    "block_maxima",
    "data_tick",
    "fit_gev",
    "fit_gpd",
    "fit_pot",
    "fit_tail",
    "gev_quantile",
    "gpd_quantile",
    "half_counts",
    "iid_checks",
    "kpss_level",
    "ljung_box",
    "mean_residual_life",
    "quantisation_of",
    "runs_test",
    "select_threshold",
    "stability",
    "tail_pool",
    "time_ordered",
    "value_counts",
]
