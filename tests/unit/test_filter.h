/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One test by name: RP_TEST=NAME (a glob, cmocka's filter) runs only the
 * tests it matches, as bpftrace's runtime tests run by name:
 *   RP_TEST='test_last_*' make -C tests/unit check-plain
 * cmocka 1.1 has the filter but reads no variable for it.
 */
#ifndef RP_TEST_FILTER_H
#define RP_TEST_FILTER_H

#include <stdlib.h>

static inline void rp_test_filter(void)
{
	const char *f = getenv("RP_TEST");

	if (f && *f)
		cmocka_set_test_filter(f);
}

#endif
