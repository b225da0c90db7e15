/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Escaping for human output. Task names and captured strings come from
 * traced, possibly unprivileged, processes: printed raw, they could send
 * terminal escapes (ESC ] 0 ; title BEL, ESC [ 2 J, C1 CSI) to the
 * terminal of whoever reads the trace.
 *
 * Printable ASCII and valid UTF-8 stay as they are; a backslash becomes
 * "\\", newline, tab and carriage return "\n", "\t", "\r", and every
 * other byte "\xHH": controls 0x00-0x1f, DEL, bytes that are not part of
 * valid UTF-8 (stray, overlong, surrogate, past U+10FFFF, cut short),
 * and both bytes of the C1 controls U+0080-U+009F. As a backslash is
 * always escaped, a "\x1b" in the output is an ESC, never those four
 * characters.
 */
#ifndef RAWPROBECTL_ESCAPE_H
#define RAWPROBECTL_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "lib/outbuf.h"

/* The most rp_put_escaped() writes for n bytes: each as "\xHH". */
#define RP_ESCAPED_MAX(n) (4 * (n))

#define RP_BYTES(c)	(0x0101010101010101ULL * (uint64_t)(c))
#define RP_HIGH_BITS	RP_BYTES(0x80)

/*
 * Does a byte of w need escaping? Eight bytes a step with no branch per
 * byte: the scan that finds most strings have nothing to escape. On the low seven bits x of each byte (no carry crosses into
 * the next byte), the high bit of x + 0x60 is set if x >= 0x20, of
 * x + 0x01 if x is 0x7f, of (x ^ '\\') + 0x7f unless x is a backslash;
 * the byte's own high bit says 0x80 and above.
 */
static inline int rp_word_needs_escape(uint64_t w)
{
	uint64_t x = w & ~RP_HIGH_BITS;

	return ((w | ~(x + RP_BYTES(0x60)) | (x + RP_BYTES(0x01)) |
		 ~((x ^ RP_BYTES('\\')) + RP_BYTES(0x7f))) & RP_HIGH_BITS) != 0;
}

/* Byte by byte: short strings, and the rest of one with a byte to escape. */
char *rp_put_escaped_bytes(char *p, const char *s, size_t n);

/*
 * s[0..n) escaped at the cursor p (room for RP_ESCAPED_MAX(n) bytes);
 * returns the cursor past it. The fast path, for strings with nothing to
 * escape: each word is checked and copied at once, the tail as the last
 * word (overlapping the one before), so no write goes past p + n.
 */
static inline char *rp_put_escaped(char *p, const char *s, size_t n)
{
	size_t i;
	uint64_t w;

	if (n < sizeof(w))
		return rp_put_escaped_bytes(p, s, n);
	for (i = 0; i + sizeof(w) <= n; i += sizeof(w)) {
		memcpy(&w, s + i, sizeof(w));
		if (rp_word_needs_escape(w))
			return rp_put_escaped_bytes(p + i, s + i, n - i);
		memcpy(p + i, &w, sizeof(w));
	}
	memcpy(&w, s + n - sizeof(w), sizeof(w));
	if (i < n && rp_word_needs_escape(w))
		return rp_put_escaped_bytes(p + i, s + i, n - i);
	memcpy(p + n - sizeof(w), &w, sizeof(w));
	return p + n;
}

/* At most max bytes of s (up to a NUL), escaped, padded to width. */
static inline char *rp_put_escaped_left(char *p, const char *s, size_t max,
					size_t width)
{
	return rp_put_pad(p, rp_put_escaped(p, s, strnlen(s, max)), width);
}

/*
 * s[0..n) escaped as rp_put_escaped() escapes it, but a backslash left
 * one: for text that comes escaped already (folded stacks' "\x3b" for a
 * ';'), shown as it is and made safe. Room for RP_ESCAPED_MAX(n) bytes.
 */
char *rp_put_escaped_keep_bs(char *p, const char *s, size_t n);

/*
 * At most max bytes of s (up to a NUL), escaped into buf as a C string
 * for printf's "%s"; returns buf. A buf of RP_ESCAPED_MAX(max) + 1 bytes
 * holds any s; a smaller one gets a shorter piece of s.
 */
const char *rp_escape_str(char *buf, size_t len, const char *s, size_t max);

#endif
