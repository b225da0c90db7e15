// SPDX-License-Identifier: GPL-2.0
/*
 * A record's strings: the one str[] holds, or the segments of several
 * (uapi/rawprobe.h, struct rawprobe_str_seg).
 */
#include <arpa/inet.h>
#include <string.h>
#include "lib/names.h"
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

/* An address argument (ip6, saddr, daddr): its bytes are text to make */
static bool rp_desc_ip6(const struct rp_probe_desc *d, unsigned int i)
{
	return d && i < d->nargs && i < RAWPROBE_MAX_ARGS &&
	       rp_argtype_is_addr(d->argtypes[i]);
}

static bool rp_desc_has_ip6(const struct rp_probe_desc *d)
{
	unsigned int i;

	for (i = 0; d && i < d->nargs && i < RAWPROBE_MAX_ARGS; i++)
		if (rp_desc_ip6(d, i))
			return true;
	return false;
}

/*
 * n bytes of an address as inet_ntop() writes it: an ip6's 16 (fewer if
 * cut: the rest 0); a socket's 4 (IPv4) or 16 (IPv6), none for another
 * family.
 */
static size_t rp_ip6_text(char *buf, unsigned int type, const char *bytes,
			  size_t n)
{
	unsigned char a[16] = { 0 };
	int af = AF_INET6;

	if (type != RAWPROBE_ARG_IP6 && n != 16)
		af = AF_INET;
	if (type != RAWPROBE_ARG_IP6 && n != 4 && n != 16)
		n = 0;
	memcpy(a, bytes, n < sizeof(a) ? n : sizeof(a));
	if ((type != RAWPROBE_ARG_IP6 && !n) ||
	    !inet_ntop(af, a, buf, INET6_ADDRSTRLEN))
		buf[0] = '\0';
	return strlen(buf);
}

/* One segment into out at *to, cut to what is left of the area. */
static void rp_seg_put(struct rawprobe_record *out, size_t *to,
		       const struct rawprobe_str_seg *seg, const char *s,
		       size_t n)
{
	const size_t hdr = sizeof(struct rawprobe_str_seg);
	struct rawprobe_str_seg *o = (void *)(out->str + *to);
	uint8_t flags = seg->flags;

	if (*to + hdr + 1 > RAWPROBE_STR_LEN)
		return;
	if (*to + hdr + n + 1 > RAWPROBE_STR_LEN) {
		n = RAWPROBE_STR_LEN - *to - hdr - 1;
		flags |= RAWPROBE_REC_STR_TRUNC;
		out->flags |= RAWPROBE_REC_STR_TRUNC;
	}
	o->arg = seg->arg;
	o->flags = flags;
	o->len = (uint8_t)n;
	memcpy(o->str, s, n);
	*to += hdr + n + 1;
}

static void rp_segs_ip6_text(struct rawprobe_record *out,
			     const struct rawprobe_record *r,
			     const struct rp_probe_desc *d)
{
	size_t at = 0, to = 0, end = rp_rec_str_end(r);
	const size_t hdr = sizeof(struct rawprobe_str_seg);
	char text[INET6_ADDRSTRLEN];

	while (at + hdr + 1 <= end) {
		const struct rawprobe_str_seg *seg = (const void *)(r->str + at);

		if (at + hdr + seg->len + 1 > end)
			break;
		if (rp_desc_ip6(d, seg->arg) && (seg->flags & RAWPROBE_REC_STR))
			rp_seg_put(out, &to, seg, text,
				   rp_ip6_text(text, d->argtypes[seg->arg],
					       seg->str, seg->len));
		else
			rp_seg_put(out, &to, seg, seg->str, seg->len);
		at += hdr + seg->len + 1;
	}
	out->str_len = (uint8_t)to;
}

bool rp_rec_ip6_text(struct rawprobe_record *out,
		     const struct rawprobe_record *r,
		     const struct rp_probe_desc *d)
{
	bool multi = r->str_arg == RAWPROBE_STR_ARG_MULTI;

	if (!(r->flags & RAWPROBE_REC_STR) || !rp_desc_has_ip6(d) ||
	    !(r->flags & RAWPROBE_REC_ARGS) ||
	    (!multi && !rp_desc_ip6(d, r->str_arg)))
		return false;
	*out = *r;
	memset(out->str, 0, sizeof(out->str));
	if (multi)
		rp_segs_ip6_text(out, r, d);
	else
		out->str_len = (uint8_t)rp_ip6_text(out->str,
						    d->argtypes[r->str_arg],
						    r->str, rp_rec_str_end(r));
	return true;
}
