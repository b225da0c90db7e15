// SPDX-License-Identifier: GPL-2.0
/*
 * Probes on module code: gone when the module unloads, re-armed when it
 * loads again.
 *
 * Which module a probe sits in is read from its resolved address when
 * the module goes (within_module()), not from how the user named it:
 * "dummy_setup", "dummy:dummy_setup" and a raw address inside dummy are
 * the same probe to kprobes, and all three must stop being reported
 * armed once dummy's code is freed. A probe named by symbol re-arms on
 * the next load of that module; a raw address does not (the module's
 * code lands elsewhere) and stays gone until deleted.
 *
 * A probe on a module's tracepoint goes and comes back the same way,
 * found by its tracepoint's address, but through the tracepoints'
 * module notifier: the kernel checks, as a module goes, that no probe
 * is left on its tracepoints right after that notifier, and attaches
 * nothing to them before it.
 *
 * Probe modules (include/rawprobe/api.h) that unload without
 * rawprobe_unregister() lose their probes here too, before their
 * handlers' code is freed.
 *
 * A probe armed through rawprobe's ftrace_ops (fentry.c) must never be
 * armed in a module once this notifier has seen it go: ftrace drops the
 * module's records after the notifiers, and warns (and stops tracing
 * altogether) at a record still enabled. The modules seen going are
 * kept by name until a module of that name comes again (no two live
 * modules share a name, and a name comes back only once its module is
 * freed), so that fentry.c can tell, under rp_registry_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include "registry.h"

struct rp_going_mod {
	struct list_head node;
	char name[MODULE_NAME_LEN];
};

static LIST_HEAD(rp_going_mods);
/* A name could not be kept: no module is taken for live any more. */
static bool rp_going_lost;

static struct rp_going_mod *rp_going_find(const char *name)
{
	struct rp_going_mod *g;

	list_for_each_entry(g, &rp_going_mods, node)
		if (!strcmp(g->name, name))
			return g;
	return NULL;
}

/**
 * rp_module_going() - has the module of this name been seen going, and
 *	not come back since?
 * @name: a module's name
 *
 * Caller holds rp_registry_lock, which the notifier takes: a module not
 * seen going here has its probes removed by the notifier when it goes.
 */
bool rp_module_going(const char *name)
{
	lockdep_assert_held(&rp_registry_lock);
	return rp_going_lost || rp_going_find(name);
}

static void rp_going_add(const char *name)
{
	struct rp_going_mod *g;

	if (rp_going_find(name))
		return;
	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g) {
		rp_going_lost = true;
		return;
	}
	strscpy(g->name, name, sizeof(g->name));
	list_add(&g->node, &rp_going_mods);
}

static void rp_going_del(const char *name)
{
	struct rp_going_mod *g = rp_going_find(name);

	if (g) {
		list_del(&g->node);
		kfree(g);
	}
}

static bool rp_probe_in_module(struct rawprobe_probe *p, struct module *mod)
{
	return p->registered &&
	       within_module((unsigned long)rp_probe_kprobe(p)->addr, mod);
}

/* tps: the probes on tracepoints, else the others */
static void rp_module_gone(struct module *mod, bool tps)
{
	struct rawprobe_probe *p;

	list_for_each_entry(p, &rp_probes, node) {
		if (!p->tp != !tps || !rp_probe_in_module(p, mod))
			continue;
		rp_unregister(p);
		/*
		 * kprobes' own notifier ran first and marked it gone, which
		 * disable_kprobe() takes as disabled: this cannot fail. If
		 * it did, the probe is still the kernel's and must not be
		 * prepared afresh for a re-arm (rp_rearm() would memset it).
		 */
		if (WARN_ON_ONCE(p->registered))
			continue;
		p->state = RAWPROBE_STATE_GONE;
		strscpy(p->gone_with, mod->name, sizeof(p->gone_with));
		rp_probe_event(p, RAWPROBE_EVENT_GONE);
	}
}

/*
 * Register a gone probe again in mod; its kprobe starts afresh, a
 * tracepoint's probe takes the module's tracepoint of its name.
 */
static int rp_rearm(struct rawprobe_probe *p, struct module *mod)
{
	int err;

	if (!p->spec.symbol[0])
		return -EADDRNOTAVAIL;	/* a raw address: the code moved */
	/* Lockdown may have been raised since the probe was added. */
	if (rp_locked_down())
		return -EPERM;
	if (p->tp)
		return rp_tp_rearm(p, mod);
	p->fentry_ip = 0;	/* kprobes find the function where it is now */
	err = rp_kind_prepare(p, NULL);
	if (err)
		return err;
	if (p->spec.flags & RAWPROBE_F_DISABLED)
		rp_probe_kprobe(p)->flags |= KPROBE_FLAG_DISABLED;
	return rp_register(p);
}

static void rp_module_coming(struct module *mod, bool tps)
{
	struct rawprobe_probe *p;
	int err;

	list_for_each_entry(p, &rp_probes, node) {
		if (p->state != RAWPROBE_STATE_GONE || !p->tp != !tps ||
		    strcmp(p->gone_with, mod->name))
			continue;
		err = rp_rearm(p, mod);
		if (err) {
			pr_warn("probe %u: not re-armed in %s: %s (%d)\n",
				p->id, mod->name,
				err == -EPERM ? "kernel lockdown" :
				err == -EADDRNOTAVAIL ? "raw address" :
				err == -ENOENT ? "no such tracepoint" :
				"register failed", err);
			continue;
		}
		p->gone_with[0] = '\0';
		p->state = p->spec.flags & RAWPROBE_F_DISABLED ?
			   RAWPROBE_STATE_DISABLED : RAWPROBE_STATE_ARMED;
		rp_probe_event(p, RAWPROBE_EVENT_REARMED);
	}
}

/* A module that forgot rawprobe_unregister(): its handlers go away now. */
static bool rp_match_owner_mod(struct rawprobe_probe *p, const void *arg)
{
	if (p->owner_mod != arg)
		return false;
	pr_warn("%s left probe %u (%s) registered; removing it\n",
		p->owner_mod->name, p->id, p->name);
	return true;
}

/*
 * LIVE rather than COMING for the re-arm: the module's symbols and
 * ftrace records are final by then (its init function is not seen).
 */
static int rp_module_event(struct notifier_block *nb, unsigned long state,
			   void *data)
{
	struct module *mod = data;

	mutex_lock(&rp_registry_lock);
	if (state == MODULE_STATE_GOING) {
		rp_going_add(mod->name);
		rp_remove_all_matching(rp_match_owner_mod, mod);
		rp_module_gone(mod, false);
	} else if (state == MODULE_STATE_COMING) {
		rp_going_del(mod->name);
	} else if (state == MODULE_STATE_LIVE) {
		rp_module_coming(mod, false);
	}
	mutex_unlock(&rp_registry_lock);
	return NOTIFY_DONE;
}

static struct notifier_block rp_module_nb = {
	.notifier_call = rp_module_event,
};

/*
 * A module with tracepoints: COMING after ftrace has its events (a
 * probe finds its tracepoint by its event), before its init runs;
 * GOING before the kernel checks its tracepoints are quiet.
 */
static int rp_tp_module_event(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	struct tp_module *tm = data;

	mutex_lock(&rp_registry_lock);
	if (state == MODULE_STATE_GOING)
		rp_module_gone(tm->mod, true);
	else if (state == MODULE_STATE_COMING)
		rp_module_coming(tm->mod, true);
	mutex_unlock(&rp_registry_lock);
	return NOTIFY_DONE;
}

static struct notifier_block rp_tp_module_nb = {
	.notifier_call = rp_tp_module_event,
};

int rp_modules_init(void)
{
	int err = register_module_notifier(&rp_module_nb);

	if (err)
		return err;
	err = register_tracepoint_module_notifier(&rp_tp_module_nb);
	if (err)
		unregister_module_notifier(&rp_module_nb);
	return err;
}

void rp_modules_exit(void)
{
	struct rp_going_mod *g, *tmp;

	unregister_tracepoint_module_notifier(&rp_tp_module_nb);
	unregister_module_notifier(&rp_module_nb);
	list_for_each_entry_safe(g, tmp, &rp_going_mods, node)
		kfree(g);
}
