// SPDX-License-Identifier: GPL-2.0
/*
 * The session table (session.h): ids, names, owners and who may use a
 * session.
 *
 * Ids are cyclic, as probe ids are: a file that attaches to a session by
 * an id it was told about must not reach a new session that took the id
 * of one that ended. A session's records are its maker's: only a caller
 * with the same effective uid, or CAP_SYS_ADMIN, may add probes into it
 * or read it. The default session is everyone's who may trace at all, as
 * the one set of rings was before sessions.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "core.h"
#include "session.h"

static DEFINE_MUTEX(rp_sessions_lock);	/* the table, names, listed */
static DEFINE_IDR(rp_session_ids);
static struct rp_session *rp_default_session;
/* Sessions besides the default one: each holds rings on every CPU. */
#define RP_MAX_SESSIONS	1024
static unsigned int rp_nr_sessions;

static struct rp_session *rp_session_alloc(u32 nr_records, u32 mode)
{
	struct rp_session *s = kzalloc(sizeof(*s), GFP_KERNEL_ACCOUNT);

	if (!s)
		return NULL;
	kref_init(&s->ref);
	s->uid = current_euid();
	rp_ring_session_init(s, nr_records, mode);
	return s;
}

static void rp_session_release(struct kref *ref)
{
	struct rp_session *s = container_of(ref, struct rp_session, ref);

	rp_ring_session_exit(s);
	kfree(s);
}

void rp_session_get(struct rp_session *s)
{
	kref_get(&s->ref);
}

/* Process context: the last reference frees the rings, which sleeps. */
void rp_session_put(struct rp_session *s)
{
	if (s)
		kref_put(&s->ref, rp_session_release);
}

struct rp_session *rp_session_default(void)
{
	return rp_default_session;
}

int rp_session_init(u32 nr_records, u32 mode)
{
	int err;

	rp_default_session = rp_session_alloc(nr_records, mode);
	if (!rp_default_session)
		return -ENOMEM;
	rp_default_session->uid = GLOBAL_ROOT_UID;
	mutex_lock(&rp_sessions_lock);
	err = idr_alloc(&rp_session_ids, rp_default_session,
			RAWPROBE_SESSION_DEFAULT, RAWPROBE_SESSION_DEFAULT + 1,
			GFP_KERNEL);
	if (err >= 0)
		rp_default_session->listed = true;
	mutex_unlock(&rp_sessions_lock);
	if (err < 0) {
		rp_session_put(rp_default_session);
		return err;
	}
	return 0;
}

/* After every probe and every reader: rmmod. */
void rp_session_exit(void)
{
	struct rp_session *s;
	int id;

	idr_for_each_entry(&rp_session_ids, s, id)
		rp_session_put(s);
	idr_destroy(&rp_session_ids);
}

static struct rp_session *rp_session_by_name_locked(const char *name)
{
	struct rp_session *s;
	int id;

	lockdep_assert_held(&rp_sessions_lock);
	idr_for_each_entry(&rp_session_ids, s, id)
		if (s->name[0] && !strcmp(s->name, name))
			return s;
	return NULL;
}

static int rp_session_list(struct rp_session *s, const char *name,
			   struct netlink_ext_ack *extack)
{
	int id;

	mutex_lock(&rp_sessions_lock);
	if (rp_nr_sessions >= RP_MAX_SESSIONS) {
		NL_SET_ERR_MSG(extack, "too many sessions");
		id = -ENOSPC;
		goto out;
	}
	if (name && rp_session_by_name_locked(name)) {
		NL_SET_ERR_MSG(extack, "a session of that name exists");
		id = -EEXIST;
		goto out;
	}
	id = idr_alloc_cyclic(&rp_session_ids, s, RAWPROBE_SESSION_DEFAULT + 1,
			      0, GFP_KERNEL);
	if (id < 0)
		goto out;
	s->id = id;
	if (name)
		strscpy(s->name, name, sizeof(s->name));
	s->listed = true;
	rp_nr_sessions++;
out:
	mutex_unlock(&rp_sessions_lock);
	return id < 0 ? id : 0;
}

/*
 * A new session, its rings allocated (and charged): nr_records 0 is the
 * default session's size, halved while the budget has no room for it
 * (down to RAWPROBE_RING_MIN); mode RP_RING_KEEP the default session's.
 * Named, it stays until rp_session_unlist(); unnamed, it is own's.
 * Returned referenced: rp_session_put() when done with it.
 */
struct rp_session *rp_session_new(const char *name, u32 nr_records,
				  u32 mode, const struct rp_owner *own,
				  struct netlink_ext_ack *extack)
{
	struct rp_session *def = rp_default_session, *s;
	bool fit = !nr_records;
	int err;

	if (!nr_records)
		nr_records = READ_ONCE(def->cfg_records);
	if (mode == RP_RING_KEEP)
		mode = READ_ONCE(def->cfg_mode);
	s = rp_session_alloc(nr_records, mode);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->owner = name ? NULL : own;
	for (;;) {
		err = rp_ring_ensure(s);
		if (err != -E2BIG || !fit || s->cfg_records <= RAWPROBE_RING_MIN ||
		    (s->cfg_records / 2) * RAWPROBE_RECORD_SIZE < PAGE_SIZE)
			break;
		s->cfg_records /= 2;
	}
	if (err == -E2BIG)
		NL_SET_ERR_MSG(extack,
			       "the rings would take more than is left of the sixteenth of RAM that rings, kretprobe instances and tables share: ask for fewer records, or end other sessions");
	else if (err == -ENOMEM)
		NL_SET_ERR_MSG(extack,
			       "not enough memory for the rings (or over the caller's memory cgroup limit)");
	if (!err)
		err = rp_session_list(s, name, extack);
	if (err) {
		rp_session_put(s);
		return ERR_PTR(err);
	}
	rp_session_get(s);	/* the caller's; the first is the table's */
	return s;
}

/*
 * A listed session, referenced, by name if name is set, else by id; or
 * an ERR_PTR with the reason in extack.
 */
struct rp_session *rp_session_find(u32 id, const char *name,
				   struct netlink_ext_ack *extack)
{
	struct rp_session *s;

	mutex_lock(&rp_sessions_lock);
	s = name ? rp_session_by_name_locked(name) :
		   idr_find(&rp_session_ids, id);
	if (s)
		rp_session_get(s);
	mutex_unlock(&rp_sessions_lock);
	if (!s) {
		NL_SET_ERR_MSG(extack, "no such session (see `ring list`)");
		return ERR_PTR(-ENOENT);
	}
	return s;
}

/*
 * Records hold what a probe read in its maker's name: they are for the
 * same user, or an administrator; the default session is everyone's.
 */
bool rp_session_may_use(const struct rp_session *s, bool sys_admin)
{
	return s->id == RAWPROBE_SESSION_DEFAULT || sys_admin ||
	       uid_eq(s->uid, current_euid());
}

static void rp_session_unlist_locked(struct rp_session *s)
{
	lockdep_assert_held(&rp_sessions_lock);
	idr_remove(&rp_session_ids, s->id);
	WRITE_ONCE(s->listed, false);
	rp_nr_sessions--;
}

/*
 * Take a session out of the table (no new probe or reader finds it);
 * returns whether this call did, and with it the table's reference.
 */
bool rp_session_unlist(struct rp_session *s)
{
	bool did;

	mutex_lock(&rp_sessions_lock);
	did = s->listed && s->id != RAWPROBE_SESSION_DEFAULT;
	if (did)
		rp_session_unlist_locked(s);
	mutex_unlock(&rp_sessions_lock);
	return did;
}

/*
 * own's socket is gone: its sessions take no more probes (registry.c
 * checks listed under its lock), before their probes are removed.
 */
void rp_session_close_owned(const struct rp_owner *own)
{
	struct rp_session *s;
	int id;

	mutex_lock(&rp_sessions_lock);
	idr_for_each_entry(&rp_session_ids, s, id)
		if (s->owner == own && s->id != RAWPROBE_SESSION_DEFAULT)
			WRITE_ONCE(s->listed, false);
	mutex_unlock(&rp_sessions_lock);
}

/*
 * One of own's sessions, out of the table, with the table's reference:
 * its socket is gone. NULL when it has no more.
 */
struct rp_session *rp_session_unlist_owned(const struct rp_owner *own)
{
	struct rp_session *s;
	int id;

	mutex_lock(&rp_sessions_lock);
	idr_for_each_entry(&rp_session_ids, s, id)
		if (s->owner == own && s->id != RAWPROBE_SESSION_DEFAULT) {
			rp_session_unlist_locked(s);
			goto out;
		}
	s = NULL;
out:
	mutex_unlock(&rp_sessions_lock);
	return s;
}

/* fn on every listed session from *pos on, as rp_probe_walk(). */
int rp_session_walk(u32 *pos, int (*fn)(struct rp_session *s, void *ctx),
		    void *ctx)
{
	struct rp_session *s;
	int id, err = 0;

	mutex_lock(&rp_sessions_lock);
	id = *pos;
	idr_for_each_entry_continue(&rp_session_ids, s, id) {
		err = fn(s, ctx);
		if (err)
			break;
	}
	*pos = err ? id : id + 1;
	mutex_unlock(&rp_sessions_lock);
	return err;
}
