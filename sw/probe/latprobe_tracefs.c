/* The trace session of latprobe --stages; see latprobe_tracefs.h. */
#define _GNU_SOURCE
#include "latprobe_tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_MOUNT	"/sys/kernel/tracing"
#define INSTANCE_PREFIX "latprobe."

/*
 * The entry of the CPU's timer interrupt, the first event that exists: x86's local APIC timer
 * vector; else the generic handler entry filtered to the ARM generic timer's handler (arm64,
 * arm: "arch_timer"). latprobe_trace_open() records the one used in t->irq_event.
 */
static const struct {
	const char *path, *filter;
} irq_events[] = {
	{ "irq_vectors/local_timer_entry", NULL },
	{ "irq/irq_handler_entry", "name == \"arch_timer\"" },
};
#define NIRQ_EVENTS (sizeof irq_events / sizeof irq_events[0])

static const char *event_paths[LATPROBE_NEVENTS] = {
	[LATPROBE_EV_IRQ_ENTRY] = "irq_vectors/local_timer_entry",
	[LATPROBE_EV_TIMER_START] = "timer/hrtimer_start",
	[LATPROBE_EV_TIMER_EXPIRE] = "timer/hrtimer_expire_entry",
	[LATPROBE_EV_WAKING] = "sched/sched_waking",
	[LATPROBE_EV_SWITCH] = "sched/sched_switch",
};

static int fail(char *err, size_t errlen, int rc, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return rc;
}

/* Read a whole (small) tracefs file into a NUL-terminated buffer. */
static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t used = 0;

	if (fd < 0)
		return errno;
	while (used + 1 < len) {
		ssize_t r = read(fd, buf + used, len - 1 - used);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			return e;
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	buf[used] = '\0';
	close(fd);
	return used + 1 < len ? 0 : EFBIG;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(text);
	ssize_t w;
	int e;

	if (fd < 0)
		return errno;
	w = write(fd, text, len);
	e = w < 0 ? errno : (size_t)w != len ? EIO : 0;
	if (close(fd) && !e)
		e = errno;
	return e;
}

static int find_mount(struct latprobe_trace *t)
{
	FILE *f = fopen("/proc/mounts", "re");
	char dev[256], dir[256], type[64];
	int found = 0;

	if (!f)
		return errno;
	while (!found && fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "tracefs") && strlen(dir) < sizeof(t->root)) {
			snprintf(t->root, sizeof(t->root), "%s", dir);
			found = 1;
		}
	}
	fclose(f);
	return found ? 0 : ENOENT;
}

/* Instances of latprobes that no longer run: left by a kill -9; remove them. */
static void remove_stale_instances(const struct latprobe_trace *t)
{
	char path[512];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/instances", t->root);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		char *stop;
		long pid;

		if (strncmp(e->d_name, INSTANCE_PREFIX, strlen(INSTANCE_PREFIX)))
			continue;
		pid = strtol(e->d_name + strlen(INSTANCE_PREFIX), &stop, 10);
		if (*stop || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* that latprobe still runs */
		snprintf(path, sizeof(path), "%s/instances/%s", t->root, e->d_name);
		if (!rmdir(path))
			fprintf(stderr,
				"latprobe: removed the trace instance %s left by a latprobe "
				"that was killed\n",
				path);
	}
	closedir(d);
}

static int instance_path(const struct latprobe_trace *t, char *buf, size_t len, const char *rel)
{
	int n = snprintf(buf, len, "%s/%s", t->dir, rel);

	return n < 0 || (size_t)n >= len ? ENAMETOOLONG : 0;
}

static int setting(struct latprobe_trace *t, const char *rel, const char *value, char *err,
		   size_t errlen)
{
	char path[512];
	int rc = instance_path(t, path, sizeof(path), rel);

	if (!rc)
		rc = write_text(path, value);
	if (rc)
		return fail(err, errlen, rc, "cannot set %s in the trace instance: %s", rel,
			    strerror(rc));
	return 0;
}

static int load_formats(struct latprobe_trace *t, char *err, size_t errlen)
{
	static char text[16384];
	char path[512];
	struct latprobe_field commit, data;
	int rc;

	snprintf(path, sizeof(path), "%s/events/header_page", t->root);
	rc = read_text(path, text, sizeof(text));
	if (rc)
		return fail(err, errlen, rc, "cannot read %s: %s", path, strerror(rc));
	/* "field: local_t commit" and "field: char data" (an array: read its offset by hand) */
	if (latprobe_format_field(text, "commit", &commit))
		return fail(err, errlen, EINVAL, "%s: no commit field%s", path, "");
	{
		const char *d = strstr(text, " data;");
		const char *o = d ? strstr(d, "offset:") : NULL;

		if (!o)
			return fail(err, errlen, EINVAL, "%s: no data field%s", path, "");
		data.offset = (unsigned)strtoul(o + 7, NULL, 10);
	}
	t->layout.commit_offset = commit.offset;
	t->layout.commit_size = commit.size;
	t->layout.data_offset = data.offset;

	for (size_t i = 0; i < NIRQ_EVENTS; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", t->root, irq_events[i].path);
		if (access(path, R_OK) == 0) {
			t->irq_event = irq_events[i].path;
			t->irq_filter = irq_events[i].filter;
			break;
		}
	}
	if (!t->irq_event)
		return fail(err, errlen, ENOENT,
			    "this kernel has no trace event for its timer interrupt (%s, %s); "
			    "--stages needs one",
			    irq_events[0].path, irq_events[1].path);
	event_paths[LATPROBE_EV_IRQ_ENTRY] = t->irq_event;
	for (int k = 0; k < LATPROBE_NEVENTS; k++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", t->root, event_paths[k]);
		rc = read_text(path, text, sizeof(text));
		if (rc)
			return fail(err, errlen, rc,
				    "this kernel has no trace event %s (%s); --stages needs it",
				    event_paths[k], strerror(rc));
		if (latprobe_format_id(text, &t->ids[k]))
			return fail(err, errlen, EINVAL, "%s: no event ID%s", path, "");
		rc = 0;
		if (k == 0) {
			rc = latprobe_format_field(text, "common_type", &t->f_type) ||
			     latprobe_format_field(text, "common_pid", &t->f_pid);
		} else if (k == LATPROBE_EV_TIMER_START) {
			rc = latprobe_format_field(text, "hrtimer", &t->f_timer_start) ||
			     latprobe_format_field(text, "softexpires", &t->f_softexpires);
		} else if (k == LATPROBE_EV_TIMER_EXPIRE) {
			rc = latprobe_format_field(text, "hrtimer", &t->f_timer_expire);
		} else if (k == LATPROBE_EV_WAKING) {
			rc = latprobe_format_field(text, "pid", &t->f_waking_pid);
		} else if (k == LATPROBE_EV_SWITCH) {
			rc = latprobe_format_field(text, "next_pid", &t->f_next_pid);
		}
		if (rc)
			return fail(err, errlen, EINVAL, "%s: a field latprobe needs is missing%s",
				    path, "");
	}
	return 0;
}

int latprobe_trace_open(struct latprobe_trace *t, uint64_t buffer_kb, size_t limit, char *err,
			size_t errlen)
{
	char path[512], value[32];
	int rc;

	memset(t, 0, sizeof(*t));
	t->limit = limit;
	if (find_mount(t)) {
		if (mount("nodev", DEFAULT_MOUNT, "tracefs", 0, NULL)) {
			rc = errno;
			return fail(err, errlen, rc,
				    "--stages: cannot mount tracefs on %s: %s (run as root)",
				    DEFAULT_MOUNT, strerror(rc));
		}
		snprintf(t->root, sizeof(t->root), "%s", DEFAULT_MOUNT);
		t->mounted = true;
	}
	if (access(t->root, W_OK) && geteuid() != 0)
		return fail(err, errlen, EACCES,
			    "--stages needs root to trace (%s is not writable)%s", t->root, "");
	rc = load_formats(t, err, errlen);
	if (rc)
		return rc;
	remove_stale_instances(t);
	snprintf(t->dir, sizeof(t->dir), "%s/instances/" INSTANCE_PREFIX "%ld", t->root,
		 (long)getpid());
	if (mkdir(t->dir, 0700)) {
		rc = errno;
		return fail(err, errlen, rc, "cannot create the trace instance %s: %s", t->dir,
			    strerror(rc));
	}
	t->created = true;
	snprintf(value, sizeof(value), "%" PRIu64, buffer_kb);
	if ((rc = setting(t, "tracing_on", "0", err, errlen)) ||
	    (rc = setting(t, "buffer_size_kb", value, err, errlen)) ||
	    (rc = setting(t, "trace_clock", "mono", err, errlen)))
		return rc;
	if (t->irq_filter) { /* only the timer's interrupt among all handler entries */
		snprintf(path, sizeof(path), "events/%s/filter", t->irq_event);
		if ((rc = setting(t, path, t->irq_filter, err, errlen)))
			return rc;
	}
	for (int k = 0; k < LATPROBE_NEVENTS; k++) {
		snprintf(path, sizeof(path), "events/%s/enable", event_paths[k]);
		if ((rc = setting(t, path, "1", err, errlen)))
			return rc;
	}
	/* one binary buffer per possible CPU (cpu0 .. cpuN-1 under per_cpu/) */
	for (;;) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", t->dir, t->ncpus);
		if (stat(path, &st))
			break;
		t->ncpus++;
	}
	if (!t->ncpus)
		return fail(err, errlen, ENOENT, "the trace instance %s has no per_cpu buffers%s",
			    t->dir, "");
	t->fds = malloc(t->ncpus * sizeof(*t->fds));
	t->page_size = (size_t)sysconf(_SC_PAGESIZE);
	t->page = malloc(t->page_size);
	if (!t->fds || !t->page)
		return fail(err, errlen, ENOMEM, "out of memory%s%s", "", "");
	for (unsigned c = 0; c < t->ncpus; c++)
		t->fds[c] = -1;
	for (unsigned c = 0; c < t->ncpus; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", t->dir, c);
		t->fds[c] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (t->fds[c] < 0) {
			rc = errno;
			return fail(err, errlen, rc, "cannot open %s: %s", path, strerror(rc));
		}
	}
	return setting(t, "tracing_on", "1", err, errlen);
}

struct walk {
	struct latprobe_trace *t;
	unsigned cpu;
	const pid_t *tids;
	unsigned ntids;
};

static bool is_probe(const struct walk *w, int64_t pid)
{
	for (unsigned i = 0; i < w->ntids; i++)
		if (w->tids[i] == pid)
			return true;
	return false;
}

static int keep(struct latprobe_trace *t, const struct latprobe_trace_event *e)
{
	if (t->n == t->limit) {
		t->over_limit++;
		return 0;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 65536;
		struct latprobe_trace_event *ev;

		if (cap > t->limit)
			cap = t->limit;
		ev = realloc(t->ev, cap * sizeof(*ev));
		if (!ev)
			return ENOMEM;
		t->ev = ev;
		t->cap = cap;
	}
	t->ev[t->n++] = *e;
	return 0;
}

static int on_record(void *ctx, uint64_t ts, const unsigned char *data, size_t len)
{
	struct walk *w = ctx;
	struct latprobe_trace *t = w->t;
	unsigned type = (unsigned)latprobe_field_read(&t->f_type, data, len);
	struct latprobe_trace_event e = { .ts = ts, .cpu = (uint16_t)w->cpu };

	if (type == t->ids[LATPROBE_EV_IRQ_ENTRY]) {
		e.kind = LATPROBE_EV_IRQ_ENTRY;
	} else if (type == t->ids[LATPROBE_EV_TIMER_EXPIRE]) {
		e.kind = LATPROBE_EV_TIMER_EXPIRE;
		e.timer = (uint64_t)latprobe_field_read(&t->f_timer_expire, data, len);
	} else if (type == t->ids[LATPROBE_EV_TIMER_START]) {
		e.pid = (int32_t)latprobe_field_read(&t->f_pid, data, len);
		if (!is_probe(w, e.pid))
			return 0;
		e.kind = LATPROBE_EV_TIMER_START;
		e.timer = (uint64_t)latprobe_field_read(&t->f_timer_start, data, len);
		e.expires = latprobe_field_read(&t->f_softexpires, data, len);
	} else if (type == t->ids[LATPROBE_EV_WAKING]) {
		e.pid = (int32_t)latprobe_field_read(&t->f_waking_pid, data, len);
		if (!is_probe(w, e.pid))
			return 0;
		e.kind = LATPROBE_EV_WAKING;
	} else if (type == t->ids[LATPROBE_EV_SWITCH]) {
		e.pid = (int32_t)latprobe_field_read(&t->f_next_pid, data, len);
		if (!is_probe(w, e.pid))
			return 0;
		e.kind = LATPROBE_EV_SWITCH;
	} else {
		return 0;
	}
	return keep(t, &e);
}

int latprobe_trace_drain(struct latprobe_trace *t, const pid_t *tids, unsigned ntids)
{
	for (unsigned c = 0; c < t->ncpus; c++) {
		struct walk w = { .t = t, .cpu = c, .tids = tids, .ntids = ntids };

		for (;;) {
			ssize_t r = read(t->fds[c], t->page, t->page_size);
			bool lost;
			int rc;

			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno == EAGAIN)
				break;
			if (r < 0)
				return errno;
			if (r == 0)
				break;
			rc = latprobe_page_walk(&t->layout, t->page, (size_t)r, on_record, &w,
						&lost);
			if (rc == EBADMSG)
				t->bad_pages++;
			else if (rc)
				return rc;
			if (lost)
				t->lost_pages++;
		}
	}
	return 0;
}

void latprobe_trace_stop(struct latprobe_trace *t)
{
	char err[8];

	if (t->created)
		setting(t, "tracing_on", "0", err, sizeof(err));
}

/* "overrun: N", "commit overrun: N" and "dropped events: N" of per_cpu/cpuN/stats. */
static uint64_t stat_losses(const char *text)
{
	static const char *const keys[] = { "\noverrun: ", "\ncommit overrun: ",
					    "\ndropped events: " };
	uint64_t sum = 0;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *p = strstr(text, keys[i]);

		if (!p && !strncmp(text, keys[i] + 1, strlen(keys[i]) - 1))
			p = text - 1;
		if (p)
			sum += strtoull(p + strlen(keys[i]), NULL, 10);
	}
	return sum;
}

int latprobe_trace_close(struct latprobe_trace *t, char *err, size_t errlen)
{
	char path[512], text[2048];
	int rc = 0;

	if (t->fds) {
		for (unsigned c = 0; c < t->ncpus; c++) {
			snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", t->dir, c);
			if (!read_text(path, text, sizeof(text)))
				t->overrun += stat_losses(text);
			if (t->fds[c] >= 0)
				close(t->fds[c]);
		}
		free(t->fds);
		t->fds = NULL;
	}
	free(t->page);
	t->page = NULL;
	if (t->created) {
		/* removing the instance also frees its buffers and drops its settings */
		for (int tries = 0;; tries++) {
			rc = rmdir(t->dir) ? errno : 0;
			if (rc != EBUSY || tries == 50)
				break;
			nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
		}
		if (rc == ENOENT)
			rc = 0;
		if (rc)
			fail(err, errlen, rc,
			     "cannot remove the trace instance %s: %s; remove it with rmdir",
			     t->dir, strerror(rc));
		else
			t->created = false;
	}
	if (t->mounted && !rc) {
		if (umount(t->root) == 0)
			t->mounted = false;
	}
	return rc;
}

void latprobe_trace_free(struct latprobe_trace *t)
{
	free(t->ev);
	t->ev = NULL;
	t->n = t->cap = 0;
}
