// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint kind: a probe on a tracepoint, its target
 * "SUBSYSTEM:EVENT" as tracefs names it, its handlers an entry probe's
 * (kmod/tracepoint.c lays the event's arguments out as a function's
 * entry has them; a stack is walked from the handler, probes/stack.c).
 * The caller key is the function that hit the tracepoint, walked to
 * (probes/stack.c). Refused: an override, an offset. A pair's start or
 * end takes the pair's handlers, as a kprobe.
 */
#include <linux/kprobes.h>
#include "registry.h"

static int rp_tp_check(const struct rp_probe_spec *s,
		       struct netlink_ext_ack *extack)
{
	if (s->module[0] || s->offset || s->addr) {
		NL_SET_ERR_MSG(extack,
			       "a tracepoint is named SUBSYSTEM:EVENT: no module, offset or address");
		return -EINVAL;
	}
	if (s->ovr.set || s->chain_step) {
		NL_SET_ERR_MSG(extack,
			       "a tracepoint takes no override or injection");
		return -EINVAL;
	}
	return 0;
}

/* Why rp_tp_find() found no tracepoint to attach to */
static int rp_tp_not_found(int err, struct netlink_ext_ack *extack)
{
	switch (err) {
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack,
			       "an ftrace event with no tracepoint, or a syscall ftrace's table has no number for");
		break;
	default:
		NL_SET_ERR_MSG(extack,
			       "no such event (tracefs' available_events lists them; syscalls:* needs CONFIG_FTRACE_SYSCALLS)");
		err = -ENOENT;
	}
	return err;
}

static int rp_tp_kind_prepare(struct rawprobe_probe *p,
			      struct netlink_ext_ack *extack)
{
	const char *name = strchr(p->spec.symbol, ':');
	int err;

	err = rp_tp_check(&p->spec, extack);
	if (err)
		return err;
	if (!name || !name[1] || name == p->spec.symbol) {
		NL_SET_ERR_MSG(extack,
			       "a tracepoint is named SUBSYSTEM:EVENT (sched:sched_switch)");
		return -EINVAL;
	}
	err = rp_probe_prepare(p, extack);
	if (err)
		return err;
	err = rp_tp_find(p, p->spec.symbol);
	if (err)
		return rp_tp_not_found(err, extack);
	rp_kprobe_prepare(p);		/* the entry handlers */
	p->kp.symbol_name = NULL;
	p->kp.addr = (kprobe_opcode_t *)p->tp;
	return 0;
}

static const struct rp_kind_ops rp_tracepoint_ops = {
	.prepare	= rp_tp_kind_prepare,
};

void rp_tracepoint_kind_init(void)
{
	rp_kind_register(RAWPROBE_KIND_TRACEPOINT, &rp_tracepoint_ops);
}
