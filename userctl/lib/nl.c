// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink session with the rawprobe module, on libnl-genl-3.
 *
 * libnl's default error handling drops the extended ack, so requests go
 * through our own callbacks: the error callback reads the kernel's reason
 * (NLMSGERR_ATTR_MSG) from the TLVs that follow struct nlmsgerr.
 *
 * Lost messages: the module answers every change with a message it
 * allocated before making the change, and processes a request within the
 * send, so when the socket reports a lost message (ENOBUFS: the kernel
 * could not allocate one), what is queued is all there will be. An answer
 * among it means the change was made (the lost one was the ack); none
 * means nothing changed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>
#include "lib/nl.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct rp_call {
	struct rp_nl *nl;
	rp_nl_reply_fn fn;
	void *ctx;
	int err;
	bool done;
	bool answered;	/* a reply to a request that is not a dump */
};

int rp_nl_open(struct rp_nl *nl)
{
	int one = 1, err;

	memset(nl, 0, sizeof(*nl));
	nl->err_attr_off = -1;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	err = genl_connect(nl->sk);
	if (err < 0) {
		nl_socket_free(nl->sk);
		nl->sk = NULL;
		return -EIO;
	}
	/* Ask for reasons with errors, and for them without the request. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl->family = genl_ctrl_resolve(nl->sk, RAWPROBE_GENL_NAME);
	if (nl->family < 0) {
		nl_socket_free(nl->sk);
		nl->sk = NULL;
		return -ENOENT;
	}
	return 0;
}

void rp_nl_close(struct rp_nl *nl)
{
	if (nl->sk)
		nl_socket_free(nl->sk);
	nl->sk = NULL;
}

struct nl_msg *rp_nl_msg(struct rp_nl *nl, int cmd, int flags)
{
	return rp_nl_msg_size(nl, cmd, flags, 0);
}

struct nl_msg *rp_nl_msg_size(struct rp_nl *nl, int cmd, int flags,
			      size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, RAWPROBE_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/* Extended ack TLVs follow the nlmsgerr (and the request, unless capped). */
static void rp_parse_extack(struct rp_nl *nl, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len <= 0)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)e + off), len, NULL) < 0)
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
			 nla_get_string(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		nl->err_attr_off = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
	if (tb[NLMSGERR_ATTR_COOKIE] &&
	    nla_len(tb[NLMSGERR_ATTR_COOKIE]) <= (int)sizeof(nl->cookie)) {
		nl->cookie_len = nla_len(tb[NLMSGERR_ATTR_COOKIE]);
		memcpy(nl->cookie, nla_data(tb[NLMSGERR_ATTR_COOKIE]),
		       nl->cookie_len);
	}
}

static int rp_on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct rp_call *c = arg;

	(void)who;
	c->err = e->error;
	rp_parse_extack(c->nl, e);
	c->done = true;
	return NL_STOP;
}

static int rp_on_ack(struct nl_msg *msg, void *arg)
{
	struct rp_call *c = arg;

	(void)msg;
	c->done = true;
	return NL_STOP;
}

static int rp_on_finish(struct nl_msg *msg, void *arg)
{
	struct rp_call *c = arg;

	(void)msg;
	c->done = true;
	return NL_STOP;
}

static int rp_on_valid(struct nl_msg *msg, void *arg)
{
	struct rp_call *c = arg;
	struct nlattr *tb[RAWPROBE_A_MAX + 1];
	int err;

	err = genlmsg_parse(nlmsg_hdr(msg), 0, tb, RAWPROBE_A_MAX, NULL);
	if (err < 0) {
		c->err = -EBADMSG;
		return NL_STOP;
	}
	c->answered = !(nlmsg_hdr(msg)->nlmsg_flags & NLM_F_MULTI);
	if (c->fn) {
		err = c->fn(tb, c->ctx);
		if (err < 0) {
			c->err = err;
			return NL_STOP;
		}
	}
	return NL_OK;
}

/* libnl folds errno into its own codes; the errno of the call is kept. */
static int rp_nl_syserr(void)
{
	return errno ? -errno : -EIO;
}

/*
 * After a lost message (see the top): take what is queued, without
 * waiting, and judge the request by it.
 */
static int rp_nl_after_loss(struct rp_nl *nl, struct nl_cb *cb,
			    struct rp_call *c, bool dump)
{
	nl_socket_set_nonblocking(nl->sk);
	while (!c->done && !c->err && nl_recvmsgs(nl->sk, cb) >= 0)
		;
	fcntl(nl_socket_get_fd(nl->sk), F_SETFL,
	      fcntl(nl_socket_get_fd(nl->sk), F_GETFL) & ~O_NONBLOCK);
	if (c->err)
		return c->err;
	if (c->answered && !dump)
		return 0;
	snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
		 dump ? "out of memory: part of the answer was lost" :
		 "out of memory: the kernel's answer was lost; nothing changed");
	return -ENOBUFS;
}

int rp_nl_call(struct rp_nl *nl, struct nl_msg *msg, rp_nl_reply_fn fn,
	       void *ctx)
{
	struct rp_call c = { .nl = nl, .fn = fn, .ctx = ctx };
	bool dump = nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP;
	struct nl_cb *cb;
	int err;

	nl->errmsg[0] = '\0';
	nl->err_attr_off = -1;
	nl->cookie_len = 0;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, rp_on_error, &c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, rp_on_ack, &c);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, rp_on_finish, &c);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, rp_on_valid, &c);

	nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK;
	errno = 0;
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		nl_cb_put(cb);
		return rp_nl_syserr();
	}
	while (!c.done && !c.err) {
		errno = 0;
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !c.err) {
			c.err = errno == ENOBUFS ?
				rp_nl_after_loss(nl, cb, &c, dump) :
				rp_nl_syserr();
			break;
		}
	}
	nl_cb_put(cb);
	return c.err;
}

int rp_nl_subscribe(struct rp_nl *nl)
{
	int grp = genl_ctrl_resolve_grp(nl->sk, RAWPROBE_GENL_NAME,
					RAWPROBE_GENL_MCGRP);

	int err;

	if (grp < 0)
		return -ENOENT;
	nl_socket_disable_seq_check(nl->sk);
	err = nl_socket_add_membership(nl->sk, grp);
	if (err == -NLE_PERM) {
		/* The kernel gives no reason for a refused join: we do. */
		snprintf(nl->errmsg, sizeof(nl->errmsg),
			 "joining the events group needs CAP_SYS_ADMIN");
		return -EPERM;
	}
	return err < 0 ? -EIO : 0;
}

void rp_nl_perror(const struct rp_nl *nl, const char *what, int err)
{
	const char *name = strerrorname_np(-err);

	/* 6.1 drops the reason of a dump refused in its start callback. */
	if (err == -EPERM && (!nl || !nl->errmsg[0]))
		fprintf(stderr, "rawprobectl: %s: needs CAP_PERFMON or "
			"CAP_SYS_ADMIN (run as root) (EPERM)\n", what);
	else if (nl && nl->errmsg[0])
		fprintf(stderr, "rawprobectl: %s: %s (%s)\n", what,
			nl->errmsg, name ? name : strerror(-err));
	else
		fprintf(stderr, "rawprobectl: %s: %s (%s)\n", what,
			strerror(-err), name ? name : "?");
}
