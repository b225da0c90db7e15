// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed and out-of-bounds generic netlink requests, sent straight to
 * the rawprobe family (no CLI checks in the way). Each must be refused
 * with the expected errno and an extended-ack reason, and none may add a
 * probe. Run as root in the VM; ends with "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "nl.h"
#include "tap.h"

static void verdict(const char *name, bool ok, const char *detail)
{
	tap_verdict("netlink", name, ok, detail);
}

/* Send msg; expect errno want (negative) and a reason when need_msg. */
static void expect(struct rp_nl *nl, const char *name, struct nl_msg *msg,
		   int want, bool need_msg)
{
	char detail[400];
	int err = rp_nl_call(nl, msg, NULL, NULL);

	snprintf(detail, sizeof(detail), "got %s, want %s, reason '%s'",
		 strerrorname_np(-err) ?: "0", strerrorname_np(-want),
		 nl->errmsg);
	verdict(name, err == want && (!need_msg || nl->errmsg[0]), detail);
}

static struct nl_msg *add_msg(struct rp_nl *nl, int kind, const char *sym)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD, 0);

	if (kind >= 0)
		nla_put_u8(msg, RAWPROBE_A_KIND, kind);
	if (sym)
		nla_put_string(msg, RAWPROBE_A_SYMBOL, sym);
	return msg;
}

static int count_probes(struct nlattr **a, void *ctx)
{
	(void)a;
	(*(int *)ctx)++;
	return 0;
}

int main(void)
{
	char longsym[1024];
	struct nl_msg *msg;
	struct rp_nl nl;
	int n = 0;

	if (rp_nl_open(&nl)) {
		fprintf(stderr, "nl_malformed: rawprobe module not loaded\n");
		return 2;
	}

	expect(&nl, "add without kind", add_msg(&nl, -1, "vfs_read"),
	       -EINVAL, true);
	expect(&nl, "kind out of range", add_msg(&nl, 9, "vfs_read"),
	       -ERANGE, true);

	memset(longsym, 'a', sizeof(longsym) - 1);
	longsym[sizeof(longsym) - 1] = '\0';
	expect(&nl, "symbol longer than KSYM_NAME_LEN",
	       add_msg(&nl, RAWPROBE_KIND_KPROBE, longsym), -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KRETPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_MAXACTIVE, 0);
	expect(&nl, "maxactive 0", msg, -ERANGE, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KRETPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_MAXACTIVE, RAWPROBE_MAXACTIVE_MAX + 1);
	expect(&nl, "maxactive above the bound", msg, -ERANGE, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, RAWPROBE_MAX_ARGS + 1);
	expect(&nl, "nargs 7", msg, -ERANGE, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, 2);
	nla_put(msg, RAWPROBE_A_ARGTYPES, 3, "\0\0\0");
	expect(&nl, "argument types not matching nargs", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_FLAGS, 1U << 30);
	expect(&nl, "unknown flag bit", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, NULL);
	nla_put_u32(msg, RAWPROBE_A_SYMBOL, 0x41414141);
	expect(&nl, "symbol without NUL", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, 128);
	expect(&nl, "attribute foreign to the operation", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_GET_INFO, 0);
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, 1);
	expect(&nl, "attribute on an attribute-less operation", msg, -EINVAL,
	       true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, NULL);
	expect(&nl, "neither symbol nor address", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u64(msg, RAWPROBE_A_ADDR, 0xffffffff81000000ULL);
	expect(&nl, "symbol and address", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_string(msg, RAWPROBE_A_FILTER_COMM, "");
	expect(&nl, "empty comm filter", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_string(msg, RAWPROBE_A_FILTER_COMM, "sixteen-chars-xx");
	expect(&nl, "comm filter longer than a comm", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_FILTER_CPU, 1U << 20);
	expect(&nl, "cpu filter beyond nr_cpu_ids", msg, -EINVAL, true);

	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_FILTER_PID, 0);
	expect(&nl, "pid filter 0", msg, -ERANGE, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, 100);
	expect(&nl, "ring size not a power of two", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, 1U << 30);
	expect(&nl, "ring size above the bound", msg, -ERANGE, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_ADD_BATCH, 0);
	nla_nest_end(msg, nla_nest_start(msg, RAWPROBE_A_BATCH));
	expect(&nl, "empty batch", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_DEL, 0);
	expect(&nl, "delete without id", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, 200, 0);
	expect(&nl, "unknown command", msg, -EOPNOTSUPP, false);

	/* A reserved genl header field set: refused (resv_start_op). */
	msg = rp_nl_msg(&nl, RAWPROBE_CMD_GET_INFO, 0);
	((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->reserved = 1;
	expect(&nl, "reserved header field", msg, -EINVAL, false);

	/* An attribute whose length runs past the message. */
	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	((struct nlattr *)((char *)nlmsg_data(nlmsg_hdr(msg)) +
			   GENL_HDRLEN))->nla_len = 2000;
	expect(&nl, "attribute overrunning the message", msg, -EINVAL, false);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	rp_nl_call(&nl, msg, count_probes, &n);
	verdict("nothing was added", n == 0, "probes exist");

	rp_nl_close(&nl);
	return tap_summary();
}
