"""A long series read in chunks: what the tail checks, the tail pool and the timeline's spikes
use so that their memory does not grow with the series."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

#: Series are read in chunks of this many samples: the memory of what reads them does not grow
#: with the series (a 10⁸-sample series is 800 MB; an FFT of it, as statsmodels' acf does,
#: needed 13 times that).
CHUNK = 1 << 20


def chunks(n: int, overlap: int = 0) -> Iterator[tuple[int, int, int]]:
    """(start, stop, stop + overlap clipped to n) of consecutive chunks."""
    for start in range(0, n, CHUNK):
        stop = min(start + CHUNK, n)
        yield start, stop, min(stop + overlap, n)


def largest(values: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` largest values, unsorted; kept chunk by chunk, so nothing of the size of the
    series is copied."""
    x = np.asarray(values)
    k = min(len(x), k)
    if k == 0:
        return x[:0]
    top = x[:0]
    for start, stop, _ in chunks(len(x)):
        merged = np.concatenate((top, x[start:stop]))
        top = (
            np.partition(merged, len(merged) - k)[len(merged) - k :] if len(merged) > k else merged
        )
    return top


def indices(values: np.ndarray, test: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The indices where ``test`` holds, chunk by chunk."""
    found = [np.flatnonzero(test(values[a:b])) + a for a, b, _ in chunks(len(values))]
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)
