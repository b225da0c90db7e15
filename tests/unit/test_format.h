/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The format suite's shared helpers (test_format.c), which its parts
 * (test_format_*.c) use: one formatter's or sink's output for a record,
 * as a malloc'd string.
 */
#ifndef RP_TEST_FORMAT_H
#define RP_TEST_FORMAT_H

#include <stdint.h>
#include "lib/desc.h"

#define TEXT_BASE 0xffffffff81000000ull

/* Which formatter, into what. */
enum how {
	REF_TEXT, TEXT,			/* the oracle; rp_record_text() */
	REF_JSON,			/* the oracle, compact */
	JSON_BUF, JSON_FILE,		/* rp_record_json(), compact */
	PRETTY_BUF, PRETTY_FILE,	/* rp_record_json(), pretty */
};

/* What one formatter writes for r */
char *format_as(enum how how, const struct rawprobe_record *r,
		const struct rp_probe_desc *d);
/* What a sink of format fmt (RP_FMT_*) writes for r */
char *sink_of(int fmt, const struct rawprobe_record *r,
	      const struct rp_probe_desc *d);
/* CSV's row of r */
char *csv_of(const struct rawprobe_record *r, const struct rp_probe_desc *d);
/* What one formatter writes for r holds want. */
void assert_formats(enum how how, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d, const char *want);
/* A jprobe's record of cat's, its string area empty */
void base_record(struct rawprobe_record *r);
/* Text and compact JSON as the oracle (ref_format.h) has them */
void check_both(const struct rawprobe_record *r, const struct rp_probe_desc *d);

/* test_format_args.c: a record's arguments and string area */
void test_value_formats(void **state);
void test_fetch_faults(void **state);
void test_multi_strings(void **state);
void test_strv(void **state);
void test_ip6(void **state);
void test_multi_strings_garbage(void **state);

#endif
