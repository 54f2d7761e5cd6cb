"""The tail figures' curves, shared by the interactive figure (latmon.tail.interactive) and
the static one (latmon.tail.plotting, matplotlib): where the extrapolated curve is drawn and from
which quantiles. Without matplotlib, so that a report imports it only for --figures."""

from __future__ import annotations

import math

from latmon.tail.base import Quantile
from latmon.tail.gev import GevFit
from latmon.tail.gpd import GpdFit
from latmon.tail.result import MethodResult

#: The extrapolated curve is drawn down to this probability per activation.
LOWEST_PROBABILITY = 1e-12
#: The measured curve: its top values all drawn, the body below them thinned to as many.
CURVE_POINTS = 2000


def band_probabilities(start: float) -> list[float]:
    """Probabilities at which the band is computed: every decade below ``start`` down to
    LOWEST_PROBABILITY (exact powers of ten, so that 1e-6 is the pWCET's own 1e-6)."""
    exponent = math.floor(math.log10(start))
    if 10.0**exponent >= start:
        exponent -= 1
    lowest = round(math.log10(LOWEST_PROBABILITY))
    return [10.0**k for k in range(exponent, lowest - 1, -1)]


def extrapolated(method: MethodResult) -> list[Quantile]:
    """The fit's quantiles with their intervals from where it starts to speak for the samples
    (POT: the threshold, exceeded by the fraction ζ; block maxima: one in a block) down to
    LOWEST_PROBABILITY, one per decade. The pWCETs the method already has (the same
    intervals of the same fit) are reused: each profile interval costs tens of likelihood
    maximisations, and the figure is part of every report."""
    fit = method.fit
    known = {q.probability: q for q in method.quantiles}

    def interval(p: float) -> Quantile:
        assert fit is not None
        return known[p] if p in known else fit.quantile_ci(p)

    if isinstance(fit, GpdFit):
        at_threshold = Quantile(fit.rate, fit.threshold, fit.threshold, fit.threshold)
        return [at_threshold, *(interval(p) for p in band_probabilities(fit.rate))]
    if isinstance(fit, GevFit):
        return [interval(p) for p in band_probabilities(1.0 / fit.block)]
    return []
