// SPDX-License-Identifier: GPL-2.0
/*
 * What all probe kinds share: validation of the argument declaration and
 * the choice of where arguments come from, before each kind's own setup
 * (kprobe.c, kretprobe.c, and custom.c's for other modules' probes, which
 * builds on those two). Each kind hands the core its operations
 * (kmod/kinds.c), which call this first.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/string.h>
#include "core.h"

/* A stack takes the string's place, and needs a function's entry. */
static int rp_check_stack(struct rawprobe_probe *p,
			  struct netlink_ext_ack *extack)
{
	const struct rp_probe_spec *s = &p->spec;

	if (!(s->flags & RAWPROBE_F_STACK))
		return 0;
	if (p->str_arg >= 0) {
		NL_SET_ERR_MSG(extack,
			       "a stack takes the record's string area: not with a string argument");
		return -EINVAL;
	}
	if (s->offset || !s->symbol[0]) {
		NL_SET_ERR_MSG(extack,
			       "stacks are recorded at a function entry given by name");
		return -EINVAL;
	}
	return 0;
}

/*
 * Strings are read together: at a kretprobe's entry, where an argument
 * still means what it meant to the caller; or, when one is fetched from
 * the return value, which only return has, all of them at return (the
 * entry's pointers, the memory as it is then).
 */
static void rp_note_ret_str(struct rawprobe_probe *p)
{
	const struct rp_probe_spec *s = &p->spec;
	unsigned int i;

	p->str_at_return = false;
	for (i = 0; i < s->nfetch && i < s->nargs; i++)
		if (rp_argtype_is_str(s->argtypes[i]) &&
		    s->fetch[i].src == RAWPROBE_FETCH_RETVAL)
			p->str_at_return = true;
}

/*
 * buf:str:count: a string argument's capture reads at most the value of
 * another argument, an integer one, captured with it; not one read at
 * return from the return value (its bound would be an entry's value).
 */
static int rp_check_str_lens(struct rawprobe_probe *p,
			     struct netlink_ext_ack *extack)
{
	const struct rp_probe_spec *s = &p->spec;
	unsigned int i, j;

	for (i = 0; i < s->nargs; i++) {
		if (!s->str_len_arg[i])
			continue;
		j = s->str_len_arg[i] - 1U;
		if (rp_argtype_is_addr(s->argtypes[i]) ||
		    rp_argtype_is_strv(s->argtypes[i]) ||
		    !rp_argtype_is_str(s->argtypes[i]) || j >= s->nargs ||
		    rp_argtype_is_str(s->argtypes[j]) ||
		    s->argtypes[j] == RAWPROBE_ARG_PTR ||
		    (s->nfetch && (s->fetch[i].src == RAWPROBE_FETCH_RETVAL ||
				   s->fetch[j].src == RAWPROBE_FETCH_RETVAL))) {
			NL_SET_ERR_MSG(extack,
				       "a string's length comes from another, integer argument read at entry");
			return -EINVAL;
		}
	}
	return 0;
}

static int rp_check_args(struct rawprobe_probe *p, struct netlink_ext_ack *extack)
{
	const struct rp_probe_spec *s = &p->spec;
	unsigned int i;

	p->str_arg = -1;
	p->nstr = 0;
	for (i = 0; i < s->nargs; i++) {
		u8 t = s->argtypes[i];

		if (t >= __RAWPROBE_ARG_MAX) {
			NL_SET_ERR_MSG(extack, "unknown argument type");
			return -EINVAL;
		}
		if (!rp_argtype_is_str(t))
			continue;
		if (p->str_arg < 0)
			p->str_arg = i;
		p->nstr++;
	}
	rp_note_ret_str(p);
	return rp_check_str_lens(p, extack) ?: rp_check_stack(p, extack);
}

/*
 * An aggregating probe's tables, allocated here, outside the registry's
 * lock, within the budget and charged to the caller; once (a re-armed
 * probe keeps them).
 */
static int rp_agg_prepare(struct rawprobe_probe *p,
			  struct netlink_ext_ack *extack)
{
	struct rp_agg *agg;
	int err = rp_agg_check(&p->spec, extack);

	if (err || !(p->spec.flags & RAWPROBE_F_AGG) || p->agg)
		return err;
	agg = rp_agg_alloc(&p->spec);
	if (!IS_ERR(agg)) {
		p->agg = agg;
		return 0;
	}
	if (PTR_ERR(agg) == -E2BIG)
		NL_SET_ERR_MSG(extack,
			       "the aggregation tables would take the probes past the sixteenth of RAM that tables, their reads and kretprobe instances share: ask for fewer --max-keys or buckets, or remove probes");
	else
		NL_SET_ERR_MSG(extack,
			       "not enough memory for the aggregation tables (or over the caller's memory cgroup limit): ask for fewer --max-keys");
	return PTR_ERR(agg);
}

/*
 * What every kind checks and sets up first, before its own setup: the
 * arguments, the target's name, and the tables of an aggregating probe
 * (probe modules' handlers aggregate nothing).
 */
static void rp_filter_prepare(struct rp_filter *f)
{
	f->excl_tgid = f->mask & RP_FILTER_NOT_TGID ? f->not_tgid : RP_NO_TGID;
	f->other_mask = f->mask & ~RP_FILTER_NOT_TGID;
}

int rp_probe_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack)
{
	int err;

	err = rp_check_args(p, extack) ?: rp_fetch_check(p, extack);
	if (err)
		return err;
	rp_filter_prepare(&p->spec.filter);
	p->syscall_regs = (p->spec.flags & RAWPROBE_F_SYSCALL) ||
			  rp_is_syscall_wrapper(p->spec.symbol);
	p->syscall_ia32 = p->syscall_regs && strstr(p->spec.symbol, "ia32");
	if (p->spec.symbol[0] && p->spec.module[0])
		snprintf(p->target, sizeof(p->target), "%s:%s",
			 p->spec.module, p->spec.symbol);
	else
		strscpy(p->target, p->spec.symbol, sizeof(p->target));

	return p->desc ? 0 : rp_agg_prepare(p, extack);
}
