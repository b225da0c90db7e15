// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobe: raw kprobe, kretprobe and jprobe-style instrumentation with a
 * generic netlink control plane and per-CPU mmapped record rings.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include "core.h"
#include "registry.h"
#include "session.h"

/*
 * 0: automatic. 4 MiB per CPU, LTTng's default per-CPU buffer for kernel
 * channels: 16,384 records, about 15 ms of a tight syscall loop under
 * TCG, enough to cover a reader's wakeup on a loaded host; less per CPU
 * on machines with many CPUs, so that all rings stay within 256 MiB
 * (ring.c, rp_ring_auto_records()). Nothing is allocated before the first
 * probe or reader.
 */
static unsigned int ring_records;
module_param(ring_records, uint, 0444);
MODULE_PARM_DESC(ring_records,
		 "records per CPU ring, a power of two (default 0: 16384 = 4 MiB, less beyond 64 CPUs)");

static unsigned int ring_mode = RAWPROBE_RING_DISCARD;
module_param(ring_mode, uint, 0444);
MODULE_PARM_DESC(ring_mode, "0: drop new records when full, 1: overwrite");

static unsigned int wakeup_records;
module_param(wakeup_records, uint, 0444);
MODULE_PARM_DESC(wakeup_records,
		 "unread records per CPU that wake poll() (default 0: an eighth of the ring)");

static unsigned int ring_clock = RAWPROBE_CLOCK_AUTO;
module_param(ring_clock, uint, 0444);
MODULE_PARM_DESC(ring_clock,
		 "0: records carry CLOCK_MONOTONIC ns, 1: the TSC, cheaper, converted by readers, 2: the TSC where the kernel's clocksource is tsc, else 0 (default)");

/* LTTng's read timer: what wakes a reader for a trickle of records. */
static unsigned int flush_ms = 50;
module_param(flush_ms, uint, 0444);
MODULE_PARM_DESC(flush_ms,
		 "ms after which records below the watermark wake poll() (1..60000, default 50)");

/*
 * What goes with a released socket: its sessions, closed to new probes
 * first, then its probes and whatever probes others added into its
 * sessions (one attempt each: what the kernel keeps stays listed), then
 * the sessions' entries in the table.
 */
static void rp_owner_gone(const struct rp_owner *o)
{
	struct rp_session *s;

	rp_session_close_owned(o);
	rp_probe_del_owned(o);
	while ((s = rp_session_unlist_owned(o)))
		rp_session_put(s);	/* the table's */
}

static int __init rawprobe_init(void)
{
	struct rp_ring_geometry geo;
	int err;

	err = rp_ring_init(ring_records, ring_mode, wakeup_records, flush_ms);
	if (err)
		return err;
	err = rp_session_init(rp_ring_default_records(), ring_mode);
	if (err)
		return err;
	err = rp_clock_set(ring_clock, NULL);
	if (err) {
		pr_err("ring_clock=%u: no such clock, or no usable TSC\n",
		       ring_clock);
		goto err_ring;
	}
	rp_kprobe_kind_init();
	rp_kretprobe_kind_init();
	rp_custom_kind_init();
	rp_tracepoint_kind_init();
	err = rp_owner_init(rp_owner_gone);
	if (err)
		goto err_ring;
	err = rp_modules_init();
	if (err)
		goto err_owner;
	err = rp_chardev_init();
	if (err)
		goto err_modules;
	err = rp_genl_init();
	if (err)
		goto err_chardev;

	rp_ring_geometry(rp_session_default(), &geo);
	pr_info("version %s, ABI %u, %u rings of %u records, allocated on first use\n",
		RAWPROBE_VERSION, RAWPROBE_ABI_VERSION, geo.nr_rings,
		geo.nr_records);
	return 0;

err_chardev:
	rp_chardev_exit();
err_modules:
	rp_modules_exit();
err_owner:
	rp_owner_exit();
err_ring:
	rp_session_exit();
	return err;
}

static void __exit rawprobe_exit(void)
{
	/* Control plane first: no new probes while the rest goes away. */
	rp_genl_exit();
	rp_modules_exit();
	rp_registry_exit();	/* every probe, before their owners go */
	rp_owner_exit();
	rp_chardev_exit();
	rp_session_exit();	/* no probe, no reader: the rings go */
}

module_init(rawprobe_init);
module_exit(rawprobe_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("The rawprobe authors");
MODULE_DESCRIPTION("Raw kprobe, kretprobe and jprobe-style instrumentation");
MODULE_VERSION(RAWPROBE_VERSION);
