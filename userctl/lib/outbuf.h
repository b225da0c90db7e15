/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An output buffer for the record formatters: text is appended with
 * small inline functions (no printf) and written to the FILE in large
 * chunks, when the buffer fills and when the caller flushes it (the
 * stream does so after every drain of the rings).
 *
 * The number formats are those of printf's %llu, %lld and %llx, so the
 * bytes are the same as the formatters wrote with fprintf.
 */
#ifndef RAWPROBECTL_OUTBUF_H
#define RAWPROBECTL_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct rp_outbuf {
	char *buf;
	size_t len, cap;
	FILE *out;		/* where rp_outbuf_flush() writes */
};

/* Large enough that a drain of the rings is a handful of write(2)s. */
#define RP_OUTBUF_SIZE	(512 * 1024)

/* 0 or -ENOMEM. */
int rp_outbuf_init(struct rp_outbuf *ob, FILE *out, size_t cap);
void rp_outbuf_free(struct rp_outbuf *ob);
/* Hand everything to the FILE (fwrite; the caller fflushes it). */
void rp_outbuf_flush(struct rp_outbuf *ob);
/* Slow path of rp_ob_room(): flush, and grow if n exceeds the size. */
void rp_outbuf_make_room(struct rp_outbuf *ob, size_t n);

/* Room for n more bytes at ob->buf + ob->len. */
static inline void rp_ob_room(struct rp_outbuf *ob, size_t n)
{
	if (__builtin_expect(ob->cap - ob->len < n, 0))
		rp_outbuf_make_room(ob, n);
}

static inline void rp_ob_putc(struct rp_outbuf *ob, char c)
{
	rp_ob_room(ob, 1);
	ob->buf[ob->len++] = c;
}

static inline void rp_ob_put(struct rp_outbuf *ob, const void *s, size_t n)
{
	rp_ob_room(ob, n);
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

static inline void rp_ob_puts(struct rp_outbuf *ob, const char *s)
{
	rp_ob_put(ob, s, strlen(s));
}

/* n copies of c (padding). */
static inline void rp_ob_fill(struct rp_outbuf *ob, char c, size_t n)
{
	rp_ob_room(ob, n);
	memset(ob->buf + ob->len, c, n);
	ob->len += n;
}

/*
 * Formatting at a cursor: reserve the most a piece can take, write with
 * the rp_put_* functions below (each returns the cursor past what it
 * wrote), then end there. No bounds check per byte and no store of len
 * per piece, which is what made many small appends slow.
 */
static inline char *rp_ob_begin(struct rp_outbuf *ob, size_t max)
{
	rp_ob_room(ob, max);
	return ob->buf + ob->len;
}

static inline void rp_ob_end(struct rp_outbuf *ob, char *p)
{
	ob->len = (size_t)(p - ob->buf);
}

/* Longest decimal of a u64, and of an s64 with its sign. */
#define RP_U64_DIGITS_MAX 20
#define RP_S64_CHARS_MAX 20

/*
 * Copy n bytes to the cursor. Up to 32 of them (a line's fields) by
 * word moves that may overlap each other, never writing past p + n: a
 * libc call per field was a tenth of a stream's time in the TCG guest,
 * whose glibc picks vector moves that QEMU emulates at a high price.
 */
static inline char *rp_put(char *p, const void *s, size_t n)
{
	const char *q = s;
	uint64_t a, b, c, d;
	uint32_t x, y;

	if (n > 32) {
		memcpy(p, s, n);
	} else if (n >= 16) {
		memcpy(&a, q, 8);
		memcpy(&b, q + 8, 8);
		memcpy(&c, q + n - 16, 8);
		memcpy(&d, q + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + 8, &b, 8);
		memcpy(p + n - 16, &c, 8);
		memcpy(p + n - 8, &d, 8);
	} else if (n >= 8) {
		memcpy(&a, q, 8);
		memcpy(&b, q + n - 8, 8);
		memcpy(p, &a, 8);
		memcpy(p + n - 8, &b, 8);
	} else if (n >= 4) {
		memcpy(&x, q, 4);
		memcpy(&y, q + n - 4, 4);
		memcpy(p, &x, 4);
		memcpy(p + n - 4, &y, 4);
	} else if (n) {		/* (a loop here would become a call) */
		p[0] = q[0];
		p[n / 2] = q[n / 2];
		p[n - 1] = q[n - 1];
	}
	return p + n;
}

/* Number of decimal digits of v (1 for 0), without dividing. */
static inline unsigned int rp_u64_ndigits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
		100000000000000000ULL, 1000000000000000000ULL,
		10000000000000000000ULL,
	};
	/* log10(2) ~ 1233 / 4096: n is the digit count or one less */
	unsigned int n = ((64 - (unsigned int)__builtin_clzll(v | 1)) * 1233) >> 12;

	return n + ((v | 1) >= pow10[n]);
}

/* "00" to "99": two digits at a time */
extern const char rp_digit_pairs[200];

/*
 * Write the n digits of v ending at end, two at a time from a table:
 * half the divisions of the digit-by-digit loop, and those by a constant
 * (multiplications).
 */
void rp_u64_digits_at(uint64_t v, char *end);

/* %llu */
static inline char *rp_put_u64(char *p, uint64_t v)
{
	p += rp_u64_ndigits(v);
	rp_u64_digits_at(v, p);
	return p;
}

/* %lld */
static inline char *rp_put_s64(char *p, int64_t v)
{
	if (v >= 0)
		return rp_put_u64(p, (uint64_t)v);
	*p++ = '-';
	return rp_put_u64(p, -(uint64_t)v);	/* INT64_MIN too */
}

/* %*llu, space-padded, or %0*llu with pad '0'. */
static inline char *rp_put_u64_width(char *p, uint64_t v, unsigned int width,
				     char pad)
{
	unsigned int n = rp_u64_ndigits(v);

	if (n < width) {
		memset(p, pad, width - n);
		p += width - n;
	}
	p += n;
	rp_u64_digits_at(v, p);
	return p;
}

/* Spaces after what was written from start to p, up to width bytes. */
static inline char *rp_put_pad(char *start, char *p, size_t width)
{
	static const char spaces[32] = "                                ";
	size_t n = (size_t)(p - start);

	if (n >= width)
		return p;
	if (width - n <= sizeof(spaces))
		return rp_put(p, spaces, width - n);	/* no libc call */
	memset(p, ' ', width - n);
	return start + width;
}

/* 0x%llx */
static inline char *rp_put_hex(char *p, uint64_t v)
{
	static const char hex[16] = "0123456789abcdef";
	unsigned int n = (67 - (unsigned int)__builtin_clzll(v | 1)) / 4;
	char *end;

	*p++ = '0';
	*p++ = 'x';
	end = p + n;
	for (p = end; n--; v >>= 4)
		*--p = hex[v & 15];
	return end;
}

#endif
