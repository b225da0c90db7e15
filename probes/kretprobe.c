// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes. The entry handler stashes the entry time and the
 * arguments in the instance's data (fields behind them and a string
 * read at entry, the registers themselves too when a value filter needs
 * them); the return handler writes one record with the return value,
 * those arguments and the latency. Instances are
 * limited by maxactive: entries that find none free are counted by the
 * kernel in nmissed and reported as "missed (maxactive)".
 */
#include <linux/kprobes.h>
#include <linux/timekeeping.h>
#include "agg.h"
#include "emit.h"
#include "inject.h"
#include "compat.h"

struct rp_kret_data {
	u64 entry_ns;			/* an aggregate's: rp_agg_clock() */
	u64 args[RAWPROBE_MAX_ARGS];	/* what the record will show */
	u64 raw[RAWPROBE_MAX_ARGS];	/* registers, for value filters */
	u64 stack_id;			/* an aggregate's stack key, at entry */
	u8 fault_mask;			/* of args fetched at entry */
	u8 nframes;			/* --stack: the callers at entry */
	u8 str_flags;			/* RAWPROBE_REC_STR*; 0: none yet */
	u8 str_len;
	u8 str_arg;			/* the record's, for str[] */
	union {				/* last: sized only when used */
		u64 frames[RAWPROBE_STACK_MAX];	/* --stack */
		char str[RAWPROBE_STR_LEN];	/* the string, at entry */
	};
};

/*
 * Strings are read at entry, where an argument means what it meant to
 * the caller (a file name a call is given, before the call frees or
 * rewrites it); when one is fetched from the return value, which only
 * return has, all are read at return (rp_note_ret_str()).
 */
static inline bool rp_kret_str_at_entry(const struct rawprobe_probe *p)
{
	return p->str_arg >= 0 && !p->str_at_return;
}

/* Arguments as the record shows them, and what a value filter reads. */
static void rp_kret_stash(struct rawprobe_probe *p, struct pt_regs *regs,
			  struct rp_kret_data *d)
{
	if (!p->spec.nfetch && !p->spec.nterms) {
		rp_args_fetch(p, regs, d->args, p->spec.nargs);
		return;
	}
	rp_args_fetch(p, regs, d->raw, p->nraw);
	d->fault_mask = 0;
	if (p->spec.nfetch)
		rp_fetch_args(p, d->raw, 0, d->args, &d->fault_mask);
	else
		rp_args_fetch(p, regs, d->args, p->spec.nargs);
}
NOKPROBE_SYMBOL(rp_kret_stash);

static inline struct rawprobe_probe *rp_from_instance(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct rawprobe_probe, krp);
}

/*
 * An aggregate's entry: its latency's start, on its own clock whatever
 * the rings' (only for a latency value), and its stack key's stack. Out
 * of line: the record path's entry stays as it was.
 */
static noinline void rp_kret_agg_entry(struct rawprobe_probe *p,
				       struct pt_regs *regs,
				       struct rp_kret_data *d)
{
	if (p->spec.agg.value == RAWPROBE_AGG_VALUE_LATENCY)
		d->entry_ns = rp_agg_clock(p->agg);
	if (p->agg->want_stack)
		d->stack_id = rp_agg_stack_id(p, regs);
}
NOKPROBE_SYMBOL(rp_kret_agg_entry);

/*
 * A call chain's step writes no record: of its hits, the entries that did
 * not take a task a step deeper are filtered.
 */
static noinline int rp_kret_chain_enter(struct rawprobe_probe *p)
{
	int skip = rp_chain_enter(p);

	if (skip)
		this_cpu_inc(p->stats->filtered);
	return skip;
}
NOKPROBE_SYMBOL(rp_kret_chain_enter);

static int rp_kret_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rawprobe_probe *p = rp_from_instance(ri);
	struct rp_kret_data *d = (struct rp_kret_data *)ri->data;

	/* Filtered at entry: non-zero skips the return handler. */
	if (rp_emit_filtered(p, NULL))
		return 1;
	if (unlikely(p->spec.chain_step))
		return rp_kret_chain_enter(p);
	if (unlikely(p->agg))
		rp_kret_agg_entry(p, regs, d);
	else
		d->entry_ns = rp_clock();
	if (p->spec.nargs || p->spec.nterms)
		rp_kret_stash(p, regs, d);
	d->str_flags = 0;
	if (unlikely(rp_kret_str_at_entry(p)))
		d->str_flags = rp_args_str(p, d->args, d->str, &d->str_len,
					   &d->str_arg);
	if (unlikely(p->spec.flags & RAWPROBE_F_STACK))
		d->nframes = rp_stack_save(regs, d->frames);
	return 0;
}
NOKPROBE_SYMBOL(rp_kret_entry);

/* The arguments, typed; the string the entry took, or one read now. */
static void rp_kret_emit_args(struct rawprobe_probe *p,
			      struct rawprobe_record *rec,
			      const struct rp_kret_data *d)
{
	if (likely(!d->str_flags)) {
		rp_emit_args(p, rec);
		return;
	}
	rec->nargs = p->spec.nargs;
	rec->flags |= RAWPROBE_REC_ARGS | d->str_flags;
	rp_args_types(p, rec);
	rec->str_arg = d->str_arg;
	rec->str_len = d->str_len;
	/* (segments end with their NULs; one string has its own after) */
	memcpy(rec->str, d->str, min_t(size_t, d->str_len + 1,
				       RAWPROBE_STR_LEN));
}
NOKPROBE_SYMBOL(rp_kret_emit_args);

/*
 * What every return record has: the value, and the time since entry
 * (RAWPROBE_REC_RETVAL is in the probe's header word already).
 */
static __always_inline void rp_kret_fill(struct rawprobe_record *rec,
					 u64 retval, u64 entry)
{
	rec->retval = (s64)retval;
	rec->latency_ns = rec->ts_ns - entry;
}

static int rp_kret_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct rawprobe_probe *p = rp_from_instance(ri);
	struct rp_kret_data *d = (struct rp_kret_data *)ri->data;
	u64 retval = regs_return_value(regs);
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	if (unlikely(p->spec.chain_step)) {
		rp_chain_leave(p);
		return 0;
	}
	if (rp_emit_value_filtered(p, d->raw, retval))
		return 0;
	if (unlikely(p->agg)) {
		if (!rp_agg_count_fast(p))
			rp_agg_hit_return(p, p->spec.nargs ? d->args : NULL,
					  get_kretprobe_retaddr(ri),
					  d->stack_id, retval, d->entry_ns);
		return 0;
	}
	rec = rp_emit_begin(p, &slot, (unsigned long)p->krp.kp.addr);
	if (unlikely(!rec))
		return 0;
	rp_kret_fill(rec, retval, d->entry_ns);
	if (p->spec.nargs) {
		memcpy(rec->args, d->args, sizeof(d->args));
		if (unlikely(p->spec.nfetch)) {
			rec->fault_mask = d->fault_mask;
			rp_fetch_args(p, NULL, retval, rec->args,
				      &rec->fault_mask);
		}
		rp_kret_emit_args(p, rec, d);
	}
	if (unlikely(p->spec.flags & RAWPROBE_F_STACK))
		rp_stack_record(rec, d->frames, d->nframes);
	rp_emit_end(p, &slot);
	return 0;
}
NOKPROBE_SYMBOL(rp_kret_return);

/*
 * The entry of the two kretprobes that only time the call: the filters,
 * then the time, on the aggregate's clock (agg) or the rings'.
 */
static __always_inline int rp_kret_time_entry(struct kretprobe_instance *ri,
					      bool agg)
{
	struct rawprobe_probe *p = rp_from_instance(ri);
	struct rp_kret_data *d = (struct rp_kret_data *)ri->data;

	if (rp_emit_filtered(p, NULL))
		return 1;
	d->entry_ns = agg ? rp_agg_clock(p->agg) : rp_clock();
	return 0;
}

/*
 * A latency histogram with no key, the commonest kretprobe question
 * ("how long does it take?"): the time at entry, the latency counted at
 * return (rp_agg_latency_only_ok()).
 */
static int rp_kret_lat_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return rp_kret_time_entry(ri, true);
}
NOKPROBE_SYMBOL(rp_kret_lat_entry);

static int rp_kret_lat_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct rp_kret_data *d = (struct rp_kret_data *)ri->data;

	rp_agg_latency_add(rp_from_instance(ri)->agg, d->entry_ns);
	return 0;
}
NOKPROBE_SYMBOL(rp_kret_lat_return);

/*
 * A plain record (rp_emit_plain()): the time at entry; the header, the
 * return value and the latency at return, no other test.
 */
static int rp_kret_rec_entry(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	return rp_kret_time_entry(ri, false);
}
NOKPROBE_SYMBOL(rp_kret_rec_entry);

static int rp_kret_rec_return(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct rawprobe_probe *p = rp_from_instance(ri);
	struct rp_kret_data *d = (struct rp_kret_data *)ri->data;
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rp_emit_begin(p, &slot, (unsigned long)p->krp.kp.addr);
	if (unlikely(!rec))
		return 0;
	rp_kret_fill(rec, regs_return_value(regs), d->entry_ns);
	rp_emit_end(p, &slot);
	return 0;
}
NOKPROBE_SYMBOL(rp_kret_rec_return);

void rp_kretprobe_prepare(struct rawprobe_probe *p)
{
	memset(&p->krp, 0, sizeof(p->krp));
	if (p->target[0])
		p->krp.kp.symbol_name = p->target;
	else
		p->krp.kp.addr = (kprobe_opcode_t *)(unsigned long)p->spec.addr;
	if (rp_emit_plain(p)) {
		p->krp.entry_handler = rp_kret_rec_entry;
		p->krp.handler = rp_kret_rec_return;
	} else if (rp_agg_latency_only_ok(p)) {
		p->krp.entry_handler = rp_kret_lat_entry;
		p->krp.handler = rp_kret_lat_return;
	} else {
		p->krp.entry_handler = rp_kret_entry;
		p->krp.handler = rp_kret_return;
	}
	/* Every instance carries it: a stack or string only when asked for. */
	p->krp.data_size = (p->spec.flags & RAWPROBE_F_STACK) ||
			   rp_kret_str_at_entry(p) ?
			   sizeof(struct rp_kret_data) :
			   offsetof(struct rp_kret_data, frames);
	p->krp.maxactive = p->spec.maxactive;
}

/*
 * The memory register_kretprobe() will pin for the probe's instances,
 * with the default maxactive the kernel would choose for 0.
 */
static u64 rp_kretprobe_pinned(const struct rawprobe_probe *p)
{
	u32 maxactive = p->krp.maxactive ?:
			max_t(u32, 10, 2 * num_possible_cpus());

	return rp_kretprobe_bytes(maxactive, sizeof(struct kretprobe_instance) +
				  p->krp.data_size);
}

static int rp_kretprobe_kind_prepare(struct rawprobe_probe *p,
				     struct netlink_ext_ack *extack)
{
	int err = rp_probe_prepare(p, extack);

	if (!err)
		rp_kretprobe_prepare(p);
	return err;
}

static const struct rp_kind_ops rp_kretprobe_ops = {
	.prepare	= rp_kretprobe_kind_prepare,
	.pinned		= rp_kretprobe_pinned,
};

void rp_kretprobe_kind_init(void)
{
	rp_kind_register(RAWPROBE_KIND_KRETPROBE, &rp_kretprobe_ops);
}
