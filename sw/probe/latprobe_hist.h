/*
 * On-line latency histogram with exact count, min, max and sum. Memory comes from the caller
 * (latprobe_hist_size()), so recording never allocates.
 */
#ifndef LATPROBE_HIST_H
#define LATPROBE_HIST_H

#include <stddef.h>
#include <stdint.h>

struct latprobe_hist {
	uint64_t bin_ns;   /**< width of every bin */
	uint64_t nbins;	   /**< bins [k*bin_ns, (k+1)*bin_ns) for k < nbins */
	uint64_t *counts;  /**< nbins counters */
	uint64_t overflow; /**< values >= nbins*bin_ns */
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum; /**< saturates at UINT64_MAX (sum_saturated set) */
	int sum_saturated;
};

/**
 * Bytes of counter memory for @p nbins bins.
 * @return the size, or 0 when it does not fit a size_t.
 */
size_t latprobe_hist_size(uint64_t nbins);

/**
 * Prepare a histogram over caller memory of latprobe_hist_size(nbins) bytes.
 * @return 0, or EINVAL (bin_ns or nbins 0, mem NULL).
 */
int latprobe_hist_init(struct latprobe_hist *hist, uint64_t bin_ns, uint64_t nbins, uint64_t *mem);

/** Count one value (nanoseconds). */
void latprobe_hist_add(struct latprobe_hist *hist, uint64_t value);

/**
 * The nearest-rank percentile from the histogram: an upper bound of the sample of rank
 * ceil(q * count) — the last value of its bin, or the maximum if smaller — so the true value v
 * satisfies result - bin_ns < v <= result; for the overflow bin, the maximum.
 * @param q  quantile in (0, 1].
 * @param out receives nanoseconds.
 * @return 0, EINVAL (q out of range), ENODATA (no samples).
 */
int latprobe_hist_quantile(const struct latprobe_hist *hist, double q, uint64_t *out);

/** Sort @p n values ascending, in place. */
void latprobe_sort(int64_t *values, uint64_t n);

/**
 * The nearest-rank percentile of sorted raw samples, exact: the smallest value with at least
 * ceil(q * n) samples at or below it (numpy's method="inverted_cdf").
 * @return 0, EINVAL (q out of range), ENODATA (n is 0).
 */
int latprobe_quantile_sorted(const int64_t *sorted, uint64_t n, double q, int64_t *out);

#endif /* LATPROBE_HIST_H */
