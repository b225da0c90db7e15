// SPDX-License-Identifier: GPL-2.0
/*
 * The API other modules build probes on (include/rawprobe/api.h): thin
 * exported wrappers around the registry and the hot path every built-in
 * probe kind uses, so a module's records are indistinguishable from ours.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/export.h>
#include <linux/preempt.h>
#include "emit.h"
#include "pair.h"

struct rawprobe_probe *__rawprobe_register(const struct rawprobe_desc *desc,
					   struct module *owner)
{
	return rp_probe_add_custom(desc, owner);
}
EXPORT_SYMBOL_GPL(__rawprobe_register);

void rawprobe_unregister(struct rawprobe_probe *probe)
{
	if (!IS_ERR_OR_NULL(probe))
		rp_probe_del_custom(probe);
}
EXPORT_SYMBOL_GPL(rawprobe_unregister);

u32 rawprobe_id(const struct rawprobe_probe *probe)
{
	return probe->id;
}
EXPORT_SYMBOL_GPL(rawprobe_id);

void *rawprobe_priv(const struct rawprobe_probe *probe)
{
	return probe->desc->priv;
}
EXPORT_SYMBOL_GPL(rawprobe_priv);

void rawprobe_get_stats(const struct rawprobe_probe *probe,
			struct rawprobe_stats *stats)
{
	struct rp_probe_totals t;

	rp_probe_totals((struct rawprobe_probe *)probe, &t);
	stats->hits = t.hits;
	stats->records = t.records;
	stats->lost = t.lost_ring;
	stats->missed = t.miss_maxactive + t.miss_recursion;
}
EXPORT_SYMBOL_GPL(rawprobe_get_stats);

/*
 * Modules may write records from any context, process context included
 * (init, a work item). A ring is only safe for writers that stay on its
 * CPU, are nested rather than preempted by its other writers, and that a
 * resize's synchronize_rcu() waits for: preemption stays off from reserve
 * to commit or discard. In a probe handler it is off already, and this
 * costs two increments of the preempt count.
 */
struct rawprobe_record *rawprobe_reserve(struct rawprobe_probe *probe,
					 struct rawprobe_slot *slot)
{
	struct rawprobe_record *rec;

	preempt_disable_notrace();
	rp_emit_hit(probe);	/* a module's own filter discards after */
	rec = rp_emit_begin(probe, slot,
			    (unsigned long)rp_probe_kprobe(probe)->addr);
	if (!rec) {
		preempt_enable_notrace();
		return NULL;
	}
	/* The built-in kinds write these only with the flag that shows them. */
	rec->retval = 0;
	rec->latency_ns = 0;
	return rec;
}
EXPORT_SYMBOL_GPL(rawprobe_reserve);
NOKPROBE_SYMBOL(rawprobe_reserve);

void rawprobe_commit(struct rawprobe_probe *probe, struct rawprobe_slot *slot)
{
	rp_emit_end(probe, slot);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(rawprobe_commit);
NOKPROBE_SYMBOL(rawprobe_commit);

void rawprobe_discard(struct rawprobe_probe *probe, struct rawprobe_slot *slot)
{
	rp_emit_discard(probe, slot);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(rawprobe_discard);
NOKPROBE_SYMBOL(rawprobe_discard);

int __rawprobe_emit(struct rawprobe_probe *probe, const u64 *args,
		    unsigned int nargs)
{
	struct rawprobe_record *rec;
	struct rawprobe_slot slot;

	rec = rawprobe_reserve(probe, &slot);
	if (!rec)
		return -ENOSPC;
	nargs = min_t(unsigned int, nargs, RAWPROBE_MAX_ARGS);
	memcpy(rec->args, args, nargs * sizeof(*args));
	rec->nargs = nargs;
	if (nargs)
		rec->flags |= RAWPROBE_REC_ARGS;
	rawprobe_commit(probe, &slot);
	return 0;
}
EXPORT_SYMBOL_GPL(__rawprobe_emit);
NOKPROBE_SYMBOL(__rawprobe_emit);

long rawprobe_record_str(struct rawprobe_probe *probe,
			 struct rawprobe_record *rec, const void *src, bool user)
{
	return rp_record_str(probe, rec, (unsigned long)src,
			     RAWPROBE_STR_LEN - 1, user);
}
EXPORT_SYMBOL_GPL(rawprobe_record_str);
NOKPROBE_SYMBOL(rawprobe_record_str);

u64 rawprobe_clock(void)
{
	return rp_clock();
}
EXPORT_SYMBOL_GPL(rawprobe_clock);

/*
 * Pairs for probe modules: the table `latency` uses, with the handlers
 * the module's own. A module's pair is its code's business: not charged
 * to the budget netlink probes share, which must not stop it loading.
 */
struct rawprobe_pair *rawprobe_pair_create(u32 max_keys, u32 expire_ms)
{
	if (max_keys > RAWPROBE_AGG_KEYS_MAX)
		return ERR_PTR(-EINVAL);
	return rp_pair_new(max_keys, expire_ms, 1, false, 0, 0, NULL);
}
EXPORT_SYMBOL_GPL(rawprobe_pair_create);

void rawprobe_pair_destroy(struct rawprobe_pair *pair)
{
	if (!IS_ERR_OR_NULL(pair))
		rp_pair_put_ref(pair);
}
EXPORT_SYMBOL_GPL(rawprobe_pair_destroy);

void rawprobe_pair_start(struct rawprobe_pair *pair, u64 key)
{
	rp_pair_hit_start(pair, key);
}
EXPORT_SYMBOL_GPL(rawprobe_pair_start);
NOKPROBE_SYMBOL(rawprobe_pair_start);

int rawprobe_pair_end(struct rawprobe_pair *pair, u64 key, u64 *latency_ns)
{
	return rp_pair_hit_end(pair, key, latency_ns) ? 0 : -ENOENT;
}
EXPORT_SYMBOL_GPL(rawprobe_pair_end);
NOKPROBE_SYMBOL(rawprobe_pair_end);

void rawprobe_pair_get_stats(struct rawprobe_pair *pair,
			     struct rawprobe_pair_stats *stats)
{
	struct rp_pair_stats s;

	rp_pair_read_stats(pair, &s, &stats->pending);
	stats->starts = s.starts;
	stats->matched = s.matched;
	stats->no_start = s.no_start;
	stats->full = s.full;
	stats->expired = s.expired;
	stats->replaced = s.replaced;
}
EXPORT_SYMBOL_GPL(rawprobe_pair_get_stats);
