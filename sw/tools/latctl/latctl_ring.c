/*
 * latctl ring: read the latmon-log that bare-metal firmware on other cores writes into a
 * shared-memory ring (latmon_ring.h, docs/amp.md) and copy it to a file or stdout as it comes,
 * until the firmware says it is done and every byte is read.
 *
 *   latctl ring --phys ADDR --size BYTES [-o FILE] [--timeout S] [--interval-ms N]
 *   latctl ring --file PATH [...]        (a file in place of the memory: tests, offline)
 *
 * The memory is mapped from /dev/mem (the region must be outside Linux's RAM: a no-map
 * reserved-memory node); the reader waits for the firmware to format the ring, then polls.
 * After --timeout seconds in all (default 600), or on SIGINT or SIGTERM, it stops and keeps
 * what it read (exit status 1 for the time-out). A summary line goes to stderr: the firmware's
 * status and the bytes it dropped.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "latctl.h"
#include "latmon/latmon_ring.h"
#include "latmon_parse.h"

static volatile sig_atomic_t ring_stop;

static void on_signal(int sig)
{
	(void)sig;
	ring_stop = 1;
}

struct ring_params {
	uint64_t phys;
	uint64_t size;
	const char *file;
	const char *out_path;
	uint64_t timeout_s;
	uint64_t interval_ms;
};

static int parse(struct latctl *c, int argc, char **argv, struct ring_params *p)
{
	uint64_t v;
	int i;

	for (i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(opt, "--help") == 0) {
			printf(
			    "usage: latctl ring --phys ADDR --size BYTES | --file PATH [-o FILE] "
			    "[--timeout S] [--interval-ms N]\n"
			    "Copies the latmon-log firmware writes into a shared-memory ring "
			    "(docs/amp.md) until the firmware is done.\n");
			return -1;
		}
		if (!val)
			return latctl_usage_error(c, "ring: %s needs a value", opt);
		i++;
		if (strcmp(opt, "-o") == 0) {
			p->out_path = val;
		} else if (strcmp(opt, "--file") == 0) {
			p->file = val;
		} else if (strcmp(opt, "--phys") == 0) {
			if (latmon_parse_u64(val, 0, 0, UINT64_MAX, &v) || (v & 0xFFFu))
				return latctl_usage_error(
				    c, "--phys %s: give the ring's page-aligned physical address",
				    val);
			p->phys = v;
		} else if (strcmp(opt, "--size") == 0) {
			if (latmon_parse_u64(val, 0, 0, UINT64_C(1) << 32, &v) ||
			    v < LATMON_RING_HEADER_BYTES + LATMON_RING_MIN_DATA_BYTES)
				return latctl_usage_error(
				    c,
				    "--size %s: give the ring's bytes (%u .. "
				    "4 GiB)",
				    val, LATMON_RING_HEADER_BYTES + LATMON_RING_MIN_DATA_BYTES);
			p->size = v;
		} else if (strcmp(opt, "--timeout") == 0) {
			if (latmon_parse_u64(val, 0, 0, 86400, &v) || v == 0)
				return latctl_usage_error(c, "--timeout %s: give 1 .. 86400 s",
							  val);
			p->timeout_s = v;
		} else if (strcmp(opt, "--interval-ms") == 0) {
			if (latmon_parse_u64(val, 0, 0, 60000, &v) || v == 0)
				return latctl_usage_error(c, "--interval-ms %s: give 1 .. 60000",
							  val);
			p->interval_ms = v;
		} else {
			return latctl_usage_error(c,
						  "ring: unknown option '%s' (--phys ADDR --size "
						  "BYTES | --file PATH, -o FILE, --timeout S, "
						  "--interval-ms N)",
						  opt);
		}
	}
	if (!p->file && !p->size)
		return latctl_usage_error(c, "ring: give --phys ADDR --size BYTES, or --file PATH");
	if (p->file && (p->phys || p->size))
		return latctl_usage_error(c, "ring: --file and --phys/--size exclude each other");
	return LATCTL_OK;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void nap(uint64_t ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int latctl_cmd_ring(struct latctl *c, int argc, char **argv)
{
	struct ring_params p = { 0, 0, NULL, NULL, 600, 10 };
	struct latmon_ring *ring = NULL;
	struct sigaction sa;
	unsigned char buf[4096];
	uint64_t total = 0;
	FILE *out = stdout;
	void *mem = MAP_FAILED;
	size_t map_size = 0;
	double deadline;
	int rc, fd = -1, err = 0, timed_out = 0;

	if ((rc = parse(c, argc, argv, &p)))
		return rc < 0 ? LATCTL_OK : rc;
	if (p.file) {
		struct stat st;

		fd = open(p.file, O_RDWR);
		if (fd < 0 || fstat(fd, &st) != 0)
			return latctl_fail(c, p.file, errno);
		map_size = (size_t)st.st_size;
	} else {
		fd = open("/dev/mem", O_RDWR | O_SYNC);
		if (fd < 0)
			return latctl_fail(
			    c, "/dev/mem (run as root; the kernel needs CONFIG_DEVMEM)", errno);
		map_size = (size_t)p.size;
	}
	mem = mmap(NULL, map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)p.phys);
	if (mem == MAP_FAILED) {
		err = errno;
		close(fd);
		return latctl_fail(c,
				   p.file
				       ? p.file
				       : "mapping the ring (is it outside Linux's RAM, in a no-map "
					 "reserved-memory node?)",
				   err);
	}
	if (p.out_path && !(out = fopen(p.out_path, "w"))) {
		err = errno;
		munmap(mem, map_size);
		close(fd);
		return latctl_fail(c, p.out_path, err);
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	deadline = now_s() + (double)p.timeout_s;
	/* the firmware formats the ring when it starts: until then it is not one (yet) */
	while (!ring_stop && (err = latmon_ring_attach(&ring, mem, map_size)) != 0) {
		if (err != EAGAIN && err != EPROTO)
			break;
		if (now_s() > deadline) {
			timed_out = 1;
			break;
		}
		nap(p.interval_ms);
	}
	if (ring) {
		err = 0;
		while (!ring_stop) {
			size_t got = 0;

			if ((err = latmon_ring_read(ring, buf, sizeof buf, &got)))
				break;
			if (got) {
				if (fwrite(buf, 1, got, out) != got) {
					err = errno;
					break;
				}
				total += got;
				continue;
			}
			fflush(out);
			if (latmon_ring_drained(ring))
				break;
			if (now_s() > deadline) {
				timed_out = 1;
				break;
			}
			nap(p.interval_ms);
		}
	}
	if (fflush(out) != 0 && !err)
		err = errno;
	if (out != stdout && fclose(out) != 0 && !err)
		err = errno;
	if (ring && latmon_ring_drained(ring))
		fprintf(stderr,
			"latctl: ring: %llu bytes read; the writer finished with status %u, "
			"%u bytes dropped\n",
			(unsigned long long)total, (unsigned)ring->status, (unsigned)ring->dropped);
	else
		fprintf(stderr, "latctl: ring: %llu bytes read; the writer %s\n",
			(unsigned long long)total,
			ring ? "has not finished" : "never formatted the ring");
	munmap(mem, map_size);
	close(fd);
	if (err)
		return latctl_fail(c, "ring", err);
	if (timed_out) {
		fprintf(stderr,
			"latctl: error: ring: the writer did not finish within %llu s (--timeout); "
			"what was read is kept\n",
			(unsigned long long)p.timeout_s);
		return LATCTL_EDEVICE;
	}
	return LATCTL_OK;
}
