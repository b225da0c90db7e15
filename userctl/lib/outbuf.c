// SPDX-License-Identifier: GPL-2.0
/* The formatters' output buffer; see outbuf.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lib/outbuf.h"

int rp_outbuf_init(struct rp_outbuf *ob, FILE *out, size_t cap)
{
	ob->buf = malloc(cap);
	/*
	 * Faulted in now, before a stream's probes fire: otherwise its first
	 * lines, written while it is furthest behind, take a page fault
	 * every 4 KiB (dear under TCG; as the merge's copies,
	 * rp_reader_prepare()).
	 */
	if (ob->buf)
		memset(ob->buf, 0, cap);
	ob->len = 0;
	ob->cap = ob->buf ? cap : 0;
	ob->out = out;
	return ob->buf ? 0 : -ENOMEM;
}

void rp_outbuf_free(struct rp_outbuf *ob)
{
	free(ob->buf);
	ob->buf = NULL;
	ob->len = ob->cap = 0;
}

void rp_outbuf_flush(struct rp_outbuf *ob)
{
	/*
	 * A failed write (a closed pipe) loses the text, as fprintf did:
	 * the stream goes on counting and prints its summary.
	 */
	if (ob->len)
		fwrite(ob->buf, 1, ob->len, ob->out);
	ob->len = 0;
}

void rp_outbuf_make_room(struct rp_outbuf *ob, size_t n)
{
	char *buf;
	size_t cap;

	rp_outbuf_flush(ob);
	if (n <= ob->cap)
		return;
	/* Only an init that failed, or a piece larger than the buffer. */
	cap = n > 4096 ? n : 4096;
	buf = realloc(ob->buf, cap);
	if (!buf)
		abort();	/* no memory for a few KiB: nothing to save */
	ob->buf = buf;
	ob->cap = cap;
}

const char rp_digit_pairs[200] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

void rp_u64_digits_at(uint64_t v, char *end)
{
	char *p = end;
	uint32_t w;

	/* 32-bit divisions once it fits: a cheaper multiply by the inverse */
	while (v > UINT32_MAX) {
		p -= 2;
		memcpy(p, &rp_digit_pairs[(v % 100) * 2], 2);
		v /= 100;
	}
	w = (uint32_t)v;
	while (w >= 100) {
		p -= 2;
		memcpy(p, &rp_digit_pairs[(w % 100) * 2], 2);
		w /= 100;
	}
	if (w >= 10)
		memcpy(p - 2, &rp_digit_pairs[w * 2], 2);
	else
		p[-1] = (char)('0' + w);
}
