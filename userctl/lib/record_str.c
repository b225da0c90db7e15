// SPDX-License-Identifier: GPL-2.0
/*
 * A record's strings: the one str[] holds, or the segments of several
 * (uapi/rawprobe.h, struct rawprobe_str_seg).
 */
#include <string.h>
#include "lib/record_str.h"

#define RP_STR_FLAGS	(RAWPROBE_REC_STR | RAWPROBE_REC_STR_TRUNC | \
			 RAWPROBE_REC_STR_FAULT)

/* The bytes of str[] the writer said it filled, within the array */
static size_t rp_rec_str_end(const struct rawprobe_record *r)
{
	return r->str_len < RAWPROBE_STR_LEN ? r->str_len : RAWPROBE_STR_LEN;
}

static void rp_rec_str_one(const struct rawprobe_record *r,
			   struct rp_rec_str *out)
{
	out->s = r->str;
	out->len = strnlen(r->str, rp_rec_str_end(r));
	out->flags = r->flags & RP_STR_FLAGS;
}

/* Segment by segment, each checked against what was filled. */
static bool rp_rec_seg(const struct rawprobe_record *r, unsigned int i,
		       struct rp_rec_str *out)
{
	size_t at = 0, end = rp_rec_str_end(r);
	const size_t hdr = sizeof(struct rawprobe_str_seg);

	while (at + hdr + 1 <= end) {
		const struct rawprobe_str_seg *seg =
			(const void *)(r->str + at);

		if (at + hdr + seg->len + 1 > end)
			return false;
		if (seg->arg == i) {
			out->s = r->str + at + hdr;
			out->len = strnlen(out->s, seg->len);
			out->flags = seg->flags & RP_STR_FLAGS;
			return out->flags & (RAWPROBE_REC_STR |
					     RAWPROBE_REC_STR_FAULT);
		}
		at += hdr + seg->len + 1;
	}
	return false;
}

bool rp_rec_arg_str(const struct rawprobe_record *r, unsigned int i,
		    struct rp_rec_str *out)
{
	if (!(r->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT)))
		return false;
	if (r->str_arg == RAWPROBE_STR_ARG_MULTI)
		return rp_rec_seg(r, i, out);
	if (i != r->str_arg)
		return false;
	rp_rec_str_one(r, out);
	return true;
}

bool rp_rec_own_str(const struct rawprobe_record *r, struct rp_rec_str *out)
{
	if (!(r->flags & RAWPROBE_REC_STR) ||
	    r->str_arg == RAWPROBE_STR_ARG_MULTI ||
	    ((r->flags & RAWPROBE_REC_ARGS) && r->str_arg < r->nargs))
		return false;
	rp_rec_str_one(r, out);
	return true;
}
