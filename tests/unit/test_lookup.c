// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the value formats' tables (userctl/lib/lookup.c):
 * each table against a source it was not written from (glibc's errno
 * and signal names, the system's <netinet/tcp.h> and
 * <linux/capability.h> numbers), and how a recorded value prints: a
 * long's -2 and an int's unextended 0xfffffffe as -ENOENT, a number no
 * table names as a number.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/capability.h>
#include <netinet/tcp.h>

#include "rawprobe.h"
#include "lib/lookup.h"

static const char *fmt(unsigned int type, uint64_t v)
{
	static char buf[RP_LOOKUP_MAX];
	size_t n = rp_lookup_format(buf, type, v);

	assert_true(n < sizeof(buf));
	assert_int_equal(n, strlen(buf));
	return buf;
}

/* Every errno glibc names, named alike; the kernel's own past 511 */
static void test_errno_names(void **state)
{
	const char *mine, *libc;
	int e, named = 0;

	(void)state;
	for (e = 1; e < 512; e++) {
		mine = rp_lookup_errno((uint64_t)e);
		libc = strerrorname_np(e);
		/* EDEADLOCK, EWOULDBLOCK, ENOTSUP: libc's second names */
		if (libc && !mine)
			fail_msg("errno %d: libc says %s, the table nothing", e, libc);
		if (!libc && mine)
			fail_msg("errno %d: the table says %s, libc nothing", e, mine);
		if (mine) {
			assert_string_equal(mine, libc);
			named++;
		}
	}
	assert_true(named >= 130);
	assert_string_equal(rp_lookup_errno(512), "ERESTARTSYS");
	assert_string_equal(rp_lookup_errno(517), "EPROBE_DEFER");
	assert_string_equal(rp_lookup_errno(524), "ENOTSUPP");
	assert_null(rp_lookup_errno(520));
	assert_null(rp_lookup_errno(4095));
}

static void test_signal_names(void **state)
{
	char want[16];
	int s;

	(void)state;
	for (s = 1; s < 32; s++) {
		/* glibc's first name of 29 is POLL; kill -l and ps say IO */
		snprintf(want, sizeof(want), "SIG%s",
			 s == SIGIO ? "IO" : sigabbrev_np(s));
		assert_string_equal(rp_lookup_signal((uint64_t)s), want);
	}
	assert_null(rp_lookup_signal(0));
	assert_null(rp_lookup_signal(34));	/* real-time: a number */
	assert_string_equal(fmt(RAWPROBE_ARG_SIGNAL, 9), "SIGKILL");
	assert_string_equal(fmt(RAWPROBE_ARG_SIGNAL, 0), "0");
	assert_string_equal(fmt(RAWPROBE_ARG_SIGNAL, 40), "40");
}

static void test_cap_names(void **state)
{
	(void)state;
	assert_string_equal(rp_lookup_cap(CAP_CHOWN), "CAP_CHOWN");
	assert_string_equal(rp_lookup_cap(CAP_SYS_ADMIN), "CAP_SYS_ADMIN");
	assert_string_equal(rp_lookup_cap(CAP_NET_RAW), "CAP_NET_RAW");
	assert_string_equal(rp_lookup_cap(CAP_SETUID), "CAP_SETUID");
	assert_string_equal(rp_lookup_cap(CAP_LAST_CAP),
			    CAP_LAST_CAP == 40 ? "CAP_CHECKPOINT_RESTORE" :
			    rp_lookup_cap(CAP_LAST_CAP));
	assert_non_null(rp_lookup_cap(CAP_LAST_CAP));
	assert_null(rp_lookup_cap(CAP_LAST_CAP + 1));
	assert_string_equal(fmt(RAWPROBE_ARG_CAP, CAP_SYS_ADMIN), "CAP_SYS_ADMIN");
	assert_string_equal(fmt(RAWPROBE_ARG_CAP, 99), "99");
	/* an int's register: the low half only */
	assert_string_equal(fmt(RAWPROBE_ARG_CAP, 0xdead000000000015ull),
			    "CAP_SYS_ADMIN");
}

static void test_tcpstate_names(void **state)
{
	(void)state;
	assert_string_equal(rp_lookup_tcpstate(TCP_ESTABLISHED), "ESTABLISHED");
	assert_string_equal(rp_lookup_tcpstate(TCP_SYN_SENT), "SYN_SENT");
	assert_string_equal(rp_lookup_tcpstate(TCP_TIME_WAIT), "TIME_WAIT");
	assert_string_equal(rp_lookup_tcpstate(TCP_CLOSE), "CLOSE");
	assert_string_equal(rp_lookup_tcpstate(TCP_LISTEN), "LISTEN");
	assert_string_equal(rp_lookup_tcpstate(TCP_CLOSING), "CLOSING");
	assert_null(rp_lookup_tcpstate(0));
	assert_string_equal(fmt(RAWPROBE_ARG_TCPSTATE, 7), "CLOSE");
	assert_string_equal(fmt(RAWPROBE_ARG_TCPSTATE, 0), "0");
}

/* A long's -2, an int's -2 unextended: -ENOENT; counts stay numbers */
static void test_errno_format(void **state)
{
	(void)state;
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, (uint64_t)-2), "-ENOENT");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, 0xfffffffeull), "-ENOENT");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, (uint64_t)-512),
			    "-ERESTARTSYS");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, 0), "0");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, 2), "2");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, (uint64_t)-520), "-520");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, (uint64_t)-4096), "-4096");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, (uint64_t)INT64_MIN),
			    "-9223372036854775808");
	assert_string_equal(fmt(RAWPROBE_ARG_ERRNO, UINT64_MAX), "-EPERM");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_errno_names),
		cmocka_unit_test(test_signal_names),
		cmocka_unit_test(test_cap_names),
		cmocka_unit_test(test_tcpstate_names),
		cmocka_unit_test(test_errno_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
