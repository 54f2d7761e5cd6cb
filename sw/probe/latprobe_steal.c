/* Steal time from /proc/stat; see latprobe_steal.h. */
#define _GNU_SOURCE
#include "latprobe_steal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "cpuN user nice system idle iowait irq softirq steal ...": the steal column */
#define STEAL_COLUMN 8

int latprobe_steal_read(const char *path, const unsigned *cpus, unsigned n, long user_hz,
			uint64_t *ns)
{
	char line[512];
	unsigned found = 0;
	FILE *f;
	int rc = 0;

	if (user_hz <= 0)
		return EINVAL;
	f = fopen(path, "re");
	if (!f)
		return errno;
	while (found < n && fgets(line, sizeof(line), f)) {
		char *p = line + 3, *end;
		unsigned long cpu;
		unsigned long long v = 0;
		int col;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		cpu = strtoul(p, &end, 10);
		for (col = 0, p = end; col < STEAL_COLUMN; col++) {
			v = strtoull(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (col < STEAL_COLUMN)
			continue; /* no steal column: the CPU stays not found */
		for (unsigned i = 0; i < n; i++) {
			if (cpus[i] == cpu) {
				ns[i] = (uint64_t)v * (1000000000ull / (uint64_t)user_hz);
				found++;
			}
		}
	}
	if (ferror(f))
		rc = EIO;
	if (fclose(f) && !rc)
		rc = errno;
	if (!rc && found < n)
		rc = ENOENT;
	return rc;
}
