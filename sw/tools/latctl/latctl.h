/* latctl: shared state and helpers of the subcommands (docs/latctl.md). */
#ifndef LATCTL_H
#define LATCTL_H

#include <stdint.h>
#include <stdio.h>

#include "latmon/latmon.h"
#include "latmon_uio.h"

#define LATCTL_VERSION "0.1.0"

/* Exit statuses (docs/latctl.md). */
enum { LATCTL_OK = 0, LATCTL_EDEVICE = 1, LATCTL_EUSAGE = 2 };

struct latctl {
	const char *prog;
	const char *device;	 /* /dev/uioN, uioN or a UIO name */
	const char *device_file; /* a regular file mapped in place of the device */
	size_t map_size;
	uint64_t clock_hz;
	int json;
	struct latmon_uio uio;
	struct latmon_dev dev;
};

/* Print "latctl: error: ..." and return LATCTL_EUSAGE. */
int latctl_usage_error(const struct latctl *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Print "latctl: error: WHAT: <message of err>" and return LATCTL_EDEVICE. */
int latctl_fail(const struct latctl *c, const char *what, int err);
/* Open the device (or file) and attach; prints the error itself. */
int latctl_open(struct latctl *c);
void latctl_close(struct latctl *c);
/*
 * The options of a command that writes latmon-log or --json: only "-o FILE" (NULL: stdout);
 * latmon-log needs --clock-hz. Returns LATCTL_OK or a usage error (printed).
 */
int latctl_output_args(const struct latctl *c, const char *cmd, int argc, char **argv,
		       const char **out_path);

/* latmon-log output of samples (cycles) and histograms: one series "core0". */
struct latctl_log;
int latctl_log_open(struct latctl_log **out, FILE *f, const struct latctl *c, const char *kind);
int latctl_log_sample(struct latctl_log *l, uint64_t number, uint32_t latency);
int latctl_log_bin(struct latctl_log *l, const int64_t *lo, const int64_t *hi, uint64_t count);
int latctl_log_counter(struct latctl_log *l, const char *key, uint64_t value);
/* Write the trailer and free; returns the first error of the log. */
int latctl_log_close(struct latctl_log *l);

int latctl_cmd_info(struct latctl *c, int argc, char **argv);
int latctl_cmd_config(struct latctl *c, int argc, char **argv);
int latctl_cmd_arm(struct latctl *c, int argc, char **argv);
int latctl_cmd_disarm(struct latctl *c, int argc, char **argv);
int latctl_cmd_status(struct latctl *c, int argc, char **argv);
int latctl_cmd_read(struct latctl *c, int argc, char **argv);
int latctl_cmd_stream(struct latctl *c, int argc, char **argv);
int latctl_cmd_hist(struct latctl *c, int argc, char **argv);
/* ring needs no device: it maps the shared memory (or a file) itself */
int latctl_cmd_ring(struct latctl *c, int argc, char **argv);

#endif
