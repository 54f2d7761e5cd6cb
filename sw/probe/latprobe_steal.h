/*
 * Hypervisor steal time per CPU, from the "steal" column of /proc/stat (the time the
 * hypervisor ran something else while this vCPU wanted to run; kernel accounting in USER_HZ
 * ticks). The main thread reads it on every tick of a traced run, so that each explained spike
 * can say how much of its CPU was stolen in the stretch around it.
 */
#ifndef LATPROBE_STEAL_H
#define LATPROBE_STEAL_H

#include <stddef.h>
#include <stdint.h>

/**
 * Read the steal time of @p cpus (n of them) from @p path ("/proc/stat"; a test may give
 * another) into @p ns, in nanoseconds (@p user_hz ticks per second).
 * @return 0; ENOENT when a CPU's line or its steal column is missing (a kernel older than
 *         2.6.11), or the errno of opening or reading the file.
 */
int latprobe_steal_read(const char *path, const unsigned *cpus, unsigned n, long user_hz,
			uint64_t *ns);

#endif /* LATPROBE_STEAL_H */
