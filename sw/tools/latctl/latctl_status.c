/* latctl status: status, statistics and counters. */
#include <inttypes.h>

#include "latctl.h"
#include "latmon/latmon_regs.h"

int latctl_cmd_status(struct latctl *c, int argc, char **argv)
{
	struct latmon_stats s;
	uint64_t mean_ns = 0;
	int rc, err;

	if (argc > 1)
		return latctl_usage_error(c, "status takes no options ('%s')", argv[1]);
	if ((rc = latctl_open(c)))
		return rc;
	if ((err = latmon_read_stats(&c->dev, &s)))
		return latctl_fail(c, "status", err);
	if (c->json) {
		printf("{\"busy\": %s, \"alarm\": %s, \"saturated\": %s, \"count\": %" PRIu32
		       ", \"last\": %" PRIu32 ", \"min\": %" PRIu32 ", \"max\": %" PRIu32
		       ", \"sum\": %" PRIu64 ", \"sum_count\": %" PRIu32
		       ", \"violations\": %" PRIu32 ", \"timeouts\": %" PRIu32
		       ", \"overruns\": %" PRIu32 ", \"ignored\": %" PRIu32
		       ", \"trace_count\": %" PRIu32 ", \"trace_lost\": %" PRIu32
		       ", \"irq_status\": %" PRIu32 "}\n",
		       (s.status & LATMON_REGISTERS__STATUS__BUSY_bm) ? "true" : "false",
		       (s.status & LATMON_REGISTERS__STATUS__ALARM_bm) ? "true" : "false",
		       (s.status & LATMON_REGISTERS__STATUS__SATURATED_bm) ? "true" : "false",
		       s.count, s.last, s.min, s.max, s.sum, s.sum_count, s.violations, s.timeouts,
		       s.overruns, s.ignored, s.trace_count, s.trace_lost, s.irq_status);
		return LATCTL_OK;
	}
	printf("count %" PRIu32 "  min %" PRIu32 "  max %" PRIu32 "  last %" PRIu32 " cycles\n",
	       s.count, s.min, s.max, s.last);
	if (s.sum_count) {
		printf("mean  %" PRIu64 "/%" PRIu32 " cycles", s.sum, s.sum_count);
		if (c->clock_hz && !latmon_cycles_to_ns(s.sum / s.sum_count, c->clock_hz, &mean_ns))
			printf(" (about %" PRIu64 " ns)", mean_ns);
		printf("\n");
	}
	printf("violations %" PRIu32 "  timeouts %" PRIu32 "  overruns %" PRIu32
	       "  ignored %" PRIu32 "\n",
	       s.violations, s.timeouts, s.overruns, s.ignored);
	printf("trace %" PRIu32 " written, %" PRIu32 " lost; status:%s%s%s\n", s.trace_count,
	       s.trace_lost, (s.status & LATMON_REGISTERS__STATUS__BUSY_bm) ? " busy" : "",
	       (s.status & LATMON_REGISTERS__STATUS__ALARM_bm) ? " ALARM" : "",
	       (s.status & LATMON_REGISTERS__STATUS__SATURATED_bm) ? " saturated" : "");
	return LATCTL_OK;
}
