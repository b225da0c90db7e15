// SPDX-License-Identifier: GPL-2.0
/*
 * Test module: registers a probe through the rawprobe API and "forgets"
 * to unregister it, so the tests can check that the core removes it
 * when this module unloads. event=SUBSYSTEM:EVENT takes a tracepoint
 * instead (offset=N: a desc the core must refuse for one).
 */
#include <linux/module.h>
#include <linux/err.h>
#include <rawprobe/api.h>

static int leaky_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
		       void *data)
{
	rawprobe_emit(probe);
	return 0;
}

static char event[64];
module_param_string(event, event, sizeof(event), 0444);
static unsigned int offset;
module_param(offset, uint, 0444);

static struct rawprobe_desc leaky_desc = {
	.name	= "leaky",
	.symbol	= "__x64_sys_getpgid",
	.kind	= RAWPROBE_KIND_KPROBE,
	.entry	= leaky_entry,
};

static int __init rp_leaky_init(void)
{
	if (event[0]) {
		leaky_desc.symbol = event;
		leaky_desc.kind = RAWPROBE_KIND_TRACEPOINT;
		leaky_desc.offset = offset;
	}
	return PTR_ERR_OR_ZERO(rawprobe_register(&leaky_desc));
}

static void __exit rp_leaky_exit(void)
{
}

module_init(rp_leaky_init);
module_exit(rp_leaky_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rawprobe test: a module that leaves its probe behind");
