/* latctl info: what the core was built with. */
#include "latctl.h"

int latctl_cmd_info(struct latctl *c, int argc, char **argv)
{
	const struct latmon_caps *k = &c->dev.caps;
	int rc;

	if (argc > 1)
		return latctl_usage_error(c, "info takes no options ('%s')", argv[1]);
	if ((rc = latctl_open(c)))
		return rc;
	if (c->json) {
		printf("{\"version\": \"%u.%u\", \"cnt_width\": %u, \"sync_stages\": %u, "
		       "\"trace_depth\": %u, \"trace_width\": %u, \"hist\": %s, \"hist_bins\": %u, "
		       "\"stamp\": %s, \"stamp_entries\": %u, \"stim\": %s, \"id_width\": %u, "
		       "\"minimal\": %s, \"map_size\": %zu}\n",
		       k->major, k->minor, k->cnt_width, k->sync_stages, k->trace_depth,
		       k->trace_width, k->has_hist ? "true" : "false", k->hist_bins,
		       k->has_stamp ? "true" : "false", k->stamp_entries,
		       k->has_stim ? "true" : "false", k->id_width, k->minimal ? "true" : "false",
		       c->uio.size);
		return LATCTL_OK;
	}
	printf("latmon core, register map %u.%u%s\n", k->major, k->minor,
	       k->minimal ? ", minimal configuration (ID, VERSION, CAPS, CTRL, STATUS, "
			    "TRACE_COUNT and the trace only)"
			  : "");
	printf("  counter      %u bits, %u synchronizer stages\n", k->cnt_width, k->sync_stages);
	printf("  trace        %u samples of %u bits\n", k->trace_depth, k->trace_width);
	printf("  histogram    %s", k->has_hist ? "yes" : "no");
	if (k->has_hist)
		printf(", %u bins per bank", k->hist_bins);
	printf("\n  timestamps   %s", k->has_stamp ? "yes" : "no");
	if (k->has_stamp)
		printf(", %u outstanding, %u-bit IDs", k->stamp_entries, k->id_width);
	printf("\n  stimulus     %s\n", k->has_stim ? "yes" : "no");
	printf("  map          %zu bytes\n", c->uio.size);
	return LATCTL_OK;
}
