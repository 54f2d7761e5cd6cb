/*
 * latmon.inputs._textparse: strict, fast parsing of numeric text columns (plain number lists, CSV
 * columns, cyclictest -v "thread: cycle: latency" lines) into int64, for latmon.inputs.textscan.
 *
 * One call parses a buffer of whole lines. Blank lines and lines starting with '#' are
 * skipped. Every other line must hold exactly `nfields` fields separated by `delim`; the
 * field `column` (or every field when column < 0) must be a decimal number: optional blanks,
 * optional sign, digits, optionally '.' and digits, optional blanks. The value is scaled by
 * 10^scale exactly: fraction digits beyond `scale` must be zeros. Parsing stops at the first
 * line that breaks a rule and reports its byte offset, so the caller can name file:line and
 * show the text. No value is ever guessed or rounded.
 *
 * parse(buf, delim, nfields, column, scale, out[, non_negative])
 *     -> (rows, status, offset, max_frac)
 *   buf: bytes-like of whole lines; out: writable int64 buffer (rows x nfields when
 *   column < 0); non_negative (default false): a value below zero is refused (status 5).
 *   status: 0 ok, 1 not a number, 2 wrong field count, 3 too large, 4 finer than the unit,
 *   5 negative. offset: where parsing stopped — the start of the offending line, or the end
 *   of the last line parsed (less than len(buf) only when `out` was full). max_frac: the most
 *   fraction digits written in a parsed value.
 *
 * Limits: |value| < 2^62 after scaling (the readers' LIMIT), checked digit by digit before
 * each step of v * 10 + d, so no digit string, however long, wraps around.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

enum { OK = 0, NOT_A_NUMBER = 1, FIELD_COUNT = 2, TOO_LARGE = 3, TOO_FINE = 4, NEGATIVE = 5 };

/* |value| < 2^62 leaves int64 headroom for sums (the readers' LIMIT). */
#define LIMIT ((int64_t)1 << 62)

static const int64_t POW10[10] = { 1,	   10,	    100,      1000,	 10000,
				   100000, 1000000, 10000000, 100000000, 1000000000 };

static inline int is_blank(unsigned char c)
{
	return c == ' ' || c == '\t';
}

/* Parse one number starting at *pp (blanks before it skipped); leaves *pp after the number
 * and any blanks after it. 0 or an error status. */
static inline int after_field(const unsigned char *p, const unsigned char *end, int delim);

static inline int parse_number(const unsigned char **pp, const unsigned char *end, int scale,
			       int delim, int64_t int_max, int non_negative, int64_t *value,
			       int *frac_digits)
{
	const unsigned char *p = *pp;
	int negative = 0;
	int64_t v = 0;
	const unsigned char *digits_start;
	int frac = 0;
	int64_t frac_value = 0;
	int too_fine = 0;

	while (p < end && is_blank(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+')) {
		negative = *p == '-';
		p++;
	}
	digits_start = p;
	while (p < end && (unsigned)(*p - '0') < 10) {
		const int digit = *p - '0';
		/* v * 10 + digit <= int_max, tested before it is computed: never overflows */
		if (v > (int_max - digit) / 10)
			return TOO_LARGE;
		v = v * 10 + digit;
		p++;
	}
	if (p == digits_start)
		return NOT_A_NUMBER;
	if (p < end && *p == '.') {
		p++;
		if (p == end || (unsigned)(*p - '0') >= 10)
			return NOT_A_NUMBER;
		while (p < end && (unsigned)(*p - '0') < 10) {
			if (frac < scale)
				frac_value = frac_value * 10 + (*p - '0');
			else if (*p != '0')
				too_fine = 1;
			frac++;
			p++;
		}
	}
	while (p < end && is_blank(*p))
		p++;
	if (after_field(p, end, delim) == 2 /* AT_OTHER */)
		return NOT_A_NUMBER;
	if (too_fine)
		return TOO_FINE;
	if (frac < scale)
		frac_value *= POW10[scale - frac];
	v = v * POW10[scale] + frac_value;
	if (v >= LIMIT)
		return TOO_LARGE;
	if (negative && v != 0 && non_negative)
		return NEGATIVE;
	*value = negative ? -v : v;
	*frac_digits = frac;
	*pp = p;
	return OK;
}

/* After a field: the end of the line ("\n" or "\r\n"), the delimiter, or something else. */
enum { AT_EOL, AT_DELIM, AT_OTHER };

static inline int after_field(const unsigned char *p, const unsigned char *end, int delim)
{
	if (p == end || *p == '\n' || (*p == '\r' && (p + 1 == end || p[1] == '\n')))
		return AT_EOL;
	if (*p == (unsigned char)delim)
		return AT_DELIM;
	return AT_OTHER;
}

static PyObject *textparse_parse(PyObject *self, PyObject *args)
{
	Py_buffer in, out;
	int delim, nfields, column, scale;
	int non_negative = 0;
	(void)self;
	if (!PyArg_ParseTuple(args, "y*iiiiw*|p", &in, &delim, &nfields, &column, &scale, &out,
			      &non_negative))
		return NULL;
	if (scale < 0 || scale > 9 || nfields < 1 || column >= nfields) {
		PyBuffer_Release(&in);
		PyBuffer_Release(&out);
		PyErr_SetString(PyExc_ValueError, "parse: bad scale, field count or column");
		return NULL;
	}
	const unsigned char *buf = in.buf;
	const unsigned char *end = buf + in.len;
	int64_t *dst = out.buf;
	const Py_ssize_t per_row = column < 0 ? nfields : 1;
	const Py_ssize_t capacity = out.len / (Py_ssize_t)sizeof(int64_t);
	/* the largest integer part: v * 10^scale <= LIMIT - 1, so adding the fraction
	 * (< 10^scale) cannot overflow; the scaled value is then checked against LIMIT */
	const int64_t int_max = (LIMIT - 1) / POW10[scale];
	Py_ssize_t rows = 0;
	Py_ssize_t written = 0;
	int status = OK;
	int max_frac = 0;
	const unsigned char *line = buf;

	Py_BEGIN_ALLOW_THREADS;
	while (line < end) {
		const unsigned char *p = line;
		while (p < end && is_blank(*p))
			p++;
		if (after_field(p, end, delim) == AT_EOL || *p == '#') {
			/* a blank or comment line */
			const unsigned char *eol = memchr(p, '\n', (size_t)(end - p));
			line = eol ? eol + 1 : end;
			continue;
		}
		if (written + per_row > capacity)
			break; /* no room left: the caller continues from the offset */
		int bad = OK;
		int index = 0;
		p = line;
		while (1) {
			if (column < 0 || index == column) {
				int64_t value;
				int frac = 0;
				bad = parse_number(&p, end, scale, delim, int_max, non_negative,
						   &value, &frac);
				if (bad != OK)
					break;
				if (frac > max_frac)
					max_frac = frac;
				dst[written + (column < 0 ? index : 0)] = value;
			} else {
				while (p < end && *p != (unsigned char)delim && *p != '\n')
					p++;
				if (p > line && p[-1] == '\r' && (p == end || *p == '\n'))
					p--;
			}
			index++;
			int next = after_field(p, end, delim);
			if (next == AT_EOL)
				break;
			if (next == AT_OTHER) {
				bad = NOT_A_NUMBER;
				break;
			}
			if (index >= nfields) {
				bad = FIELD_COUNT;
				break;
			}
			p++; /* the delimiter */
		}
		if (bad == OK && index != nfields)
			bad = FIELD_COUNT;
		if (bad != OK) {
			status = bad;
			break;
		}
		while (p < end && *p != '\n')
			p++;
		line = p < end ? p + 1 : end;
		written += per_row;
		rows++;
	}
	Py_END_ALLOW_THREADS;

	Py_ssize_t offset = line - buf;
	PyBuffer_Release(&in);
	PyBuffer_Release(&out);
	return Py_BuildValue("(nini)", rows, status, offset, max_frac);
}

static PyMethodDef textparse_methods[] = {
	{ "parse", textparse_parse, METH_VARARGS,
	  "parse(buf, delim, nfields, column, scale, out[, non_negative]) -> (rows, status, "
	  "offset, "
	  "max_frac)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef textparse_module = {
	.m_base = PyModuleDef_HEAD_INIT,
	.m_name = "latmon.inputs._textparse",
	.m_doc = "Strict numeric text parsing for latmon.",
	.m_size = -1,
	.m_methods = textparse_methods,
};

PyMODINIT_FUNC PyInit__textparse(void)
{
	return PyModule_Create(&textparse_module);
}
