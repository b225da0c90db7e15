// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed and out-of-bounds generic netlink requests, sent straight to
 * the rawprobe family (no CLI checks in the way). Each must be refused
 * with the expected errno and an extended-ack reason, and none may add a
 * probe. Then PROBE_DEL's lists, which delete all or none. Run as root
 * in the VM; ends with "N passed, N failed".
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

static int get_id(struct nlattr **a, void *ctx)
{
	if (a[RAWPROBE_A_PROBE_ID])
		*(uint32_t *)ctx = nla_get_u32(a[RAWPROBE_A_PROBE_ID]);
	return 0;
}

static struct nl_msg *del_list_msg(struct rp_nl *nl, const uint32_t *ids,
				   int n)
{
	struct nl_msg *msg = rp_nl_msg_size(nl, RAWPROBE_CMD_PROBE_DEL, 0,
					    4096 + n * 4);

	nla_put(msg, RAWPROBE_A_PROBE_IDS, n * 4, ids);
	return msg;
}

static int probe_count(struct rp_nl *nl)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	int n = 0;

	rp_nl_call(nl, msg, count_probes, &n);
	return n;
}

/* Argument names: identifiers, one per argument; nothing else. */
static void arg_names_malformed(struct rp_nl *nl)
{
	static const struct {
		const char *what, *names;
		int nargs;
	} bad[] = {
		{ "more names than arguments", "fd,buf", 1 },
		{ "fewer names than arguments", "fd", 2 },
		{ "names without arguments", "fd", 0 },
		{ "an empty name", "fd,,count", 3 },
		{ "a trailing comma", "fd,", 1 },
		{ "a name with a dash", "f-d", 1 },
		{ "a name with an escape", "f\x1b[2J", 1 },
		{ "empty names", "", 1 },
	};
	char what[80];
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
		nla_put_u8(msg, RAWPROBE_A_NARGS, bad[i].nargs);
		nla_put_string(msg, RAWPROBE_A_ARG_NAMES, bad[i].names);
		snprintf(what, sizeof(what), "argument names: %s", bad[i].what);
		expect(nl, what, msg, -EINVAL, true);
	}
}

static int get_names(struct nlattr **a, void *ctx)
{
	if (a[RAWPROBE_A_ARG_NAMES])
		snprintf(ctx, RAWPROBE_ARG_NAMES_LEN, "%s",
			 nla_get_string(a[RAWPROBE_A_ARG_NAMES]));
	return 0;
}

/* Good names are kept and reported as given. */
static void arg_names_echoed(struct rp_nl *nl)
{
	char names[RAWPROBE_ARG_NAMES_LEN] = "";
	struct nl_msg *msg;
	uint32_t id = 0;

	msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, 3);
	nla_put_string(msg, RAWPROBE_A_ARG_NAMES, "file,buf,count_2");
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED |
		    RAWPROBE_F_PERSISTENT);
	expect(nl, "argument names: three for three arguments", msg, 0, false);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	rp_nl_call(nl, msg, get_id, &id);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, 0);
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id);
	rp_nl_call(nl, msg, get_names, names);
	verdict("argument names: reported as given",
		!strcmp(names, "file,buf,count_2"), names);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	rp_nl_call(nl, msg, NULL, NULL);
}

/* Malformed lists of PROBE_DEL, refused by the policy or the module. */
static void del_list_malformed(struct rp_nl *nl)
{
	static uint32_t many[RAWPROBE_MAX_BATCH + 1];
	uint32_t one = 1;
	struct nl_msg *msg;
	int i;

	expect(nl, "delete an empty list", del_list_msg(nl, NULL, 0),
	       -EINVAL, true);
	for (i = 0; i <= RAWPROBE_MAX_BATCH; i++)
		many[i] = i + 1;
	expect(nl, "delete more ids than RAWPROBE_MAX_BATCH",
	       del_list_msg(nl, many, RAWPROBE_MAX_BATCH + 1), -ERANGE, true);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put(msg, RAWPROBE_A_PROBE_IDS, 6, "\1\0\0\0\2\0");
	expect(nl, "delete a list of 6 bytes", msg, -EINVAL, true);
	msg = del_list_msg(nl, &one, 1);
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, 1);
	expect(nl, "delete by id and by list", msg, -EINVAL, true);
	msg = del_list_msg(nl, &one, 1);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	expect(nl, "delete by list and all", msg, -EINVAL, true);
}

/*
 * A list is removed whole or not at all; the refused id's index comes
 * back in the extended-ack cookie.
 */
static void del_list_all_or_none(struct rp_nl *nl)
{
	uint32_t id[2] = { 0, 0 }, bad[3], twice[2], idx = ~0U;
	struct nl_msg *msg;
	int i;

	for (i = 0; i < 2; i++) {
		msg = add_msg(nl, RAWPROBE_KIND_KPROBE,
			      i ? "vfs_write" : "vfs_read");
		nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED |
			    RAWPROBE_F_PERSISTENT);
		rp_nl_call(nl, msg, get_id, &id[i]);
	}
	verdict("two probes to delete", id[0] && id[1] && probe_count(nl) == 2,
		"adding vfs_read and vfs_write failed");
	bad[0] = id[0], bad[1] = 99999, bad[2] = id[1];
	expect(nl, "delete a list with an unknown id", del_list_msg(nl, bad, 3),
	       -ENOENT, true);
	if (nl->cookie_len == sizeof(idx))
		memcpy(&idx, nl->cookie, sizeof(idx));
	verdict("the cookie names the unknown id", idx == 1, "wrong index");
	verdict("a refused list deletes none", probe_count(nl) == 2,
		"probes went");
	twice[0] = id[1], twice[1] = id[1];
	expect(nl, "delete a list naming a probe twice",
	       del_list_msg(nl, twice, 2), -EINVAL, true);
	verdict("a list naming a probe twice deletes none",
		probe_count(nl) == 2, "probes went");
	expect(nl, "delete a list", del_list_msg(nl, id, 2), 0, false);
	verdict("a list deletes all it names", probe_count(nl) == 0,
		"probes left");
}

int main(void)
{
	char longsym[1024];
	struct nl_msg *msg;
	struct rp_nl nl;

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

	arg_names_malformed(&nl);
	arg_names_echoed(&nl);

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

	del_list_malformed(&nl);
	del_list_all_or_none(&nl);

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

	verdict("nothing was added", probe_count(&nl) == 0, "probes exist");

	rp_nl_close(&nl);
	return tap_summary();
}
