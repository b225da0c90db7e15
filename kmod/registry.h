/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files that make up the probe registry, and by nothing
 * else: registry.c (the table), owner.c (probes owned by netlink
 * sockets) and modules.c (probes on module code). Everyone else goes
 * through the functions core.h declares.
 */
#ifndef _RAWPROBE_REGISTRY_H
#define _RAWPROBE_REGISTRY_H

#include <linux/mutex.h>
#include <linux/list.h>
#include "core.h"

/* The table: every change happens under this mutex (kprobes sleep). */
extern struct mutex rp_registry_lock;
extern struct list_head rp_probes;	/* in id order of insertion */

int rp_register(struct rawprobe_probe *p);
void rp_unregister(struct rawprobe_probe *p);
void rp_probe_event(struct rawprobe_probe *p, u8 event);

/*
 * Remove every probe matching pred(p, arg), in one grace period; returns
 * how many the kernel kept registered (they stay). The _all variant waits
 * until none is kept: for probes whose handlers are going away.
 */
unsigned int rp_remove_matching(bool (*pred)(struct rawprobe_probe *p,
					     const void *arg),
				const void *arg);
void rp_remove_all_matching(bool (*pred)(struct rawprobe_probe *p,
					 const void *arg),
			    const void *arg);

/* Probes owned by a released socket (owner.c calls it from its reaper). */
void rp_probe_del_owned(const struct rp_owner *owner);

#endif /* _RAWPROBE_REGISTRY_H */
