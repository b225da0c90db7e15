/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hot path every probe kind shares: count the hit, reserve a record,
 * fill what is common, commit and count it. Inline: it runs on every hit.
 */
#ifndef _RAWPROBE_EMIT_H
#define _RAWPROBE_EMIT_H

#include "core.h"

/* Returns the record to fill, or NULL when the ring is full (counted). */
static __always_inline struct rawprobe_record *
rp_emit_begin(struct rp_probe *p, struct rp_slot *slot, u8 kind,
	      unsigned long addr)
{
	struct rawprobe_record *rec;

	this_cpu_inc(p->stats->hits);
	rec = rp_record_reserve(slot, p->id, kind);
	if (unlikely(!rec)) {
		this_cpu_inc(p->stats->lost_ring);
		return NULL;
	}
	rec->addr = addr;
	rec->retval = 0;
	rec->latency_ns = 0;
	return rec;
}

/* Entry arguments, already fetched into args, then typed. */
static __always_inline void rp_emit_args(struct rp_probe *p,
					 struct rawprobe_record *rec)
{
	rec->nargs = p->spec.nargs;
	rec->flags |= RAWPROBE_REC_ARGS;
	rp_args_decode(p, rec);
}

static __always_inline void rp_emit_end(struct rp_probe *p,
					struct rp_slot *slot)
{
	rp_record_commit(slot);
	this_cpu_inc(p->stats->records);
}

#endif /* _RAWPROBE_EMIT_H */
