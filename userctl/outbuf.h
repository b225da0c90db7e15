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
 * Digits of v, right-aligned at end (which they precede); returns where
 * they start. Two digits at a time from a table: half the divisions of
 * the digit-by-digit loop, and those by a constant (multiplications).
 */
char *rp_u64_digits(uint64_t v, char *end);
/* Lower-case hex digits of v, no prefix, as %llx. */
char *rp_u64_hexdigits(uint64_t v, char *end);

/* Longest output of the above: 20 decimal digits. */
#define RP_U64_DIGITS_MAX 20

/* %llu, right-aligned in width (space-padded) or zero-padded (zeros). */
void rp_ob_u64_width(struct rp_outbuf *ob, uint64_t v, unsigned int width,
		     char pad);

static inline void rp_ob_u64(struct rp_outbuf *ob, uint64_t v)
{
	char tmp[RP_U64_DIGITS_MAX], *p = rp_u64_digits(v, tmp + sizeof(tmp));

	rp_ob_put(ob, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* %lld */
static inline void rp_ob_s64(struct rp_outbuf *ob, int64_t v)
{
	if (v < 0) {
		rp_ob_putc(ob, '-');
		rp_ob_u64(ob, -(uint64_t)v);	/* INT64_MIN too */
		return;
	}
	rp_ob_u64(ob, (uint64_t)v);
}

/* 0x%llx */
static inline void rp_ob_hex(struct rp_outbuf *ob, uint64_t v)
{
	char tmp[2 + 16], *p = rp_u64_hexdigits(v, tmp + sizeof(tmp));

	*--p = 'x';
	*--p = '0';
	rp_ob_put(ob, p, (size_t)(tmp + sizeof(tmp) - p));
}

/* %-W.Ms: at most max bytes of s (up to a NUL), padded to width. */
void rp_ob_str_left(struct rp_outbuf *ob, const char *s, size_t max,
		    size_t width);

#endif
