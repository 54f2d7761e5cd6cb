"""Exact values at chosen ranks after the dense bins had to widen: the same samples read again,
counting only those inside the bins that hold the ranks, in finer bins, pass after pass, until
the bins are one integer wide."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def exact_values(
    reread: Callable[[], Iterable[np.ndarray]],
    targets: dict[int, tuple[int, int, int]],
    max_bins: int,
) -> dict[int, int]:
    """rank -> exact value, for each rank's (bin start, bin width, rank within the bin);
    ``reread()`` yields the samples in batches; at most about ``max_bins`` counts per pass."""
    found: dict[int, int] = {}
    while targets:
        spans = sorted({(s, w) for s, w, _ in targets.values()})
        budget = max(2, max_bins // max(1, len(spans)))
        fine_width = {sw: max(1, _pow2_ceil(-(-sw[1] // budget))) for sw in spans}
        counts = {sw: np.zeros(-(-sw[1] // fine_width[sw]), np.int64) for sw in spans}
        starts = np.asarray([s for s, _ in spans], np.int64)
        for batch in reread():
            v = np.asarray(batch, dtype=np.int64)
            if not len(v):
                continue
            index = np.searchsorted(starts, v, side="right") - 1
            inside = index >= 0
            for k, sw in enumerate(spans):
                sel = v[inside & (index == k)]
                sel = sel[sel < sw[0] + sw[1]]
                if len(sel):
                    off = (sel - sw[0]) // fine_width[sw]
                    counts[sw] += np.bincount(off, minlength=len(counts[sw]))
        nxt: dict[int, tuple[int, int, int]] = {}
        for r, (s, w, k) in targets.items():
            sw = (s, w)
            cum = np.cumsum(counts[sw])
            j = int(np.searchsorted(cum, k))
            fw = fine_width[sw]
            before = int(cum[j - 1]) if j else 0
            if fw == 1:
                found[r] = s + j
            else:
                nxt[r] = (s + j * fw, fw, k - before)
        targets = nxt
    return found


def _pow2_ceil(x: int) -> int:
    return 1 << max(0, (x - 1).bit_length())
