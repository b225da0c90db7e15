// SPDX-License-Identifier: GPL-2.0
/*
 * The probe kinds' operations, as each kind hands them to the core at
 * init (probes/): the core sets a probe up and sizes what it pins
 * through them, so calls go down from the kinds to the core, never up.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "core.h"

static const struct rp_kind_ops *rp_kinds[__RAWPROBE_KIND_MAX];

/**
 * rp_kind_register() - hand the core a probe kind's operations
 * @kind: enum rawprobe_kind
 * @ops: its operations, which outlive the module's probes
 *
 * Called once per kind at init, before the control plane takes requests.
 */
void rp_kind_register(u8 kind, const struct rp_kind_ops *ops)
{
	if (!WARN_ON_ONCE(kind >= __RAWPROBE_KIND_MAX))
		rp_kinds[kind] = ops;
}

/* A probe module's probe (desc) is the custom kind's, on the kind it chose. */
static const struct rp_kind_ops *rp_kind_ops(const struct rawprobe_probe *p)
{
	u8 kind = p->desc ? RAWPROBE_KIND_CUSTOM : p->spec.kind;

	return kind < __RAWPROBE_KIND_MAX ? rp_kinds[kind] : NULL;
}

static int rp_kind_ops_prepare(const struct rp_kind_ops *ops,
			       struct rawprobe_probe *p,
			       struct netlink_ext_ack *extack)
{
	if (!ops) {
		NL_SET_ERR_MSG(extack, "unknown probe kind");
		return -EINVAL;
	}
	return ops->prepare(p, extack);
}

/* Set p up for registering, by its kind; the reason in extack if not. */
int rp_kind_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack)
{
	return rp_kind_ops_prepare(rp_kind_ops(p), p, extack);
}

/**
 * rp_kind_prepare_spec() - set p up by its spec's kind, desc or not
 * @p: the probe
 * @extack: the reason, if not
 *
 * For the custom kind, whose probe on a tracepoint is set up as the
 * tracepoint kind's (the event found, its probe laid out) before the
 * module's handler takes the entry handler's place.
 *
 * Return: 0, or the kind's error.
 */
int rp_kind_prepare_spec(struct rawprobe_probe *p,
			 struct netlink_ext_ack *extack)
{
	u8 kind = p->spec.kind;

	return rp_kind_ops_prepare(kind < __RAWPROBE_KIND_MAX ?
				   rp_kinds[kind] : NULL, p, extack);
}

/* What registering p will make the kernel pin (kretprobe instances). */
u64 rp_kind_pinned(const struct rawprobe_probe *p)
{
	const struct rp_kind_ops *ops = rp_kind_ops(p);

	return ops && ops->pinned ? ops->pinned(p) : 0;
}
