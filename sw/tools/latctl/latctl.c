/*
 * latctl: configure, arm and read a latmon core on Linux through UIO (docs/latctl.md).
 * A thin dispatcher: global options here, one file per subcommand.
 */
#define _GNU_SOURCE
#include "latctl.h"
#include "latmon_parse.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct command {
	const char *name;
	int (*run)(struct latctl *c, int argc, char **argv);
	const char *help;
};

static const struct command commands[] = {
	{ "info", latctl_cmd_info, "what the core was built with (ID, version, parts, sizes)" },
	{ "config", latctl_cmd_config, "write the configuration (modes, timeout, threshold, ...)" },
	{ "arm", latctl_cmd_arm, "start measuring (--clear first clears everything)" },
	{ "disarm", latctl_cmd_disarm, "stop starting new measurements" },
	{ "status", latctl_cmd_status, "status, statistics and counters" },
	{ "read", latctl_cmd_read, "the trace samples, as latmon-log or --json" },
	{ "stream", latctl_cmd_stream, "keep reading samples until SIGINT/SIGTERM, as latmon-log" },
	{ "hist", latctl_cmd_hist, "take a histogram snapshot and print it" },
	{ "ring", latctl_cmd_ring,
	  "copy the latmon-log firmware on other cores writes into shared memory (AMP)" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: latctl [-d DEVICE | --device-file FILE --map-size BYTES] "
		   "[--clock-hz HZ] [--json] COMMAND [OPTIONS]\n\n"
		   "DEVICE: /dev/uioN, uioN, or the UIO name of the core (from the device tree).\n"
		   "--device-file maps a regular file in place of the device (tests, offline).\n\n"
		   "commands:\n");
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'latctl COMMAND --help' for a command's options. Exit status: 0 success, "
		   "1 device error, 2 usage error.\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "device", required_argument, 0, 'd' },
		{ "device-file", required_argument, 0, 'f' },
		{ "map-size", required_argument, 0, 'm' },
		{ "clock-hz", required_argument, 0, 'c' },
		{ "json", no_argument, 0, 'j' },
		{ "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	struct latctl c;
	uint64_t value;
	size_t i;
	int opt;

	memset(&c, 0, sizeof c);
	c.prog = "latctl";
	c.uio.fd = -1;
	/* "+": stop at the command, its options are its own */
	while ((opt = getopt_long(argc, argv, "+d:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'd':
			c.device = optarg;
			break;
		case 'f':
			c.device_file = optarg;
			break;
		case 'm':
			if (latmon_parse_u64(optarg, 0, 0, LATMON_UIO_MAX_MAP, &value) || value < 4)
				return latctl_usage_error(
				    &c,
				    "--map-size %s: give the bytes of the map "
				    "(4 .. %u, decimal or 0x hex)",
				    optarg, LATMON_UIO_MAX_MAP);
			c.map_size = (size_t)value;
			break;
		case 'c':
			if (latmon_parse_u64(optarg, 0, 0, UINT64_C(18000000000), &value) ||
			    value == 0)
				return latctl_usage_error(
				    &c,
				    "--clock-hz %s: give the core's clock in Hz "
				    "(1 .. 18e9)",
				    optarg);
			c.clock_hz = value;
			break;
		case 'j':
			c.json = 1;
			break;
		case 'h':
			usage(stdout);
			return LATCTL_OK;
		case 'V':
			printf("latctl %s\n", LATCTL_VERSION);
			return LATCTL_OK;
		default:
			usage(stderr);
			return LATCTL_EUSAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return LATCTL_EUSAGE;
	}
	for (i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(argv[optind], commands[i].name) == 0) {
			int rc;
			/* the command parses its own options from its name on */
			optind += 1;
			rc = commands[i].run(&c, argc - optind + 1, argv + optind - 1);
			latctl_close(&c);
			return rc;
		}
	}
	return latctl_usage_error(&c, "unknown command '%s'; 'latctl --help' lists them",
				  argv[optind]);
}
