// SPDX-License-Identifier: GPL-2.0
/*
 * Pairs: the latency between two probes, keyed by the object that links
 * them (bpftrace's @start[arg0] = nsecs ... delete(@start[arg0]), ftrace's
 * synthetic events), measured in the kernel. A batch's probes that carry
 * RAWPROBE_A_PAIR share one table of starts (pair_core.h): each start
 * stores the time under its key, each end takes its key's start out and
 * counts the time since in its aggregation (RAWPROBE_AGG_VALUE_LATENCY),
 * or writes a record of it (an end without aggregation: its own record,
 * with the start's task and the latency; the starts carry their task).
 *
 * The table is what a pair pins: charged to the caller's memory cgroup
 * and to the budget all netlink probes share (budget.c), bounded by
 * max_keys as an aggregation's tables are. Each probe of the pair holds
 * a reference, dropped when it is freed, after it is unregistered: no
 * handler can see the table go.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "pair.h"

#define RP_PAIR_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NORETRY | __GFP_NOWARN)
#define RP_PAIR_TSC_SHIFT	22

/* A pair's key: the task's, or an argument the probe computes. */
static int rp_pair_check_key(const struct rp_probe_spec *spec,
			     struct netlink_ext_ack *extack)
{
	const struct rp_pair_spec *ps = &spec->pair;

	switch (ps->key) {
	case RAWPROBE_AGG_KEY_PID:
	case RAWPROBE_AGG_KEY_TGID:
		return 0;
	case RAWPROBE_AGG_KEY_ARG:
		if (ps->key_arg < spec->nargs &&
		    !rp_argtype_is_str(spec->argtypes[ps->key_arg]))
			return 0;
		NL_SET_ERR_MSG(extack,
			       "a pair's key argument must be one the probe computes (--args), and not a string");
		return -EINVAL;
	default:
		NL_SET_ERR_MSG(extack,
			       "a pair's key is pid, tgid or an argument");
		return -EINVAL;
	}
}

/*
 * Value-filter terms on the latency (src RAWPROBE_FETCH_RETVAL): an end
 * that writes records tests them once it found its start, the others at
 * entry, so they are joined by && only; a latency is a number, no
 * pointer to load from.
 */
static int rp_pair_check_terms(const struct rp_probe_spec *spec,
			       struct netlink_ext_ack *extack)
{
	bool lat = false, or = false;
	unsigned int i;

	for (i = 0; i < spec->nterms; i++) {
		const struct rawprobe_value_term *t = &spec->terms[i];

		or |= t->flags & RAWPROBE_TERM_OR;
		if (t->fetch.src != RAWPROBE_FETCH_RETVAL)
			continue;
		lat = true;
		if (t->fetch.nloads || t->cmp >= RAWPROBE_CMP_STR_EQ) {
			NL_SET_ERR_MSG(extack,
				       "a pair's latency is a number: compare it, load nothing from it");
			return -EINVAL;
		}
	}
	if (!lat)
		return 0;
	if (spec->pair.role != RAWPROBE_PAIR_END ||
	    (spec->flags & RAWPROBE_F_AGG)) {
		NL_SET_ERR_MSG(extack,
			       "a filter on the latency is an end's that writes records (a histogram counts every latency)");
		return -EINVAL;
	}
	if (or) {
		NL_SET_ERR_MSG(extack,
			       "a filter on the latency joins its terms with && only");
		return -EINVAL;
	}
	return 0;
}

/* What a start or an end may be, beyond the policy's bounds. */
int rp_pair_check(const struct rp_probe_spec *spec,
		  struct netlink_ext_ack *extack)
{
	const struct rp_pair_spec *ps = &spec->pair;
	bool agg = spec->flags & RAWPROBE_F_AGG;

	if (!ps->role)
		return 0;
	if (spec->kind != RAWPROBE_KIND_KPROBE &&
	    spec->kind != RAWPROBE_KIND_JPROBE &&
	    spec->kind != RAWPROBE_KIND_TRACEPOINT) {
		NL_SET_ERR_MSG(extack,
			       "a pair's start and end are entry probes (kprobe, jprobe) or tracepoints");
		return -EINVAL;
	}
	if (spec->ovr.set || spec->chain_step ||
	    (spec->flags & RAWPROBE_F_STACK)) {
		NL_SET_ERR_MSG(extack,
			       "a pair's probe takes no override, call-chain step or --stack");
		return -EINVAL;
	}
	if (ps->role == RAWPROBE_PAIR_START && agg) {
		NL_SET_ERR_MSG(extack,
			       "a pair's start stores the time and counts nothing: aggregation belongs to the end");
		return -EINVAL;
	}
	if (memchr(spec->agg.keys, RAWPROBE_AGG_KEY_STACK, spec->agg.nkeys) &&
	    memchr(spec->agg.keys, RAWPROBE_AGG_KEY_START_STACK,
		   spec->agg.nkeys)) {
		NL_SET_ERR_MSG(extack,
			       "an end counts by one stack: its own or its start's");
		return -EINVAL;
	}
	if (ps->carry_args > (ps->role == RAWPROBE_PAIR_START ?
			      spec->nargs : 0)) {
		NL_SET_ERR_MSG(extack,
			       "a pair's start carries some of the arguments it computes (--args), an end none");
		return -EINVAL;
	}
	/* without aggregation, an end writes a record per completed pair */
	if (ps->role == RAWPROBE_PAIR_END && agg &&
	    spec->agg.value != RAWPROBE_AGG_VALUE_LATENCY) {
		NL_SET_ERR_MSG(extack,
			       "a pair's end aggregates the latency (agg-value latency), or writes records");
		return -EINVAL;
	}
	return rp_pair_check_key(spec, extack) ?:
	       rp_pair_check_terms(spec, extack);
}

/* Starts and ends, at least one each, agreeing on the table's size. */
static int rp_pair_members(struct rawprobe_probe **v, unsigned int n,
			   const struct rp_pair_spec **first,
			   struct netlink_ext_ack *extack, int *failed)
{
	unsigned int i, starts = 0, ends = 0;

	*first = NULL;
	for (i = 0; i < n; i++) {
		const struct rp_pair_spec *ps = &v[i]->spec.pair;

		if (!ps->role)
			continue;
		starts += ps->role == RAWPROBE_PAIR_START;
		ends += ps->role == RAWPROBE_PAIR_END;
		if (!*first) {
			*first = ps;
		} else if (ps->max_keys != (*first)->max_keys ||
			   ps->expire_ms != (*first)->expire_ms) {
			*failed = i;
			NL_SET_ERR_MSG(extack,
				       "a pair's probes share one table: give each the same max-keys and expire-ms");
			return -EINVAL;
		}
	}
	if (*first && (!starts || !ends)) {
		NL_SET_ERR_MSG(extack,
			       "a pair needs a start and an end in the same batch");
		return -EINVAL;
	}
	return 0;
}

static void rp_pair_free(struct rawprobe_pair *pair)
{
	free_percpu(pair->stats);
	kvfree(pair->stacks.slots);
	kvfree(pair->t.slots);
	rp_budget_uncharge(pair->charged);
	kfree(pair);
}

void rp_pair_put_ref(struct rawprobe_pair *pair)
{
	if (pair && refcount_dec_and_test(&pair->ref))
		rp_pair_free(pair);
}

/* The expiry in the clock's units: ms by the TSC's kHz, or ns. */
static u64 rp_pair_expire(u32 ms)
{
	u32 khz = rp_clock_tsc_khz();

	return (u64)ms * (khz ? khz : NSEC_PER_MSEC);
}

/* The expiry and the clock's conversion, once the tables are in. */
static void rp_pair_init(struct rawprobe_pair *pair, u32 nr, u32 stride,
			 u32 expire_ms, unsigned int users)
{
	refcount_set(&pair->ref, users);
	pair->nr_slots = nr;
	rp_pair_table_init(&pair->t, pair->t.slots, nr, stride,
			   rp_pair_expire(expire_ms));
	if (rp_clock_tsc_khz())
		pair->tsc_mult = div_u64((u64)NSEC_PER_MSEC << RP_PAIR_TSC_SHIFT,
					 rp_clock_tsc_khz());
}

/**
 * rp_pair_new() - a table of starts and its counts
 * @max_keys: starts it has room for at least (0: the default)
 * @expire_ms: a start older is dropped (0: never)
 * @users: references: the probes that share it
 * @charge: charged to the budget netlink probes share (a probe module's
 *	pair is its code's business, as its kretprobes are)
 * @carry: words each start carries to its end (kmod/pair.h's layout: 0,
 *	its task, or its task, stack and arguments)
 * @stack_slots: the starts' stack table's slots, a power of two (0: none)
 * @extack: why not, for a netlink caller (or NULL)
 *
 * Return: the pair, or ERR_PTR(-E2BIG) over the budget, -ENOMEM.
 */
struct rawprobe_pair *rp_pair_new(u32 max_keys, u32 expire_ms,
				  unsigned int users, bool charge, u32 carry,
				  u32 stack_slots,
				  struct netlink_ext_ack *extack)
{
	u32 nr = roundup_pow_of_two(2 * (max_keys ?: RAWPROBE_AGG_KEYS_DEFAULT));
	u32 stride = RP_PAIR_SLOT_WORDS + carry;
	u64 tbytes = (u64)nr * stride * sizeof(u64);
	u64 sbytes = (u64)stack_slots * RP_AGG_STACK_WORDS * sizeof(u64);
	struct rawprobe_pair *pair;

	if (charge && !rp_budget_charge(tbytes + sbytes)) {
		NL_SET_ERR_MSG(extack,
			       "the pair's table would take the probes past the sixteenth of RAM they share: ask for fewer --max-keys, or remove probes");
		return ERR_PTR(-E2BIG);
	}
	pair = kzalloc(sizeof(*pair), GFP_KERNEL_ACCOUNT);
	if (!pair) {
		if (charge)
			rp_budget_uncharge(tbytes + sbytes);
		goto nomem;
	}
	pair->charged = charge ? tbytes + sbytes : 0;
	pair->t.slots = kvzalloc(tbytes, RP_PAIR_GFP);
	pair->stats = alloc_percpu_gfp(struct rp_pair_stats,
				       GFP_KERNEL_ACCOUNT);
	if (stack_slots) {
		pair->stacks.slots = kvzalloc(sbytes, RP_PAIR_GFP);
		pair->stacks.mask = stack_slots - 1;
	}
	if (!pair->t.slots || !pair->stats ||
	    (stack_slots && !pair->stacks.slots)) {
		rp_pair_free(pair);
		goto nomem;
	}
	rp_pair_init(pair, nr, stride, expire_ms, users);
	return pair;
nomem:
	NL_SET_ERR_MSG(extack,
		       "not enough memory for the pair's table (or over the caller's memory cgroup limit): ask for fewer --max-keys");
	return ERR_PTR(-ENOMEM);
}

/* What the starts carry to the ends, and the stack table it takes. */
struct rp_pair_need {
	u32 carry;			/* words */
	u32 stack_slots;
};

/*
 * An end's start argument key j: each start carries it, and not as a
 * string (a carried word is a number; a string's is its address).
 */
static int rp_pair_check_carried(struct rawprobe_probe **v, unsigned int n,
				 u8 j, struct netlink_ext_ack *extack,
				 int *failed)
{
	const struct rp_probe_spec *s;
	unsigned int i;

	for (i = 0; i < n; i++) {
		s = &v[i]->spec;
		if (s->pair.role != RAWPROBE_PAIR_START ||
		    (j < s->pair.carry_args && !rp_argtype_is_str(s->argtypes[j])))
			continue;
		*failed = i;
		NL_SET_ERR_MSG(extack,
			       "an end counts by an argument of its start: each start carries it (carry-args), and not a string");
		return -EINVAL;
	}
	return 0;
}

/* An end's needs: its start's task, stack or arguments. */
static int rp_pair_need_end(struct rawprobe_probe **v, unsigned int n,
			    unsigned int e, u32 carry_args,
			    struct rp_pair_need *need,
			    struct netlink_ext_ack *extack, int *failed)
{
	const struct rp_probe_spec *s = &v[e]->spec;
	unsigned int k;
	int err;

	if (!(s->flags & RAWPROBE_F_AGG) || rp_pair_start_keys(s))
		need->carry = max_t(u32, need->carry, RP_PAIR_CARRY_TASK);
	for (k = 0; k < s->agg.nkeys; k++) {
		if (s->agg.keys[k] == RAWPROBE_AGG_KEY_START_STACK) {
			need->stack_slots = max(need->stack_slots,
						v[e]->agg->nr_slots);
		} else if (s->agg.keys[k] == RAWPROBE_AGG_KEY_START_ARG) {
			err = rp_pair_check_carried(v, n, s->agg.key_args[k],
						    extack, failed);
			if (err)
				return err;
		} else {
			continue;
		}
		need->carry = RP_PAIR_CARRY_ARG0 + carry_args;
	}
	return 0;
}

static int rp_pair_needs(struct rawprobe_probe **v, unsigned int n,
			 struct rp_pair_need *need,
			 struct netlink_ext_ack *extack, int *failed)
{
	u32 carry_args = 0;
	unsigned int i;
	int err;

	memset(need, 0, sizeof(*need));
	for (i = 0; i < n; i++)
		if (v[i]->spec.pair.role == RAWPROBE_PAIR_START)
			carry_args = max_t(u32, carry_args,
					   v[i]->spec.pair.carry_args);
	for (i = 0; i < n; i++) {
		if (v[i]->spec.pair.role != RAWPROBE_PAIR_END)
			continue;
		err = rp_pair_need_end(v, n, i, carry_args, need, extack,
				       failed);
		if (err)
			return err;
	}
	return 0;
}

/*
 * A batch's starts and ends get one table (and the ends that count by
 * their starts' stacks, its stack table). On failure nothing is set and
 * *failed says which probe, or -1 for the batch.
 */
int rp_pair_setup(struct rawprobe_probe **v, unsigned int n,
		  struct netlink_ext_ack *extack, int *failed)
{
	const struct rp_pair_spec *first;
	struct rp_pair_need need;
	unsigned int i, users = 0;
	struct rawprobe_pair *pair;
	int err;

	*failed = -1;
	err = rp_pair_members(v, n, &first, extack, failed);
	if (err || !first)
		return err;
	err = rp_pair_needs(v, n, &need, extack, failed);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		users += !!v[i]->spec.pair.role;
	pair = rp_pair_new(first->max_keys, first->expire_ms, users, true,
			   need.carry, need.stack_slots, extack);
	if (IS_ERR(pair))
		return PTR_ERR(pair);
	for (i = 0; i < n; i++) {
		if (!v[i]->spec.pair.role)
			continue;
		v[i]->pair = pair;
		/* (an end's start stack key reads the pair's stacks) */
		if (v[i]->agg && !v[i]->agg->want_stack &&
		    memchr(v[i]->spec.agg.keys, RAWPROBE_AGG_KEY_START_STACK,
			   v[i]->spec.agg.nkeys)) {
			v[i]->agg->stacks.slots = pair->stacks.slots;
			v[i]->agg->stacks.mask = pair->stacks.mask;
		}
	}
	return 0;
}

/*
 * The counts of every CPU, after a sweep that takes the expired starts
 * out: a start whose end never comes is counted here, not only when a
 * later start needs its slot.
 */
void rp_pair_read_stats(struct rawprobe_pair *pair, struct rp_pair_stats *s,
			u64 *pending)
{
	u64 swept = rp_pair_sweep(&pair->t, rp_pair_clock(pair), pending);
	unsigned int cpu;

	if (swept)
		this_cpu_add(pair->stats->expired, swept);
	memset(s, 0, sizeof(*s));
	for_each_possible_cpu(cpu) {
		const struct rp_pair_stats *c = per_cpu_ptr(pair->stats, cpu);

		s->starts += READ_ONCE(c->starts);
		s->matched += READ_ONCE(c->matched);
		s->no_start += READ_ONCE(c->no_start);
		s->full += READ_ONCE(c->full);
		s->expired += READ_ONCE(c->expired);
		s->replaced += READ_ONCE(c->replaced);
	}
}
