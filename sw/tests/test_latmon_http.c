/* Unit tests of the exporter's HTTP request parser (sw/exporter/latmon_http.c), table-driven. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "latmon/latmon_http.h"

#include "check.h"

struct row {
	const char *request;
	int rc;	    /* 0 or EAGAIN */
	int status; /* when rc is 0 */
	const char *path;
	int keep_alive;
};

static const struct row rows[] = {
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 0, "/metrics", 1 },
	{ "GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 0, 0, "/metrics",
	  0 },
	{ "HEAD / HTTP/1.0\r\n\r\n", 0, 0, "/", 0 },
	{ "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", 0, 0, "/", 1 },
	{ "GET http://h:9110/metrics HTTP/1.1\r\nHost: h\r\n\r\n", 0, 0, "/metrics", 1 },
	{ "GET /metrics HTTP/1.1\nHost: x\n\n", 0, 0, "/metrics", 1 }, /* bare LF */
	{ "\r\nGET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 0, "/metrics", 1 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 0, 0, "/metrics", 1 },
	/* incomplete */
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\n", EAGAIN, 0, "", 0 },
	{ "GET /metr", EAGAIN, 0, "", 0 },
	{ "", EAGAIN, 0, "", 0 },
	/* bad */
	{ "POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 405, "", 0 },
	{ "GET /metrics HTTP/2.0\r\nHost: x\r\n\r\n", 0, 505, "", 0 },
	{ "GET /metrics HTTP/1.1\r\n\r\n", 0, 400, "", 0 }, /* no Host */
	{ "GET /metrics\r\n\r\n", 0, 400, "", 0 },
	{ "GET  /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 400, "", 0 },
	{ "GET metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 400, "", 0 },
	{ "G(T /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 400, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost x\r\n\r\n", 0, 400, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 0, 400, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 0, 400, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello", 0, 400, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", 0, 501, "", 0 },
	{ "GET /metrics HTTP/1.1\r\nHost: x\r\nX: a\x01z\r\n\r\n", 0, 400, "", 0 },
	{ "GET /met\x7frics HTTP/1.1\r\nHost: x\r\n\r\n", 0, 400, "", 0 },
	{ "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 0, 400, "", 0 }, /* TLS hello */
};

static void test_table(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct latmon_http_request req;
		size_t len = strlen(rows[i].request);
		int rc = latmon_http_parse(rows[i].request, len, 8192, &req);
		int ok = rc == rows[i].rc;

		if (ok && rc == 0) {
			ok = req.status == rows[i].status;
			if (ok && !req.status)
				ok = !strcmp(req.path, rows[i].path) &&
				     req.keep_alive == rows[i].keep_alive;
			if (ok && req.status)
				ok = req.why && *req.why;
		}
		if (!ok)
			fprintf(stderr, "row %zu: rc %d status %d path '%s' keep %d\n", i, rc,
				req.status, req.path, req.keep_alive);
		CHECK(ok);
	}
}

static void test_nul_and_limits(void)
{
	static const char nul[] = "GET /me\0trics HTTP/1.1\r\nHost: x\r\n\r\n";
	char big[9000];
	struct latmon_http_request req;

	CHECK(latmon_http_parse(nul, sizeof(nul) - 1, 8192, &req) == 0 && req.status == 400);
	/* a request line that never ends */
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /", 5);
	CHECK(latmon_http_parse(big, 8192, 8192, &req) == 0 && req.status == 414);
	/* a target too long to keep */
	snprintf(big, sizeof(big), "GET /%0300d HTTP/1.1\r\nHost: x\r\n\r\n", 0);
	CHECK(latmon_http_parse(big, strlen(big), 8192, &req) == 0 && req.status == 414);
	/* headers that never end */
	snprintf(big, sizeof(big), "GET / HTTP/1.1\r\nHost: x\r\nX: %08300d", 0);
	CHECK(latmon_http_parse(big, strlen(big), 8192, &req) == 0 && req.status == 431);
	/* too many header lines */
	{
		size_t n = (size_t)snprintf(big, sizeof(big), "GET / HTTP/1.1\r\nHost: x\r\n");

		for (int i = 0; i < 70; i++)
			n += (size_t)snprintf(big + n, sizeof(big) - n, "X%d: y\r\n", i);
		snprintf(big + n, sizeof(big) - n, "\r\n");
		CHECK(latmon_http_parse(big, strlen(big), 8192, &req) == 0 && req.status == 431);
	}
}

static void test_accept_and_pipelining(void)
{
	static const char two[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain;q=0.5\r\n"
				  "accept: application/openmetrics-text\r\n\r\nGET / HTTP/1.1\r\n";
	struct latmon_http_request req;

	CHECK(latmon_http_parse(two, sizeof(two) - 1, 8192, &req) == 0 && req.status == 0);
	CHECK(!strcmp(req.accept, "text/plain;q=0.5,application/openmetrics-text"));
	/* the length ends at the first request: the second stays for later */
	CHECK(!strncmp(two + req.length, "GET / HTTP/1.1", 14));
	CHECK(latmon_http_parse(two + req.length, sizeof(two) - 1 - req.length, 8192, &req) ==
	      EAGAIN);
	CHECK(!strcmp(latmon_http_reason(431), "Request Header Fields Too Large"));
}

int main(void)
{
	test_table();
	test_nul_and_limits();
	test_accept_and_pipelining();
	return check_report("test_latmon_http");
}
