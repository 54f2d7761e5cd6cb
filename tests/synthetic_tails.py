"""Latency models with known tails, for the extreme-value tests and the coverage benchmark.

Each model draws integer latencies in ns (i.i.d., in time order) and knows its true quantile
x_p, the latency exceeded with probability p, from its own closed form — independently of
anything in latmon.tail. The four cover the three domains of attraction:

- exponential: 5 µs + Exp(mean 2 µs), the GPD with ξ = 0 exactly;
- lognormal: e^N(ln 20 µs, 0.25²), in the Gumbel domain (ξ = 0) but approached slowly, so a
  GPD fitted at a finite threshold sees a small positive shape;
- uniform: U(10 µs, 50 µs), bounded (ξ = -1);
- pareto: 10 µs · U^(-1/3), a heavy tail (ξ = 1/3) that the shape check must refuse;

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
    draw: Callable[[np.random.Generator, int], np.ndarray]
    true_quantile: Callable[[float], float]


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


MODELS: dict[str, TailModel] = {
    m.name: m
    for m in (
        TailModel("exponential", 0.0, _exponential, lambda p: 5000 + 2000 * math.log(1 / p)),
        TailModel(
            "lognormal",
            0.0,
            _lognormal,
            lambda p: math.exp(math.log(20000.0) + 0.25 * float(sps.norm.isf(p))),
        ),
        TailModel("uniform", -1.0, _uniform, lambda p: 10000 + 40000 * (1 - p)),
        TailModel("pareto", 1 / 3, _pareto, lambda p: 10000 * p ** (-1 / 3)),
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
