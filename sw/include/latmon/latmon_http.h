/*
 * latmon HTTP: the request parser of the metrics exporter (HTTP/1.0 and 1.1, RFC 9112), pure so
 * that it is unit-tested byte by byte. Only what a scraper needs: GET and HEAD of a path, the
 * Accept and Connection headers; anything malformed gets the status that says why.
 */
#ifndef LATMON_HTTP_H
#define LATMON_HTTP_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Longest request target kept (longer: 414). */
#define LATMON_HTTP_MAX_TARGET 256
/** Longest Accept header kept (longer ones are cut at a comma: their first ranges count). */
#define LATMON_HTTP_MAX_ACCEPT 512
/** Most header lines in one request (more: 431). */
#define LATMON_HTTP_MAX_HEADERS 64

enum latmon_http_method { LATMON_HTTP_GET, LATMON_HTTP_HEAD, LATMON_HTTP_OTHER };

/** One parsed request. */
struct latmon_http_request {
	int status;	 /**< 0: well-formed; else the HTTP error status to answer (400, 405,
			      414, 431, 501, 505) */
	const char *why; /**< for an error: a short reason, for the response body */
	enum latmon_http_method method;
	int minor;			     /**< HTTP/1.minor */
	char path[LATMON_HTTP_MAX_TARGET];   /**< the target's path, without the query */
	char accept[LATMON_HTTP_MAX_ACCEPT]; /**< the Accept header(s), "" when absent */
	int keep_alive;			     /**< the connection may stay open afterwards */
	size_t length;			     /**< bytes of the request (header end included) */
};

/**
 * Parse the request at the start of @p buf.
 * @param max_header most bytes a request may take (request line and headers).
 * @return 0 when the request is complete or certainly bad (then req->status says which; a bad
 *         request's length is undefined: answer and close), or EAGAIN when more bytes are
 *         needed.
 */
int latmon_http_parse(const char *buf, size_t len, size_t max_header,
		      struct latmon_http_request *req);

/** The reason phrase of a status code ("Bad Request"). */
const char *latmon_http_reason(int status);

#ifdef __cplusplus
}
#endif

#endif /* LATMON_HTTP_H */
