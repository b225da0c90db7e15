/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files that make up the probe registry, and by nothing
 * else: registry.c (the table), registry_check.c (what a spec may ask),
 * registry_arm.c (registering with kprobes), registry_custom.c (probes of
 * other modules), owner.c (probes owned by netlink sockets) and modules.c
 * (probes on module code). Everyone else goes through the functions
 * core.h declares.
 */
#ifndef _RAWPROBE_REGISTRY_H
#define _RAWPROBE_REGISTRY_H

#include <linux/mutex.h>
#include <linux/list.h>
#include "core.h"

/* The table: every change happens under this mutex (kprobes sleep). */
extern struct mutex rp_registry_lock;
extern struct list_head rp_probes;	/* in id order of insertion */

/* registry_check.c */
int rp_check_spec(const struct rp_probe_spec *spec,
		  struct netlink_ext_ack *extack);
int rp_check_lockdown(struct netlink_ext_ack *extack);

/* registry_arm.c: registration with kprobes, under the lock */
int rp_register(struct rawprobe_probe *p);
void rp_unregister(struct rawprobe_probe *p);
int rp_arm(struct rawprobe_probe *p, bool on);	/* enable or disable */
void rp_unregister_batch(struct rawprobe_probe **v, unsigned int n);
/* All of v, or none (undone in one grace period; *failed: which one) */
int rp_register_all(struct rawprobe_probe **v, unsigned int n,
		    struct netlink_ext_ack *extack, int *failed);

/* tracepoint.c: probes on tracepoints */
int rp_tp_find(struct rawprobe_probe *p, const char *event);
int rp_tp_register(struct rawprobe_probe *p);
void rp_tp_release(struct rawprobe_probe *p);
int rp_tp_rearm(struct rawprobe_probe *p, struct module *mod);
int rp_tp_set_armed(struct rawprobe_probe *p, bool on);
void rp_tp_unregister(struct rawprobe_probe **v, unsigned int n);

/* fentry.c: entry probes armed through ftrace, a batch at a time */
int rp_fentry_prepare(struct rawprobe_probe *p, struct netlink_ext_ack *extack);
int rp_fentry_register(struct rawprobe_probe **v, unsigned int n);
void rp_fentry_fallback(struct rawprobe_probe **v, unsigned int n);
int rp_fentry_set_armed(struct rawprobe_probe *p, bool on);
void rp_fentry_unregister(struct rawprobe_probe **v, unsigned int n);
void rp_fentry_exit(void);

/* registry.c: the table */
void rp_probe_event(struct rawprobe_probe *p, u8 event);
struct rawprobe_probe *rp_probe_alloc(const struct rp_probe_spec *spec,
				      struct rp_owner *own);
void rp_probe_free(struct rawprobe_probe *p);
/* Ids, checks against the table, registration and events; all or none */
int rp_insert_locked(struct rawprobe_probe **v, unsigned int n,
		     struct netlink_ext_ack *extack, int *failed);

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

/*
 * Probes owned by a released socket, and the probes that write into its
 * sessions (closed first: rp_session_close_owned()), in one pass: what
 * the kernel refuses to disarm is kept, listed and deletable.
 */
void rp_probe_del_owned(const struct rp_owner *owner);

#endif /* _RAWPROBE_REGISTRY_H */
