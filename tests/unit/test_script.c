// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of rawprobectl's scripts (userctl/lib/script.c): words
 * split as a shell splits them, declarations, the user's options
 * expanded into the command (a value never splits into words), and
 * every malformed script refused with its line.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/script.h"

static const char KILLSNOOP[] =
	"#!/usr/bin/env -S rawprobectl run\n"
	"# killsnoop\n"
	"description \"Trace kill() signals\"  # what it is\n"
	"option -p PID \"--pid {PID}\" \"this process only\"\n"
	"option -x \"--filter 'retval < 0'\" \"failed ones only\"\n"
	"\n"
	"trace kretprobe:__x64_sys_kill --args pid,sig \\\n"
	"\t--template '{time:%H:%M:%S} {pid:-6} # not a comment'\n"
	"\t\"a \\\"b\\\" c\" d\\ e\n";

/* The words of v, joined by '|' */
static char *join(char **v, int n)
{
	static char buf[1024];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
					i ? "|" : "", v[i]);
	return buf;
}

static void test_script_words(void **state)
{
	struct rp_script s;
	char err[256];

	(void)state;
	assert_int_equal(rp_script_parse(KILLSNOOP, &s, err, sizeof(err)), 0);
	assert_string_equal(s.description, "Trace kill() signals");
	assert_int_equal(s.nopts, 2);
	assert_int_equal(s.opts[0].flag, 'p');
	assert_string_equal(s.opts[0].value, "PID");
	assert_null(s.opts[1].value);
	assert_string_equal(join(s.opts[1].expand, (int)s.opts[1].nexpand),
			    "--filter|retval < 0");
	assert_string_equal(join(s.words, (int)s.nwords),
			    "trace|kretprobe:__x64_sys_kill|--args|pid,sig|"
			    "--template|{time:%H:%M:%S} {pid:-6} # not a comment|"
			    "a \"b\" c|d e");
	rp_script_free(&s);
}

static void test_script_argv(void **state)
{
	char *user[] = { "-p", "42 43", "-x", "--", "-d", "5" };
	char *user2[] = { "-p7" };
	struct rp_script s;
	char err[256], **v;
	int n;

	(void)state;
	assert_int_equal(rp_script_parse(KILLSNOOP, &s, err, sizeof(err)), 0);
	assert_int_equal(rp_script_argv(&s, 6, user, &v, &n, err, sizeof(err)), 0);
	/* the value stays one word, even with a blank in it */
	assert_int_equal(n, 14);
	assert_string_equal(join(v + 8, n - 8),
			    "--pid|42 43|--filter|retval < 0|-d|5");
	assert_null(v[n]);
	rp_script_argv_free(v);
	assert_int_equal(rp_script_argv(&s, 1, user2, &v, &n, err, sizeof(err)), 0);
	assert_string_equal(join(v + 8, n - 8), "--pid|7");
	rp_script_argv_free(v);
	rp_script_free(&s);
}

static void check_argv_refused(char **user, int n, const char *want)
{
	struct rp_script s;
	char err[256], **v;
	int c;

	assert_int_equal(rp_script_parse(KILLSNOOP, &s, err, sizeof(err)), 0);
	assert_int_equal(rp_script_argv(&s, n, user, &v, &c, err, sizeof(err)),
			 -1);
	assert_null(v);
	assert_non_null(strstr(err, want));
	rp_script_free(&s);
}

static void test_script_argv_refused(void **state)
{
	char *unknown[] = { "-q" }, *missing[] = { "-p" }, *value[] = { "-xy" };
	char *help[] = { "-x", "--help" };
	struct rp_script s;
	char err[256], **v;
	int n;

	(void)state;
	check_argv_refused(unknown, 1, "unknown option '-q'");
	check_argv_refused(missing, 1, "-p wants its PID");
	check_argv_refused(value, 1, "-x takes no value");
	assert_int_equal(rp_script_parse(KILLSNOOP, &s, err, sizeof(err)), 0);
	assert_int_equal(rp_script_argv(&s, 2, help, &v, &n, err, sizeof(err)), 1);
	assert_null(v);
	rp_script_free(&s);
}

static void check_refused(const char *text, const char *want)
{
	struct rp_script s;
	char err[256] = "";

	assert_int_equal(rp_script_parse(text, &s, err, sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("'%s': got '%s', want '%s'", text, err, want);
	rp_script_free(&s);
}

static void test_script_refused(void **state)
{
	(void)state;
	check_refused("# nothing\n", "no command");
	check_refused("trace 'open\n", "line 1: ' not closed");
	check_refused("\n\ntrace \"x\n", "line 3: \" not closed");
	check_refused("option -p \"--pid\"\ntrace x\n", "line 1: option -X");
	check_refused("\noption -pp \"--pid\" \"a\"\ntrace x\n",
		      "line 2: option -X");
	check_refused("option -h \"-d 1\" \"help\"\ntrace x\n", "not -h");
	check_refused("option -p \"-d 1\" \"a\"\noption -p \"-d 2\" \"b\"\n"
		      "trace x\n", "line 2: -p twice");
	check_refused("option -p \"'open\" \"a\"\ntrace x\n", "not closed");
	check_refused("description a b\ntrace x\n", "line 1: description");
}

/* A declaration's words after the command's first are the command's */
static void test_script_decl_only_first(void **state)
{
	struct rp_script s;
	char err[256];

	(void)state;
	assert_int_equal(rp_script_parse("count kprobe:x\noption -p\n", &s, err,
					 sizeof(err)), 0);
	assert_string_equal(join(s.words, (int)s.nwords),
			    "count|kprobe:x|option|-p");
	rp_script_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_words),
		cmocka_unit_test(test_script_argv),
		cmocka_unit_test(test_script_argv_refused),
		cmocka_unit_test(test_script_refused),
		cmocka_unit_test(test_script_decl_only_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
