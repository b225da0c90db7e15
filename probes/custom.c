// SPDX-License-Identifier: GPL-2.0
/*
 * Probes registered by other modules (include/rawprobe/api.h): the
 * kprobe, kretprobe and tracepoint handlers hand over to the module's
 * own, which write records with rawprobe_reserve()/rawprobe_commit().
 * Filters set over netlink do not apply: the module's handler decides.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include "inject.h"

static int rp_custom_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct rawprobe_probe *p = container_of(kp, struct rawprobe_probe, kp);

	return p->desc->entry(p, regs, NULL);
}
NOKPROBE_SYMBOL(rp_custom_pre);

static inline struct rawprobe_probe *
rp_custom_from_instance(struct kretprobe_instance *ri)
{
	return container_of(get_kretprobe(ri), struct rawprobe_probe, krp);
}

static int rp_custom_kret_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct rawprobe_probe *p = rp_custom_from_instance(ri);

	return p->desc->entry(p, regs, ri->data);
}
NOKPROBE_SYMBOL(rp_custom_kret_entry);

static int rp_custom_kret_return(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct rawprobe_probe *p = rp_custom_from_instance(ri);

	return p->desc->ret(p, regs, ri->data);
}
NOKPROBE_SYMBOL(rp_custom_kret_return);

static void rp_custom_setup(struct rawprobe_probe *p)
{
	const struct rawprobe_desc *d = p->desc;

	if (p->spec.kind != RAWPROBE_KIND_KRETPROBE) {
		rp_kprobe_prepare(p);
		p->kp.pre_handler = rp_custom_pre;
		return;
	}
	rp_kretprobe_prepare(p);
	p->krp.entry_handler = d->entry ? rp_custom_kret_entry : NULL;
	p->krp.handler = rp_custom_kret_return;
	p->krp.data_size = d->data_size;
}

int rawprobe_override_return(struct rawprobe_probe *p, struct pt_regs *regs,
			     unsigned long rc)
{
	/* Checked at registration; the ftrace site once registered. */
	if (WARN_ON_ONCE(!p->desc || !(p->desc->flags & RAWPROBE_DESC_OVERRIDE) ||
			 !kprobe_ftrace(&p->kp)))
		return 0;
	/* The place's type, and what must not fail: as netlink's. */
	if (!rp_ovr_value_ok(p->ovr_type, (long)rc)) {
		pr_warn_once("probe %s: %ld does not fit what %s returns\n",
			     p->name, (long)rc, p->target);
		return 0;
	}
	if (p->ovr_gfp_arg >= 0 &&
	    (regs_get_kernel_argument(regs, p->ovr_gfp_arg) & __GFP_NOFAIL))
		return 0;
	this_cpu_inc(p->stats->overridden);
	rp_override(regs, rc);
	return 1;
}
EXPORT_SYMBOL_GPL(rawprobe_override_return);
NOKPROBE_SYMBOL(rawprobe_override_return);

/*
 * A tracepoint is found and attached as the tracepoint kind does it
 * (kmod/tracepoint.c lays the event's arguments out as an entry's and
 * calls kp.pre_handler); the module's entry handler is that handler.
 */
static int rp_custom_tp_prepare(struct rawprobe_probe *p,
				struct netlink_ext_ack *extack)
{
	int err = rp_kind_prepare_spec(p, extack);

	if (!err)
		p->kp.pre_handler = rp_custom_pre;
	return err;
}

static int rp_custom_kind_prepare(struct rawprobe_probe *p,
				  struct netlink_ext_ack *extack)
{
	int err;

	if (p->spec.kind == RAWPROBE_KIND_TRACEPOINT)
		return rp_custom_tp_prepare(p, extack);
	err = rp_probe_prepare(p, extack);

	if (!err)
		rp_custom_setup(p);
	return err;
}

/* A module's probe, on the kind it chose, with its own handlers. */
static const struct rp_kind_ops rp_custom_ops = {
	.prepare	= rp_custom_kind_prepare,
};

void rp_custom_kind_init(void)
{
	rp_kind_register(RAWPROBE_KIND_CUSTOM, &rp_custom_ops);
}
