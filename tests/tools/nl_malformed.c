// SPDX-License-Identifier: GPL-2.0
/*
 * Malformed and out-of-bounds generic netlink requests, sent straight to
 * the rawprobe family (no CLI checks in the way). Each must be refused
 * with the expected errno and an extended-ack reason, and none may add a
 * probe. Then PROBE_DEL's lists, which delete all or none, and
 * overrides that ask to be persistent. Run as root in the VM; ends with
 * "N passed, N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "lib/nl.h"
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
		{ "a path ending in a dash", "skb-", 1 },
		{ "a name with an escape", "f\x1b[2J", 1 },
		{ "a name with a quote", "f\"d", 1 },
		{ "a name with a backslash", "f\\d", 1 },
		/* Latin-1 letters, which the kernel's isalnum() takes */
		{ "a name with a byte above 0x7f", "caf\xe9", 1 },
		{ "a name of UTF-8", "\xc3\xa9t\xc3\xa9", 1 },
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

/*
 * Good names are kept and reported as given: paths, an alias, a cast,
 * past 127 characters.
 */
static void arg_names_echoed(struct rp_nl *nl)
{
	char names[RAWPROBE_ARG_NAMES_LEN] = "", want[RAWPROBE_ARG_NAMES_LEN];
	struct nl_msg *msg;
	uint32_t id = 0;

	snprintf(want, sizeof(want), "file->f_pos,b=buf,tx=((struct s *)a).%0400d",
		 0);
	msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, 3);
	nla_put_string(msg, RAWPROBE_A_ARG_NAMES, want);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED |
		    RAWPROBE_F_PERSISTENT);
	expect(nl, "argument names: three for three arguments", msg, 0, false);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	rp_nl_call(nl, msg, get_id, &id);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, 0);
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id);
	rp_nl_call(nl, msg, get_names, names);
	verdict("argument names: reported as given", !strcmp(names, want),
		names);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	rp_nl_call(nl, msg, NULL, NULL);
}

/* The plain fetch of argument src: the register, size bytes. */
static struct rawprobe_fetch fetch_of(int src, int size)
{
	struct rawprobe_fetch f = { .src = src, .size = size };

	return f;
}

static struct nl_msg *fetch_msg(struct rp_nl *nl, int kind,
				const struct rawprobe_fetch *f)
{
	struct nl_msg *msg = add_msg(nl, kind, "vfs_read");

	nla_put_u8(msg, RAWPROBE_A_NARGS, 1);
	nla_put(msg, RAWPROBE_A_FETCH, sizeof(*f), f);
	return msg;
}

static struct nl_msg *term_msg(struct rp_nl *nl, int kind,
			       const struct rawprobe_value_term *t, int n)
{
	struct nl_msg *msg = add_msg(nl, kind, "vfs_read");

	nla_put(msg, RAWPROBE_A_VALUE_FILTER, n * sizeof(*t), t);
	return msg;
}

/* Fetch programs of the wrong shape, or where no argument is defined. */
static void fetch_malformed(struct rp_nl *nl)
{
	static const struct {
		const char *what;
		struct rawprobe_fetch f;
	} bad[] = {
		{ "source 7", { .src = 7, .size = 8 } },
		{ "retval in an entry probe", { .src = RAWPROBE_FETCH_RETVAL,
						.size = 8 } },
		{ "5 loads", { .nloads = 5, .size = 8 } },
		{ "size 3", { .size = 3 } },
		{ "size 0", { .size = 0 } },
		{ "an unknown flag", { .size = 8, .flags = 2 } },
		{ "reserved set", { .size = 8, .reserved = 1 } },
		{ "a bitfield past its load", { .size = 1, .bit_off = 4,
						.bit_size = 5 } },
		{ "a bit offset without a bitfield", { .size = 4,
						       .bit_off = 1 } },
	};
	struct rawprobe_fetch two[2] = { fetch_of(0, 8), fetch_of(1, 8) };
	char what[80];
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(what, sizeof(what), "fetch: %s", bad[i].what);
		expect(nl, what, fetch_msg(nl, RAWPROBE_KIND_JPROBE, &bad[i].f),
		       -EINVAL, true);
	}
	msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, 1);
	nla_put(msg, RAWPROBE_A_FETCH, sizeof(two), two);
	expect(nl, "fetch: two programs for one argument", msg, -EINVAL, true);
	msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
	nla_put(msg, RAWPROBE_A_FETCH, sizeof(two[0]), two);
	expect(nl, "fetch: no argument to compute", msg, -EINVAL, true);
	msg = add_msg(nl, RAWPROBE_KIND_KPROBE, NULL);
	nla_put_u64(msg, RAWPROBE_A_ADDR, 0xffffffff81000000ULL);
	nla_put_u8(msg, RAWPROBE_A_NARGS, 1);
	nla_put(msg, RAWPROBE_A_FETCH, sizeof(two[0]), two);
	expect(nl, "fetch: at a raw address", msg, -EINVAL, true);
}

/* Value filters of the wrong shape or length. */
static void value_filter_malformed(struct rp_nl *nl)
{
	struct rawprobe_value_term t[RAWPROBE_MAX_VALUE_TERMS + 1];
	struct nl_msg *msg;
	int i;

	for (i = 0; i <= RAWPROBE_MAX_VALUE_TERMS; i++)
		t[i] = (struct rawprobe_value_term){ .fetch = fetch_of(0, 8),
						     .cmp = RAWPROBE_CMP_NE };
	expect(nl, "value filter: 9 terms",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 9), -ERANGE, true);
	expect(nl, "value filter: empty",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 0), -EINVAL, true);
	msg = add_msg(nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put(msg, RAWPROBE_A_VALUE_FILTER, sizeof(t[0]) + 4, t);
	expect(nl, "value filter: a length not a multiple of a term", msg,
	       -EINVAL, true);
	t[1].flags = RAWPROBE_TERM_OR;
	t[0].flags = RAWPROBE_TERM_OR;
	expect(nl, "value filter: || before the first term",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 2), -EINVAL, true);
	t[0].flags = 0;
	t[1].cmp = __RAWPROBE_CMP_MAX;
	expect(nl, "value filter: an unknown comparison",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 2), -EINVAL, true);
	t[1].cmp = 0;
	expect(nl, "value filter: comparison 0",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 2), -EINVAL, true);
	t[1].cmp = RAWPROBE_CMP_LT;
	t[1].fetch.src = RAWPROBE_FETCH_RETVAL;
	expect(nl, "value filter: retval in an entry probe",
	       term_msg(nl, RAWPROBE_KIND_KPROBE, t, 2), -EINVAL, true);
	t[1].fetch.nloads = 9;
	expect(nl, "value filter: a malformed fetch",
	       term_msg(nl, RAWPROBE_KIND_KRETPROBE, t, 2), -EINVAL, true);
	msg = term_msg(nl, RAWPROBE_KIND_KPROBE, t, 1);
	nla_put_string(msg, RAWPROBE_A_VALUE_FILTER_STR, "a \\ backslash");
	expect(nl, "value filter: text with a backslash", msg, -EINVAL, true);
}

/* A string term with strs, the constants (len bytes, NULs included) */
static struct nl_msg *str_term_msg(struct rp_nl *nl,
				   const struct rawprobe_value_term *t,
				   const char *strs, int len)
{
	struct nl_msg *msg = term_msg(nl, RAWPROBE_KIND_KPROBE, t, 1);

	if (len >= 0)
		nla_put(msg, RAWPROBE_A_VALUE_FILTER_STRS, len, strs);
	return msg;
}

/* String terms and their constants: each bound checked, in the kernel. */
static void str_terms_malformed(struct rp_nl *nl)
{
	static const char ok[] = "pts0\0ptm*";	/* two, NUL-ended */
	struct rawprobe_value_term t = {
		.fetch = fetch_of(0, 8), .cmp = RAWPROBE_CMP_STR_EQ,
	};
	char big[RAWPROBE_CMP_STR_LEN + 1];

	expect(nl, "string term: no constants",
	       str_term_msg(nl, &t, NULL, -1), -EINVAL, true);
	expect(nl, "string term: constants without their last NUL",
	       str_term_msg(nl, &t, ok, sizeof(ok) - 1), -EINVAL, true);
	t.value = sizeof(ok);
	expect(nl, "string term: a constant past the constants",
	       str_term_msg(nl, &t, ok, sizeof(ok)), -EINVAL, true);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	t.value = 0;
	expect(nl, "string term: a constant of RAWPROBE_CMP_STR_LEN bytes",
	       str_term_msg(nl, &t, big, sizeof(big)), -EINVAL, true);
	t.fetch.size = 4;
	expect(nl, "string term: a fetch of 4 bytes, not an address",
	       str_term_msg(nl, &t, ok, sizeof(ok)), -EINVAL, true);
	t.fetch.size = 8;
	t.flags = 0x80;
	expect(nl, "string term: an unknown flag",
	       str_term_msg(nl, &t, ok, sizeof(ok)), -EINVAL, true);
	t = (struct rawprobe_value_term){ .fetch = fetch_of(0, 8),
		.cmp = RAWPROBE_CMP_EQ, .str_size = 16 };
	expect(nl, "number term: a string's size",
	       str_term_msg(nl, &t, ok, sizeof(ok)), -EINVAL, true);
	t.str_size = 0;
	t.flags = RAWPROBE_TERM_USER;
	expect(nl, "number term: a user string's flag",
	       str_term_msg(nl, &t, ok, sizeof(ok)), -EINVAL, true);
}

/*
 * Strings from the return value are read at return with the others; a
 * string's length is not one (the bound would be read after the string
 * it bounds was sized).
 */
static void strings_malformed(struct rp_nl *nl)
{
	struct rawprobe_fetch f[2] = { fetch_of(RAWPROBE_FETCH_RETVAL, 8),
				       fetch_of(1, 8) };
	unsigned char types[2] = { RAWPROBE_ARG_U64, RAWPROBE_ARG_USTR };
	unsigned char len[2] = { 0, 1 };
	struct nl_msg *msg = add_msg(nl, RAWPROBE_KIND_KRETPROBE, "getname");

	nla_put_u8(msg, RAWPROBE_A_NARGS, 2);
	nla_put(msg, RAWPROBE_A_ARGTYPES, sizeof(types), types);
	nla_put(msg, RAWPROBE_A_FETCH, sizeof(f), f);
	nla_put(msg, RAWPROBE_A_STR_LEN_ARGS, sizeof(len), len);
	expect(nl, "strings: a length from the return value", msg,
	       -EINVAL, true);
}

/* buf:str:count: the length comes from another, integer argument */
static void str_lens_malformed(struct rp_nl *nl)
{
	static const struct {
		const char *what;
		unsigned char types[3], len[3];
		int n;
	} bad[] = {
		{ "its own length", { RAWPROBE_ARG_U64, RAWPROBE_ARG_KSTR,
				      RAWPROBE_ARG_U64 }, { 0, 2, 0 }, 3 },
		{ "a length past the arguments", { RAWPROBE_ARG_U64,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 0, 4, 0 }, 3 },
		{ "a string's length from a string", { RAWPROBE_ARG_KSTR,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 0, 1, 0 }, 3 },
		{ "a length for a number", { RAWPROBE_ARG_U64,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 3, 0, 0 }, 3 },
		{ "a length from a pointer", { RAWPROBE_ARG_PTR,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 0, 1, 0 }, 3 },
		{ "lengths for 2 of 3 arguments", { RAWPROBE_ARG_U64,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 0, 3 }, 2 },
		{ "a length for an ip6 address", { RAWPROBE_ARG_U64,
				RAWPROBE_ARG_IP6, RAWPROBE_ARG_U64 },
		  { 0, 3, 0 }, 3 },
		{ "an ip6 address as a length", { RAWPROBE_ARG_IP6,
				RAWPROBE_ARG_KSTR, RAWPROBE_ARG_U64 },
		  { 0, 1, 0 }, 3 },
	};
	char what[80];
	struct nl_msg *msg;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg = add_msg(nl, RAWPROBE_KIND_KPROBE, "vfs_read");
		nla_put_u8(msg, RAWPROBE_A_NARGS, 3);
		nla_put(msg, RAWPROBE_A_ARGTYPES, 3, bad[i].types);
		nla_put(msg, RAWPROBE_A_STR_LEN_ARGS, bad[i].n, bad[i].len);
		snprintf(what, sizeof(what), "string length: %s", bad[i].what);
		expect(nl, what, msg, -EINVAL, true);
	}
}

/* --cgroup: an id that names no cgroup v2, and id 0 */
static void cgroup_malformed(struct rp_nl *nl)
{
	struct nl_msg *msg = add_msg(nl, RAWPROBE_KIND_KPROBE, "vfs_read");

	nla_put_u64(msg, RAWPROBE_A_FILTER_CGROUP, 0x7ffffffffffffff0ULL);
	expect(nl, "cgroup: an id of no cgroup", msg, -ENOENT, true);
	msg = add_msg(nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u64(msg, RAWPROBE_A_FILTER_CGROUP, 0);
	expect(nl, "cgroup: id 0", msg, -ERANGE, true);
}

static int get_values(struct nlattr **a, void *ctx)
{
	unsigned char *out = ctx;

	if (a[RAWPROBE_A_FETCH] && nla_len(a[RAWPROBE_A_FETCH]) <= 200)
		memcpy(out, nla_data(a[RAWPROBE_A_FETCH]),
		       nla_len(a[RAWPROBE_A_FETCH]));
	if (a[RAWPROBE_A_VALUE_FILTER] &&
	    nla_len(a[RAWPROBE_A_VALUE_FILTER]) <= 400)
		memcpy(out + 200, nla_data(a[RAWPROBE_A_VALUE_FILTER]),
		       nla_len(a[RAWPROBE_A_VALUE_FILTER]));
	if (a[RAWPROBE_A_VALUE_FILTER_STR])
		snprintf((char *)out + 600, RAWPROBE_FILTER_STR_LEN, "%s",
			 nla_get_string(a[RAWPROBE_A_VALUE_FILTER_STR]));
	return 0;
}

/*
 * A kretprobe with a fetch at entry and one of retval, and a filter of
 * two alternatives: accepted and reported byte for byte; the same
 * probe with another filter is another probe, not a duplicate.
 */
static void values_echoed(struct rp_nl *nl)
{
	struct rawprobe_fetch f[2] = {
		{ .src = 0, .nloads = 1, .size = 8, .off = { 0x40 } },
		{ .src = RAWPROBE_FETCH_RETVAL, .size = 4,
		  .flags = RAWPROBE_FETCH_SIGNED },
	};
	struct rawprobe_value_term t[3] = {
		{ .fetch = f[1], .cmp = RAWPROBE_CMP_LT },
		{ .fetch = fetch_of(2, 8), .cmp = RAWPROBE_CMP_ANY,
		  .value = 0x40 },
		{ .fetch = fetch_of(2, 4), .cmp = RAWPROBE_CMP_GE,
		  .flags = RAWPROBE_TERM_OR, .value = 4096 },
	};
	static unsigned char got[600 + RAWPROBE_FILTER_STR_LEN];
	const char *text = "retval < 0 && count & 0x40 || count >= 4096";
	struct nl_msg *msg;
	uint32_t id = 0;
	int i;

	for (i = 0; i < 2; i++) {
		msg = add_msg(nl, RAWPROBE_KIND_KRETPROBE, "vfs_read");
		nla_put_u8(msg, RAWPROBE_A_NARGS, 2);
		nla_put(msg, RAWPROBE_A_FETCH, sizeof(f), f);
		nla_put(msg, RAWPROBE_A_VALUE_FILTER,
			(i ? 1 : 3) * sizeof(t[0]), t);
		nla_put_string(msg, RAWPROBE_A_VALUE_FILTER_STR, text);
		nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED |
			    RAWPROBE_F_PERSISTENT);
		expect(nl, i ? "values: the same probe, another filter" :
			       "values: a kretprobe with fetches and a filter",
		       msg, 0, false);
	}
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP);
	rp_nl_call(nl, msg, get_id, &id);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, 0);
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id - 1);
	rp_nl_call(nl, msg, get_values, got);
	verdict("values: fetches reported as given",
		!memcmp(got, f, sizeof(f)), "differ");
	verdict("values: terms reported as given",
		!memcmp(got + 200, t, sizeof(t)), "differ");
	verdict("values: the filter's text reported as given",
		!strcmp((char *)got + 600, text), (char *)got + 600);
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	rp_nl_call(nl, msg, NULL, NULL);
}

/* A stack takes the string area, and needs a named function's entry. */
static void stack_refused(struct rp_nl *nl)
{
	struct nl_msg *msg;

	msg = add_msg(nl, RAWPROBE_KIND_JPROBE, "vfs_read");
	nla_put_u8(msg, RAWPROBE_A_NARGS, 1);
	nla_put(msg, RAWPROBE_A_ARGTYPES, 1, (char []){ RAWPROBE_ARG_KSTR });
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_STACK);
	expect(nl, "stack: with a string argument", msg, -EINVAL, true);
	msg = add_msg(nl, RAWPROBE_KIND_KPROBE, "vfs_read");
	nla_put_u32(msg, RAWPROBE_A_OFFSET, 4);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_STACK);
	expect(nl, "stack: inside a function", msg, -EINVAL, true);
	msg = add_msg(nl, RAWPROBE_KIND_KPROBE, NULL);
	nla_put_u64(msg, RAWPROBE_A_ADDR, 0xffffffff81000000ULL);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_STACK);
	expect(nl, "stack: at a raw address", msg, -EINVAL, true);
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

/*
 * An override spec for getuid, of one command name that runs nothing
 * (an accepted one overrides no call); a chain of chain_len steps.
 */
static int put_ovr(struct nl_msg *msg, uint8_t chain_len)
{
	struct nlattr *ovr;

	if (nla_put_u8(msg, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE) ||
	    nla_put_string(msg, RAWPROBE_A_SYMBOL, "__x64_sys_getuid") ||
	    nla_put_string(msg, RAWPROBE_A_FILTER_COMM, "rp-nobody"))
		return -EMSGSIZE;
	ovr = nla_nest_start(msg, RAWPROBE_A_OVERRIDE);
	if (!ovr || nla_put_s64(msg, RAWPROBE_OVR_VALUE, 1) ||
	    (chain_len && nla_put_u8(msg, RAWPROBE_OVR_CHAIN, chain_len)))
		return -EMSGSIZE;
	nla_nest_end(msg, ovr);
	return 0;
}

/*
 * A batch of an override needing one call-chain step and that step (a
 * kretprobe of getppid), inject's shape; flags on the step, and on the
 * batch.
 */
static struct nl_msg *chain_batch_msg(struct rp_nl *nl, uint32_t step_flags,
				      uint32_t batch_flags)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD_BATCH, 0);
	struct nlattr *batch, *entry;

	batch = nla_nest_start(msg, RAWPROBE_A_BATCH);
	entry = nla_nest_start(msg, 1);
	put_ovr(msg, 1);
	nla_nest_end(msg, entry);
	entry = nla_nest_start(msg, 2);
	nla_put_u8(msg, RAWPROBE_A_KIND, RAWPROBE_KIND_KRETPROBE);
	nla_put_string(msg, RAWPROBE_A_SYMBOL, "__x64_sys_getppid");
	nla_put_u8(msg, RAWPROBE_A_CHAIN_STEP, 1);
	if (step_flags)
		nla_put_u32(msg, RAWPROBE_A_FLAGS, step_flags);
	nla_nest_end(msg, entry);
	nla_nest_end(msg, batch);
	if (batch_flags)
		nla_put_u32(msg, RAWPROBE_A_FLAGS, batch_flags);
	return msg;
}

/* Refused with EINVAL, the rule, and (a batch) the refused spec's index. */
static void expect_not_persistent(struct rp_nl *nl, const char *name,
				  struct nl_msg *msg, int index)
{
	char detail[400];
	int err = rp_nl_call(nl, msg, NULL, NULL);
	uint32_t idx = ~0U;

	if (nl->cookie_len == sizeof(idx))
		memcpy(&idx, nl->cookie, sizeof(idx));
	snprintf(detail, sizeof(detail), "got %s, reason '%s', index %d",
		 strerrorname_np(-err) ?: "0", nl->errmsg,
		 index < 0 ? -1 : (int)idx);
	verdict(name, err == -EINVAL &&
		strstr(nl->errmsg, "cannot be persistent") &&
		(index < 0 || idx == (uint32_t)index), detail);
}

/*
 * An override or a call-chain step goes with the socket that added it:
 * marked persistent, by its spec or by its batch, it is refused, and
 * the same without the mark is taken (owned, then deleted).
 */
static void override_not_persistent(struct rp_nl *nl)
{
	struct nl_msg *msg;

	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD, 0);
	put_ovr(msg, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_PERSISTENT);
	expect_not_persistent(nl, "override: persistent", msg, -1);
	expect_not_persistent(nl, "override chain: a persistent step",
			      chain_batch_msg(nl, RAWPROBE_F_PERSISTENT, 0), 1);
	expect_not_persistent(nl, "override chain: a persistent batch",
			      chain_batch_msg(nl, 0, RAWPROBE_F_PERSISTENT), 0);
	verdict("override: the refusals added nothing", probe_count(nl) == 0,
		"probes exist");

	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_ADD, 0);
	put_ovr(msg, 0);
	expect(nl, "override: owned by the socket", msg, 0, false);
	expect(nl, "override chain: owned by the socket",
	       chain_batch_msg(nl, 0, 0), 0, false);
	verdict("override: the owned probes were added", probe_count(nl) == 3,
		"not 3 probes");
	msg = rp_nl_msg(nl, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	expect(nl, "override: delete them", msg, 0, false);
}

int main(void)
{
	char longsym[1024];
	struct nlattr *nest;
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
	fetch_malformed(&nl);
	value_filter_malformed(&nl);
	str_terms_malformed(&nl);
	strings_malformed(&nl);
	str_lens_malformed(&nl);
	cgroup_malformed(&nl);
	values_echoed(&nl);
	stack_refused(&nl);

	/* --times counts down a signed int: past INT_MAX is no count */
	msg = add_msg(&nl, RAWPROBE_KIND_KPROBE, "__x64_sys_getuid");
	nla_put_string(msg, RAWPROBE_A_FILTER_COMM, "rp-nobody");
	nest = nla_nest_start(msg, RAWPROBE_A_OVERRIDE);
	nla_put_s64(msg, RAWPROBE_OVR_VALUE, 1337);
	nla_put_u32(msg, RAWPROBE_OVR_TIMES, 3000000000U);
	nla_nest_end(msg, nest);
	expect(&nl, "override times above INT_MAX", msg, -ERANGE, true);

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

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_CLOCK, RAWPROBE_CLOCK_AUTO + 1);
	expect(&nl, "unknown clock", msg, -ERANGE, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_CLOCK, RAWPROBE_CLOCK_TSC);
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, 1024);
	expect(&nl, "clock and size in one request", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_ADD_BATCH, 0);
	nla_nest_end(msg, nla_nest_start(msg, RAWPROBE_A_BATCH));
	expect(&nl, "empty batch", msg, -EINVAL, true);

	msg = rp_nl_msg(&nl, RAWPROBE_CMD_PROBE_DEL, 0);
	expect(&nl, "delete without id", msg, -EINVAL, true);

	del_list_malformed(&nl);
	del_list_all_or_none(&nl);
	override_not_persistent(&nl);

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
