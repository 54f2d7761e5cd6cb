/* --threshold actions; see latprobe_action.h. */
#define _GNU_SOURCE
#include "latprobe_action.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void latprobe_actions_init(struct latprobe_actions *a, const struct latprobe_params *params,
			   struct latprobe_trace *trace)
{
	memset(a, 0, sizeof(*a));
	a->params = params;
	a->trace = trace;
	a->thr.threshold_ns = params->threshold_ns;
	a->thr.marker_fd = a->thr.tracing_on_fd = -1;
	if (trace && (params->actions & LATPROBE_ACTION_TRACE)) {
		a->thr.marker_fd = trace->break_marker_fd;
		a->thr.tracing_on_fd = trace->break_tracing_on_fd;
	}
}

void latprobe_actions_arm(struct latprobe_actions *a)
{
	atomic_store(&a->thr.armed, true);
}

static void save_trace(struct latprobe_actions *a)
{
	char path[sizeof(a->first_trace)], err[512];

	if (a->events == 1)
		snprintf(path, sizeof(path), "%s", a->params->action_trace);
	else
		snprintf(path, sizeof(path), "%s.%" PRIu64, a->params->action_trace, a->events);
	if (latprobe_trace_save_break(a->trace, path, err, sizeof(err))) {
		fprintf(stderr, "latprobe: threshold: %s\n", err);
		a->action_errors++;
		return;
	}
	a->traces_saved++;
	if (a->traces_saved == 1)
		snprintf(a->first_trace, sizeof(a->first_trace), "%s", path);
}

static void send_signal(struct latprobe_actions *a)
{
	pid_t pid = a->params->action_pid ? (pid_t)a->params->action_pid : getppid();

	if (kill(pid, a->params->action_signal)) {
		fprintf(stderr, "latprobe: threshold: cannot send signal %d to pid %d: %s\n",
			a->params->action_signal, (int)pid, strerror(errno));
		a->action_errors++;
		return;
	}
	a->signals_sent++;
}

static void start_shell(struct latprobe_actions *a, uint64_t now)
{
	char cpu[48], lat[64], t[64], ev[64];
	char *argv[] = { "/bin/sh", "-c", (char *)a->params->action_shell, NULL };
	size_t n = 0;
	char **env;
	int rc;

	while (environ[n])
		n++;
	env = calloc(n + 5, sizeof(*env));
	if (!env) {
		a->shells_failed++;
		a->action_errors++;
		return;
	}
	snprintf(cpu, sizeof(cpu), "LATPROBE_CPU=%u", a->thr.cpu);
	snprintf(lat, sizeof(lat), "LATPROBE_LATENCY_NS=%" PRIu64, a->thr.latency);
	snprintf(t, sizeof(t), "LATPROBE_T_NS=%" PRIu64, a->thr.t);
	snprintf(ev, sizeof(ev), "LATPROBE_EVENT=%" PRIu64, a->events);
	memcpy(env, environ, n * sizeof(*env));
	env[n] = cpu;
	env[n + 1] = lat;
	env[n + 2] = t;
	env[n + 3] = ev;
	/* the command inherits latprobe's blocked signals otherwise: unblock them */
	{
		posix_spawnattr_t attr;
		sigset_t none;

		sigemptyset(&none);
		rc = posix_spawnattr_init(&attr);
		if (!rc)
			rc = posix_spawnattr_setsigmask(&attr, &none);
		if (!rc)
			rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
		if (!rc)
			rc = posix_spawn(&a->child, "/bin/sh", NULL, &attr, argv, env);
		posix_spawnattr_destroy(&attr);
	}
	free(env);
	if (rc) {
		fprintf(stderr, "latprobe: threshold: cannot run /bin/sh: %s\n", strerror(rc));
		a->child = 0;
		a->shells_failed++;
		a->action_errors++;
		return;
	}
	a->child_deadline = now + a->params->action_timeout_ns;
}

/* The event is over: clear the trace, turn it on, arm again. */
static void rearm(struct latprobe_actions *a)
{
	if (a->thr.tracing_on_fd >= 0 && a->trace) {
		char path[512];
		int fd;

		snprintf(path, sizeof(path), "%s/trace", a->trace->break_dir);
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0 || close(fd)) {
			fprintf(stderr, "latprobe: threshold: cannot clear %s: %s\n", path,
				strerror(errno));
			a->action_errors++;
		}
		if (write(a->thr.tracing_on_fd, "1", 1) != 1) {
			fprintf(stderr,
				"latprobe: threshold: cannot turn the trace on again: %s; the "
				"next events have no trace\n",
				strerror(errno));
			a->action_errors++;
		}
	}
	a->busy = false;
	latprobe_actions_arm(a);
}

static void reap(struct latprobe_actions *a, uint64_t now, bool wait)
{
	int status;
	pid_t r;

	if (!a->child)
		return;
	for (;;) {
		r = waitpid(a->child, &status, wait ? 0 : WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		break;
	}
	if (r == 0) {
		if (now < a->child_deadline)
			return;
		fprintf(stderr,
			"latprobe: threshold: the shell command ran longer than %.3f s "
			"(--on-threshold-timeout): killed\n",
			(double)a->params->action_timeout_ns / 1e9);
		kill(a->child, SIGKILL);
		while (waitpid(a->child, &status, 0) < 0 && errno == EINTR)
			;
		a->shells_killed++;
		a->action_errors++;
	} else if (r < 0) {
		fprintf(stderr, "latprobe: threshold: waitpid: %s\n", strerror(errno));
		a->shells_failed++;
		a->action_errors++;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		a->shells_ok++;
	} else {
		fprintf(stderr, "latprobe: threshold: the shell command %s %d\n",
			WIFEXITED(status) ? "exited with" : "was killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		a->shells_failed++;
		a->action_errors++;
	}
	a->child = 0;
}

void latprobe_actions_poll(struct latprobe_actions *a, uint64_t now)
{
	unsigned actions = a->params->actions;

	if (!a->params->threshold_ns)
		return;
	if (!a->busy && atomic_load_explicit(&a->thr.pending, memory_order_acquire)) {
		atomic_store(&a->thr.pending, false);
		a->busy = true;
		a->events++;
		if (a->events == 1) {
			a->first_cpu = a->thr.cpu;
			a->first_t = a->thr.t;
			a->first_latency = a->thr.latency;
		}
		fprintf(stderr,
			"latprobe: threshold: event %" PRIu64 ": cpu%u woke %" PRIu64
			" ns late at t=%.6f s (threshold %" PRIu64 " ns)\n",
			a->events, a->thr.cpu, a->thr.latency, (double)a->thr.t / 1e9,
			a->thr.threshold_ns);
		if ((actions & LATPROBE_ACTION_TRACE) && a->trace)
			save_trace(a);
		if (actions & LATPROBE_ACTION_SIGNAL)
			send_signal(a);
		if (actions & LATPROBE_ACTION_SHELL)
			start_shell(a, now);
	}
	reap(a, now, false);
	if (a->busy && !a->child)
		rearm(a);
}

bool latprobe_actions_running(const struct latprobe_actions *a)
{
	return a->child != 0;
}

void latprobe_actions_finish(struct latprobe_actions *a)
{
	struct timespec poll = { .tv_sec = 0, .tv_nsec = 10000000 };

	if (!a->params->threshold_ns)
		return;
	latprobe_actions_poll(a, latprobe_now_ns());
	while (a->child) {
		nanosleep(&poll, NULL);
		reap(a, latprobe_now_ns(), false);
	}
	atomic_store(&a->thr.armed, false);
}
