/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test tools print: "ok - AREA: NAME" or "not ok - AREA: NAME
 * (DETAIL)" per check, then the line "N passed, N failed" the harness
 * reads.
 */
#ifndef RAWPROBE_TESTS_TAP_H
#define RAWPROBE_TESTS_TAP_H

#include <stdbool.h>
#include <stdio.h>

static int tap_passed, tap_failed;

static inline void tap_verdict(const char *area, const char *name, bool ok,
			       const char *detail)
{
	if (ok) {
		tap_passed++;
		printf("ok - %s: %s\n", area, name);
	} else {
		tap_failed++;
		printf("not ok - %s: %s (%s)\n", area, name, detail);
	}
}

/* The totals line; the tool's exit status. */
static inline int tap_summary(void)
{
	printf("%d passed, %d failed\n", tap_passed, tap_failed);
	return tap_failed ? 1 : 0;
}

#endif
