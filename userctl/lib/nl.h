/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobectl's control-plane session: generic netlink family "rawprobe"
 * through libnl-genl-3, with extended-ack error reasons.
 */
#ifndef RAWPROBECTL_NL_H
#define RAWPROBECTL_NL_H

#include <stdbool.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include "rawprobe.h"

struct rp_nl {
	struct nl_sock *sk;
	int family;
	char errmsg[256];	/* extended-ack reason of the last failure */
	int err_attr_off;	/* offending attribute offset, or -1 */
	unsigned char cookie[20];	/* extended-ack cookie */
	int cookie_len;
};

/* A reply message's attributes, parsed with the family's attribute set. */
typedef int (*rp_nl_reply_fn)(struct nlattr **attrs, void *ctx);

int rp_nl_open(struct rp_nl *nl);
void rp_nl_close(struct rp_nl *nl);

/* A new request for cmd; the caller adds attributes, then sends it. */
struct nl_msg *rp_nl_msg(struct rp_nl *nl, int cmd, int flags);
/* The same with room for size bytes (0: libnl's default, a page). */
struct nl_msg *rp_nl_msg_size(struct rp_nl *nl, int cmd, int flags,
			      size_t size);

/*
 * Send msg (consumed), wait for the answer, call fn for each reply
 * message (dumps: for each part). Returns 0 or a negative errno; on
 * failure nl->errmsg holds the kernel's reason when it gave one.
 */
int rp_nl_call(struct rp_nl *nl, struct nl_msg *msg, rp_nl_reply_fn fn,
	       void *ctx);

/* Subscribe to the "events" multicast group. */
int rp_nl_subscribe(struct rp_nl *nl);

/* Print "rawprobectl: what: strerror (reason)" on stderr. */
void rp_nl_perror(const struct rp_nl *nl, const char *what, int err);

#endif
