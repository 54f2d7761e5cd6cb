/* latprobe on-line histogram; see latprobe_hist.h. */
#include "latprobe_hist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t latprobe_hist_size(uint64_t nbins)
{
	if (nbins == 0 || nbins > SIZE_MAX / sizeof(uint64_t))
		return 0;
	return (size_t)nbins * sizeof(uint64_t);
}

int latprobe_hist_init(struct latprobe_hist *hist, uint64_t bin_ns, uint64_t nbins, uint64_t *mem)
{
	if (!hist || !mem || bin_ns == 0 || nbins == 0 || latprobe_hist_size(nbins) == 0)
		return EINVAL;
	memset(hist, 0, sizeof(*hist));
	hist->bin_ns = bin_ns;
	hist->nbins = nbins;
	hist->counts = mem;
	memset(mem, 0, latprobe_hist_size(nbins));
	hist->min = UINT64_MAX;
	return 0;
}

void latprobe_hist_add(struct latprobe_hist *hist, uint64_t value)
{
	uint64_t bin = value / hist->bin_ns;

	if (bin < hist->nbins)
		hist->counts[bin]++;
	else
		hist->overflow++;
	hist->count++;
	if (value < hist->min)
		hist->min = value;
	if (value > hist->max)
		hist->max = value;
	if (hist->sum > UINT64_MAX - value) {
		hist->sum = UINT64_MAX;
		hist->sum_saturated = 1;
	} else {
		hist->sum += value;
	}
}

/* ceil(q * n) as an integer rank in 1..n, computed in double precision exactly as numpy's
 * percentile(method="inverted_cdf") does, so that both give the same sample */
static uint64_t rank_of(double q, uint64_t n)
{
	double r = ceil(q * (double)n);
	uint64_t rank;

	if (r < 1)
		return 1;
	rank = (uint64_t)r;
	return rank > n ? n : rank;
}

int latprobe_hist_quantile(const struct latprobe_hist *hist, double q, uint64_t *out)
{
	uint64_t rank, seen = 0;

	if (!(q > 0.0 && q <= 1.0))
		return EINVAL;
	if (hist->count == 0)
		return ENODATA;
	rank = rank_of(q, hist->count);
	for (uint64_t k = 0; k < hist->nbins; k++) {
		seen += hist->counts[k];
		if (seen >= rank) {
			uint64_t last = (k + 1) * hist->bin_ns - 1;
			/* never above the maximum seen: the bin's last value may be */
			*out = last < hist->max ? last : hist->max;
			return 0;
		}
	}
	*out = hist->max;
	return 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

void latprobe_sort(int64_t *values, uint64_t n)
{
	qsort(values, n, sizeof(*values), cmp_i64);
}

int latprobe_quantile_sorted(const int64_t *sorted, uint64_t n, double q, int64_t *out)
{
	if (!(q > 0.0 && q <= 1.0))
		return EINVAL;
	if (n == 0)
		return ENODATA;
	*out = sorted[rank_of(q, n) - 1];
	return 0;
}
