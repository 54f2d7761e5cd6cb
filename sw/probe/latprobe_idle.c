/* Per-CPU idle-state limit; see latprobe_idle.h. */
#define _GNU_SOURCE
#include "latprobe_idle.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Read the first byte of @p path into @p c. @return 0 or an errno value. */
static int read_switch(const char *path, char *c)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int rc = 0;

	if (fd < 0)
		return errno;
	n = read(fd, c, 1);
	if (n < 0)
		rc = errno;
	else if (n == 0 || (*c != '0' && *c != '1'))
		rc = EIO;
	if (close(fd) && !rc)
		rc = errno;
	return rc;
}

static int write_switch(const char *path, char c)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return errno;
	if (write(fd, &c, 1) != 1)
		rc = errno ? errno : EIO;
	if (close(fd) && !rc)
		rc = errno;
	return rc;
}

/* Idle states of @p cpu (state0, state1, ... that exist). */
static unsigned count_states(const char *root, unsigned cpu)
{
	char path[256];
	unsigned k = 0;

	for (;; k++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/disable", root, cpu, k);
		if (access(path, F_OK))
			return k;
	}
}

int latprobe_idle_limit(struct latprobe_idle *idle, const char *root, const unsigned *cpus,
			unsigned ncpus, int deepest, char *err, size_t errlen)
{
	size_t cap = 0;
	int rc = 0;

	memset(idle, 0, sizeof(*idle));
	snprintf(idle->root, sizeof(idle->root), "%s", root);
	for (unsigned i = 0; i < ncpus; i++) {
		unsigned n = count_states(root, cpus[i]);

		if (n == 0)
			return fail(
			    err, errlen, ENOENT,
			    "--deepest-idle-state: CPU %u has no cpuidle states (%s/cpu%u/"
			    "cpuidle/state0/disable is missing): this kernel or machine has "
			    "no idle-state control",
			    cpus[i], root, cpus[i]);
		if (i == 0)
			idle->nstates = n;
		cap += n;
	}
	idle->saved = calloc(cap ? cap : 1, sizeof(*idle->saved));
	if (!idle->saved)
		return fail(err, errlen, ENOMEM, "out of memory");
	for (unsigned i = 0; i < ncpus; i++) {
		unsigned n = count_states(root, cpus[i]);

		for (unsigned k = (unsigned)deepest + 1; k < n; k++) {
			char path[256], before;

			snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/disable", root,
				 cpus[i], k);
			rc = read_switch(path, &before);
			if (rc)
				return fail(err, errlen, rc,
					    "--deepest-idle-state: cannot read %s: %s", path,
					    strerror(rc));
			if (before == '1')
				continue; /* already disabled: nothing to restore */
			rc = write_switch(path, '1');
			if (rc)
				return fail(err, errlen, rc,
					    "--deepest-idle-state: cannot write %s: %s%s", path,
					    strerror(rc),
					    rc == EACCES || rc == EPERM ? " (it needs root)" : "");
			idle->saved[idle->nsaved++] =
			    (struct latprobe_idle_saved){ cpus[i], k, before };
		}
	}
	return 0;
}

int latprobe_idle_restore(struct latprobe_idle *idle, char *err, size_t errlen)
{
	int first = 0;

	for (size_t i = idle->nsaved; i-- > 0;) {
		const struct latprobe_idle_saved *s = &idle->saved[i];
		char path[256];
		int rc;

		snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/disable", idle->root, s->cpu,
			 s->state);
		rc = write_switch(path, s->before);
		if (rc && !first)
			first = fail(err, errlen, rc,
				     "cannot restore %s to %c: %s; write it back by hand", path,
				     s->before, strerror(rc));
	}
	free(idle->saved);
	idle->saved = NULL;
	idle->nsaved = 0;
	return first;
}
