/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The escaping of human output as escape.h describes it, byte by byte:
 * the slow oracle that test_escape.c and test_format.c hold
 * userctl/lib/escape.c's fast one to.
 */
#ifndef RP_TEST_REF_ESCAPE_H
#define RP_TEST_REF_ESCAPE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * The length of the UTF-8 sequence at s that escaping keeps, 0 if none:
 * decoded to its code point, which must be a scalar value (no surrogate,
 * at most U+10FFFF) in its shortest form and not a C1 control.
 */
static size_t ref_utf8_len(const unsigned char *s, size_t n)
{
	static const uint32_t shortest[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t len, i;
	uint32_t cp;

	if ((s[0] & 0xe0) == 0xc0)
		len = 2;
	else if ((s[0] & 0xf0) == 0xe0)
		len = 3;
	else if ((s[0] & 0xf8) == 0xf0)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	cp = s[0] & (0x7f >> len);
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < shortest[len] || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp <= 0x9f)
		return 0;
	return len;
}

/* Escaping, byte by byte, as escape.h describes it. */
static void ref_escape(FILE *out, const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strnlen(s, max), i = 0, len;

	while (i < n) {
		if (u[i] >= 0x20 && u[i] < 0x7f && u[i] != '\\') {
			fputc(u[i++], out);
			continue;
		}
		len = ref_utf8_len(u + i, n - i);
		if (len) {
			fwrite(u + i, 1, len, out);
			i += len;
			continue;
		}
		switch (u[i]) {
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default: fprintf(out, "\\x%02x", u[i]);
		}
		i++;
	}
}

#endif
