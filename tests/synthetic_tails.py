"""Latency models with known tails, for the extreme-value tests and the coverage benchmark.

Each model draws integer latencies in ns (i.i.d., in time order) and knows its true quantile
x_p, the latency exceeded with probability p, from its own closed form — independently of
anything in latmon.tail. The four cover the three domains of attraction:

- exponential: 5 µs + Exp(mean 2 µs), the GPD with ξ = 0 exactly;
- lognormal: e^N(ln 20 µs, 0.25²), in the Gumbel domain (ξ = 0) but approached slowly, so a
  GPD fitted at a finite threshold sees a small positive shape;
- uniform: U(10 µs, 50 µs), bounded (ξ = -1);
- pareto: 10 µs · U^(-1/3), a heavy tail (ξ = 1/3) that the shape check must refuse;

three more light tails of the shapes latency takes (for the coverage on quantised data):

- weibull: 5 µs + 10 µs · Weibull(k = 2), ξ = 0 (a tail lighter than exponential);
- gamma: 5 µs + Gamma(k = 3, 2 µs), ξ = 0;
- gumbel: Gumbel(10 µs, 2 µs), ξ = 0;

two more heavy ones, at and near the limit the shape check must still refuse:

- frechet-0.25 and frechet-0.2: 10 µs + 5 µs · Fréchet of shape 4 or 5, ξ = 1/4 or 1/5;

and one that is common in interrupt latency and hard for a threshold chosen by rule:

- two-paths: a fast path 5 µs + Exp(1 µs) and, in 0.5 % of the activations, a slow path
  15 µs + Exp(5 µs) (a cache miss, a lock, an SMI); the tail is exponential (ξ = 0) only above
  the fast path, so a threshold low enough to include fast-path samples sees a mixture.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy import stats as sps


@dataclass(frozen=True)
class TailModel:
    name: str
    #: the shape parameter of the model's domain of attraction
    xi: float
    #: integer ns (the continuous latency rounded to whole ns)
    draw: Callable[[np.random.Generator, int], np.ndarray]
    #: the quantile x_p of the continuous latency
    true_quantile: Callable[[float], float]
    #: the continuous latency in ns (None: draw is the model itself)
    latency: Callable[[np.random.Generator, int], np.ndarray] | None = None

    def quantised(self, rng: np.random.Generator, n: int, tick: int, how: str) -> np.ndarray:
        """The latency recorded on a grid of ``tick`` ns: rounded to it ("round", a counter)
        or truncated ("floor", cyclictest's µs)."""
        assert self.latency is not None
        x = self.latency(rng, n) / tick
        return ((np.floor(x) if how == "floor" else np.rint(x)) * tick).astype(np.int64)


def _scipy(
    dist: sps.rv_continuous, *args: float, **kwargs: float
) -> tuple[
    Callable[[np.random.Generator, int], np.ndarray],
    Callable[[float], float],
    Callable[[np.random.Generator, int], np.ndarray],
]:
    """draw (whole ns), true quantile and latency (continuous) of a scipy distribution."""

    def latency(rng: np.random.Generator, n: int) -> np.ndarray:
        return np.asarray(dist.rvs(*args, size=n, random_state=rng, **kwargs), dtype=np.float64)

    def draw(rng: np.random.Generator, n: int) -> np.ndarray:
        return np.rint(latency(rng, n)).astype(np.int64)

    return draw, lambda p: float(dist.isf(p, *args, **kwargs)), latency


def _exponential(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.rint(5000 + rng.exponential(2000.0, n)).astype(np.int64)


def _lognormal(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.rint(rng.lognormal(math.log(20000.0), 0.25, n)).astype(np.int64)


def _uniform(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.rint(rng.uniform(10000.0, 50000.0, n)).astype(np.int64)


def _pareto(rng: np.random.Generator, n: int) -> np.ndarray:
    return np.rint(10000.0 * rng.uniform(0.0, 1.0, n) ** (-1.0 / 3.0)).astype(np.int64)


SLOW_FRACTION = 0.005


def _two_paths(rng: np.random.Generator, n: int) -> np.ndarray:
    slow = rng.uniform(size=n) < SLOW_FRACTION
    fast_path = 5000 + rng.exponential(1000.0, n)
    slow_path = 15000 + rng.exponential(5000.0, n)
    return np.rint(np.where(slow, slow_path, fast_path)).astype(np.int64)


def _two_paths_quantile(p: float) -> float:
    """Solves (1-s) e^-(x-5000)/1000 + s e^-(x-15000)/5000 = p above 15 µs (brentq)."""

    def excess(x: float) -> float:
        fast = (1 - SLOW_FRACTION) * math.exp(-(x - 5000) / 1000)
        slow = SLOW_FRACTION * math.exp(-(x - 15000) / 5000)
        return fast + slow - p

    return float(optimize.brentq(excess, 15000, 1e9, xtol=1e-6))


def _continuous(name: str) -> TailModel:
    """The exponential and lognormal models with their continuous latency."""
    draw, quantile, latency = {
        "exponential": _scipy(sps.expon, loc=5000.0, scale=2000.0),
        "lognormal": _scipy(sps.lognorm, 0.25, scale=20000.0),
    }[name]
    return TailModel(name, 0.0, draw, quantile, latency)


MODELS: dict[str, TailModel] = {
    m.name: m
    for m in (
        TailModel(
            "exponential",
            0.0,
            _exponential,
            lambda p: 5000 + 2000 * math.log(1 / p),
            _continuous("exponential").latency,
        ),
        TailModel(
            "lognormal",
            0.0,
            _lognormal,
            lambda p: math.exp(math.log(20000.0) + 0.25 * float(sps.norm.isf(p))),
            _continuous("lognormal").latency,
        ),
        TailModel("weibull", 0.0, *_scipy(sps.weibull_min, 2.0, loc=5000.0, scale=10000.0)),
        TailModel("gamma", 0.0, *_scipy(sps.gamma, 3.0, loc=5000.0, scale=2000.0)),
        TailModel("gumbel", 0.0, *_scipy(sps.gumbel_r, loc=10000.0, scale=2000.0)),
        TailModel("frechet-0.25", 0.25, *_scipy(sps.invweibull, 4.0, loc=10000.0, scale=5000.0)),
        TailModel("frechet-0.2", 0.2, *_scipy(sps.invweibull, 5.0, loc=10000.0, scale=5000.0)),
        TailModel("uniform", -1.0, _uniform, lambda p: 10000 + 40000 * (1 - p)),
        TailModel(
            "pareto",
            1 / 3,
            _pareto,
            lambda p: 10000 * p ** (-1 / 3),
            lambda rng, n: 10000.0 * rng.uniform(0.0, 1.0, n) ** (-1.0 / 3.0),
        ),
        TailModel("two-paths", 0.0, _two_paths, _two_paths_quantile),
    )
}


def ar1(rng: np.random.Generator, n: int, phi: float) -> np.ndarray:
    """Latencies with lag-1 autocorrelation phi: an AR(1) process of exponential-tailed
    innovations (every value depends on the one before)."""
    e = rng.exponential(2000.0, n)
    x = np.empty(n)
    x[0] = e[0]
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return np.rint(5000 + x).astype(np.int64)


def drifting(rng: np.random.Generator, n: int, drift: float) -> np.ndarray:
    """Independent exponential latencies whose level rises by ``drift`` ns over the run (a
    machine that warms up, a queue that fills)."""
    return np.rint(5000 + rng.exponential(2000.0, n) + np.linspace(0, drift, n)).astype(np.int64)
