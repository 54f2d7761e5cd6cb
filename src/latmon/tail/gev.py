"""Block maxima: the generalised extreme-value fit by maximum likelihood and its quantiles."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

from latmon.errors import LatmonError
from latmon.tail.base import (
    CONFIDENCE,
    PROFILE_XI_STEP,
    XI_MAX,
    XI_MIN,
    XI_ZERO,
    Quantile,
    light_bound,
    quiet,
)
from latmon.tail.gpd import (
    NEWTON_XI_FLOOR,
    chi2_limit,
    maximise_1d,
    newton,
    profile_bounds,
    xi_profile_ci,
)

# --- generalised extreme value (block maxima) ---------------------------------------------


def gev_nll(mu: float, sigma: float, xi: float, m: np.ndarray) -> float:
    """Negative log-likelihood of GEV(μ, σ, ξ) for block maxima m (inf outside the support)."""
    if not sigma > 0:
        return math.inf
    s = (m - mu) / sigma
    if abs(xi) < XI_ZERO:
        return len(m) * math.log(sigma) + float(s.sum()) + float(np.exp(-s).sum())
    t = 1.0 + xi * s
    if float(t.min()) <= 0:
        return math.inf
    log_t = np.log(t)
    return (
        len(m) * math.log(sigma)
        + (1.0 + 1.0 / xi) * float(log_t.sum())
        + float(np.exp(-log_t / xi).sum())
    )


def gev_hessian(
    mu: float, sigma: float, xi: float, m: np.ndarray
) -> tuple[float, np.ndarray, np.ndarray]:
    """:func:`gev_nll` with its gradient and Hessian in (μ, σ, ξ). With z = m - μ,
    t = 1 + ξ z/σ, A = log t and B = -A/ξ (so t^(-1/ξ) = e^B), the negative log-likelihood is
    k log σ + Σ (1 + 1/ξ) A + Σ e^B; the derivatives follow from those of t (t_μ = -ξ/σ,
    t_σ = -ξ z/σ², t_ξ = z/σ, t_μσ = ξ/σ², t_μξ = -1/σ, t_σσ = 2ξ z/σ³, t_σξ = -z/σ²) by
    A_i = t_i/t and A_ij = t_ij/t - t_i t_j/t². At ξ = 0 (|ξ| < XI_ZERO) the Gumbel
    likelihood's, in (μ, σ) only (the ξ row and column are 0)."""
    value = gev_nll(mu, sigma, xi, m)
    grad, hess = np.zeros(3), np.zeros((3, 3))
    if not math.isfinite(value):
        return value, grad, hess
    k = len(m)
    z = m - mu
    if abs(xi) < XI_ZERO:  # Gumbel: s = z/σ, e = exp(-s)
        s = z / sigma
        e = np.exp(-s)
        se, es, ess = float(s.sum()), float((e * s).sum()), float((e * s * s).sum())
        total = float(e.sum())
        grad[:2] = (total - k) / sigma, (k - se + es) / sigma
        hess[0, 0] = total / sigma**2
        hess[0, 1] = hess[1, 0] = (es - total + k) / sigma**2
        hess[1, 1] = (2.0 * se + ess - 2.0 * es - k) / sigma**2
        return value, grad, hess
    t = 1.0 + xi * z / sigma
    big_a = np.log(t)
    v = np.exp(-big_a / xi)
    one = 1.0 + 1.0 / xi
    # first derivatives of t, and of A = log t
    t1 = [np.full_like(z, -xi / sigma), -xi * z / sigma**2, z / sigma]
    a1 = [ti / t for ti in t1]
    # second derivatives of t (index pairs (i, j), i <= j)
    zero = np.zeros_like(z)
    t2 = {
        (0, 0): zero,
        (0, 1): np.full_like(z, xi / sigma**2),
        (0, 2): np.full_like(z, -1.0 / sigma),
        (1, 1): 2.0 * xi * z / sigma**3,
        (1, 2): -z / sigma**2,
        (2, 2): zero,
    }
    b1 = [-a1[0] / xi, -a1[1] / xi, -a1[2] / xi + big_a / xi**2]
    c1 = [one * a1[0], one * a1[1], one * a1[2] - big_a / xi**2]
    for i in range(3):
        grad[i] = float((c1[i] + v * b1[i]).sum())
    grad[1] += k / sigma
    for (i, j), tij in t2.items():
        aij = tij / t - t1[i] * t1[j] / (t * t)
        if j < 2:  # i, j in (μ, σ)
            bij = -aij / xi
            cij = one * aij
        elif i < 2:  # (μ or σ, ξ)
            bij = -aij / xi + a1[i] / xi**2
            cij = one * aij - a1[i] / xi**2
        else:  # (ξ, ξ)
            bij = -aij / xi + 2.0 * a1[2] / xi**2 - 2.0 * big_a / xi**3
            cij = one * aij - 2.0 * a1[2] / xi**2 + 2.0 * big_a / xi**3
        hess[i, j] = hess[j, i] = float((cij + v * (bij + b1[i] * b1[j])).sum())
    hess[1, 1] -= k / sigma**2
    return value, grad, hess


def gev_quantile(mu: float, sigma: float, xi: float, y: float) -> float:
    """z with G(z) = exp(-y), i.e. the level a block maximum exceeds with probability
    1 - exp(-y): z = μ - σ/ξ (1 - y^-ξ)."""
    if abs(xi) < XI_ZERO:
        return mu - sigma * math.log(y)
    return mu + sigma * math.expm1(-xi * math.log(y)) / xi


def block_maxima(values: np.ndarray, block: int) -> np.ndarray:
    """Maxima of consecutive blocks of ``block`` samples (an incomplete last block is left
    out)."""
    x = np.asarray(values)
    blocks = len(x) // block
    return np.asarray(x[: blocks * block].reshape(blocks, block).max(axis=1), dtype=np.float64)


def default_block_size(n: int) -> int:
    """√n samples per block (as many blocks as samples per block), at least 10."""
    return max(10, round(math.sqrt(n)))


def _nelder_mead(
    fun: Callable[[np.ndarray], float], starts: list[np.ndarray]
) -> tuple[np.ndarray, float]:
    best: tuple[np.ndarray, float] | None = None
    for start in starts:
        with np.errstate(invalid="ignore"):  # inf outside the support is expected
            result = optimize.minimize(
                fun,
                start,
                method="Nelder-Mead",
                options={"xatol": 1e-6, "fatol": 1e-7, "maxiter": 4000},
            )
        if math.isfinite(result.fun) and (best is None or result.fun < best[1]):
            best = (np.asarray(result.x), float(result.fun))
    if best is None:
        raise LatmonError("the GEV fit did not converge")
    return best


def _newton_gev(
    m: np.ndarray, start: np.ndarray, spread: float, xi: float | None = None
) -> tuple[np.ndarray, float] | None:
    """:func:`newton` for the maximum-likelihood (μ, log σ, ξ) of block maxima from ``start``
    (with ``xi``: (μ, log σ) at that fixed ξ), with the analytic gradient and Hessian
    (:func:`gev_hessian`), steps of at most ``spread`` (the maxima's standard deviation) in μ,
    a factor e in σ and 0.25 in ξ. (point, value), or None (ξ leaves [XI_MIN, XI_MAX] or a
    free ξ comes within NEWTON_XI_FLOOR of 0, or no convergence): Nelder–Mead then."""
    free = xi is None

    def terms(v: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
        shape = float(v[2]) if free else float(xi)  # type: ignore[arg-type]
        if free and (not XI_MIN <= shape <= XI_MAX or abs(shape) < NEWTON_XI_FLOOR):
            return None
        sigma = math.exp(float(v[1]))
        value, g, h = gev_hessian(float(v[0]), sigma, shape, m)
        if not (math.isfinite(value) and np.all(np.isfinite(g)) and np.all(np.isfinite(h))):
            return None
        # to log σ: f_s = σ f_σ, f_ss = σ² f_σσ + σ f_σ, f_is = σ f_iσ
        g, h = g.copy(), h.copy()
        h[1, 1] = sigma * sigma * h[1, 1] + sigma * g[1]
        h[0, 1] = h[1, 0] = sigma * h[0, 1]
        h[1, 2] = h[2, 1] = sigma * h[1, 2]
        g[1] *= sigma
        size = 3 if free else 2
        return value, g[:size], h[:size, :size]

    x = np.asarray(start, dtype=np.float64).copy()
    if free and abs(x[2]) < NEWTON_XI_FLOOR:  # the Gumbel start: just off ξ = 0
        x[2] = 10 * NEWTON_XI_FLOOR
    reach = np.array([spread, 1.0, 0.25])[: len(x)]
    return newton(terms, x, reach)


def _inside_support(m: np.ndarray, mu: float, sigma: float, xi: float) -> np.ndarray:
    """(μ, log σ) to start a fit at a fixed ξ from (μ, σ): σ raised where needed so that every
    maximum lies well inside the support of GEV(μ, σ, ξ), 1 + ξ (m - μ)/σ ≥ 1/2. From a start
    outside it the likelihood is 0 (the negative log-likelihood infinite) and neither Newton's
    method nor Nelder–Mead finds the way in."""
    need = 2.0 * float(np.max(-xi * (m - mu)))
    return np.array([mu, math.log(max(sigma, need))])


@dataclass
class GevFit:
    """A GEV fit of the maxima of blocks of ``block`` samples."""

    block: int
    blocks: int
    mu: float
    sigma: float
    xi: float
    nll: float
    xi_ci: tuple[float, float]
    maxima: np.ndarray = field(repr=False)
    confidence: float = CONFIDENCE
    #: The negative log-likelihood with ξ held at 0 (the test of a light tail), and the
    #: Gumbel (ξ = 0) fit's location and scale.
    light_nll: float = math.nan
    light_mu: float = math.nan
    light_sigma: float = math.nan

    def _y(self, p: float) -> float:
        # per activation p -> per block: 1 - (1-p)^b = 1 - exp(-y), y = -b log(1-p)
        return -self.block * math.log1p(-p)

    def quantile(self, p: float) -> float:
        return gev_quantile(self.mu, self.sigma, self.xi, self._y(p))

    def _profile_nll(self, z: float, y: float, hint: float | None = None) -> tuple[float, float]:
        """min over (σ, ξ) of the negative log-likelihood with the quantile held at z, and the
        ξ where it is reached: for each ξ, μ = z - σ c(ξ) with c = (y^-ξ - 1)/ξ, and the
        support 1 + ξ(m - μ)/σ > 0 becomes σ > ξ (z - m) y^ξ for every maximum m, a lower
        bound for a 1-D search in σ. With ``hint`` (the ξ of a nearby z) Brent's method within
        ±PROFILE_XI_STEP of it first; a grid over ξ's whole range when the minimum is not
        inside that bracket."""
        m = self.maxima
        log_y = math.log(y)
        m_low, m_high = float(m.min()), float(m.max())

        def nll_xi(xi: float) -> float:
            c = -log_y if abs(xi) < XI_ZERO else math.expm1(-xi * log_y) / xi
            edge = max(xi * (z - m_low), xi * (z - m_high), 0.0) * math.exp(xi * log_y)
            low = edge * (1 + 1e-9) + 1e-9 * self.sigma
            high = max(low, self.sigma) * 1e3

            def nll_sigma(log_sigma: float) -> float:
                sigma = math.exp(log_sigma)
                return gev_nll(z - sigma * c, sigma, xi, m)

            result = optimize.minimize_scalar(
                nll_sigma, bounds=(math.log(low), math.log(high)), method="bounded"
            )
            return float(result.fun)

        width = max(self.xi_ci[1] - self.xi_ci[0], 0.05)
        xi_low = max(XI_MIN, self.xi_ci[0] - width)
        xi_high = min(XI_MAX, self.xi_ci[1] + width)
        if hint is not None:
            a = max(xi_low, hint - PROFILE_XI_STEP)
            b = min(xi_high, hint + PROFILE_XI_STEP)
            local = optimize.minimize_scalar(nll_xi, bounds=(a, b), method="bounded")
            x, value = float(local.x), float(local.fun)
            inner_edge = (x - a < 1e-3 and a > xi_low) or (b - x < 1e-3 and b < xi_high)
            if math.isfinite(value) and not inner_edge:
                return value, x
        x, value = maximise_1d(nll_xi, xi_low, xi_high)
        return value, x

    @quiet
    def quantile_ci(self, p: float) -> Quantile:
        estimate = self.quantile(p)
        y = self._y(p)
        limit = chi2_limit(self.confidence, self.xi)
        hint = [self.xi]  # the ξ of the last z: the profile moves little between evaluations

        def deviance(z: float) -> float:
            value, hint[0] = self._profile_nll(z, y, hint[0])
            return 2.0 * (value - self.nll)

        scale = max(estimate - self.mu, self.sigma) * 0.05
        floor = float(self.maxima.min()) - 10 * self.sigma
        low, high = profile_bounds(deviance, estimate, limit, floor, scale)
        return light_bound(Quantile(p, estimate, low, high), self.xi, self.light_quantile(p))

    def light_quantile(self, p: float) -> float:
        """The quantile of the Gumbel (ξ = 0) fit of the same maxima."""
        return gev_quantile(self.light_mu, self.light_sigma, 0.0, self._y(p))


@quiet
def fit_gev(maxima: np.ndarray, block: int, confidence: float = CONFIDENCE) -> GevFit:
    """Maximum-likelihood GEV of block maxima, with the profile interval of ξ."""
    m = np.asarray(maxima, dtype=np.float64)
    sd = float(m.std()) or 1.0
    sigma0 = math.sqrt(6) * sd / math.pi
    mu0 = float(m.mean()) - 0.5772 * sigma0

    def nll3(v: np.ndarray) -> float:
        if not XI_MIN <= v[2] <= XI_MAX:
            return math.inf
        return gev_nll(float(v[0]), math.exp(float(v[1])), float(v[2]), m)

    starts = [np.array([mu0, math.log(sigma0), xi]) for xi in (-0.1, 0.0, 0.1)]
    # Newton's method from each start; Nelder-Mead from all of them where one does not converge
    fits = [_newton_gev(m, start, sd) for start in starts]
    if all(f is not None for f in fits):
        v, nll = min((f for f in fits if f is not None), key=lambda f: f[1])
    else:
        v, nll = _nelder_mead(nll3, starts)
    mu, sigma, xi = float(v[0]), math.exp(float(v[1])), float(v[2])

    def profile_fit(x: float) -> tuple[np.ndarray, float]:
        def nll2(w: np.ndarray) -> float:
            return gev_nll(float(w[0]), math.exp(float(w[1])), x, m)

        start = _inside_support(m, mu, sigma, x)
        found = _newton_gev(m, start, sd, x)
        if found is not None:
            return found
        try:
            return _nelder_mead(nll2, [start])
        except LatmonError:
            return start, math.inf

    xi_ci = xi_profile_ci(lambda x: profile_fit(x)[1], xi, nll, confidence)
    gumbel, light_nll = profile_fit(0.0)
    return GevFit(
        block,
        len(m),
        mu,
        sigma,
        xi,
        nll,
        xi_ci,
        m,
        confidence,
        light_nll,
        float(gumbel[0]),
        math.exp(float(gumbel[1])),
    )
