// SPDX-License-Identifier: GPL-2.0
/*
 * Entry probes armed through rawprobe's own ftrace_ops, a batch at a
 * time: a glob's functions in one ftrace update, where kprobes take one
 * each. The CLI sends every entry probe on a function by name here:
 * a hit finds its probes in this table, 4,096 chains, where kprobes walk
 * one of 64 that every other kprobe lengthens, and skips kprobes'
 * bookkeeping.
 *
 * Why: kprobes arms each probe on an ftrace site alone, adding its
 * address to kprobes' ftrace_ops filter; each such update copies the
 * filter hash and walks every ftrace record (about 50,000), so arming n
 * probes costs n updates, each dearer than the last. Here a batch's
 * addresses go into one filter in one ftrace_set_filter_ips() call, as
 * fprobe and BPF's kprobe.multi do. Debian's 6.1 has no CONFIG_FPROBE,
 * so rawprobe keeps the ftrace_ops itself.
 *
 * The handler finds the probes armed at the hit's address in a hash
 * table (RCU) and runs their kprobe pre-handlers with the registers
 * ftrace saves for any callback, the arguments' and the frame's, as
 * fprobe's do (ip one past the probed address, as after an int3). What
 * fires is what the table says is armed; the filter only
 * decides what calls the handler. So a filter update the kernel refuses
 * while disarming (ftrace's ENOMEM) leaves an address traced for
 * nothing, never a freed probe called, and disarming cannot fail.
 *
 * Only what kprobes would arm on the function's ftrace site, with the
 * same records: an entry kprobe at offset 0 of a function, named by
 * symbol with the address the caller read from kallsyms, which the
 * kernel checks against its own (sprint_symbol()); ftrace refuses an
 * address that is not an ftrace site, and the batch then goes to
 * kprobes. Not overrides (kprobes' IPMODIFY ops fakes the return).
 * A module's function is checked again at registration, under the lock
 * the module notifier takes: a module modules.c has seen going is left
 * to kprobes, which refuse it; one it has not will have its probes
 * unregistered there when it goes, their addresses out of the filter
 * before ftrace drops the module's records. A re-arm at the module's
 * next load goes through kprobes: its code moved.
 *
 * Everything but the handler runs under rp_registry_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>
#include "registry.h"

/*
 * The registers ftrace saved for rp_fentry_ops, which does not ask for
 * them all (FTRACE_OPS_FL_SAVE_REGS), as the pt_regs x86's ftrace_regs
 * wraps: the arguments' (di, si, dx, cx, r8, r9), ax, bp, sp and ip;
 * orig_ax and cs 0, a kernel-mode frame to user_mode() and the unwinder.
 * 6.12 hides the layout behind arch_ftrace_regs(); 6.1 declares it.
 */
#ifdef arch_ftrace_regs
#define rp_ftrace_arg_regs(fregs)	(&arch_ftrace_regs(fregs)->regs)
#else
#define rp_ftrace_arg_regs(fregs)	(&(fregs)->regs)
#endif

/* The probes by ftrace site; a site has one entry per probe on it. */
static DEFINE_HASHTABLE(rp_fentry_table, 12);
static unsigned int rp_fentry_nr_sites;	/* sites with an armed probe */
static bool rp_fentry_on;		/* rp_fentry_ops is registered */

/*
 * Set while this CPU runs handlers from rp_fentry_func(): a hit inside
 * them (a probed function they call, an interrupt's, an NMI's) is
 * counted and skipped, as kprobes skip one while kprobe_running(). One
 * per-CPU flag, where ftrace_test_recursion_trylock() keeps a bit per
 * context and tells them apart: a third of this path's instructions,
 * and the record path's floor is what it costs (docs/performance.md).
 */
static DEFINE_PER_CPU(bool, rp_fentry_busy);

/* A hit skipped: counted as kprobes count theirs (kp.nmissed). */
static void notrace rp_fentry_missed(unsigned long ip)
{
	struct rawprobe_probe *p;

	hash_for_each_possible_rcu_notrace(rp_fentry_table, p, fnode, ip)
		if (p->fentry_ip == ip && READ_ONCE(p->fentry_armed))
			p->kp.nmissed++;
}

/*
 * ftrace's callback (not FTRACE_OPS_FL_RECURSION: it guards itself).
 * Preemption stays off throughout, which the per-CPU flag and the
 * table's readers need: removal waits with synchronize_rcu(), as
 * unregister_kprobe() does for its table. An NMI between the flag's test
 * and its store runs its own hit to the end, clearing the flag, before
 * this one sets it.
 *
 * The handlers get the registers ftrace saves for every callback, not
 * all of them (rp_ftrace_arg_regs()): what they read of a hit is its
 * arguments, its stack pointer and frame (stacks, the caller) and ip;
 * saving and restoring the rest took 30 instructions a hit. Handlers
 * that need more (a module's own, overrides) are not armed here.
 */
static void notrace rp_fentry_func(unsigned long ip, unsigned long parent_ip,
				   struct ftrace_ops *op,
				   struct ftrace_regs *fregs)
{
	struct pt_regs *regs = rp_ftrace_arg_regs(fregs);
	struct rawprobe_probe *p;
	unsigned long ret_ip;

	preempt_disable_notrace();
	if (unlikely(__this_cpu_read(rp_fentry_busy))) {
		rp_fentry_missed(ip);
		goto out;
	}
	__this_cpu_write(rp_fentry_busy, true);
	/*
	 * Where ftrace resumes, past its call; the handlers see ip one past
	 * the probed address, as after an int3.
	 */
	ret_ip = instruction_pointer(regs);
	instruction_pointer_set(regs, ip + sizeof(kprobe_opcode_t));
	hash_for_each_possible_rcu_notrace(rp_fentry_table, p, fnode, ip)
		if (p->fentry_ip == ip && READ_ONCE(p->fentry_armed))
			p->kp.pre_handler(&p->kp, regs);
	instruction_pointer_set(regs, ret_ip);
	__this_cpu_write(rp_fentry_busy, false);
out:
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(rp_fentry_func);

/* No FTRACE_OPS_FL_SAVE_REGS: see rp_fentry_func() */
static struct ftrace_ops rp_fentry_ops = {
	.func	= rp_fentry_func,
};

/* The function's ftrace site: past its ENDBR on IBT kernels. */
static unsigned long rp_fentry_site(unsigned long addr)
{
	u32 insn;

	if (get_kernel_nofault(insn, (u32 *)addr))
		return 0;
	return is_endbr(insn) ? addr + ENDBR_INSN_SIZE : addr;
}

/*
 * "sym+0x0/0x1a0", then " [mod]" in a module, nothing in vmlinux: the
 * start of sym, where the caller named it.
 */
static bool rp_fentry_addr_is(unsigned long addr, const char *sym,
			      const char *mod)
{
	char buf[KSYM_SYMBOL_LEN], *in;
	size_t len = strlen(sym);

	sprint_symbol(buf, addr);
	if (strncmp(buf, sym, len) || strncmp(buf + len, "+0x0/", 5))
		return false;
	in = strchr(buf + len, '[');
	if (!mod[0] || !in)
		return !mod[0] && !in;
	len = strlen(mod);
	return !strncmp(in + 1, mod, len) && !strcmp(in + 1 + len, "]");
}

/**
 * rp_fentry_prepare() - check a probe asked to be armed through ftrace
 * @p: a probe whose kind has prepared it
 * @extack: the reason, if it cannot be
 *
 * A probe without RAWPROBE_A_FTRACE_ADDR passes untouched (kprobes arm
 * it).
 */
int rp_fentry_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack)
{
	const struct rp_probe_spec *s = &p->spec;

	p->fentry_ip = 0;
	if (!s->ftrace_addr)
		return 0;
	if ((s->kind != RAWPROBE_KIND_KPROBE &&
	     s->kind != RAWPROBE_KIND_JPROBE) || p->desc || !s->symbol[0] ||
	    s->offset || s->ovr.set || s->chain_step) {
		NL_SET_ERR_MSG(extack,
			       "an ftrace address is for an entry kprobe on a function by name, at offset 0, with no override");
		return -EINVAL;
	}
	if (!rp_fentry_addr_is(s->ftrace_addr, s->symbol, s->module)) {
		NL_SET_ERR_MSG(extack,
			       "the ftrace address is not where kallsyms has the symbol");
		return -EINVAL;
	}
	p->fentry_ip = rp_fentry_site(s->ftrace_addr);
	if (!p->fentry_ip) {
		NL_SET_ERR_MSG(extack, "the ftrace address cannot be read");
		return -EFAULT;
	}
	return 0;
}

/* Is a probe armed at ip, other than those the caller is changing? */
static bool rp_fentry_site_armed(unsigned long ip)
{
	struct rawprobe_probe *p;

	hash_for_each_possible(rp_fentry_table, p, fnode, ip)
		if (p->fentry_ip == ip && p->fentry_armed)
			return true;
	return false;
}

/* The first armed probes of n sites: trace them, in one update. */
static int rp_fentry_trace(unsigned long *ips, unsigned int n)
{
	int err;

	if (!n)
		return 0;
	if (rp_fentry_on) {
		err = ftrace_set_filter_ips(&rp_fentry_ops, ips, n, 0, 0);
	} else {
		/*
		 * Never registered with an empty filter, which traces every
		 * function: the sites first, replacing any left from before.
		 */
		err = ftrace_set_filter_ips(&rp_fentry_ops, ips, n, 0, 1) ?:
		      register_ftrace_function(&rp_fentry_ops);
		rp_fentry_on = !err;
	}
	if (!err)
		rp_fentry_nr_sites += n;
	return err;
}

/* The last armed probes of n sites gone: stop tracing them. */
static void rp_fentry_untrace(unsigned long *ips, unsigned int n)
{
	int err;

	if (!n)
		return;
	rp_fentry_nr_sites -= n;
	if (!rp_fentry_nr_sites) {
		/* Not an empty filter, which would trace everything. */
		err = unregister_ftrace_function(&rp_fentry_ops);
		if (!err) {
			rp_fentry_on = false;
			return;
		}
	} else {
		err = ftrace_set_filter_ips(&rp_fentry_ops, ips, n, 1, 0);
	}
	pr_warn_ratelimited("ftrace kept %u functions traced (%d); their hits find no probe\n",
			    n, err);
}

static int rp_ip_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Sites whose last armed probe is among v (disarmed already), once each. */
static unsigned int rp_fentry_freed_sites(struct rawprobe_probe **v,
					  unsigned int n, unsigned long *ips)
{
	unsigned int i, k = 0, out = 0;

	for (i = 0; i < n; i++)
		if (!rp_fentry_site_armed(v[i]->fentry_ip))
			ips[k++] = v[i]->fentry_ip;
	sort(ips, k, sizeof(*ips), rp_ip_cmp, NULL);
	for (i = 0; i < k; i++)
		if (!out || ips[out - 1] != ips[i])
			ips[out++] = ips[i];
	return out;
}

/* The kprobe the handlers are given: the site, as kprobes would set it. */
static void rp_fentry_kprobe_set(struct rawprobe_probe *p, bool fentry)
{
	p->kp.symbol_name = fentry ? NULL : p->target;
	p->kp.addr = fentry ? (kprobe_opcode_t *)p->fentry_ip : NULL;
}

/*
 * A module's function, still where the caller saw it and in a module
 * modules.c has not seen going (rp_registry_lock held): the module's
 * records stay until its notifier has unregistered the probe.
 */
static bool rp_fentry_module_live(struct rawprobe_probe *p)
{
	const struct rp_probe_spec *s = &p->spec;

	return !s->module[0] ||
	       (!rp_module_going(s->module) &&
		rp_fentry_addr_is(s->ftrace_addr, s->symbol, s->module));
}

/**
 * rp_fentry_register() - register the probes of v asked to be armed
 *	through ftrace, all in one update
 * @v: the batch; probes without an ftrace site are left to kprobes
 * @n: its size
 *
 * Return: 0, or ftrace's error, having registered none of them: the
 * caller then arms them through kprobes (rp_fentry_fallback()).
 */
int rp_fentry_register(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i, nips = 0;
	unsigned long *ips;
	int err;

	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct rawprobe_probe *p = v[i];

		if (!p->fentry_ip)
			continue;
		if (!rp_fentry_module_live(p)) {
			p->fentry_ip = 0;
			rp_fentry_kprobe_set(p, false);
			continue;
		}
		p->fentry_armed = !(p->spec.flags & RAWPROBE_F_DISABLED);
		if (p->fentry_armed && !rp_fentry_site_armed(p->fentry_ip))
			ips[nips++] = p->fentry_ip;
		rp_fentry_kprobe_set(p, true);
		hash_add_rcu(rp_fentry_table, &p->fnode, p->fentry_ip);
	}
	err = rp_fentry_trace(ips, nips);
	if (err) {
		for (i = 0; i < n; i++) {
			if (!v[i]->fentry_ip)
				continue;
			hash_del_rcu(&v[i]->fnode);
			v[i]->fentry_armed = false;
		}
		/* A site another probe had armed may have run them. */
		synchronize_rcu();
	} else {
		for (i = 0; i < n; i++)
			if (v[i]->fentry_ip)
				v[i]->registered = true;
	}
	kvfree(ips);
	return err;
}

/**
 * rp_fentry_fallback() - hand probes ftrace refused to kprobes
 * @v: probes rp_fentry_register() did not register
 * @n: how many
 */
void rp_fentry_fallback(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!v[i]->fentry_ip || v[i]->registered)
			continue;
		v[i]->fentry_ip = 0;
		rp_fentry_kprobe_set(v[i], false);
	}
}

/* One probe: its site's update alone (enable, disable, low memory). */
static void rp_fentry_disarm(struct rawprobe_probe *p)
{
	if (!p->fentry_armed)
		return;
	WRITE_ONCE(p->fentry_armed, false);
	if (!rp_fentry_site_armed(p->fentry_ip))
		rp_fentry_untrace(&p->fentry_ip, 1);
}

/**
 * rp_fentry_set_armed() - arm or disarm a registered ftrace-armed probe
 * @p: the probe
 * @on: arm it
 *
 * Return: 0, or ftrace's error arming it (it stays disarmed).
 */
int rp_fentry_set_armed(struct rawprobe_probe *p, bool on)
{
	int err = 0;

	if (!on) {
		rp_fentry_disarm(p);
		return 0;
	}
	if (p->fentry_armed)
		return 0;
	if (!rp_fentry_site_armed(p->fentry_ip))
		err = rp_fentry_trace(&p->fentry_ip, 1);
	if (!err)
		WRITE_ONCE(p->fentry_armed, true);
	return err;
}

/**
 * rp_fentry_unregister() - unregister the ftrace-armed probes of v
 * @v: probes; those kprobes armed, or not registered, are skipped
 * @n: how many
 *
 * One filter update and one grace period for all of them; cannot fail
 * (see the top of the file). Without memory for the batch's sites, each
 * probe is disarmed alone.
 */
void rp_fentry_unregister(struct rawprobe_probe **v, unsigned int n)
{
	unsigned int i, k = 0, removed = 0;
	struct rawprobe_probe **was;
	unsigned long *ips;

	for (i = 0; i < n; i++)
		removed += v[i]->registered && v[i]->fentry_ip;
	if (!removed)
		return;
	was = kvmalloc_array(n, sizeof(*was), GFP_KERNEL);
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		struct rawprobe_probe *p = v[i];

		if (!p->registered || !p->fentry_ip || !p->fentry_armed)
			continue;
		if (!was || !ips) {
			rp_fentry_disarm(p);
			continue;
		}
		WRITE_ONCE(p->fentry_armed, false);
		was[k++] = p;
	}
	if (k)
		rp_fentry_untrace(ips, rp_fentry_freed_sites(was, k, ips));
	for (i = 0; i < n; i++) {
		if (!v[i]->registered || !v[i]->fentry_ip)
			continue;
		hash_del_rcu(&v[i]->fnode);
		v[i]->registered = false;
	}
	/* No handler still runs one of them when the caller frees it. */
	synchronize_rcu();
	kvfree(was);
	kvfree(ips);
}

/*
 * At rmmod, every probe gone. ftrace must stop calling into the module
 * before its code goes: a refused unregister is tried again, as
 * registry_arm.c retries disarms.
 */
void rp_fentry_exit(void)
{
	while (rp_fentry_on) {
		if (!unregister_ftrace_function(&rp_fentry_ops)) {
			rp_fentry_on = false;
			break;
		}
		msleep(100);
	}
	ftrace_free_filter(&rp_fentry_ops);
}
