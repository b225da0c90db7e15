// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's floor: a kprobe or a kretprobe whose handlers do
 * nothing, or an empty probe on a tracepoint. What a probe on the
 * symbol costs before anyone records anything; rawprobe's rows are
 * compared with these.
 *
 *   insmod rp_bench_empty.ko [symbol=__x64_sys_getpgid] [kind=kprobe|kretprobe]
 *   insmod rp_bench_empty.ko kind=tracepoint symbol=sys_enter
 *
 * The kretprobe has only a return handler (no entry handler, no
 * instance data) and the kernel's default maxactive: the least a return
 * probe can cost.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

static char symbol[KSYM_NAME_LEN] = "__x64_sys_getpgid";
module_param_string(symbol, symbol, sizeof(symbol), 0444);
MODULE_PARM_DESC(symbol, "function to probe (default __x64_sys_getpgid)");

static char kind[16] = "kprobe";
module_param_string(kind, kind, sizeof(kind), 0444);
MODULE_PARM_DESC(kind, "kprobe (default), kretprobe or tracepoint");

static int rp_bench_pre(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static int rp_bench_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe rp_bench_kp = {
	.pre_handler = rp_bench_pre,
};

static struct kretprobe rp_bench_krp = {
	.handler = rp_bench_ret,
};

static bool rp_bench_is_ret;
static struct tracepoint *rp_bench_tp;

/* A tracepoint's probe: six words, as rawprobe's takes them */
static void rp_bench_tp_probe(void *data, u64 a0, u64 a1, u64 a2, u64 a3,
			      u64 a4, u64 a5)
{
}

static void rp_bench_tp_match(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, symbol))
		rp_bench_tp = tp;
}

static int rp_bench_tp_init(void)
{
	for_each_kernel_tracepoint(rp_bench_tp_match, NULL);
	if (!rp_bench_tp)
		return -ENOENT;
	return tracepoint_probe_register(rp_bench_tp, rp_bench_tp_probe, NULL);
}

static int __init rp_bench_init(void)
{
	int err;

	if (!strcmp(kind, "tracepoint")) {
		err = rp_bench_tp_init();
	} else if (!strcmp(kind, "kretprobe")) {
		rp_bench_is_ret = true;
		rp_bench_krp.kp.symbol_name = symbol;
		err = register_kretprobe(&rp_bench_krp);
	} else if (!strcmp(kind, "kprobe")) {
		rp_bench_kp.symbol_name = symbol;
		err = register_kprobe(&rp_bench_kp);
	} else {
		pr_err("kind must be kprobe, kretprobe or tracepoint, not '%s'\n",
		       kind);
		return -EINVAL;
	}
	if (err)
		pr_err("cannot probe %s: %d\n", symbol, err);
	return err;
}

static void __exit rp_bench_exit(void)
{
	if (rp_bench_tp) {
		tracepoint_probe_unregister(rp_bench_tp, rp_bench_tp_probe, NULL);
		tracepoint_synchronize_unregister();
	} else if (rp_bench_is_ret)
		unregister_kretprobe(&rp_bench_krp);
	else
		unregister_kprobe(&rp_bench_kp);
}

module_init(rp_bench_init);
module_exit(rp_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe benchmark: empty kprobe/kretprobe handlers");
