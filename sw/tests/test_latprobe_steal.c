/* Unit tests of the steal-time reader (sw/probe/latprobe_steal.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../probe/latprobe_steal.h"

#include "check.h"

int main(void)
{
	char path[] = "/tmp/latprobe-stat-XXXXXX";
	unsigned cpus[2] = { 1, 0 };
	uint64_t ns[2] = { 0, 0 };
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	CHECK(f != NULL);
	if (!f)
		return check_report("test_latprobe_steal");
	fputs("cpu  52465 1694 10328 35883 502 0 224 244 0 0\n"
	      "cpu0 21190 869 4153 24213 102 0 31 114 0 0\n"
	      "cpu1 31274 825 6175 11670 399 0 192 129 0 0\n"
	      "cpu2 1 2 3\n"
	      "intr 1 2 3\n",
	      f);
	fclose(f);
	/* USER_HZ 100: a tick is 10 ms; in the order asked for */
	CHECK(latprobe_steal_read(path, cpus, 2, 100, ns) == 0);
	CHECK(ns[0] == 1290000000ull && ns[1] == 1140000000ull);
	/* a CPU whose line has no steal column, or no line */
	cpus[0] = 2;
	CHECK(latprobe_steal_read(path, cpus, 1, 100, ns) == ENOENT);
	cpus[0] = 7;
	CHECK(latprobe_steal_read(path, cpus, 1, 100, ns) == ENOENT);
	CHECK(latprobe_steal_read("/nonexistent/stat", cpus, 1, 100, ns) == ENOENT);
	CHECK(latprobe_steal_read(path, cpus, 1, 0, ns) == EINVAL);
	unlink(path);
	/* the real file of this machine: every online CPU has a steal column */
	cpus[0] = 0;
	CHECK(latprobe_steal_read("/proc/stat", cpus, 1, sysconf(_SC_CLK_TCK), ns) == 0);
	return check_report("test_latprobe_steal");
}
