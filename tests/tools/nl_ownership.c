// SPDX-License-Identifier: GPL-2.0
/*
 * Who owns a probe: the netlink socket that added it, unless its spec is
 * marked persistent, spec by spec within a batch; and
 * a socket that reuses a released socket's port id owns its own probes,
 * not the old one's. Requests go straight to the family. Run as
 * root in the VM with no probes; ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/socket.h>
#include "lib/nl.h"
#include "tap.h"

static void verdict(const char *name, bool ok, const char *detail)
{
	tap_verdict("ownership", name, ok, detail);
}

/* The probes that exist: "sym[p] sym ..." (p: persistent), in id order. */
struct listing {
	char text[512];
	int n;
};

static int list_one(struct nlattr **a, void *ctx)
{
	struct listing *l = ctx;
	size_t len = strlen(l->text);
	uint32_t flags = a[RAWPROBE_A_FLAGS] ?
			 nla_get_u32(a[RAWPROBE_A_FLAGS]) : 0;

	snprintf(l->text + len, sizeof(l->text) - len, "%s%s%s",
		 l->n ? " " : "",
		 a[RAWPROBE_A_SYMBOL] ? nla_get_string(a[RAWPROBE_A_SYMBOL]) : "?",
		 flags & RAWPROBE_F_PERSISTENT ? "[p]" : "");
	l->n++;
	return 0;
}

static void list_probes(struct rp_nl *nl, struct listing *l)
{
	memset(l, 0, sizeof(*l));
	rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP),
		   list_one, l);
}

/* Released sockets are reaped by a work item: wait up to 5 s for want. */
static bool wait_listing(struct rp_nl *nl, const char *want,
			 struct listing *l)
{
	int i;

	for (i = 0; i < 50; i++) {
		list_probes(nl, l);
		if (!strcmp(l->text, want))
			return true;
		usleep(100000);
	}
	return false;
}

static int put_spec(struct nl_msg *msg, int idx, const char *sym,
		    uint32_t flags)
{
	struct nlattr *entry = nla_nest_start(msg, idx);

	if (!entry || nla_put_u8(msg, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE) ||
	    nla_put_string(msg, RAWPROBE_A_SYMBOL, sym) ||
	    (flags && nla_put_u32(msg, RAWPROBE_A_FLAGS, flags)))
		return -EMSGSIZE;
	nla_nest_end(msg, entry);
	return 0;
}

/* One batch of two kprobes from a socket of its own, then close it. */
static int batch_then_close(const char *sym0, uint32_t flags0,
			    const char *sym1, uint32_t flags1)
{
	struct nlattr *batch;
	struct nl_msg *msg;
	struct rp_nl owner;
	int err;

	if (rp_nl_open(&owner))
		return -ENOENT;
	msg = rp_nl_msg(&owner, RAWPROBE_CMD_PROBE_ADD_BATCH, 0);
	batch = nla_nest_start(msg, RAWPROBE_A_BATCH);
	if (!batch || put_spec(msg, 1, sym0, flags0) ||
	    put_spec(msg, 2, sym1, flags1)) {
		nlmsg_free(msg);
		rp_nl_close(&owner);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, batch);
	err = rp_nl_call(&owner, msg, NULL, NULL);
	rp_nl_close(&owner);
	return err;
}

static int add_one(struct rp_nl *nl, const char *sym)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD, 0);

	nla_put_u8(msg, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE);
	nla_put_string(msg, RAWPROBE_A_SYMBOL, sym);
	return rp_nl_call(nl, msg, NULL, NULL);
}

static void del_all(struct rp_nl *nl)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);

	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	rp_nl_call(nl, msg, NULL, NULL);
}

static void mixed_batch(struct rp_nl *nl, const char *name,
			uint32_t flags0, uint32_t flags1, const char *want)
{
	char detail[700];
	struct listing l;
	int err;

	err = batch_then_close("vfs_read", flags0, "vfs_write", flags1);
	if (err) {
		snprintf(detail, sizeof(detail), "batch refused: %s (%s)",
			 strerror(-err), nl->errmsg);
		verdict(name, false, detail);
		return;
	}
	snprintf(detail, sizeof(detail), "want '%s' once the socket is gone",
		 want);
	verdict(name, wait_listing(nl, want, &l), detail);
	if (strcmp(l.text, want)) {
		snprintf(detail, sizeof(detail), "got '%s'", l.text);
		verdict("  (listing)", false, detail);
	}
	del_all(nl);
}

/* A socket on a released socket's port id keeps its own probes. */
static void port_reuse(struct rp_nl *nl)
{
	struct rp_nl a, b;
	struct listing l;
	uint32_t pa, pb;

	if (rp_nl_open(&a)) {
		verdict("port reuse", false, "cannot open a socket");
		return;
	}
	pa = nl_socket_get_local_port(a.sk);
	add_one(&a, "vfs_read");
	rp_nl_close(&a);
	/* libnl hands the released port id to the next socket it opens */
	if (rp_nl_open(&b)) {
		verdict("port reuse", false, "cannot open a socket");
		return;
	}
	pb = nl_socket_get_local_port(b.sk);
	add_one(&b, "vfs_write");
	printf("# port ids: released %u, new %u\n", pa, pb);
	/* a's probe goes; b's must stay after the reaper has run */
	verdict("released socket's probe reaped",
		wait_listing(nl, "vfs_write", &l), l.text);
	usleep(300000);
	list_probes(nl, &l);
	verdict("new socket on the same port keeps its probe",
		!strcmp(l.text, "vfs_write"), l.text);
	rp_nl_close(&b);
	verdict("and loses it when it closes", wait_listing(nl, "", &l),
		l.text);
}

int main(void)
{
	struct rp_nl nl;

	if (rp_nl_open(&nl)) {
		fprintf(stderr, "nl_ownership: rawprobe module not loaded\n");
		return 2;
	}
	mixed_batch(&nl, "batch: owned, then persistent", 0,
		    RAWPROBE_F_PERSISTENT, "vfs_write[p]");
	mixed_batch(&nl, "batch: persistent, then owned",
		    RAWPROBE_F_PERSISTENT, 0, "vfs_read[p]");
	port_reuse(&nl);
	del_all(&nl);
	rp_nl_close(&nl);
	return tap_summary();
}
