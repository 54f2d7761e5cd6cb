/* latctl read: the trace samples still in the RAM, as latmon-log or JSON. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "latctl.h"
#include "latmon/latmon_map.h"

int latctl_cmd_read(struct latctl *c, int argc, char **argv)
{
	uint32_t samples[LATMON_TRACE_ENTRIES], first;
	struct latctl_log *log = NULL;
	const char *out_path = NULL;
	FILE *out = stdout;
	size_t n, k;
	int rc, err;

	if ((rc = latctl_output_args(c, "read", argc, argv, &out_path)))
		return rc;
	if ((rc = latctl_open(c)))
		return rc;
	if ((err = latmon_read_trace(&c->dev, samples, LATMON_TRACE_ENTRIES, &first, &n)))
		return latctl_fail(c, "read trace", err);
	if (out_path && !(out = fopen(out_path, "w")))
		return latctl_fail(c, out_path, errno);
	if (c->json) {
		fprintf(out, "{\"first\": %" PRIu32 ", \"samples\": [", first);
		for (k = 0; k < n; k++)
			fprintf(out, "%s%" PRIu32, k ? ", " : "", samples[k]);
		fprintf(out, "]}\n");
	} else {
		err = latctl_log_open(&log, out, c, "trace");
		for (k = 0; k < n && !err; k++)
			err = latctl_log_sample(log, first + k, samples[k]);
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
