/* latmon exporter: the HTTP responder's thread; see latmon/latmon_exporter.h. */
#define _GNU_SOURCE
#include "latmon/latmon_exporter.h"

#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "latmon/latmon_http.h"

/* Most bytes of one request (request line and headers): 8 KB, as common servers allow. */
#define MAX_REQUEST 8192

/* The exporter thread's stack: the exposition is built on the heap. */
#define EXPORTER_STACK (256u * 1024u)

/* Longest single poll() wait; deadlines are checked at least this often. */
#define POLL_MAX_MS 1000

static const int codes[LATMON_EXPORTER_NCODES] = LATMON_EXPORTER_CODES;

enum conn_state { CONN_FREE, CONN_READ, CONN_WRITE };

struct conn {
	int fd;
	enum conn_state state;
	char in[MAX_REQUEST];
	size_t in_len;
	struct latmon_buf out;
	size_t out_off;
	bool close_after;     /* close once the response is sent */
	uint64_t deadline;    /* monotonic ms */
	uint64_t last_active; /* monotonic ms of the last byte in or out */
};

struct latmon_exporter {
	struct latmon_exporter_config cfg;
	int listen_fd;
	int stop_fd;
	pthread_t thread;
	bool started;
	struct conn *conns;
	struct pollfd *pfds;
	unsigned *pfd_conn; /* pfds[k] belongs to conns[pfd_conn[k]] */
	struct latmon_buf body;
	struct latmon_exporter_stats stats;
	uint64_t created_ms; /* Unix time the exporter opened, ms (OpenMetrics _created) */
	char address[128];
};

static uint64_t now_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void count_response(struct latmon_exporter *x, int status)
{
	for (unsigned i = 0; i < LATMON_EXPORTER_NCODES; i++) {
		if (codes[i] == status) {
			x->stats.requests[i]++;
			return;
		}
	}
}

/* ---- set-up ------------------------------------------------------------------------------- */

int latmon_exporter_parse_listen(const char *text, char *host, size_t hostlen, char *port,
				 size_t portlen)
{
	const char *colon, *h = text;
	size_t hlen;
	char *end;
	unsigned long p;

	if (!text)
		return EINVAL;
	if (*text == '[') {
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':')
			return EINVAL;
		h = text + 1;
		hlen = (size_t)(close - h);
		colon = close + 1;
		if (!hlen)
			return EINVAL;
	} else {
		colon = strrchr(text, ':');
		if (!colon || memchr(text, ':', (size_t)(colon - text)))
			return EINVAL; /* a bare IPv6 address needs brackets */
		hlen = (size_t)(colon - text);
	}
	if (colon[1] < '0' || colon[1] > '9')
		return EINVAL;
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (errno || *end || p > 65535 || hlen >= hostlen || strlen(colon + 1) >= portlen)
		return EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	snprintf(port, portlen, "%lu", p);
	return 0;
}

static void describe(struct latmon_exporter *x, const struct sockaddr *sa)
{
	char host[INET6_ADDRSTRLEN + 2] = "?", port[8] = "?";

	getnameinfo(sa,
		    sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
					      : sizeof(struct sockaddr_in),
		    host, sizeof(host), port, sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(x->address, sizeof(x->address), sa->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s",
		 host, port);
}

static int bind_one(struct latmon_exporter *x, const struct addrinfo *ai)
{
	struct sockaddr_storage bound;
	socklen_t len = sizeof(bound);
	int one = 1, zero = 0, fd, rc;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return errno;
	/* a restarted exporter binds again while old connections linger in TIME_WAIT */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)&bound, &len)) {
		rc = errno;
		close(fd);
		return rc;
	}
	x->listen_fd = fd;
	describe(x, (struct sockaddr *)&bound);
	return 0;
}

static int listen_on(struct latmon_exporter *x, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char host[256], port[8];
	int rc = EADDRNOTAVAIL;

	if (latmon_exporter_parse_listen(x->cfg.listen, host, sizeof(host), port, sizeof(port))) {
		snprintf(err, errlen,
			 "--metrics %s: give ADDRESS:PORT, e.g. :9110 (every address), "
			 "127.0.0.1:9110 or [::1]:9110",
			 x->cfg.listen ? x->cfg.listen : "(none)");
		return EINVAL;
	}
	/* every address: IPv6 and IPv4 on one socket where the kernel allows, else IPv4 */
	hints.ai_family = *host ? AF_UNSPEC : AF_INET6;
	if (getaddrinfo(*host ? host : NULL, port, &hints, &res) == 0) {
		for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
			rc = bind_one(x, ai);
			if (!rc)
				break;
		}
		freeaddrinfo(res);
		res = NULL;
	} else if (*host) {
		snprintf(err, errlen,
			 "--metrics %s: cannot resolve %s; give a numeric address or a name of "
			 "this machine",
			 x->cfg.listen, host);
		return EINVAL;
	}
	if (rc && !*host) {
		hints.ai_family = AF_INET;
		if (getaddrinfo(NULL, port, &hints, &res) == 0) {
			for (const struct addrinfo *ai = res; ai && rc; ai = ai->ai_next)
				rc = bind_one(x, ai);
			freeaddrinfo(res);
		}
	}
	if (rc)
		snprintf(err, errlen, "--metrics %s: cannot listen: %s%s", x->cfg.listen,
			 strerror(rc),
			 rc == EADDRINUSE ? " (another exporter on this port? choose another)"
			 : rc == EACCES	  ? " (ports below 1024 need root; choose 9110 or above)"
					  : "");
	return rc;
}

int latmon_exporter_open(struct latmon_exporter **out, const struct latmon_exporter_config *config,
			 char *err, size_t errlen)
{
	struct latmon_exporter *x;
	unsigned n;
	int rc;

	*out = NULL;
	if (!config || !config->collect) {
		snprintf(err, errlen, "exporter: no collect function");
		return EINVAL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "exporter: out of memory");
		return ENOMEM;
	}
	x->cfg = *config;
	if (!x->cfg.max_connections)
		x->cfg.max_connections = 64;
	if (!x->cfg.request_timeout_ms)
		x->cfg.request_timeout_ms = 5000;
	if (!x->cfg.idle_timeout_ms)
		x->cfg.idle_timeout_ms = 120000;
	if (!x->cfg.write_timeout_ms)
		x->cfg.write_timeout_ms = 10000;
	x->listen_fd = -1;
	x->stop_fd = -1;
	n = x->cfg.max_connections;
	x->conns = calloc(n, sizeof(*x->conns));
	x->pfds = calloc(n + 2, sizeof(*x->pfds));
	x->pfd_conn = calloc(n + 2, sizeof(*x->pfd_conn));
	if (!x->conns || !x->pfds || !x->pfd_conn) {
		snprintf(err, errlen, "exporter: out of memory");
		latmon_exporter_close(x);
		return ENOMEM;
	}
	for (unsigned i = 0; i < n; i++) {
		x->conns[i].fd = -1;
		latmon_buf_init(&x->conns[i].out);
	}
	latmon_buf_init(&x->body);
	x->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (x->stop_fd < 0) {
		rc = errno;
		snprintf(err, errlen, "exporter: eventfd: %s", strerror(rc));
		latmon_exporter_close(x);
		return rc;
	}
	rc = listen_on(x, err, errlen);
	if (rc) {
		latmon_exporter_close(x);
		return rc;
	}
	x->created_ms = now_ms(CLOCK_REALTIME);
	*out = x;
	return 0;
}

void latmon_exporter_address(const struct latmon_exporter *x, char *buf, size_t len)
{
	snprintf(buf, len, "%s", x->address);
}

const struct latmon_exporter_stats *latmon_exporter_stats(const struct latmon_exporter *x)
{
	return &x->stats;
}

/* ---- connections -------------------------------------------------------------------------- */

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->state = CONN_FREE;
	c->in_len = 0;
	c->out.len = 0;
	c->out_off = 0;
	/* a large response's memory is not kept for an idle slot */
	if (c->out.cap > 65536)
		latmon_buf_free(&c->out);
}

static void self_metrics(struct latmon_exporter *x, struct latmon_expo *e)
{
	char code[8];
	struct latmon_label label = { "code", code };

	latmon_expo_family(e, "latmon_exporter_scrapes", LATMON_EXPO_COUNTER,
			   "Scrapes of /metrics answered (this one not yet counted).", NULL);
	latmon_expo_value(e, NULL, 0, x->stats.scrapes, 0);
	latmon_expo_family(e, "latmon_exporter_requests", LATMON_EXPO_COUNTER,
			   "HTTP responses of the exporter, by status code.", NULL);
	for (unsigned i = 0; i < LATMON_EXPORTER_NCODES; i++) {
		snprintf(code, sizeof(code), "%d", codes[i]);
		latmon_expo_value(e, &label, 1, x->stats.requests[i], 0);
	}
	latmon_expo_family(e, "latmon_exporter_connections", LATMON_EXPO_COUNTER,
			   "TCP connections accepted by the exporter.", NULL);
	latmon_expo_value(e, NULL, 0, x->stats.connections, 0);
	latmon_expo_family(e, "latmon_exporter_dropped_connections", LATMON_EXPO_COUNTER,
			   "Connections closed by the exporter for a timeout (slow or stalled "
			   "client) or to make room for a new one.",
			   NULL);
	latmon_expo_value(e, NULL, 0, x->stats.dropped, 0);
}

/* The metrics body in the negotiated format. @return 0 or an errno value. */
static int metrics_body(struct latmon_exporter *x, enum latmon_expo_format format)
{
	struct latmon_expo e;
	int rc, end;

	x->body.len = 0;
	x->body.error = 0;
	latmon_expo_begin(&e, &x->body, format, x->created_ms);
	rc = x->cfg.collect(x->cfg.ctx, &e);
	if (!rc)
		self_metrics(x, &e);
	end = latmon_expo_end(&e);
	return rc ? rc : end;
}

static void respond(struct latmon_exporter *x, struct conn *c, int status, const char *type,
		    const char *extra_header, bool head, bool keep_alive)
{
	c->out.len = 0;
	c->out.error = 0;
	c->out_off = 0;
	c->close_after = !keep_alive;
	latmon_buf_printf(&c->out,
			  "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
			  "Cache-Control: no-store\r\n%sConnection: %s\r\n\r\n",
			  status, latmon_http_reason(status), type, x->body.len,
			  extra_header ? extra_header : "", keep_alive ? "keep-alive" : "close");
	if (!head)
		latmon_buf_append(&c->out, x->body.data, x->body.len);
	if (c->out.error) {
		/* no memory for the response: nothing sensible can be sent */
		c->out.len = 0;
		c->close_after = true;
	}
	count_response(x, status);
}

static void respond_text(struct latmon_exporter *x, struct conn *c, int status, const char *text,
			 const char *extra_header, bool head, bool keep_alive)
{
	x->body.len = 0;
	x->body.error = 0;
	latmon_buf_printf(&x->body, "%d %s: %s\n", status, latmon_http_reason(status), text);
	respond(x, c, status, "text/plain; charset=utf-8", extra_header, head, keep_alive);
}

static void serve(struct latmon_exporter *x, struct conn *c, const struct latmon_http_request *req)
{
	bool head = req->method == LATMON_HTTP_HEAD;

	if (req->status) {
		respond_text(x, c, req->status, req->why,
			     req->status == 405 ? "Allow: GET, HEAD\r\n" : NULL, false, false);
		return;
	}
	if (!strcmp(req->path, "/metrics")) {
		enum latmon_expo_format format = latmon_expo_negotiate(req->accept);
		int rc = metrics_body(x, format);

		if (rc) {
			respond_text(x, c, 503,
				     rc == ENOMEM ? "out of memory"
						  : "the metrics cannot be read now",
				     NULL, head, req->keep_alive);
			return;
		}
		respond(x, c, 200, latmon_expo_content_type(format), NULL, head, req->keep_alive);
		x->stats.scrapes++;
		return;
	}
	if (!strcmp(req->path, "/")) {
		x->body.len = 0;
		latmon_buf_printf(&x->body, "latmon exporter: the metrics are at /metrics\n");
		respond(x, c, 200, "text/plain; charset=utf-8", NULL, head, req->keep_alive);
		return;
	}
	respond_text(x, c, 404, "the metrics are at /metrics", NULL, head, req->keep_alive);
}

/* Serve the request in the input buffer, if complete. */
static void take_request(struct latmon_exporter *x, struct conn *c, uint64_t now)
{
	struct latmon_http_request req;

	if (!c->in_len)
		return;
	if (latmon_http_parse(c->in, c->in_len, sizeof(c->in), &req) == EAGAIN)
		return;
	serve(x, c, &req);
	if (!req.status) {
		/* keep what follows: a pipelined request */
		memmove(c->in, c->in + req.length, c->in_len - req.length);
		c->in_len -= req.length;
	} else {
		c->in_len = 0;
	}
	c->state = CONN_WRITE;
	c->deadline = now + x->cfg.write_timeout_ms;
}

static void after_write(struct latmon_exporter *x, struct conn *c, uint64_t now)
{
	if (c->close_after) {
		conn_close(c);
		return;
	}
	c->state = CONN_READ;
	c->out.len = 0;
	c->out_off = 0;
	c->deadline = now + (c->in_len ? x->cfg.request_timeout_ms : x->cfg.idle_timeout_ms);
	take_request(x, c, now);
}

static void conn_write(struct latmon_exporter *x, struct conn *c, uint64_t now)
{
	while (c->out_off < c->out.len) {
		ssize_t n = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				conn_close(c);
			return;
		}
		c->out_off += (size_t)n;
		c->last_active = now;
	}
	after_write(x, c, now);
}

static void conn_read(struct latmon_exporter *x, struct conn *c, uint64_t now)
{
	ssize_t n;

	if (c->in_len == sizeof(c->in)) {
		take_request(x, c, now); /* a full buffer parses to a verdict */
		return;
	}
	n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, MSG_DONTWAIT);
	if (n < 0) {
		if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
			conn_close(c);
		return;
	}
	if (n == 0) {
		conn_close(c); /* the client closed; an unfinished request goes with it */
		return;
	}
	if (!c->in_len)
		c->deadline = now + x->cfg.request_timeout_ms; /* a request starts */
	c->in_len += (size_t)n;
	c->last_active = now;
	take_request(x, c, now);
}

static void conn_expire(struct latmon_exporter *x, struct conn *c)
{
	if (c->state == CONN_READ && c->in_len) {
		/* a request that does not finish in time (a slow or stalled sender): best effort */
		static const char timeout[] =
		    "HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\n"
		    "Connection: close\r\n\r\n";

		if (send(c->fd, timeout, sizeof(timeout) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			(void)0; /* closing anyway */
		count_response(x, 408);
		x->stats.dropped++;
	} else if (c->state == CONN_WRITE) {
		x->stats.dropped++; /* a client that does not read its response */
	}
	conn_close(c);
}

/* A slot for a new connection: a free one, else the reading one idle the longest. */
static struct conn *free_slot(struct latmon_exporter *x)
{
	struct conn *oldest = NULL;

	for (unsigned i = 0; i < x->cfg.max_connections; i++) {
		struct conn *c = &x->conns[i];

		if (c->state == CONN_FREE)
			return c;
		if (c->state == CONN_READ && (!oldest || c->last_active < oldest->last_active))
			oldest = c;
	}
	if (oldest) {
		x->stats.dropped++;
		conn_close(oldest);
	}
	return oldest;
}

static void accept_all(struct latmon_exporter *x, uint64_t now)
{
	for (;;) {
		int fd = accept4(x->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		struct conn *c;

		if (fd < 0)
			return; /* EAGAIN: no more; other errors (EMFILE, ECONNABORTED): next round
				 */
		x->stats.connections++;
		c = free_slot(x);
		if (!c) {
			x->stats.dropped++; /* every slot is sending a response */
			close(fd);
			continue;
		}
		c->fd = fd;
		c->state = CONN_READ;
		c->in_len = 0;
		c->out_off = 0;
		c->last_active = now;
		c->deadline = now + x->cfg.idle_timeout_ms;
	}
}

static void *run(void *arg)
{
	struct latmon_exporter *x = arg;

	for (;;) {
		uint64_t now = now_ms(CLOCK_MONOTONIC), next = now + POLL_MAX_MS;
		unsigned n = 0;
		int rc;

		x->pfds[n++] = (struct pollfd){ .fd = x->stop_fd, .events = POLLIN };
		x->pfds[n++] = (struct pollfd){ .fd = x->listen_fd, .events = POLLIN };
		for (unsigned i = 0; i < x->cfg.max_connections; i++) {
			struct conn *c = &x->conns[i];

			if (c->state == CONN_FREE)
				continue;
			x->pfd_conn[n] = i;
			x->pfds[n++] =
			    (struct pollfd){ .fd = c->fd,
					     .events = c->state == CONN_READ ? POLLIN : POLLOUT };
			if (c->deadline < next)
				next = c->deadline;
		}
		rc = poll(x->pfds, n, next > now ? (int)(next - now) : 0);
		if (rc < 0 && errno != EINTR)
			break;
		if (x->pfds[0].revents)
			break;
		now = now_ms(CLOCK_MONOTONIC);
		for (unsigned k = 2; rc > 0 && k < n; k++) {
			struct conn *c = &x->conns[x->pfd_conn[k]];

			if (!x->pfds[k].revents || c->fd != x->pfds[k].fd)
				continue;
			if (c->state == CONN_READ && (x->pfds[k].revents & (POLLIN | POLLHUP)))
				conn_read(x, c, now);
			else if (c->state == CONN_WRITE && (x->pfds[k].revents & POLLOUT))
				conn_write(x, c, now);
			else if (x->pfds[k].revents & (POLLERR | POLLHUP | POLLNVAL))
				conn_close(c);
		}
		/* a response built while reading goes out at once, without another poll */
		for (unsigned i = 0; i < x->cfg.max_connections; i++) {
			struct conn *c = &x->conns[i];

			if (c->state == CONN_WRITE && c->out_off == 0)
				conn_write(x, c, now);
			if (c->state != CONN_FREE && c->deadline <= now)
				conn_expire(x, c);
		}
		if (rc > 0 && (x->pfds[1].revents & POLLIN))
			accept_all(x, now);
	}
	return NULL;
}

int latmon_exporter_start(struct latmon_exporter *x)
{
	struct sched_param sp = { .sched_priority = 0 };
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	rc = pthread_attr_init(&attr);
	if (rc)
		return rc;
	/* never a real-time thread, whatever the caller runs as */
	rc = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!rc)
		rc = pthread_attr_setschedpolicy(&attr, SCHED_OTHER);
	if (!rc)
		rc = pthread_attr_setschedparam(&attr, &sp);
	/* a small stack: under mlockall(MCL_FUTURE) all of it stays resident */
	if (!rc)
		rc = pthread_attr_setstacksize(&attr, EXPORTER_STACK);
	if (rc) {
		pthread_attr_destroy(&attr);
		return rc;
	}
	/* signals stay with the tool's own threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&x->thread, &attr, run, x);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (!rc) {
		x->started = true;
		/* a name for top -H, ps -L and /proc/PID/task/TID/comm (its CPU time is measured
		 * there by bench/bench_exporter.py); a failure only leaves the process's name */
		pthread_setname_np(x->thread, "latmon-exporter");
	}
	return rc;
}

void latmon_exporter_close(struct latmon_exporter *x)
{
	if (!x)
		return;
	if (x->started) {
		uint64_t one = 1;

		if (write(x->stop_fd, &one, sizeof(one)) != sizeof(one))
			(void)0; /* an eventfd write of 1 cannot fail short of a bug */
		pthread_join(x->thread, NULL);
		x->started = false;
	}
	if (x->conns) {
		for (unsigned i = 0; i < x->cfg.max_connections; i++) {
			conn_close(&x->conns[i]);
			latmon_buf_free(&x->conns[i].out);
		}
	}
	if (x->listen_fd >= 0)
		close(x->listen_fd);
	if (x->stop_fd >= 0)
		close(x->stop_fd);
	latmon_buf_free(&x->body);
	free(x->conns);
	free(x->pfds);
	free(x->pfd_conn);
	free(x);
}
