"""Reference model of hw/rtl/latmon_hist.v: what a bank holds after a set of latencies.

bin = (latency - offset) >> shift; below offset: underflow; bin >= bins: overflow. Counters
saturate at 2^bin_width - 1. Count, sum, min and max cover every latency.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class Bank:
    bins: np.ndarray
    underflow: int = 0
    overflow: int = 0
    count: int = 0
    total: int = 0
    min: int | None = None
    max: int | None = None
    saturated: bool = False
    extra: dict[str, int] = field(default_factory=dict)

    def add(self, other: Bank) -> Bank:
        """Two banks merged (snapshots summed), without saturation."""
        lows = [v for v in (self.min, other.min) if v is not None]
        highs = [v for v in (self.max, other.max) if v is not None]
        return Bank(
            self.bins + other.bins,
            self.underflow + other.underflow,
            self.overflow + other.overflow,
            self.count + other.count,
            self.total + other.total,
            min(lows) if lows else None,
            max(highs) if highs else None,
            self.saturated or other.saturated,
        )


def histogram(
    latencies: np.ndarray, offset: int, shift: int, bins_log2: int, bin_width: int = 32
) -> Bank:
    """The bank after counting ``latencies`` (int64) from zero."""
    n_bins = 1 << bins_log2
    lat = np.asarray(latencies, dtype=np.int64)
    under = lat < offset
    index = (lat - offset) >> shift
    over = ~under & (index >= n_bins)
    inside = ~under & ~over
    counts = np.bincount(index[inside], minlength=n_bins).astype(np.int64)
    top = (1 << bin_width) - 1
    return Bank(
        bins=np.minimum(counts, top),
        underflow=int(under.sum()),
        overflow=int(over.sum()),
        count=len(lat),
        total=int(lat.sum()),
        min=int(lat.min()) if len(lat) else None,
        max=int(lat.max()) if len(lat) else None,
        saturated=bool(np.any(counts > top)),
    )


def source_events(seed: int, cycles: int, lat_mask: int, duty_mask: int) -> np.ndarray:
    """The latencies the testbench's xorshift source offers (tb_latmon_hist.v), in order."""
    from model.xorshift import sequence

    x = sequence(seed, cycles).astype(np.int64)
    valid = ((x >> 28) & duty_mask) == 0
    return (x & lat_mask)[valid]
