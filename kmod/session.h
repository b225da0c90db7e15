/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions: a set of per-CPU rings, the probes that write into them and
 * the one file that reads them. session.c keeps the table (ids, names,
 * owners, who may use which); ring.c a session's rings (memory, geometry,
 * reader, wakeups).
 *
 * Session 0 is the default one: it is made at insmod, allocates its
 * rings on first use and is where probes write unless they name another.
 * Other sessions allocate their rings when they are made. A named session
 * stays until it is deleted; an unnamed one is its netlink socket's and
 * ends with it.
 *
 * References: the table holds one while the session is listed, each
 * probe writing into it one (registry.c), each file that reads it one
 * (chardev.c). The last one frees the rings, so a reader killed last
 * still frees them; a writer never outlives its rings, as a probe is a
 * session's writer from its insertion to its removal
 * (rp_ring_attach_probe()).
 */
#ifndef _RAWPROBE_SESSION_H
#define _RAWPROBE_SESSION_H

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include "rawprobe.h"

struct rp_owner;
struct rp_rings;
struct rawprobe_probe;

struct rp_session {
	struct kref ref;
	u32 id;
	char name[RAWPROBE_SESSION_NAME_LEN];	/* "": unnamed */
	kuid_t uid;			/* who made it: its records are theirs */
	const struct rp_owner *owner;	/* unnamed: its socket; else NULL */
	bool listed;			/* in the table, under rp_sessions_lock */
	/* ring.c's */
	struct mutex resize_lock;	/* one allocation at a time */
	struct mutex lock;		/* the swap, readers, probes, geometry */
	u32 cfg_records, cfg_mode;	/* what the next allocation uses */
	unsigned int readers;		/* files that map the rings */
	struct list_head probes;	/* the probes that write into them */
	unsigned int nr_probes;
	struct rp_rings __rcu *rings;
	wait_queue_head_t waitq;
	struct timer_list flush;
};

/* session.c */
int rp_session_init(u32 nr_records, u32 mode);
void rp_session_exit(void);
struct rp_session *rp_session_default(void);
struct rp_session *rp_session_new(const char *name, u32 nr_records,
				  u32 mode, const struct rp_owner *own,
				  struct netlink_ext_ack *extack);
struct rp_session *rp_session_find(u32 id, const char *name,
				   struct netlink_ext_ack *extack);
bool rp_session_may_use(const struct rp_session *s, bool sys_admin);
void rp_session_get(struct rp_session *s);
void rp_session_put(struct rp_session *s);
bool rp_session_unlist(struct rp_session *s);
void rp_session_close_owned(const struct rp_owner *own);
struct rp_session *rp_session_unlist_owned(const struct rp_owner *own);
int rp_session_walk(u32 *pos, int (*fn)(struct rp_session *s, void *ctx),
		    void *ctx);

/* ring.c: a session's rings */
struct rp_ring_geometry {
	u32 nr_rings;
	u32 nr_records;
	u32 mode;
	u32 watermark;
	u64 bytes;	/* allocated now: 0 before the first use */
	u64 lost;	/* records the rings lost, all CPUs */
	u32 readers;
	u32 nr_probes;
};

int rp_ring_init(u32 nr_records, u32 mode, u32 watermark, u32 flush_ms);
u32 rp_ring_default_records(void);
void rp_ring_session_init(struct rp_session *s, u32 nr_records, u32 mode);
void rp_ring_session_exit(struct rp_session *s);
int rp_ring_check_size(u32 nr_records);
void rp_ring_geometry(struct rp_session *s, struct rp_ring_geometry *geo);
int rp_ring_ensure(struct rp_session *s);
bool rp_ring_allocated(struct rp_session *s);
void rp_ring_release_unused(struct rp_session *s);
/* RP_RING_KEEP for either: as it is when the resize takes its lock */
#define RP_RING_KEEP	U32_MAX
int rp_ring_resize(struct rp_session *s, u32 nr_records, u32 mode);
bool rp_ring_attach_probe(struct rp_session *s, struct rawprobe_probe *p);
void rp_ring_detach_probe(struct rp_session *s, struct rawprobe_probe *p);
int rp_ring_reader_get(struct rp_session *s);
void rp_ring_reader_put(struct rp_session *s);
struct page *rp_ring_ctrl_page(struct rp_session *s, u32 ring);
struct page *rp_ring_data_page(struct rp_session *s, u32 ring,
			       unsigned long pgoff);
__poll_t rp_ring_poll(struct rp_session *s, struct file *file,
		      poll_table *wait);

#endif /* _RAWPROBE_SESSION_H */
