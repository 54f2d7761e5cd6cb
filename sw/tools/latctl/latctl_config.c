/* latctl config: write the configuration. */
#define _GNU_SOURCE
#include <getopt.h>
#include <string.h>

#include "latctl.h"
#include "latmon_parse.h"

static int edge(const char *text, enum latmon_edge *out)
{
	static const char *const names[] = { "rising", "falling", "high", "low" };
	unsigned i;

	for (i = 0; i < 4; i++) {
		if (strcmp(text, names[i]) == 0) {
			*out = (enum latmon_edge)i;
			return 0;
		}
	}
	return 1;
}

int latctl_cmd_config(struct latctl *c, int argc, char **argv)
{
	static const struct option options[] = {
		{ "irq-mode", required_argument, 0, 'i' },
		{ "ack-mode", required_argument, 0, 'a' },
		{ "timeout", required_argument, 0, 't' },
		{ "threshold", required_argument, 0, 'T' },
		{ "ring", no_argument, 0, 'r' },
		{ "irq-enable", required_argument, 0, 'e' },
		{ "hist-start", required_argument, 0, 's' },
		{ "hist-shift", required_argument, 0, 'S' },
		{ "stamp", no_argument, 0, 'p' },
		{ "stamp-timeout", required_argument, 0, 'P' },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct latmon_config cfg;
	uint64_t v;
	int opt, rc, err;

	memset(&cfg, 0, sizeof cfg);
	optind = 0;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'i':
		case 'a':
			if (edge(optarg, opt == 'i' ? &cfg.irq_mode : &cfg.ack_mode))
				return latctl_usage_error(
				    c, "--%s-mode %s: give rising, falling, high or low",
				    opt == 'i' ? "irq" : "ack", optarg);
			break;
		case 't':
		case 'T':
		case 'e':
		case 's':
		case 'P':
			if (latmon_parse_u64(optarg, 0, 0, UINT32_MAX, &v))
				return latctl_usage_error(
				    c, "%s: '%s' is not a number of 0 .. 4294967295",
				    argv[optind - 1], optarg);
			if (opt == 't')
				cfg.timeout = (uint32_t)v;
			else if (opt == 'T')
				cfg.threshold = (uint32_t)v;
			else if (opt == 'e')
				cfg.irq_enable = (uint32_t)v;
			else if (opt == 's')
				cfg.hist_start = (uint32_t)v;
			else
				cfg.stamp_timeout = (uint32_t)v;
			break;
		case 'S':
			if (latmon_parse_u64(optarg, 0, 0, 31, &v))
				return latctl_usage_error(c, "--hist-shift %s: give 0 .. 31",
							  optarg);
			cfg.hist_shift = (unsigned)v;
			break;
		case 'r':
			cfg.trace_ring = 1;
			break;
		case 'p':
			cfg.stamp_enable = 1;
			break;
		case 'h':
			printf(
			    "usage: latctl config [--irq-mode M] [--ack-mode M] [--timeout CYCLES] "
			    "[--threshold CYCLES] [--ring] [--irq-enable MASK] [--hist-start "
			    "CYCLES] "
			    "[--hist-shift N] [--stamp] [--stamp-timeout CYCLES]\n"
			    "M: rising (default), falling, high, low. Options not given are "
			    "0/off.\n");
			return LATCTL_OK;
		default:
			return LATCTL_EUSAGE;
		}
	}
	if (optind < argc)
		return latctl_usage_error(c, "config: unexpected '%s'", argv[optind]);
	if ((rc = latctl_open(c)))
		return rc;
	if ((err = latmon_configure(&c->dev, &cfg)))
		return latctl_fail(c, "config", err);
	return LATCTL_OK;
}
