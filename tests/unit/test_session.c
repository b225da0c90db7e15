// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the session client's parts that need no module
 * (userctl/lib/ring_nl.c): session names and references as the command
 * line gives them, what a request carries for each (nothing for the
 * default session, so that an older module still answers), a session's
 * attributes as the kernel answers them (a module with sessions, one
 * without, a name longer than the ABI's or not terminated), the labels
 * probe list shows (a kernel name escaped), and the command line's
 * checks of --ring-records and --ring-mode.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "test_filter.h"

#include "lib/cli.h"
#include "lib/ring_nl.h"

/* ------------------------------------------------------------------ */
/* Names and references                                                */

static void test_name_check(void **state)
{
	static const char *const good[] = {
		"flight", "a", "x.y-z_1", "0abc", "12a", "Default", "records2",
		"a123456789012345678901234567890",	/* 31 */
	};
	static const char *const bad[] = {
		"", "123", "0", "default", "records", "mode", "clock", "help",
		"-x", ".x", "a b", "a/b", "a\n", "caf\xc3\xa9", "a\x1b[2J",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_int_equal(rp_session_name_check(good[i]), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(rp_session_name_check(bad[i]), -EINVAL);
	assert_int_equal(rp_session_name_check(
		"01234567890123456789012345678901"), -ENAMETOOLONG);	/* 32 */
	assert_int_equal(rp_ring_new_name("ring create", "flight"), RP_EXIT_OK);
	assert_int_equal(rp_ring_new_name("ring create", "default"),
			 RP_EXIT_USAGE);
	assert_int_equal(rp_ring_new_name("ring create", "7"), RP_EXIT_USAGE);
}

static void test_ref_parse(void **state)
{
	struct rp_session_ref r;

	(void)state;
	memset(&r, 0xff, sizeof(r));
	assert_int_equal(rp_session_ref_parse("default", &r), 0);
	assert_int_equal(r.id, 0);
	assert_string_equal(r.name, "");

	assert_int_equal(rp_session_ref_parse("0", &r), 0);
	assert_int_equal(r.id, 0);
	assert_int_equal(rp_session_ref_parse("7", &r), 0);
	assert_int_equal(r.id, 7);
	assert_string_equal(r.name, "");
	assert_int_equal(rp_session_ref_parse("4294967295", &r), 0);
	assert_int_equal(r.id, UINT32_MAX);
	/* ids are decimal, without leading zeros, within u32 */
	assert_int_equal(rp_session_ref_parse("4294967296", &r), -ERANGE);
	assert_int_equal(rp_session_ref_parse("007", &r), -ERANGE);

	assert_int_equal(rp_session_ref_parse("flight", &r), 0);
	assert_int_equal(r.id, 0);
	assert_string_equal(r.name, "flight");
	/* hex is a name, not an id */
	assert_int_equal(rp_session_ref_parse("0x10", &r), 0);
	assert_string_equal(r.name, "0x10");

	assert_int_equal(rp_session_ref_parse("", &r), -EINVAL);
	assert_int_equal(rp_session_ref_parse("a b", &r), -EINVAL);
	assert_int_equal(rp_session_ref_parse(
		"01234567890123456789012345678901x", &r), -ENAMETOOLONG);

	assert_int_equal(rp_ring_name_opt("--ring", "flight", &r), RP_EXIT_OK);
	assert_int_equal(rp_ring_name_opt("--ring", "a/b", &r), RP_EXIT_USAGE);
	assert_int_equal(rp_ring_name_opt("--ring", "99999999999", &r),
			 RP_EXIT_USAGE);
}

/* ------------------------------------------------------------------ */
/* Attributes, both ways                                               */

/* The attributes of msg, parsed as the family's */
static void parse_msg(struct nl_msg *msg, struct nlattr **tb)
{
	struct nlmsghdr *h = nlmsg_hdr(msg);

	assert_int_equal(nla_parse(tb, RAWPROBE_A_MAX, nlmsg_attrdata(h, 0),
				   nlmsg_attrlen(h, 0), NULL), 0);
}

static int count_attrs(struct nlattr **tb)
{
	int i, n = 0;

	for (i = 0; i <= RAWPROBE_A_MAX; i++)
		n += tb[i] != NULL;
	return n;
}

static void test_ref_put(void **state)
{
	struct nlattr *tb[RAWPROBE_A_MAX + 1];
	struct rp_session_ref r = { 0 };
	struct nl_msg *msg;

	(void)state;
	/* the default: nothing, as a module before sessions wants */
	msg = nlmsg_alloc();
	assert_non_null(msg);
	assert_int_equal(rp_session_ref_put(msg, &r), 0);
	parse_msg(msg, tb);
	assert_int_equal(count_attrs(tb), 0);
	nlmsg_free(msg);

	r.id = 42;
	msg = nlmsg_alloc();
	assert_int_equal(rp_session_ref_put(msg, &r), 0);
	parse_msg(msg, tb);
	assert_int_equal(count_attrs(tb), 1);
	assert_non_null(tb[RAWPROBE_A_SESSION]);
	assert_int_equal(nla_len(tb[RAWPROBE_A_SESSION]), 4);
	assert_int_equal(nla_get_u32(tb[RAWPROBE_A_SESSION]), 42);
	nlmsg_free(msg);

	/* a name wins over an id: one attribute, NUL-terminated */
	snprintf(r.name, sizeof(r.name), "flight");
	msg = nlmsg_alloc();
	assert_int_equal(rp_session_ref_put(msg, &r), 0);
	parse_msg(msg, tb);
	assert_int_equal(count_attrs(tb), 1);
	assert_non_null(tb[RAWPROBE_A_SESSION_NAME]);
	assert_int_equal(nla_len(tb[RAWPROBE_A_SESSION_NAME]), 7);
	assert_string_equal(nla_data(tb[RAWPROBE_A_SESSION_NAME]), "flight");
	nlmsg_free(msg);
}

/* An answer as RING_GET's: the geometry, and the session's if with */
static struct nl_msg *answer(bool with_session, const void *name,
			     int name_len)
{
	struct nl_msg *msg = nlmsg_alloc();

	assert_non_null(msg);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_NR_RINGS, 4), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, 1024), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_RING_MODE,
				     RAWPROBE_RING_OVERWRITE), 0);
	assert_int_equal(nla_put_u64(msg, RAWPROBE_A_RING_BYTES, 1048576), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_RING_CLOCK,
				     RAWPROBE_CLOCK_TSC), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_TSC_KHZ, 2400000), 0);
	if (!with_session)
		return msg;
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_SESSION, 9), 0);
	if (name)
		assert_int_equal(nla_put(msg, RAWPROBE_A_SESSION_NAME,
					 name_len, name), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_SESSION_UID, 1000), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_NR_PROBES, 3), 0);
	assert_int_equal(nla_put_u64(msg, RAWPROBE_A_SESSION_LOST, 77), 0);
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_SESSION_READERS, 1), 0);
	return msg;
}

static void test_parse(void **state)
{
	struct nlattr *tb[RAWPROBE_A_MAX + 1];
	struct rp_session s;
	struct nl_msg *msg;
	char longname[40];

	(void)state;
	/* a module with sessions */
	msg = answer(true, "flight", 7);
	parse_msg(msg, tb);
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(rp_session_parse(tb, &s), 0);
	assert_int_equal(s.id, 9);
	assert_string_equal(s.name, "flight");
	assert_int_equal(s.nr_rings, 4);
	assert_int_equal(s.records, 1024);
	assert_int_equal(s.mode, RAWPROBE_RING_OVERWRITE);
	assert_int_equal(s.bytes, 1048576);
	assert_int_equal(s.clock, RAWPROBE_CLOCK_TSC);
	assert_int_equal(s.tsc_khz, 2400000);
	assert_true(s.has_owner);
	assert_int_equal(s.uid, 1000);
	assert_int_equal(s.nr_probes, 3);
	assert_int_equal(s.lost, 77);
	assert_int_equal(s.readers, 1);
	nlmsg_free(msg);

	/* an unnamed one */
	msg = answer(true, NULL, 0);
	parse_msg(msg, tb);
	assert_int_equal(rp_session_parse(tb, &s), 0);
	assert_int_equal(s.id, 9);
	assert_string_equal(s.name, "");
	nlmsg_free(msg);

	/* a module before sessions: the default's geometry, nothing else */
	msg = answer(false, NULL, 0);
	parse_msg(msg, tb);
	memset(&s, 0xff, sizeof(s));
	assert_int_equal(rp_session_parse(tb, &s), 0);
	assert_int_equal(s.id, 0);
	assert_string_equal(s.name, "");
	assert_false(s.has_owner);
	assert_int_equal(s.nr_probes, 0);
	assert_int_equal(s.lost, 0);
	nlmsg_free(msg);

	/* a name past the ABI's length, not terminated: cut, terminated */
	memset(longname, 'n', sizeof(longname));
	msg = answer(true, longname, sizeof(longname));
	parse_msg(msg, tb);
	assert_int_equal(rp_session_parse(tb, &s), 0);
	assert_int_equal(strlen(s.name), RAWPROBE_SESSION_NAME_LEN - 1);
	nlmsg_free(msg);

	/* no geometry: not an answer of the ring commands */
	msg = nlmsg_alloc();
	assert_int_equal(nla_put_u32(msg, RAWPROBE_A_SESSION, 1), 0);
	parse_msg(msg, tb);
	assert_int_equal(rp_session_parse(tb, &s), -EBADMSG);
	nlmsg_free(msg);
}

/* ------------------------------------------------------------------ */
/* Labels                                                              */

static void test_labels(void **state)
{
	struct rp_session v[3] = {
		{ .id = 0 },
		{ .id = 5, .name = "flight" },
		{ .id = 6, .name = "ev\x1b[2Jl" },	/* a name made with YNL */
	};
	struct rp_sessions ss = { .v = v, .n = 3 };
	char buf[RP_SESSION_LABEL_MAX];

	(void)state;
	assert_string_equal(rp_session_label(0, NULL, buf, sizeof(buf)),
			    "default");
	assert_string_equal(rp_session_label(0, "", buf, sizeof(buf)),
			    "default");
	assert_string_equal(rp_session_label(12, NULL, buf, sizeof(buf)), "12");
	assert_string_equal(rp_session_label(5, "flight", buf, sizeof(buf)),
			    "flight");

	assert_ptr_equal(rp_sessions_find(&ss, 5), &v[1]);
	assert_null(rp_sessions_find(&ss, 7));
	assert_null(rp_sessions_find(NULL, 5));
	assert_string_equal(rp_sessions_label(&ss, 5, buf, sizeof(buf)),
			    "flight");
	assert_string_equal(rp_sessions_label(&ss, 6, buf, sizeof(buf)),
			    "ev\\x1b[2Jl");
	assert_string_equal(rp_sessions_label(&ss, 7, buf, sizeof(buf)), "7");
	assert_string_equal(rp_sessions_label(NULL, 0, buf, sizeof(buf)),
			    "default");

	/* the longest name, all escaped, fits */
	memset(v[2].name, 0x1b, sizeof(v[2].name) - 1);
	v[2].name[sizeof(v[2].name) - 1] = '\0';
	rp_sessions_label(&ss, 6, buf, sizeof(buf));
	assert_int_equal(strlen(buf), 4 * (RAWPROBE_SESSION_NAME_LEN - 1));
}

/* ------------------------------------------------------------------ */
/* --ring-records, --ring-mode                                         */

static void test_opts(void **state)
{
	uint32_t records = 1;
	int mode = -1;

	(void)state;
	assert_int_equal(rp_ring_records_opt("--ring-records", "0", &records),
			 RP_EXIT_OK);
	assert_int_equal(records, 0);
	assert_int_equal(rp_ring_records_opt("--ring-records", "64", &records),
			 RP_EXIT_OK);
	assert_int_equal(records, 64);
	assert_int_equal(rp_ring_records_opt("--ring-records", "0x400",
					     &records), RP_EXIT_OK);
	assert_int_equal(records, 1024);
	assert_int_equal(rp_ring_records_opt("--ring-records", "1048576",
					     &records), RP_EXIT_OK);
	records = 5;
	assert_int_equal(rp_ring_records_opt("--ring-records", "100",
					     &records), RP_EXIT_USAGE);
	assert_int_equal(rp_ring_records_opt("--ring-records", "32",
					     &records), RP_EXIT_USAGE);
	assert_int_equal(rp_ring_records_opt("--ring-records", "2097152",
					     &records), RP_EXIT_USAGE);
	assert_int_equal(rp_ring_records_opt("--ring-records", "-64",
					     &records), RP_EXIT_USAGE);
	assert_int_equal(rp_ring_records_opt("--ring-records", "many",
					     &records), RP_EXIT_USAGE);
	assert_int_equal(records, 5);	/* left alone when refused */

	assert_int_equal(rp_ring_mode_opt("--ring-mode", "overwrite", &mode),
			 RP_EXIT_OK);
	assert_int_equal(mode, RAWPROBE_RING_OVERWRITE);
	assert_int_equal(rp_ring_mode_opt("--ring-mode", "discard", &mode),
			 RP_EXIT_OK);
	assert_int_equal(mode, RAWPROBE_RING_DISCARD);
	assert_int_equal(rp_ring_mode_opt("--ring-mode", "fast", &mode),
			 RP_EXIT_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_check),
		cmocka_unit_test(test_ref_parse),
		cmocka_unit_test(test_ref_put),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_opts),
	};

	rp_test_filter();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
