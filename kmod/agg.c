// SPDX-License-Identifier: GPL-2.0
/*
 * Aggregation tables (RAWPROBE_F_AGG): what an aggregating probe pins,
 * allocated when it is added and freed with it, and the reads that end
 * an interval. The writer side is kmod/agg_core.h, called by the
 * handlers (probes/agg.c).
 *
 * Each CPU has two tables of nr_slots slots (twice the keys asked for,
 * a power of two, so that open addressing stays short). They are
 * allocated on the CPU's node, charged to the caller's memory cgroup,
 * and, before any of them is allocated, to the budget all netlink
 * probes share (budget.c), as the snapshots that reads take are.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include "agg.h"

/*
 * Large, and bounded by the budget rather than by what the allocator can
 * find: no retries that would wake the OOM killer, no warning.
 */
#define RP_AGG_GFP	(GFP_KERNEL_ACCOUNT | __GFP_NORETRY | __GFP_NOWARN)

/* The key's words: rp_agg_key_width()'s of each key. */
static u32 rp_agg_key_words(const struct rp_probe_spec *spec)
{
	u32 i, n = 0;

	for (i = 0; i < spec->agg.nkeys; i++)
		n += rp_agg_key_width(spec, i);
	return n;
}

static void rp_agg_shape_of(const struct rp_probe_spec *spec,
			    struct rp_agg_shape *shape)
{
	const struct rp_agg_spec *s = &spec->agg;

	memset(shape, 0, sizeof(*shape));
	shape->key_words = rp_agg_key_words(spec);
	if (s->value != RAWPROBE_AGG_VALUE_NONE)
		shape->flags |= RP_AGG_VAL_STATS;
	if (s->hist == RAWPROBE_AGG_HIST_LOG2) {
		shape->flags |= RP_AGG_VAL_LOG2;
		shape->nbuckets = RP_AGG_LOG2_BUCKETS;
	} else if (s->hist == RAWPROBE_AGG_HIST_LINEAR) {
		shape->flags |= RP_AGG_VAL_LINEAR;
		shape->nbuckets = s->lin_buckets;
		shape->lin_min = s->lin_min;
		shape->lin_step = s->lin_step;
	}
}

static u32 rp_agg_nr_slots(const struct rp_agg_spec *s)
{
	u32 keys = s->max_keys ?: RAWPROBE_AGG_KEYS_DEFAULT;

	return roundup_pow_of_two(2 * keys);
}

/* One table's slots */
static size_t rp_agg_table_bytes(const struct rp_probe_spec *spec)
{
	struct rp_agg_shape shape;

	rp_agg_shape_of(spec, &shape);
	return array3_size(rp_agg_nr_slots(&spec->agg),
			   rp_agg_slot_words(&shape), sizeof(u64));
}

/*
 * The key word of a stack key's id (the probe's stack, or a pair's
 * start's), or -1 without one.
 */
static int rp_agg_stack_word(const struct rp_probe_spec *spec)
{
	u32 i, w = 0;

	for (i = 0; i < spec->agg.nkeys; i++) {
		if (spec->agg.keys[i] == RAWPROBE_AGG_KEY_STACK ||
		    spec->agg.keys[i] == RAWPROBE_AGG_KEY_START_STACK)
			return w;
		w += rp_agg_key_width(spec, i);
	}
	return -1;
}

/* Does the probe intern its own stacks (not its pair's starts')? */
static bool rp_agg_own_stacks(const struct rp_probe_spec *spec)
{
	return memchr(spec->agg.keys, RAWPROBE_AGG_KEY_STACK, spec->agg.nkeys);
}

/*
 * A stack key's table: as many stacks as a CPU's table has slots. The
 * start stack key's is the pair's (pair.c), which interns its starts'.
 */
static size_t rp_agg_stacks_bytes(const struct rp_probe_spec *spec)
{
	if (!rp_agg_own_stacks(spec))
		return 0;
	return array3_size(rp_agg_nr_slots(&spec->agg), RP_AGG_STACK_WORDS,
			   sizeof(u64));
}

/*
 * What the probe's tables take: two per possible CPU, and the stacks
 * (SIZE_MAX on overflow, which no budget admits).
 */
u64 rp_agg_bytes(const struct rp_probe_spec *spec)
{
	return size_add(size_mul(rp_agg_table_bytes(spec),
				 2 * num_possible_cpus()),
			rp_agg_stacks_bytes(spec));
}

/*
 * The room a probe needs free to be added: its tables, and a read's copy
 * of them at their fullest (entries take a word less than their slots),
 * so that its first read finds room. Only the tables are charged: a read
 * charges its copy while a dump holds it.
 */
u64 rp_agg_room(const struct rp_probe_spec *spec)
{
	return size_add(rp_agg_bytes(spec),
			size_add(size_mul(rp_agg_table_bytes(spec),
					  num_possible_cpus()),
				 rp_agg_stacks_bytes(spec)));
}

/*
 * What a spec may ask, beyond the policy's bounds: keys and values the
 * probe kind has, arguments it records, a histogram of a value.
 */
static int rp_agg_check_key(const struct rp_probe_spec *spec, unsigned int i,
			    struct netlink_ext_ack *extack)
{
	const struct rp_agg_spec *a = &spec->agg;
	bool kret = spec->kind == RAWPROBE_KIND_KRETPROBE;

	switch (a->keys[i]) {
	case RAWPROBE_AGG_KEY_COMM:
	case RAWPROBE_AGG_KEY_PID:
	case RAWPROBE_AGG_KEY_TGID:
	case RAWPROBE_AGG_KEY_CPU:
		return 0;
	case RAWPROBE_AGG_KEY_CALLER:
	case RAWPROBE_AGG_KEY_STACK:
		if (!spec->offset && spec->symbol[0])
			return 0;
		NL_SET_ERR_MSG(extack,
			       "the caller and stack keys need a function's entry, by name (offset 0)");
		return -EINVAL;
	case RAWPROBE_AGG_KEY_START_COMM:
	case RAWPROBE_AGG_KEY_START_PID:
	case RAWPROBE_AGG_KEY_START_TGID:
	case RAWPROBE_AGG_KEY_START_STACK:
	case RAWPROBE_AGG_KEY_START_ARG:
		if (spec->pair.role != RAWPROBE_PAIR_END) {
			NL_SET_ERR_MSG(extack,
				       "the start_* keys are a pair's end's: its start's task, stack or arguments");
			return -EINVAL;
		}
		if (a->keys[i] == RAWPROBE_AGG_KEY_START_ARG &&
		    a->key_args[i] >= RAWPROBE_PAIR_CARRY_ARGS_MAX) {
			NL_SET_ERR_MSG(extack,
				       "a start argument key names one of the first four a start carries");
			return -EINVAL;
		}
		return 0;
	case RAWPROBE_AGG_KEY_RETVAL:
		if (kret)
			return 0;
		NL_SET_ERR_MSG(extack,
			       "the retval key is a kretprobe's: this probe sees no return");
		return -EINVAL;
	case RAWPROBE_AGG_KEY_ARG:
		if (a->key_args[i] < spec->nargs)
			return 0;
		NL_SET_ERR_MSG(extack,
			       "an argument key names an argument the probe does not record (--args)");
		return -EINVAL;
	default:
		NL_SET_ERR_MSG(extack, "unknown aggregation key");
		return -EINVAL;
	}
}

static int rp_agg_check_value(const struct rp_probe_spec *spec,
			      struct netlink_ext_ack *extack)
{
	const struct rp_agg_spec *a = &spec->agg;
	bool kret = spec->kind == RAWPROBE_KIND_KRETPROBE;
	bool pair_end = spec->pair.role == RAWPROBE_PAIR_END;

	if ((a->value == RAWPROBE_AGG_VALUE_RETVAL && !kret) ||
	    (a->value == RAWPROBE_AGG_VALUE_LATENCY && !kret && !pair_end)) {
		NL_SET_ERR_MSG(extack,
			       "retval and latency are a kretprobe's values (latency a pair's end's too): this probe sees no return");
		return -EINVAL;
	}
	if (a->value == RAWPROBE_AGG_VALUE_ARG && a->value_arg >= spec->nargs) {
		NL_SET_ERR_MSG(extack,
			       "the value names an argument the probe does not record (--args)");
		return -EINVAL;
	}
	if (a->hist && a->value == RAWPROBE_AGG_VALUE_NONE) {
		NL_SET_ERR_MSG(extack, "a histogram needs a value to bucket");
		return -EINVAL;
	}
	if (a->hist == RAWPROBE_AGG_HIST_LINEAR &&
	    (!a->lin_step || !a->lin_buckets ||
	     a->lin_buckets > RP_AGG_LIN_BUCKETS_MAX)) {
		NL_SET_ERR_MSG(extack,
			       "a linear histogram needs a step > 0 and 1 to 256 buckets");
		return -EINVAL;
	}
	return 0;
}

/*
 * An aggregating probe writes no record: a string argument (or an ip6
 * address) is there to be a key, read into the key at an entry probe's
 * hit (a kretprobe's keys are made at return, when the string its entry
 * pointed to may be gone).
 */
static int rp_agg_check_str(const struct rp_probe_spec *spec, unsigned int i,
			    struct netlink_ext_ack *extack)
{
	const struct rp_agg_spec *a = &spec->agg;
	unsigned int k;

	if (!rp_argtype_is_str(spec->argtypes[i]))
		return 0;
	/*
	 * A join is a record's string, made in the record's area; a key is
	 * a string's first bytes (as bpftrace's join() is no map key).
	 */
	if (rp_argtype_is_strv(spec->argtypes[i])) {
		NL_SET_ERR_MSG(extack,
			       "a string array (strv, ustrv) is printed, not a key");
		return -EINVAL;
	}
	if (spec->argtypes[i] == RAWPROBE_ARG_INET_SADDR ||
	    spec->argtypes[i] == RAWPROBE_ARG_INET_DADDR) {
		NL_SET_ERR_MSG(extack,
			       "a socket's address (:saddr, :daddr) is no key: a key is one family's");
		return -EINVAL;
	}
	if (spec->kind == RAWPROBE_KIND_KRETPROBE) {
		NL_SET_ERR_MSG(extack,
			       "a string key is read at an entry probe's hit: not in a kretprobe's aggregation");
		return -EINVAL;
	}
	for (k = 0; k < a->nkeys; k++)
		if (a->keys[k] == RAWPROBE_AGG_KEY_ARG && a->key_args[k] == i)
			return 0;
	NL_SET_ERR_MSG(extack,
		       "an aggregating probe writes no record: a string argument is only a key");
	return -EINVAL;
}

int rp_agg_check(const struct rp_probe_spec *spec,
		 struct netlink_ext_ack *extack)
{
	const struct rp_agg_spec *a = &spec->agg;
	unsigned int i;
	int err;

	if (!(spec->flags & RAWPROBE_F_AGG)) {
		if (!a->nkeys && !a->value && !a->hist && !a->max_keys)
			return 0;
		NL_SET_ERR_MSG(extack,
			       "aggregation attributes without RAWPROBE_F_AGG");
		return -EINVAL;
	}
	if (spec->flags & RAWPROBE_F_STACK) {
		NL_SET_ERR_MSG(extack,
			       "an aggregating probe writes no record: no --stack");
		return -EINVAL;
	}
	for (i = 0; i < spec->nargs; i++) {
		err = rp_agg_check_str(spec, i, extack);
		if (err)
			return err;
	}
	for (i = 0; i < a->nkeys; i++) {
		err = rp_agg_check_key(spec, i, extack);
		if (err)
			return err;
	}
	if (rp_agg_key_words(spec) > RP_AGG_KEY_WORDS_MAX) {
		NL_SET_ERR_MSG(extack,
			       "the keys take more than 64 bytes (a comm 16, a string 32, an ip6 16, the others 8)");
		return -EINVAL;
	}
	return rp_agg_check_value(spec, extack);
}

void rp_agg_free(struct rp_agg *agg)
{
	unsigned int cpu;

	if (!agg)
		return;
	if (agg->pcpu) {
		for_each_possible_cpu(cpu) {
			struct rp_agg_pcpu *pc = per_cpu_ptr(agg->pcpu, cpu);

			kvfree(pc->t[0].slots);
			kvfree(pc->t[1].slots);
		}
		free_percpu(agg->pcpu);
	}
	if (agg->want_stack)	/* else its pair's, or none */
		kvfree(agg->stacks.slots);
	rp_budget_uncharge(agg->charged);
	kfree(agg);
}

static int rp_agg_table_init(struct rp_agg *agg, struct rp_agg_table *t,
			     size_t bytes, int node)
{
	t->slots = kvzalloc_node(bytes, RP_AGG_GFP, node);
	if (!t->slots)
		return -ENOMEM;
	t->mask = agg->nr_slots - 1;
	t->shape = agg->shape;
	t->slot_words = rp_agg_slot_words(&agg->shape);
	return 0;
}

/*
 * Every table zeroed, on its CPU's node, once the budget took their
 * bytes: ERR_PTR(-E2BIG) when it cannot, -ENOMEM when they are not found.
 */
struct rp_agg *rp_agg_alloc(const struct rp_probe_spec *pspec)
{
	const struct rp_agg_spec *spec = &pspec->agg;
	size_t table = rp_agg_table_bytes(pspec);
	u64 bytes = rp_agg_bytes(pspec);
	struct rp_agg *agg;
	unsigned int cpu;

	if (!rp_budget_fits(rp_agg_room(pspec)) || !rp_budget_charge(bytes))
		return ERR_PTR(-E2BIG);
	agg = kzalloc(sizeof(*agg), GFP_KERNEL_ACCOUNT);
	if (!agg) {
		rp_budget_uncharge(bytes);
		return ERR_PTR(-ENOMEM);
	}
	agg->charged = bytes;
	mutex_init(&agg->lock);
	agg->spec = *spec;
	rp_agg_shape_of(pspec, &agg->shape);
	agg->nr_slots = rp_agg_nr_slots(spec);
	agg->counts_only = !spec->nkeys &&
			   rp_agg_val_words(&agg->shape) == 1;
	agg->want_caller = !!memchr(spec->keys, RAWPROBE_AGG_KEY_CALLER,
				    spec->nkeys);
	agg->want_stack = rp_agg_own_stacks(pspec);
	if (rp_clock_tsc_khz())
		agg->tsc_mult = div_u64((u64)NSEC_PER_MSEC << RP_AGG_TSC_SHIFT,
					rp_clock_tsc_khz());
	agg->pcpu = alloc_percpu_gfp(struct rp_agg_pcpu, GFP_KERNEL_ACCOUNT);
	if (!agg->pcpu)
		goto fail;
	for_each_possible_cpu(cpu) {
		struct rp_agg_pcpu *pc = per_cpu_ptr(agg->pcpu, cpu);

		if (rp_agg_table_init(agg, &pc->t[0], table, cpu_to_node(cpu)) ||
		    rp_agg_table_init(agg, &pc->t[1], table, cpu_to_node(cpu)))
			goto fail;
	}
	agg->stacks.key_word = max(rp_agg_stack_word(pspec), 0);
	if (agg->want_stack) {
		agg->stacks.slots = kvzalloc(rp_agg_stacks_bytes(pspec),
					     RP_AGG_GFP);
		if (!agg->stacks.slots)
			goto fail;
		agg->stacks.mask = agg->nr_slots - 1;
	}
	agg->start_ns = ktime_get_ns();
	return agg;
fail:
	rp_agg_free(agg);
	return ERR_PTR(-ENOMEM);
}

/* Old tables' entries: how many, to size the snapshot. */
static u32 rp_agg_count_used(struct rp_agg *agg, unsigned int e)
{
	unsigned int cpu;
	u32 i, n = 0;

	for_each_possible_cpu(cpu) {
		struct rp_agg_table *t = &per_cpu_ptr(agg->pcpu, cpu)->t[e];

		for (i = 0; i < agg->nr_slots; i++)
			n += t->slots[(size_t)i * t->slot_words] != 0;
	}
	return n;
}

/* A table no writer is in any more, emptied for its next epoch. */
static void rp_agg_clear(struct rp_agg_table *t)
{
	memset(t->slots, 0, (size_t)(t->mask + 1) * t->slot_words * sizeof(u64));
	t->last = NULL;
	t->hits = 0;
	t->dropped = 0;
}

/* Copy one table's entries and counters into snap, then clear it. */
static void rp_agg_take(struct rp_agg_table *t, struct rp_agg_snapshot *snap)
{
	u32 words = snap->key_words + snap->val_words, i;
	u64 *slot;

	for (i = 0; i <= t->mask; i++) {
		slot = t->slots + (size_t)i * t->slot_words;
		if (!slot[0])
			continue;
		memcpy(&snap->words[(size_t)snap->n * words], slot + 1,
		       words * sizeof(u64));
		snap->n++;
	}
	snap->hits += t->hits;
	snap->dropped += t->dropped;
	rp_agg_clear(t);
}

/* The stack the id names: its slot, or NULL for no id of the table. */
static const u64 *rp_agg_stack_slot(const struct rp_agg_stacks *st, u64 id)
{
	if (!id || id - 1 > st->mask)
		return NULL;
	return st->slots + (size_t)(id - 1) * RP_AGG_STACK_WORDS;
}

/*
 * The stacks the old tables' entries name, marked in *seen (NULL without
 * a stack key); *n how many. Their slots were filled in before the hits
 * that name them were counted, by writers now gone (the grace period):
 * they read whole, while writers of the new interval may be filling in
 * others.
 */
static int rp_agg_mark_stacks(const struct rp_agg *agg, unsigned int e,
			      unsigned long **seen, u32 *n)
{
	const struct rp_agg_stacks *st = &agg->stacks;
	unsigned int cpu;
	const u64 *slot;
	u32 i;
	u64 id;

	*seen = NULL;
	*n = 0;
	if (!st->slots)
		return 0;
	*seen = bitmap_zalloc(st->mask + 1, GFP_KERNEL);
	if (!*seen)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		const struct rp_agg_table *t = &per_cpu_ptr(agg->pcpu, cpu)->t[e];

		for (i = 0; i <= t->mask; i++) {
			slot = t->slots + (size_t)i * t->slot_words;
			if (!slot[0])
				continue;
			id = slot[1 + st->key_word];
			if (rp_agg_stack_slot(st, id) &&
			    !__test_and_set_bit(id - 1, *seen))
				(*n)++;
		}
	}
	return 0;
}

/* Copy the stacks seen marks into the snapshot. */
static void rp_agg_take_stacks(const struct rp_agg_stacks *st,
			       const unsigned long *seen,
			       struct rp_agg_snapshot *snap)
{
	u64 *out;
	u32 i;

	for_each_set_bit(i, seen, st->mask + 1) {
		out = &snap->stacks[(size_t)snap->nstacks * RP_AGG_STACK_WORDS];
		out[0] = i + 1;
		memcpy(out + 1, rp_agg_stack_slot(st, i + 1) + 1,
		       (RP_AGG_STACK_WORDS - 1) * sizeof(u64));
		snap->nstacks++;
	}
}

/*
 * A snapshot for the old tables' n entries and nstacks stacks, charged
 * to the budget first: a dump can hold it for as long as its reader
 * waits, and many readers can each hold one.
 */
static struct rp_agg_snapshot *rp_agg_snapshot_alloc(const struct rp_agg *agg,
						     u32 n, u32 nstacks)
{
	u32 words = agg->shape.key_words + rp_agg_val_words(&agg->shape);
	size_t bytes = struct_size_t(struct rp_agg_snapshot, words,
				     size_mul(n, words));
	size_t sbytes = array3_size(nstacks, RP_AGG_STACK_WORDS, sizeof(u64));
	struct rp_agg_snapshot *snap;

	if (!rp_budget_charge(size_add(bytes, sbytes)))
		return ERR_PTR(-E2BIG);
	snap = kvzalloc(bytes, RP_AGG_GFP);
	if (snap && sbytes) {
		snap->stacks = kvmalloc(sbytes, RP_AGG_GFP);
		if (!snap->stacks) {
			kvfree(snap);
			snap = NULL;
		}
	}
	if (!snap) {
		rp_budget_uncharge(size_add(bytes, sbytes));
		return ERR_PTR(-ENOMEM);
	}
	snap->charged = size_add(bytes, sbytes);
	snap->key_words = agg->shape.key_words;
	snap->val_words = rp_agg_val_words(&agg->shape);
	snap->stack_word = agg->stacks.slots ? agg->stacks.key_word : -1;
	return snap;
}

/*
 * End the interval: writers go to the other tables (cleared at the last
 * read), a grace period later none is left in these, which are then
 * copied and cleared for the next switch. Sleeps (synchronize_rcu()).
 * When the snapshot cannot be had, writers are sent back to these
 * tables, which keep every hit for the next read: ERR_PTR(-E2BIG) over
 * the budget, -ENOMEM without memory.
 */
struct rp_agg_snapshot *rp_agg_read(struct rp_agg *agg)
{
	struct rp_agg_snapshot *snap;
	unsigned long *seen;
	unsigned int e, cpu;
	u32 nstacks;
	u64 end;
	int err;

	mutex_lock(&agg->lock);
	e = agg->epoch & 1;
	/* the other tables were cleared before: pairs with the writers' acquire */
	smp_store_release(&agg->epoch, agg->epoch + 1);
	end = ktime_get_ns();
	synchronize_rcu();
	err = rp_agg_mark_stacks(agg, e, &seen, &nstacks);
	snap = err ? ERR_PTR(err) :
	       rp_agg_snapshot_alloc(agg, agg->counts_only ? 1 :
				     rp_agg_count_used(agg, e), nstacks);
	if (IS_ERR(snap)) {
		/* back to the tables kept whole: pairs with the writers' acquire */
		smp_store_release(&agg->epoch, agg->epoch + 1);
		goto out;
	}
	snap->start_ns = agg->start_ns;
	snap->end_ns = end;
	for_each_possible_cpu(cpu)
		rp_agg_take(&per_cpu_ptr(agg->pcpu, cpu)->t[e], snap);
	agg->start_ns = end;
	if (agg->counts_only && snap->hits) {
		snap->words[0] = snap->hits;	/* the one entry: no key */
		snap->n = 1;
	}
	if (seen)
		rp_agg_take_stacks(&agg->stacks, seen, snap);
out:
	bitmap_free(seen);
	mutex_unlock(&agg->lock);
	return snap;
}

void rp_agg_snapshot_free(struct rp_agg_snapshot *snap)
{
	if (!snap)
		return;
	rp_budget_uncharge(snap->charged);
	kvfree(snap->stacks);
	kvfree(snap);
}

