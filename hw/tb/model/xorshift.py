"""The 32-bit xorshift generator of latmon_stim (and of the histogram testbench's event source):
x ^= x << 13; x ^= x >> 17; x ^= x << 5, all modulo 2^32."""

from __future__ import annotations

import numpy as np

MASK = 0xFFFFFFFF


def xorshift(x: int) -> int:
    x ^= (x << 13) & MASK
    x ^= x >> 17
    return x ^ ((x << 5) & MASK)


def sequence(seed: int, n: int) -> np.ndarray:
    """seed, xorshift(seed), ... : n states (uint32)."""
    out = np.empty(n, dtype=np.uint32)
    x = seed & MASK
    for i in range(n):
        out[i] = x
        x = xorshift(x)
    return out
