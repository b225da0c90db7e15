/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An aggregating probe's tables (kmod/agg.c), as its handlers see them
 * (probes/agg.c): two per CPU, the epoch saying which one hits go to.
 */
#ifndef _RAWPROBE_AGG_H
#define _RAWPROBE_AGG_H

#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>
#include "core.h"
#include "ring_core_kernel.h"

/* A string key's words: its first 31 bytes and a NUL, zero-padded. */
#define RP_AGG_STR_KEY_WORDS	(RAWPROBE_AGG_STR_KEY_LEN / 8)

/*
 * Key i's words in the table: two for a comm or an ip6 address, four
 * for a string, one for the others.
 */
static inline u32 rp_agg_key_width(const struct rp_probe_spec *spec,
				   unsigned int i)
{
	u8 t;

	if (spec->agg.keys[i] == RAWPROBE_AGG_KEY_COMM ||
	    spec->agg.keys[i] == RAWPROBE_AGG_KEY_START_COMM)
		return 2;
	if (spec->agg.keys[i] != RAWPROBE_AGG_KEY_ARG)
		return 1;
	t = spec->argtypes[spec->agg.key_args[i]];
	if (t == RAWPROBE_ARG_IP6)
		return 2;
	return rp_argtype_is_str(t) ? RP_AGG_STR_KEY_WORDS : 1;
}

struct rp_agg_pcpu {
	struct rp_agg_table t[2];
};

/*
 * A stack key's table (RAWPROBE_AGG_KEY_STACK), one per probe, shared by
 * the CPUs, as a BPF stack map is (a pair's starts share one, for their
 * ends' RAWPROBE_AGG_KEY_START_STACK): slot i holds stack id i + 1, as
 *   word 0   the frames' hash, never 0; 0: free; RP_AGG_BUSY while
 *            a writer fills the slot in (claimed by cmpxchg)
 *   word 1   n, the frames' count
 *   then     RAWPROBE_STACK_MAX frames, innermost first
 * Slots are only ever added: an id names the same stack for the probe's
 * life, whatever interval counts it. A writer that meets a slot another
 * fills in moves on, so one stack may hold two ids; readers merge them.
 */
#define RP_AGG_STACK_WORDS	(2 + RAWPROBE_STACK_MAX)

struct rp_agg_stacks {
	u64 *slots;			/* NULL: no stack key */
	u32 mask;			/* slots - 1 */
	u32 key_word;			/* the key word of the id */
};

/*
 * probes/agg.c: the id of a stack in st (slot + 1), added if new; 0 if
 * the slots it may take are all someone else's. Any context.
 */
u64 rp_agg_stack_intern(struct rp_agg_stacks *st, const u64 *frames,
			unsigned int n);

struct rp_agg {
	/*
	 * Writers use t[epoch & 1] of their CPU's pair. A read switches the
	 * epoch (store-release: the table it sends writers to was cleared
	 * before), waits a grace period, after which no writer is in the old
	 * tables (handlers run with preemption off), then copies and clears
	 * them. So every hit is in exactly one interval. A read that cannot
	 * take its snapshot (budget, memory) switches back: the hits stay in
	 * the tables for the next read, and the few a writer put in the
	 * other tables meanwhile are read one interval later.
	 */
	u32 epoch;
	u64 start_ns;			/* the current interval's beginning */
	struct mutex lock;		/* one read at a time */
	struct rp_agg_spec spec;
	struct rp_agg_shape shape;
	u32 nr_slots;
	/* latency: ns = cycles * tsc_mult >> RP_AGG_TSC_SHIFT; 0: no TSC */
	u32 tsc_mult;
	bool counts_only;		/* no key, no value: the hits are it */
	bool want_caller;		/* a caller key */
	bool want_stack;		/* a stack key: stacks is its own
					 * (a start stack key's is the pair's)
					 */
	struct rp_agg_pcpu __percpu *pcpu;
	struct rp_agg_stacks stacks;
	u64 charged;			/* what it took of the budget */
};

#define RP_AGG_TSC_SHIFT	22

/*
 * A kretprobe's latency (an aggregate's value): where the TSC is trusted
 * (synchronized, as the rings' tsc clock needs), two TSC reads and a
 * multiply, about 100 instructions fewer a call than two
 * ktime_get_mono_fast_ns(); else those.
 */
static __always_inline u64 rp_agg_clock(const struct rp_agg *agg)
{
	return agg->tsc_mult ? rdtsc_ordered() : ktime_get_mono_fast_ns();
}

static __always_inline u64 rp_agg_latency_ns(const struct rp_agg *agg,
					     u64 start)
{
	s64 d = (s64)(rp_agg_clock(agg) - start);

	if (d < 0)		/* TSCs a few cycles apart across CPUs */
		return 0;
	return agg->tsc_mult ? mul_u64_u32_shr(d, agg->tsc_mult,
					       RP_AGG_TSC_SHIFT) : d;
}

/* This CPU's table of the current epoch. */
static __always_inline struct rp_agg_table *rp_agg_table_now(struct rp_agg *agg)
{
	/* pairs with the reader's store-release of the epoch */
	return &this_cpu_ptr(agg->pcpu)->t[smp_load_acquire(&agg->epoch) & 1];
}

/*
 * A count with no key and no value is the table's own count of hits: no
 * slot to look up (rp_agg_read() makes it the interval's one entry).
 * Inline in the handlers: true if it counted the hit, which is all.
 */
static __always_inline void rp_agg_count_hit(struct rp_agg *agg)
{
	/*
	 * One instruction on x86 (an increment at a per-CPU offset), safe
	 * against a handler nested on this CPU as a local increment is.
	 * The epoch's load pairs with the reader's store-release.
	 */
	this_cpu_inc(agg->pcpu->t[smp_load_acquire(&agg->epoch) & 1].hits);
}

static __always_inline bool rp_agg_count_fast(struct rawprobe_probe *p)
{
	if (!p->agg->counts_only)
		return false;
	rp_agg_count_hit(p->agg);
	return true;
}

/*
 * May an entry probe's handler be its filters and rp_agg_count_hit()
 * alone? Fixed once the probe is set up: nothing of it changes later.
 */
static inline bool rp_agg_count_only_ok(const struct rawprobe_probe *p)
{
	return p->agg && p->agg->counts_only && !p->spec.ovr.set &&
	       !p->spec.chain_step;
}

/*
 * Is the probe's key all the task's (comm, pid, tgid, cpu), with no
 * value? Then an entry probe's handler is its filters, the key from
 * current and the table (rp_agg_kprobe_task_pre()): no context to gather,
 * no arguments to fetch.
 */
static inline bool rp_agg_task_keys_ok(const struct rawprobe_probe *p)
{
	const struct rp_agg_spec *a;
	unsigned int i;

	if (!p->agg || p->agg->counts_only || p->agg->shape.flags ||
	    p->spec.ovr.set || p->spec.chain_step)
		return false;
	a = &p->spec.agg;
	for (i = 0; i < a->nkeys; i++)
		if (a->keys[i] != RAWPROBE_AGG_KEY_COMM &&
		    a->keys[i] != RAWPROBE_AGG_KEY_PID &&
		    a->keys[i] != RAWPROBE_AGG_KEY_TGID &&
		    a->keys[i] != RAWPROBE_AGG_KEY_CPU)
			return false;
	return true;
}

int rp_agg_kprobe_task_pre(struct kprobe *kp, struct pt_regs *regs);
int rp_agg_kprobe_comm_pre(struct kprobe *kp, struct pt_regs *regs);

/* A count by comm alone (of the task keys, the commonest). */
static inline bool rp_agg_comm_key_ok(const struct rawprobe_probe *p)
{
	return rp_agg_task_keys_ok(p) && p->spec.agg.nkeys == 1 &&
	       p->spec.agg.keys[0] == RAWPROBE_AGG_KEY_COMM;
}

/*
 * Is the probe a kretprobe's latency alone (no key, no arguments, no
 * value filter, stack or string)? Then its handlers take the time at
 * entry and count the latency at return, nothing else.
 */
static inline bool rp_agg_latency_only_ok(const struct rawprobe_probe *p)
{
	return p->agg && !p->spec.agg.nkeys &&
	       p->spec.agg.value == RAWPROBE_AGG_VALUE_LATENCY &&
	       !p->spec.nargs && !p->spec.nterms && p->str_arg < 0 &&
	       !(p->spec.filter.mask & RP_FILTER_VALUE) &&
	       !(p->spec.flags & RAWPROBE_F_STACK) &&
	       !p->spec.ovr.set && !p->spec.chain_step;
}

/* A latency, counted in this CPU's table (no key: one slot). */
static __always_inline void rp_agg_latency_add(struct rp_agg *agg, u64 start)
{
	rp_agg_add(rp_agg_table_now(agg), NULL,
		   (s64)rp_agg_latency_ns(agg, start));
}

#endif /* _RAWPROBE_AGG_H */
