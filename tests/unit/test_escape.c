// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the escaping of human output (userctl/lib/escape.c):
 * control bytes, terminal sequences, C1 controls and invalid UTF-8
 * escaped, valid UTF-8 kept, the word-at-a-time fast path equal to the
 * byte-by-byte oracle (ref_escape.h) at every position, and the worst
 * case within RP_ESCAPED_MAX().
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

#include "lib/escape.h"
#include "ref_escape.h"
#include "rawprobe.h"

/* rp_put_escaped() of s[0..n) writes want, and no more than it may. */
static void check_escape(const char *s, size_t n, const char *want)
{
	char got[RP_ESCAPED_MAX(64) + 1];
	char *end;

	assert_true(n <= 64);
	end = rp_put_escaped(got, s, n);
	assert_true(end - got <= RP_ESCAPED_MAX((ptrdiff_t)n));
	*end = '\0';
	assert_string_equal(got, want);
}

/* A string literal, which may hold NULs, by its size. */
#define CHECK_ESCAPE(s, want) check_escape(s, sizeof(s) - 1, want)

static void test_escape_controls(void **state)
{
	char s[2] = "", want[8];
	unsigned int c;

	(void)state;
	for (c = 0; c < 0x20; c++) {
		s[0] = (char)c;
		if (c == '\n' || c == '\t' || c == '\r')
			snprintf(want, sizeof(want), "\\%c",
				 c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			snprintf(want, sizeof(want), "\\x%02x", c);
		check_escape(s, 1, want);
	}
	CHECK_ESCAPE("\x7f", "\\x7f");				/* DEL */
	CHECK_ESCAPE("\\", "\\\\");				/* backslash */
	CHECK_ESCAPE("a\\x1b", "a\\\\x1b");	/* not to be taken for an ESC */
	CHECK_ESCAPE("tab\there\r\n", "tab\\there\\r\\n");
	CHECK_ESCAPE("nul\0in", "nul\\x00in");
	/* every printable byte but the backslash stays */
	for (c = 0x20; c < 0x7f; c++) {
		s[0] = (char)c;
		if (c != '\\')
			check_escape(s, 1, s);
	}
}

static void test_escape_sequences(void **state)
{
	(void)state;
	CHECK_ESCAPE("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07");	/* title */
	CHECK_ESCAPE("\x1b[2J", "\\x1b[2J");			/* clear */
	CHECK_ESCAPE("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m");
	CHECK_ESCAPE("\x1b]52;c;aGk=\x1b\\", "\\x1b]52;c;aGk=\\x1b\\\\");
	CHECK_ESCAPE("bell\a\b\x0b\x0c", "bell\\x07\\x08\\x0b\\x0c");
}

/* C1 controls: as UTF-8 (U+0080-U+009F) and as bare bytes. */
static void test_escape_c1(void **state)
{
	(void)state;
	CHECK_ESCAPE("\xc2\x80", "\\xc2\\x80");
	CHECK_ESCAPE("\xc2\x9b" "2J", "\\xc2\\x9b2J");	/* CSI */
	CHECK_ESCAPE("\xc2\x9d" "0;t\xc2\x9c", "\\xc2\\x9d0;t\\xc2\\x9c");
	CHECK_ESCAPE("\xc2\x9f", "\\xc2\\x9f");
	CHECK_ESCAPE("\x9b" "2J", "\\x9b2J");
	CHECK_ESCAPE("\x80\x9f", "\\x80\\x9f");
	CHECK_ESCAPE("\xc2\xa0", "\xc2\xa0");	/* U+00A0, past C1: kept */
}

static void test_escape_invalid_utf8(void **state)
{
	(void)state;
	CHECK_ESCAPE("\xc0\xaf", "\\xc0\\xaf");			/* overlong */
	CHECK_ESCAPE("\xc1\xbf", "\\xc1\\xbf");
	CHECK_ESCAPE("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	CHECK_ESCAPE("\xe0\x9f\xbf", "\\xe0\\x9f\\xbf");
	CHECK_ESCAPE("\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf");
	CHECK_ESCAPE("\xf0\x8f\xbf\xbf", "\\xf0\\x8f\\xbf\\xbf");
	CHECK_ESCAPE("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogates */
	CHECK_ESCAPE("\xed\xbf\xbf", "\\xed\\xbf\\xbf");
	CHECK_ESCAPE("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* > U+10FFFF */
	CHECK_ESCAPE("\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80");
	CHECK_ESCAPE("\xfe\xff", "\\xfe\\xff");
	CHECK_ESCAPE("\x80", "\\x80");				/* stray */
	CHECK_ESCAPE("x\xe2\x82", "x\\xe2\\x82");		/* cut short */
	CHECK_ESCAPE("\xe2\x82x", "\\xe2\\x82x");
	CHECK_ESCAPE("\xf0\x9f\x98", "\\xf0\\x9f\\x98");
	CHECK_ESCAPE("\xc3\xc3\xa9", "\\xc3\xc3\xa9");	/* then a valid one */
}

static void test_escape_utf8_kept(void **state)
{
	static const char *const kept[] = {
		"caf\xc3\xa9", "\xe2\x82\xac 5", "\xf0\x9d\x84\x9e",
		"\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf", "\xee\x80\x80",
		"\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf4\x8f\xbf\xbf",
		"\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e/\xd0\xbf\xd1\x83\xd1\x82\xd1\x8c",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++)
		check_escape(kept[i], strlen(kept[i]), kept[i]);
	CHECK_ESCAPE("\xc3\xa9\x1b\xc3\xa9", "\xc3\xa9\\x1b\xc3\xa9");
}

/*
 * rp_put_escaped() of s[0..n) (no NUL) writes what the slow reference
 * does, and nothing past it.
 */
static void check_escape_as_ref(const char *s, size_t n)
{
	char got[RP_ESCAPED_MAX(64) + 1], *want = NULL, *end;
	size_t len = 0;
	FILE *f = open_memstream(&want, &len);

	assert_true(n <= 64 && f);
	ref_escape(f, s, n);
	fclose(f);
	memset(got, '#', sizeof(got));
	end = rp_put_escaped(got, s, n);
	assert_int_equal(end - got, len);
	assert_memory_equal(got, want, len);
	if (len < sizeof(got))
		assert_int_equal(got[len], '#');
	free(want);
}

/*
 * The fast path checks and copies eight bytes a step, the tail as an
 * overlapping word: every special byte at every position of words and
 * tails, among plain bytes next to the special ones (space, '~', '[',
 * ']'), and plain strings of every length.
 */
static void test_escape_words(void **state)
{
	static const unsigned char special[] = {
		0x01, 0x1b, 0x1f, 0x7f, '\\', 0x80, 0x9b, 0xc2, 0xff,
	};
	static const char plain[] = " ~[]";
	char s[40];
	size_t n, k, i;
	unsigned int c;

	(void)state;
	for (n = 1; n <= sizeof(s); n++) {
		for (i = 0; i < n; i++)
			s[i] = plain[i % 4];
		check_escape_as_ref(s, n);
		for (k = 0; k < n; k++) {
			for (i = 0; i < sizeof(special); i++) {
				s[k] = (char)special[i];
				check_escape_as_ref(s, n);
			}
			s[k] = plain[k % 4];
		}
	}
	for (c = 0x20; c < 0x7f; c++) {
		memset(s, (int)c, sizeof(s));
		check_escape_as_ref(s, sizeof(s));
	}
}

/*
 * The longest string a record holds, every byte escaped, fills exactly
 * RP_ESCAPED_MAX() (ASan sees a byte more); a smaller buffer gets less.
 */
static void test_escape_worst_case(void **state)
{
	const size_t n = RAWPROBE_STR_LEN - 1;
	char s[RAWPROBE_STR_LEN], *buf = malloc(RP_ESCAPED_MAX(n) + 1);
	unsigned int c;
	size_t i;

	(void)state;
	assert_non_null(buf);
	memset(s, 0xff, n);
	s[n] = '\0';
	assert_ptr_equal(rp_escape_str(buf, RP_ESCAPED_MAX(n) + 1, s, sizeof(s)),
			 buf);
	assert_int_equal(strlen(buf), RP_ESCAPED_MAX(n));
	for (i = 0; i < n; i++)
		assert_memory_equal(buf + 4 * i, "\\xff", 4);
	rp_escape_str(buf, 10, s, sizeof(s));
	assert_string_equal(buf, "\\xff\\xff");
	/* no byte, repeated, takes more than four */
	for (c = 1; c < 256; c++) {
		memset(s, (int)c, n);
		assert_true(strlen(rp_escape_str(buf, RP_ESCAPED_MAX(n) + 1, s,
						 sizeof(s))) <= RP_ESCAPED_MAX(n));
	}
	free(buf);
}


/*
 * Text escaped already (folded stacks): a backslash stays one, the rest
 * is escaped as ever, across the pieces between backslashes too.
 */
static void test_escape_keep_backslash(void **state)
{
	static const char s[] = "\\a\\x3bb\x1b\xc3\xa9\xff\\";
	char got[RP_ESCAPED_MAX(sizeof(s)) + 1], *end;

	(void)state;
	end = rp_put_escaped_keep_bs(got, s, sizeof(s) - 1);
	assert_true(end - got <= RP_ESCAPED_MAX((ptrdiff_t)sizeof(s) - 1));
	*end = '\0';
	assert_string_equal(got, "\\a\\x3bb\\x1b\xc3\xa9\\xff\\");
	assert_ptr_equal(rp_put_escaped_keep_bs(got, s, 0), got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_controls),
		cmocka_unit_test(test_escape_sequences),
		cmocka_unit_test(test_escape_c1),
		cmocka_unit_test(test_escape_invalid_utf8),
		cmocka_unit_test(test_escape_utf8_kept),
		cmocka_unit_test(test_escape_words),
		cmocka_unit_test(test_escape_worst_case),
		cmocka_unit_test(test_escape_keep_backslash),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
