/* The trace session of latprobe --stages; see latprobe_tracefs.h. */
#define _GNU_SOURCE
#include "latprobe_tracefs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "latprobe_tracedir.h"

#define INSTANCE_PREFIX	      "latprobe."
#define BREAK_INSTANCE_PREFIX "latprobe-break."

/* What a tracepoint is for. */
enum role {
	ROLE_TIMER_START,	/* stages */
	ROLE_TIMER_EXPIRE,	/* stages */
	ROLE_WAKING,		/* stages */
	ROLE_SWITCH,		/* stages */
	ROLE_SYSCALL_EXIT,	/* stages, where the kernel does not trace a switch */
	ROLE_TIMER_EXPIRE_EXIT, /* explanations */
	ROLE_HARDIRQ_ENTRY,	/* explanations; the timer interrupt where it has no vector */
	ROLE_HARDIRQ_EXIT,	/* explanations */
	ROLE_SOFTIRQ_ENTRY,	/* explanations */
	ROLE_SOFTIRQ_EXIT,	/* explanations */
	ROLE_VECTOR_ENTRY,	/* x86 system vectors; local_timer_entry for the stages */
	ROLE_VECTOR_EXIT,	/* explanations */
	ROLE_CPU_IDLE,		/* explanations: the idle state a CPU entered or left */
};

static const struct {
	const char *path;
	enum role role;
	bool for_stages; /* enabled for the stages (else only with explanations) */
	bool required;	 /* --stages cannot work without it */
} catalog[] = {
	{ "timer/hrtimer_start", ROLE_TIMER_START, true, true },
	{ "timer/hrtimer_expire_entry", ROLE_TIMER_EXPIRE, true, true },
	{ "sched/sched_waking", ROLE_WAKING, true, true },
	{ "sched/sched_switch", ROLE_SWITCH, true, true },
	{ "syscalls/sys_exit_clock_nanosleep", ROLE_SYSCALL_EXIT, true, false },
	{ "timer/hrtimer_expire_exit", ROLE_TIMER_EXPIRE_EXIT, false, false },
	{ "irq/irq_handler_entry", ROLE_HARDIRQ_ENTRY, false, false },
	{ "irq/irq_handler_exit", ROLE_HARDIRQ_EXIT, false, false },
	{ "irq/softirq_entry", ROLE_SOFTIRQ_ENTRY, false, false },
	{ "irq/softirq_exit", ROLE_SOFTIRQ_EXIT, false, false },
	{ "power/cpu_idle", ROLE_CPU_IDLE, false, false },
};

/* The x86 vector whose entry is the timer interrupt. */
#define TIMER_VECTOR "local_timer"

/* Handler names of the timer interrupt on architectures without irq_vectors (arm64, arm), and
 * the same as a kernel event filter (used when nothing needs the other interrupts). */
static const char *const timer_irq_names[] = { "arch_timer", "arch_mem_timer" };
#define TIMER_IRQ_FILTER "name == \"arch_timer\" || name == \"arch_mem_timer\""

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

static int setting(const char *dir, const char *rel, const char *value, char *err, size_t errlen)
{
	char path[512];
	int n = snprintf(path, sizeof(path), "%s/%s", dir, rel);
	int rc =
	    n < 0 || (size_t)n >= sizeof(path) ? ENAMETOOLONG : latprobe_write_text(path, value);

	if (rc)
		return fail(err, errlen, rc, "cannot set %s in the trace instance %s: %s", rel, dir,
			    strerror(rc));
	return 0;
}

static int load_page_layout(struct latprobe_trace *t, char *err, size_t errlen)
{
	static char text[16384];
	char path[512];
	struct latprobe_field commit;
	const char *d, *o;
	int rc;

	snprintf(path, sizeof(path), "%s/events/header_page", t->root);
	rc = latprobe_read_text(path, text, sizeof(text));
	if (rc)
		return fail(err, errlen, rc, "cannot read %s: %s", path, strerror(rc));
	/* "field: local_t commit" and "field: char data" (an array: read its offset by hand) */
	if (latprobe_format_field(text, "commit", &commit))
		return fail(err, errlen, EINVAL, "%s: no commit field", path);
	d = strstr(text, " data;");
	o = d ? strstr(d, "offset:") : NULL;
	if (!o)
		return fail(err, errlen, EINVAL, "%s: no data field", path);
	t->layout.commit_offset = commit.offset;
	t->layout.commit_size = commit.size;
	t->layout.data_offset = (unsigned)strtoul(o + 7, NULL, 10);
	return 0;
}

static int add_tracepoint(struct latprobe_trace *t, const char *path, enum role role, int slot)
{
	struct latprobe_tracepoint *tp;

	if (t->ntp == LATPROBE_TRACEPOINTS_MAX)
		return ENOSPC;
	tp = &t->tp[t->ntp++];
	memset(tp, 0, sizeof(*tp));
	snprintf(tp->path, sizeof(tp->path), "%.*s", (int)sizeof(tp->path) - 1, path);
	tp->role = (uint8_t)role;
	tp->slot = slot;
	return 0;
}

/* The fields each role reads, from the event's format text. */
static int load_fields(struct latprobe_tracepoint *tp, const char *text)
{
	switch ((enum role)tp->role) {
	case ROLE_TIMER_START:
		return latprobe_format_field(text, "hrtimer", &tp->f[0]) ||
		       latprobe_format_field(text, "softexpires", &tp->f[1]);
	case ROLE_TIMER_EXPIRE:
		return latprobe_format_field(text, "hrtimer", &tp->f[0]) ||
		       latprobe_format_field(text, "function", &tp->f[1]);
	case ROLE_TIMER_EXPIRE_EXIT:
		return latprobe_format_field(text, "hrtimer", &tp->f[0]);
	case ROLE_WAKING:
		return latprobe_format_field(text, "pid", &tp->f[0]) ||
		       latprobe_format_field(text, "prio", &tp->f[1]) ||
		       latprobe_format_string(text, "comm", &tp->s[0]);
	case ROLE_SWITCH:
		return latprobe_format_field(text, "prev_pid", &tp->f[0]) ||
		       latprobe_format_field(text, "prev_prio", &tp->f[1]) ||
		       latprobe_format_field(text, "next_pid", &tp->f[2]) ||
		       latprobe_format_field(text, "next_prio", &tp->f[3]) ||
		       latprobe_format_string(text, "prev_comm", &tp->s[0]) ||
		       latprobe_format_string(text, "next_comm", &tp->s[1]);
	case ROLE_HARDIRQ_ENTRY:
		return latprobe_format_field(text, "irq", &tp->f[0]) ||
		       latprobe_format_string(text, "name", &tp->s[0]);
	case ROLE_HARDIRQ_EXIT:
		return latprobe_format_field(text, "irq", &tp->f[0]);
	case ROLE_SOFTIRQ_ENTRY:
	case ROLE_SOFTIRQ_EXIT:
		return latprobe_format_field(text, "vec", &tp->f[0]);
	case ROLE_CPU_IDLE:
		return latprobe_format_field(text, "state", &tp->f[0]);
	default:
		return 0; /* the event itself is the information */
	}
}

/* Which tracepoints this kernel has: the catalog, and the x86 system vectors it defines. */
static int detect(struct latprobe_trace *t, char *err, size_t errlen)
{
	static char text[16384];
	char path[512];
	DIR *d;
	struct dirent *e;
	bool common = false;

	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++)
		add_tracepoint(t, catalog[i].path, catalog[i].role, -1);
	snprintf(path, sizeof(path), "%s/events/irq_vectors", t->root);
	d = opendir(path);
	if (d) {
		while ((e = readdir(d)) != NULL) {
			size_t len = strlen(e->d_name);
			char base[48], rel[320];
			struct stat st;
			int slot;

			if (len < 7 || len >= sizeof(base) || strcmp(e->d_name + len - 6, "_entry"))
				continue;
			snprintf(base, sizeof(base), "%.*s", (int)(len - 6), e->d_name);
			snprintf(rel, sizeof(rel), "%s/events/irq_vectors/%s_exit", t->root, base);
			if (stat(rel, &st))
				continue; /* an entry without an exit cannot bound a context */
			slot = latprobe_names_vector(&t->names, base);
			if (slot < 0)
				break;
			snprintf(rel, sizeof(rel), "irq_vectors/%s_entry", base);
			add_tracepoint(t, rel, ROLE_VECTOR_ENTRY, slot);
			snprintf(rel, sizeof(rel), "irq_vectors/%s_exit", base);
			add_tracepoint(t, rel, ROLE_VECTOR_EXIT, slot);
		}
		closedir(d);
	}
	for (unsigned i = 0; i < t->ntp; i++) {
		struct latprobe_tracepoint *tp = &t->tp[i];
		int rc;

		snprintf(path, sizeof(path), "%s/events/%s/format", t->root, tp->path);
		if (latprobe_read_text(path, text, sizeof(text)))
			continue;
		if (latprobe_format_id(text, &tp->id) || tp->id >= 65536)
			return fail(err, errlen, EINVAL, "%s: no event ID", path);
		if (!common) {
			rc = latprobe_format_field(text, "common_type", &t->f_type) ||
			     latprobe_format_field(text, "common_flags", &t->f_flags) ||
			     latprobe_format_field(text, "common_pid", &t->f_pid);
			if (rc)
				return fail(err, errlen, EINVAL, "%s: no common fields", path);
			common = true;
		}
		if (load_fields(tp, text))
			return fail(err, errlen, EINVAL, "%s: a field latprobe needs is missing",
				    path);
		tp->present = true;
	}
	return 0;
}

static struct latprobe_tracepoint *find_tp(struct latprobe_trace *t, const char *path)
{
	for (unsigned i = 0; i < t->ntp; i++)
		if (!strcmp(t->tp[i].path, path))
			return &t->tp[i];
	return NULL;
}

bool latprobe_trace_has(const struct latprobe_trace *t, const char *path)
{
	for (unsigned i = 0; i < t->ntp; i++)
		if (!strcmp(t->tp[i].path, path))
			return t->tp[i].present && t->tp[i].enabled;
	return false;
}

/* Decide what to enable: the required events must exist, the rest is used where it exists. */
static int choose(struct latprobe_trace *t, char *err, size_t errlen)
{
	struct latprobe_tracepoint *timer = find_tp(t, "irq_vectors/" TIMER_VECTOR "_entry");
	struct latprobe_tracepoint *irq = find_tp(t, "irq/irq_handler_entry");

	for (size_t i = 0; i < sizeof(catalog) / sizeof(catalog[0]); i++) {
		struct latprobe_tracepoint *tp = find_tp(t, catalog[i].path);

		if (catalog[i].required && !tp->present)
			return fail(err, errlen, ENOENT,
				    "this kernel has no trace event %s; --stages needs it",
				    catalog[i].path);
		tp->enabled = tp->present && (catalog[i].for_stages || t->explain);
	}
	if (timer && timer->present) {
		timer->enabled = true;
		t->timer_vector_slot = timer->slot;
		t->irq_event = "irq_vectors/" TIMER_VECTOR "_entry";
	} else if (irq && irq->present) {
		/* no x86 vector: the timer interrupt is the handler named like the timer */
		t->timer_irq_by_name = true;
		t->irq_event = "irq/irq_handler_entry";
		if (!t->explain)
			t->irq_filter = TIMER_IRQ_FILTER; /* the other interrupts are not needed */
		irq->enabled = true;
	} else {
		return fail(err, errlen, ENOENT,
			    "this kernel has neither irq_vectors/local_timer_entry nor "
			    "irq/irq_handler_entry: --stages cannot see the timer interrupt");
	}
	for (unsigned i = 0; i < t->ntp; i++) {
		struct latprobe_tracepoint *tp = &t->tp[i];

		if ((tp->role == ROLE_VECTOR_ENTRY || tp->role == ROLE_VECTOR_EXIT) &&
		    tp->present && t->explain)
			tp->enabled = true;
		if (tp->enabled)
			t->by_id[tp->id] = (uint8_t)(i + 1);
	}
	return 0;
}

/* Create an instance with our clock, buffer size and events. */
static int make_instance(struct latprobe_trace *t, const char *dir, uint64_t buffer_kb,
			 bool *created, char *err, size_t errlen)
{
	char value[32], rel[128];
	int rc;

	if (mkdir(dir, 0700)) {
		rc = errno;
		return fail(err, errlen, rc, "cannot create the trace instance %s: %s", dir,
			    strerror(rc));
	}
	*created = true;
	snprintf(value, sizeof(value), "%" PRIu64, buffer_kb);
	if ((rc = setting(dir, "tracing_on", "0", err, errlen)) ||
	    (rc = setting(dir, "buffer_size_kb", value, err, errlen)) ||
	    (rc = setting(dir, "trace_clock", "mono", err, errlen)))
		return rc;
	if (t->irq_filter &&
	    (rc = setting(dir, "events/irq/irq_handler_entry/filter", t->irq_filter, err, errlen)))
		return rc;
	for (unsigned i = 0; i < t->ntp; i++) {
		if (!t->tp[i].enabled)
			continue;
		snprintf(rel, sizeof(rel), "events/%s/enable", t->tp[i].path);
		if ((rc = setting(dir, rel, "1", err, errlen)))
			return rc;
	}
	return 0;
}

static int open_break_instance(struct latprobe_trace *t, uint64_t buffer_kb, char *err,
			       size_t errlen)
{
	char path[512];
	int rc;

	snprintf(t->break_dir, sizeof(t->break_dir), "%s/instances/" BREAK_INSTANCE_PREFIX "%ld",
		 t->root, (long)getpid());
	rc = make_instance(t, t->break_dir, buffer_kb, &t->break_created, err, errlen);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/trace_marker", t->break_dir);
	t->break_marker_fd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/tracing_on", t->break_dir);
	t->break_tracing_on_fd = open(path, O_WRONLY | O_CLOEXEC);
	if (t->break_marker_fd < 0 || t->break_tracing_on_fd < 0) {
		rc = errno;
		return fail(err, errlen, rc, "cannot open the --break trace instance %s: %s",
			    t->break_dir, strerror(rc));
	}
	return setting(t->break_dir, "tracing_on", "1", err, errlen);
}

int latprobe_trace_open(struct latprobe_trace *t, const struct latprobe_trace_config *cfg,
			char *err, size_t errlen)
{
	char path[512];
	unsigned ncpus = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	t->break_marker_fd = t->break_tracing_on_fd = -1;
	t->timer_vector_slot = -1;
	t->explain = cfg->explain;
	latprobe_names_init(&t->names);
	if ((rc = latprobe_tracedir_find(t->root, sizeof(t->root), &t->mounted)))
		return fail(err, errlen, rc,
			    "tracing (--stages, --explain, --break): cannot mount tracefs "
			    "on %s: %s (run as root)",
			    t->root, strerror(rc));
	if (access(t->root, W_OK) && geteuid() != 0)
		return fail(
		    err, errlen, EACCES,
		    "tracing (--stages, --explain, --break) needs root (%s is not writable)",
		    t->root);
	if ((rc = load_page_layout(t, err, errlen)) || (rc = detect(t, err, errlen)) ||
	    (rc = choose(t, err, errlen)))
		return rc;
	latprobe_tracedir_remove_stale(t->root, INSTANCE_PREFIX);
	latprobe_tracedir_remove_stale(t->root, BREAK_INSTANCE_PREFIX);
	snprintf(t->dir, sizeof(t->dir), "%s/instances/" INSTANCE_PREFIX "%ld", t->root,
		 (long)getpid());
	rc = make_instance(t, t->dir, cfg->buffer_kb, &t->created, err, errlen);
	if (rc)
		return rc;
	/* one binary buffer per possible CPU (cpu0 .. cpuN-1 under per_cpu/) */
	for (;;) {
		struct stat st;

		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", t->dir, ncpus);
		if (stat(path, &st))
			break;
		ncpus++;
	}
	if (!ncpus)
		return fail(err, errlen, ENOENT, "the trace instance %s has no per_cpu buffers",
			    t->dir);
	t->fds = malloc(ncpus * sizeof(*t->fds));
	t->page_size = (size_t)sysconf(_SC_PAGESIZE);
	t->page = malloc(t->page_size);
	if (!t->fds || !t->page ||
	    latprobe_windows_init(&t->windows, ncpus, cfg->window_limit / ncpus))
		return fail(err, errlen, ENOMEM, "out of memory for the trace session");
	t->ncpus = ncpus;
	for (unsigned c = 0; c < ncpus; c++)
		t->fds[c] = -1;
	for (unsigned c = 0; c < ncpus; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", t->dir, c);
		t->fds[c] = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (t->fds[c] < 0) {
			rc = errno;
			return fail(err, errlen, rc, "cannot open %s: %s", path, strerror(rc));
		}
	}
	if (cfg->break_instance && (rc = open_break_instance(t, cfg->buffer_kb, err, errlen)))
		return rc;
	return setting(t->dir, "tracing_on", "1", err, errlen);
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
	int rc = latprobe_window_push(&t->windows, e);

	if (rc == ENOMEM)
		return t->error = ENOMEM;
	if (!rc)
		t->events++;
	return 0;
}

static bool is_timer_irq_name(const char *name)
{
	for (size_t i = 0; i < sizeof(timer_irq_names) / sizeof(timer_irq_names[0]); i++)
		if (!strcmp(name, timer_irq_names[i]))
			return true;
	return false;
}

/* The timer interrupt's marker (LATPROBE_EV_IRQ_ENTRY), next to its entry event. */
static int keep_timer_irq(struct latprobe_trace *t, const struct latprobe_trace_event *e)
{
	struct latprobe_trace_event marker = *e;

	marker.kind = LATPROBE_EV_IRQ_ENTRY;
	return keep(t, &marker);
}

static int on_record(void *ctx, uint64_t ts, const unsigned char *data, size_t len)
{
	struct walk *w = ctx;
	struct latprobe_trace *t = w->t;
	unsigned type = (unsigned)latprobe_field_read(&t->f_type, data, len);
	const struct latprobe_tracepoint *tp;
	struct latprobe_trace_event e = { .ts = ts, .cpu = (uint16_t)w->cpu };
	char a[LATPROBE_NAME_LEN], b[LATPROBE_COMM_LEN];
	int rc;

	if (type >= 65536 || !t->by_id[type])
		return 0;
	tp = &t->tp[t->by_id[type] - 1];
	e.ctx = (int32_t)latprobe_field_read(&t->f_pid, data, len);
	e.flags = (uint8_t)latprobe_field_read(&t->f_flags, data, len);
	switch ((enum role)tp->role) {
	case ROLE_TIMER_START:
		if (!is_probe(w, e.ctx))
			return 0;
		e.kind = LATPROBE_EV_TIMER_START;
		e.pid = e.ctx;
		e.timer = (uint64_t)latprobe_field_read(&tp->f[0], data, len);
		e.expires = latprobe_field_read(&tp->f[1], data, len);
		break;
	case ROLE_TIMER_EXPIRE:
		e.kind = LATPROBE_EV_TIMER_EXPIRE;
		e.timer = (uint64_t)latprobe_field_read(&tp->f[0], data, len);
		e.function = (uint64_t)latprobe_field_read(&tp->f[1], data, len);
		break;
	case ROLE_TIMER_EXPIRE_EXIT:
		e.kind = LATPROBE_EV_TIMER_EXPIRE_EXIT;
		e.timer = (uint64_t)latprobe_field_read(&tp->f[0], data, len);
		break;
	case ROLE_WAKING:
		e.pid = (int32_t)latprobe_field_read(&tp->f[0], data, len);
		e.prio = (int16_t)latprobe_field_read(&tp->f[1], data, len);
		if (t->explain) {
			latprobe_string_read(&tp->s[0], data, len, b, sizeof(b));
			latprobe_names_task(&t->names, e.pid, b, e.prio);
		}
		if (!is_probe(w, e.pid))
			return 0;
		e.kind = LATPROBE_EV_WAKING;
		break;
	case ROLE_SWITCH:
		e.id = (int32_t)latprobe_field_read(&tp->f[0], data, len);
		e.prev_prio = (int16_t)latprobe_field_read(&tp->f[1], data, len);
		e.pid = (int32_t)latprobe_field_read(&tp->f[2], data, len);
		e.prio = (int16_t)latprobe_field_read(&tp->f[3], data, len);
		if (t->explain) {
			latprobe_string_read(&tp->s[0], data, len, b, sizeof(b));
			latprobe_names_task(&t->names, e.id, b, e.prev_prio);
			latprobe_string_read(&tp->s[1], data, len, b, sizeof(b));
			latprobe_names_task(&t->names, e.pid, b, e.prio);
		} else if (!is_probe(w, e.pid)) {
			return 0;
		}
		e.kind = LATPROBE_EV_SWITCH;
		break;
	case ROLE_SYSCALL_EXIT:
		if (!is_probe(w, e.ctx))
			return 0;
		e.kind = LATPROBE_EV_SYSCALL_EXIT;
		e.pid = e.ctx;
		break;
	case ROLE_HARDIRQ_ENTRY:
		e.kind = LATPROBE_EV_HARDIRQ_ENTRY;
		e.id = (int32_t)latprobe_field_read(&tp->f[0], data, len);
		latprobe_string_read(&tp->s[0], data, len, a, sizeof(a));
		latprobe_names_irq(&t->names, e.id, a);
		if (t->timer_irq_by_name && is_timer_irq_name(a)) {
			if ((rc = keep_timer_irq(t, &e)))
				return rc;
		} else if (!t->explain) {
			return 0;
		}
		break;
	case ROLE_HARDIRQ_EXIT:
		if (!t->explain)
			return 0;
		e.kind = LATPROBE_EV_HARDIRQ_EXIT;
		e.id = (int32_t)latprobe_field_read(&tp->f[0], data, len);
		break;
	case ROLE_SOFTIRQ_ENTRY:
	case ROLE_SOFTIRQ_EXIT:
		e.kind = tp->role == ROLE_SOFTIRQ_ENTRY ? LATPROBE_EV_SOFTIRQ_ENTRY
							: LATPROBE_EV_SOFTIRQ_EXIT;
		e.id = (int32_t)latprobe_field_read(&tp->f[0], data, len);
		break;
	case ROLE_VECTOR_ENTRY:
		e.kind = LATPROBE_EV_VECTOR_ENTRY;
		e.id = tp->slot;
		if (tp->slot == t->timer_vector_slot && (rc = keep_timer_irq(t, &e)))
			return rc;
		break;
	case ROLE_VECTOR_EXIT:
		e.kind = LATPROBE_EV_VECTOR_EXIT;
		e.id = tp->slot;
		break;
	case ROLE_CPU_IDLE:
		e.kind = LATPROBE_EV_CPU_IDLE;
		/* the state entered; PWR_EVENT_EXIT ((u32)-1) on the way out: -1 */
		e.id = (int32_t)(uint32_t)latprobe_field_read(&tp->f[0], data, len);
		break;
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
		setting(t->dir, "tracing_on", "0", err, sizeof(err));
	if (t->break_created)
		setting(t->break_dir, "tracing_on", "0", err, sizeof(err));
}

int latprobe_trace_save_break(struct latprobe_trace *t, const char *path, char *err, size_t errlen)
{
	char src[512], buf[65536];
	int in, out, rc = 0;

	if (!t->break_created)
		return fail(err, errlen, ENOENT, "no --break trace instance");
	snprintf(src, sizeof(src), "%s/trace", t->break_dir);
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		rc = errno;
		return fail(err, errlen, rc, "cannot read %s: %s", src, strerror(rc));
	}
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		rc = errno;
		close(in);
		return fail(err, errlen, rc, "cannot write the --break trace to %s: %s", path,
			    strerror(rc));
	}
	for (;;) {
		ssize_t r = read(in, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? errno : 0;
			break;
		}
		for (ssize_t done = 0; done < r;) {
			ssize_t w = write(out, buf + done, (size_t)(r - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				rc = errno;
				break;
			}
			done += w;
		}
		if (rc)
			break;
	}
	close(in);
	if (close(out) && !rc)
		rc = errno;
	if (rc)
		return fail(err, errlen, rc, "writing the --break trace to %s failed: %s", path,
			    strerror(rc));
	return 0;
}

static void append(char *buf, size_t len, const char *path)
{
	size_t used = strlen(buf);
	const char *slash = strchr(path, '/');

	if (used + 1 >= len)
		return;
	snprintf(buf + used, len - used, "%s%.*s:%s", used ? "," : "",
		 (int)(slash ? slash - path : 0), path, slash ? slash + 1 : path);
}

void latprobe_trace_describe(const struct latprobe_trace *t, char *used, size_t used_len,
			     char *missing, size_t missing_len)
{
	used[0] = missing[0] = '\0';
	for (unsigned i = 0; i < t->ntp; i++) {
		const struct latprobe_tracepoint *tp = &t->tp[i];
		bool wanted = tp->role <= ROLE_SYSCALL_EXIT || t->explain;

		if (tp->enabled)
			append(used, used_len, tp->path);
		else if (!tp->present && wanted)
			append(missing, missing_len, tp->path);
	}
	if (!latprobe_trace_has(t, "irq_vectors/" TIMER_VECTOR "_entry") && !t->timer_irq_by_name)
		append(missing, missing_len, "irq_vectors/" TIMER_VECTOR "_entry");
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

static int remove_instance(const char *dir)
{
	int rc;

	/* removing an instance also frees its buffers and drops its settings */
	for (int tries = 0;; tries++) {
		rc = rmdir(dir) ? errno : 0;
		if (rc != EBUSY || tries == 50)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 20000000 }, NULL);
	}
	return rc == ENOENT ? 0 : rc;
}

int latprobe_trace_close(struct latprobe_trace *t, char *err, size_t errlen)
{
	char path[512], text[2048];
	int rc = 0;

	if (t->fds) {
		for (unsigned c = 0; c < t->ncpus; c++) {
			snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", t->dir, c);
			if (!latprobe_read_text(path, text, sizeof(text)))
				t->overrun += stat_losses(text);
			if (t->fds[c] >= 0)
				close(t->fds[c]);
		}
		free(t->fds);
		t->fds = NULL;
	}
	free(t->page);
	t->page = NULL;
	if (t->break_marker_fd >= 0)
		close(t->break_marker_fd);
	if (t->break_tracing_on_fd >= 0)
		close(t->break_tracing_on_fd);
	t->break_marker_fd = t->break_tracing_on_fd = -1;
	if (t->break_created) {
		rc = remove_instance(t->break_dir);
		if (rc)
			fail(err, errlen, rc,
			     "cannot remove the trace instance %s: %s; remove it with rmdir",
			     t->break_dir, strerror(rc));
		else
			t->break_created = false;
	}
	if (t->created) {
		int r = remove_instance(t->dir);

		if (r)
			fail(err, errlen, r,
			     "cannot remove the trace instance %s: %s; remove it with rmdir",
			     t->dir, strerror(r));
		else
			t->created = false;
		rc = rc ? rc : r;
	}
	if (t->mounted && !rc) {
		if (umount(t->root) == 0)
			t->mounted = false;
	}
	return rc;
}

void latprobe_trace_free(struct latprobe_trace *t)
{
	latprobe_windows_free(&t->windows);
	latprobe_names_free(&t->names);
}
