"""The few distribution functions the tail's checks and intervals use, from ``scipy.special``:
the same special functions that ``scipy.stats`` evaluates for them, without importing
``scipy.stats`` (whose import costs about 0.4 s of CPU, more than the fits of a 10⁸-sample
report). tests/test_tail_probability.py checks each against ``scipy.stats``.

The two-sided Kolmogorov–Smirnov distribution (:func:`kstwo_sf`) follows scipy's
``kstwo.sf`` (Simard & L'Ecuyer 2011) where the halves of a long series put it: n above
100,000, where it is twice Smirnov's one-sided tail or one less the Pelz–Good approximation;
elsewhere it is scipy's own."""

from __future__ import annotations

import math

import numpy as np
from scipy import special

_PI_SQUARED = math.pi**2
_PI_FOUR = math.pi**4
_PI_SIX = math.pi**6
_SQRT2PI = math.sqrt(2 * math.pi)
_SQRT3 = math.sqrt(3)
#: exp(x) underflows below this
_MIN_LOG = -708


def norm_sf(x: float) -> float:
    """P(Z > x), Z standard normal."""
    return float(special.ndtr(-x))


def norm_ppf(q: float) -> float:
    """The standard normal quantile of ``q``."""
    return float(special.ndtri(q))


def chi2_sf(x: float, df: float) -> float:
    """P(X > x), X χ² with ``df`` degrees of freedom."""
    return float(special.chdtrc(df, x))


def chi2_ppf(q: float, df: float) -> float:
    """The χ² quantile of ``q`` with ``df`` degrees of freedom."""
    return float(2 * special.gammaincinv(df / 2, q))


def binom_sf(k: int, n: int, p: float) -> float:
    """P(X > k), X binomial(n, p) (1 for k < 0): the regularised incomplete beta function
    I_p(k + 1, n - k), as scipy.stats evaluates it."""
    if k < 0:
        return 1.0
    if k >= n:
        return 0.0
    return float(special.betainc(k + 1, n - k, p))


def kstwo_sf(d: float, n: int) -> float:
    """P(D_n ≥ d) of the two-sided one-sample Kolmogorov–Smirnov statistic of n samples."""
    t = n * d
    if n <= 100_000 or not 0.0 < d < 0.5 or not 1.0 < t < n - 1:
        from scipy import stats  # the other regimes (small n, the extremes): scipy's own

        return float(stats.kstwo.sf(d, n))
    squared = t * d
    if squared >= 370.0:
        return 0.0
    if squared >= 2.2:
        return min(max(2.0 * float(special.smirnov(n, d)), 0.0), 1.0)
    return min(max(1.0 - _pelz_good(n, d), 0.0), 1.0)


# _pelz_good below is ported from SciPy (scipy/stats/_ksstats.py), under SciPy's licence:
#
# Copyright (c) 2001-2002 Enthought, Inc. 2003, SciPy Developers.
# All rights reserved.
#
# Redistribution and use in source and binary forms, with or without modification, are permitted
# provided that the following conditions are met:
#
# 1. Redistributions of source code must retain the above copyright notice, this list of
#    conditions and the following disclaimer.
#
# 2. Redistributions in binary form must reproduce the above copyright notice, this list of
#    conditions and the following disclaimer in the documentation and/or other materials
#    provided with the distribution.
#
# 3. Neither the name of the copyright holder nor the names of its contributors may be used to
#    endorse or promote products derived from this software without specific prior written
#    permission.
#
# THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR
# IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND
# FITNESS FOR A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT OWNER OR
# CONTRIBUTORS BE LIABLE FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR
# CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
# SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND ON ANY
# THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR
# OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE
# POSSIBILITY OF SUCH DAMAGE.


def _pelz_good(n: int, x: float) -> float:
    """The Pelz–Good (1976) approximation to P(D_n ≤ x): K0(z) + K1(z)/√n + K2(z)/n +
    K3(z)/n^1.5 with z = x √n, each K written with Jacobi theta functions for small z. Ported
    from SciPy's ``scipy/stats/_ksstats.py`` (``_kolmogn_PelzGood``; BSD-3-Clause, Copyright
    the SciPy Developers), the same operations in the same order."""
    z = math.sqrt(n) * x
    zsquared, zthree, zfour, zsix = z**2, z**3, z**4, z**6
    qlog = -_PI_SQUARED / 8 / zsquared
    if qlog < _MIN_LOG:
        return 0.0
    q = math.exp(qlog)
    k1a = -zsquared
    k1b = _PI_SQUARED / 4
    k2a = 6 * zsix + 2 * zfour
    k2b = (2 * zfour - 5 * zsquared) * _PI_SQUARED / 4
    k2c = _PI_FOUR * (1 - 2 * zsquared) / 16
    k3d = _PI_SIX * (5 - 30 * zsquared) / 64
    k3c = _PI_FOUR * (-60 * zsquared + 212 * zfour) / 16
    k3b = _PI_SQUARED * (135 * zfour - 96 * zsix) / 4
    k3a = -30 * zsix - 90 * z**8
    terms = np.zeros(4)
    # Horner's scheme for the sums of c_m q^(m²) over odd m = 2k - 1
    maxk = int(np.ceil(16 * z / np.pi))
    for k in range(maxk, 0, -1):
        m = 2 * k - 1
        msquared, mfour, msix = m**2, m**4, m**6
        terms *= np.power(q, 8 * k)
        terms += np.array(
            [
                1.0,
                k1a + k1b * msquared,
                k2a + k2b * msquared + k2c * mfour,
                k3a + k3b * msquared + k3c * mfour + k3d * msix,
            ]
        )
    terms *= q
    terms *= _SQRT2PI
    terms /= np.array([z, 6 * zfour, 72 * z**7, 6480 * z**10])
    # the sums over all k of K2's (π² k²) q^(k²) and K3's (3π² k² z² - π⁴ k⁴) q^(k²)
    q = math.exp(-_PI_SQUARED / 2 / zsquared)
    ks = np.arange(maxk, 0, -1)
    ksquared = ks**2
    sqrt3z = _SQRT3 * z
    kspi = np.pi * ks
    powers = q**ksquared
    terms[2] += np.sum(ksquared * powers) * (_PI_SQUARED * _SQRT2PI / (-36 * zthree))
    terms[3] += np.sum((sqrt3z + kspi) * (sqrt3z - kspi) * ksquared * powers) * (
        _PI_SQUARED * _SQRT2PI / (216 * zsix)
    )
    terms /= np.power(n * 1.0, np.arange(4) / 2.0)
    return float(sum(terms))
