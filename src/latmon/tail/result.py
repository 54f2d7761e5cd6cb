"""What the tail analysis of one series gives (docs/tail.md): each method's fit with its checks
and pWCETs (:class:`MethodResult`), and everything ``latmon tail`` says about the series
(:class:`TailAnalysis`), in the series' unit; :mod:`latmon.tail.analysis` fills them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from latmon.tail.base import ALPHA, CONFIDENCE, PROBABILITIES, Check, Quantile
from latmon.tail.gev import GevFit
from latmon.tail.gpd import GpdFit
from latmon.tail.threshold import MeanExcess, StabilityPoint


@dataclass
class MethodResult:
    """One method's fit (POT or block maxima), its own checks and its pWCETs (none when a
    check failed)."""

    method: str
    fit: GpdFit | GevFit | None
    checks: list[Check]
    quantiles: list[Quantile]

    @property
    def valid(self) -> bool:
        return self.fit is not None and all(c.passed for c in self.checks)

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        out: dict[str, object] = {"method": self.method, "valid": self.valid}
        fit = self.fit
        if isinstance(fit, GpdFit):
            out.update(
                threshold=fit.threshold * factor,
                exceedances=fit.exceedances,
                rate=fit.rate,
                scale=fit.sigma * factor,
                shape=fit.xi,
                shape_ci=list(fit.xi_ci),
            )
        elif isinstance(fit, GevFit):
            out.update(
                block=fit.block,
                blocks=fit.blocks,
                location=fit.mu * factor,
                scale=fit.sigma * factor,
                shape=fit.xi,
                shape_ci=list(fit.xi_ci),
            )
        out["checks"] = [c.as_dict() for c in self.checks]
        out["pwcet"] = [q.as_dict(factor, deadline) for q in self.quantiles]
        return out


@dataclass
class TailAnalysis:
    """Everything ``latmon tail`` says about one series, in the series' unit."""

    n: int
    #: Why nothing could be analysed at all (histogram only, too few samples), else None.
    unavailable: str | None
    checks: list[Check]
    pot: MethodResult | None = None
    gev: MethodResult | None = None
    stability: list[StabilityPoint] = field(default_factory=list)
    mean_excess: MeanExcess | None = None
    alpha: float = ALPHA
    confidence: float = CONFIDENCE
    probabilities: tuple[float, ...] = PROBABILITIES
    #: The empirical exceedance curve: sorted values and P(X > value) (for plots).
    sample_max: float = math.nan

    @property
    def iid(self) -> bool:
        return self.unavailable is None and all(c.passed for c in self.checks)

    @property
    def valid(self) -> bool:
        """At least one method gives a pWCET."""
        return any(m is not None and m.valid for m in (self.pot, self.gev))

    def reasons(self) -> list[str]:
        """Why no pWCET (or a method's pWCET) is given: one line each."""
        if self.unavailable is not None:
            return [self.unavailable]
        out = [
            f"{c.name}: p = {_p(c.p_value)} < {c.level:g}: {c.detail}"
            if c.level is not None
            else f"{c.name}: {c.detail}"
            for c in self.checks
            if not c.passed
        ]
        if out:
            return out
        for m in (self.pot, self.gev):
            if m is None:
                continue
            out += [f"{m.method}: {c.name}: {c.detail}" for c in m.checks if not c.passed]
        return out

    def as_dict(self, factor: float = 1.0, deadline: float | None = None) -> dict[str, object]:
        """JSON: values times ``factor``; ``deadline`` (in the series' unit) adds a verdict to
        every pWCET."""
        return {
            "n": self.n,
            "valid": self.valid,
            "reasons": self.reasons(),
            "alpha": self.alpha,
            "confidence": self.confidence,
            "checks": [c.as_dict() for c in self.checks],
            "pot": None if self.pot is None else self.pot.as_dict(factor, deadline),
            "block_maxima": None if self.gev is None else self.gev.as_dict(factor, deadline),
            "threshold_stability": [s.as_dict(factor) for s in self.stability],
        }


def _p(p: float | None) -> str:
    return "—" if p is None else f"{p:.3g}"
