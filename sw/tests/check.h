/*
 * The checks of the C unit tests: CHECK(cond) reports a failed condition with its file and line
 * and counts it; check_report() prints the verdict and gives main()'s exit status.
 * Each test program includes this once (the failure count is per program).
 */
#ifndef LATMON_TEST_CHECK_H
#define LATMON_TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                              \
		}                                                                                \
	} while (0)

/** Print the verdict of test program @p name; @return 0 if every check passed, else 1. */
static inline int check_report(const char *name)
{
	if (failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, failures);
		return 1;
	}
	printf("%s: all checks passed\n", name);
	return 0;
}

#endif /* LATMON_TEST_CHECK_H */
