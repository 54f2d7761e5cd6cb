/*
 * latmon.tail._serial: the serial sums of the tail's i.i.d. checks over one chunk of a series
 * read in order (latmon.tail.serial keeps the state between chunks; its pure-numpy twin gives
 * the same sums where this cannot be compiled).
 *
 * add(x, mean, median, sums, prev, kpss, runs)
 *   x: int64 buffer, the next samples of the series;
 *   sums: float64, writable, lags + 1 entries: c_k += sum of d_t * d_(t-k) over the chunk's t,
 *         d = x - mean (the samples before the chunk come from prev);
 *   prev: float64, writable, lags entries: the last `lags` values of d so far, oldest first
 *         (zeros before the series' start: a product with them adds nothing); updated;
 *   kpss: float64, writable, 2 entries: the partial sum of d so far and the sum of its
 *         squares (the KPSS numerator); updated;
 *   runs: int64, writable, 4 entries: samples above the median, below it, changes of side,
 *         and the last side (-1 before the first sample off the median); updated.
 * Returns None; 0 errors but a bad argument (TypeError/ValueError) or no memory.
 *
 * The chunk is summed in blocks of BLOCK samples, each centred, added to the KPSS and runs sums
 * and multiplied with all its lags while it is in the cache (a whole chunk per lag would read it
 * from memory once per lag); the work memory is the lags and one block, whatever the chunk.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 4096, PAD = 7 };

typedef double latmon_v4 __attribute__((vector_size(32)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LATMON_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
/* for loops whose results are the same in every clone (no sums to contract into FMAs) */
#define LATMON_CLONES_V4 __attribute__((target_clones("arch=x86-64-v4", "default")))
#else
#define LATMON_CLONES
#define LATMON_CLONES_V4
#endif

static inline latmon_v4 latmon_load(const double *p)
{
	latmon_v4 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline double latmon_hsum(latmon_v4 v)
{
	return (v[0] + v[2]) + (v[1] + v[3]);
}

/* Lags k..k+7 of sums[] (see latmon_lag_block) in 64-byte vectors, each lag summed exactly as
 * there: there lag k + j has two 4-wide sums, of a[i..i+4) * a[i-k-j..i-k-j+4) and of
 * a[i+4..i+8) * a[i+4-k-j..i+8-k-j); here they are the low and high half of one 8-wide sum of
 * a[i..i+8) * a[i-k-j..i-k-j+8), the same products added in the same order, and reduced as
 * there (halves added, then latmon_hsum). One load and one multiply-add per lag and eight
 * samples, where there are two of each. AVX-512 only (x86-64-v4; latmon_lag_block calls it
 * where the CPU has it): elsewhere a 64-byte vector would be split in two again. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define LATMON_LAG8 1
typedef double latmon_v8 __attribute__((vector_size(64)));

#define LATMON_V4 __attribute__((target("arch=x86-64-v4")))

LATMON_V4
static void latmon_lag8(const double *a, Py_ssize_t m, Py_ssize_t k, double *sums, int count)
{
	latmon_v8 s[8];
	memset(s, 0, sizeof(s));
	Py_ssize_t i = 0;
	for (; i + 8 <= m; i += 8) {
		latmon_v8 x, p;
		memcpy(&x, a + i, sizeof(x));
		for (int j = 0; j < 8; j++) {
			memcpy(&p, a + i - k - j, sizeof(p));
			s[j] += x * p;
		}
	}
	for (int j = 0; j < 8; j++) {
		latmon_v4 low = { s[j][0], s[j][1], s[j][2], s[j][3] };
		latmon_v4 high = { s[j][4], s[j][5], s[j][6], s[j][7] };
		double t = latmon_hsum(low + high);
		for (Py_ssize_t r = i; r < m; r++)
			t += a[r] * a[r - k - j];
		if (j < count)
			sums[k + j] += t;
	}
}

/* Lags k..k+15 of sums[], each summed as latmon_lag8 sums it (the same products added in the
 * same order: lane l of lag k + j takes a[i+l] * a[i+l-k-j] for i = 0, 8, 16, ..., then the
 * same reduction and tail), sixteen samples a step: the second eight samples' lag k + j + 8
 * multiplies a[i+8-(k+j+8)..) = a[i-k-j..), the very vector the first eight samples' lag k + j
 * multiplies, so 24 loads serve 32 multiply-adds where latmon_lag8 needs 32. */
LATMON_V4
static void latmon_lag16(const double *a, Py_ssize_t m, Py_ssize_t k, double *sums)
{
	latmon_v8 s[16];
	memset(s, 0, sizeof(s));
	Py_ssize_t i = 0;
	for (; i + 16 <= m; i += 16) {
		latmon_v8 x0, x1, p;
		const double *b = a + i - k;
		memcpy(&x0, a + i, sizeof(x0));
		memcpy(&x1, a + i + 8, sizeof(x1));
		latmon_v8 shared[8];
		for (int j = 0; j < 8; j++) { /* the first eight samples, lags k..k+7 */
			memcpy(&shared[j], b - j, sizeof(shared[j]));
			s[j] += x0 * shared[j];
		}
		for (int j = 8; j < 16; j++) { /* the first eight samples, lags k+8..k+15 */
			memcpy(&p, b - j, sizeof(p));
			s[j] += x0 * p;
		}
		/* the second eight samples: lags k+8..k+15 on the same vectors, lags k..k+7 */
		for (int j = 0; j < 8; j++) {
			s[j + 8] += x1 * shared[j];
			memcpy(&p, b + 8 - j, sizeof(p));
			s[j] += x1 * p;
		}
	}
	if (i + 8 <= m) { /* latmon_lag8's last step of eight */
		latmon_v8 x, p;
		memcpy(&x, a + i, sizeof(x));
		for (int j = 0; j < 16; j++) {
			memcpy(&p, a + i - k - j, sizeof(p));
			s[j] += x * p;
		}
		i += 8;
	}
	for (int j = 0; j < 16; j++) {
		latmon_v4 low = { s[j][0], s[j][1], s[j][2], s[j][3] };
		latmon_v4 high = { s[j][4], s[j][5], s[j][6], s[j][7] };
		double t = latmon_hsum(low + high);
		for (Py_ssize_t r = i; r < m; r++)
			t += a[r] * a[r - k - j];
		sums[k + j] += t;
	}
}
#endif

/* sums[k] += sum over i < m of a[i] * a[i - k], k = 0..lags (a[-lags-PAD..m) readable: with
 * lag8 == 2 the AVX-512 path sums up to PAD lags beyond the last and leaves them out). Four lags
 * at a time share the loads of a[i..i+8), two vectors each: eight independent sums (eight lags
 * at a time where the CPU has AVX-512: latmon_lag8, the same sums). */
LATMON_CLONES
static void latmon_lag_block(const double *a, Py_ssize_t m, Py_ssize_t lags, double *sums, int lag8)
{
	Py_ssize_t k = 0;
#ifdef LATMON_LAG8
	if (lag8) {
		for (; k + 15 <= lags; k += 16)
			latmon_lag16(a, m, k, sums);
		for (; k + 7 <= lags; k += 8)
			latmon_lag8(a, m, k, sums, 8);
		/* exact sums only (lag8 == 2: whole numbers, the same in any order): the last lags
		 * (fewer than eight) as eight, the first lags - k + 1 kept; the float sums keep
		 * the paths below (where a last lag's sum can differ in its last bit) */
		if (lag8 == 2 && k <= lags) {
			latmon_lag8(a, m, k, sums, (int)(lags - k + 1));
			k = lags + 1;
		}
	}
#else
	(void)lag8;
#endif
	for (; k + 3 <= lags; k += 4) {
		latmon_v4 s[4][2];
		memset(s, 0, sizeof(s));
		Py_ssize_t i = 0;
		for (; i + 8 <= m; i += 8) {
			latmon_v4 x0 = latmon_load(a + i), x1 = latmon_load(a + i + 4);
			for (int j = 0; j < 4; j++) {
				s[j][0] += x0 * latmon_load(a + i - k - j);
				s[j][1] += x1 * latmon_load(a + i + 4 - k - j);
			}
		}
		for (int j = 0; j < 4; j++) {
			double t = latmon_hsum(s[j][0] + s[j][1]);
			for (Py_ssize_t r = i; r < m; r++)
				t += a[r] * a[r - k - j];
			sums[k + j] += t;
		}
	}
	for (; k <= lags; k++) {
		latmon_v4 acc0 = { 0, 0, 0, 0 }, acc1 = { 0, 0, 0, 0 };
		Py_ssize_t i = 0;
		for (; i + 8 <= m; i += 8) {
			acc0 += latmon_load(a + i) * latmon_load(a + i - k);
			acc1 += latmon_load(a + i + 4) * latmon_load(a + i + 4 - k);
		}
		double t = latmon_hsum(acc0 + acc1);
		for (; i < m; i++)
			t += a[i] * a[i - k];
		sums[k] += t;
	}
}

/* a[i] = x[i] - mean: exact conversions, the same in every clone (AVX-512DQ converts four
 * int64 at once; nothing here can be contracted). */
LATMON_CLONES_V4
static void latmon_centre(const int64_t *x, Py_ssize_t m, double mean, double *a)
{
	for (Py_ssize_t i = 0; i < m; i++)
		a[i] = (double)x[i] - mean;
}

/* The runs about the median over x[0..m): r = {above, below, changes of side, last side}. A
 * block with no sample at the median counts its changes between neighbours (vectorised);
 * one with such samples skips them one by one. */
LATMON_CLONES_V4
static void latmon_runs(const int64_t *x, Py_ssize_t m, double median, int64_t *r)
{
	int64_t up = 0, at_median = 0;
	for (Py_ssize_t i = 0; i < m; i++) {
		double v = (double)x[i];
		up += v > median;
		at_median += v == median;
	}
	if (m > 0 && at_median == 0) {
		int64_t flips = 0;
		for (Py_ssize_t i = 1; i < m; i++)
			flips += ((double)x[i] > median) != ((double)x[i - 1] > median);
		int64_t first = (double)x[0] > median;
		r[0] += up;
		r[1] += m - up;
		r[2] += flips + ((r[3] >= 0) & (first != r[3]));
		r[3] = (double)x[m - 1] > median;
		return;
	}
	int64_t above = r[0], below = r[1], changes = r[2], last = r[3];
	for (Py_ssize_t i = 0; i < m; i++) {
		double v = (double)x[i];
		/* branch-free: a sample at the median counts nowhere and keeps the last side */
		int64_t off = v != median, side = v > median;
		above += side;
		below += off & !side;
		changes += off & (last >= 0) & (side != last);
		last = off ? side : last;
	}
	r[0] = above;
	r[1] = below;
	r[2] = changes;
	r[3] = last;
}

static int latmon_buffer(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t itemsize,
			 const char *what)
{
	if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0)
		return -1;
	if (view->len % itemsize != 0) {
		PyErr_Format(PyExc_ValueError, "%s: not a buffer of %zd-byte items", what,
			     itemsize);
		PyBuffer_Release(view);
		return -1;
	}
	return 0;
}

static PyObject *latmon_serial_add(PyObject *self, PyObject *args)
{
	PyObject *xo, *sumso, *prevo, *kpsso, *runso;
	double mean, median;
	Py_buffer x, sums, prev, kpss, runs;
	PyObject *result = NULL;
	(void)self;
	if (!PyArg_ParseTuple(args, "OddOOOO", &xo, &mean, &median, &sumso, &prevo, &kpsso, &runso))
		return NULL;
	if (latmon_buffer(xo, &x, 0, 8, "x") < 0)
		return NULL;
	if (latmon_buffer(sumso, &sums, 1, 8, "sums") < 0)
		goto release_x;
	if (latmon_buffer(prevo, &prev, 1, 8, "prev") < 0)
		goto release_sums;
	if (latmon_buffer(kpsso, &kpss, 1, 8, "kpss") < 0)
		goto release_prev;
	if (latmon_buffer(runso, &runs, 1, 8, "runs") < 0)
		goto release_kpss;

	Py_ssize_t n = x.len / 8, lags = prev.len / 8;
	if (sums.len / 8 != lags + 1 || kpss.len / 8 != 2 || runs.len / 8 != 4) {
		PyErr_SetString(PyExc_ValueError, "sums needs lags + 1 entries, kpss 2, runs 4");
		goto release_all;
	}
	const int64_t *xv = x.buf;
	double *sv = sums.buf, *pv = prev.buf, *kv = kpss.buf;
	int64_t *rv = runs.buf;
	/* d: the last lags centred samples, then the block being summed */
	double *d = malloc((size_t)(lags + BLOCK) * sizeof(double));
	if (d == NULL) {
		PyErr_NoMemory();
		goto release_all;
	}
	memcpy(d, pv, (size_t)lags * sizeof(double));
	double *a = d + lags;
	double partial = kv[0], eta = kv[1];
	int64_t r[4] = { rv[0], rv[1], rv[2], rv[3] };
#ifdef LATMON_LAG8
	int lag8 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
	int lag8 = 0;
#endif
	Py_BEGIN_ALLOW_THREADS;
	/* block by block while it is in the cache: centred, the KPSS sums (in order, one
	 * dependent addition after the other: nothing to reorder), the runs, the lag sums */
	for (Py_ssize_t at = 0; at < n; at += BLOCK) {
		Py_ssize_t m = n - at < BLOCK ? n - at : BLOCK;
		latmon_centre(xv + at, m, mean, a);
		for (Py_ssize_t i = 0; i < m; i++) {
			partial += a[i];
			eta += partial * partial;
		}
		latmon_runs(xv + at, m, median, r);
		latmon_lag_block(a, m, lags, sv, lag8);
		/* the last lags values of d so far to the front, for the next block's lags */
		memmove(d, d + m, (size_t)lags * sizeof(double));
	}
	Py_END_ALLOW_THREADS;
	memcpy(pv, d, (size_t)lags * sizeof(double));
	free(d);
	kv[0] = partial;
	kv[1] = eta;
	memcpy(rv, r, sizeof(r));
	result = Py_NewRef(Py_None);
release_all:
	PyBuffer_Release(&runs);
release_kpss:
	PyBuffer_Release(&kpss);
release_prev:
	PyBuffer_Release(&prev);
release_sums:
	PyBuffer_Release(&sums);
release_x:
	PyBuffer_Release(&x);
	return result;
}

/* ---- moments: the exact integer sums of one pass, before the mean and median are known ----
 *
 * moments(x, offset, prev, state, window)
 *   x: int64 buffer, the next samples; y = x - offset (offset: a whole number near the mean);
 *   prev: int64, writable, lags entries: the last `lags` values of y so far, oldest first
 *         (zeros before the series' start); updated;
 *   state: int64, writable, 2 * (lags + 1) + 8 entries: the 128-bit sums (low word, then
 *         high word) P_k = sum of y_t * y_(t-k), k = 0..lags; then T (the partial sum of y),
 *         sum of T_t^2 and sum of t * T_t (t = 1, 2, ...: the KPSS numerator), as 128-bit
 *         pairs; then t, and the flag "not exact" (a value or a sum beyond the bounds below:
 *         the caller sums in a second pass instead); updated;
 *   window: int64, writable, 5 + 4 * W + 1 entries: base, W, then the collapsed series' last
 *         two values and how many there are (0..2); then diff (2 W + 1) and point (2 W): the
 *         changes of side about every threshold base + j / 2, j = 0..2W-1 (runs test about a
 *         median not known yet) are the prefix sums of diff plus point; updated.
 * Exact: P_k of samples within CLAMP of offset is summed in doubles a block at a time (every
 * product and partial sum a whole number below 2^53), the rest (outliers) in 128-bit integers;
 * |y| must stay below 2^40, T below 2^63 and the sums within 128 bits (else "not exact"). */

enum { CLAMP = 1 << 20, MOMENTS_HEAD = 8 };

static inline __int128 latmon_get128(const int64_t *p)
{
	return (__int128)(((unsigned __int128)(uint64_t)p[1] << 64) | (uint64_t)p[0]);
}

static inline void latmon_put128(int64_t *p, __int128 v)
{
	p[0] = (int64_t)(uint64_t)(unsigned __int128)v;
	p[1] = (int64_t)(uint64_t)((unsigned __int128)v >> 64);
}

static inline int64_t latmon_clamp(int64_t y)
{
	return y > CLAMP ? CLAMP : (y < -CLAMP ? -CLAMP : y);
}

/* y = x - offset and its clamped copy a over x[0..m); returns -1 when a value is 2^40 or more
 * from the offset (or x - offset overflows), else whether one lies beyond the clamp. */
LATMON_CLONES_V4
LATMON_CLONES_V4
static int latmon_offsets(const int64_t *x, Py_ssize_t m, int64_t offset, int64_t *y, double *a)
{
	const int64_t far = (int64_t)1 << 40;
	int64_t low = INT64_MAX, high = INT64_MIN;
	for (Py_ssize_t i = 0; i < m; i++) {
		low = x[i] < low ? x[i] : low;
		high = x[i] > high ? x[i] : high;
	}
	/* the whole block within 2^40 of the offset: then no subtraction overflows */
	if (m > 0 && ((offset > 0 && low < INT64_MIN + offset) ||
		      (offset < 0 && high > INT64_MAX + offset) || low - offset <= -far ||
		      high - offset >= far))
		return -1;
	for (Py_ssize_t i = 0; i < m; i++) {
		int64_t v = x[i] - offset;
		y[i] = v;
		a[i] = (double)(v > CLAMP ? CLAMP : (v < -CLAMP ? -CLAMP : v));
	}
	return m > 0 && (low - offset < -CLAMP || high - offset > CLAMP);
}

/* The KPSS sums over y[0..m): T += y_t, sq += T^2, tt += t T (t counting on from *t); returns
 * nonzero when a bound could be passed. With T = T0 + U_i inside the block (U the block's own
 * prefix sums, in u): sum T^2 = m T0^2 + 2 T0 sum U + sum U^2 and sum (t0 + i) T = T0 sum
 * (t0 + i) + t0 sum U + sum i U, each sum of U exact in 64 bits while |U| < 2^25 (m <= 2^12);
 * else in 128 bits. T below 2^57 and t below 2^40 keep every sum within 128 bits. */
LATMON_CLONES_V4
static int latmon_kpss(const int64_t *y, Py_ssize_t m, __int128 *t_sum, __int128 *sq, __int128 *tt,
		       int64_t *t, int64_t *u)
{
	const int64_t far = (int64_t)1 << 57;
	int64_t run = 0, big = 0;
	for (Py_ssize_t i = 0; i < m; i++) {
		run += y[i]; /* |y| < 2^40, m <= 2^12: no overflow */
		u[i] = run;
		int64_t a = run < 0 ? -run : run;
		big = a > big ? a : big;
	}
	__int128 t0 = *t_sum;
	int64_t k0 = *t;
	if (t0 >= far || t0 <= -far || big >= far - (t0 < 0 ? -t0 : t0) || k0 >= ((int64_t)1 << 40))
		return 1;
	__int128 s1 = 0, s2 = 0, s3 = 0;
	if (big < ((int64_t)1 << 25)) {
		int64_t a1 = 0, a2 = 0, a3 = 0;
		for (Py_ssize_t i = 0; i < m; i++) {
			a1 += u[i];
			a2 += u[i] * u[i];
			a3 += (int64_t)(i + 1) * u[i];
		}
		s1 = a1;
		s2 = a2;
		s3 = a3;
	} else {
		for (Py_ssize_t i = 0; i < m; i++) {
			s1 += u[i];
			s2 += (__int128)u[i] * u[i];
			s3 += (__int128)(i + 1) * u[i];
		}
	}
	/* t = k0 + i + 1 for the block's i-th sample: sum t = m k0 + m (m + 1) / 2 */
	__int128 ts = (__int128)m * k0 + (__int128)m * (m + 1) / 2;
	int bad = __builtin_add_overflow(*sq, (__int128)m * t0 * t0 + 2 * t0 * s1 + s2, sq);
	bad |= __builtin_add_overflow(*tt, t0 * ts + (__int128)k0 * s1 + s3, tt);
	*t_sum = t0 + run;
	*t = k0 + m;
	return bad;
}

/* The changes of side about every threshold base + j / 2 of the window, j = 0..2W-1, over
 * x[0..m) (a sample at the threshold left out, as the runs test leaves it): w = {base, W, the
 * last sample, the sample before the run of equal values that ends it, flags: 1 a last sample,
 * 2 the run has one before it}; diff and point as in moments. A pair of neighbours lo < hi
 * changes side about every m with lo < m < hi; a run of samples equal to a threshold m changes
 * side about m when its neighbours lie on either side (point). A pair with both ends outside
 * and on either side of the window counts in diff[0] and diff[2W] once at the end; only pairs
 * with an end in the window (rare: the window is narrow) are followed one by one. */
/* the pairs of neighbours x[i-1], x[i] (i = 1..m-1) on either side of the whole window */
LATMON_CLONES_V4
static int64_t latmon_across(const int64_t *x, Py_ssize_t m, int64_t base, int64_t top)
{
	int64_t across = 0;
	for (Py_ssize_t i = 1; i < m; i++) {
		int64_t a = x[i - 1], v = x[i];
		int64_t lo = a < v ? a : v, hi = a < v ? v : a;
		across += (lo < base) & (hi >= top);
	}
	return across;
}

/* the samples of x[0..m) (m <= BLOCK) inside the window [base, base + width): bit i % 64 of
 * inside[i / 64]; the same in every clone (comparisons only) */
LATMON_CLONES_V4
static void latmon_inside(const int64_t *x, Py_ssize_t m, int64_t base, uint64_t width,
			  uint64_t *inside)
{
	for (Py_ssize_t at = 0; at < m; at += 64) {
		Py_ssize_t end = m - at < 64 ? m - at : 64;
		uint64_t bits = 0;
		for (Py_ssize_t j = 0; j < end; j++)
			bits |= (uint64_t)((uint64_t)x[at + j] - (uint64_t)base < width) << j;
		inside[at / 64] = bits;
	}
}

static void latmon_window(const int64_t *x, Py_ssize_t m, int64_t *w, int64_t *diff, int64_t *point)
{
	const int64_t base = w[0], span = 2 * w[1], top = base + w[1];
	const uint64_t width = (uint64_t)w[1];
	int64_t last = w[2], before = w[3], flags = w[4];
	uint64_t inside[BLOCK / 64];
	if (m <= 0)
		return;
	int64_t across = latmon_across(x, m, base, top);
	if (flags & 1) {
		int64_t lo = last < x[0] ? last : x[0], hi = last < x[0] ? x[0] : last;
		across += (lo < base) & (hi >= top);
	}
	/* the pairs with an end in the window, in order (rare: the window is narrow): the i
	 * whose sample (bit i of inside) or whose predecessor (bit i - 1; the last sample so far
	 * for i = 0) lies in it; the first sample of the series has none before it */
	latmon_inside(x, m, base, width, inside);
	uint64_t carry = (flags & 1) && (uint64_t)last - (uint64_t)base < width;
	for (Py_ssize_t word = 0; word * 64 < m; word++) {
		uint64_t bits = inside[word];
		uint64_t ends = bits | (bits << 1) | carry; /* i with an end in the window */
		carry = bits >> 63;
		if (word == 0 && !(flags & 1))
			ends &= ~(uint64_t)1;
		while (ends) {
			int bit = __builtin_ctzll(ends);
			ends &= ends - 1;
			Py_ssize_t i = word * 64 + bit;
			if (i >= m)
				break;
			int64_t v = x[i];
			int in_v = (int)((bits >> bit) & 1);
			int64_t a = i ? x[i - 1] : last;
			int in_a = (uint64_t)a - (uint64_t)base < width;
			if (a != v) {
				int64_t lo = a < v ? a : v, hi = a < v ? v : a;
				int64_t j0 = lo < base ? 0 : 2 * (lo - base) + 1;
				int64_t j1 = hi >= top ? span - 1 : 2 * (hi - base) - 1;
				if (j0 <= j1) {
					diff[j0] += 1;
					diff[j1 + 1] -= 1;
				}
				/* the run of a ends: a change about a when it lies between its
				 * neighbours */
				if (in_a && (flags & 2) &&
				    ((before < a && a < v) || (v < a && a < before)))
					point[2 * (a - base)] += 1;
				if (in_v) { /* a run of v starts after a */
					before = a;
					flags |= 2;
				}
			}
		}
	}
	diff[0] += across;
	diff[span] -= across;
	w[2] = x[m - 1];
	w[3] = before;
	w[4] = flags | 1;
}

static PyObject *latmon_serial_moments(PyObject *self, PyObject *args)
{
	PyObject *xo, *prevo, *stateo, *windowo;
	long long offset;
	Py_buffer x, prev, state, window;
	PyObject *result = NULL;
	(void)self;
	if (!PyArg_ParseTuple(args, "OLOOO", &xo, &offset, &prevo, &stateo, &windowo))
		return NULL;
	if (latmon_buffer(xo, &x, 0, 8, "x") < 0)
		return NULL;
	if (latmon_buffer(prevo, &prev, 1, 8, "prev") < 0)
		goto release_x;
	if (latmon_buffer(stateo, &state, 1, 8, "state") < 0)
		goto release_prev;
	if (latmon_buffer(windowo, &window, 1, 8, "window") < 0)
		goto release_state;
	Py_ssize_t n = x.len / 8, lags = prev.len / 8;
	int64_t *wv = window.buf;
	if (state.len / 8 != 2 * (lags + 1) + MOMENTS_HEAD || window.len / 8 < 5 || wv[1] < 0 ||
	    window.len / 8 != 5 + 4 * wv[1] + 1) {
		PyErr_SetString(PyExc_ValueError,
				"state needs 2 (lags + 1) + 8 entries, window 5 + 4 W + 1");
		goto release_all;
	}
	int64_t *sv = state.buf;
	if (sv[2 * (lags + 1) + MOMENTS_HEAD - 1]) { /* already not exact: nothing to add */
		result = Py_NewRef(Py_None);
		goto release_all;
	}
	int64_t *yh = malloc((size_t)(lags + BLOCK) * sizeof(int64_t));
	/* at least PAD zeros before the clamped history (see latmon_lag_block), the block
	 * itself on a 64-byte boundary (its own vectors' loads within a cache line) */
	Py_ssize_t front = (PAD + lags + 7) / 8 * 8 - lags;
	size_t bytes = (size_t)(front + lags + BLOCK) * sizeof(double);
	double *padded = aligned_alloc(64, (bytes + 63) / 64 * 64);
	if (padded != NULL)
		memset(padded, 0, bytes);
	double *block = malloc((size_t)(lags + 1) * sizeof(double));
	__int128 *p = malloc((size_t)(lags + 1) * sizeof(__int128));
	int64_t *prefix = malloc(BLOCK * sizeof(int64_t));
	if (yh == NULL || padded == NULL || block == NULL || p == NULL || prefix == NULL) {
		free(prefix);
		free(yh);
		free(padded);
		free(block);
		free(p);
		PyErr_NoMemory();
		goto release_all;
	}
	double *d = padded + front;
	const int64_t *xv = x.buf;
	int64_t *pv = prev.buf;
	for (Py_ssize_t k = 0; k <= lags; k++)
		p[k] = latmon_get128(sv + 2 * k);
	int64_t *head = sv + 2 * (lags + 1);
	__int128 t_sum = latmon_get128(head), sq = latmon_get128(head + 2),
		 tt = latmon_get128(head + 4);
	int64_t t = head[6];
	int bad = 0;
	int64_t *diff = wv + 5, *point = wv + 5 + 2 * wv[1] + 1;
	for (Py_ssize_t i = 0; i < lags; i++) {
		yh[i] = pv[i];
		d[i] = (double)latmon_clamp(pv[i]);
	}
#ifdef LATMON_LAG8
	int lag8 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
#else
	int lag8 = 0;
#endif
	Py_BEGIN_ALLOW_THREADS;
	for (Py_ssize_t at = 0; at < n && !bad; at += BLOCK) {
		Py_ssize_t m = n - at < BLOCK ? n - at : BLOCK;
		int64_t *y = yh + lags;
		double *a = d + lags;
		int outliers = latmon_offsets(xv + at, m, (int64_t)offset, y, a);
		if (outliers < 0 || latmon_kpss(y, m, &t_sum, &sq, &tt, &t, prefix)) {
			bad = 1;
			break;
		}
		latmon_window(xv + at, m, wv, diff, point);
		/* the clamped products in doubles: |a| <= 2^20, m <= 2^12 samples a lag, so every
		 * partial sum is a whole number below 2^53, exact in any order */
		memset(block, 0, (size_t)(lags + 1) * sizeof(double));
		latmon_lag_block(a, m, lags, block, lag8 ? 2 : 0);
		for (Py_ssize_t k = 0; k <= lags; k++)
			bad |= __builtin_add_overflow(p[k], (__int128)(int64_t)block[k], &p[k]);
		/* the outliers' part of their products: y y' - c c' where the sample (first loop)
		 * or its k-th predecessor (second) lies beyond the clamp */
		for (Py_ssize_t j = 0; j < lags + m && (outliers || j < lags); j++) {
			int64_t yj = yh[j], cj = latmon_clamp(yj);
			if (yj == cj)
				continue;
			if (j >= lags) /* the sample at j with each predecessor j - k */
				for (Py_ssize_t k = 0; k <= lags; k++) {
					__int128 e = (__int128)yj * yh[j - k] -
						     (__int128)cj * latmon_clamp(yh[j - k]);
					bad |= __builtin_add_overflow(p[k], e, &p[k]);
				}
			/* the sample at j as the predecessor of a later one i = j + k of this
			 * block that is not an outlier (those counted it above) */
			for (Py_ssize_t k = 1; k <= lags; k++) {
				Py_ssize_t i = j + k;
				if (i < lags)
					continue;
				if (i >= lags + m)
					break;
				int64_t yi = yh[i], ci = latmon_clamp(yi);
				if (yi != ci)
					continue;
				__int128 e = (__int128)yi * yj - (__int128)ci * cj;
				bad |= __builtin_add_overflow(p[k], e, &p[k]);
			}
		}
		memmove(yh, yh + m, (size_t)lags * sizeof(int64_t));
		memmove(d, d + m, (size_t)lags * sizeof(double));
	}
	Py_END_ALLOW_THREADS;
	if (!bad) {
		memcpy(pv, yh, (size_t)lags * sizeof(int64_t));
		for (Py_ssize_t k = 0; k <= lags; k++)
			latmon_put128(sv + 2 * k, p[k]);
		latmon_put128(head, t_sum);
		latmon_put128(head + 2, sq);
		latmon_put128(head + 4, tt);
		head[6] = t;
	}
	head[7] = bad;
	free(prefix);
	free(yh);
	free(padded);
	free(block);
	free(p);
	result = Py_NewRef(Py_None);
release_all:
	PyBuffer_Release(&window);
release_state:
	PyBuffer_Release(&state);
release_prev:
	PyBuffer_Release(&prev);
release_x:
	PyBuffer_Release(&x);
	return result;
}

static PyMethodDef serial_methods[] = {
	{ "add", latmon_serial_add, METH_VARARGS,
	  "add(x, mean, median, sums, prev, kpss, runs): the serial sums of one chunk" },
	{ "moments", latmon_serial_moments, METH_VARARGS,
	  "moments(x, offset, prev, state, window): the exact integer sums of one chunk" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef serial_module = {
	.m_base = PyModuleDef_HEAD_INIT,
	.m_name = "latmon.tail._serial",
	.m_doc = "The serial sums of the tail's i.i.d. checks, chunk by chunk.",
	.m_size = -1,
	.m_methods = serial_methods,
};

PyMODINIT_FUNC PyInit__serial(void)
{
	return PyModule_Create(&serial_module);
}
