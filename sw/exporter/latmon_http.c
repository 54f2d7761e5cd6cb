/* latmon HTTP request parser; see latmon/latmon_http.h. */
#include "latmon/latmon_http.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

const char *latmon_http_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 408:
		return "Request Timeout";
	case 414:
		return "URI Too Long";
	case 431:
		return "Request Header Fields Too Large";
	case 500:
		return "Internal Server Error";
	case 501:
		return "Not Implemented";
	case 503:
		return "Service Unavailable";
	case 505:
		return "HTTP Version Not Supported";
	}
	return "Error";
}

/* RFC 9110 token characters */
static bool tchar(char c)
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	return c && strchr("!#$%&'*+-.^_`|~", c) != NULL;
}

static int bad(struct latmon_http_request *req, int status, const char *why)
{
	req->status = status;
	req->why = why;
	return 0;
}

/* The end of the line starting at p (the LF), or NULL; bare LF is accepted as well as CRLF. */
static const char *line_end(const char *p, const char *end)
{
	const char *lf = memchr(p, '\n', (size_t)(end - p));

	return lf;
}

/* The line's text length without its CR. */
static size_t line_len(const char *p, const char *lf)
{
	size_t n = (size_t)(lf - p);

	return n && p[n - 1] == '\r' ? n - 1 : n;
}

static bool token_has(const char *value, size_t len, const char *token)
{
	/* a comma-separated list, compared without case: "keep-alive, Upgrade" */
	size_t tlen = strlen(token);
	const char *p = value, *end = value + len;

	while (p < end) {
		const char *comma = memchr(p, ',', (size_t)(end - p));
		const char *e = comma ? comma : end;

		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if ((size_t)(e - p) == tlen && !strncasecmp(p, token, tlen))
			return true;
		p = comma ? comma + 1 : end;
	}
	return false;
}

static int request_line(const char *p, size_t n, struct latmon_http_request *req)
{
	const char *end = p + n, *sp1, *sp2, *target;
	size_t mlen, tlen;

	for (const char *c = p; c < end; c++) {
		if ((unsigned char)*c < 0x21 && *c != ' ')
			return bad(req, 400, "control character in the request line");
		if ((unsigned char)*c == 0x7f)
			return bad(req, 400, "control character in the request line");
	}
	sp1 = memchr(p, ' ', n);
	if (!sp1)
		return bad(req, 400, "the request line is not METHOD TARGET HTTP/1.x");
	sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
	if (!sp2 || memchr(sp2 + 1, ' ', (size_t)(end - sp2 - 1)))
		return bad(req, 400, "the request line is not METHOD TARGET HTTP/1.x");
	mlen = (size_t)(sp1 - p);
	if (!mlen)
		return bad(req, 400, "no method");
	for (const char *c = p; c < sp1; c++) {
		if (!tchar(*c))
			return bad(req, 400, "the method is not a token");
	}
	/* version first: a request of another protocol gets 505/400, not 405 */
	if ((size_t)(end - sp2 - 1) != 8 || strncmp(sp2 + 1, "HTTP/", 5) || sp2[6] < '0' ||
	    sp2[6] > '9' || sp2[7] != '.' || sp2[8] < '0' || sp2[8] > '9')
		return bad(req, 400, "the version is not HTTP/1.0 or HTTP/1.1");
	if (sp2[6] != '1')
		return bad(req, 505, "only HTTP/1.x is spoken here");
	req->minor = sp2[8] - '0';
	if (mlen == 3 && !memcmp(p, "GET", 3))
		req->method = LATMON_HTTP_GET;
	else if (mlen == 4 && !memcmp(p, "HEAD", 4))
		req->method = LATMON_HTTP_HEAD;
	else
		req->method = LATMON_HTTP_OTHER;
	target = sp1 + 1;
	tlen = (size_t)(sp2 - target);
	if (!tlen)
		return bad(req, 400, "no request target");
	/* absolute form (RFC 9112 3.2.2): the path after the authority */
	if (tlen > 7 && !strncasecmp(target, "http://", 7)) {
		const char *slash = memchr(target + 7, '/', tlen - 7);

		if (!slash)
			target = "/", tlen = 1;
		else
			tlen -= (size_t)(slash - target), target = slash;
	}
	if (*target != '/')
		return bad(req, 400, "the request target is not a path");
	if (tlen >= LATMON_HTTP_MAX_TARGET)
		return bad(req, 414, "the request target is too long");
	{
		size_t plen = strcspn(target, "?# ");

		if (plen > tlen)
			plen = tlen;
		memcpy(req->path, target, plen);
		req->path[plen] = '\0';
	}
	return 0;
}

static void keep_accept(struct latmon_http_request *req, const char *v, size_t n)
{
	size_t used = strlen(req->accept);

	if (used && used + 1 < sizeof(req->accept))
		req->accept[used++] = ',';
	/* keep whole ranges only: cut a long value at its last comma that fits */
	if (used + n >= sizeof(req->accept)) {
		size_t room = sizeof(req->accept) - used - 1;

		while (room && v[room] != ',')
			room--;
		n = room;
	}
	memcpy(req->accept + used, v, n);
	req->accept[used + n] = '\0';
}

int latmon_http_parse(const char *buf, size_t len, size_t max_header,
		      struct latmon_http_request *req)
{
	const char *p = buf, *end = buf + len, *lf;
	bool host = false, connection_close = false, connection_keep = false;
	unsigned nheaders = 0;
	int rc;

	memset(req, 0, sizeof(*req));
	/* an empty line or two before the request line is allowed (RFC 9112 2.2) */
	while (p < end && (*p == '\r' || *p == '\n') && p - buf < 4)
		p++;
	if (len > max_header)
		end = buf + max_header;
	lf = line_end(p, end);
	if (!lf) {
		/* bytes no request line holds (a TLS hello, binary noise): no need to wait */
		for (const char *c = p; c < end; c++) {
			unsigned char u = (unsigned char)*c;

			if ((u < 0x20 && u != '\r') || u >= 0x7f)
				return bad(req, 400, "not an HTTP request");
		}
		if (len >= max_header)
			return bad(req, 414, "the request line is too long");
		return EAGAIN;
	}
	rc = request_line(p, line_len(p, lf), req);
	if (rc || req->status)
		return rc;
	for (p = lf + 1;; p = lf + 1) {
		const char *colon, *v, *ve;
		size_t n;

		lf = line_end(p, end);
		if (!lf) {
			if (len >= max_header)
				return bad(req, 431, "the request header is too large");
			return EAGAIN;
		}
		n = line_len(p, lf);
		if (n == 0)
			break; /* the end of the header */
		if (++nheaders > LATMON_HTTP_MAX_HEADERS)
			return bad(req, 431, "too many header fields");
		if (*p == ' ' || *p == '\t')
			return bad(req, 400, "folded header line (obsolete line folding)");
		colon = memchr(p, ':', n);
		if (!colon || colon == p)
			return bad(req, 400, "a header line without a field name and colon");
		for (const char *c = p; c < colon; c++) {
			if (!tchar(*c))
				return bad(req, 400, "invalid character in a header field name");
		}
		v = colon + 1;
		ve = p + n;
		for (const char *c = v; c < ve; c++) {
			unsigned char u = (unsigned char)*c;

			if ((u < 0x20 && u != '\t') || u == 0x7f)
				return bad(req, 400, "control character in a header value");
		}
		while (v < ve && (*v == ' ' || *v == '\t'))
			v++;
		while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
			ve--;
#define NAME_IS(s) ((size_t)(colon - p) == strlen(s) && !strncasecmp(p, s, strlen(s)))
		if (NAME_IS("Host")) {
			if (host)
				return bad(req, 400, "more than one Host header");
			host = true;
		} else if (NAME_IS("Accept")) {
			keep_accept(req, v, (size_t)(ve - v));
		} else if (NAME_IS("Connection")) {
			connection_close |= token_has(v, (size_t)(ve - v), "close");
			connection_keep |= token_has(v, (size_t)(ve - v), "keep-alive");
		} else if (NAME_IS("Content-Length")) {
			/* a scrape has no body; one we would have to read and discard is refused */
			for (const char *c = v; c < ve; c++) {
				if (*c != '0')
					return bad(req, 400, "a request body is not accepted");
			}
			if (v == ve)
				return bad(req, 400, "empty Content-Length");
		} else if (NAME_IS("Transfer-Encoding")) {
			return bad(req, 501, "Transfer-Encoding is not supported");
		}
#undef NAME_IS
	}
	req->length = (size_t)(lf + 1 - buf);
	if (req->minor >= 1 && !host)
		return bad(req, 400, "HTTP/1.1 request without a Host header");
	req->keep_alive =
	    req->minor >= 1 ? !connection_close : connection_keep && !connection_close;
	if (req->method == LATMON_HTTP_OTHER)
		return bad(req, 405, "only GET and HEAD are allowed");
	return 0;
}
