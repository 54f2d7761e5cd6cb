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

enum { BLOCK = 4096 };

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
static void latmon_lag8(const double *a, Py_ssize_t m, Py_ssize_t k, double *sums)
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
		sums[k + j] += t;
	}
}
#endif

/* sums[k] += sum over i < m of a[i] * a[i - k], k = 0..lags (a[-lags..m) readable). Four lags
 * at a time share the loads of a[i..i+8), two vectors each: eight independent sums (eight lags
 * at a time where the CPU has AVX-512: latmon_lag8, the same sums). */
LATMON_CLONES
static void latmon_lag_block(const double *a, Py_ssize_t m, Py_ssize_t lags, double *sums, int lag8)
{
	Py_ssize_t k = 0;
#ifdef LATMON_LAG8
	if (lag8)
		for (; k + 7 <= lags; k += 8)
			latmon_lag8(a, m, k, sums);
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

static PyMethodDef serial_methods[] = {
	{ "add", latmon_serial_add, METH_VARARGS,
	  "add(x, mean, median, sums, prev, kpss, runs): the serial sums of one chunk" },
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
