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
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/security.h>
#include <linux/tracepoint.h>
#include "registry.h"

static bool rp_probe_in_module(struct rawprobe_probe *p, struct module *mod)
{
	return p->registered &&
	       within_module((unsigned long)rp_probe_kprobe(p)->addr, mod);
}

/* tps: the probes on tracepoints, else the others */
static void rp_module_going(struct module *mod, bool tps)
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
		rp_remove_all_matching(rp_match_owner_mod, mod);
		rp_module_going(mod, false);
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
		rp_module_going(tm->mod, true);
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
	unregister_tracepoint_module_notifier(&rp_tp_module_nb);
	unregister_module_notifier(&rp_module_nb);
}
