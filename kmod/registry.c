// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table: ids, duplicates, insertion and removal, enable and
 * disable, statistics and state-change events. What a spec may ask is
 * registry_check.c's, registering with kprobes registry_arm.c's, other
 * modules' probes registry_custom.c's.
 *
 * All changes happen under rp_registry_lock (a mutex: registering and
 * unregistering kprobes sleeps). Probe handlers never take it; they only
 * touch their own probe, which stays valid until unregister_*probe()
 * has waited for every running handler. Netlink requests wait for it
 * killably: behind a batch of thousands (minutes under TCG) their caller
 * can still be killed, and the hung-task detector, which watches
 * uninterruptible sleeps, stays quiet. The module notifier, the socket
 * reaper and rmmod must not give up, and wait as before.
 *
 * Who else changes the table: owner.c (a socket's probes go with it) and
 * modules.c (probes on module code go and come back with the module).
 * Events go to a notifier chain, so that genl_probe.c, which announces
 * them, stays a layer above the table.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hashtable.h>
#include <linux/idr.h>
#include <linux/jhash.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/slab.h>
#include "inject.h"
#include "pair.h"
#include "registry.h"
#include "session.h"

DEFINE_MUTEX(rp_registry_lock);
LIST_HEAD(rp_probes);
static DEFINE_IDR(rp_probe_ids);
/*
 * The table's probes by target (kind, symbol, module, offset, address),
 * for the duplicate check: a batch of n probes against a table of m costs
 * n lookups, not n * (m + n) comparisons (10,000 probes: 10^8).
 */
static DEFINE_HASHTABLE(rp_probe_hash, 10);
static u32 rp_nr_probes;
static BLOCKING_NOTIFIER_HEAD(rp_probe_events);

/* Listeners get (enum rawprobe_event, probe) under the registry lock. */
int rp_probe_events_register(struct notifier_block *nb)
{
	return blocking_notifier_chain_register(&rp_probe_events, nb);
}

void rp_probe_events_unregister(struct notifier_block *nb)
{
	blocking_notifier_chain_unregister(&rp_probe_events, nb);
}

void rp_probe_event(struct rawprobe_probe *p, u8 event)
{
	blocking_notifier_call_chain(&rp_probe_events, event, p);
}

/*
 * A filter is its terms and the string constants they point into: two
 * string terms at the same offset compare against different strings.
 */
static bool rp_filter_same(const struct rp_probe_spec *a,
			   const struct rp_probe_spec *b)
{
	return !memcmp(&a->filter, &b->filter, sizeof(a->filter)) &&
	       a->nterms == b->nterms &&
	       !memcmp(a->terms, b->terms, a->nterms * sizeof(a->terms[0])) &&
	       a->strs_len == b->strs_len &&
	       !memcmp(a->strs, b->strs, a->strs_len);
}

/* The same arguments, read the same way, shown under the same names. */
static bool rp_args_same(const struct rp_probe_spec *a,
			 const struct rp_probe_spec *b)
{
	return a->nargs == b->nargs && a->str_max == b->str_max &&
	       !memcmp(a->argtypes, b->argtypes, sizeof(a->argtypes)) &&
	       !memcmp(a->str_len_arg, b->str_len_arg,
		       sizeof(a->str_len_arg)) &&
	       a->nfetch == b->nfetch &&
	       !memcmp(a->fetch, b->fetch, a->nfetch * sizeof(a->fetch[0])) &&
	       !strcmp(a->arg_names, b->arg_names);
}

/*
 * Same session, target, arguments, filter, aggregation and override: a
 * second such probe only doubles the work. Anything else is another
 * probe: another session's reader must see its own records, and other
 * arguments are other records (or keys: a string's length bound reads
 * other keys).
 */
static bool rp_spec_same(const struct rp_probe_spec *a,
			 const struct rp_probe_spec *b)
{
	return a->sess == b->sess &&
	       a->kind == b->kind && a->offset == b->offset &&
	       !((a->flags ^ b->flags) & RAWPROBE_F_AGG) &&
	       !memcmp(&a->agg, &b->agg, sizeof(a->agg)) &&
	       a->addr == b->addr && !strcmp(a->symbol, b->symbol) &&
	       !strcmp(a->module, b->module) &&
	       rp_filter_same(a, b) && rp_args_same(a, b) &&
	       !memcmp(&a->ovr, &b->ovr, sizeof(a->ovr)) &&
	       a->chain_step == b->chain_step &&
	       !memcmp(&a->pair, &b->pair, sizeof(a->pair));
}

/*
 * The word at offset 16 of a probe's records (probe_id, kind, flags; the
 * writer adds the CPU), made when the probe is inserted: the clock
 * changes only while the registry is empty, so the flag that says which
 * clock ts_ns is stays right for the probe's life; a kretprobe's records
 * all carry a return value.
 */
static u64 rp_rec_hdr(const struct rawprobe_probe *p)
{
	u8 flags = rp_clock_get() == RAWPROBE_CLOCK_TSC ? RAWPROBE_REC_TSC : 0;

	if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
		flags |= RAWPROBE_REC_RETVAL;
	return (u64)p->id | (u64)p->spec.kind << 32 | (u64)flags << 40;
}

static u32 rp_spec_hash(const struct rp_probe_spec *s)
{
	u32 h = jhash(s->symbol, strnlen(s->symbol, sizeof(s->symbol)),
		      s->kind);

	h = jhash(s->module, strnlen(s->module, sizeof(s->module)), h);
	return jhash_3words((u32)s->offset, (u32)s->addr,
			    (u32)(s->addr >> 32), h);
}

/* A probe of the table, or of the batch being inserted, the same as spec. */
static struct rawprobe_probe *rp_find_same(const struct rp_probe_spec *spec)
{
	struct rawprobe_probe *p;

	hash_for_each_possible(rp_probe_hash, p, hnode, rp_spec_hash(spec))
		if (!p->desc && rp_spec_same(&p->spec, spec))
			return p;
	return NULL;
}

void rp_probe_free(struct rawprobe_probe *p)
{
	if (rcu_access_pointer(p->rings))
		rp_ring_detach_probe(p->spec.sess, p);
	rp_session_put(p->spec.sess);
	rp_agg_free(p->agg);
	rp_budget_uncharge(p->pinned);
	rp_inject_put(p->inj);
	rp_pair_put_ref(p->pair);
	rp_tp_release(p);
	free_percpu(p->stats);
	kfree(p);
}

/*
 * Unregister, then unlink, announce and free what is no longer registered;
 * caller holds the lock. Returns how many the kernel kept (see above).
 */
static unsigned int rp_remove_locked(struct rawprobe_probe **v,
				     unsigned int n)
{
	unsigned int i, kept = 0;

	rp_unregister_batch(v, n);
	for (i = 0; i < n; i++) {
		if (v[i]->registered) {
			kept++;
			continue;
		}
		list_del(&v[i]->node);
		hash_del(&v[i]->hnode);
		idr_remove(&rp_probe_ids, v[i]->id);
		rp_nr_probes--;
		rp_probe_event(v[i], RAWPROBE_EVENT_REMOVED);
		rp_probe_free(v[i]);
	}
	return kept;
}

/* Remove the probes pred matches; returns how many the kernel kept. */
unsigned int rp_remove_matching(bool (*pred)(struct rawprobe_probe *p,
					     const void *arg),
				const void *arg)
{
	struct rawprobe_probe *p, **v;
	unsigned int n = 0, kept = 0;

	lockdep_assert_held(&rp_registry_lock);
	v = kmalloc_array(max(rp_nr_probes, 1U), sizeof(*v), GFP_KERNEL);
	if (!v) {
		/* Fall back to one at a time. */
		struct rawprobe_probe *tmp;

		list_for_each_entry_safe(p, tmp, &rp_probes, node)
			if (pred(p, arg))
				kept += rp_remove_locked(&p, 1);
		return kept;
	}
	list_for_each_entry(p, &rp_probes, node)
		if (pred(p, arg))
			v[n++] = p;
	kept = rp_remove_locked(v, n);
	kfree(v);
	return kept;
}

/*
 * Where the probes must go (their handlers' module is leaving), the
 * kernel's refusals, which come from failed allocations, are waited out.
 */
void rp_remove_all_matching(bool (*pred)(struct rawprobe_probe *p,
					 const void *arg),
			    const void *arg)
{
	lockdep_assert_held(&rp_registry_lock);
	while (rp_remove_matching(pred, arg))
		msleep(100);
}

/* A spec marked persistent has no owner, whoever sent it. */
struct rawprobe_probe *rp_probe_alloc(const struct rp_probe_spec *spec,
				      struct rp_owner *own)
{
	struct rawprobe_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->stats = alloc_percpu(struct rp_probe_stats);
	if (!p->stats) {
		kfree(p);
		return NULL;
	}
	p->spec = *spec;
	if (!p->spec.sess)
		p->spec.sess = rp_session_default();
	rp_session_get(p->spec.sess);
	p->owner = spec->flags & RAWPROBE_F_PERSISTENT ? NULL : own;
	return p;
}

/*
 * Against the table and the probes earlier in the batch, which are hashed
 * as they pass. A module's own handlers (desc set) are its business and
 * match nothing, either way round: a probe added over netlink must not be
 * able to stop a probe module from loading.
 */
static bool rp_is_duplicate(struct rawprobe_probe *p)
{
	/* An injection's or a pair's probes serve their own batch alone. */
	return !p->desc && !p->inj && !p->pair && rp_find_same(&p->spec);
}

/*
 * Kretprobe instances are allocated by the kernel, charged to no one, and
 * a caller with CAP_PERFMON alone may add thousands of kretprobes with a
 * maxactive of thousands each: gigabytes of kernel memory. So they are
 * charged to the budget (budget.c) before they are registered; each
 * probe gives its charge back when it is freed. Probe modules' own are
 * their code's business, and a user's probes must not stop a module from
 * loading.
 */
static int rp_pin_check(struct rawprobe_probe **v, unsigned int n,
			struct netlink_ext_ack *extack, int *failed)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (v[i]->desc)
			continue;
		if (rp_budget_charge(rp_kind_pinned(v[i]))) {
			v[i]->pinned = rp_kind_pinned(v[i]);
			continue;
		}
		NL_SET_ERR_MSG(extack,
			       "kretprobe instances and aggregation tables would take more than the sixteenth of RAM all probes share: ask for a smaller --maxactive or --max-keys, or remove probes");
		*failed = i;
		return -E2BIG;
	}
	return 0;
}

/*
 * Each probe takes the rings of its session, allocated first if they are
 * not (the default session's, on first use), before it is armed; and a
 * session that ended meanwhile takes no more probes.
 */
static int rp_attach_rings(struct rawprobe_probe **v, unsigned int n,
			   struct netlink_ext_ack *extack, int *failed)
{
	struct rp_session *s;
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		s = v[i]->spec.sess;
		if (!READ_ONCE(s->listed)) {
			NL_SET_ERR_MSG(extack, "the session has ended");
			err = -ENOENT;
			goto fail;
		}
		err = rp_ring_ensure(s);
		if (err) {
			NL_SET_ERR_MSG(extack,
				       "could not allocate the record rings (see `ring show`; `ring set records` makes them smaller)");
			goto fail;
		}
		if (!rp_ring_attach_probe(s, v[i])) {
			/* given back meanwhile: never, under our lock */
			err = -EAGAIN;
			goto fail;
		}
	}
	return 0;
fail:
	*failed = i;
	return err;
}

static void rp_detach_rings(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rcu_access_pointer(v[i]->rings))
			rp_ring_detach_probe(v[i]->spec.sess, v[i]);
}

int rp_insert_locked(struct rawprobe_probe **v, unsigned int n,
		     struct netlink_ext_ack *extack, int *failed)
{
	struct rp_session *def = rp_session_default();
	bool had_rings = rp_ring_allocated(def);
	unsigned int i, nid = 0, nhashed = 0;
	int err;

	if (rp_nr_probes + n > RAWPROBE_MAX_PROBES) {
		NL_SET_ERR_MSG(extack, "too many probes");
		return -ENOSPC;
	}
	/*
	 * The first probe allocates the rings its records go to; if it is
	 * refused, it gives them back (see err_ids).
	 */
	err = rp_attach_rings(v, n, extack, failed);
	if (err)
		goto err_ids;
	for (i = 0; i < n; i++) {
		if (rp_is_duplicate(v[i])) {
			NL_SET_ERR_MSG(extack, "an identical probe already exists");
			*failed = i;
			err = -EEXIST;
			goto err_ids;
		}
		hash_add(rp_probe_hash, &v[i]->hnode, rp_spec_hash(&v[i]->spec));
		nhashed++;
		/* Cyclic: a new probe must not take the id of records
		 * still waiting in the rings from a deleted one.
		 */
		err = idr_alloc_cyclic(&rp_probe_ids, v[i], 1, 0, GFP_KERNEL);
		if (err < 0)
			goto err_ids;
		v[i]->id = err;
		v[i]->rec_hdr = rp_rec_hdr(v[i]);
		nid++;
	}
	err = rp_pin_check(v, n, extack, failed);
	if (err)
		goto err_ids;
	err = rp_register_all(v, n, extack, failed);
	if (err)
		goto err_ids;	/* the charges go with the probes */
	for (i = 0; i < n; i++) {
		v[i]->state = v[i]->spec.flags & RAWPROBE_F_DISABLED ?
			      RAWPROBE_STATE_DISABLED : RAWPROBE_STATE_ARMED;
		list_add_tail(&v[i]->node, &rp_probes);
		rp_nr_probes++;
		rp_probe_event(v[i], RAWPROBE_EVENT_ADDED);
	}
	return 0;

err_ids:
	for (i = 0; i < nhashed; i++)
		hash_del(&v[i]->hnode);
	for (i = 0; i < nid; i++)
		idr_remove(&rp_probe_ids, v[i]->id);
	rp_detach_rings(v, n);
	if (!had_rings)
		rp_ring_release_unused(def);
	return err;
}

/*
 * Every spec checked, and the room the batch's aggregation tables need,
 * all of them, against what is left of the budget (rp_agg_room()) before
 * the first is allocated: a
 * batch that cannot fit takes nothing on its way to E2BIG. (Each table
 * is charged when it is allocated, which is what holds against others'
 * batches meanwhile.)
 */
static int rp_check_batch(const struct rp_probe_spec *specs, unsigned int n,
			  struct netlink_ext_ack *extack, int *failed)
{
	u64 bytes = 0;
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		*failed = i;
		err = rp_check_spec(&specs[i], extack) ?:
		      rp_agg_check(&specs[i], extack) ?:
		      rp_pair_check(&specs[i], extack);
		if (err)
			return err;
		if (specs[i].flags & RAWPROBE_F_AGG)
			bytes = size_add(bytes, rp_agg_room(&specs[i]));
	}
	*failed = -1;
	if (rp_budget_fits(bytes))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "the batch's aggregation tables would take the probes past the sixteenth of RAM that tables, their reads and kretprobe instances share: ask for fewer --max-keys or buckets, or remove probes");
	return -E2BIG;
}

/*
 * Add n probes, all or none. On failure *failed is the index of the spec
 * that failed (or -1 when the batch as a whole did).
 */
int rp_probe_add_batch(const struct rp_probe_spec *specs, unsigned int n,
		       struct rp_owner *own,
		       struct netlink_ext_ack *extack, u32 *ids, int *failed)
{
	struct rawprobe_probe **v;
	unsigned int i, nalloc = 0;
	int err;

	*failed = -1;
	err = rp_check_batch(specs, n, extack, failed);
	if (err)
		return err;
	v = kvcalloc(n, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++, nalloc++) {
		*failed = i;
		v[i] = rp_probe_alloc(&specs[i], own);
		err = v[i] ? (rp_kind_prepare(v[i], extack) ?:
			      rp_fentry_prepare(v[i], extack)) : -ENOMEM;
		if (err) {
			nalloc += !!v[i];
			goto out;
		}
	}
	err = rp_inject_setup(v, n, extack, failed) ?:
	      rp_pair_setup(v, n, extack, failed);
	if (err)
		goto out;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		goto out;
	err = rp_insert_locked(v, n, extack, failed);
	if (!err) {
		for (i = 0; i < n; i++)
			ids[i] = v[i]->id;
		rp_inject_log(v, n);
	}
	mutex_unlock(&rp_registry_lock);
	if (!err)
		nalloc = 0;	/* the table owns them now */
out:
	for (i = 0; i < nalloc; i++)
		rp_probe_free(v[i]);
	kvfree(v);
	return err;
}

int rp_probe_add(const struct rp_probe_spec *spec, struct rp_owner *own,
		 struct netlink_ext_ack *extack, u32 *id)
{
	int failed;

	return rp_probe_add_batch(spec, 1, own, extack, id, &failed);
}

/* The probe with this id, or NULL with the reason in extack. */
static struct rawprobe_probe *rp_lookup_locked(u32 id,
					       struct netlink_ext_ack *extack)
{
	struct rawprobe_probe *p = idr_find(&rp_probe_ids, id);

	if (!p)
		NL_SET_ERR_MSG(extack, "no probe with this id");
	return p;
}

/* A probe that changes what the kernel does, not only watches it. */
static bool rp_probe_overrides(const struct rawprobe_probe *p)
{
	return p->spec.ovr.set || p->spec.chain_step ||
	       (p->desc && (p->desc->flags & RAWPROBE_DESC_OVERRIDE));
}

/*
 * Whether the caller may delete, enable or disable p. Removing or
 * re-arming an override or a call-chain step changes what the kernel
 * does as much as adding one, which takes CAP_SYS_ADMIN. A command's
 * probe is its command's: another CAP_PERFMON user would pull it from
 * under a running trace. A persistent probe is any CAP_PERFMON caller's.
 */
static bool rp_caller_may(const struct rawprobe_probe *p,
			  const struct rp_caller *who)
{
	if (who->sys_admin)
		return true;
	if (rp_probe_overrides(p))
		return false;
	return !p->owner || rp_owner_is(p->owner, who->sk);
}

static int rp_may_touch_locked(const struct rawprobe_probe *p,
			       const struct rp_caller *who,
			       struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&rp_registry_lock);
	if (rp_caller_may(p, who))
		return 0;
	if (rp_probe_overrides(p))
		NL_SET_ERR_MSG(extack,
			       "the probe overrides a return or injects faults: deleting, enabling or disabling it needs CAP_SYS_ADMIN in the initial user namespace");
	else
		NL_SET_ERR_MSG(extack,
			       "the probe belongs to the command that added it: only that command, or CAP_SYS_ADMIN, may delete, enable or disable it");
	return -EPERM;
}

/* A module's probe is its own: it holds the pointer until it unloads. */
static struct rawprobe_probe *rp_deletable_locked(u32 id,
						  const struct rp_caller *who,
						  struct netlink_ext_ack *extack)
{
	struct rawprobe_probe *p = rp_lookup_locked(id, extack);
	int err;

	if (!p)
		return ERR_PTR(-ENOENT);
	if (p->desc) {
		NL_SET_ERR_MSG(extack,
			       "the probe belongs to a module: unload the module to remove it");
		return ERR_PTR(-EBUSY);
	}
	err = rp_may_touch_locked(p, who, extack);
	return err ? ERR_PTR(err) : p;
}

static bool rp_listed_before(struct rawprobe_probe **v, unsigned int i)
{
	unsigned int k;

	for (k = 0; k < i; k++)
		if (v[k] == v[i])
			return true;
	return false;
}

/*
 * All or none: every id is looked up before anything is removed, and the
 * lot goes in one unregister_kprobes(), one grace period (a churn of
 * 1,000 probes paid 1,000 of them one PROBE_DEL at a time). On a refused
 * id, *failed is its index.
 */
int rp_probe_del_many(const u32 *ids, unsigned int n,
		      const struct rp_caller *who,
		      struct netlink_ext_ack *extack, int *failed)
{
	struct rawprobe_probe **v;
	unsigned int i;
	int err = 0;

	*failed = -1;
	v = kvmalloc_array(n, sizeof(*v), GFP_KERNEL);
	if (!v)
		return -ENOMEM;
	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		goto out;
	for (i = 0; i < n && !err; i++) {
		v[i] = rp_deletable_locked(ids[i], who, extack);
		if (IS_ERR(v[i])) {
			err = PTR_ERR(v[i]);
		} else if (rp_listed_before(v, i)) {
			NL_SET_ERR_MSG(extack, "the same probe id appears twice");
			err = -EINVAL;
		}
	}
	if (err) {
		*failed = i - 1;
	} else if (rp_remove_locked(v, n)) {
		NL_SET_ERR_MSG(extack,
			       "the kernel could not unregister some probes (out of memory): they stay; try again");
		err = -ENOMEM;
	}
	mutex_unlock(&rp_registry_lock);
out:
	kvfree(v);
	return err;
}

/* A netlink probe the caller (arg) may delete. */
static bool rp_match_deletable(struct rawprobe_probe *p, const void *arg)
{
	return !p->desc && rp_caller_may(p, arg);
}

static bool rp_match_all(struct rawprobe_probe *p, const void *arg)
{
	return true;
}

/*
 * Every probe added over netlink that the caller may delete; modules'
 * probes stay with them. The others stay too, counted in *skipped:
 * one user's "all" is not a way around the rule for one probe
 * (rp_caller_may()). Returns how many the kernel could not disarm (see
 * rp_disarm()), or -EINTR.
 */
int rp_probe_del_all(const struct rp_caller *who, u32 *skipped)
{
	struct rawprobe_probe *p;
	unsigned int kept;

	*skipped = 0;
	if (mutex_lock_killable(&rp_registry_lock))
		return -EINTR;
	list_for_each_entry(p, &rp_probes, node)
		if (!p->desc && !rp_caller_may(p, who))
			(*skipped)++;
	kept = rp_remove_matching(rp_match_deletable, who);
	mutex_unlock(&rp_registry_lock);
	return kept;
}

/*
 * End an aggregating probe's interval and take it. Only the socket that
 * owns the probe reads it (a read restarts the interval: another reader
 * would take the owner's counts); anyone allowed probes reads a
 * persistent one. The registry lock is held across the read's grace
 * period, so the probe cannot go meanwhile.
 */
struct rp_agg_read_ctx {
	const struct sock *sk;
	struct rp_agg_snapshot *snap;
	struct netlink_ext_ack *extack;
};

static int rp_agg_read_one(struct rawprobe_probe *p, void *arg)
{
	struct rp_agg_read_ctx *c = arg;

	if (!p->agg) {
		NL_SET_ERR_MSG(c->extack,
			       "the probe does not aggregate: it writes records (stream reads them)");
		return -EINVAL;
	}
	if (p->owner && !rp_owner_is(p->owner, c->sk)) {
		NL_SET_ERR_MSG(c->extack,
			       "the probe's tables belong to the command that added it: only it reads them");
		return -EACCES;
	}
	c->snap = rp_agg_read(p->agg);
	if (!IS_ERR(c->snap))
		return 0;
	if (PTR_ERR(c->snap) == -E2BIG)
		NL_SET_ERR_MSG(c->extack,
			       "the interval's copy would take the probes past the sixteenth of RAM they share: its counts stay for the next read");
	else
		NL_SET_ERR_MSG(c->extack,
			       "no memory for the interval's copy: its counts stay for the next read");
	return PTR_ERR(xchg(&c->snap, NULL));
}

int rp_probe_agg_read(u32 id, const struct sock *sk,
		      struct rp_agg_snapshot **snap,
		      struct netlink_ext_ack *extack)
{
	struct rp_agg_read_ctx c = { .sk = sk, .extack = extack };
	int err = rp_probe_with(id, rp_agg_read_one, &c);

	if (err == -ENOENT)
		NL_SET_ERR_MSG(extack, "no probe with this id");
	*snap = c.snap;
	return err;
}

int rp_probe_set_enabled(u32 id, bool enable, const struct rp_caller *who,
			 struct netlink_ext_ack *extack)
{
	struct rawprobe_probe *p;
	int err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	p = rp_lookup_locked(id, extack);
	err = p ? rp_may_touch_locked(p, who, extack) : -ENOENT;
	if (err)
		goto out;
	if (p->state == RAWPROBE_STATE_GONE) {
		NL_SET_ERR_MSG(extack,
				   "the probe's module is not loaded; it re-arms on load");
		err = -ENXIO;
	} else if (enable && p->state != RAWPROBE_STATE_ARMED) {
		err = rp_check_lockdown(extack) ?: rp_arm(p, true);
		if (!err) {
			p->state = RAWPROBE_STATE_ARMED;
			p->spec.flags &= ~RAWPROBE_F_DISABLED;
			rp_probe_event(p, RAWPROBE_EVENT_ENABLED);
		}
	} else if (!enable && p->state != RAWPROBE_STATE_DISABLED) {
		err = rp_arm(p, false);
		if (!err) {
			p->state = RAWPROBE_STATE_DISABLED;
			p->spec.flags |= RAWPROBE_F_DISABLED;
			rp_probe_event(p, RAWPROBE_EVENT_DISABLED);
		}
	}
out:
	mutex_unlock(&rp_registry_lock);
	return err;
}

static void rp_stats_clear(struct rawprobe_probe *p)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(p->stats, cpu), 0, sizeof(*p->stats));
	rp_probe_kprobe(p)->nmissed = 0;
	if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
		p->krp.nmissed = 0;
}

int rp_probe_reset_stats(u32 id, bool all)
{
	struct rawprobe_probe *p;
	int err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	if (all) {
		list_for_each_entry(p, &rp_probes, node)
			rp_stats_clear(p);
	} else {
		p = idr_find(&rp_probe_ids, id);
		if (p)
			rp_stats_clear(p);
		else
			err = -ENOENT;
	}
	mutex_unlock(&rp_registry_lock);
	return err;
}

void rp_probe_totals(struct rawprobe_probe *p, struct rp_probe_totals *t)
{
	unsigned int cpu;

	memset(t, 0, sizeof(*t));
	for_each_possible_cpu(cpu) {
		struct rp_probe_stats *s = per_cpu_ptr(p->stats, cpu);

		t->hits += READ_ONCE(s->hits);
		t->records += READ_ONCE(s->records);
		t->lost_ring += READ_ONCE(s->lost_ring);
		t->str_faults += READ_ONCE(s->str_faults);
		t->filtered += READ_ONCE(s->filtered);
		t->fetch_faults += READ_ONCE(s->fetch_faults);
		t->overridden += READ_ONCE(s->overridden);
	}
	t->miss_recursion = rp_probe_kprobe(p)->nmissed;
	if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
		t->miss_maxactive = p->krp.nmissed;
}

u32 rp_probe_count(void)
{
	return READ_ONCE(rp_nr_probes);
}

int rp_registry_while_empty(int (*fn)(u32 arg, struct netlink_ext_ack *extack),
			    u32 arg, struct netlink_ext_ack *extack)
{
	int err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	if (rp_nr_probes) {
		NL_SET_ERR_MSG(extack,
			       "probes are registered: remove them first (modules' probes go with their modules)");
		err = -EBUSY;
	} else {
		err = fn(arg, extack);
	}
	mutex_unlock(&rp_registry_lock);
	return err;
}

int rp_probe_walk(u32 *pos, int (*fn)(struct rawprobe_probe *p, void *ctx),
		  void *ctx)
{
	struct rawprobe_probe *p;
	int id, err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	id = *pos;
	idr_for_each_entry_continue(&rp_probe_ids, p, id) {
		err = fn(p, ctx);
		if (err)
			break;
	}
	*pos = err ? id : id + 1;
	mutex_unlock(&rp_registry_lock);
	return err;
}

int rp_probe_with(u32 id, int (*fn)(struct rawprobe_probe *p, void *ctx), void *ctx)
{
	struct rawprobe_probe *p;
	int err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	p = idr_find(&rp_probe_ids, id);
	err = p ? fn(p, ctx) : -ENOENT;
	mutex_unlock(&rp_registry_lock);
	return err;
}

/* The socket's probes, and whoever's probes write into its sessions. */
static bool rp_match_owner(struct rawprobe_probe *p, const void *arg)
{
	return p->owner == arg || p->spec.sess->owner == arg;
}

/* What the kernel kept of a released socket's probes outlives it. */
void rp_probe_del_owned(const struct rp_owner *owner)
{
	struct rawprobe_probe *p;

	mutex_lock(&rp_registry_lock);
	if (rp_remove_matching(rp_match_owner, owner))
		list_for_each_entry(p, &rp_probes, node)
			if (p->owner == owner)
				p->owner = NULL;
	mutex_unlock(&rp_registry_lock);
}

/* A named session goes only once no probe writes into it. */
int rp_session_del_unused(struct rp_session *s, struct netlink_ext_ack *extack)
{
	struct rawprobe_probe *p;
	int err;

	err = mutex_lock_killable(&rp_registry_lock);
	if (err)
		return err;
	list_for_each_entry(p, &rp_probes, node)
		if (p->spec.sess == s) {
			NL_SET_ERR_MSG(extack,
				       "probes write into the session: delete them first");
			err = -EBUSY;
			goto out;
		}
	if (!rp_session_unlist(s)) {
		NL_SET_ERR_MSG(extack, "no such session (see `ring list`)");
		err = -ENOENT;
		goto out;
	}
	rp_session_put(s);	/* the table's */
out:
	mutex_unlock(&rp_registry_lock);
	return err;
}

void rp_registry_exit(void)
{
	mutex_lock(&rp_registry_lock);
	rp_remove_all_matching(rp_match_all, NULL);
	rp_fentry_exit();
	mutex_unlock(&rp_registry_lock);
	idr_destroy(&rp_probe_ids);
}
