/* Unit tests of latprobe's histogram and percentiles (sw/probe/latprobe_hist.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "../probe/latprobe_hist.h"

#include "check.h"

static void test_hist(void)
{
	uint64_t mem[10], q = 0;
	struct latprobe_hist h;

	CHECK(latprobe_hist_init(&h, 0, 10, mem) == EINVAL);
	CHECK(latprobe_hist_init(&h, 100, 0, mem) == EINVAL);
	CHECK(latprobe_hist_init(&h, 100, 10, mem) == 0);
	CHECK(latprobe_hist_quantile(&h, 0.5, &q) == ENODATA);
	/* 0..99 in bin 0, 100..199 in bin 1, >= 1000 overflow */
	latprobe_hist_add(&h, 0);
	latprobe_hist_add(&h, 99);
	latprobe_hist_add(&h, 100);
	latprobe_hist_add(&h, 150);
	latprobe_hist_add(&h, 5000);
	CHECK(h.counts[0] == 2 && h.counts[1] == 2 && h.overflow == 1 && h.count == 5);
	CHECK(h.min == 0 && h.max == 5000 && h.sum == 5349);
	/* rank ceil(0.4*5)=2 -> bin 0 -> last value 99 */
	CHECK(latprobe_hist_quantile(&h, 0.4, &q) == 0 && q == 99);
	/* rank 3 -> bin 1 -> 199 */
	CHECK(latprobe_hist_quantile(&h, 0.5, &q) == 0 && q == 199);
	/* rank 5 -> overflow -> max */
	CHECK(latprobe_hist_quantile(&h, 1.0, &q) == 0 && q == 5000);
	CHECK(latprobe_hist_quantile(&h, 0.0, &q) == EINVAL);
	CHECK(latprobe_hist_quantile(&h, 1.5, &q) == EINVAL);

	/* the bound never exceeds the maximum */
	CHECK(latprobe_hist_init(&h, 100, 10, mem) == 0);
	latprobe_hist_add(&h, 120);
	CHECK(latprobe_hist_quantile(&h, 0.5, &q) == 0 && q == 120);

	/* the sum saturates instead of wrapping */
	CHECK(latprobe_hist_init(&h, 100, 10, mem) == 0);
	latprobe_hist_add(&h, UINT64_MAX - 1);
	latprobe_hist_add(&h, 10);
	CHECK(h.sum == UINT64_MAX && h.sum_saturated);
}

static void test_exact(void)
{
	/* nearest rank = numpy percentile(method="inverted_cdf") */
	int64_t v[] = { 7, 1, 5, 3, 9, 2, 8, 4, 6, 10 };
	int64_t q = 0;

	latprobe_sort(v, 10);
	CHECK(v[0] == 1 && v[9] == 10);
	CHECK(latprobe_quantile_sorted(v, 10, 0.5, &q) == 0 && q == 5);
	CHECK(latprobe_quantile_sorted(v, 10, 0.51, &q) == 0 && q == 6);
	CHECK(latprobe_quantile_sorted(v, 10, 0.9, &q) == 0 && q == 9);
	CHECK(latprobe_quantile_sorted(v, 10, 0.99, &q) == 0 && q == 10);
	CHECK(latprobe_quantile_sorted(v, 10, 0.01, &q) == 0 && q == 1);
	CHECK(latprobe_quantile_sorted(v, 0, 0.5, &q) == ENODATA);
	/* 0.29 * 100 is 28.999999999999996 in binary floating point: still rank 29 */
	{
		int64_t w[100];

		for (int i = 0; i < 100; i++)
			w[i] = i + 1;
		CHECK(latprobe_quantile_sorted(w, 100, 0.29, &q) == 0 && q == 29);
	}
}

int main(void)
{
	test_hist();
	test_exact();
	return check_report("test_latprobe_hist");
}
