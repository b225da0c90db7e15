/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pairs (RAWPROBE_A_PAIR): a batch's start and end probes and the table
 * of starts they share (kmod/pair.c sets it up and reads it, probes/pair.c
 * is the hit path, kmod/pair_core.h the lock-free table).
 */
#ifndef _RAWPROBE_PAIR_H
#define _RAWPROBE_PAIR_H

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/refcount.h>
#include <linux/timekeeping.h>
#include <asm/msr.h>
#include "agg.h"
#include "core.h"

/*
 * pair_core.h's primitives: the table is shared by every CPU, so real
 * atomics; a slot's state is published by a release after its key and
 * time, and read by an acquire before them (pair_core.h says where).
 */
#define rp_pair_load_acquire(p)		smp_load_acquire(p)
/* a slot's READY after its key and time: pairs with the acquire above */
#define rp_pair_store_release(p, v)	smp_store_release(p, v)
#define rp_pair_cmpxchg(p, o, n)	cmpxchg(p, o, n)
#define rp_pair_read(p)			READ_ONCE(*(p))
#define rp_pair_write(p, v)		WRITE_ONCE(*(p), v)
/* the walks past a key's first slot: out of the handlers, never probed */
#define rp_pair_walk			noinline
#define RP_PAIR_WALK_DONE(fn)		NOKPROBE_SYMBOL(fn)
#define RP_PAIR_PRIMITIVES 1
#include "pair_core.h"

/* The counts of RAWPROBE_A_PAIR_STATS, per CPU */
struct rp_pair_stats {
	u64 starts, matched, no_start, full, expired, replaced;
};


/*
 * What a start carries to its end (struct rp_pair_carry's words): to an
 * end that writes records or counts by the start's task, that task (pid
 * and tgid in a word, then the comm); to one that counts by the start's
 * stack or arguments, the stack's id and the arguments after it.
 */
#define RP_PAIR_CARRY_TASK	(1 + RAWPROBE_COMM_LEN / 8)
#define RP_PAIR_CARRY_STACK	RP_PAIR_CARRY_TASK
#define RP_PAIR_CARRY_ARG0	(RP_PAIR_CARRY_STACK + 1)
static_assert(RP_PAIR_CARRY_ARG0 + RAWPROBE_PAIR_CARRY_ARGS_MAX <=
	      RP_PAIR_CARRY_MAX);

struct rawprobe_pair {
	refcount_t ref;			/* one per probe of the pair */
	struct rp_pair_table t;
	/* the clock: ns = cycles * tsc_mult >> RP_AGG_TSC_SHIFT; 0: ns */
	u32 tsc_mult;
	u32 nr_slots;
	struct rp_pair_stats __percpu *stats;
	/* the starts' stacks, for ends that count by them; slots NULL: none */
	struct rp_agg_stacks stacks;
	u64 charged;			/* the tables' bytes, in the budget */
};

/* The same clock as a kretprobe's latency (agg.h): the TSC where trusted. */
static __always_inline u64 rp_pair_clock(const struct rawprobe_pair *pair)
{
	return pair->tsc_mult ? rdtsc_ordered() : ktime_get_mono_fast_ns();
}

static __always_inline u64 rp_pair_ns(const struct rawprobe_pair *pair,
				      u64 d)
{
	return pair->tsc_mult ? mul_u64_u32_shr(d, pair->tsc_mult, 22) : d;
}

/* Where a start went, counted. */
static __always_inline void rp_pair_count_start(struct rawprobe_pair *pair,
						enum rp_pair_put_res r)
{
	switch (r) {
	case RP_PAIR_REPLACED:
		this_cpu_inc(pair->stats->replaced);
		break;
	case RP_PAIR_RECLAIMED:
		this_cpu_inc(pair->stats->expired);
		break;
	case RP_PAIR_FULL:
		this_cpu_inc(pair->stats->full);
		return;
	default:
		break;
	}
	this_cpu_inc(pair->stats->starts);
}

/*
 * A start of key, in a table whose starts carry nothing (a probe
 * module's, or a pair's whose ends need only the time): stored (or not),
 * and counted where it went. Any context; the table's own (pair_core.h)
 * is lock-free. probes/pair.c has the starts that carry.
 */
static __always_inline void rp_pair_hit_start(struct rawprobe_pair *pair,
					      u64 key)
{
	rp_pair_count_start(pair, rp_pair_put(&pair->t, key,
					      rp_pair_clock(pair)));
}

/*
 * An end of key: true with the latency in *d, in the pair's clock units,
 * and what the start carried in *c (if c), if it found its start
 * (counted either way). The TSCs of two CPUs a few cycles apart make no
 * latency below 0.
 */
static __always_inline bool rp_pair_hit_end_raw(struct rawprobe_pair *pair,
						u64 key, u64 *d,
						struct rp_pair_carry *c)
{
	u64 now = rp_pair_clock(pair), ts = 0;
	enum rp_pair_take_res r;

	/* (c only where the table carries its starts' tasks) */
	if (unlikely(pair->t.stride != RP_PAIR_SLOT_WORDS))
		r = rp_pair_take_carry(&pair->t, key, now, &ts, c);
	else
		r = rp_pair_take(&pair->t, key, now, &ts);
	switch (r) {
	case RP_PAIR_MATCHED:
		break;
	case RP_PAIR_TOO_OLD:
		this_cpu_inc(pair->stats->expired);
		fallthrough;
	default:
		this_cpu_inc(pair->stats->no_start);
		return false;
	}
	this_cpu_inc(pair->stats->matched);
	*d = (s64)(now - ts) > 0 ? now - ts : 0;
	return true;
}

/* The same, the latency in nanoseconds, nothing carried */
static __always_inline bool rp_pair_hit_end(struct rawprobe_pair *pair,
					    u64 key, u64 *ns)
{
	u64 d;

	if (!rp_pair_hit_end_raw(pair, key, &d, NULL))
		return false;
	*ns = rp_pair_ns(pair, d);
	return true;
}

/* kmod/pair.c */
struct rawprobe_pair *rp_pair_new(u32 max_keys, u32 expire_ms,
				  unsigned int users, bool charge, u32 carry,
				  u32 stack_slots,
				  struct netlink_ext_ack *extack);
int rp_pair_check(const struct rp_probe_spec *spec,
		  struct netlink_ext_ack *extack);
int rp_pair_setup(struct rawprobe_probe **v, unsigned int n,
		  struct netlink_ext_ack *extack, int *failed);
void rp_pair_put_ref(struct rawprobe_pair *pair);
/* Sweep the expired starts out, then sum the counts (process context) */
void rp_pair_read_stats(struct rawprobe_pair *pair, struct rp_pair_stats *s,
			u64 *pending);

/* probes/pair.c: the entry probes' handlers of a pair */
int rp_pair_start_pre(struct kprobe *kp, struct pt_regs *regs);
int rp_pair_end_pre(struct kprobe *kp, struct pt_regs *regs);
/* ...keyed by the task, with no argument: the same, without arrays */
int rp_pair_start_task_pre(struct kprobe *kp, struct pt_regs *regs);
int rp_pair_end_task_pre(struct kprobe *kp, struct pt_regs *regs);
/* ...an end that writes a record per completed pair, not a histogram */
int rp_pair_end_rec_pre(struct kprobe *kp, struct pt_regs *regs);

/* Is k a key of a pair's start (RAWPROBE_AGG_KEY_START_*)? */
static inline bool rp_pair_is_start_key(u8 k)
{
	return k >= RAWPROBE_AGG_KEY_START_COMM &&
	       k <= RAWPROBE_AGG_KEY_START_ARG;
}

/* Does an end count by what its start carries? */
static inline bool rp_pair_start_keys(const struct rp_probe_spec *spec)
{
	unsigned int i;

	for (i = 0; i < spec->agg.nkeys; i++)
		if (rp_pair_is_start_key(spec->agg.keys[i]))
			return true;
	return false;
}

/* May the probe take the task handlers? */
static inline bool rp_pair_task_only(const struct rawprobe_probe *p)
{
	return p->spec.pair.key != RAWPROBE_AGG_KEY_ARG && !p->spec.nargs &&
	       !rp_pair_start_keys(&p->spec);
}

#endif /* _RAWPROBE_PAIR_H */
