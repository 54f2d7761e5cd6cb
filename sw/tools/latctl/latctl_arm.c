/* latctl arm / disarm. */
#include <string.h>

#include "latctl.h"

int latctl_cmd_arm(struct latctl *c, int argc, char **argv)
{
	int clear = 0, rc, err, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--clear") == 0)
			clear = 1;
		else
			return latctl_usage_error(c, "arm: unknown option '%s' (only --clear)",
						  argv[i]);
	}
	if ((rc = latctl_open(c)))
		return rc;
	if (clear && (err = latmon_clear(&c->dev)))
		return latctl_fail(c, "clear", err);
	if ((err = latmon_arm(&c->dev, 1)))
		return latctl_fail(c, "arm", err);
	return LATCTL_OK;
}

int latctl_cmd_disarm(struct latctl *c, int argc, char **argv)
{
	int rc, err;

	if (argc > 1)
		return latctl_usage_error(c, "disarm takes no options ('%s')", argv[1]);
	if ((rc = latctl_open(c)))
		return rc;
	if ((err = latmon_arm(&c->dev, 0)))
		return latctl_fail(c, "disarm", err);
	return LATCTL_OK;
}
