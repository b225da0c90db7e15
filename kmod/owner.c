// SPDX-License-Identifier: GPL-2.0
/*
 * Probe ownership: a probe added without RAWPROBE_F_PERSISTENT belongs
 * to the netlink socket that added it and goes when that socket is
 * released (the CLI exits, is killed, crashes).
 *
 * Each socket that owns probes has one struct rp_owner, made when it
 * first adds a probe (GFP_KERNEL, in its own request, where failing is
 * a clean ENOMEM). The NETLINK_URELEASE notifier runs in a context that
 * must not sleep and must not fail: it only moves the socket's
 * rp_owner, already allocated, to the reaper's list. The reaper (a
 * work item) removes the probes that point to it and frees it.
 *
 * An rp_owner is its socket's, found by the socket's address in the add
 * path. The notifier only has (net, port id), and netlink_release() frees
 * the port id before it calls the notifier: a new socket may already have
 * taken the port id, added probes of its own and been released too. Of
 * the records with that (net, port id), a released one is one whose
 * socket is orphaned (SOCK_DEAD, set before the notifier runs). Two
 * released sockets that shared a port id may each take the other's
 * record: both are released, so both records are reaped, each once.
 * But the one whose notifier ran first may have freed its socket while
 * the other's notifier still looks at that socket's record: so every
 * record holds a reference on its socket (sock_hold), dropped by the
 * reaper. o->sk is never freed while its record is on a list.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include "core.h"

struct rp_owner {
	struct list_head node;	/* rp_owners, then rp_released */
	struct sock *sk;	/* the socket, held: identity, SOCK_DEAD */
	struct net *net;	/* not a reference: compared, never used */
	u32 portid;
};

/* Notifier context: a spinlock, with bottom halves off (it may be BH). */
static DEFINE_SPINLOCK(rp_owners_lock);
static LIST_HEAD(rp_owners);		/* sockets alive */
static LIST_HEAD(rp_released);		/* sockets waiting for the reaper */

static void rp_reap_fn(struct work_struct *work);
static DECLARE_WORK(rp_reap_work, rp_reap_fn);
/*
 * What goes with a released socket: its probes, removed by the table,
 * which is above this file and hands it the call at init.
 */
static void (*rp_owner_release)(const struct rp_owner *o);

static struct rp_owner *rp_owner_of_sock(const struct sock *sk)
{
	struct rp_owner *o;

	lockdep_assert_held(&rp_owners_lock);
	list_for_each_entry(o, &rp_owners, node)
		if (o->sk == sk)
			return o;
	return NULL;
}

/* The record of a socket being released (see the top of the file). */
static struct rp_owner *rp_owner_released(struct net *net, u32 portid)
{
	struct rp_owner *o;

	lockdep_assert_held(&rp_owners_lock);
	list_for_each_entry(o, &rp_owners, node)
		if (o->portid == portid && net_eq(o->net, net) &&
		    sock_flag(o->sk, SOCK_DEAD))
			return o;
	return NULL;
}

/* The owner record of the socket sending a request, made on its first. */
struct rp_owner *rp_owner_get(struct sock *sk, u32 portid)
{
	struct rp_owner *o, *fresh;

	spin_lock_bh(&rp_owners_lock);
	o = rp_owner_of_sock(sk);
	spin_unlock_bh(&rp_owners_lock);
	if (o)
		return o;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return NULL;
	fresh->sk = sk;
	fresh->net = sock_net(sk);
	fresh->portid = portid;
	/* Two requests of one socket may race here; one record wins. */
	spin_lock_bh(&rp_owners_lock);
	o = rp_owner_of_sock(sk);
	if (!o) {
		sock_hold(sk);
		list_add(&fresh->node, &rp_owners);
		o = fresh;
		fresh = NULL;
	}
	spin_unlock_bh(&rp_owners_lock);
	kfree(fresh);
	return o;
}

/* Is o the record of socket sk? (Its own reads of its probes' tables.) */
bool rp_owner_is(const struct rp_owner *o, const struct sock *sk)
{
	return o->sk == sk;
}

static void rp_owner_free(struct rp_owner *o)
{
	sock_put(o->sk);
	kfree(o);
}

static void rp_reap_fn(struct work_struct *work)
{
	struct rp_owner *o;

	for (;;) {
		spin_lock_bh(&rp_owners_lock);
		o = list_first_entry_or_null(&rp_released, struct rp_owner,
					     node);
		if (o)
			list_del(&o->node);
		spin_unlock_bh(&rp_owners_lock);
		if (!o)
			return;
		rp_owner_release(o);
		rp_owner_free(o);
	}
}

/* May be called in atomic context: no allocation, nothing that fails. */
static int rp_netlink_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct netlink_notify *n = ptr;
	struct rp_owner *o;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !n->portid)
		return NOTIFY_DONE;
	spin_lock_bh(&rp_owners_lock);
	o = rp_owner_released(n->net, n->portid);
	if (o)
		list_move_tail(&o->node, &rp_released);
	spin_unlock_bh(&rp_owners_lock);
	if (o)
		schedule_work(&rp_reap_work);
	return NOTIFY_DONE;
}

static struct notifier_block rp_netlink_nb = {
	.notifier_call = rp_netlink_event,
};

/* release: what removes a released socket's probes (the table's). */
int rp_owner_init(void (*release)(const struct rp_owner *o))
{
	rp_owner_release = release;
	return netlink_register_notifier(&rp_netlink_nb);
}

/* After rp_registry_exit(): no probe points to an owner any more. */
void rp_owner_exit(void)
{
	struct rp_owner *o, *tmp;

	netlink_unregister_notifier(&rp_netlink_nb);
	cancel_work_sync(&rp_reap_work);
	list_splice_init(&rp_released, &rp_owners);
	list_for_each_entry_safe(o, tmp, &rp_owners, node)
		rp_owner_free(o);
}
