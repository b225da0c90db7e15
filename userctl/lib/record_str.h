/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The strings a record carries (lib/record_str.c): one, in str[], or one
 * segment per string argument (uapi: RAWPROBE_STR_ARG_MULTI). Every
 * output reads them here.
 */
#ifndef RAWPROBECTL_RECORD_STR_H
#define RAWPROBECTL_RECORD_STR_H

#include <stdbool.h>
#include <stddef.h>
#include "rawprobe.h"
#include "lib/desc.h"

struct rp_rec_str {
	const char *s;		/* in the record; len bytes, not escaped */
	size_t len;
	unsigned int flags;	/* RAWPROBE_REC_STR, _STR_TRUNC, _STR_FAULT */
};

/*
 * Argument i's string (or its fault) into *out: false if the argument
 * is no string of r. A record may come from a capture file: a segment
 * that does not fit str_len is none.
 */
bool rp_rec_arg_str(const struct rawprobe_record *r, unsigned int i,
		    struct rp_rec_str *out);
/* The record's own string, not an argument's (retval->name:str, ...) */
bool rp_rec_own_str(const struct rawprobe_record *r, struct rp_rec_str *out);

/*
 * :ip6 arguments carry an address's 16 bytes in the string area; every
 * output but a capture file shows them as text. If r has any, *out is r
 * with each one's text (inet_ntop()) in its place: true.
 */
bool rp_rec_ip6_text(struct rawprobe_record *out,
		     const struct rawprobe_record *r,
		     const struct rp_probe_desc *d);

static inline bool rp_rec_multi_str(const struct rawprobe_record *r)
{
	return r->str_arg == RAWPROBE_STR_ARG_MULTI &&
	       (r->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT));
}

#endif
