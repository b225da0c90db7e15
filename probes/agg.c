// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers' side of aggregation (RAWPROBE_F_AGG): a hit's key and
 * value, counted in this CPU's table of the current epoch. Any context,
 * preemption off (probe handlers always are); no lock, no allocation.
 */
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/string.h>
#include "emit.h"
#include "agg.h"
#include "pair.h"

/* What a hit knows: its task, arguments, return and latency. */
struct rp_agg_ctx {
	const u64 *args;		/* as --args computes them, or NULL */
	unsigned long caller;
	u64 stack_id;			/* with a stack key; 0: not interned */
	u64 retval, latency_ns;
	const u64 *start;		/* a pair's end: what its start
					 * carried (struct rp_pair_carry)
					 */
};

/* An argument as its declared type reads it: s32 and u32 cut to 32 bits. */
static __always_inline s64 rp_agg_arg(const struct rawprobe_probe *p,
				      const struct rp_agg_ctx *c, u8 i)
{
	u64 v = c->args ? c->args[i] : 0;

	switch (p->spec.argtypes[i]) {
	case RAWPROBE_ARG_S32:
		return (s32)v;
	case RAWPROBE_ARG_U32:
		return (u32)v;
	default:
		return (s64)v;
	}
}

/*
 * A string (or an ip6 address) argument's key words, from the address
 * the argument holds: zeroed first, since the copy leaves the bytes past
 * the string's last chunk alone; what faults stays zero (an empty key).
 * A length from another argument (buf:str:count) ends it as it ends a
 * record's string: the bytes past it are not the string's, and would
 * split one key into as many as the buffer has leftovers.
 */
static noinline unsigned int rp_agg_key_str(const struct rawprobe_probe *p,
					    u8 arg, const u64 *args, u64 *key)
{
	u8 t = p->spec.argtypes[arg];
	unsigned long src = args ? args[arg] : 0;
	size_t max = RP_AGG_STR_KEY_WORDS * sizeof(u64) - 1;
	bool trunc;

	if (t == RAWPROBE_ARG_IP6) {
		if (copy_from_kernel_nofault(key, (const void *)src, 16))
			memset(key, 0, 16);
		return 2;
	}
	memset(key, 0, RP_AGG_STR_KEY_WORDS * sizeof(u64));
	if (args)
		max = min(max, rp_str_bound(p, args, arg));
	rp_copy_string((char *)key, src, max, t == RAWPROBE_ARG_USTR, &trunc);
	return RP_AGG_STR_KEY_WORDS;
}
NOKPROBE_SYMBOL(rp_agg_key_str);

/*
 * A pair's end's key of what its start carried (start: pid and tgid,
 * the comm, the stack's id, the arguments, as kmod/pair.h lays them
 * out): its words. None carried (start NULL) is a key of zeroes.
 */
static noinline unsigned int rp_agg_key_start(u8 k, u8 arg, const u64 *start,
					      u64 *key)
{
	if (k == RAWPROBE_AGG_KEY_START_COMM) {
		key[0] = start ? start[1] : 0;
		key[1] = start ? start[2] : 0;
		return 2;
	}
	if (!start)
		key[0] = 0;
	else if (k == RAWPROBE_AGG_KEY_START_PID)
		key[0] = (u32)start[0];
	else if (k == RAWPROBE_AGG_KEY_START_TGID)
		key[0] = start[0] >> 32;
	else if (k == RAWPROBE_AGG_KEY_START_STACK)
		key[0] = start[RP_PAIR_CARRY_STACK];
	else
		key[0] = start[RP_PAIR_CARRY_ARG0 + arg];
	return 1;
}
NOKPROBE_SYMBOL(rp_agg_key_start);

static __always_inline unsigned int rp_agg_key_fill(
	const struct rawprobe_probe *p, const struct rp_agg_ctx *c, u64 *key)
{
	const struct rp_agg_spec *a = &p->spec.agg;
	struct task_struct *task = current;
	unsigned int i, w = 0;

	for (i = 0; i < a->nkeys; i++) {
		switch (a->keys[i]) {
		case RAWPROBE_AGG_KEY_COMM:
			/* NUL-padded, as task->comm is kept */
			memcpy(&key[w], task->comm, 2 * sizeof(u64));
			w += 2;
			continue;
		case RAWPROBE_AGG_KEY_PID:
			key[w] = task->pid;
			break;
		case RAWPROBE_AGG_KEY_START_COMM:
		case RAWPROBE_AGG_KEY_START_PID:
		case RAWPROBE_AGG_KEY_START_TGID:
		case RAWPROBE_AGG_KEY_START_STACK:
		case RAWPROBE_AGG_KEY_START_ARG:
			w += rp_agg_key_start(a->keys[i], a->key_args[i],
					      c->start, &key[w]);
			continue;
		case RAWPROBE_AGG_KEY_TGID:
			key[w] = task->tgid;
			break;
		case RAWPROBE_AGG_KEY_CPU:
			key[w] = smp_processor_id();
			break;
		case RAWPROBE_AGG_KEY_CALLER:
			key[w] = c->caller;
			break;
		case RAWPROBE_AGG_KEY_RETVAL:
			key[w] = c->retval;
			break;
		case RAWPROBE_AGG_KEY_STACK:
			key[w] = c->stack_id;
			break;
		default:	/* RAWPROBE_AGG_KEY_ARG */
			if (unlikely(rp_argtype_is_str(p->spec.argtypes[a->key_args[i]]))) {
				w += rp_agg_key_str(p, a->key_args[i], c->args,
						    &key[w]);
				continue;
			}
			key[w] = (u64)rp_agg_arg(p, c, a->key_args[i]);
			break;
		}
		w++;
	}
	return w;
}

static __always_inline s64 rp_agg_value(const struct rawprobe_probe *p,
					const struct rp_agg_ctx *c)
{
	switch (p->spec.agg.value) {
	case RAWPROBE_AGG_VALUE_RETVAL:
		return (s64)c->retval;
	case RAWPROBE_AGG_VALUE_LATENCY:
		return (s64)c->latency_ns;
	case RAWPROBE_AGG_VALUE_ARG:
		return rp_agg_arg(p, c, p->spec.agg.value_arg);
	default:
		return 0;
	}
}

/* (inline in each hit path: a call and its frame cost a count's worth) */
static __always_inline void rp_agg_count(struct rawprobe_probe *p,
					 const struct rp_agg_ctx *c)
{
	struct rp_agg *agg = p->agg;
	/* (every word hashed is written first: not worth zeroing per hit) */
	u64 key[RP_AGG_KEY_WORDS_MAX] __uninitialized;
	struct rp_agg_table *t;

	rp_agg_key_fill(p, c, key);
	t = rp_agg_table_now(agg);
	/* (the probe's stack, or its start's: 0 when the table was full) */
	if (unlikely(agg->stacks.slots && !key[agg->stacks.key_word]))
		rp_agg_drop(t);
	else
		rp_agg_add(t, key, rp_agg_value(p, c));
}

/*
 * An entry probe counting by task keys alone (rp_agg_task_keys_ok()):
 * its filters, the key from current, the table. The commonest keyed
 * question ("how often, by which command?") pays no more than that.
 */
int rp_agg_kprobe_task_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	const struct rp_agg_ctx c = { .args = NULL };
	u64 key[RP_AGG_KEY_WORDS_MAX] __uninitialized;

	if (rp_emit_filtered(p, regs))
		return 0;
	rp_agg_key_fill(p, &c, key);
	rp_agg_add(rp_agg_table_now(p->agg), key, 0);
	return 0;
}
NOKPROBE_SYMBOL(rp_agg_kprobe_task_pre);

/* A comm the last hit did not have: the table's search. */
static noinline void rp_agg_comm_search(struct rp_agg_table *t)
{
	u64 key[2];

	memcpy(key, current->comm, sizeof(key));
	rp_agg_add(t, key, 0);
}
NOKPROBE_SYMBOL(rp_agg_comm_search);

/*
 * An entry probe counting by comm alone, bpftrace's @[comm] = count():
 * the key's two words compared in registers with the last hit's slot,
 * which a run of one task's calls finds every time.
 */
int rp_agg_kprobe_comm_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);
	struct rp_agg_table *t;
	u64 *slot, c0, c1;

	if (rp_emit_filtered(p, regs))
		return 0;
	t = rp_agg_table_now(p->agg);
	/*
	 * rp_agg_last() on two words in registers: an array here would be
	 * zeroed and guarded by a stack canary on every hit.
	 */
	memcpy(&c0, current->comm, sizeof(c0));
	memcpy(&c1, current->comm + sizeof(c0), sizeof(c1));
	slot = rp_read_once_ptr(&t->last);
	if (unlikely(!slot || slot[1] != c0 || slot[2] != c1)) {
		rp_agg_comm_search(t);
		return 0;
	}
	rp_local_inc(&t->hits);
	rp_local_inc(&slot[1 + 2 + RP_AGG_COUNT]);
	return 0;
}
NOKPROBE_SYMBOL(rp_agg_kprobe_comm_pre);

/*
 * The id of a stack in the probe's table (slot + 1), added if new; 0 if
 * the slots it may take are all someone else's. Other CPUs add stacks at
 * the same time: a slot is claimed by cmpxchg and published by a release
 * of its hash, after its frames.
 */
u64 rp_agg_stack_intern(struct rp_agg_stacks *st, const u64 *frames,
			unsigned int n)
{
	u64 h = rp_agg_hash(frames, n), *slot, sh;
	u32 i, at;

	for (i = 0; i < RP_AGG_PROBES && i <= st->mask; i++) {
		at = (u32)(h + i) & st->mask;
		slot = st->slots + (size_t)at * RP_AGG_STACK_WORDS;
		/* pairs with the release below: the frames are in */
		sh = smp_load_acquire(&slot[0]);
		if (!sh && !cmpxchg(&slot[0], 0, h | RP_AGG_BUSY)) {
			slot[1] = n;
			memcpy(&slot[2], frames, n * sizeof(*frames));
			/* the frames before the hash that says they are in */
			smp_store_release(&slot[0], h);
			return at + 1;
		}
		/*
		 * A slot being filled in (by another CPU, or by the writer
		 * this one interrupted) is passed by: its stack is unknown.
		 */
		if (sh == h && slot[1] == n &&
		    !memcmp(&slot[2], frames, n * sizeof(*frames)))
			return at + 1;
	}
	return 0;
}
NOKPROBE_SYMBOL(rp_agg_stack_intern);

/* The stack of a hit at a function's entry, interned: its id, or 0. */
u64 rp_agg_stack_id(struct rawprobe_probe *p, struct pt_regs *regs)
{
	u64 frames[RAWPROBE_STACK_MAX];

	return rp_agg_stack_intern(&p->agg->stacks, frames,
				   rp_stack_save(regs, frames));
}
NOKPROBE_SYMBOL(rp_agg_stack_id);

/* At a function's entry: its caller, its stack, when a key takes them. */
static __always_inline void rp_agg_entry_ctx(struct rawprobe_probe *p,
					     struct pt_regs *regs,
					     struct rp_agg_ctx *c)
{
	/* (a nofault load, or a tracepoint's walk: only for the caller key) */
	if (p->agg->want_caller)
		c->caller = regs->orig_ax == RP_REGS_TRACEPOINT ?
			    rp_stack_tp_caller(p) :
			    regs_get_kernel_stack_nth(regs, 0);
	if (p->agg->want_stack)
		c->stack_id = rp_agg_stack_id(p, regs);
}

/*
 * An entry probe's hit with arguments, as the probe computes them: out
 * of line, so that the hits without take no room for them (the kernel
 * zeroes every array on the stack at each call: INIT_STACK_ALL_ZERO).
 */
static noinline void rp_agg_hit_args(struct rawprobe_probe *p,
				     struct pt_regs *regs)
{
	u64 args[RAWPROBE_MAX_ARGS], raw[RAWPROBE_MAX_ARGS];
	struct rp_agg_ctx c = { .args = args };
	u8 faults = 0;

	if (p->spec.nfetch) {
		rp_args_fetch(p, regs, raw, p->nraw);
		rp_fetch_args(p, raw, 0, args, &faults);
	} else {
		rp_args_fetch(p, regs, args, p->spec.nargs);
	}
	rp_agg_entry_ctx(p, regs, &c);
	rp_agg_count(p, &c);
}
NOKPROBE_SYMBOL(rp_agg_hit_args);

/* An entry probe's hit. */
void rp_agg_hit_entry(struct rawprobe_probe *p, struct pt_regs *regs)
{
	struct rp_agg_ctx c = { .args = NULL };

	if (p->spec.nargs) {
		rp_agg_hit_args(p, regs);
		return;
	}
	rp_agg_entry_ctx(p, regs, &c);
	rp_agg_count(p, &c);
}
NOKPROBE_SYMBOL(rp_agg_hit_entry);

/* A pair's end (probes/pair.c): its arguments and the latency. */
void rp_agg_hit_latency(struct rawprobe_probe *p, struct pt_regs *regs,
			const u64 *args, u64 latency_ns, const u64 *start)
{
	struct rp_agg_ctx c = {
		.args = args, .latency_ns = latency_ns, .start = start,
	};

	rp_agg_entry_ctx(p, regs, &c);
	rp_agg_count(p, &c);
}
NOKPROBE_SYMBOL(rp_agg_hit_latency);

/* A kretprobe's return: what its entry stashed, the return value. */
void rp_agg_hit_return(struct rawprobe_probe *p, const u64 *args,
		       unsigned long caller, u64 stack_id, u64 retval,
		       u64 entry_ns)
{
	struct rp_agg_ctx c = {
		.args = args,
		.caller = caller,
		.stack_id = stack_id,
		.retval = retval,
	};

	if (p->spec.agg.value == RAWPROBE_AGG_VALUE_LATENCY)
		c.latency_ns = rp_agg_latency_ns(p->agg, entry_ns);
	rp_agg_count(p, &c);
}
NOKPROBE_SYMBOL(rp_agg_hit_return);
