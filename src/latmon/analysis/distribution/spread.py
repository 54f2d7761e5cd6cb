"""Bounds of the variance of binned values: the least and the most Σ(x - mean)² over every
placement of each binned value inside its bin, as exact rationals.

Upper: for any centre c, Σ(x - mean)² <= Σ(x - c)² <= Σ max over the bin of (x - c)², taken at a
few centres. Lower: Σ(x - mean)² = min over c of Σ(x - c)² >= min over c of g(c) = Σ dist(c,
bin)², a convex piecewise quadratic whose minimum is found exactly (the sign of g' by binary
search over the bin edges, then the quadratic between two edges)."""

from __future__ import annotations

from fractions import Fraction

from latmon.analysis.distribution.bins import NO_LOWER, NO_UPPER

#: Binned parts with more bins than this get no lower bound of the variance (a Python loop).
VARIANCE_BOUND_BINS = 200_000


def variance_bounds(
    n: int, ddof: int, exact: tuple[int, int, int], bins: list[tuple[int, int, int]]
) -> tuple[Fraction | None, Fraction | None]:
    """(lower, upper) bounds of Σ(x - mean)² / (n - ddof) over ``n`` > ``ddof`` values: the
    exact ones (their count, Σx, Σx²) and the binned ones, bins (lo, hi inclusive, count) with
    NO_LOWER / NO_UPPER on an open side. None: unbounded (an open bin leaves the top open), or
    no lower bound computed beyond VARIANCE_BOUND_BINS bins."""
    dn, d1, d2 = exact
    upper = None
    if all(a != NO_LOWER and b != NO_UPPER for a, b, _ in bins):
        total_lo = d1 + sum(a * k for a, _, k in bins)
        total_hi = d1 + sum(b * k for _, b, k in bins)
        centres = {total_lo // n, -(-total_lo // n), total_hi // n, -(-total_hi // n)}
        centres |= {(total_lo + total_hi) // (2 * n)}

        def spread(c: int) -> int:
            out: int = d2 - 2 * c * d1 + dn * c * c
            for a, b, k in bins:
                out += k * max((a - c) * (a - c), (b - c) * (b - c))
            return out

        upper = Fraction(min(spread(c) for c in centres), n - ddof)
    lower = None
    if len(bins) <= VARIANCE_BOUND_BINS:
        lower = Fraction(_least_spread(dn, d1, d2, bins), n - ddof)
    return lower, upper


def _least_spread(dn: int, d1: int, d2: int, bins: list[tuple[int, int, int]]) -> Fraction:
    """min over real c of g(c) = Σ(x - c)² over exact values (dn of them, sums d1, d2) +
    Σ k·dist(c, [a, b])² over bins (a, b, k); an open side (NO_LOWER / NO_UPPER) adds nothing
    on that side. g is convex: g'(c)/2 = dn·c - d1 + Σ_{b<c} k(c - b) - Σ_{a>c} k(a - c)."""
    points = sorted({e for a, b, _ in bins for e in (a, b) if e not in (NO_LOWER, NO_UPPER)})
    if dn:
        points = sorted(set(points) | {d1 // dn, -(-d1 // dn)})

    def slope(c: int) -> int:
        out = dn * c - d1
        for a, b, k in bins:
            if b != NO_UPPER and b < c:
                out += k * (c - b)
            elif a != NO_LOWER and a > c:
                out -= k * (a - c)
        return out

    def quadratic_min(left: int | None, right: int | None) -> Fraction:
        """The minimum of g on [left, right], where the bins below and above c are fixed."""
        probe = left if left is not None else right
        assert probe is not None
        mid = Fraction(probe) + (Fraction(1, 2) if left is not None else Fraction(-1, 2))
        # g(c) = A c² - 2 B c + C on this piece
        a_sum, b_sum, c_sum = dn, d1, d2
        for a, b, k in bins:
            if b != NO_UPPER and b < mid:
                a_sum, b_sum, c_sum = a_sum + k, b_sum + k * b, c_sum + k * b * b
            elif a != NO_LOWER and a > mid:
                a_sum, b_sum, c_sum = a_sum + k, b_sum + k * a, c_sum + k * a * a
        if a_sum == 0:
            return Fraction(0)
        c = Fraction(b_sum, a_sum)
        if left is not None:
            c = max(c, Fraction(left))
        if right is not None:
            c = min(c, Fraction(right))
        return a_sum * c * c - 2 * b_sum * c + c_sum

    if not points:
        return Fraction(0)
    # the last edge where g' <= 0: the minimum lies between it and the next edge
    lo_i, hi_i = 0, len(points) - 1
    if slope(points[0]) > 0:
        return quadratic_min(None, points[0])
    while lo_i < hi_i:
        mid_i = (lo_i + hi_i + 1) // 2
        if slope(points[mid_i]) <= 0:
            lo_i = mid_i
        else:
            hi_i = mid_i - 1
    right = points[lo_i + 1] if lo_i + 1 < len(points) else None
    return quadratic_min(points[lo_i], right)
