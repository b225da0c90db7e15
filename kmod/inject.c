// SPDX-License-Identifier: GPL-2.0
/*
 * Return override and fault injection: where a probe may make a function
 * return at once, with what, and the state a batch's overrides and call
 * chain share (kmod/inject.h). The hit path is probes/override.c.
 *
 * Only places whose callers expect failure may be overridden:
 *  - a system call's entry (__x64_sys_*, at offset 0): user space gets
 *    the value as the system call's result, and nothing in the kernel
 *    saw the call start;
 *  - the allocators' fault hooks, should_failslab() and
 *    should_fail_alloc_page(), where the kernel has them (CONFIG_FAILSLAB,
 *    CONFIG_FAIL_PAGE_ALLOC), and the allocators' entry points on every
 *    kernel: every caller of kmalloc() or alloc_pages() handles NULL
 *    unless it passed __GFP_NOFAIL, which the hit path honours, as the
 *    hooks' callers do; and an entry point fails one allocator where a
 *    hook fails them all. (`inject` prefers the hooks where they exist.)
 * The kernel's own error-injection list is not reachable from a module
 * (within_error_injection_list() is not exported), and Debian's kernels
 * have none (CONFIG_FUNCTION_ERROR_INJECTION is off).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/security.h>
#include <linux/slab.h>
#include "inject.h"

struct rp_fault_hook {
	const char *name;
	u8 type;		/* enum rp_ovr_type */
	s8 gfp_arg;		/* its gfp_t argument */
};

/* The argument after a size when the kernel adds a bucket to it. */
#ifdef CONFIG_SLAB_BUCKETS
#define RP_BUCKET_GFP	2
#else
#define RP_BUCKET_GFP	1
#endif

static const struct rp_fault_hook rp_fault_hooks[] = {
	{ "should_failslab",		RP_OVR_ERRNO,	1 },
	{ "should_fail_alloc_page",	RP_OVR_TRUE,	0 },
/* alloc_hooks() came with the _noprof entry points (6.10) */
#ifdef alloc_hooks
	{ "__kmalloc_noprof",			RP_OVR_NULL, 1 },
	{ "__kmalloc_node_noprof",		RP_OVR_NULL, RP_BUCKET_GFP },
	{ "__kmalloc_node_track_caller_noprof",	RP_OVR_NULL, RP_BUCKET_GFP },
	{ "__kmalloc_cache_noprof",		RP_OVR_NULL, 1 },
	{ "__kmalloc_cache_node_noprof",	RP_OVR_NULL, 1 },
	{ "__kmalloc_large_noprof",		RP_OVR_NULL, 1 },
	{ "__kmalloc_large_node_noprof",	RP_OVR_NULL, 1 },
	{ "kmem_cache_alloc_noprof",		RP_OVR_NULL, 1 },
	{ "kmem_cache_alloc_lru_noprof",	RP_OVR_NULL, 2 },
	{ "kmem_cache_alloc_node_noprof",	RP_OVR_NULL, 1 },
	{ "__alloc_pages_noprof",		RP_OVR_NULL, 0 },
#else
	{ "__kmalloc",				RP_OVR_NULL, 1 },
	{ "__kmalloc_node",			RP_OVR_NULL, 1 },
	{ "__kmalloc_node_track_caller",	RP_OVR_NULL, 1 },
	{ "kmalloc_trace",			RP_OVR_NULL, 1 },
	{ "kmalloc_node_trace",			RP_OVR_NULL, 1 },
	{ "kmalloc_large",			RP_OVR_NULL, 1 },
	{ "kmalloc_large_node",			RP_OVR_NULL, 1 },
	{ "kmem_cache_alloc",			RP_OVR_NULL, 1 },
	{ "kmem_cache_alloc_lru",		RP_OVR_NULL, 2 },
	{ "kmem_cache_alloc_node",		RP_OVR_NULL, 1 },
	{ "__alloc_pages",			RP_OVR_NULL, 0 },
#endif
};

static const struct rp_fault_hook *rp_fault_hook(const char *sym)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rp_fault_hooks); i++)
		if (!strcmp(rp_fault_hooks[i].name, sym))
			return &rp_fault_hooks[i];
	return NULL;
}

bool rp_ovr_value_ok(u8 type, s64 value)
{
	switch (type) {
	case RP_OVR_ERRNO:
		return value >= -MAX_ERRNO && value <= -1;
	case RP_OVR_NULL:
		return value == 0;
	case RP_OVR_TRUE:
		return value == 1;
	default:
		return true;
	}
}

/* NL_SET_ERR_MSG() keeps a literal: one call per rule. */
static void rp_ovr_value_rule(u8 type, struct netlink_ext_ack *extack)
{
	if (type == RP_OVR_ERRNO)
		NL_SET_ERR_MSG(extack,
			       "this function returns an errno: the value must be -4095 to -1");
	else if (type == RP_OVR_NULL)
		NL_SET_ERR_MSG(extack,
			       "this allocator returns a pointer: the value must be 0 (NULL)");
	else
		NL_SET_ERR_MSG(extack,
			       "this function returns true to fail: the value must be 1");
}

/* The place a spec's override would act on: the rules of the top. */
static int rp_ovr_place(const struct rp_probe_spec *spec, u8 *type,
			s8 *gfp_arg, struct netlink_ext_ack *extack)
{
	const struct rp_fault_hook *hook;

	if (spec->kind == RAWPROBE_KIND_KRETPROBE) {
		NL_SET_ERR_MSG(extack,
			       "return override is for entry probes: a kretprobe runs after the function did its work");
		return -EINVAL;
	}
	if (!spec->symbol[0] || spec->module[0] || spec->offset) {
		NL_SET_ERR_MSG(extack,
			       "return override needs a function of the kernel by name, at offset 0 (not an address, an offset or a module's function)");
		return -EINVAL;
	}
	*gfp_arg = -1;
	*type = RP_OVR_ANY;
	if (rp_is_syscall_wrapper(spec->symbol))
		return 0;
	hook = rp_fault_hook(spec->symbol);
	if (!hook) {
		NL_SET_ERR_MSG(extack,
			       "return override is allowed only where callers expect failure: a system call's entry (__x64_sys_*) or an allocator's fault hook (see `rawprobectl inject`)");
		return -EINVAL;
	}
	*type = hook->type;
	*gfp_arg = hook->gfp_arg;
	return 0;
}

/* May a probe at spec's place override at all (a module's too)? */
int rp_ovr_permitted(const struct rp_probe_spec *spec, u8 *type,
		     s8 *gfp_arg, struct netlink_ext_ack *extack)
{
	if (security_locked_down(LOCKDOWN_INTEGRITY_MAX)) {
		NL_SET_ERR_MSG(extack,
			       "the kernel is locked down: return override would change what its code does");
		return -EPERM;
	}
	return rp_ovr_place(spec, type, gfp_arg, extack);
}

/*
 * What a spec's override (or chain step) may ask, before anything is
 * allocated. Privilege is genl.c's: it knows the caller.
 */
int rp_ovr_check(const struct rp_probe_spec *spec, u8 *type, s8 *gfp_arg,
		 struct netlink_ext_ack *extack)
{
	const struct rp_ovr_spec *o = &spec->ovr;
	int err;

	if (spec->chain_step) {
		if (o->set || spec->kind != RAWPROBE_KIND_KRETPROBE ||
		    spec->offset || (spec->flags & RAWPROBE_F_AGG)) {
			NL_SET_ERR_MSG(extack,
				       "a call chain's step is a kretprobe on a function entry, and overrides or aggregates nothing");
			return -EINVAL;
		}
		return 0;
	}
	if (!o->set)
		return 0;
	err = rp_ovr_permitted(spec, type, gfp_arg, extack);
	if (err)
		return err;
	if (!rp_ovr_value_ok(*type, o->value)) {
		rp_ovr_value_rule(*type, extack);
		return -ERANGE;
	}
	if (o->probability > 100) {
		NL_SET_ERR_MSG(extack, "the probability is a percent: 1 to 100");
		return -ERANGE;
	}
	return 0;
}

void rp_inject_put(struct rp_inject *inj)
{
	if (!inj || !refcount_dec_and_test(&inj->ref))
		return;
	if (atomic_read(&inj->chain_full))
		pr_warn("%d entries into a call chain found no slot (more than %d tasks inside at once): their allocations were not failed\n",
			atomic_read(&inj->chain_full), RP_CHAIN_SLOTS);
	free_percpu(inj->rnd);
	kfree(inj);
}

/* What a batch's overrides share must be the same in each. */
static int rp_inject_agree(struct rawprobe_probe **v, unsigned int n,
			   const struct rp_ovr_spec **first,
			   struct netlink_ext_ack *extack, int *failed)
{
	unsigned int i;

	*first = NULL;
	for (i = 0; i < n; i++) {
		const struct rp_ovr_spec *o = &v[i]->spec.ovr;

		if (!o->set)
			continue;
		if (!*first) {
			*first = o;
			continue;
		}
		if (o->probability == (*first)->probability &&
		    o->times == (*first)->times &&
		    o->interval == (*first)->interval &&
		    o->chain_len == (*first)->chain_len)
			continue;
		NL_SET_ERR_MSG(extack,
			       "the overrides of one batch share their probability, times, interval and call chain: give each the same");
		*failed = i;
		return -EINVAL;
	}
	return 0;
}

/* Steps 1..len, each once, and no step without an override to serve. */
static int rp_inject_chain_check(struct rawprobe_probe **v, unsigned int n,
				 const struct rp_ovr_spec *o,
				 struct netlink_ext_ack *extack, int *failed)
{
	unsigned int i, seen = 0, len = o ? o->chain_len : 0;

	for (i = 0; i < n; i++) {
		u8 step = v[i]->spec.chain_step;

		if (!step)
			continue;
		*failed = i;
		if (step > len || (seen & BIT(step))) {
			NL_SET_ERR_MSG(extack,
				       "a call chain's steps are 1 to N, each once, beside an override that needs N of them");
			return -EINVAL;
		}
		seen |= BIT(step);
	}
	*failed = -1;
	if (hweight32(seen) == len)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "the override needs a call chain whose steps are not all in the batch");
	return -EINVAL;
}

static struct rp_inject *rp_inject_alloc(const struct rp_ovr_spec *o,
					 unsigned int users)
{
	unsigned int nslots = o->chain_len ? RP_CHAIN_SLOTS : 0;
	struct rp_inject *inj;

	/* Charged to the caller, as the tables and rings are. */
	inj = kzalloc(struct_size(inj, slots, nslots), GFP_KERNEL_ACCOUNT);
	if (!inj)
		return NULL;
	inj->rnd = alloc_percpu_gfp(struct rnd_state, GFP_KERNEL_ACCOUNT);
	if (!inj->rnd) {
		kfree(inj);
		return NULL;
	}
	prandom_seed_full_state(inj->rnd);
	refcount_set(&inj->ref, users);
	inj->chain_len = o->chain_len;
	inj->probability = o->probability ?: 100;
	inj->interval = o->interval;
	atomic_set(&inj->left, o->times ? o->times : -1);
	return inj;
}

/*
 * A batch's overrides and chain steps get one shared state: the limits
 * (--times counts across every allocator hook) and the tasks inside the
 * chain. Each probe holds a reference, dropped when it is freed, after
 * it is unregistered: no handler can see the state go.
 */
int rp_inject_setup(struct rawprobe_probe **v, unsigned int n,
		    struct netlink_ext_ack *extack, int *failed)
{
	const struct rp_ovr_spec *o;
	unsigned int i, users = 0;
	struct rp_inject *inj;
	int err;

	for (i = 0; i < n; i++) {
		*failed = i;
		v[i]->ovr_gfp_arg = -1;
		err = rp_ovr_check(&v[i]->spec, &v[i]->ovr_type,
				   &v[i]->ovr_gfp_arg, extack);
		if (err)
			return err;
		users += v[i]->spec.ovr.set || v[i]->spec.chain_step;
	}
	*failed = -1;
	if (!users)
		return 0;
	err = rp_inject_agree(v, n, &o, extack, failed) ?:
	      rp_inject_chain_check(v, n, o, extack, failed);
	if (err)
		return err;
	inj = rp_inject_alloc(o, users);
	if (!inj) {
		NL_SET_ERR_MSG(extack, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (v[i]->spec.ovr.set || v[i]->spec.chain_step)
			v[i]->inj = inj;
	return 0;
}

/*
 * A step was disarmed: no depth reached before counts any more (see
 * inject.h). Its handlers still running now started before the disarm;
 * the generation moves on after they are done, so none of them reaches
 * a depth in the new one. A removed step leaves the chain unable to
 * reach its full depth again: its override never fires.
 */
void rp_chain_step_disarmed(struct rawprobe_probe *p)
{
	if (!p->spec.chain_step || !p->inj)
		return;
	synchronize_rcu();
	atomic_inc(&p->inj->gen);
}

/*
 * Once per batch, for the bug report it may end up in: who, where, what
 * value (the first override, and how many more the batch has).
 */
void rp_inject_log(struct rawprobe_probe **v, unsigned int n)
{
	struct rawprobe_probe *first = NULL;
	unsigned int i, more = 0;

	for (i = 0; i < n; i++) {
		if (!v[i]->spec.ovr.set)
			continue;
		if (first)
			more++;
		else
			first = v[i];
	}
	if (!first)
		return;
	pr_notice("%s[%d] (uid %u) makes %s return %lld (probe %u; %u more hooks%s%s)\n",
		  current->comm, task_tgid_nr(current),
		  from_kuid(&init_user_ns, current_uid()), first->target,
		  first->spec.ovr.value, first->id, more,
		  first->spec.ovr.chain_len ? ", inside a call chain" : "",
		  first->spec.ovr.times ? ", a limited number of times" : "");
}
