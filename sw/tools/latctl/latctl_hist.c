/* latctl hist: take a histogram snapshot and print the frozen bank. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "latctl.h"
#include "latmon/latmon_map.h"

int latctl_cmd_hist(struct latctl *c, int argc, char **argv)
{
	uint32_t bins[LATMON_HIST_ENTRIES], start, shift;
	struct latmon_hist_bank bank;
	struct latctl_log *log = NULL;
	const char *out_path = NULL;
	FILE *out = stdout;
	unsigned k;
	int rc, err;

	if ((rc = latctl_output_args(c, "hist", argc, argv, &out_path)))
		return rc;
	if ((rc = latctl_open(c)))
		return rc;
	if (!c->dev.caps.has_hist)
		return latctl_fail(c, "hist", LATMON_ENOFEATURE);
	if ((err = c->dev.hal.read32(c->dev.hal.ctx, LATMON_HIST_START_OFFSET, &start)) ||
	    (err = c->dev.hal.read32(c->dev.hal.ctx, LATMON_HIST_SHIFT_OFFSET, &shift)) ||
	    (err = latmon_hist_snapshot(&c->dev, bins, LATMON_HIST_ENTRIES, &bank)))
		return latctl_fail(c, "hist", err);
	if (out_path && !(out = fopen(out_path, "w")))
		return latctl_fail(c, out_path, errno);
	if (c->json) {
		fprintf(out,
			"{\"start\": %" PRIu32 ", \"width\": %" PRIu64 ", \"underflow\": %" PRIu32
			", \"overflow\": %" PRIu32 ", \"count\": %" PRIu64 ", \"sum\": %" PRIu64
			", \"min\": %" PRIu32 ", \"max\": %" PRIu32
			", \"saturated\": %s, \"bins\": [",
			start, (uint64_t)1 << shift, bank.underflow, bank.overflow, bank.count,
			bank.sum, bank.min, bank.max, bank.saturated ? "true" : "false");
		for (k = 0; k < bank.bins; k++)
			fprintf(out, "%s%" PRIu32, k ? ", " : "", bins[k]);
		fprintf(out, "]}\n");
		err = 0;
	} else {
		int64_t lo = start, hi;
		err = latctl_log_open(&log, out, c, "hist");
		if (!err && bank.underflow) {
			hi = start;
			err = latctl_log_bin(log, NULL, &hi, bank.underflow);
		}
		for (k = 0; k < bank.bins && !err; k++) {
			lo = (int64_t)start + ((int64_t)k << shift);
			hi = lo + ((int64_t)1 << shift);
			if (bins[k])
				err = latctl_log_bin(log, &lo, &hi, bins[k]);
		}
		if (!err && bank.overflow) {
			lo = (int64_t)start + ((int64_t)bank.bins << shift);
			err = latctl_log_bin(log, &lo, NULL, bank.overflow);
		}
		if (!err && bank.count) {
			err = latctl_log_counter(log, "min", bank.min);
			if (!err)
				err = latctl_log_counter(log, "max", bank.max);
			if (!err)
				err = latctl_log_counter(log, "sum", bank.sum);
		}
		if (log) {
			int end = latctl_log_close(log);
			err = err ? err : end;
		}
	}
	if (out != stdout && fclose(out) != 0 && !err)
		err = errno;
	if (err)
		return latctl_fail(c, out_path ? out_path : "stdout", err);
	return LATCTL_OK;
}
