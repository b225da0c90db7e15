// SPDX-License-Identifier: GPL-2.0
/*
 * Arming: probes registered with the kernel's kprobes and unregistered,
 * in batches (one grace period for many), with register_*probe()'s
 * errors turned into reasons, and removal that cannot fail half-way (a
 * probe is disarmed before it is unregistered). A batch's entry probes
 * the caller gave ftrace addresses go to fentry.c first, in one ftrace
 * update. Called by the table (registry.c) and modules.c, under
 * rp_registry_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include "inject.h"
#include "registry.h"

/* Turn register_*probe()'s errno into a reason a person can act on. */
static void rp_explain_register_error(const struct rawprobe_probe *p, int err,
				      struct netlink_ext_ack *extack)
{
	bool in_mod = p->spec.module[0];

	switch (err) {
	case -ENOENT:
		if (in_mod)
			NL_SET_ERR_MSG(extack,
					   "symbol not found: module not loaded, or it has no such symbol");
		else
			NL_SET_ERR_MSG(extack,
					   "unknown symbol (not in /proc/kallsyms)");
		break;
	case -EILSEQ:
		NL_SET_ERR_MSG(extack,
				   "offset is not on an instruction boundary");
		break;
	case -EINVAL:
		if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
			NL_SET_ERR_MSG(extack,
					   "cannot probe here: not a function entry, blacklisted (NOKPROBE_SYMBOL) or not kernel text");
		else
			NL_SET_ERR_MSG(extack,
					   "cannot probe here: blacklisted (NOKPROBE_SYMBOL, see /sys/kernel/debug/kprobes/blacklist), notrace, or not kernel text");
		break;
	case -EBUSY:
		NL_SET_ERR_MSG(extack,
				   "address is busy (another probe type owns it)");
		break;
	case -EOPNOTSUPP:
		NL_SET_ERR_MSG(extack,
				   "probing this address is not supported");
		break;
	case -ENOMEM:
		NL_SET_ERR_MSG(extack, "out of memory");
		break;
	default:
		NL_SET_ERR_MSG(extack, "register_kprobe failed");
		break;
	}
}

int rp_register(struct rawprobe_probe *p)
{
	int err;

	if (p->tp)
		return rp_tp_register(p);
	if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
		err = register_kretprobe(&p->krp);
	else
		err = register_kprobe(&p->kp);
	if (!err)
		p->registered = true;
	return err;
}

/*
 * Removal that cannot fail half-way. unregister_*probe() returns nothing,
 * yet its disarm can fail (ftrace_set_filter_ip() out of memory, with a
 * WARN): the kernel then clears the kprobe's addr and leaves it in its
 * table, its handlers still called, and unregister_kretprobes() has freed
 * the kretprobe's rethook all the same. Unregistering such a struct again
 * is a double free; freeing it, a use after free. So a probe is disarmed
 * first, by disable_kprobe(): when that fails it leaves the probe as it
 * was, armed and registered, and can be tried again with no side effect.
 * Only a disabled probe is unregistered: nothing is left to disarm, so
 * __unregister_kprobe_top() cannot fail, and no struct is unregistered
 * twice. A probe already disabled (by the user, or gone with its module)
 * passes through disable_kprobe() untouched.
 */
static bool rp_disarm(struct rawprobe_probe *p)
{
	int err = rp_arm(p, false);

	if (err) {
		pr_warn_ratelimited("probe %u on %s: the kernel could not disarm it (%d); it stays armed\n",
				    p->id, p->target, err);
		return false;
	}
	return true;
}

int rp_arm(struct rawprobe_probe *p, bool on)
{
	int err;

	if (p->fentry_ip)
		return rp_fentry_set_armed(p, on);
	if (p->tp)
		return rp_tp_set_armed(p, on);
	if (on)
		return enable_kprobe(rp_probe_kprobe(p));
	err = disable_kprobe(rp_probe_kprobe(p));
	if (!err)
		rp_chain_step_disarmed(p);
	return err;
}

void rp_unregister(struct rawprobe_probe *p)
{
	if (p->fentry_ip) {
		rp_fentry_unregister(&p, 1);
		return;
	}
	if (p->tp) {
		rp_tp_unregister(&p, 1);
		return;
	}
	if (!p->registered || !rp_disarm(p))
		return;
	if (p->spec.kind == RAWPROBE_KIND_KRETPROBE)
		unregister_kretprobe(&p->krp);
	else
		unregister_kprobe(&p->kp);
	p->registered = false;
}

/*
 * Many probes at once (socket release, del all, rmmod): one grace period
 * per chunk of RP_UNREGISTER_CHUNK instead of one per probe. Not one for
 * the lot: unregister_kprobes() holds kprobe_mutex across its disarms,
 * and a disarm costs more the more probes are armed (each rewrites
 * ftrace's filter hash and patches text, with IPIs to every CPU). One
 * call for 10,000 held the mutex for 5 minutes under TCG, and the guest's
 * soft-lockup detector fired in it once (make bench).
 */
#define RP_UNREGISTER_CHUNK	64

static void rp_unregister_chunk(struct rawprobe_probe **v, unsigned int n,
				struct kprobe **kps, struct kretprobe **krps)
{
	unsigned int i, nk = 0, nr = 0;

	for (i = 0; i < n; i++) {
		/* (a tracepoint's, registered still: its detach failed) */
		if (!v[i]->registered || v[i]->tp || !rp_disarm(v[i]))
			continue;
		/* Disarmed: unregistering it cannot fail (see above). */
		v[i]->registered = false;
		if (v[i]->spec.kind == RAWPROBE_KIND_KRETPROBE)
			krps[nr++] = &v[i]->krp;
		else
			kps[nk++] = &v[i]->kp;
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(krps, nr);
}

void rp_unregister_batch(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int chunk = min_t(unsigned int, n, RP_UNREGISTER_CHUNK);
	struct kretprobe **krps;
	struct kprobe **kps;
	unsigned int i, k;

	rp_fentry_unregister(v, n);	/* one update for all of them */
	rp_tp_unregister(v, n);		/* one grace period */
	kps = kmalloc_array(chunk, sizeof(*kps), GFP_KERNEL);
	krps = kmalloc_array(chunk, sizeof(*krps), GFP_KERNEL);
	if (!kps || !krps) {
		for (i = 0; i < n; i++)
			rp_unregister(v[i]);
		goto out;
	}
	for (i = 0; i < n; i += k) {
		k = min_t(unsigned int, n - i, RP_UNREGISTER_CHUNK);
		rp_unregister_chunk(v + i, k, kps, krps);
		cond_resched();
	}
out:
	kfree(kps);
	kfree(krps);
}

/* Before the probes are freed: retry the disarms the kernel refused. */
static void rp_unregister_all(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i;

	for (;;) {
		rp_unregister_batch(v, n);
		for (i = 0; i < n && !v[i]->registered; i++)
			;
		if (i == n)
			return;
		msleep(100);
	}
}

/*
 * An override fakes a return by resuming at a bare "ret": right only at
 * the function's ftrace site, before it touched the stack. Its handler
 * checks the same flag on every hit, so it never acted before this.
 */
static int rp_check_ftrace_site(struct rawprobe_probe *p,
				struct netlink_ext_ack *extack)
{
	if (!p->spec.ovr.set || kprobe_ftrace(&p->kp))
		return 0;
	NL_SET_ERR_MSG(extack,
		       "return override needs the probe on the function's ftrace site, and kprobes put it elsewhere");
	return -EOPNOTSUPP;
}

/*
 * Registration; on failure, undo the first i probes in one grace period.
 * The ftrace-armed probes go first, all at once: if ftrace refuses them,
 * kprobes arm them one by one, and say which one it refuses and why.
 */
int rp_register_all(struct rawprobe_probe **v, unsigned int n,
		    struct netlink_ext_ack *extack, int *failed)
{
	unsigned int i;
	int err;

	err = rp_fentry_register(v, n);
	if (err) {
		pr_info_ratelimited("ftrace refused a batch of entry probes (%d); kprobes arms them\n",
				    err);
		rp_fentry_fallback(v, n);
	}
	for (i = 0; i < n; i++) {
		if (v[i]->registered)
			continue;	/* fentry.c's */
		/*
		 * A glob's batch arms for seconds: a signal (the command's
		 * Ctrl-C) ends it, and what it armed goes back. ECANCELED,
		 * not EINTR: netlink sends no answer for a doit's EINTR, and
		 * the caller would wait for one.
		 */
		if (signal_pending(current)) {
			NL_SET_ERR_MSG(extack,
				       "interrupted by a signal: none of the batch was added");
			*failed = -1;	/* no probe's fault */
			rp_unregister_all(v, n);
			return -ECANCELED;
		}
		if (v[i]->spec.flags & RAWPROBE_F_DISABLED)
			rp_probe_kprobe(v[i])->flags |= KPROBE_FLAG_DISABLED;
		err = rp_register(v[i]);
		if (err)
			rp_explain_register_error(v[i], err, extack);
		else
			err = rp_check_ftrace_site(v[i], extack);
		if (err) {
			*failed = i;
			rp_unregister_all(v, n);
			return err;
		}
	}
	return 0;
}
