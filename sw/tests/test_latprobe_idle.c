/* Unit tests of the per-CPU idle-state limit (sw/probe/latprobe_idle.c) on a sysfs-like tree. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../probe/latprobe_idle.h"

#include "check.h"

static void put(const char *root, unsigned cpu, unsigned state, const char *value)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%u", root, cpu);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/cpu%u/cpuidle", root, cpu);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u", root, cpu, state);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/disable", root, cpu, state);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(value, f);
		fclose(f);
	}
}

static char get(const char *root, unsigned cpu, unsigned state)
{
	char path[512], c = '?';
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpu%u/cpuidle/state%u/disable", root, cpu, state);
	f = fopen(path, "r");
	if (f) {
		c = (char)fgetc(f);
		fclose(f);
	}
	return c;
}

int main(void)
{
	char root[] = "/tmp/latprobe-idle-XXXXXX";
	struct latprobe_idle idle;
	unsigned cpus[2] = { 1, 2 };
	char err[512];

	CHECK(mkdtemp(root) != NULL);
	/* cpu1: three states, state2 already disabled by someone else; cpu2: two; cpu0: left alone
	 */
	put(root, 0, 0, "0\n");
	put(root, 0, 1, "0\n");
	put(root, 1, 0, "0\n");
	put(root, 1, 1, "0\n");
	put(root, 1, 2, "1\n");
	put(root, 2, 0, "0\n");
	put(root, 2, 1, "0\n");
	CHECK(latprobe_idle_limit(&idle, root, cpus, 2, 0, err, sizeof(err)) == 0);
	/* deeper than state0 off on the measured CPUs; only what was on is recorded */
	CHECK(get(root, 1, 0) == '0' && get(root, 1, 1) == '1' && get(root, 1, 2) == '1');
	CHECK(get(root, 2, 0) == '0' && get(root, 2, 1) == '1');
	CHECK(get(root, 0, 1) == '0');
	CHECK(idle.nsaved == 2 && idle.nstates == 3);
	CHECK(latprobe_idle_restore(&idle, err, sizeof(err)) == 0);
	/* each back to what it was, the one disabled before stays disabled */
	CHECK(get(root, 1, 1) == '0' && get(root, 1, 2) == '1' && get(root, 2, 1) == '0');
	CHECK(idle.nsaved == 0 && idle.saved == NULL);
	/* a deeper limit than the CPU has: nothing to change */
	CHECK(latprobe_idle_limit(&idle, root, cpus, 2, 5, err, sizeof(err)) == 0 &&
	      idle.nsaved == 0);
	CHECK(latprobe_idle_restore(&idle, err, sizeof(err)) == 0);
	/* a CPU without cpuidle: a one-line error naming the file */
	cpus[1] = 3;
	CHECK(latprobe_idle_limit(&idle, root, cpus, 2, 0, err, sizeof(err)) == ENOENT &&
	      strstr(err, "CPU 3 has no cpuidle states") && strstr(err, "cpu3/cpuidle/state0"));
	CHECK(latprobe_idle_restore(&idle, err, sizeof(err)) == 0);
	CHECK(get(root, 1, 1) == '0');
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK(system(cmd) == 0);
	}
	return check_report("test_latprobe_idle");
}
