"""Peaks over threshold: the generalised Pareto fit by maximum likelihood with profile-likelihood
intervals, and its quantiles."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

from latmon.errors import LatmonError
from latmon.tail import probability
from latmon.tail.base import (
    CONFIDENCE,
    XI_MAX,
    XI_MIN,
    XI_ZERO,
    Quantile,
    light_bound,
    quiet,
)

# --- generalised Pareto (peaks over threshold) --------------------------------------------


@dataclass(frozen=True)
class Ties:
    """Excesses on a grid with their ties grouped: each distinct value once with the number
    of excesses that have it. On a grid every excess is one of few cell edges, so the
    likelihood summed over the distinct values (each term times its count) is the same sum
    in O(distinct values) instead of O(exceedances) — on whole ns at 10⁸ samples, tens of
    thousands of exceedances but far fewer cells in use."""

    values: np.ndarray
    counts: np.ndarray
    total: int
    largest: float
    sum: float

    @classmethod
    def of(cls, y: np.ndarray | Ties) -> Ties:
        if isinstance(y, Ties):
            return y
        a = np.asarray(y, dtype=np.float64)
        values, counts = np.unique(a, return_counts=True)
        return cls(values, counts.astype(np.float64), len(a), float(a.max()), float(a.sum()))


Excesses = np.ndarray | Ties


def _weighted(weights: np.ndarray, values: np.ndarray) -> float:
    """Σ weights · values, by einsum: np.dot's BLAS spins its threads on a busy machine, ten
    times slower than the sum itself."""
    return float(np.einsum("i,i->", weights, values))


def _extent(y: Excesses) -> tuple[float, float]:
    """(largest, mean) of excesses."""
    if isinstance(y, Ties):
        return y.largest, y.sum / y.total
    return float(y.max()), float(y.mean())


def gpd_nll(sigma: float, xi: float, y: Excesses, tick: float = 0.0) -> float:
    """Negative log-likelihood of GPD(σ, ξ) for excesses y ≥ 0 (inf outside the support).

    With ``tick`` h > 0 the excesses are measured on a grid: each y (a multiple of h, at least
    h) stands for a true excess somewhere in [y - h, y) and contributes the probability of that
    cell, S(y - h) - S(y) with S the GPD survival function (an interval-censored likelihood,
    see :func:`fit_pot` for how the cells are placed). A continuous density on tied values
    would see an atom at every grid value and no mass below the first one: on a 1 µs grid it
    fitted a bounded tail far below the truth. ``y`` may come with its ties grouped
    (:class:`Ties`): the same likelihood, one term per distinct value."""
    if not sigma > 0:
        return math.inf
    if tick > 0:
        return _gpd_censored_nll(sigma, xi, Ties.of(y), tick)
    return _gpd_continuous(sigma, xi, y)[0]


def _gpd_censored_nll(sigma: float, xi: float, y: Ties, tick: float) -> float:
    """-Σ log(S(y - h) - S(y)) over the cells (each distinct value's term times its count),
    computed as log S(y - h) + log(1 - S(y)/S(y - h)) so that a cell much narrower than σ
    keeps its precision."""
    return _gpd_censored(sigma, xi, y, tick)[0]


def _gpd_censored(
    sigma: float, xi: float, y: Ties, tick: float, derivatives: bool = False
) -> tuple[float, float, float]:
    """:func:`_gpd_censored_nll` and, with ``derivatives``, its first and second derivative in
    σ (else nan): the log-probability L of the cell [a, b) = [y - h, y) has
    L' = g(b) + (g(a) - g(b)) / (1 - r) and L'' = q(b) + (q(a) - q(b)) / (1 - r) - L'², with
    r = S(b)/S(a), g(t) = ∂ log S(t)/∂σ = t / (σ w(t)), w(t) = σ + ξ t, and
    q(t) = S''/S = g² + ∂g/∂σ = t ((1 - ξ) t - 2σ) / (σ w(t))²; g(a) - g(b) = -h / (w(a) w(b))
    in closed form (no cancellation when the cell is narrow). A cell beyond a bounded tail's
    endpoint (w(b) ≤ 0) has r = 0: L' = g(a), L'' = q(a) - g(a)²."""
    k = y.total
    nan = math.nan
    if abs(xi) < XI_ZERO:  # S(t) = exp(-t/σ): every cell has the factor 1 - exp(-h/σ)
        excess = y.sum - k * tick
        value = excess / sigma - k * math.log(-math.expm1(-tick / sigma))
        if not derivatives:
            return value, nan, nan
        u = tick / sigma
        e = math.expm1(u)
        d1 = -excess / sigma**2 + k * (tick / sigma**2) / e
        d2 = 2.0 * excess / sigma**3 + k * tick / (sigma**3 * e) * (u * math.exp(u) / e - 2.0)
        return value, d1, d2
    if xi < 0 and xi * (y.largest - tick) / sigma <= -1.0:
        return math.inf, nan, nan  # a cell that starts at or beyond the endpoint: no probability
    # -ξ log S(t) = log1p(ξ t / σ), in place: the likelihood is evaluated a thousand times
    # per fit, on tens of thousands of cells at 10⁸ samples
    scale = xi / sigma
    high = np.multiply(y.values, scale)
    low = high - scale * tick  # -ξ log S(y - h)
    # beyond a bounded tail's endpoint S = 0: log1p(-1) = -inf gives log S = -inf
    np.maximum(high, -1.0, out=high)
    np.log1p(high, out=high)  # -ξ log S(y)
    np.log1p(low, out=low)
    # log S(y) - log S(y - h) = (low - high) / ξ; the cell's log probability is
    # log S(y - h) + log(1 - S(y) / S(y - h))
    ratio = np.subtract(low, high, out=high)
    ratio *= 1.0 / xi
    np.expm1(ratio, out=ratio)
    np.negative(ratio, out=ratio)  # 1 - r
    if derivatives:
        rest = ratio.copy()
    np.log(ratio, out=ratio)
    value = _weighted(y.counts, low) / xi - _weighted(y.counts, ratio)
    if not derivatives:
        return value, nan, nan
    b = y.values
    a = b - tick
    w_b = sigma + xi * b
    w_a = sigma + xi * a
    beyond = w_b <= 0  # past the endpoint: S(b) = 0
    w_b = np.where(beyond, 1.0, w_b)
    sw_a, sw_b = sigma * w_a, sigma * w_b
    g_a, g_b = a / sw_a, b / sw_b
    q_a = a * ((1.0 - xi) * a - 2.0 * sigma) / (sw_a * sw_a)
    q_b = b * ((1.0 - xi) * b - 2.0 * sigma) / (sw_b * sw_b)
    first = np.where(beyond, g_a, g_b - tick / (w_a * w_b * rest))
    second = np.where(beyond, q_a, q_b + (q_a - q_b) / rest) - first * first
    return value, -_weighted(y.counts, first), -_weighted(y.counts, second)


def _gpd_censored_hessian(
    sigma: float, xi: float, y: Ties, tick: float
) -> tuple[float, np.ndarray, np.ndarray]:
    """:func:`_gpd_censored_nll` (ξ ≠ 0) with its gradient and Hessian in (σ, ξ). For each cell
    [a, b) = [y - h, y), l(t) = log S(t) = -u/ξ with u = log1p(ξ t/σ), w = σ + ξ t:
    l_σ = t/(σ w), l_ξ = u/ξ² - t/(ξ w), l_σσ = -t (2σ + ξ t)/(σ w)², l_σξ = -t²/(σ w²),
    l_ξξ = 2t/(ξ² w) - 2u/ξ³ + t²/(ξ w²); the cell's L = log(S(a) - S(b)) has
    ∇L = ∇l(b) + (∇l(a) - ∇l(b))/(1 - r) and ∇²L = Q(b) + (Q(a) - Q(b))/(1 - r) - ∇L ∇Lᵀ
    with r = S(b)/S(a) and Q = ∇²l + ∇l ∇lᵀ (r = 0 beyond a bounded tail's endpoint)."""
    value = _gpd_censored(sigma, xi, y, tick)[0]
    grad, hess = np.zeros(2), np.zeros((2, 2))
    if not math.isfinite(value):
        return value, grad, hess
    c = y.counts

    def parts(t: np.ndarray) -> tuple[np.ndarray, ...]:
        w = sigma + xi * t
        u = np.log1p(xi * t / sigma)
        sw = sigma * w
        return (
            -u / xi,
            t / sw,
            u / xi**2 - t / (xi * w),
            -t * (2.0 * sigma + xi * t) / (sw * sw),
            -t * t / (sigma * w * w),
            2.0 * t / (xi * xi * w) - 2.0 * u / xi**3 + t * t / (xi * w * w),
        )

    b = y.values
    beyond = sigma + xi * b <= 0  # S(b) = 0
    b = np.where(beyond, b - tick, b)  # any finite stand-in; r = 0 there
    la, sa, xa, ssa, sxa, xxa = parts(y.values - tick)
    lb, sb, xb, ssb, sxb, xxb = parts(b)
    rest = np.where(beyond, 1.0, -np.expm1(lb - la))  # 1 - r
    inv = 1.0 / rest
    sb, xb = np.where(beyond, 0.0, sb), np.where(beyond, 0.0, xb)
    ssb, sxb, xxb = (np.where(beyond, 0.0, v) for v in (ssb, sxb, xxb))
    gs = sb + (sa - sb) * inv
    gx = xb + (xa - xb) * inv
    hss = ssb + sb * sb + (ssa + sa * sa - ssb - sb * sb) * inv - gs * gs
    hsx = sxb + sb * xb + (sxa + sa * xa - sxb - sb * xb) * inv - gs * gx
    hxx = xxb + xb * xb + (xxa + xa * xa - xxb - xb * xb) * inv - gx * gx
    grad[:] = -_weighted(c, gs), -_weighted(c, gx)
    hess[0, 0] = -_weighted(c, hss)
    hess[0, 1] = hess[1, 0] = -_weighted(c, hsx)
    hess[1, 1] = -_weighted(c, hxx)
    return value, grad, hess


def _gpd_continuous(
    sigma: float, xi: float, y: Excesses, derivatives: bool = False
) -> tuple[float, float, float]:
    """:func:`gpd_nll` of continuous excesses and, with ``derivatives``, its first and second
    derivative in σ (else nan): with w = σ + ξ y, ∂/∂σ = k/σ - (1 + ξ) Σ y / (σ w) and
    ∂²/∂σ² = -k/σ² + (1 + ξ) Σ y (2σ + ξ y) / (σ w)²."""
    nan = math.nan
    if not sigma > 0:
        return math.inf, nan, nan
    if isinstance(y, Ties):
        values, weights, k = y.values, y.counts, y.total
    else:
        values, weights, k = y, None, len(y)

    def total(v: np.ndarray) -> float:
        return float(v.sum()) if weights is None else _weighted(weights, v)

    if abs(xi) < XI_ZERO:
        whole = total(values)
        value = k * math.log(sigma) + whole / sigma
        if not derivatives:
            return value, nan, nan
        return value, k / sigma - whole / sigma**2, -k / sigma**2 + 2.0 * whole / sigma**3
    t = xi * values / sigma
    if xi < 0 and float(t.min()) <= -1.0:
        return math.inf, nan, nan
    logs = np.log1p(t)
    value = k * math.log(sigma) + (1.0 + 1.0 / xi) * total(logs)
    if not derivatives:
        return value, nan, nan
    sw = sigma * (sigma + xi * values)
    d1 = k / sigma - (1.0 + xi) * total(values / sw)
    d2 = -k / sigma**2 + (1.0 + xi) * total(values * (2.0 * sigma + xi * values) / (sw * sw))
    return value, d1, d2


#: How a value y recorded on a grid of tick h stands for the true latency: "round" — the
#: true value lies in [y - h/2, y + h/2) (a cycle counter, a value rounded for printing);
#: "floor" — in [y, y + h) (a tool that truncates, as cyclictest does when it divides ns by
#: 1000). The value is the part of the cell below y, in ticks.
QUANTISATION = {"round": 0.5, "floor": 0.0}


def data_tick(values: np.ndarray, declared: int = 1) -> int:
    """The grid the values lie on: the greatest common divisor of their distances to the
    smallest one (0 for values that are not whole numbers: a continuous sample). The run's
    recorded resolution (``declared``) is the finest the grid can be; values recorded finer
    than their grid (whole ns that are all multiples of 250) get the coarser grid they show."""
    x = np.asarray(values)
    if x.size == 0:
        return max(declared, 0)
    if x.dtype.kind not in "iu":
        if not bool(np.all(np.isfinite(x))) or not bool(np.all(x == np.round(x))):
            return 0
        x = x.astype(np.int64)
    g = int(np.gcd.reduce(np.asarray(x - x.min(), dtype=np.int64)))
    if g == 0:
        return max(declared, 1)
    return g if declared <= 1 or g % declared == 0 else math.gcd(g, declared)


def gpd_pwm(y: np.ndarray) -> tuple[float, float]:
    """Probability-weighted-moment estimates (σ, ξ) (Hosking & Wallis 1987): the start of the
    likelihood search."""
    s = np.sort(y)
    k = len(s)
    a0 = float(s.mean())
    a1 = float(np.dot((k - 1 - np.arange(k)) / (k - 1), s) / k)
    denominator = a0 - 2 * a1
    if denominator <= 0:
        return a0, 0.0
    xi = 2.0 - a0 / denominator
    sigma = 2.0 * a0 * a1 / denominator
    return max(sigma, 1e-12 * a0), float(np.clip(xi, XI_MIN + 0.05, XI_MAX - 0.05))


#: Newton's method for σ at a fixed ξ: at most this many steps, and converged when a full
#: Newton step moves log σ by less than NEWTON_TOLERANCE (σ to about 1e-10 relative, where the
#: bounded search it replaces stops at 1e-9 in log σ).
NEWTON_STEPS = 60
NEWTON_TOLERANCE = 1e-10
#: ... and at most this many evaluations of the likelihood, halved steps included: where the
#: optimum lies at the edge of the support (a bounded tail, ξ near -1), the steps halve towards
#: it without end, and the bounded search decides sooner.
NEWTON_EVALUATIONS = 160


def _sigma_for_xi(xi: float, y: Excesses, tick: float = 0.0) -> tuple[float, float]:
    """The σ that maximises the GPD likelihood for a fixed ξ, and the negative log-likelihood
    there: Newton's method on log σ with the likelihood's analytic derivatives
    (:func:`_newton_sigma`); where it does not converge inside the search range, the bounded
    scalar search over log σ."""
    ymax, mean = _extent(y)
    low = max(-xi * (ymax - tick), 0.0) * (1 + 1e-10) + 1e-12 * mean
    high = max(100.0 * ymax, low * 10)
    found = _newton_sigma(xi, y, tick, low, high, mean)
    if found is not None:
        return found
    result = optimize.minimize_scalar(
        lambda ls: gpd_nll(math.exp(ls), xi, y, tick),
        bounds=(math.log(low), math.log(high)),
        method="bounded",
        options={"xatol": 1e-9},
    )
    return math.exp(float(result.x)), float(result.fun)


def _newton_sigma(
    xi: float, y: Excesses, tick: float, low: float, high: float, mean: float
) -> tuple[float, float] | None:
    """Newton's method for the σ in (low, high) that minimises the negative log-likelihood at
    ξ, in s = log σ (f_s = σ f_σ, f_ss = σ² f_σσ + σ f_σ), from σ = (1 - ξ) times the mean excess
    (the GPD's own mean for ξ < 1); a step that leaves the support or raises the value is
    halved, one where the function is not convex goes downhill by a factor e. (σ, value), or
    None when no full Newton step below NEWTON_TOLERANCE was reached, or it lies outside
    (low, high)."""
    cells = Ties.of(y) if tick > 0 else y
    evaluations = 0

    def terms(sigma: float) -> tuple[float, float, float]:
        nonlocal evaluations
        evaluations += 1
        if tick > 0:
            assert isinstance(cells, Ties)
            return _gpd_censored(sigma, xi, cells, tick, derivatives=True)
        return _gpd_continuous(sigma, xi, cells, derivatives=True)

    middle = mean - tick / 2
    sigma = max(middle * max(1.0 - xi, 0.1), 2.0 * low, 1e-300)
    with np.errstate(all="ignore"):
        value, d1, d2 = terms(sigma)
        if not (math.isfinite(value) and math.isfinite(d1) and math.isfinite(d2)):
            return None
        s = math.log(sigma)
        for _ in range(NEWTON_STEPS):
            slope = sigma * d1
            curve = sigma * sigma * d2 + slope
            newton = curve > 0 and abs(slope) <= curve
            step = -slope / curve if newton else -math.copysign(1.0, slope)
            while True:
                s_next = s + step
                sigma_next = math.exp(s_next)
                if sigma_next > low:
                    v, g, h = terms(sigma_next)
                    finite = math.isfinite(v) and math.isfinite(g) and math.isfinite(h)
                    if finite and v <= value + 1e-12 * abs(value):
                        break
                newton = False
                step /= 2
                if abs(step) < 1e-15 or evaluations >= NEWTON_EVALUATIONS:
                    return None
            s, sigma, value, d1, d2 = s_next, sigma_next, v, g, h
            if newton and abs(step) < NEWTON_TOLERANCE:
                if not low < sigma < high:
                    return None
                return sigma, value
    return None


def maximise_1d(
    nll: Callable[[float], float], low: float, high: float, points: int = 11
) -> tuple[float, float]:
    """Minimise a 1-D function that may be inf on parts of [low, high]: a grid, then Brent's
    method around the best grid point. Returns (argmin, min). (11 points find the same
    profile intervals as 25 on the synthetic tails of the tests, in half the time.)"""
    grid = np.linspace(low, high, points)
    values = np.array([nll(float(g)) for g in grid])
    best = int(np.argmin(values))
    if not math.isfinite(values[best]):
        return float(grid[best]), math.inf
    a = float(grid[max(best - 1, 0)])
    b = float(grid[min(best + 1, points - 1)])
    result = optimize.minimize_scalar(nll, bounds=(a, b), method="bounded")
    if float(result.fun) < values[best]:
        return float(result.x), float(result.fun)
    return float(grid[best]), float(values[best])


#: Newton's method on (log σ, ξ) for a fit on a grid: at most this many steps; converged when a
#: full step moves log σ and ξ by less than FIT_TOLERANCE.
FIT_STEPS = 100
FIT_TOLERANCE = 1e-9
#: |ξ| below which the fit's Newton steps stop (the derivatives divide by ξ): Nelder–Mead then.
NEWTON_XI_FLOOR = 1e-5


def newton(
    terms: Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray] | None],
    start: np.ndarray,
    reach: np.ndarray,
    tolerance: float = FIT_TOLERANCE,
) -> tuple[np.ndarray, float] | None:
    """Newton's method for a minimum of a smooth function from ``start``: ``terms`` gives its
    value, gradient and Hessian at a point (None outside its domain). Where the Hessian is not
    positive definite it is shifted until it is (Levenberg–Marquardt); a step longer than
    ``reach`` in a coordinate is shortened to it, and one that leaves the domain or raises the
    value is halved. (point, value) where a full Newton step is below ``tolerance`` in every
    coordinate, or None (no convergence in FIT_STEPS steps): the caller's fallback decides."""
    x = np.asarray(start, dtype=np.float64)
    found = terms(x)
    if found is None:
        return None
    value, grad, hess = found
    size = len(x)
    for _ in range(FIT_STEPS):
        lowest = float(np.linalg.eigvalsh(hess)[0])
        full = lowest > 0
        if not full:
            hess = hess + (1e-6 * float(np.abs(hess).max()) - lowest) * np.eye(size)
        try:
            step = -np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:  # a Hessian of zeros: no Newton step to take
            return None
        longest = float(np.max(np.abs(step) / reach))
        if longest > 1.0:
            step /= longest
            full = False
        while True:
            found = terms(x + step)
            if found is not None and found[0] <= value + 1e-12 * abs(value):
                break
            full = False
            step /= 2
            if float(np.abs(step).max()) < 1e-15:
                return None
        x = x + step
        value, grad, hess = found
        if full and float(np.abs(step).max()) < tolerance:
            return x, value
    return None


def _newton_fit(
    cells: Ties, tick: float, sigma0: float, xi0: float
) -> tuple[float, float, float] | None:
    """:func:`newton` for the maximum-likelihood (σ, ξ) of excesses on a grid, on (log σ, ξ)
    from (σ0, ξ0), with the analytic gradient and Hessian (:func:`_gpd_censored_hessian`),
    steps of at most a factor e in σ and 0.25 in ξ. (σ, ξ, value), or None (ξ leaves
    [XI_MIN, XI_MAX] or comes within NEWTON_XI_FLOOR of 0, or no convergence): the caller's
    Nelder–Mead decides then."""

    def terms(v: np.ndarray) -> tuple[float, np.ndarray, np.ndarray] | None:
        s, xi = float(v[0]), float(v[1])
        if not XI_MIN <= xi <= XI_MAX or abs(xi) < NEWTON_XI_FLOOR:
            return None
        sigma = math.exp(s)
        value, g, h = _gpd_censored_hessian(sigma, xi, cells, tick)
        if not (math.isfinite(value) and np.all(np.isfinite(g)) and np.all(np.isfinite(h))):
            return None
        # to (log σ, ξ): f_s = σ f_σ, f_ss = σ² f_σσ + σ f_σ, f_sξ = σ f_σξ
        grad = np.array([sigma * g[0], g[1]])
        hess = np.array(
            [[sigma * sigma * h[0, 0] + sigma * g[0], sigma * h[0, 1]], [sigma * h[0, 1], h[1, 1]]]
        )
        return value, grad, hess

    xi = 10 * NEWTON_XI_FLOOR if abs(xi0) < NEWTON_XI_FLOOR else xi0  # the exponential start
    found = newton(terms, np.array([math.log(sigma0), xi]), np.array([1.0, 0.25]))
    if found is None:
        return None
    v, value = found
    return math.exp(float(v[0])), float(v[1]), value


@quiet
def fit_gpd(y: np.ndarray, tick: float = 0.0) -> tuple[float, float, float]:
    """Maximum-likelihood (σ, ξ) of excesses y (on a grid of ``tick``: :func:`gpd_nll`), and
    the minimised negative log-likelihood.

    Nelder–Mead on (log σ, ξ) from the PWM estimate (of the cells' midpoints) and from the
    exponential fit; the better optimum wins. On a grid the ties are grouped once
    (:class:`Ties`) for every likelihood the search evaluates, and Newton's method
    (:func:`_newton_fit`) from the same starts comes first: where it converges from both, the
    better of its optima is the fit, in a few likelihood evaluations instead of hundreds
    (tests/test_tail.py compares the two)."""
    raw = np.asarray(y, dtype=np.float64)
    middle = raw - tick / 2
    starts = [gpd_pwm(middle), (float(middle.mean()), 0.0)]
    best: tuple[float, float, float] | None = None
    cells: Excesses = Ties.of(raw) if tick > 0 else raw
    if isinstance(cells, Ties):
        fits = [_newton_fit(cells, tick, sigma0, xi0) for sigma0, xi0 in starts]
        if all(f is not None for f in fits):
            return min((f for f in fits if f is not None), key=lambda f: f[2])

    def objective(v: np.ndarray) -> float:
        if not XI_MIN <= v[1] <= XI_MAX:
            return math.inf
        return gpd_nll(math.exp(float(v[0])), float(v[1]), cells, tick)

    for sigma0, xi0 in starts:
        with np.errstate(invalid="ignore"):  # inf outside the support is expected
            result = optimize.minimize(
                objective,
                np.array([math.log(sigma0), xi0]),
                method="Nelder-Mead",
                options={"xatol": 1e-7, "fatol": 1e-9, "maxiter": 4000},
            )
        if math.isfinite(result.fun) and (best is None or result.fun < best[2]):
            best = (math.exp(float(result.x[0])), float(result.x[1]), float(result.fun))
    if best is None:
        raise LatmonError("the generalised Pareto fit did not converge")
    # polish along the profile in ξ (Nelder–Mead can stop early on a flat ridge)
    xi, nll = maximise_1d(
        lambda x: _sigma_for_xi(x, cells, tick)[1],
        max(best[1] - 0.05, XI_MIN),
        min(best[1] + 0.05, XI_MAX),
        5,
    )
    if nll < best[2]:
        best = (_sigma_for_xi(xi, cells, tick)[0], xi, nll)
    return best


def gpd_quantile(u: float, sigma: float, xi: float, zeta: float, p: float) -> float:
    """x_p = u + σ/ξ ((ζ/p)^ξ - 1): the value exceeded with probability p when a fraction ζ
    of the samples exceed u (p ≤ ζ)."""
    ratio = zeta / p
    if abs(xi) < XI_ZERO:
        return u + sigma * math.log(ratio)
    return u + sigma * math.expm1(xi * math.log(ratio)) / xi


#: Below this shape the likelihood is not regular (Smith 1985): the tail has an endpoint
#: that the largest sample approaches faster than 1/√n.
XI_REGULAR = -0.5


def chi2_limit(confidence: float, xi: float = 0.0) -> float:
    """The deviance limit of a profile-likelihood interval: the χ²₁ quantile where the
    likelihood is regular; for a bounded tail with ξ < -1/2 the χ²₂ quantile, because there
    the quantiles near the endpoint are estimated like the endpoint itself, whose likelihood
    ratio tends to twice an exponential, χ²₂ (exactly so for the uniform, ξ = -1); with χ²₁
    the interval would end a few resolution steps above the largest sample and miss the true
    endpoint about one time in six (measured: docs/tail.md)."""
    return probability.chi2_ppf(confidence, 2 if xi < XI_REGULAR else 1)


def profile_bounds(
    deviance: Callable[[float], float],
    estimate: float,
    limit: float,
    floor: float,
    scale: float,
) -> tuple[float, float]:
    """The interval {θ : deviance(θ) ≤ limit} around ``estimate`` (deviance 0 there), for a
    parameter above ``floor``.

    Each side marches outward from the estimate on the signed root deviance r(θ), which is
    close to linear in θ (exactly so for a normal likelihood): every next point is the linear
    extrapolation of r to √limit, between one and eight times the last step; then Brent's
    method between the last two points. About seven deviances a side, where doubling steps
    and a root finder on the deviance itself took fifteen. The upper side is inf when the
    deviance stays below the limit out to 10¹² · scale; the lower one is ``floor`` when it
    stays below it down there."""
    target = math.sqrt(limit)
    known: dict[float, float] = {}  # each θ evaluated once: the bracket's signs stay as found

    def root(theta: float) -> float:
        if theta not in known:
            d = deviance(theta)
            known[theta] = math.sqrt(max(d, 0.0)) if math.isfinite(d) else 1e6
        return known[theta]

    def bound(direction: float) -> float:
        previous, r_previous, step = estimate, 0.0, scale
        for _ in range(80):
            candidate = previous + direction * step
            if direction < 0 and candidate <= floor + (previous - floor) * 1e-3:
                candidate = floor + (previous - floor) * 1e-3  # approach the floor, never reach
            r = root(candidate)
            if r >= target:
                if root(previous) >= target:  # the profile failed nearer in: the outer point
                    return candidate
                a, b = sorted((previous, candidate))
                return float(
                    optimize.brentq(
                        lambda t: root(t) - target, a, b, xtol=1e-7 * abs(candidate) + 1e-12
                    )
                )
            moved = abs(candidate - previous)
            if direction < 0 and candidate - floor <= 1e-12 * scale:
                return floor
            if direction > 0 and candidate - estimate > 1e12 * scale:
                return math.inf
            slope = (r - r_previous) / moved if moved > 0 else 0.0
            ahead = 1.1 * (target - r) / slope if slope > 0 else 2.0 * moved
            previous, r_previous, step = candidate, r, min(max(ahead, moved), 8.0 * moved)
        return math.inf if direction > 0 else floor

    return bound(-1.0), bound(1.0)


@dataclass
class GpdFit:
    """A generalised Pareto fit of the excesses over ``threshold``."""

    threshold: float
    #: Samples above the threshold, and the fraction ζ they are of all samples.
    exceedances: int
    rate: float
    sigma: float
    xi: float
    nll: float
    xi_ci: tuple[float, float]
    excesses: np.ndarray = field(repr=False)
    confidence: float = CONFIDENCE
    #: The grid of the samples (0: continuous) and where the true latency's threshold lies
    #: above the recorded one: a value recorded above ``threshold`` is a true latency above
    #: threshold + offset (:func:`fit_pot`).
    tick: float = 0.0
    offset: float = 0.0
    #: The negative log-likelihood with ξ held at 0 (the test of a light tail), and σ there.
    light_nll: float = math.nan
    light_sigma: float = math.nan
    #: ``excesses`` as the likelihood takes them: on a grid, their ties grouped (:class:`Ties`)
    cells: Excesses = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.cells = Ties.of(self.excesses) if self.tick > 0 else self.excesses

    @property
    def start(self) -> float:
        """The threshold of the true latencies: exceeded with probability ``rate``."""
        return self.threshold + self.offset

    def quantile(self, p: float) -> float:
        return gpd_quantile(self.start, self.sigma, self.xi, self.rate, p)

    def _profile_nll(self, xp: float, p: float, xi_low: float, xi_high: float) -> float:
        """min over ξ of the negative log-likelihood with x_p held at ``xp``."""
        excess = xp - self.start
        if excess <= 0:
            return math.inf
        log_ratio = math.log(self.rate / p)
        y = self.cells
        tick = self.tick

        def nll(xi: float) -> float:
            if abs(xi) < XI_ZERO:
                sigma = excess / log_ratio
            else:
                sigma = excess * xi / math.expm1(xi * log_ratio)
            return gpd_nll(sigma, xi, y, tick)

        return maximise_1d(nll, xi_low, xi_high)[1]

    @quiet
    def quantile_ci(self, p: float) -> Quantile:
        """The profile-likelihood interval of x_p at the fit's confidence."""
        estimate = self.quantile(p)
        limit = chi2_limit(self.confidence, self.xi)
        # the profile maximum over ξ lies well inside ξ's own interval widened a little
        width = max(self.xi_ci[1] - self.xi_ci[0], 0.05)
        xi_low = max(XI_MIN, self.xi_ci[0] - width)
        xi_high = min(XI_MAX, self.xi_ci[1] + width)

        def deviance(xp: float) -> float:
            return 2.0 * (self._profile_nll(xp, p, xi_low, xi_high) - self.nll)

        scale = max(estimate - self.start, self.sigma) * 0.05
        low, high = profile_bounds(deviance, estimate, limit, self.start, scale)
        return light_bound(Quantile(p, estimate, low, high), self.xi, self.light_quantile(p))

    def light_quantile(self, p: float) -> float:
        """x_p of the exponential tail (ξ = 0) fitted to the same excesses."""
        return gpd_quantile(self.start, self.light_sigma, 0.0, self.rate, p)


def xi_profile_ci(
    profile_nll: Callable[[float], float], xi_hat: float, nll_hat: float, confidence: float
) -> tuple[float, float]:
    """The profile-likelihood interval of ξ, clipped to [XI_MIN, XI_MAX]."""
    limit = chi2_limit(confidence)

    def excess(xi: float) -> float:
        return 2.0 * (profile_nll(xi) - nll_hat) - limit

    def bound(edge: float) -> float:
        step = 0.02 if edge > xi_hat else -0.02
        previous = xi_hat
        while True:
            candidate = xi_hat + step
            if (step > 0 and candidate >= edge) or (step < 0 and candidate <= edge):
                candidate = edge
            if excess(candidate) > 0:
                a, b = sorted((previous, candidate))
                return float(optimize.brentq(excess, a, b, xtol=1e-6))
            if candidate == edge:
                return edge
            previous = candidate
            step *= 2

    return bound(XI_MIN), bound(XI_MAX)


def grid_excesses(
    above: np.ndarray, threshold: float, tick: float, quantisation: str = "round"
) -> tuple[np.ndarray, float]:
    """The excesses of the recorded values ``above`` a threshold, as the likelihood takes
    them, and the offset of the true latencies' threshold.

    Continuous (tick 0): y - threshold, offset 0. On a grid of tick h: the recorded values
    above the threshold are those from g, the first grid value above it; the cell of a value
    y spans [y - c h, y - c h + h) (c from :data:`QUANTISATION`), so "recorded above the
    threshold" means "true latency at least g - c h", and each excess is counted in the cells
    [0, h), [h, 2h), ... above that point: y - g + h, a multiple of h, with the offset
    g - c h - threshold."""
    if tick <= 0:
        return above - threshold, 0.0
    lowest = float(above.min())
    first = lowest - tick * (math.ceil((lowest - threshold) / tick) - 1)
    start = first - QUANTISATION[quantisation] * tick
    return above - first + tick, start - threshold


@quiet
def fit_pot(
    values: np.ndarray,
    threshold: float,
    confidence: float = CONFIDENCE,
    tick: float | None = None,
    quantisation: str = "round",
    n: int | None = None,
    fitted: tuple[float, float, float] | None = None,
) -> GpdFit | None:
    """A GPD fit of the samples above ``threshold``, or None when there are fewer than two
    distinct excesses. ``tick``: the grid of the samples (None: found in the samples above
    the threshold by :func:`data_tick`; 0: continuous), each value standing for its cell as
    ``quantisation`` says (:func:`grid_excesses`). ``n``: the values are the largest of a
    series of n samples (all those above the threshold among them). ``fitted``: :func:`fit_gpd`
    of these excesses (σ, ξ, negative log-likelihood) when the caller has it (the stability
    point of the same threshold, grid and samples)."""
    x = np.asarray(values)
    above = np.asarray(x[x > threshold], dtype=np.float64)
    if len(np.unique(above)) < 2:
        return None
    if tick is None:
        tick = float(data_tick(x[x > threshold]))
    excesses, offset = grid_excesses(above, threshold, tick, quantisation)
    sigma, xi, nll = fit_gpd(excesses, tick) if fitted is None else fitted
    cells: Excesses = Ties.of(excesses) if tick > 0 else excesses
    xi_ci = xi_profile_ci(lambda v: _sigma_for_xi(v, cells, tick)[1], xi, nll, confidence)
    light_sigma, light_nll = _sigma_for_xi(0.0, cells, tick)
    return GpdFit(
        threshold=threshold,
        exceedances=len(excesses),
        rate=len(excesses) / (len(x) if n is None else n),
        sigma=sigma,
        xi=xi,
        nll=nll,
        xi_ci=xi_ci,
        excesses=excesses,
        confidence=confidence,
        tick=tick,
        offset=offset,
        light_nll=light_nll,
        light_sigma=light_sigma,
    )
