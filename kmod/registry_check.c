// SPDX-License-Identifier: GPL-2.0
/*
 * What a probe spec may ask for, checked before anything is allocated or
 * registered: a target, arguments only where they are defined, filters
 * that can match, and no probe at all under kernel lockdown.
 */
#include <linux/cpumask.h>
#include <linux/string.h>
#include "registry.h"

/*
 * Syscall entry points (__x64_sys_*) take one argument: the user's
 * pt_regs. Their "real" arguments are the syscall's, read from there;
 * and what they return is the system call's result, which an override
 * may set.
 */
bool rp_is_syscall_wrapper(const char *sym)
{
	return str_has_prefix(sym, "__x64_sys_") ||
	       str_has_prefix(sym, "__ia32_sys_") ||
	       str_has_prefix(sym, "__ia32_compat_sys_") ||
	       str_has_prefix(sym, "__x64_compat_sys_");
}

static int rp_check_filter(const struct rp_filter *f,
			   struct netlink_ext_ack *extack)
{
	if ((f->mask & RP_FILTER_COMM) && !f->comm[0]) {
		NL_SET_ERR_MSG(extack, "the comm filter is empty");
		return -EINVAL;
	}
	if ((f->mask & RP_FILTER_CPU) &&
	    (f->cpu >= nr_cpu_ids || !cpu_possible(f->cpu))) {
		NL_SET_ERR_MSG(extack, "no such CPU for the cpu filter");
		return -EINVAL;
	}
	return 0;
}

/*
 * Lockdown (confidentiality) forbids kprobes that read kernel memory. It
 * can be raised at any time, so every path that arms a probe asks: add,
 * enable, re-arm on module load; and /dev/rawprobe's open.
 */
int rp_check_lockdown(struct netlink_ext_ack *extack)
{
	if (!rp_locked_down())
		return 0;
	NL_SET_ERR_MSG(extack, "refused by kernel lockdown");
	return -EPERM;
}

static bool rp_fetch_loads(const struct rawprobe_fetch *f)
{
	return f->nloads > 0;
}

/*
 * Whether the probe reads memory at addresses its hits choose: a string
 * capture, a field path, a value filter on a field or a string. A system call's
 * argument is whatever address a process passes, so such a probe reads
 * any memory any process names; the callers' capabilities decide
 * (genl.c). Registers, the saved pt_regs of a system call and stack
 * return addresses are what perf shows CAP_PERFMON, and stay open to it.
 */
bool rp_spec_reads_memory(const struct rp_probe_spec *spec)
{
	unsigned int i;

	for (i = 0; i < spec->nargs; i++)
		if (rp_argtype_is_str(spec->argtypes[i]))
			return true;
	for (i = 0; i < spec->nfetch; i++)
		if (rp_fetch_loads(&spec->fetch[i]))
			return true;
	for (i = 0; i < spec->nterms; i++)
		if (rp_fetch_loads(&spec->terms[i].fetch) ||
		    spec->terms[i].cmp >= RAWPROBE_CMP_STR_EQ)	/* a string */
			return true;
	return false;
}

int rp_check_spec(const struct rp_probe_spec *spec,
			 struct netlink_ext_ack *extack)
{
	bool entry = spec->offset == 0;

	if (!spec->symbol[0] && !spec->addr) {
		NL_SET_ERR_MSG(extack, "a symbol or an address is required");
		return -EINVAL;
	}
	if (spec->symbol[0] && spec->addr) {
		NL_SET_ERR_MSG(extack, "give a symbol or an address, not both");
		return -EINVAL;
	}
	if (spec->module[0] && !spec->symbol[0]) {
		NL_SET_ERR_MSG(extack, "a module needs a symbol in it");
		return -EINVAL;
	}
	if (spec->kind == RAWPROBE_KIND_KRETPROBE && !entry) {
		NL_SET_ERR_MSG(extack,
				   "return probes attach at a function entry: offset must be 0");
		return -EINVAL;
	}
	if (spec->nargs && !entry) {
		NL_SET_ERR_MSG(extack,
				   "arguments are only defined at function entry (offset 0)");
		return -EINVAL;
	}
	/*
	 * Nothing says a raw address is a function's entry, where argument
	 * registers mean what the prototype says (kretprobes are checked
	 * for it by kprobes itself).
	 */
	if (!spec->symbol[0] && spec->kind != RAWPROBE_KIND_KRETPROBE &&
	    (spec->nargs || spec->kind == RAWPROBE_KIND_JPROBE)) {
		NL_SET_ERR_MSG(extack,
				   "arguments need a function entry: give the function's name, not an address");
		return -EINVAL;
	}
	if (spec->kind == RAWPROBE_KIND_JPROBE && !entry) {
		NL_SET_ERR_MSG(extack,
				   "jprobe-style probes attach at a function entry: offset must be 0");
		return -EINVAL;
	}
	if (spec->maxactive && spec->kind != RAWPROBE_KIND_KRETPROBE) {
		NL_SET_ERR_MSG(extack, "maxactive applies to kretprobes only");
		return -EINVAL;
	}
	/*
	 * An override or a call-chain step lives as long as the command
	 * that set it: persistent, it would go on failing calls with no
	 * one watching, and no socket's release would take it away.
	 */
	if ((spec->ovr.set || spec->chain_step) &&
	    (spec->flags & RAWPROBE_F_PERSISTENT)) {
		NL_SET_ERR_MSG(extack,
			       "return override and fault injection cannot be persistent: they go with the command that adds them (trace --override, inject)");
		return -EINVAL;
	}
	if (rp_check_filter(&spec->filter, extack))
		return -EINVAL;
	return rp_check_lockdown(extack);
}
