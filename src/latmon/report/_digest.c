/*
 * latmon.report._digest: one pass over a batch of a streamed series for what the report's
 * digester (latmon.report.stream.Digester) reads of it besides the largest values: the exact
 * sum, and per segment of the batch its lowest and highest value with the first index of each
 * (the segments: the timeline's buckets, the tail's blocks and the halves, cut where any of them
 * starts). Its numpy twin in Digester gives the same where this cannot be compiled.
 *
 * And the offsets of the samples at or above a floor given per segment (the candidates for the
 * pools of largest values, once a pool is full).
 *
 * scan(x, cuts, low, low_at, high, high_at, floors, picked) -> (int, int)
 *   x: int64 buffer, the batch;
 *   cuts: int64 buffer of m + 1 offsets into x, increasing, cuts[0] = 0, cuts[m] = len(x):
 *         segment s is x[cuts[s]..cuts[s + 1]) and is not empty;
 *   low, low_at, high, high_at: int64, writable, m entries each: segment s's lowest value and
 *         the offset in x of its first occurrence, its highest value and the offset of its
 *         first occurrence;
 *   floors: int64, m entries: segment s's floor;
 *   picked: int64, writable, len(x) entries: the offsets i of the samples with x[i] >= the
 *         floor of their segment, in increasing order, from the start.
 * Returns (the sum of x as a Python int, exact: summed in 128 bits; how many were picked);
 * TypeError/ValueError for a bad argument.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* integer minima, maxima and wrapping sums: the same results in every clone */
#define LATMON_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define LATMON_CLONES
#endif

/* lowest and highest of x[a..b) and their sum modulo 2^64, in one vectorised pass */
LATMON_CLONES
static void latmon_extremes(const int64_t *x, Py_ssize_t a, Py_ssize_t b, int64_t *low,
			    int64_t *high, uint64_t *wrapped)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint64_t sum = 0;
	for (Py_ssize_t i = a; i < b; i++) {
		int64_t v = x[i];
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
		sum += (uint64_t)v;
	}
	*low = lo;
	*high = hi;
	*wrapped = sum;
}

/* the first offset of v in x[a..b): 64 samples compared at a time (vectorised), then one by
 * one in the 64 that hold it */
LATMON_CLONES
static Py_ssize_t latmon_first(const int64_t *x, Py_ssize_t a, Py_ssize_t b, int64_t v)
{
	Py_ssize_t i = a;
	for (; i + 64 <= b; i += 64) {
		int hit = 0;
		for (int j = 0; j < 64; j++)
			hit |= x[i + j] == v;
		if (hit)
			break;
	}
	for (; i < b; i++)
		if (x[i] == v)
			return i;
	return b; /* not reached: v is one of x[a..b) */
}

/* the offsets of x[a..b) at or above floor to out[k..), in order: 64 samples tested at a time
 * (vectorised), those of a block with one picked one by one; returns the new k */
LATMON_CLONES
static Py_ssize_t latmon_pick(const int64_t *x, Py_ssize_t a, Py_ssize_t b, int64_t floor,
			      int64_t *out, Py_ssize_t k)
{
	Py_ssize_t i = a;
	for (; i + 64 <= b; i += 64) {
		int hit = 0;
		for (int j = 0; j < 64; j++)
			hit |= x[i + j] >= floor;
		if (!hit)
			continue;
		for (Py_ssize_t j = i; j < i + 64; j++) {
			out[k] = j;
			k += x[j] >= floor;
		}
	}
	for (; i < b; i++) {
		out[k] = i;
		k += x[i] >= floor;
	}
	return k;
}

/* lowest and highest of x[a..b) with their first offsets, and the segment's exact sum: the
 * sum modulo 2^64 is the sum when no partial sum can leave the int64 range (every |x| times
 * the segment's length below 2^63), else it is summed again in 128 bits */
static __int128 latmon_segment(const int64_t *x, Py_ssize_t a, Py_ssize_t b, int64_t *low,
			       int64_t *low_at, int64_t *high, int64_t *high_at)
{
	int64_t lo, hi;
	uint64_t wrapped;
	latmon_extremes(x, a, b, &lo, &hi, &wrapped);
	*low = lo;
	*high = hi;
	*low_at = latmon_first(x, a, b, lo);
	*high_at = latmon_first(x, a, b, hi);
	uint64_t bound = (uint64_t)(lo < 0 ? -(lo + 1) : lo) + 1; /* |lo|, at most 2^63 */
	uint64_t top = (uint64_t)(hi < 0 ? -(hi + 1) : hi) + 1;
	bound = top > bound ? top : bound;
	if (bound <= ((uint64_t)1 << 62) / (uint64_t)(b - a))
		return (__int128)(int64_t)wrapped;
	__int128 total = 0;
	for (Py_ssize_t i = a; i < b; i++)
		total += x[i];
	return total;
}

static int latmon_buffer(PyObject *obj, Py_buffer *view, int writable, const char *what)
{
	if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS) < 0)
		return -1;
	if (view->len % 8 != 0) {
		PyErr_Format(PyExc_ValueError, "%s: not a buffer of 8-byte items", what);
		PyBuffer_Release(view);
		return -1;
	}
	return 0;
}

/* a 128-bit sum as a Python int: high * 2^64 + low */
static PyObject *latmon_int128(__int128 v)
{
	int64_t high = (int64_t)(v >> 64);
	uint64_t low = (uint64_t)v;
	PyObject *h = PyLong_FromLongLong(high), *l = PyLong_FromUnsignedLongLong(low);
	PyObject *shift = PyLong_FromLong(64), *shifted = NULL, *sum = NULL;
	if (h != NULL && l != NULL && shift != NULL)
		shifted = PyNumber_Lshift(h, shift);
	if (shifted != NULL)
		sum = PyNumber_Add(shifted, l);
	Py_XDECREF(h);
	Py_XDECREF(l);
	Py_XDECREF(shift);
	Py_XDECREF(shifted);
	return sum;
}

static PyObject *latmon_digest_scan(PyObject *self, PyObject *args)
{
	PyObject *xo, *cutso, *lowo, *lowato, *higho, *highato, *floorso, *pickedo;
	Py_buffer x, cuts, low, low_at, high, high_at, floors, picked;
	PyObject *result = NULL;
	(void)self;
	if (!PyArg_ParseTuple(args, "OOOOOOOO", &xo, &cutso, &lowo, &lowato, &higho, &highato,
			      &floorso, &pickedo))
		return NULL;
	if (latmon_buffer(xo, &x, 0, "x") < 0)
		return NULL;
	if (latmon_buffer(cutso, &cuts, 0, "cuts") < 0)
		goto release_x;
	if (latmon_buffer(lowo, &low, 1, "low") < 0)
		goto release_cuts;
	if (latmon_buffer(lowato, &low_at, 1, "low_at") < 0)
		goto release_low;
	if (latmon_buffer(higho, &high, 1, "high") < 0)
		goto release_low_at;
	if (latmon_buffer(highato, &high_at, 1, "high_at") < 0)
		goto release_high;
	if (latmon_buffer(floorso, &floors, 0, "floors") < 0)
		goto release_high_at;
	if (latmon_buffer(pickedo, &picked, 1, "picked") < 0)
		goto release_floors;

	Py_ssize_t n = x.len / 8, m = cuts.len / 8 - 1;
	const int64_t *xv = x.buf, *cv = cuts.buf;
	if (m < 1 || low.len / 8 != m || low_at.len / 8 != m || high.len / 8 != m ||
	    high_at.len / 8 != m || floors.len / 8 != m || picked.len / 8 != n) {
		PyErr_SetString(PyExc_ValueError,
				"cuts needs m + 1 >= 2 offsets; low, low_at, high, "
				"high_at and floors m each; picked len(x)");
		goto release_all;
	}
	if (cv[0] != 0 || cv[m] != n) {
		PyErr_SetString(PyExc_ValueError, "cuts must start at 0 and end at len(x)");
		goto release_all;
	}
	for (Py_ssize_t s = 0; s < m; s++) {
		if (cv[s + 1] <= cv[s]) {
			PyErr_SetString(PyExc_ValueError, "cuts must increase (no empty segment)");
			goto release_all;
		}
	}
	int64_t *lv = low.buf, *lav = low_at.buf, *hv = high.buf, *hav = high_at.buf;
	const int64_t *fv = floors.buf;
	int64_t *pv = picked.buf;
	__int128 total = 0;
	Py_ssize_t k = 0;
	Py_BEGIN_ALLOW_THREADS;
	for (Py_ssize_t s = 0; s < m; s++) {
		total += latmon_segment(xv, cv[s], cv[s + 1], lv + s, lav + s, hv + s, hav + s);
		if (hv[s] >= fv[s])
			k = latmon_pick(xv, cv[s], cv[s + 1], fv[s], pv, k);
	}
	Py_END_ALLOW_THREADS;
	PyObject *sum = latmon_int128(total);
	if (sum != NULL)
		result = Py_BuildValue("(Nn)", sum, k);
release_all:
	PyBuffer_Release(&picked);
release_floors:
	PyBuffer_Release(&floors);
release_high_at:
	PyBuffer_Release(&high_at);
release_high:
	PyBuffer_Release(&high);
release_low_at:
	PyBuffer_Release(&low_at);
release_low:
	PyBuffer_Release(&low);
release_cuts:
	PyBuffer_Release(&cuts);
release_x:
	PyBuffer_Release(&x);
	return result;
}

static PyMethodDef digest_methods[] = {
	{ "scan", latmon_digest_scan, METH_VARARGS,
	  "scan(x, cuts, low, low_at, high, high_at, floors, picked) -> (sum, picked)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef digest_module = {
	.m_base = PyModuleDef_HEAD_INIT,
	.m_name = "latmon.report._digest",
	.m_doc = "One pass over a batch of a streamed series: its sum and its segments' extremes.",
	.m_size = -1,
	.m_methods = digest_methods,
};

PyMODINIT_FUNC PyInit__digest(void)
{
	return PyModule_Create(&digest_module);
}
