// SPDX-License-Identifier: GPL-2.0
/*
 * Probes registered by other modules (include/rawprobe/api.h): the
 * kprobe and kretprobe handlers hand over to the module's own, which
 * write records with rawprobe_reserve()/rawprobe_commit(). Filters set
 * over netlink do not apply: the module's handler decides.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include "core.h"

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

void rp_custom_prepare(struct rawprobe_probe *p)
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

/*
 * Return override. At a function's ftrace site the kprobe handler runs
 * before the function has touched the stack: the caller's return address
 * is on top. Resuming at a bare "ret" returns to the caller with rc in
 * the return register, as the kernel's own override (just_return_func,
 * not exported, and absent when FUNCTION_ERROR_INJECTION is off) does.
 */
#ifdef CONFIG_X86_64
asmlinkage void rp_just_return(void);
asm(
	".text\n"
	".type rp_just_return, @function\n"
	"rp_just_return:\n"
	ANNOTATE_NOENDBR
	ASM_RET
	".size rp_just_return, .-rp_just_return\n"
);

static void rp_override(struct pt_regs *regs, unsigned long rc)
{
	regs_set_return_value(regs, rc);
	instruction_pointer_set(regs, (unsigned long)&rp_just_return);
}
NOKPROBE_SYMBOL(rp_override);
#define RP_HAVE_OVERRIDE 1
#else
static void rp_override(struct pt_regs *regs, unsigned long rc)
{
}
#define RP_HAVE_OVERRIDE 0
#endif

/* At add time: may this probe's entry handler override the return? */
int rp_override_check(struct rawprobe_probe *p)
{
	if (!RP_HAVE_OVERRIDE || p->spec.kind == RAWPROBE_KIND_KRETPROBE ||
	    p->spec.offset || !rp_is_syscall_wrapper(p->spec.symbol))
		return -EINVAL;
	return 0;
}

int rawprobe_override_return(struct rawprobe_probe *p, struct pt_regs *regs,
			     unsigned long rc)
{
	/* Checked at registration; the ftrace site once registered. */
	if (WARN_ON_ONCE(!p->desc || !(p->desc->flags & RAWPROBE_DESC_OVERRIDE) ||
			 !kprobe_ftrace(&p->kp)))
		return 0;
	rp_override(regs, rc);
	return 1;
}
EXPORT_SYMBOL_GPL(rawprobe_override_return);
NOKPROBE_SYMBOL(rawprobe_override_return);
