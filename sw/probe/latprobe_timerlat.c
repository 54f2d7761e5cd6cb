/*
 * latprobe --timerlat (latprobe_timerlat.h): the kernel's timerlat tracer in an instance of
 * latprobe's own, its text output parsed line by line, the samples written as latprobe's
 * per-CPU irq and thread series.
 */
#define _GNU_SOURCE
#include "latprobe_timerlat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "latmon/latmon_log.h"
#include "latprobe_hist.h"
#include "latprobe_output_trace.h"
#include "latprobe_tracedir.h"

#define INSTANCE_PREFIX "latprobe-timerlat."

#ifndef LATMON_VERSION
#define LATMON_VERSION "0.1.0"
#endif

static const char *const context_names[2] = { "irq", "thread" };

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

static int path_of(char *out, size_t len, const char *dir, const char *rel)
{
	int n = snprintf(out, len, "%s/%s", dir, rel);

	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

static int add_sample(struct latprobe_timerlat_series *s, int64_t t, int64_t v, uint32_t seq)
{
	if (s->n == s->cap) {
		uint64_t cap = s->cap ? 2 * s->cap : 4096;
		int64_t *nt = realloc(s->t, cap * sizeof(*nt));

		if (!nt)
			return ENOMEM;
		s->t = nt;
		nt = realloc(s->v, cap * sizeof(*nt));
		if (!nt)
			return ENOMEM;
		s->v = nt;
		uint32_t *nq = realloc(s->seq, cap * sizeof(*nq));

		if (!nq)
			return ENOMEM;
		s->seq = nq;
		s->cap = cap;
	}
	s->t[s->n] = t;
	s->v[s->n] = v;
	s->seq[s->n++] = seq;
	return 0;
}

int latprobe_timerlat_line(struct latprobe_timerlat *tl, const char *line)
{
	/* the tracer's text (kernel/trace/trace_output.c, trace_timerlat_print):
	 *   <comm>-<pid> [CPU] <flags> <sec>.<usec>: #<seq> context <irq|thread> timer_latency <ns>
	 * ns
	 */
	const char *p = strrchr(line, '['); /* the CPU field: nothing after it has a '[' */
	const char *lost = strstr(line, "[LOST ");
	unsigned cpu, seq;
	uint64_t sec, ns;
	char usec[8], ctx[16];
	int c;

	if (lost) {
		uint64_t n;

		if (sscanf(lost, "[LOST %" SCNu64, &n) == 1)
			tl->lost += n;
		return 0;
	}
	if (!p ||
	    sscanf(p, "[%u] %*s %" SCNu64 ".%6[0-9]: #%u context %15s timer_latency %" SCNu64 " ns",
		   &cpu, &sec, usec, &seq, ctx, &ns) != 6 ||
	    strlen(usec) != 6) {
		tl->unparsed++;
		return 0;
	}
	c = !strcmp(ctx, "irq") ? 0 : !strcmp(ctx, "thread") ? 1 : -1;
	if (c < 0 || cpu >= tl->ncpus) {
		tl->unparsed++; /* e.g. the user-return context of a user-space timerlat thread */
		return 0;
	}
	int64_t t =
	    (int64_t)(sec * 1000000000u + strtoull(usec, NULL, 10) * 1000u) - (int64_t)tl->t0_ns;

	return add_sample(&tl->s[cpu * 2 + (unsigned)c], t, (int64_t)ns, seq);
}

/* Read what trace_pipe holds now, line by line. */
static int drain(struct latprobe_timerlat *tl)
{
	for (;;) {
		ssize_t r = read(tl->fd, tl->buf + tl->used, sizeof(tl->buf) - 1 - tl->used);
		char *start, *nl;
		int rc;

		if (r < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : errno;
		if (r == 0)
			return 0;
		tl->used += (size_t)r;
		tl->buf[tl->used] = '\0';
		start = tl->buf;
		while ((nl = strchr(start, '\n')) != NULL) {
			*nl = '\0';
			if ((rc = latprobe_timerlat_line(tl, start)))
				return rc;
			start = nl + 1;
		}
		tl->used -= (size_t)(start - tl->buf);
		memmove(tl->buf, start, tl->used);
		if (tl->used == sizeof(tl->buf) - 1)
			tl->used = 0; /* a line longer than the buffer: not a sample */
	}
}

static void cpu_list(char *out, size_t len, const struct latprobe_params *p)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned i = 0; i < p->ncpus && used + 12 < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", i ? "," : "", p->cpus[i]);
}

static int open_tracer(struct latprobe_timerlat *tl, const struct latprobe_params *p, char *err,
		       size_t errlen)
{
	char path[512], text[4096], value[600];
	int rc;

	if ((rc = latprobe_tracedir_find(tl->root, sizeof(tl->root), &tl->mounted)))
		return fail(err, errlen, rc,
			    "timerlat tracer not available on this kernel: no tracefs "
			    "(mounting it on %s: %s)",
			    tl->root, strerror(rc));
	path_of(path, sizeof(path), tl->root, "available_tracers");
	if ((rc = latprobe_read_text(path, text, sizeof(text))))
		return fail(err, errlen, rc, "cannot read %s: %s", path, strerror(rc));
	text[strcspn(text, "\n")] = '\0';
	{
		char copy[4096], *save = NULL;
		bool found = false;

		snprintf(copy, sizeof(copy), "%s", text);
		for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save))
			found = found || !strcmp(w, "timerlat");
		if (!found)
			return fail(err, errlen, ENOENT,
				    "timerlat tracer not available on this kernel: %s lists "
				    "only: %s (it needs CONFIG_TIMERLAT_TRACER; without it, "
				    "latprobe --stages splits IRQ and thread latency from "
				    "tracepoints)",
				    path, text);
	}
	latprobe_tracedir_remove_stale(tl->root, INSTANCE_PREFIX);
	/* the tracer's settings are global: keep them to restore */
	path_of(path, sizeof(path), tl->root, "osnoise/timerlat_period_us");
	if ((rc = latprobe_read_text(path, tl->saved_period, sizeof(tl->saved_period))))
		return fail(err, errlen, rc, "cannot read %s: %s", path, strerror(rc));
	tl->period_saved = true;
	snprintf(value, sizeof(value), "%" PRIu64, p->interval_ns / 1000);
	if ((rc = latprobe_write_text(path, value)))
		return fail(err, errlen, rc,
			    "cannot set the timerlat period to %s µs in %s: %s (the tracer "
			    "accepts 100 µs to 1 s)",
			    value, path, strerror(rc));
	path_of(path, sizeof(path), tl->root, "osnoise/cpus");
	if (!latprobe_read_text(path, tl->saved_cpus, sizeof(tl->saved_cpus))) {
		tl->cpus_saved = true;
		cpu_list(value, sizeof(value), p);
		if ((rc = latprobe_write_text(path, value)))
			return fail(err, errlen, rc, "cannot set %s to %s: %s", path, value,
				    strerror(rc));
	}
	snprintf(tl->dir, sizeof(tl->dir), "%s/instances/" INSTANCE_PREFIX "%d", tl->root,
		 (int)getpid());
	if (mkdir(tl->dir, 0700))
		return fail(err, errlen, errno, "cannot create the trace instance %s: %s", tl->dir,
			    strerror(errno));
	tl->created = true;
	snprintf(value, sizeof(value), "%" PRIu64, p->trace_buffer_kb);
	if (path_of(path, sizeof(path), tl->dir, "buffer_size_kb") ||
	    (rc = latprobe_write_text(path, value)) ||
	    (rc = path_of(path, sizeof(path), tl->dir, "trace_clock")) ||
	    (rc = latprobe_write_text(path, "mono")))
		return fail(err, errlen, rc ? rc : ENAMETOOLONG, "cannot set up %s: %s", path,
			    strerror(rc ? rc : ENAMETOOLONG));
	/* a tracer cannot be changed while its trace_pipe is open: start it, then open */
	path_of(path, sizeof(path), tl->dir, "current_tracer");
	if ((rc = latprobe_write_text(path, "timerlat")))
		return fail(err, errlen, rc,
			    "cannot start the timerlat tracer in %s: %s (EBUSY: the osnoise "
			    "tracer runs elsewhere)",
			    tl->dir, strerror(rc));
	path_of(path, sizeof(path), tl->dir, "trace_pipe");
	tl->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (tl->fd < 0)
		return fail(err, errlen, errno, "cannot open %s: %s", path, strerror(errno));
	return 0;
}

static uint64_t stat_overrun(const char *text)
{
	const char *p = strstr(text, "overrun:");

	return p ? strtoull(p + 8, NULL, 10) : 0;
}

static int close_tracer(struct latprobe_timerlat *tl, char *err, size_t errlen)
{
	char path[512], text[1024];
	int rc = 0;

	if (tl->fd >= 0)
		close(tl->fd);
	tl->fd = -1;
	if (tl->created) {
		path_of(path, sizeof(path), tl->dir, "current_tracer");
		latprobe_write_text(path, "nop");
		for (unsigned c = 0; c < tl->ncpus; c++) {
			snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", tl->dir, c);
			if (!latprobe_read_text(path, text, sizeof(text)))
				tl->overrun += stat_overrun(text);
		}
	}
	if (tl->created) {
		for (int tries = 0;; tries++) {
			rc = rmdir(tl->dir) ? errno : 0;
			if (rc != EBUSY || tries == 50)
				break;
			nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
		}
		if (rc)
			fail(err, errlen, rc,
			     "cannot remove the trace instance %s: %s; remove it with rmdir",
			     tl->dir, strerror(rc));
		else
			tl->created = false;
	}
	if (tl->period_saved) {
		path_of(path, sizeof(path), tl->root, "osnoise/timerlat_period_us");
		latprobe_write_text(path, tl->saved_period);
	}
	if (tl->cpus_saved) {
		path_of(path, sizeof(path), tl->root, "osnoise/cpus");
		/* an empty list reads as a blank line: writing it back means every CPU */
		if (tl->saved_cpus[0] == '\n' || !tl->saved_cpus[0])
			snprintf(tl->saved_cpus, sizeof(tl->saved_cpus), "0-%d",
				 (int)sysconf(_SC_NPROCESSORS_CONF) - 1);
		latprobe_write_text(path, tl->saved_cpus);
	}
	if (tl->mounted && !rc && umount(tl->root) == 0)
		tl->mounted = false;
	return rc;
}

static int file_sink(void *ctx, const char *data, size_t len)
{
	return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : EIO;
}

static int write_log(FILE *out, const struct latprobe_timerlat *tl, const struct latprobe_params *p,
		     const char *cmdline, const char *start, uint64_t elapsed_ns, bool interrupted)
{
	struct latmon_log_kv header[20];
	char interval[24], t0[24], elapsed[24], lost[24], overrun[24], unparsed[24], cpus[512];
	struct utsname u;
	unsigned nseries = 2 * p->ncpus, id = 0;
	size_t nh = 0, size = latmon_log_writer_size(nseries);
	struct latmon_log_writer *w = NULL;
	void *mem =
	    aligned_alloc(alignof(max_align_t), (size + alignof(max_align_t) - 1) /
						    alignof(max_align_t) * alignof(max_align_t));
	int err;

	if (!mem)
		return ENOMEM;
	err = latmon_log_writer_init(&w, mem, size, nseries, file_sink, out);
	uname(&u);
	snprintf(interval, sizeof(interval), "%" PRIu64, p->interval_ns);
	snprintf(t0, sizeof(t0), "%" PRIu64, tl->t0_ns);
	snprintf(elapsed, sizeof(elapsed), "%" PRIu64, elapsed_ns);
	snprintf(lost, sizeof(lost), "%" PRIu64, tl->lost);
	snprintf(overrun, sizeof(overrun), "%" PRIu64, tl->overrun);
	snprintf(unparsed, sizeof(unparsed), "%" PRIu64, tl->unparsed);
	cpu_list(cpus, sizeof(cpus), p);
	header[nh++] = (struct latmon_log_kv){ "source", "latprobe" };
	header[nh++] = (struct latmon_log_kv){ "tool_version", LATMON_VERSION };
	header[nh++] = (struct latmon_log_kv){ "unit", "ns" };
	header[nh++] = (struct latmon_log_kv){ "resolution", "1" };
	header[nh++] = (struct latmon_log_kv){ "host", u.nodename };
	header[nh++] = (struct latmon_log_kv){ "start", start };
	header[nh++] = (struct latmon_log_kv){ "kernel", u.release };
	if (p->scenario)
		header[nh++] = (struct latmon_log_kv){ "scenario", p->scenario };
	header[nh++] = (struct latmon_log_kv){ "cmdline", cmdline };
	header[nh++] = (struct latmon_log_kv){ "measured_by", "timerlat" };
	header[nh++] = (struct latmon_log_kv){ "interval_ns", interval };
	header[nh++] = (struct latmon_log_kv){ "cpus", cpus };
	header[nh++] = (struct latmon_log_kv){ "elapsed_ns", elapsed };
	header[nh++] = (struct latmon_log_kv){ "t0_mono_ns", t0 };
	header[nh++] = (struct latmon_log_kv){ "interrupted", interrupted ? "1" : "0" };
	header[nh++] = (struct latmon_log_kv){ "trace_lost", lost };
	header[nh++] = (struct latmon_log_kv){ "trace_overrun", overrun };
	header[nh++] = (struct latmon_log_kv){ "trace_unparsed", unparsed };
	if (!err)
		err = latmon_log_begin(w, header, nh);
	for (unsigned i = 0; !err && i < p->ncpus; i++) {
		for (unsigned c = 0; !err && c < 2; c++) {
			const struct latprobe_timerlat_series *s = &tl->s[p->cpus[i] * 2 + c];

			err = latprobe_write_component_values(w, id++, p->cpus[i], context_names[c],
							      "timerlat", s->t, s->v, s->n);
		}
	}
	if (!err)
		err = latmon_log_end(w);
	free(mem);
	return err;
}

static void json_values(FILE *out, const char *key, const int64_t *values, uint64_t n)
{
	static const struct {
		double q;
		const char *key;
	} qs[] = { { 0.5, "p50" }, { 0.9, "p90" }, { 0.99, "p99" }, { 0.999, "p99_9" } };
	int64_t *v = malloc((n ? n : 1) * sizeof(*v));

	fprintf(out, "\"%s\": {\"n\": %" PRIu64, key, n);
	if (v && n) {
		memcpy(v, values, n * sizeof(*v));
		latprobe_sort(v, n);
		fprintf(out, ", \"min\": %" PRId64, v[0]);
		for (size_t q = 0; q < sizeof(qs) / sizeof(qs[0]); q++) {
			int64_t x = 0;

			latprobe_quantile_sorted(v, n, qs[q].q, &x);
			fprintf(out, ", \"%s\": %" PRId64, qs[q].key, x);
		}
		fprintf(out, ", \"max\": %" PRId64, v[n - 1]);
	}
	fputc('}', out);
	free(v);
}

static int write_json(FILE *out, const struct latprobe_timerlat *tl,
		      const struct latprobe_params *p, uint64_t elapsed_ns)
{
	fprintf(out,
		"{\"measured_by\": \"timerlat\", \"interval_ns\": %" PRIu64
		", \"elapsed_ns\": %" PRIu64 ", \"t0_mono_ns\": %" PRIu64
		", \"trace\": {\"lost\": %" PRIu64 ", \"overrun\": %" PRIu64
		", \"unparsed\": %" PRIu64 "}, \"cpus\": [",
		p->interval_ns, elapsed_ns, tl->t0_ns, tl->lost, tl->overrun, tl->unparsed);
	for (unsigned i = 0; i < p->ncpus; i++) {
		const struct latprobe_timerlat_series *s = &tl->s[p->cpus[i] * 2];

		fprintf(out, "%s{\"cpu\": %u, ", i ? ", " : "", p->cpus[i]);
		json_values(out, "irq", s[0].v, s[0].n);
		fputs(", ", out);
		json_values(out, "thread", s[1].v, s[1].n);
		fputc('}', out);
	}
	fputs("]}\n", out);
	return ferror(out) ? EIO : 0;
}

static void summary(FILE *out, const struct latprobe_timerlat *tl, const struct latprobe_params *p)
{
	for (unsigned i = 0; i < p->ncpus; i++) {
		for (unsigned c = 0; c < 2; c++) {
			const struct latprobe_timerlat_series *s = &tl->s[p->cpus[i] * 2 + c];
			int64_t *v = malloc((s->n ? s->n : 1) * sizeof(*v)), p50 = 0, p99 = 0;

			if (!v || !s->n) {
				fprintf(out, "cpu%u timerlat %s: no samples\n", p->cpus[i],
					context_names[c]);
				free(v);
				continue;
			}
			memcpy(v, s->v, s->n * sizeof(*v));
			latprobe_sort(v, s->n);
			latprobe_quantile_sorted(v, s->n, 0.5, &p50);
			latprobe_quantile_sorted(v, s->n, 0.99, &p99);
			fprintf(out,
				"cpu%u timerlat %-6s n=%" PRIu64 " min=%" PRId64 " p50=%" PRId64
				" p99=%" PRId64 " max=%" PRId64 " ns (exact)\n",
				p->cpus[i], context_names[c], s->n, v[0], p50, p99, v[s->n - 1]);
			free(v);
		}
	}
	if (tl->lost || tl->overrun)
		fprintf(out, "timerlat: the kernel lost %" PRIu64 " events (overrun %" PRIu64 ")\n",
			tl->lost, tl->overrun);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Write to PATH.tmp, then rename: never a half-written file under the name. */
static int write_file(const char *path, int (*fn)(FILE *, void *), void *arg, char *err,
		      size_t errlen)
{
	char tmp[4096];
	FILE *f;
	int rc;

	if (!strcmp(path, "-")) {
		rc = fn(stdout, arg);
		return rc ? fail(err, errlen, rc, "cannot write to standard output: %s",
				 strerror(rc))
			  : (fflush(stdout) ? EIO : 0);
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f)
		return fail(err, errlen, errno, "cannot write %s: %s", tmp, strerror(errno));
	rc = fn(f, arg);
	if (fclose(f) && !rc)
		rc = errno;
	if (!rc && rename(tmp, path))
		rc = errno;
	if (rc) {
		unlink(tmp);
		return fail(err, errlen, rc, "cannot write %s: %s", path, strerror(rc));
	}
	return 0;
}

struct out_args {
	const struct latprobe_timerlat *tl;
	const struct latprobe_params *p;
	const char *cmdline, *start;
	uint64_t elapsed_ns;
	bool interrupted;
};

static int log_fn(FILE *f, void *arg)
{
	const struct out_args *a = arg;

	return write_log(f, a->tl, a->p, a->cmdline, a->start, a->elapsed_ns, a->interrupted);
}

static int json_fn(FILE *f, void *arg)
{
	const struct out_args *a = arg;

	return write_json(f, a->tl, a->p, a->elapsed_ns);
}

int latprobe_timerlat_run(const struct latprobe_params *params, const char *cmdline)
{
	struct latprobe_timerlat *tl = calloc(1, sizeof(*tl));
	char err[1024] = "", start[40];
	sigset_t stop;
	uint64_t end;
	int rc = 0, status = LATPROBE_EXIT_OK;
	bool interrupted = false;
	time_t now = time(NULL);
	struct tm tm;

	if (!tl) {
		fprintf(stderr, "latprobe: out of memory\n");
		return LATPROBE_EXIT_SETUP;
	}
	tl->fd = -1;
	for (unsigned i = 0; i < params->ncpus; i++)
		tl->ncpus = params->cpus[i] + 1 > tl->ncpus ? params->cpus[i] + 1 : tl->ncpus;
	tl->s = calloc(2 * (size_t)tl->ncpus, sizeof(*tl->s));
	gmtime_r(&now, &tm);
	strftime(start, sizeof(start), "%Y-%m-%dT%H:%M:%SZ", &tm);
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigprocmask(SIG_BLOCK, &stop, NULL);
	tl->t0_ns = now_ns();
	if (!tl->s)
		rc = fail(err, sizeof(err), ENOMEM, "out of memory");
	else
		rc = open_tracer(tl, params, err, sizeof(err));
	if (rc) {
		status = LATPROBE_EXIT_SETUP;
		goto teardown;
	}
	/* the duration bounds the run: never longer, a signal ends it earlier */
	end = params->duration_ns ? tl->t0_ns + params->duration_ns : UINT64_MAX;
	while (!rc && now_ns() < end) {
		struct timespec wait = { .tv_nsec = 100000000 };

		if (sigtimedwait(&stop, NULL, &wait) > 0) {
			interrupted = true;
			break;
		}
		rc = drain(tl);
	}
	if (!rc)
		rc = drain(tl);
	if (rc) {
		fail(err, sizeof(err), rc, "reading the timerlat trace failed: %s", strerror(rc));
		status = LATPROBE_EXIT_FAILURE;
	}
teardown : {
	char cerr[600] = "";
	int crc = close_tracer(tl, cerr, sizeof(cerr));

	if (crc && status == LATPROBE_EXIT_OK) {
		snprintf(err, sizeof(err), "%s", cerr);
		status = LATPROBE_EXIT_FAILURE;
	}
}
	if (status != LATPROBE_EXIT_SETUP) {
		struct out_args a = {
			tl, params, cmdline, start, now_ns() - tl->t0_ns, interrupted
		};
		char werr[600] = "";

		if (write_file(params->output, log_fn, &a, werr, sizeof(werr)) ||
		    (params->json && write_file(params->json, json_fn, &a, werr, sizeof(werr)))) {
			snprintf(err, sizeof(err), "%s", werr);
			status = LATPROBE_EXIT_FAILURE;
		}
		if (!params->quiet)
			summary(stderr, tl, params);
	}
	if (status != LATPROBE_EXIT_OK)
		fprintf(stderr, "latprobe: %s\n", err);
	for (unsigned i = 0; tl->s && i < 2 * tl->ncpus; i++) {
		free(tl->s[i].t);
		free(tl->s[i].v);
		free(tl->s[i].seq);
	}
	free(tl->s);
	free(tl);
	return status;
}
