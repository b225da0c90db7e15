// SPDX-License-Identifier: GPL-2.0
/* Escaping for human output; see escape.h. */
#include "lib/escape.h"

/* Printable ASCII but the backslash: the bytes copied as they are. */
static int rp_byte_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/*
 * The length of the valid UTF-8 sequence at s (n bytes left), 0 if there
 * is none or it is a C1 control. The ranges of RFC 3629's table: no
 * overlong forms, no surrogates, nothing past U+10FFFF.
 */
static size_t rp_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;	/* of the second byte */
	size_t len, i;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	switch (s[0]) {
	case 0xc2:	/* U+0080-U+009F: the C1 controls */
	case 0xe0:	/* overlong */
		lo = 0xa0;
		break;
	case 0xf0:	/* overlong */
		lo = 0x90;
		break;
	case 0xed:
		hi = 0x9f;	/* U+D800-U+DFFF: surrogates */
		break;
	case 0xf4:
		hi = 0x8f;	/* past U+10FFFF */
		break;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* The letter after the backslash, for the bytes with a short escape. */
static const char rp_short_escape[256] = {
	['\\'] = '\\', ['\n'] = 'n', ['\t'] = 't', ['\r'] = 'r',
};

static char *rp_put_escaped_byte(char *p, unsigned char c)
{
	static const char hex[16] = "0123456789abcdef";

	*p++ = '\\';
	if (rp_short_escape[c]) {
		*p++ = rp_short_escape[c];
		return p;
	}
	*p++ = 'x';
	*p++ = hex[c >> 4];
	*p++ = hex[c & 15];
	return p;
}

char *rp_put_escaped_bytes(char *p, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	const unsigned char *end = u + n;
	size_t len;

	while (u < end) {
		if (rp_byte_plain(*u)) {
			*p++ = (char)*u++;
			continue;
		}
		len = rp_utf8_len(u, (size_t)(end - u));
		if (len) {
			p = rp_put(p, u, len);
			u += len;
		} else {
			p = rp_put_escaped_byte(p, *u++);
		}
	}
	return p;
}

char *rp_put_escaped_keep_bs(char *p, const char *s, size_t n)
{
	const char *bs;

	while (n) {
		bs = memchr(s, '\\', n);
		p = rp_put_escaped(p, s, bs ? (size_t)(bs - s) : n);
		if (!bs)
			break;
		*p++ = '\\';
		n -= (size_t)(bs - s) + 1;
		s = bs + 1;
	}
	return p;
}

const char *rp_escape_str(char *buf, size_t len, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	if (RP_ESCAPED_MAX(n) >= len)
		n = (len - 1) / 4;	/* whatever its bytes, it fits */
	*rp_put_escaped(buf, s, n) = '\0';
	return buf;
}
