// SPDX-License-Identifier: GPL-2.0
/*
 * Probes of other modules (include/rawprobe/api.h, through api.c): a
 * rawprobe_desc becomes a spec, checked and inserted like any other,
 * with the module's own handlers; return-override probes are armed only
 * where the kernel allows it. A tracepoint's "SUBSYSTEM:EVENT" is its
 * symbol whole, colon and all. Removed with their module.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include "inject.h"
#include "registry.h"
#include "session.h"

static int rp_desc_to_spec(const struct rawprobe_desc *d,
			   struct rp_probe_spec *s)
{
	const char *sym = d->symbol, *colon;

	memset(s, 0, sizeof(*s));
	if (!sym || !d->name)
		return -EINVAL;
	switch (d->kind) {
	case RAWPROBE_KIND_KPROBE:
	case RAWPROBE_KIND_JPROBE:
		if (!d->entry || d->ret || d->data_size || d->maxactive)
			return -EINVAL;
		break;
	case RAWPROBE_KIND_KRETPROBE:
		if (!d->ret || d->maxactive > RAWPROBE_MAXACTIVE_MAX)
			return -EINVAL;
		break;
	case RAWPROBE_KIND_TRACEPOINT:	/* "sched:sched_switch": no module */
		if (!d->entry || d->ret || d->data_size || d->maxactive ||
		    d->offset || (d->flags & RAWPROBE_DESC_OVERRIDE))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	colon = strchr(sym, ':');
	if (colon && d->kind != RAWPROBE_KIND_TRACEPOINT) {
		if (colon - sym >= sizeof(s->module))
			return -ENAMETOOLONG;
		memcpy(s->module, sym, colon - sym);
		sym = colon + 1;
	}
	if (strscpy(s->symbol, sym, sizeof(s->symbol)) < 0)
		return -ENAMETOOLONG;
	s->kind = d->kind;
	s->offset = d->offset;
	s->maxactive = d->maxactive;
	if (d->flags & RAWPROBE_DESC_DISABLED)
		s->flags |= RAWPROBE_F_DISABLED;
	return 0;
}

/* Fault injection only where it is safe; see rawprobe_override_return(). */
static int rp_custom_arm(struct rawprobe_probe *p)
{
	int err = 0;

	if (!(p->desc->flags & RAWPROBE_DESC_OVERRIDE))
		return 0;
	mutex_lock(&rp_registry_lock);
	if (!kprobe_ftrace(&p->kp))
		err = -EOPNOTSUPP;
	else if (!(p->desc->flags & RAWPROBE_DESC_DISABLED))
		err = enable_kprobe(&p->kp);
	if (!err && !(p->desc->flags & RAWPROBE_DESC_DISABLED)) {
		p->state = RAWPROBE_STATE_ARMED;
		p->spec.flags &= ~RAWPROBE_F_DISABLED;
		rp_probe_event(p, RAWPROBE_EVENT_ENABLED);
	}
	mutex_unlock(&rp_registry_lock);
	return err;
}

/* The probe of a desc, checked; its spec is too big for the stack. */
static struct rawprobe_probe *rp_custom_alloc(const struct rawprobe_desc *desc,
					      struct netlink_ext_ack *extack)
{
	struct rawprobe_probe *p;
	struct rp_probe_spec *spec;
	int err;

	spec = kmalloc(sizeof(*spec), GFP_KERNEL);
	if (!spec)
		return ERR_PTR(-ENOMEM);
	err = rp_desc_to_spec(desc, spec);
	if (err) {
		NL_SET_ERR_MSG(extack, "invalid rawprobe_desc: see include/rawprobe/api.h");
		goto out;
	}
	/* An override probe stays disarmed until its ftrace site is seen. */
	if (desc->flags & RAWPROBE_DESC_OVERRIDE)
		spec->flags |= RAWPROBE_F_DISABLED;
	err = rp_check_spec(spec, extack);
	if (err)
		goto out;
	if (desc->session) {
		spec->sess = rp_session_find(0, desc->session, extack);
		err = PTR_ERR_OR_ZERO(spec->sess);
		if (err)
			goto out;
	}
	p = rp_probe_alloc(spec, NULL);
	if (!p)
		err = -ENOMEM;
	rp_session_put(spec->sess);	/* the probe holds its own */
out:
	kfree(spec);
	return err ? ERR_PTR(err) : p;
}

static int rp_custom_add(const struct rawprobe_desc *desc,
			 struct module *owner, struct netlink_ext_ack *extack,
			 struct rawprobe_probe **out)
{
	struct rawprobe_probe *p;
	int err, failed;

	p = rp_custom_alloc(desc, extack);
	if (IS_ERR(p))
		return PTR_ERR(p);
	p->desc = desc;
	p->owner_mod = owner;
	strscpy(p->name, desc->name, sizeof(p->name));
	/* Netlink's rules for the place; the value's, at each call. */
	if (desc->flags & RAWPROBE_DESC_OVERRIDE) {
		err = rp_ovr_permitted(&p->spec, &p->ovr_type,
				       &p->ovr_gfp_arg, extack);
		if (err) {
			rp_probe_free(p);
			return err;
		}
	}
	err = rp_kind_prepare(p, extack);
	if (!err) {
		mutex_lock(&rp_registry_lock);
		err = rp_insert_locked(&p, 1, extack, &failed);
		mutex_unlock(&rp_registry_lock);
	}
	if (err) {
		rp_probe_free(p);
		return err;
	}
	err = rp_custom_arm(p);
	if (err) {
		NL_SET_ERR_MSG(extack,
			       "return override needs the probe on the function's ftrace site");
		rp_probe_del_custom(p);
		return err;
	}
	*out = p;
	return 0;
}

struct rawprobe_probe *rp_probe_add_custom(const struct rawprobe_desc *desc,
					   struct module *owner)
{
	struct netlink_ext_ack extack = {};
	struct rawprobe_probe *p = NULL;
	int err;

	err = rp_custom_add(desc, owner, &extack, &p);
	if (err) {
		pr_warn("%s: cannot register probe %s on %s: %s (%d)\n",
			owner ? owner->name : "?", desc->name ?: "?",
			desc->symbol ?: "?", extack._msg ?: "error", err);
		return ERR_PTR(err);
	}
	return p;
}

static bool rp_match_ptr(struct rawprobe_probe *p, const void *arg)
{
	return p == arg;
}

void rp_probe_del_custom(struct rawprobe_probe *p)
{
	mutex_lock(&rp_registry_lock);
	rp_remove_all_matching(rp_match_ptr, p);
	mutex_unlock(&rp_registry_lock);
}
