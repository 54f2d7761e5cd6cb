/* latctl: device opening, errors, number parsing and latmon-log output. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "latctl.h"
#include "latmon/latmon_log.h"

int latctl_usage_error(const struct latctl *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", c->prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return LATCTL_EUSAGE;
}

int latctl_fail(const struct latctl *c, const char *what, int err)
{
	const char *msg = err >= 1000 ? latmon_strerror(err) : strerror(err);

	if (err == ERANGE)
		msg = "offset outside the device's map (refused)";
	fprintf(stderr, "%s: error: %s: %s\n", c->prog, what, msg);
	return LATCTL_EDEVICE;
}

int latctl_output_args(const struct latctl *c, const char *cmd, int argc, char **argv,
		       const char **out_path)
{
	int i;

	*out_path = NULL;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			*out_path = argv[++i];
		else
			return latctl_usage_error(c, "%s: unknown option '%s' (only -o FILE)", cmd,
						  argv[i]);
	}
	if (!c->json && !c->clock_hz)
		return latctl_usage_error(c,
					  "%s writes latmon-log, which needs --clock-hz HZ "
					  "(or give --json)",
					  cmd);
	return LATCTL_OK;
}

/* A UIO device by the name its device-tree node gives it (/sys/class/uio/uioN/name). */
static int find_by_name(const char *name, char *path, size_t size)
{
	DIR *d = opendir("/sys/class/uio");
	struct dirent *e;
	int found = ENOENT;

	if (!d)
		return ENOENT;
	while ((e = readdir(d))) {
		char file[300], text[128];
		FILE *f;

		if (strncmp(e->d_name, "uio", 3) != 0)
			continue;
		snprintf(file, sizeof file, "/sys/class/uio/%s/name", e->d_name);
		f = fopen(file, "r");
		if (!f)
			continue;
		if (fgets(text, sizeof text, f)) {
			text[strcspn(text, "\n")] = 0;
			if (strcmp(text, name) == 0) {
				snprintf(path, size, "/dev/%s", e->d_name);
				found = 0;
			}
		}
		fclose(f);
		if (!found)
			break;
	}
	closedir(d);
	return found;
}

int latctl_open(struct latctl *c)
{
	char path[300];
	int err;

	if (c->device && c->device_file)
		return latctl_usage_error(c,
					  "give either -d DEVICE or --device-file FILE, not both");
	if (c->device_file) {
		if (!c->map_size)
			return latctl_usage_error(c, "--device-file needs --map-size BYTES");
		err = latmon_uio_open_file(&c->uio, c->device_file, c->map_size);
		if (err == ERANGE)
			fprintf(stderr, "%s: error: %s: not a regular file of at least %zu bytes\n",
				c->prog, c->device_file, c->map_size);
		else if (err)
			return latctl_fail(c, c->device_file, err);
		if (err)
			return LATCTL_EDEVICE;
	} else {
		if (!c->device)
			return latctl_usage_error(
			    c, "which core? give -d /dev/uioN (or its UIO name)");
		if (strncmp(c->device, "/dev/", 5) == 0)
			snprintf(path, sizeof path, "%s", c->device);
		else if (strncmp(c->device, "uio", 3) == 0 && c->device[3] >= '0' &&
			 c->device[3] <= '9')
			snprintf(path, sizeof path, "/dev/%s", c->device);
		else if (find_by_name(c->device, path, sizeof path))
			return latctl_usage_error(
			    c, "no UIO device named '%s' (see /sys/class/uio/*/name)", c->device);
		if ((err = latmon_uio_open(&c->uio, path)))
			return latctl_fail(c, path, err);
	}
	if ((err = latmon_attach(&c->dev, &c->uio.hal, c->clock_hz)))
		return latctl_fail(c, c->device_file ? c->device_file : c->device, err);
	return LATCTL_OK;
}

void latctl_close(struct latctl *c)
{
	if (c->uio.map)
		latmon_uio_close(&c->uio);
}

/* ---- latmon-log output ------------------------------------------------------------------ */

struct latctl_log {
	FILE *f;
	struct latmon_log_writer *w;
	void *mem;
};

static int file_sink(void *ctx, const char *data, size_t len)
{
	FILE *f = ctx;

	if (fwrite(data, 1, len, f) != len)
		return EIO;
	return 0;
}

int latctl_log_open(struct latctl_log **out, FILE *f, const struct latctl *c, const char *kind)
{
	struct latctl_log *l = calloc(1, sizeof *l);
	size_t size = latmon_log_writer_size(1);
	char clock[24];
	struct latmon_log_kv header[6];
	struct latmon_log_kv series[1];
	size_t n = 0;
	int err;

	if (!l)
		return ENOMEM;
	l->f = f;
	size = (size + alignof(max_align_t) - 1) / alignof(max_align_t) * alignof(max_align_t);
	l->mem = aligned_alloc(alignof(max_align_t), size);
	if (!l->mem) {
		free(l);
		return ENOMEM;
	}
	err = latmon_log_writer_init(&l->w, l->mem, size, 1, file_sink, f);
	header[n++] = (struct latmon_log_kv){ "source", "latctl" };
	header[n++] = (struct latmon_log_kv){ "tool_version", LATCTL_VERSION };
	header[n++] = (struct latmon_log_kv){ "unit", "cycles" };
	if (c->clock_hz) {
		snprintf(clock, sizeof clock, "%llu", (unsigned long long)c->clock_hz);
		header[n++] = (struct latmon_log_kv){ "clock_hz", clock };
	}
	header[n++] =
	    (struct latmon_log_kv){ "device", c->device_file ? c->device_file : c->device };
	series[0] = (struct latmon_log_kv){ "kind", kind };
	if (!err)
		err = latmon_log_begin(l->w, header, n);
	if (!err)
		err = latmon_log_series(l->w, 0, "core0",
					strcmp(kind, "hist") ? "n,latency" : "latency", series, 1);
	*out = l;
	return err;
}

int latctl_log_sample(struct latctl_log *l, uint64_t number, uint32_t latency)
{
	int64_t values[2] = { (int64_t)number, latency };

	return latmon_log_sample(l->w, 0, values, 2);
}

int latctl_log_bin(struct latctl_log *l, const int64_t *lo, const int64_t *hi, uint64_t count)
{
	return latmon_log_bin(l->w, 0, lo, hi, count);
}

int latctl_log_counter(struct latctl_log *l, const char *key, uint64_t value)
{
	struct latmon_log_counter counter = { key, value };

	return latmon_log_counters(l->w, 0, &counter, 1);
}

int latctl_log_close(struct latctl_log *l)
{
	int err = latmon_log_end(l->w);

	if (fflush(l->f) != 0 && !err)
		err = EIO;
	free(l->mem);
	free(l);
	return err;
}
