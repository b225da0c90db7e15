// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded fuzzer for the "rawprobe" generic netlink family.
 *
 *   nl_fuzz --seed S --count N [--class root|user|userns] [--allow-changes]
 *           [--first I] [--ids ID,...] [--sessions ID,...] [--epoch N]
 *           [--dry-run] [--verbose]
 *
 * Message i of seed S is a pure function of (S, i): a valid template of
 * one command (every RAWPROBE_CMD_*, the EVENT and UNSPEC numbers and
 * unknown ones, with each of their attributes, nested batch entries and
 * filters included, aggregating probes' keys, values and histograms, and
 * sessions: RING_NEW named or not, RING_DEL, RING_GET of one or dumped,
 * RING_SET and probes into one, by id or name; nl_fuzz_session.c)
 * damaged by 1 to 3 mutations: attributes dropped,
 * duplicated, reordered, retyped, resized, with lying lengths, values out
 * of range, strings without NUL, overlong or with control bytes, nested
 * garbage and deep nesting, batches around RAWPROBE_MAX_BATCH, truncated
 * nlmsghdr and genlmsghdr, wrong genl version and reserved field, flag
 * combinations (DUMP on doit commands, no ACK, no REQUEST), control
 * message types, unknown command numbers. The one thing taken from the
 * run is the value of PROBE_ID and SESSION attributes marked "learned":
 * an id the run's own ADD or RING_NEW answers returned (or --ids,
 * --sessions), so that delete, enable and get reach real probes,
 * AGG_READ mostly the aggregating ones (RAWPROBE_F_AGG), and the
 * session commands and probes real sessions; --dry-run prints the digest
 * of the messages before that substitution, the same on any machine.
 *
 * The socket is libnl's (userctl/lib/nl.c opens it, with extended acks and
 * capped acks), a new one every --epoch messages (by index): the old
 * one's probes and unnamed sessions go with it, in the module's reaper,
 * while the run goes on. The fuzzed bytes go out through nl_sendto() and the
 * answers come back through nl_recv(). A genl request is handled within
 * the send, so once send returns every answer but the later rounds of a
 * dump is queued: each message is followed by a drain that waits (2 s)
 * only while the answer it must get is incomplete. Checks per message:
 * no hang; every answer well formed (lengths, sequence, port, genl
 * header, attributes, strings, extended ack; an AGG_READ dump's interval
 * first, entries of the interval's size, hits = the entries' counts +
 * dropped, and exactly the stacks its entries name; a ring answer's
 * session and size, a new session not the default one and empty, a
 * probe's session); the answer is the one the
 * netlink core promises for what was sent (nothing for a message it
 * cannot parse or that is not a request, an ack when asked, an error, or
 * a reply then an ack or DONE); errno in the set the class may see; and
 * for unprivileged classes, no command that changes or reads probes or
 * sessions ever succeeds (a RING_GET of the default session's geometry
 * may: it answers that session, no other).
 *
 * Classes:
 *   root    root of the initial namespace; needs --allow-changes, since
 *           the messages add, delete (all of them) and resize the rings.
 *           Afterwards every probe is deleted, the ring geometry of before
 *           is restored, every named session is deleted, the listing must
 *           come down to the default session (the sockets' own end with
 *           them, in a work item: polled for up to 5 s), and the module
 *           must still answer GET_INFO.
 *   user    started as root: a root socket snapshots probes, rings and
 *           sessions, a child drops to uid/gid 65534 without groups and
 *           fuzzes; the parent compares the snapshot every second and at
 *           the end.
 *   userns  run under `unshare -Ur` (root of a new user namespace); the
 *           caller checks from outside that nothing changed.
 *
 * Output: "# " comment lines (seed, count, class, outcome and errno
 * histograms, the first failures with a one-command repro), TAP-style
 * verdicts (tap.h) and the final "N passed, N failed" line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include "lib/nl.h"
#include "nl_fuzz.h"
#include "sessions.h"
#include "tap.h"

#define MSG_MAX		(128 * 1024)	/* well under the socket's sndbuf */
#define ARENA_SIZE	(8u << 20)
#define WAIT_MS		2000		/* an answer later than this: a hang */
#define MAX_REPORTS	20		/* failures printed in full */
#define MAX_LEARNED	64
#define FAMILY_NONE	0		/* nlmsg_type before the family id */

static const char *const class_name[] = { "root", "user", "userns" };

/* --- deterministic randomness: splitmix64 --- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Message i of a seed has its own stream: any message can be replayed. */
static void rng_init(struct rng *r, uint64_t seed, uint64_t index)
{
	uint64_t x = seed;

	r->s = splitmix64(&x) ^ (index * 0xd1342543de82ef95ULL);
	splitmix64(&r->s);
}

uint64_t rnd(struct rng *r)
{
	return splitmix64(&r->s);
}

uint32_t below(struct rng *r, uint32_t n)
{
	return n ? (uint32_t)(rnd(r) % n) : 0;
}

int chance(struct rng *r, unsigned int percent)
{
	return below(r, 100) < percent;
}

/* --- a bump allocator, reset per message --- */

static unsigned char *arena;
static size_t arena_used;

static void *zalloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (arena_used + n > ARENA_SIZE) {
		fprintf(stderr, "nl_fuzz: generator arena exhausted\n");
		exit(2);
	}
	p = arena + arena_used;
	arena_used += n;
	memset(p, 0, n);
	return p;
}

/* --- the attribute tree a message is generated and mutated as --- */

/* (enum vk, struct fattr and struct flist: nl_fuzz.h) */

static struct flist *list_new(int cap)
{
	struct flist *l = zalloc(sizeof(*l));

	l->cap = cap > 4 ? cap : 4;
	l->v = zalloc(sizeof(*l->v) * l->cap);
	return l;
}

static struct fattr *list_add(struct flist *l)
{
	struct fattr *a;

	if (l->n == l->cap) {
		struct fattr *v = zalloc(sizeof(*v) * l->cap * 2);

		memcpy(v, l->v, sizeof(*v) * l->n);
		l->v = v;
		l->cap *= 2;
	}
	a = &l->v[l->n++];
	memset(a, 0, sizeof(*a));
	a->len_fix = -1;
	return a;
}

struct fattr *put_raw(struct flist *l, uint16_t type, uint8_t vk,
		      const void *data, uint32_t len)
{
	struct fattr *a = list_add(l);

	a->type = type;
	a->vk = vk;
	a->len = len;
	a->data = zalloc(len + 1);
	if (len)
		memcpy(a->data, data, len);
	return a;
}

void put_u8(struct flist *l, uint16_t type, uint8_t v)
{
	put_raw(l, type, VK_U8, &v, 1);
}

void put_u16(struct flist *l, uint16_t type, uint16_t v)
{
	put_raw(l, type, VK_U16, &v, 2);
}

struct fattr *put_u32(struct flist *l, uint16_t type, uint32_t v)
{
	return put_raw(l, type, VK_U32, &v, 4);
}

void put_u64(struct flist *l, uint16_t type, uint64_t v)
{
	put_raw(l, type, VK_U64, &v, 8);
}

void put_str(struct flist *l, uint16_t type, const char *s)
{
	put_raw(l, type, VK_STR, s, strlen(s) + 1);
}

struct flist *put_nest(struct flist *l, uint16_t type)
{
	struct fattr *a = list_add(l);

	a->type = type | NLA_F_NESTED;
	a->vk = VK_NEST;
	a->kids = list_new(4);
	return a->kids;
}

static void attr_copy(struct fattr *dst, const struct fattr *src);

static struct flist *list_copy(const struct flist *src)
{
	struct flist *l = list_new(src->n);
	int i;

	for (i = 0; i < src->n; i++)
		attr_copy(list_add(l), &src->v[i]);
	return l;
}

static void attr_copy(struct fattr *dst, const struct fattr *src)
{
	*dst = *src;
	dst->data = zalloc(src->len + 1);
	if (src->len)
		memcpy(dst->data, src->data, src->len);
	if (src->kids)
		dst->kids = list_copy(src->kids);
}

/* What each attribute holds, for values and foreign attributes. */
static const uint8_t attr_vk[RAWPROBE_A_MAX + 1] = {
	[RAWPROBE_A_UNSPEC]		= VK_BIN,
	[RAWPROBE_A_ABI_VERSION]	= VK_U32,
	[RAWPROBE_A_MODULE_VERSION]	= VK_STR,
	[RAWPROBE_A_KERNEL_RELEASE]	= VK_STR,
	[RAWPROBE_A_PROBE_ID]		= VK_U32,
	[RAWPROBE_A_KIND]		= VK_U8,
	[RAWPROBE_A_SYMBOL]		= VK_STR,
	[RAWPROBE_A_MODULE]		= VK_STR,
	[RAWPROBE_A_OFFSET]		= VK_U32,
	[RAWPROBE_A_ADDR]		= VK_U64,
	[RAWPROBE_A_MAXACTIVE]		= VK_U32,
	[RAWPROBE_A_NARGS]		= VK_U8,
	[RAWPROBE_A_ARGTYPES]		= VK_BIN,
	[RAWPROBE_A_FLAGS]		= VK_U32,
	[RAWPROBE_A_STATE]		= VK_U8,
	[RAWPROBE_A_STATS]		= VK_NEST,
	[RAWPROBE_A_EVENT]		= VK_U8,
	[RAWPROBE_A_RING_RECORDS]	= VK_U32,
	[RAWPROBE_A_RING_MODE]		= VK_U32,
	[RAWPROBE_A_NR_RINGS]		= VK_U32,
	[RAWPROBE_A_PAD]		= VK_BIN,
	[RAWPROBE_A_PROBED_ADDR]	= VK_U64,
	[RAWPROBE_A_STR_MAX]		= VK_U16,
	[RAWPROBE_A_NR_PROBES]		= VK_U32,
	[RAWPROBE_A_BATCH]		= VK_NEST,
	[RAWPROBE_A_FILTER_PID]		= VK_U32,
	[RAWPROBE_A_FILTER_TGID]	= VK_U32,
	[RAWPROBE_A_FILTER_COMM]	= VK_STR,
	[RAWPROBE_A_FILTER_CPU]		= VK_U32,
	[RAWPROBE_A_NAME]		= VK_STR,
	[RAWPROBE_A_OWNER_MODULE]	= VK_STR,
	[RAWPROBE_A_PROBE_IDS]		= VK_BIN,
	[RAWPROBE_A_ARG_NAMES]		= VK_STR,
	[RAWPROBE_A_FETCH]		= VK_BIN,
	[RAWPROBE_A_VALUE_FILTER]	= VK_BIN,
	[RAWPROBE_A_VALUE_FILTER_STR]	= VK_STR,
	[RAWPROBE_A_RING_BYTES]		= VK_U64,
	[RAWPROBE_A_RING_CLOCK]		= VK_U32,
	[RAWPROBE_A_TSC_KHZ]		= VK_U32,
	[RAWPROBE_A_AGG_KEYS]		= VK_BIN,
	[RAWPROBE_A_AGG_KEY_ARGS]	= VK_BIN,
	[RAWPROBE_A_AGG_VALUE]		= VK_U8,
	[RAWPROBE_A_AGG_VALUE_ARG]	= VK_U8,
	[RAWPROBE_A_AGG_HIST]		= VK_U8,
	[RAWPROBE_A_AGG_LIN_MIN]	= VK_U64,
	[RAWPROBE_A_AGG_LIN_STEP]	= VK_U64,
	[RAWPROBE_A_AGG_LIN_BUCKETS]	= VK_U16,
	[RAWPROBE_A_AGG_MAX_KEYS]	= VK_U32,
	[RAWPROBE_A_AGG_INTERVAL]	= VK_NEST,
	[RAWPROBE_A_AGG_ENTRY]		= VK_BIN,
	[RAWPROBE_A_AGG_ENTRIES]	= VK_NEST,
	[RAWPROBE_A_AGG_STACK]		= VK_BIN,
	[RAWPROBE_A_AGG_STACKS]		= VK_NEST,
	[RAWPROBE_A_OVERRIDE]		= VK_NEST,
	[RAWPROBE_A_CHAIN_STEP]		= VK_U8,
	[RAWPROBE_A_FILTER_NOT_TGID]	= VK_U32,
	[RAWPROBE_A_FILTER_CGROUP]	= VK_U64,
	[RAWPROBE_A_VALUE_FILTER_STRS]	= VK_BIN,
	[RAWPROBE_A_STR_LEN_ARGS]	= VK_BIN,
	[RAWPROBE_A_SESSION]		= VK_U32,
	[RAWPROBE_A_SESSION_NAME]	= VK_STR,
	[RAWPROBE_A_SESSION_UID]	= VK_U32,
	[RAWPROBE_A_SESSION_LOST]	= VK_U64,
	[RAWPROBE_A_SESSION_READERS]	= VK_U32,
	[RAWPROBE_A_FTRACE_ADDR]	= VK_U64,
};

/* Every table entry filled in: a new attribute must say what it holds. */
_Static_assert(RAWPROBE_A_MAX == RAWPROBE_A_FTRACE_ADDR,
	       "attr_vk[] (and the AGG and OVR values below) know the attributes up to FTRACE_ADDR");

/*
 * Harmless, real targets: a "valid answer" now and then really adds a
 * probe, on functions that any kernel has and that are safe to probe.
 * Addresses are never kernel text (the guest boots with nokaslr, where
 * 0xffffffff81000000 would be): raw-address adds all fail.
 */
static const char *const symbols[] = {
	"vfs_read", "vfs_write", "do_sys_openat2", "__x64_sys_getpid",
	"__x64_sys_getppid", "rawprobe_fuzz_no_such_symbol",
};
static const char *const modules[] = { "rawprobe", "nosuchmod", "9p", "" };
static const char *const comms[] = { "cat", "nl_fuzz", "sh", "swapper/0" };
static const uint32_t offsets_ok[] = { 0, 0, 1, 2, 3, 4, 5, 8, 0x10, 0x11 };
static const uint32_t offsets_bad[] = { 0x8000, 0x10000, 0x7fffffff,
					0xffffffff };
static const uint64_t addrs[] = {
	0, 1, 0x1000, 0xffffffff80000000ULL, 0xffff888000000000ULL,
	0x8000000000000000ULL, 0xffffffffffffffffULL,
};
static const uint32_t ring_ok[] = { 64, 128, 256, 1024, 4096, 16384 };
/* 1 << 20 is refused (E2BIG, over a quarter of a 2 GiB guest's RAM);
 * valid sizes between 32768 and that are left out: 128 MiB and more.
 */
static const uint32_t ring_bad[] = {
	0, 1, 32, 63, 65, 100, 4097, 1U << 20, (1U << 20) + 1, 1U << 21,
	1U << 31, 0xffffffff,
};

static const uint64_t vals_u8[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 0x7f, 0x80,
				    0xff };
static const uint64_t vals_u16[] = { 0, 1, 126, 127, 128, 255, 256, 0x7fff,
				     0x8000, 0xffff };
static const uint64_t vals_u32[] = { 0, 1, 2, 3, 63, 64, 127, 128, 4095,
				     4096, 4097, 0x7fff, 0x8000, 1U << 20,
				     0x7fffffff, 0x80000000, 0xffffffff };
static const uint64_t vals_kind[] = { 0, 1, 2, 3, 4, 5, 0x7f, 0xff };
static const uint64_t vals_nargs[] = { 0, 1, 6, 7, 8, 0x80, 0xff };
static const uint64_t vals_maxactive[] = { 0, 1, 4095, 4096, 4097,
					   0x7fffffff, 0xffffffff };
static const uint64_t vals_strmax[] = { 0, 1, 126, 127, 128, 0xffff };
static const uint64_t vals_flags[] = {
	0, RAWPROBE_F_PERSISTENT, RAWPROBE_F_DISABLED, RAWPROBE_F_ALL,
	RAWPROBE_F_SYSCALL, 0xf, 1U << 4, 1U << 16, 1U << 31, 0xffffffff,
	RAWPROBE_F_ALL | (1U << 9),
};
static const uint64_t vals_mode[] = { 0, 1, 2, 3, 0x80000000, 0xffffffff };
static const uint64_t vals_pid[] = { 0, 1, 2, 0x7fffffff, 0xffffffff };
static const uint64_t vals_cpu[] = { 0, 1, 2, 63, 4095, 4096, 0xffffffff };
static const uint64_t vals_id[] = { 0, 1, 2, 3, 4, 100, 0x7fffffff,
				    0x80000000, 0xffffffff };
/* Aggregation: valid keys 1..8 and junk; enums in range and past it. */
static const uint64_t vals_agg_value[] = { 0, 1, 2, 3, 4, 0x7f, 0xff };
static const uint64_t vals_agg_arg[] = { 0, 1, 5, 6, 7, 0xff };
static const uint64_t vals_agg_hist[] = { 0, 1, 2, 3, 0x80, 0xff };
static const uint64_t vals_lin_min[] = { 0, 1, 100, (uint64_t)-1,
					 (uint64_t)-4096, 1ULL << 63,
					 (1ULL << 63) - 1 };
static const uint64_t vals_lin_step[] = { 0, 1, 2, 10, 1000, 1ULL << 32,
					  ~0ULL };
static const uint64_t vals_lin_buckets[] = { 0, 1, 2, 16, 255, 256, 257,
					     0x8000, 0xffff };
/*
 * Keys a CPU's table holds. In range, small: a table is zeroed on every
 * CPU (and RAWPROBE_AGG_KEYS_MAX with a log2 histogram is 300 MB on two
 * CPUs), so the largest valid one comes rarely (agg_max_keys()).
 */
static const uint32_t max_keys_ok[] = { 1, 2, 3, 16, 100, 1024, 4096 };
static const uint32_t max_keys_bad[] = { 0, RAWPROBE_AGG_KEYS_MAX + 1,
					 1U << 20, 0x80000000, 0xffffffff };

static uint32_t agg_max_keys(struct rng *r)
{
	if (chance(r, 2))
		return RAWPROBE_AGG_KEYS_MAX;
	return chance(r, 70) ? PICK(r, max_keys_ok) : PICK(r, max_keys_bad);
}

/* A value for attribute type t holding kind vk, in or out of range. */
static uint64_t interesting(struct rng *r, uint16_t t, uint8_t vk)
{
	switch (t & NLA_TYPE_MASK) {
	case RAWPROBE_A_KIND:		return PICK(r, vals_kind);
	case RAWPROBE_A_NARGS:		return PICK(r, vals_nargs);
	case RAWPROBE_A_MAXACTIVE:	return PICK(r, vals_maxactive);
	case RAWPROBE_A_STR_MAX:	return PICK(r, vals_strmax);
	case RAWPROBE_A_FLAGS:		return PICK(r, vals_flags);
	case RAWPROBE_A_RING_MODE:	return PICK(r, vals_mode);
	case RAWPROBE_A_FILTER_PID:
	case RAWPROBE_A_FILTER_TGID:
	case RAWPROBE_A_FILTER_NOT_TGID:	return PICK(r, vals_pid);
	case RAWPROBE_A_FILTER_CPU:	return PICK(r, vals_cpu);
	case RAWPROBE_A_PROBE_ID:	return PICK(r, vals_id);
	case RAWPROBE_A_ADDR:		return PICK(r, addrs);
	case RAWPROBE_A_OFFSET:
		return chance(r, 50) ? PICK(r, offsets_ok) : PICK(r, offsets_bad);
	case RAWPROBE_A_RING_RECORDS:
		return chance(r, 30) ? PICK(r, ring_ok) : PICK(r, ring_bad);
	case RAWPROBE_A_AGG_VALUE:	return PICK(r, vals_agg_value);
	case RAWPROBE_A_AGG_VALUE_ARG:	return PICK(r, vals_agg_arg);
	case RAWPROBE_A_AGG_HIST:	return PICK(r, vals_agg_hist);
	case RAWPROBE_A_AGG_LIN_MIN:	return PICK(r, vals_lin_min);
	case RAWPROBE_A_AGG_LIN_STEP:	return PICK(r, vals_lin_step);
	case RAWPROBE_A_AGG_LIN_BUCKETS: return PICK(r, vals_lin_buckets);
	case RAWPROBE_A_AGG_MAX_KEYS:	return agg_max_keys(r);
	}
	switch (vk) {
	case VK_U8:	return PICK(r, vals_u8);
	case VK_U16:	return PICK(r, vals_u16);
	case VK_U64:	return chance(r, 50) ? PICK(r, addrs) : rnd(r);
	default:	return PICK(r, vals_u32);
	}
}

/* Attributes whose random bits could make a costly valid value. */
static bool no_bitflips(uint16_t t)
{
	t &= NLA_TYPE_MASK;
	return t == RAWPROBE_A_ADDR || t == RAWPROBE_A_OFFSET ||
	       t == RAWPROBE_A_RING_RECORDS || t == RAWPROBE_A_AGG_MAX_KEYS;
}

/* --- templates: one valid message per command --- */

enum tmpl {
	T_INFO, T_ADD, T_BATCH, T_DEL, T_GET, T_DUMP, T_ENABLE, T_DISABLE,
	T_RESET, T_RING_GET, T_RING_SET, T_RING_DUMP, T_RING_NEW, T_RING_DEL,
	T_AGG_READ, T_EVENT, T_UNSPEC, T_UNKNOWN, T_NR
};

static const char *const tmpl_name[T_NR] = {
	"GET_INFO", "PROBE_ADD", "ADD_BATCH", "PROBE_DEL", "PROBE_GET",
	"PROBE_GET(dump)", "PROBE_ENABLE", "PROBE_DISABLE", "STATS_RESET",
	"RING_GET", "RING_SET", "RING_GET(dump)", "RING_NEW", "RING_DEL",
	"AGG_READ(dump)", "EVENT", "UNSPEC", "unknown",
};
static const unsigned int tmpl_weight[T_NR] = {
	2, 7, 4, 3, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 4, 1, 1, 1,
};

struct fmsg {
	int tmpl;
	uint16_t nltype;	/* FAMILY_NONE: the family, or a control type */
	bool family;		/* nltype is the family's */
	uint16_t flags;
	uint32_t pid;
	uint8_t cmd, version;
	uint16_t reserved;
	struct flist *attrs;
	long send_len;		/* -1: the whole message */
	long nlmsg_len;		/* -1: the true length */
	char muts[160];		/* what was done to it */
};

static void build_id(struct rng *r, struct flist *l)
{
	struct fattr *a = put_u32(l, RAWPROBE_A_PROBE_ID, 1 + below(r, 8));

	/* most ids: one the run has seen, when it has seen any */
	if (chance(r, 75))
		a->learned = chance(r, 20) ? L_AGG : L_ANY;
}

/*
 * An aggregating probe's attributes (RAWPROBE_F_AGG), most of them what
 * the probe allows: keys its kind has (the caller and the stack only at
 * a function's entry, by name), arguments it records, a value to bucket;
 * now and then a key, value or histogram it does not have.
 */
static void build_agg(struct rng *r, struct flist *l, uint8_t kind,
		      bool entry, int nargs)
{
	bool kret = kind == RAWPROBE_KIND_KRETPROBE, arg_key = false;
	unsigned char keys[RAWPROBE_AGG_MAX_KEYS], kargs[RAWPROBE_AGG_MAX_KEYS];
	uint8_t valid[8], nvalid = 0, value = RAWPROBE_AGG_VALUE_NONE, hist;
	unsigned int n = below(r, RAWPROBE_AGG_MAX_KEYS + 1), i;

	valid[nvalid++] = RAWPROBE_AGG_KEY_COMM;
	valid[nvalid++] = RAWPROBE_AGG_KEY_PID;
	valid[nvalid++] = RAWPROBE_AGG_KEY_TGID;
	valid[nvalid++] = RAWPROBE_AGG_KEY_CPU;
	if (entry)
		valid[nvalid++] = RAWPROBE_AGG_KEY_CALLER;
	if (kret)
		valid[nvalid++] = RAWPROBE_AGG_KEY_RETVAL;
	if (nargs > 0)
		valid[nvalid++] = RAWPROBE_AGG_KEY_ARG;
	for (i = 0; i < n; i++) {
		if (entry && chance(r, 35))
			keys[i] = RAWPROBE_AGG_KEY_STACK;
		else if (chance(r, 8))	/* any key, the kind's or not */
			keys[i] = 1 + below(r, RAWPROBE_AGG_KEY_STACK);
		else
			keys[i] = valid[below(r, nvalid)];
		kargs[i] = 0;
		if (keys[i] == RAWPROBE_AGG_KEY_ARG) {
			kargs[i] = nargs > 0 ? below(r, nargs) : 0;
			arg_key = true;
		}
	}
	if (n && chance(r, 4))		/* no such key */
		keys[below(r, n)] = PICK(r, ((const uint8_t[]){
			0, __RAWPROBE_AGG_KEY_MAX, 0x7f, 0xff }));
	if (n || chance(r, 10))
		put_raw(l, RAWPROBE_A_AGG_KEYS, VK_BIN, keys, n);
	if (arg_key || chance(r, 5))
		put_raw(l, RAWPROBE_A_AGG_KEY_ARGS, VK_BIN, kargs,
			chance(r, 90) ? n : below(r, RAWPROBE_AGG_MAX_KEYS + 1));
	if (chance(r, 50)) {
		if (kret)
			value = RAWPROBE_AGG_VALUE_RETVAL + below(r, nargs > 0 ? 3 : 2);
		else if (nargs > 0 || chance(r, 10))
			value = chance(r, 10) ? RAWPROBE_AGG_VALUE_LATENCY :
				RAWPROBE_AGG_VALUE_ARG;
		put_u8(l, RAWPROBE_A_AGG_VALUE, value);
		if (value == RAWPROBE_AGG_VALUE_ARG || chance(r, 5))
			put_u8(l, RAWPROBE_A_AGG_VALUE_ARG, nargs > 0 ?
			       below(r, nargs) : 0);
	}
	if ((value != RAWPROBE_AGG_VALUE_NONE && chance(r, 60)) ||
	    chance(r, 5)) {
		hist = chance(r, 60) ? RAWPROBE_AGG_HIST_LOG2 :
		       RAWPROBE_AGG_HIST_LINEAR;
		put_u8(l, RAWPROBE_A_AGG_HIST, hist);
		if (hist == RAWPROBE_AGG_HIST_LINEAR || chance(r, 5)) {
			static const uint16_t nb[] = { 1, 4, 20, 256 };
			static const uint64_t step[] = { 1, 10, 1000, 1000000 };

			if (chance(r, 70))
				put_u64(l, RAWPROBE_A_AGG_LIN_MIN,
					chance(r, 50) ? 0 : PICK(r, vals_lin_min));
			if (chance(r, 95))
				put_u64(l, RAWPROBE_A_AGG_LIN_STEP, PICK(r, step));
			if (chance(r, 95))
				put_u16(l, RAWPROBE_A_AGG_LIN_BUCKETS, PICK(r, nb));
		}
	}
	/*
	 * mostly few keys: tables zeroed quickly, and keys that find no
	 * slot (the interval's dropped)
	 */
	if (chance(r, 80)) {
		static const uint32_t few[] = { 1, 2, 3, 4, 8, 16, 64 };

		put_u32(l, RAWPROBE_A_AGG_MAX_KEYS, chance(r, 85) ?
			PICK(r, few) : agg_max_keys(r));
	}
}

/* PROBE_ADD's attributes, one probe spec (also a batch entry). */
/*
 * An override, valid or not. Every spec that carries one also filters on
 * a command and a thread no process has (two, should a mutation drop
 * one): an override the kernel accepts (on getpid) must never fire in
 * the guest the suites share.
 */
static void build_ovr(struct rng *r, struct flist *l)
{
	static const uint64_t values[] = {
		0, 1, (uint64_t)-1, (uint64_t)-12, (uint64_t)-4095,
		(uint64_t)-4096, 1337, (uint64_t)INT64_MIN,
	};
	struct flist *o;

	if (chance(r, 30))
		put_u8(l, RAWPROBE_A_CHAIN_STEP, below(r, RAWPROBE_CHAIN_MAX + 2));
	o = put_nest(l, RAWPROBE_A_OVERRIDE);
	if (chance(r, 90))
		put_u64(o, RAWPROBE_OVR_VALUE, PICK(r, values));
	if (chance(r, 30))
		put_u8(o, RAWPROBE_OVR_PROBABILITY, below(r, 120));
	if (chance(r, 30))
		put_u32(o, RAWPROBE_OVR_TIMES, below(r, 4));
	if (chance(r, 20))
		put_u32(o, RAWPROBE_OVR_INTERVAL, below(r, 4));
	if (chance(r, 20))
		put_u8(o, RAWPROBE_OVR_CHAIN, below(r, RAWPROBE_CHAIN_MAX + 2));
	put_str(l, RAWPROBE_A_FILTER_COMM, "rp-fuzz-never");
	put_u32(l, RAWPROBE_A_FILTER_PID, 0x7ffffff0);
}

/*
 * A value filter of 1..8 terms, numbers and strings, mostly well formed:
 * fetches of the shapes the kernel takes, string terms whose constant
 * offset lands in, at the end of or past the strings sent (or none).
 */
static void build_terms(struct rng *r, struct flist *l)
{
	static const char strs_ok[] = "pts0\0*\0null\0?ts*\0";
	static const uint8_t sizes[] = { 1, 2, 4, 8, 8, 3, 0 };
	struct rawprobe_value_term t[RAWPROBE_MAX_VALUE_TERMS + 1];
	unsigned int n = 1 + below(r, RAWPROBE_MAX_VALUE_TERMS), i;

	memset(t, 0, sizeof(t));
	if (chance(r, 3))
		n++;	/* one too many, now and then */
	for (i = 0; i < n; i++) {
		t[i].fetch.src = below(r, RAWPROBE_FETCH_RETVAL + 2);
		t[i].fetch.nloads = below(r, RAWPROBE_FETCH_MAX_LOADS + 2);
		t[i].fetch.size = PICK(r, sizes);
		t[i].fetch.off[0] = (int32_t)below(r, 4096) - 64;
		t[i].fetch.add = chance(r, 30) ? (int32_t)below(r, 512) : 0;
		t[i].cmp = below(r, __RAWPROBE_CMP_MAX + 1);
		t[i].flags = i && chance(r, 30) ? RAWPROBE_TERM_OR : 0;
		if (chance(r, 20))
			t[i].flags |= chance(r, 80) ? RAWPROBE_TERM_USER : 0x80;
		t[i].str_size = chance(r, 40) ? (uint16_t)below(r, 300) : 0;
		t[i].value = chance(r, 70) ? below(r, sizeof(strs_ok) + 4) :
			     PICK(r, vals_u32);
	}
	put_raw(l, RAWPROBE_A_VALUE_FILTER, VK_BIN, t, n * sizeof(t[0]));
	if (chance(r, 80))
		put_raw(l, RAWPROBE_A_VALUE_FILTER_STRS, VK_BIN, strs_ok,
			chance(r, 85) ? sizeof(strs_ok) - 1 :
			below(r, sizeof(strs_ok)));
	if (chance(r, 50))
		put_str(l, RAWPROBE_A_VALUE_FILTER_STR, "tty->name == \"pts0\"");
}

static void build_spec(struct rng *r, struct flist *l, bool in_batch)
{
	uint8_t kind = RAWPROBE_KIND_KPROBE + below(r, 3);
	const char *sym = PICK(r, symbols);
	bool by_name = chance(r, 90), agg = chance(r, in_batch ? 10 : 35);
	uint32_t flags = 0, offset = 0;
	int nargs = -1;

	put_u8(l, RAWPROBE_A_KIND, kind);
	if (by_name)
		put_str(l, RAWPROBE_A_SYMBOL, sym);
	else
		put_u64(l, RAWPROBE_A_ADDR, PICK(r, addrs));
	if (chance(r, 8))
		put_str(l, RAWPROBE_A_MODULE, PICK(r, modules));
	if (chance(r, agg ? 10 : 20)) {
		offset = kind == RAWPROBE_KIND_KPROBE ? PICK(r, offsets_ok) : 0;
		put_u32(l, RAWPROBE_A_OFFSET, offset);
	}
	if (kind == RAWPROBE_KIND_KRETPROBE && chance(r, 50)) {
		static const uint32_t ma[] = { 1, 16, 64, 4096 };

		put_u32(l, RAWPROBE_A_MAXACTIVE, PICK(r, ma));
	}
	if (chance(r, 50)) {
		nargs = below(r, RAWPROBE_MAX_ARGS + 1);
		put_u8(l, RAWPROBE_A_NARGS, nargs);
	}
	if (nargs > 0 && chance(r, 70)) {
		unsigned char t[RAWPROBE_MAX_ARGS];
		int i;

		for (i = 0; i < nargs; i++)
			t[i] = below(r, RAWPROBE_ARG_KSTR);
		/* strings: an aggregating probe writes no record for them */
		if (kind != RAWPROBE_KIND_KRETPROBE && chance(r, agg ? 3 : 40))
			t[below(r, nargs)] = chance(r, 50) ? RAWPROBE_ARG_KSTR :
						RAWPROBE_ARG_USTR;
		put_raw(l, RAWPROBE_A_ARGTYPES, VK_BIN, t, nargs);
		/* a string's length from another argument, valid or not */
		if (chance(r, 15)) {
			unsigned char len[RAWPROBE_MAX_ARGS];

			for (i = 0; i < nargs; i++)
				len[i] = chance(r, 50) ? 0 :
					 (unsigned char)below(r, RAWPROBE_MAX_ARGS + 2);
			put_raw(l, RAWPROBE_A_STR_LEN_ARGS, VK_BIN, len,
				chance(r, 90) ? (uint32_t)nargs : below(r, nargs + 2));
		}
	}
	if (chance(r, 15)) {
		static const char *const names[] = {
			"fd", "fd,buf", "fd,buf,count", "a,b,c,d,e,f", "",
			"fd,,count", "x-y", ",fd", "fd,",
		};

		put_str(l, RAWPROBE_A_ARG_NAMES, PICK(r, names));
	}
	if (agg || chance(r, 40)) {
		if (chance(r, 50))
			flags |= RAWPROBE_F_PERSISTENT;
		if (chance(r, agg ? 15 : 40))
			flags |= RAWPROBE_F_DISABLED;
		if (!strncmp(sym, "__x64_sys_", 10) && chance(r, 50))
			flags |= RAWPROBE_F_SYSCALL;
		if (agg)
			flags |= RAWPROBE_F_AGG | (chance(r, 3) ? RAWPROBE_F_STACK : 0);
		put_u32(l, RAWPROBE_A_FLAGS, flags);
	}
	/* (and now and then its attributes without the flag) */
	if (agg || chance(r, 3))
		build_agg(r, l, kind, by_name && !offset, nargs);
	if (chance(r, 15))
		put_u16(l, RAWPROBE_A_STR_MAX, 1 + below(r, RAWPROBE_STR_LEN - 1));
	if (chance(r, in_batch ? 5 : 10))
		put_u32(l, RAWPROBE_A_FILTER_PID, 1 + below(r, 1000));
	if (chance(r, in_batch ? 5 : 10))
		put_u32(l, RAWPROBE_A_FILTER_TGID, 1 + below(r, 1000));
	if (chance(r, in_batch ? 5 : 10))
		put_str(l, RAWPROBE_A_FILTER_COMM, PICK(r, comms));
	if (chance(r, in_batch ? 5 : 10))
		put_u32(l, RAWPROBE_A_FILTER_CPU, below(r, 2));
	if (chance(r, in_batch ? 5 : 10))
		put_u32(l, RAWPROBE_A_FILTER_NOT_TGID, 1 + below(r, 1000));
	/* 1 is the root cgroup's id; the others mostly name none */
	if (chance(r, in_batch ? 5 : 10))
		put_u64(l, RAWPROBE_A_FILTER_CGROUP,
			chance(r, 50) ? 1 : PICK(r, vals_u32));
	if (chance(r, in_batch ? 4 : 12))
		build_terms(r, l);
	if (chance(r, in_batch ? 3 : 8))
		build_ovr(r, l);
	/* into a session, by id or name: the default one otherwise */
	if (chance(r, in_batch ? 15 : 25))
		fz_session_ref(r, l);
}

static void build_template(struct rng *r, struct fmsg *m)
{
	unsigned int total = 0, pick, i;
	struct flist *l;

	for (i = 0; i < T_NR; i++)
		total += tmpl_weight[i];
	pick = below(r, total);
	for (i = 0; pick >= tmpl_weight[i]; i++)
		pick -= tmpl_weight[i];
	m->tmpl = i;
	m->family = true;
	m->nltype = FAMILY_NONE;
	m->flags = NLM_F_REQUEST | NLM_F_ACK;
	m->version = RAWPROBE_GENL_VERSION;
	m->attrs = l = list_new(8);
	m->send_len = -1;
	m->nlmsg_len = -1;

	switch (m->tmpl) {
	case T_INFO:
		m->cmd = RAWPROBE_CMD_GET_INFO;
		break;
	case T_ADD:
		m->cmd = RAWPROBE_CMD_PROBE_ADD;
		build_spec(r, l, false);
		break;
	case T_BATCH: {
		struct flist *b;
		int n = 1 + below(r, 4);

		m->cmd = RAWPROBE_CMD_PROBE_ADD_BATCH;
		b = put_nest(l, RAWPROBE_A_BATCH);
		for (i = 0; i < (unsigned int)n; i++)
			build_spec(r, put_nest(b, i + 1), true);
		if (chance(r, 30))
			put_u32(l, RAWPROBE_A_FLAGS, below(r, 4));
		break;
	}
	case T_DEL:
	case T_RESET:
		m->cmd = m->tmpl == T_DEL ? RAWPROBE_CMD_PROBE_DEL :
			 RAWPROBE_CMD_STATS_RESET;
		if (chance(r, 70))
			build_id(r, l);
		if (m->tmpl == T_DEL && chance(r, 30)) {
			uint32_t ids[4];
			unsigned int n = below(r, 5);

			for (i = 0; i < n; i++)
				ids[i] = 1 + below(r, 8);
			/* one id: a learned one, most times */
			put_raw(l, RAWPROBE_A_PROBE_IDS, VK_BIN, ids,
				n * 4)->learned = n == 1 && chance(r, 75);
		}
		if (l->n == 0 || chance(r, 10))
			put_u32(l, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
		break;
	case T_GET:
		m->cmd = RAWPROBE_CMD_PROBE_GET;
		build_id(r, l);
		break;
	case T_DUMP:
		m->cmd = RAWPROBE_CMD_PROBE_GET;
		m->flags |= NLM_F_DUMP;
		if (chance(r, 20))
			build_id(r, l);
		break;
	case T_ENABLE:
	case T_DISABLE:
		m->cmd = m->tmpl == T_ENABLE ? RAWPROBE_CMD_PROBE_ENABLE :
			 RAWPROBE_CMD_PROBE_DISABLE;
		build_id(r, l);
		break;
	case T_RING_GET:
	case T_RING_SET:
		m->cmd = m->tmpl == T_RING_GET ? RAWPROBE_CMD_RING_GET :
			 RAWPROBE_CMD_RING_SET;
		if (chance(r, m->tmpl == T_RING_SET ? 80 : 10))
			put_u32(l, RAWPROBE_A_RING_RECORDS, PICK(r, ring_ok));
		if (chance(r, m->tmpl == T_RING_SET ? 50 : 10))
			put_u32(l, RAWPROBE_A_RING_MODE, below(r, 2));
		/* a session's, not the default one's */
		if (chance(r, m->tmpl == T_RING_SET ? 40 : 50))
			fz_session_ref(r, l);
		break;
	case T_RING_DUMP:	/* every session */
		m->cmd = RAWPROBE_CMD_RING_GET;
		m->flags |= NLM_F_DUMP;
		if (chance(r, 10))
			fz_session_ref(r, l);
		break;
	case T_RING_NEW:
		m->cmd = RAWPROBE_CMD_RING_NEW;
		fz_build_ring_new(r, l);
		break;
	case T_RING_DEL:
		m->cmd = RAWPROBE_CMD_RING_DEL;
		fz_build_ring_del(r, l);
		break;
	case T_AGG_READ: {
		/* a dump (no doit): mostly of an aggregating probe's id */
		struct fattr *a;

		m->cmd = RAWPROBE_CMD_AGG_READ;
		m->flags |= NLM_F_DUMP;
		if (chance(r, 95)) {
			a = put_u32(l, RAWPROBE_A_PROBE_ID, 1 + below(r, 8));
			if (chance(r, 90))
				a->learned = chance(r, 85) ? L_AGG : L_ANY;
		}
		if (chance(r, 5))
			put_u32(l, RAWPROBE_A_FLAGS, chance(r, 50) ?
				RAWPROBE_F_ALL : RAWPROBE_F_AGG);
		break;
	}
	case T_EVENT:
		m->cmd = RAWPROBE_CMD_EVENT;
		put_u8(l, RAWPROBE_A_EVENT, RAWPROBE_EVENT_ADDED);
		build_id(r, l);
		break;
	case T_UNSPEC:
		m->cmd = RAWPROBE_CMD_UNSPEC;
		break;
	default:
		m->cmd = RAWPROBE_CMD_MAX + 1 + below(r, 255 - RAWPROBE_CMD_MAX);
		put_u32(l, 1 + below(r, RAWPROBE_A_MAX), (uint32_t)rnd(r));
		break;
	}
}

/* --- mutations --- */

static size_t list_size(const struct flist *l);

static size_t attr_size(const struct fattr *a)
{
	size_t p = a->vk == VK_NEST && a->kids ? list_size(a->kids) : a->len;

	return NLA_ALIGN(NLA_HDRLEN + p);
}

static size_t list_size(const struct flist *l)
{
	size_t n = 0;
	int i;

	for (i = 0; i < l->n; i++)
		n += attr_size(&l->v[i]);
	return n;
}


/* Every attribute list of the tree, the top one first. */
static int collect_lists(struct flist *l, struct flist **out, int n, int max)
{
	int i;

	if (n < max)
		out[n++] = l;
	for (i = 0; i < l->n && n < max; i++)
		if (l->v[i].kids)
			n = collect_lists(l->v[i].kids, out, n, max);
	return n;
}

static struct flist *pick_list(struct rng *r, struct fmsg *m, bool nonempty)
{
	struct flist *all[64];
	int n = collect_lists(m->attrs, all, 0, 64), i, k;

	/* the top level half the time, else any list */
	if (!nonempty || m->attrs->n)
		if (chance(r, 50))
			return m->attrs;
	for (k = 0; k < 8; k++) {
		i = below(r, n);
		if (!nonempty || all[i]->n)
			return all[i];
	}
	return nonempty && !m->attrs->n ? NULL : m->attrs;
}

static struct fattr *pick_attr(struct rng *r, struct fmsg *m)
{
	struct flist *l = pick_list(r, m, true);

	return l ? &l->v[below(r, l->n)] : NULL;
}

static void set_payload(struct fattr *a, const void *data, uint32_t len,
			uint8_t vk)
{
	a->data = zalloc(len + 1);
	if (len)
		memcpy(a->data, data, len);
	a->len = len;
	a->vk = vk;
	a->kids = NULL;
	a->learned = L_NONE;
}

static void random_bytes(struct rng *r, unsigned char *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)rnd(r);
}

static void add_foreign(struct rng *r, struct flist *l)
{
	uint16_t t = 1 + below(r, RAWPROBE_A_MAX + 2);
	uint8_t vk = t <= RAWPROBE_A_MAX ? attr_vk[t] : VK_U32;
	uint64_t v = interesting(r, t, vk);

	switch (vk) {
	case VK_U8:  put_u8(l, t, (uint8_t)v); break;
	case VK_U16: put_u16(l, t, (uint16_t)v); break;
	case VK_U64: put_u64(l, t, v); break;
	case VK_STR: put_str(l, t, PICK(r, symbols)); break;
	case VK_NEST: {
		struct flist *k = put_nest(l, t);

		if (chance(r, 50))
			build_spec(r, put_nest(k, 1), true);
		break;
	}
	case VK_BIN: {
		unsigned char b[8];

		random_bytes(r, b, sizeof(b));
		put_raw(l, t, VK_BIN, b, below(r, 9));
		break;
	}
	default: put_u32(l, t, (uint32_t)v); break;
	}
}

/* Strings: no NUL, overlong, control bytes, empty, embedded NUL. */
static void mutate_string(struct rng *r, struct fattr *a)
{
	static const char *const odd[] = {
		"vfs\x01read", "vfs_read\n", "\x7f", "\xff\xfe\xfd", "vfs_read ",
		"%s%n%x", "../../etc", "\xc3\xa9t\xc3\xa9",
	};
	static const uint32_t longs[] = { 15, 16, 55, 56, 127, 128, 511, 512,
					  513, 1000, 4000 };
	unsigned char buf[4100];
	uint32_t n;

	switch (below(r, 6)) {
	case 0:	/* the NUL dropped */
		if (a->len && a->data[a->len - 1] == '\0')
			a->len--;
		else
			a->len = a->len ? a->len - 1 : 0;
		break;
	case 1:	/* overlong, with or without its NUL */
		n = PICK(r, longs);
		memset(buf, 'a' + below(r, 26), n);
		buf[n] = '\0';
		set_payload(a, buf, n + (chance(r, 70) ? 1 : 0), VK_STR);
		break;
	case 2:	/* control and non-ASCII bytes */
		snprintf((char *)buf, sizeof(buf), "%s", PICK(r, odd));
		set_payload(a, buf, strlen((char *)buf) + 1, VK_STR);
		break;
	case 3:	/* empty: a lone NUL, or nothing at all */
		set_payload(a, "", chance(r, 50) ? 1 : 0, VK_STR);
		break;
	case 4:	/* an embedded NUL */
		set_payload(a, "vfs\0read", 9, VK_STR);
		break;
	default: /* random bytes */
		n = 1 + below(r, 40);
		random_bytes(r, buf, n);
		set_payload(a, buf, n, VK_STR);
		break;
	}
	a->vk = VK_STR;
}

/* A batch of n entries, each small (so that 2048 of them fit in u16). */
static void batch_count(struct rng *r, struct fmsg *m)
{
	static const uint32_t counts[] = { 0, 1, RAWPROBE_MAX_BATCH - 1,
					   RAWPROBE_MAX_BATCH,
					   RAWPROBE_MAX_BATCH + 1, 1500, 2000 };
	uint32_t n = PICK(r, counts), i;
	struct flist *b = NULL;
	int k;

	for (k = 0; k < m->attrs->n; k++)
		if ((m->attrs->v[k].type & NLA_TYPE_MASK) == RAWPROBE_A_BATCH &&
		    m->attrs->v[k].kids) {
			b = m->attrs->v[k].kids;
			break;
		}
	if (!b)
		b = put_nest(m->attrs, RAWPROBE_A_BATCH);
	b->n = 0;
	/* identical entries (refused as duplicates) or five distinct */
	for (i = 0; i < n; i++) {
		struct flist *e = put_nest(b, 1 + (i & 0x3fff));

		put_u8(e, RAWPROBE_A_KIND, RAWPROBE_KIND_KPROBE);
		put_str(e, RAWPROBE_A_SYMBOL, symbols[n < 8 ? i % 5 : 0]);
		put_u32(e, RAWPROBE_A_FLAGS, RAWPROBE_F_DISABLED);
	}
}

/* Wrap a list's attributes in depth levels of nesting. */
static void deep_nest(struct rng *r, struct flist *l)
{
	int depth = 2 + below(r, 40), d;
	struct flist *inner = l;
	uint16_t t = chance(r, 50) ? RAWPROBE_A_BATCH : 1 + below(r, 30);

	for (d = 0; d < depth; d++)
		inner = put_nest(inner, d ? 1 + below(r, 4) : t);
	if (chance(r, 50))
		build_spec(r, inner, true);
	else
		put_u32(inner, RAWPROBE_A_PROBE_ID, 1);
}

static void mutate(struct rng *r, struct fmsg *m)
{
	static const char *const names[] = {
		"drop", "dup", "reorder", "type", "paylen", "nlalen", "value",
		"flip", "string", "nestjunk", "deep", "foreign", "batchcount",
		"batchleaf", "trunc", "version", "reserved", "flags",
		"nltype", "cmd", "nlmsglen", "pid",
	};
	static const unsigned int weight[] = {
		8, 5, 4, 6, 6, 5, 14, 5, 8, 4, 2, 6, 2, 2,
		3, 2, 1, 5, 1, 2, 2, 1,
	};
	unsigned int total = 0, pick, op;
	struct flist *l;
	struct fattr *a;
	unsigned char buf[4096];
	uint32_t n;

	for (op = 0; op < sizeof(weight) / sizeof(weight[0]); op++)
		total += weight[op];
	pick = below(r, total);
	for (op = 0; pick >= weight[op]; op++)
		pick -= weight[op];

	switch (op) {
	case 0:	/* drop */
		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		n = below(r, l->n);
		memmove(&l->v[n], &l->v[n + 1], (l->n - n - 1) * sizeof(*l->v));
		l->n--;
		break;
	case 1: { /* duplicate, now and then many times */
		uint32_t times = chance(r, 10) ? 100 + below(r, 1500) : 1, i;
		struct fattr copy;

		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		copy = l->v[below(r, l->n)];
		if (attr_size(&copy) > 64)
			times = 1;
		for (i = 0; i < times; i++)
			attr_copy(list_add(l), &copy);
		break;
	}
	case 2:	/* reorder */
		l = pick_list(r, m, true);
		if (!l)
			goto foreign;
		for (n = l->n; n > 1; n--) {
			uint32_t j = below(r, n);
			struct fattr t = l->v[n - 1];

			l->v[n - 1] = l->v[j];
			l->v[j] = t;
		}
		break;
	case 3:	/* another type, or its flag bits */
		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		switch (below(r, 4)) {
		case 0: a->type ^= NLA_F_NESTED; break;
		case 1: a->type ^= NLA_F_NET_BYTEORDER; break;
		case 2: a->type = (a->type & ~NLA_TYPE_MASK) |
				  PICK(r, ((const uint16_t[]){ 0, RAWPROBE_A_MAX,
					RAWPROBE_A_MAX + 1, 0x3fff, 200 }));
			break;
		default: a->type = (a->type & ~NLA_TYPE_MASK) |
				   below(r, RAWPROBE_A_MAX + 1);
			break;
		}
		a->learned = L_NONE;
		break;
	case 4: { /* a payload of the wrong length */
		static const uint32_t lens[] = { 0, 1, 2, 3, 5, 7, 9, 17, 300,
						 4000 };

		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		n = PICK(r, lens);
		memset(buf, 0, sizeof(buf));
		if (a->data)
			memcpy(buf, a->data, a->len < n ? a->len : n);
		if (n > a->len)
			random_bytes(r, buf + a->len, chance(r, 50) ? 0 :
				     n - a->len);
		set_payload(a, buf, n, a->vk == VK_NEST ? VK_BIN : a->vk);
		break;
	}
	case 5: { /* nla_len lies */
		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		switch (below(r, 6)) {
		case 0: a->len_fix = below(r, NLA_HDRLEN); break;
		case 1: a->len_fix = NLA_HDRLEN; break;
		case 2: a->len_fix = NLA_HDRLEN + a->len + 1 + below(r, 7); break;
		case 3: a->len_fix = a->len ? NLA_HDRLEN + a->len - 1 : 0; break;
		case 4: a->len_fix = 0xffff; break;
		default: a->len_fix = 1000 + below(r, 3000); break;
		}
		break;
	}
	case 6: { /* a value in or out of range */
		uint64_t v;

		a = pick_attr(r, m);
		if (!a)
			goto foreign;
		if (a->vk == VK_STR) {
			mutate_string(r, a);
			break;
		}
		if ((a->type & NLA_TYPE_MASK) == RAWPROBE_A_AGG_KEYS ||
		    (a->type & NLA_TYPE_MASK) == RAWPROBE_A_AGG_KEY_ARGS) {
			/* keys 1..8 (arguments 0..5) and junk, 0 to 5 */
			n = below(r, RAWPROBE_AGG_MAX_KEYS + 2);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = chance(r, 80) ? 1 + below(r,
					__RAWPROBE_AGG_KEY_MAX - 1) :
					PICK(r, ((const uint8_t[]){ 0, 9, 0x7f,
								    0xff }));
			set_payload(a, buf, n, VK_BIN);
			break;
		}
		if ((a->type & NLA_TYPE_MASK) == RAWPROBE_A_ARGTYPES ||
		    a->vk == VK_BIN || a->vk == VK_NEST) {
			static const unsigned char t[] = { 0, 1, 4, 5, 6, 7,
							   0x7f, 0xff };

			n = below(r, 9);
			for (uint32_t i = 0; i < n; i++)
				buf[i] = PICK(r, t);
			set_payload(a, buf, n, VK_BIN);
			break;
		}
		v = interesting(r, a->type, a->vk);
		memcpy(a->data, &v, a->len < 8 ? a->len : 8);
		a->learned = L_NONE;
		break;
	}
	case 7:	/* bit flips */
		a = pick_attr(r, m);
		if (!a || !a->len || a->vk == VK_NEST || no_bitflips(a->type))
			goto foreign;
		for (n = 1 + below(r, 3); n; n--)
			a->data[below(r, a->len)] ^= 1 << below(r, 8);
		a->learned = L_NONE;
		break;
	case 8:	/* strings */
		a = pick_attr(r, m);
		if (!a || a->vk != VK_STR)
			goto foreign;
		mutate_string(r, a);
		break;
	case 9: { /* nested garbage */
		struct flist *k;

		l = pick_list(r, m, false);
		k = put_nest(l, below(r, RAWPROBE_A_MAX + 2));
		if (chance(r, 50)) {
			n = 1 + below(r, 64);
			random_bytes(r, buf, n);
			put_raw(k, below(r, 40), VK_BIN, buf, n);
		} else {
			for (n = below(r, 6); n; n--)
				add_foreign(r, k);
		}
		break;
	}
	case 10: /* deep nesting */
		deep_nest(r, pick_list(r, m, false));
		break;
	case 11:
foreign:	/* an attribute that belongs elsewhere */
		add_foreign(r, pick_list(r, m, false));
		op = 11;
		break;
	case 12: /* batch counts around RAWPROBE_MAX_BATCH */
		batch_count(r, m);
		break;
	case 13: { /* a batch with entries that are not nests */
		l = NULL;
		for (int k = 0; k < m->attrs->n; k++)
			if (m->attrs->v[k].kids &&
			    (m->attrs->v[k].type & NLA_TYPE_MASK) ==
			    RAWPROBE_A_BATCH)
				l = m->attrs->v[k].kids;
		if (!l)
			l = put_nest(m->attrs, RAWPROBE_A_BATCH);
		if (chance(r, 50))
			put_raw(l, 1, VK_BIN, "", 0);
		else
			put_u32(l, 1 + below(r, 4), RAWPROBE_KIND_KPROBE);
		break;
	}
	case 14: /* truncated: after nlmsghdr, genlmsghdr, or in attributes */
		switch (below(r, 4)) {
		case 0: m->send_len = below(r, NLMSG_HDRLEN); break;
		case 1: m->send_len = NLMSG_HDRLEN + below(r, GENL_HDRLEN); break;
		default: m->send_len = NLMSG_HDRLEN + GENL_HDRLEN +
				       below(r, 64);
			break;
		}
		/* nlmsg_len: what was sent, or still the whole message */
		if (chance(r, 70))
			m->nlmsg_len = m->send_len;
		break;
	case 15:
		m->version = PICK(r, ((const uint8_t[]){ 0, 2, 3, 0x7f, 0xff }));
		break;
	case 16:
		m->reserved = 1 + below(r, 0xffff);
		break;
	case 17: /* nlmsg_flags */
		switch (below(r, 9)) {
		case 0: m->flags &= ~NLM_F_ACK; break;
		case 1: m->flags &= ~NLM_F_REQUEST; break;
		case 2: m->flags |= NLM_F_DUMP; break;
		case 3: m->flags = (m->flags & ~NLM_F_DUMP) | NLM_F_ROOT; break;
		case 4: m->flags = (m->flags & ~NLM_F_DUMP) | NLM_F_MATCH; break;
		case 5: m->flags |= NLM_F_ECHO; break;
		case 6: m->flags |= NLM_F_ATOMIC | NLM_F_DUMP_INTR; break;
		case 7: m->flags = (uint16_t)rnd(r); break;
		default: m->flags = 0; break;
		}
		break;
	case 18: /* a control message type */
		m->family = false;
		m->nltype = below(r, NLMSG_MIN_TYPE);
		break;
	case 19: /* another command number */
		m->cmd = chance(r, 50) ? below(r, RAWPROBE_CMD_MAX + 1) :
			 (uint8_t)rnd(r);
		break;
	case 20: /* nlmsg_len: unaligned, short, or past the data */
		switch (below(r, 3)) {
		case 0: m->nlmsg_len = -2 - below(r, 7); break;	/* true - k */
		case 1: m->nlmsg_len = -100 - below(r, 64); break; /* true + k */
		default: m->nlmsg_len = 0x7fffffff; break;
		}
		break;
	default:
		m->pid = (uint32_t)rnd(r) | 1;
		break;
	}
	if (strlen(m->muts) + 14 < sizeof(m->muts))
		snprintf(m->muts + strlen(m->muts),
			 sizeof(m->muts) - strlen(m->muts), "%s%s",
			 m->muts[0] ? "," : "", names[op]);
}

/* --- serialization --- */

struct wire {
	unsigned char buf[MSG_MAX];
	size_t len;		/* bytes to send */
	size_t full;		/* the message's true length */
	int npatch;
	struct {
		size_t off;
		uint32_t k;
		uint8_t which;	/* enum learn */
	} patch[32];		/* learned probe and session ids */
	bool overflow;
};

static void put_list(struct wire *w, const struct flist *l)
{
	int i;

	for (i = 0; i < l->n; i++) {
		const struct fattr *a = &l->v[i];
		size_t sz = attr_size(a), start = w->len;
		struct nlattr h;

		if (w->len + sz > sizeof(w->buf)) {
			w->overflow = true;
			return;
		}
		h.nla_len = a->len_fix >= 0 ? (uint16_t)a->len_fix :
			    (uint16_t)(NLA_HDRLEN + (a->kids ?
				list_size(a->kids) : a->len));
		h.nla_type = a->type;
		memcpy(w->buf + w->len, &h, sizeof(h));
		w->len += NLA_HDRLEN;
		if (a->vk == VK_NEST && a->kids) {
			put_list(w, a->kids);
		} else {
			if (a->learned && a->len == 4 &&
			    w->npatch < (int)(sizeof(w->patch) /
					      sizeof(w->patch[0]))) {
				w->patch[w->npatch].off = w->len;
				memcpy(&w->patch[w->npatch].k, a->data, 4);
				w->patch[w->npatch].which = a->learned;
				w->npatch++;
			}
			memcpy(w->buf + w->len, a->data, a->len);
			w->len += a->len;
		}
		memset(w->buf + w->len, 0, start + sz - w->len);
		w->len = start + sz;
	}
}

static void serialize(const struct fmsg *m, struct wire *w)
{
	struct nlmsghdr nlh = { 0 };
	struct genlmsghdr g = { 0 };

	w->len = NLMSG_HDRLEN + GENL_HDRLEN;
	w->npatch = 0;
	w->overflow = false;
	put_list(w, m->attrs);
	w->full = w->len;
	nlh.nlmsg_len = m->nlmsg_len == -1 ? w->len :
			m->nlmsg_len <= -100 ? w->len + (-m->nlmsg_len - 100) + 1 :
			m->nlmsg_len < 0 ? w->len - (-m->nlmsg_len - 1) :
			(uint32_t)m->nlmsg_len;
	nlh.nlmsg_type = m->nltype;
	nlh.nlmsg_flags = m->flags;
	nlh.nlmsg_pid = m->pid;
	g.cmd = m->cmd;
	g.version = m->version;
	g.reserved = m->reserved;
	memcpy(w->buf, &nlh, sizeof(nlh));
	memcpy(w->buf + NLMSG_HDRLEN, &g, sizeof(g));
	if (m->send_len >= 0 && (size_t)m->send_len < w->len)
		w->len = m->send_len;
}

/* --plain: the templates alone, to see that they are valid. */
static bool plain;

static void generate(uint64_t seed, uint64_t index, struct fmsg *m,
		     struct wire *w)
{
	struct rng r;
	int n;

	arena_used = 0;
	memset(m, 0, sizeof(*m));
	rng_init(&r, seed, index);
	build_template(&r, m);
	for (n = 1 + below(&r, 3); n && !plain; n--)
		mutate(&r, m);
	serialize(m, w);
	if (w->overflow) {	/* too big for one message: the template */
		strcat(m->muts, ",toobig");
		rng_init(&r, seed, index);
		arena_used = 0;
		memset(m, 0, sizeof(*m));
		build_template(&r, m);
		strcpy(m->muts, "none(toobig)");
		serialize(m, w);
	}
}

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 0x100000001b3ULL;
	return h;
}

/* --- the run --- */

#define EPOCH_DEFAULT	1000

struct opts {
	uint64_t seed;
	long count, first;
	long epoch;		/* a new socket every epoch messages; 0: one */
	enum fclass cls;
	bool allow_changes, dry_run, verbose;
	uint32_t ids[MAX_LEARNED];
	int nids;
	uint32_t sessions[FZ_MAX_SESSIONS];	/* --sessions */
	int nsessions;
	const char *argv0;
};

struct stats {
	long sent, ok, none, errors, failures;
	long hist[4096];		/* by errno */
	long t_sent[T_NR], t_ok[T_NR], t_err[T_NR], t_none[T_NR];
	/* aggregating probes added; AGG_READ dumps that ended well */
	long agg_added, agg_reads, agg_entries, agg_stacks, agg_hits;
	long agg_dropped;
	/*
	 * sessions RING_NEW made (named ones), RING_DEL ended, probes added
	 * into one (by PROBE_ADD: a batch's answer has ids only); sockets
	 */
	long sess_new, sess_named, sess_del, sess_probes, sockets;
	/* unprivileged: errors other than EPERM for privileged commands */
	long preparse[4096];
	/* ... and their reasons */
	struct {
		char text[72];
		long n;
	} why[24];
	int nwhy;
};

struct run {
	struct opts *o;
	struct rp_nl nl;
	uint32_t port;
	uint32_t learned[MAX_LEARNED];
	int nlearned, next_learned;
	uint32_t learned_agg[MAX_LEARNED];	/* aggregating ones, oldest first */
	int nlearned_agg;
	struct fz_sessions sess;	/* session ids RING_NEW answered */
	struct stats st;
	int reports;
	bool changed;		/* an unprivileged change succeeded */
};

/* What the netlink core must answer to these bytes. */
struct expect {
	bool answer;		/* anything at all */
	bool ack_only;		/* nothing processed: one ack, error 0 */
	bool dump;
	bool ack;		/* NLM_F_ACK */
	uint8_t cmd;
	bool privileged;	/* probes (read or written) or ring changes */
};

static bool cmd_privileged(uint8_t cmd)
{
	switch (cmd) {
	case RAWPROBE_CMD_GET_INFO:
	case RAWPROBE_CMD_RING_GET:
		return false;
	default:
		return true;	/* every other command, known or not */
	}
}

static void expectation(const struct wire *w, struct expect *e)
{
	struct nlmsghdr h;
	struct genlmsghdr g = { 0 };

	memset(e, 0, sizeof(*e));
	if (w->len < NLMSG_HDRLEN)
		return;		/* not even a header: dropped */
	memcpy(&h, w->buf, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > w->len)
		return;		/* netlink_rcv_skb() drops it silently */
	e->ack = h.nlmsg_flags & NLM_F_ACK;
	if (!(h.nlmsg_flags & NLM_F_REQUEST) || h.nlmsg_type < NLMSG_MIN_TYPE) {
		e->answer = e->ack_only = e->ack;
		return;
	}
	e->answer = true;
	if (w->len >= NLMSG_HDRLEN + GENL_HDRLEN)
		memcpy(&g, w->buf + NLMSG_HDRLEN, sizeof(g));
	e->cmd = g.cmd;
	e->dump = (h.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	e->privileged = cmd_privileged(g.cmd);
	/*
	 * The default session's geometry is everyone's; every session (a
	 * dump) or one named (parsed: it reaches the command) is not.
	 */
	if (g.cmd == RAWPROBE_CMD_RING_GET && h.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
		e->privileged = e->dump ||
			fz_names_session(w->buf + NLMSG_HDRLEN + GENL_HDRLEN,
					 (long)h.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN);
}

/* An AGG_READ dump's answer, across its messages. */
#define AGG_IDS 256
struct agg_answer {
	bool interval, stacks_begun, overflow;
	uint32_t key_words, val_words;
	int stack_word;		/* the key word of a stack id, or -1 */
	uint64_t hits, dropped, counted;
	long entries, stacks;
	int nnamed, nsent;
	uint64_t named[AGG_IDS], sent[AGG_IDS];	/* stack ids */
};

struct answer {
	int replies;		/* family messages */
	bool error_seen;	/* an NLMSG_ERROR */
	int error;
	bool done_seen;
	int done_error;
	char reason[160];	/* extended ack message */
	char bad[200];		/* the first malformation */
	struct agg_answer agg;
};

#define BAD(an, ...) \
	do { if (!(an)->bad[0]) snprintf((an)->bad, sizeof((an)->bad), \
					 __VA_ARGS__); } while (0)

static bool is_string_attr(int t)
{
	return t == RAWPROBE_A_MODULE_VERSION ||
	       t == RAWPROBE_A_KERNEL_RELEASE || t == RAWPROBE_A_SYMBOL ||
	       t == RAWPROBE_A_MODULE || t == RAWPROBE_A_FILTER_COMM ||
	       t == RAWPROBE_A_NAME || t == RAWPROBE_A_OWNER_MODULE ||
	       t == RAWPROBE_A_ARG_NAMES || t == RAWPROBE_A_SESSION_NAME;
}

static void learn(uint32_t *v, int *n, int *next, uint32_t id)
{
	if (*n < MAX_LEARNED)
		v[(*n)++] = id;
	else
		v[(*next)++ % MAX_LEARNED] = id;
}

/* The aggregating probes, newest last: AGG_READ reads the newest. */
static void learn_agg(struct run *rn, uint32_t id)
{
	if (rn->nlearned_agg == MAX_LEARNED)
		memmove(rn->learned_agg, rn->learned_agg + 1,
			--rn->nlearned_agg * sizeof(*rn->learned_agg));
	rn->learned_agg[rn->nlearned_agg++] = id;
}

/* An id found gone (ENOENT): deleted since, no more a target. */
static void forget_agg(struct run *rn, uint32_t id)
{
	int i;

	for (i = 0; i < rn->nlearned_agg; i++)
		if (rn->learned_agg[i] == id) {
			memmove(rn->learned_agg + i, rn->learned_agg + i + 1,
				(rn->nlearned_agg - i - 1) *
				sizeof(*rn->learned_agg));
			rn->nlearned_agg--;
			return;
		}
}

/* Is id in v[0..n)? Else add it, if there is room. */
static bool id_seen(uint64_t *v, int *n, uint64_t id, bool *overflow)
{
	int i;

	for (i = 0; i < *n; i++)
		if (v[i] == id)
			return true;
	if (*n < AGG_IDS)
		v[(*n)++] = id;
	else
		*overflow = true;
	return false;
}

/* AGG_READ's interval: its counters and the shape of its entries. */
static void check_agg_interval(struct answer *an, struct nlattr *nest)
{
	static const int len[RAWPROBE_AGG_I_MAX + 1] = {
		[RAWPROBE_AGG_I_START_NS] = 8, [RAWPROBE_AGG_I_END_NS] = 8,
		[RAWPROBE_AGG_I_HITS] = 8, [RAWPROBE_AGG_I_DROPPED] = 8,
		[RAWPROBE_AGG_I_KEY_WORDS] = 4, [RAWPROBE_AGG_I_VAL_WORDS] = 4,
		[RAWPROBE_AGG_I_STACK_WORD] = 4,
	};
	struct nlattr *tb[RAWPROBE_AGG_I_MAX + 1] = { 0 }, *s;
	struct agg_answer *g = &an->agg;
	int rem, t;

	if (g->interval || an->replies != 1)
		BAD(an, "AGG_INTERVAL in message %d of the dump", an->replies);
	g->interval = true;
	nla_for_each_nested(s, nest, rem) {
		t = nla_type(s);
		if (t < 1 || t > RAWPROBE_AGG_I_MAX || t == RAWPROBE_AGG_I_PAD) {
			BAD(an, "AGG_INTERVAL holds type %d", t);
			continue;
		}
		if (nla_len(s) != len[t])
			BAD(an, "AGG_INTERVAL type %d of %d bytes", t, nla_len(s));
		else
			tb[t] = s;
	}
	if (rem != 0)
		BAD(an, "AGG_INTERVAL has %d stray bytes", rem);
	for (t = RAWPROBE_AGG_I_START_NS; t <= RAWPROBE_AGG_I_VAL_WORDS; t++)
		if (!tb[t]) {
			BAD(an, "AGG_INTERVAL without type %d", t);
			return;
		}
	if (nla_get_u64(tb[RAWPROBE_AGG_I_END_NS]) <
	    nla_get_u64(tb[RAWPROBE_AGG_I_START_NS]))
		BAD(an, "AGG_INTERVAL ends before it starts");
	g->hits = nla_get_u64(tb[RAWPROBE_AGG_I_HITS]);
	g->dropped = nla_get_u64(tb[RAWPROBE_AGG_I_DROPPED]);
	g->key_words = nla_get_u32(tb[RAWPROBE_AGG_I_KEY_WORDS]);
	g->val_words = nla_get_u32(tb[RAWPROBE_AGG_I_VAL_WORDS]);
	g->stack_word = tb[RAWPROBE_AGG_I_STACK_WORD] ?
			(int)nla_get_u32(tb[RAWPROBE_AGG_I_STACK_WORD]) : -1;
	if (g->key_words > 2 * RAWPROBE_AGG_MAX_KEYS || g->val_words < 1 ||
	    g->val_words > 4 + RAWPROBE_AGG_LIN_BUCKETS_MAX ||
	    g->stack_word >= (int)g->key_words || g->dropped > g->hits)
		BAD(an, "AGG_INTERVAL: %u key words, %u value words, stack "
		    "word %d, %" PRIu64 " of %" PRIu64 " hits dropped",
		    g->key_words, g->val_words, g->stack_word, g->dropped,
		    g->hits);
}

/* AGG_ENTRIES: entries of the interval's size; AGG_STACKS after them. */
static void check_agg_items(struct answer *an, struct nlattr *nest, int t)
{
	struct agg_answer *g = &an->agg;
	uint32_t words = g->key_words + g->val_words;
	uint64_t w[1 + RAWPROBE_STACK_MAX];
	struct nlattr *s;
	int rem;

	if (!g->interval) {
		BAD(an, "AGG_READ attribute %d before the interval", t);
		return;
	}
	if (t == RAWPROBE_A_AGG_ENTRIES && g->stacks_begun)
		BAD(an, "AGG_ENTRIES after AGG_STACKS");
	g->stacks_begun |= t == RAWPROBE_A_AGG_STACKS;
	nla_for_each_nested(s, nest, rem) {
		if (t == RAWPROBE_A_AGG_ENTRIES) {
			if (nla_type(s) != RAWPROBE_A_AGG_ENTRY ||
			    nla_len(s) != (int)(words * 8)) {
				BAD(an, "AGG_ENTRIES holds type %d of %d bytes "
				    "(want %u)", nla_type(s), nla_len(s),
				    words * 8);
				continue;
			}
			g->entries++;
			memcpy(w, (char *)nla_data(s) + g->key_words * 8, 8);
			g->counted += w[0];
			if (g->stack_word < 0)
				continue;
			memcpy(w, (char *)nla_data(s) + g->stack_word * 8, 8);
			if (!w[0])
				BAD(an, "an entry names stack id 0");
			id_seen(g->named, &g->nnamed, w[0], &g->overflow);
			continue;
		}
		if (nla_type(s) != RAWPROBE_A_AGG_STACK || nla_len(s) % 8 ||
		    nla_len(s) < 8 || nla_len(s) > (int)sizeof(w)) {
			BAD(an, "AGG_STACKS holds type %d of %d bytes",
			    nla_type(s), nla_len(s));
			continue;
		}
		g->stacks++;
		memcpy(w, nla_data(s), 8);
		if (g->stack_word < 0 || !w[0])
			BAD(an, "AGG_STACK id %" PRIu64 " (stack word %d)",
			    w[0], g->stack_word);
		if (id_seen(g->sent, &g->nsent, w[0], &g->overflow))
			BAD(an, "AGG_STACK id %" PRIu64 " twice", w[0]);
	}
	if (rem != 0)
		BAD(an, "reply nest %d has %d stray bytes", t, rem);
}

/*
 * Calls through the fuzzer's targets (symbols[]), made at once when an
 * aggregating probe was added: whatever its keys (a stack, a caller), it
 * has hits for the reads to come, however the background load is timed.
 */
static void agg_exercise(void)
{
	char buf[64];
	int fd = open("/proc/version", O_RDONLY);

	if (fd >= 0) {
		if (read(fd, buf, sizeof(buf)) < 0)
			buf[0] = 0;
		close(fd);
	}
	getpid();
	getppid();
}

/* A whole AGG_READ: every hit accounted for, the stacks its entries name. */
static void check_agg_end(struct run *rn, struct answer *an)
{
	struct agg_answer *g = &an->agg;
	int i, k;

	if (!g->interval) {
		BAD(an, "AGG_READ without an interval");
		return;
	}
	if (g->hits != g->counted + g->dropped)
		BAD(an, "AGG_READ: %" PRIu64 " hits, but %" PRIu64 " counted in "
		    "%ld entries and %" PRIu64 " dropped", g->hits, g->counted,
		    g->entries, g->dropped);
	if (!g->overflow) {
		for (i = 0; i < g->nnamed; i++) {
			for (k = 0; k < g->nsent && g->sent[k] != g->named[i]; k++)
				;
			if (k == g->nsent)
				BAD(an, "AGG_READ: stack %" PRIu64 " named, not sent",
				    g->named[i]);
		}
		if (g->nsent != g->nnamed)
			BAD(an, "AGG_READ: %d stacks sent, %d named", g->nsent,
			    g->nnamed);
	}
	rn->st.agg_reads++;
	rn->st.agg_entries += g->entries;
	rn->st.agg_stacks += g->stacks;
	rn->st.agg_hits += g->hits;
	rn->st.agg_dropped += g->dropped;
}

/* A reply's attributes: lengths, known types, strings, nests. */
static void check_reply_attrs(struct run *rn, struct answer *an,
			      struct nlattr *head, int len, uint8_t cmd)
{
	struct nlattr *tb[RAWPROBE_A_MAX + 1] = { 0 };
	struct nlattr *a, *s;
	int rem, r2;

	nla_for_each_attr(a, head, len, rem) {
		int t = nla_type(a);

		if (t < 1 || t > RAWPROBE_A_MAX) {
			BAD(an, "reply attribute of unknown type %d", t);
			continue;
		}
		tb[t] = a;
		if (is_string_attr(t) &&
		    (nla_len(a) < 1 || memchr(nla_data(a), '\0', nla_len(a)) ==
		     NULL))
			BAD(an, "reply string attribute %d without NUL", t);
		if (t == RAWPROBE_A_STATS || t == RAWPROBE_A_BATCH) {
			nla_for_each_nested(s, a, r2)
				if (nla_type(s) < 1 || (t == RAWPROBE_A_STATS &&
				    nla_type(s) > RAWPROBE_STAT_MAX))
					BAD(an, "reply nest %d holds type %d",
					    t, nla_type(s));
			if (r2 != 0)
				BAD(an, "reply nest %d has %d stray bytes", t,
				    r2);
		}
		if (t == RAWPROBE_A_AGG_INTERVAL ||
		    t == RAWPROBE_A_AGG_ENTRIES ||
		    t == RAWPROBE_A_AGG_STACKS) {
			if (cmd != RAWPROBE_CMD_AGG_READ)
				BAD(an, "attribute %d in a reply to %u", t, cmd);
			else if (t == RAWPROBE_A_AGG_INTERVAL)
				check_agg_interval(an, a);
			else
				check_agg_items(an, a, t);
		}
	}
	if (rem != 0)
		BAD(an, "reply has %d stray bytes after its attributes", rem);
	switch (cmd) {
	case RAWPROBE_CMD_GET_INFO:
		if (!tb[RAWPROBE_A_ABI_VERSION] ||
		    nla_get_u32(tb[RAWPROBE_A_ABI_VERSION]) != RAWPROBE_ABI_VERSION)
			BAD(an, "GET_INFO answer without ABI version %d",
			    RAWPROBE_ABI_VERSION);
		break;
	case RAWPROBE_CMD_RING_GET:
	case RAWPROBE_CMD_RING_SET:
	case RAWPROBE_CMD_RING_NEW: {
		const char *why = fz_ring_answer_problem(cmd, tb, rn->o->cls);

		if (why) {
			BAD(an, "%s", why);
			break;
		}
		if (cmd != RAWPROBE_CMD_RING_NEW)
			break;
		fz_session_learn(&rn->sess, nla_get_u32(tb[RAWPROBE_A_SESSION]));
		rn->st.sess_new++;
		rn->st.sess_named += tb[RAWPROBE_A_SESSION_NAME] != NULL;
		break;
	}
	case RAWPROBE_CMD_PROBE_ADD:
	case RAWPROBE_CMD_PROBE_GET:
		if (!tb[RAWPROBE_A_PROBE_ID]) {
			BAD(an, "probe answer without PROBE_ID");
			break;
		}
		if (!tb[RAWPROBE_A_SESSION] ||
		    nla_len(tb[RAWPROBE_A_SESSION]) != 4) {
			BAD(an, "probe answer without a u32 SESSION");
			break;
		}
		if (cmd != RAWPROBE_CMD_PROBE_ADD)
			break;
		learn(rn->learned, &rn->nlearned, &rn->next_learned,
		      nla_get_u32(tb[RAWPROBE_A_PROBE_ID]));
		rn->st.sess_probes += nla_get_u32(tb[RAWPROBE_A_SESSION]) !=
				      RAWPROBE_SESSION_DEFAULT;
		if (!tb[RAWPROBE_A_FLAGS] ||
		    !(nla_get_u32(tb[RAWPROBE_A_FLAGS]) & RAWPROBE_F_AGG))
			break;
		learn_agg(rn, nla_get_u32(tb[RAWPROBE_A_PROBE_ID]));
		rn->st.agg_added++;
		agg_exercise();
		break;
	case RAWPROBE_CMD_AGG_READ:
		if (an->replies == 1 && !an->agg.interval)
			BAD(an, "AGG_READ's first message without its interval");
		break;
	case RAWPROBE_CMD_PROBE_ADD_BATCH:
		if (!tb[RAWPROBE_A_BATCH]) {
			BAD(an, "batch answer without BATCH");
			break;
		}
		nla_for_each_nested(s, tb[RAWPROBE_A_BATCH], r2)
			if (nla_type(s) == RAWPROBE_A_PROBE_ID &&
			    nla_len(s) == 4)
				learn(rn->learned, &rn->nlearned,
				      &rn->next_learned, nla_get_u32(s));
		break;
	default:
		break;
	}
}

/* The TLVs of an extended ack: parse, take the reason, check offsets. */
static void check_extack(struct answer *an, struct nlmsghdr *nlh,
			 const struct wire *w)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len < 0) {
		BAD(an, "extended ack runs past its message");
		return;
	}
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((char *)e + off),
		      len, NULL) < 0) {
		BAD(an, "extended ack TLVs do not parse");
		return;
	}
	if (tb[NLMSGERR_ATTR_MSG]) {
		struct nlattr *m = tb[NLMSGERR_ATTR_MSG];

		if (nla_len(m) < 1 || !memchr(nla_data(m), '\0', nla_len(m)))
			BAD(an, "extended ack message without NUL");
		else
			snprintf(an->reason, sizeof(an->reason), "%s",
				 (char *)nla_data(m));
	}
	if (tb[NLMSGERR_ATTR_OFFS] &&
	    (nla_len(tb[NLMSGERR_ATTR_OFFS]) != 4 ||
	     nla_get_u32(tb[NLMSGERR_ATTR_OFFS]) >= w->len))
		BAD(an, "extended ack offset past the request");
}

/* One datagram: every message in it. */
static void check_datagram(struct run *rn, struct answer *an,
			   unsigned char *buf, int n, uint32_t seq,
			   const struct wire *w, const struct expect *ex)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	int rem = n;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (an->error_seen || an->done_seen)
			BAD(an, "message of type %u after the end", nlh->nlmsg_type);
		if (nlh->nlmsg_seq != seq)
			BAD(an, "answer for sequence %u, not %u",
			    nlh->nlmsg_seq, seq);
		if (nlh->nlmsg_pid != rn->port)
			BAD(an, "answer for port %u, not %u", nlh->nlmsg_pid,
			    rn->port);
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = nlmsg_data(nlh);

			if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
				BAD(an, "NLMSG_ERROR of %u bytes", nlh->nlmsg_len);
				an->error_seen = true;
				continue;
			}
			an->error_seen = true;
			an->error = e->error;
			if (e->error > 0 || e->error < -4095)
				BAD(an, "NLMSG_ERROR with error %d", e->error);
			if (e->msg.nlmsg_seq != seq)
				BAD(an, "NLMSG_ERROR quotes sequence %u",
				    e->msg.nlmsg_seq);
			check_extack(an, nlh, w);
		} else if (nlh->nlmsg_type == NLMSG_DONE) {
			an->done_seen = true;
			if (nlmsg_datalen(nlh) < (int)sizeof(int)) {
				BAD(an, "NLMSG_DONE without its error");
				continue;
			}
			memcpy(&an->done_error, nlmsg_data(nlh), sizeof(int));
			if (an->done_error > 0 || an->done_error < -4095)
				BAD(an, "NLMSG_DONE with error %d", an->done_error);
			if (!(nlh->nlmsg_flags & NLM_F_MULTI))
				BAD(an, "NLMSG_DONE without NLM_F_MULTI");
		} else if (nlh->nlmsg_type == rn->nl.family) {
			struct genlmsghdr *g = nlmsg_data(nlh);
			/* dumps too: PROBE_GET's, RING_GET's, AGG_READ's */
			uint8_t want = ex->cmd;

			an->replies++;
			if (!genlmsg_valid_hdr(nlh, 0)) {
				BAD(an, "reply with a short genl header");
				continue;
			}
			if (g->cmd != want || g->version != RAWPROBE_GENL_VERSION)
				BAD(an, "reply cmd %u version %u to cmd %u",
				    g->cmd, g->version, want);
			if (!!(nlh->nlmsg_flags & NLM_F_MULTI) != ex->dump)
				BAD(an, "reply %s NLM_F_MULTI", ex->dump ?
				    "without" : "with");
			check_reply_attrs(rn, an, genlmsg_attrdata(g, 0),
					  genlmsg_attrlen(g, 0), g->cmd);
		} else {
			BAD(an, "answer of type %u", nlh->nlmsg_type);
		}
	}
	if (rem != 0)
		BAD(an, "%d stray bytes after the last message", rem);
}

/* Is the answer complete (nothing more may come)? */
static bool complete(const struct expect *ex, const struct answer *an)
{
	if (!ex->answer)
		return true;
	if (an->error_seen || an->done_seen)
		return true;
	/* a doit's success without NLM_F_ACK ends with its reply */
	return !ex->dump && !ex->ack && !ex->ack_only && an->replies > 0;
}

static int exchange(struct run *rn, struct wire *w, uint32_t seq,
		    const struct expect *ex, struct answer *an)
{
	int fd = nl_socket_get_fd(rn->nl.sk);
	struct sockaddr_nl peer;
	unsigned char *buf;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n, pr;

	memset(an, 0, sizeof(*an));
	errno = 0;
	if (w->len)
		n = nl_sendto(rn->nl.sk, w->buf, w->len);
	else
		n = send(fd, w->buf, 0, 0);
	/* netlink refuses an empty datagram at the send: a clean answer */
	if (n < 0 && !w->len && errno == ENODATA)
		return 0;
	if (n < 0) {
		BAD(an, "send refused: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		bool done = complete(ex, an);

		pr = poll(&p, 1, done ? 0 : WAIT_MS);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0) {
			if (!done)
				BAD(an, "no %s within %d ms (%d replies so far)",
				    an->replies ? "end" : "answer", WAIT_MS,
				    an->replies);
			else if (ex->dump && ex->cmd == RAWPROBE_CMD_AGG_READ &&
				 an->done_seen && !an->done_error)
				check_agg_end(rn, an);
			return 0;
		}
		buf = NULL;
		errno = 0;
		n = nl_recv(rn->nl.sk, &peer, &buf, NULL);
		if (n <= 0) {
			free(buf);
			BAD(an, "receive failed: %s (%s)", nl_geterror(n),
			    strerror(errno));
			return -1;
		}
		check_datagram(rn, an, buf, n, seq, w, ex);
		free(buf);
	}
}

static bool errno_expected(enum fclass cls, int err)
{
	switch (-err) {
	case EPERM: case EINVAL: case ERANGE: case EOPNOTSUPP:
		return true;
	case ENOENT: case EEXIST: case EBUSY: case EILSEQ: case ENOSPC:
	case E2BIG: case ENXIO: case EMSGSIZE: case ENAMETOOLONG:
	case EACCES:	/* AGG_READ of another socket's probe */
		return cls == C_ROOT;
	default:
		return false;
	}
}

/*
 * Reasons the module itself gives (kmod/, probes/), all after its
 * privilege check: one of them for an unprivileged caller means a
 * request was judged before the caller was. What the netlink core
 * refuses before the module runs (policy validation, unknown command,
 * DUMP on a doit-only command, short or reserved genl header: EINVAL,
 * ERANGE, EOPNOTSUPP) comes with the core's own reasons, or none.
 */
static const char *const module_reasons[] = {
	"the probe kind is missing", "a probe id is required",
	"one argument type per argument", "the batch of probes is missing",
	"a batch holds", "ring size must be", "a symbol or an address",
	"give a symbol or an address", "a module needs a symbol",
	"maxactive applies", "the comm filter is empty", "no such CPU",
	"unknown argument type", "unknown probe kind", "return probes attach",
	"arguments are only defined", "arguments need a function entry",
	"jprobe-style probes attach",
	"only one string argument", "cannot probe here", "no probe with",
	"an identical probe", "too many probes", "unknown symbol",
	"symbol not found", "offset is not on", "give one of",
	"probe ids: an array", "the same probe id appears twice",
	"argument names:", "aggregation attributes without",
	"an aggregating probe writes no record", "the caller and stack keys",
	"the retval key is", "an argument key names", "unknown aggregation key",
	"retval and latency are", "the value names an argument",
	"a histogram needs", "a linear histogram needs",
	"one argument index per key", "the probe id is missing",
	"the probe does not aggregate", "the probe's tables belong",
	"kretprobe instances and aggregation", "not enough memory for the agg",
	/* sessions */
	"name a session by id or by name", "no such session",
	"a new session gets its id", "a session name is not empty",
	"which session?", "the default session stays",
	"a command's session ends", "a session of that name exists",
	"too many sessions", "the session has ended",
	"probes write into", "a reader has the rings mapped",
	"the rings would take more", "not enough memory for the rings",
	"set the clock", "could not allocate the record rings",
};

static bool module_reason(const char *reason)
{
	size_t i;

	for (i = 0; i < sizeof(module_reasons) / sizeof(module_reasons[0]); i++)
		if (!strncmp(reason, module_reasons[i],
			     strlen(module_reasons[i])))
			return true;
	return false;
}

/* The answer against what was sent; false and a reason if it is wrong. */
static bool judge(struct run *rn, const struct expect *ex,
		  const struct answer *an, char *why, size_t whylen)
{
	int err = an->error_seen ? an->error : an->done_error;
	bool got = an->error_seen || an->done_seen || an->replies;

	if (an->bad[0]) {
		snprintf(why, whylen, "%s", an->bad);
		return false;
	}
	if (!ex->answer) {
		if (got)
			snprintf(why, whylen,
				 "an answer to a message the kernel must drop");
		return !got;
	}
	if (ex->ack_only) {
		if (an->replies || !an->error_seen || an->error)
			snprintf(why, whylen, "want a bare ack, got %d replies, "
				 "error %d", an->replies, an->error);
		return !an->replies && an->error_seen && !an->error;
	}
	if (err && !errno_expected(rn->o->cls, err)) {
		snprintf(why, whylen, "unexpected errno %s (%d) '%s'",
			 strerrorname_np(-err) ?: "?", err, an->reason);
		return false;
	}
	if (an->error_seen && an->error) {
		if (an->replies && !ex->dump) {
			snprintf(why, whylen, "%d replies before error %d",
				 an->replies, an->error);
			return false;
		}
	} else if (ex->dump) {
		if (!an->done_seen && !(an->error_seen && !an->replies)) {
			snprintf(why, whylen, "dump without NLMSG_DONE");
			return false;
		}
	} else {
		/* a doit's success: exactly one answer, and the ack if asked */
		if (an->replies != 1 || an->error_seen != ex->ack) {
			snprintf(why, whylen, "success with %d replies and %s ack"
				 " (NLM_F_ACK %s)", an->replies,
				 an->error_seen ? "an" : "no",
				 ex->ack ? "set" : "clear");
			return false;
		}
	}
	if (rn->o->cls != C_ROOT && ex->privileged && err && err != -EPERM &&
	    module_reason(an->reason)) {
		snprintf(why, whylen, "command %u judged before the privilege "
			 "check: %s '%s'", ex->cmd, strerrorname_np(-err) ?: "?",
			 an->reason);
		return false;
	}
	if (rn->o->cls != C_ROOT && ex->privileged && !err) {
		snprintf(why, whylen,
			 "an unprivileged caller succeeded with command %u",
			 ex->cmd);
		rn->changed = true;
		return false;
	}
	return true;
}

static void print_hex(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%s%02x", i % 32 ? "" : (i ? "\n#   " : "#   "), p[i]);
	printf("\n");
}

static void print_repro(const struct opts *o, long index)
{
	char ids[(MAX_LEARNED + FZ_MAX_SESSIONS) * 11 + 40] = "";
	int i;

	for (i = 0; i < o->nids; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%u",
			 i ? "," : " --ids ", o->ids[i]);
	for (i = 0; i < o->nsessions; i++)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids), "%s%u",
			 i ? "," : " --sessions ", o->sessions[i]);
	if (o->epoch != EPOCH_DEFAULT)
		snprintf(ids + strlen(ids), sizeof(ids) - strlen(ids),
			 " --epoch %ld", o->epoch);
	printf("# repro: %s%s --seed %" PRIu64 " --count %ld --class %s%s%s\n",
	       o->cls == C_USERNS ? "unshare -Ur " : "", o->argv0, o->seed,
	       o->first + o->count, class_name[o->cls],
	       o->allow_changes ? " --allow-changes" : "", ids);
	printf("# message %ld alone: %s%s --seed %" PRIu64
	       " --first %ld --count 1 --class %s%s%s --verbose\n", index,
	       o->cls == C_USERNS ? "unshare -Ur " : "", o->argv0, o->seed,
	       index, class_name[o->cls],
	       o->allow_changes ? " --allow-changes" : "", ids);
}

static void record(struct run *rn, const struct fmsg *m, const struct expect *ex,
		   const struct answer *an)
{
	struct stats *st = &rn->st;
	int err = an->error_seen ? an->error : an->done_error;

	st->sent++;
	st->t_sent[m->tmpl]++;
	if (!ex->answer || ex->ack_only) {
		st->none++;
		st->t_none[m->tmpl]++;
	} else if (err) {
		st->errors++;
		st->t_err[m->tmpl]++;
		st->hist[-err < 4096 ? -err : 0]++;
		if (rn->o->cls != C_ROOT && ex->privileged && err != -EPERM) {
			char text[72];
			int k;

			st->preparse[-err < 4096 ? -err : 0]++;
			snprintf(text, sizeof(text), "%s %.60s",
				 strerrorname_np(-err) ?: "?",
				 an->reason[0] ? an->reason : "(no reason)");
			for (k = 0; k < st->nwhy; k++)
				if (!strcmp(st->why[k].text, text))
					break;
			if (k == st->nwhy && k < (int)(sizeof(st->why) /
						       sizeof(st->why[0])))
				strcpy(st->why[st->nwhy++].text, text);
			if (k < st->nwhy)
				st->why[k].n++;
		}
	} else {
		st->ok++;
		st->t_ok[m->tmpl]++;
		st->hist[0]++;
	}
}

static int open_fuzz_socket(struct run *rn);

/* Substitute learned ids for the generated ones marked so. */
static uint32_t patch_learned(struct run *rn, struct wire *w, int k)
{
	uint32_t id;
	int newest;

	if (w->patch[k].which == L_SESSION) {
		id = fz_session_pick(&rn->sess, w->patch[k].k);
	} else {
		id = rn->learned[w->patch[k].k % rn->nlearned];
		/*
		 * an aggregating probe: the newest or the one before (a
		 * delete of all probes, now and then, ends older ones)
		 */
		if (w->patch[k].which == L_AGG && rn->nlearned_agg) {
			newest = rn->nlearned_agg - 1;
			newest -= w->patch[k].k % 4 == 0 && newest > 0;
			id = rn->learned_agg[newest];
		}
	}
	if (w->patch[k].off + 4 <= w->len)
		memcpy(w->buf + w->patch[k].off, &id, 4);
	return id;
}

/*
 * A new socket every --epoch messages (by index, whatever --first): the
 * old one's probes and unnamed sessions go with it (the module's reaper,
 * while the run goes on), and the unnamed sessions' rings do not pile up.
 */
static bool next_epoch(struct run *rn)
{
	rp_nl_close(&rn->nl);
	if (open_fuzz_socket(rn)) {
		printf("# FAIL: a new socket after %ld messages\n", rn->st.sent);
		rn->st.failures++;
		return false;
	}
	return true;
}

/* The fuzzing loop; true if every message was answered as it must be. */
static bool fuzz(struct run *rn)
{
	struct opts *o = rn->o;
	struct wire *w = malloc(sizeof(*w));
	struct fmsg m;
	struct expect ex;
	struct answer an;
	char why[240];
	long i;

	if (!w)
		return false;
	for (i = o->first; i < o->first + o->count; i++) {
		uint32_t seq = (uint32_t)i + 1, agg_id = 0, id;
		int k;

		if (o->epoch && i > o->first && i % o->epoch == 0 &&
		    !next_epoch(rn))
			break;
		generate(o->seed, i, &m, w);
		if (w->len >= NLMSG_HDRLEN) {
			struct nlmsghdr *h = (struct nlmsghdr *)w->buf;

			h->nlmsg_seq = seq;
			if (m.family)
				h->nlmsg_type = rn->nl.family;
		} else if (w->len >= 8) {
			memcpy(w->buf + 4, &(uint16_t){ m.family ?
			       rn->nl.family : m.nltype }, 2);
		}
		for (k = 0; k < w->npatch; k++) {
			if (w->patch[k].which == L_SESSION ? !rn->sess.n :
			    !rn->nlearned)
				continue;	/* none yet: the generated value */
			id = patch_learned(rn, w, k);
			if (w->patch[k].which == L_AGG && rn->nlearned_agg)
				agg_id = id;
		}
		expectation(w, &ex);
		exchange(rn, w, seq, &ex, &an);
		if (agg_id && an.error_seen && an.error == -ENOENT)
			forget_agg(rn, agg_id);
		if (ex.cmd == RAWPROBE_CMD_RING_DEL && ex.answer &&
		    !ex.ack_only && an.error_seen && !an.error)
			rn->st.sess_del++;
		record(rn, &m, &ex, &an);
		why[0] = '\0';
		if (o->verbose) {
			printf("# %ld %s [%s] %zu bytes: ", i, tmpl_name[m.tmpl],
			       m.muts, w->len);
			if (an.error_seen)
				printf("error %s '%s'",
				       an.error ? strerrorname_np(-an.error) : "0",
				       an.reason);
			if (an.done_seen)
				printf(" done %d", an.done_error);
			printf(" replies %d\n", an.replies);
			print_hex(w->buf, w->len);
		}
		if (!judge(rn, &ex, &an, why, sizeof(why))) {
			rn->st.failures++;
			if (rn->reports++ < MAX_REPORTS) {
				printf("# FAIL message %ld (%s; %s; %zu bytes): %s\n",
				       i, tmpl_name[m.tmpl], m.muts, w->len, why);
				if (rn->reports == 1)
					print_repro(o, i);
			}
		}
	}
	free(w);
	return rn->st.failures == 0;
}

static void print_stats(const struct run *rn, double secs)
{
	const struct stats *st = &rn->st;
	int e, t;

	printf("# outcome: %ld valid answers, %ld errors, %ld without answer "
	       "(none due), %ld learned ids\n", st->ok, st->errors, st->none,
	       (long)rn->nlearned);
	printf("# aggregation: %ld aggregating probes added, %ld AGG_READ dumps "
	       "read %ld entries, %ld stacks, %ld hits (%ld dropped)\n",
	       st->agg_added, st->agg_reads, st->agg_entries, st->agg_stacks,
	       st->agg_hits, st->agg_dropped);
	printf("# sessions: %ld made (%ld named), %ld deleted, %ld probes "
	       "added into them, %ld sockets\n", st->sess_new, st->sess_named,
	       st->sess_del, st->sess_probes, st->sockets);
	printf("# errno histogram:");
	for (e = 0; e < 4096; e++)
		if (st->hist[e])
			printf(" %s=%ld", e ? strerrorname_np(e) ?: "?" : "OK",
			       st->hist[e]);
	printf("\n");
	for (t = 0; t < T_NR; t++)
		printf("# %-16s sent %5ld  ok %5ld  error %5ld  none %5ld\n",
		       tmpl_name[t], st->t_sent[t], st->t_ok[t], st->t_err[t],
		       st->t_none[t]);
	if (rn->o->cls != C_ROOT) {
		printf("# privileged commands refused before the privilege "
		       "check (netlink core's parsing):");
		for (e = 1; e < 4096; e++)
			if (st->preparse[e])
				printf(" %s=%ld", strerrorname_np(e) ?: "?",
				       st->preparse[e]);
		printf("\n");
		for (e = 0; e < st->nwhy; e++)
			printf("#   %6ld %s\n", st->why[e].n, st->why[e].text);
	}
	printf("# %.0f messages per second (%.1f s)\n",
	       secs > 0 ? st->sent / secs : 0.0, secs);
}

/* --- state snapshots, through rawprobectl's own netlink calls --- */

struct pstate {
	uint32_t id;
	uint8_t kind, state;
	uint32_t flags;
	uint64_t hits;
	char target[80];
	bool module_owned;
};

struct snapshot {
	int n;
	struct pstate p[1024];
	uint32_t records, mode, nr_probes;
	int nsess;
	struct ts_session sess[64];	/* the first sessions listed */
	bool ok;
};

static int snap_probe(struct nlattr **a, void *ctx)
{
	struct snapshot *s = ctx;
	struct pstate *p;
	struct nlattr *st[RAWPROBE_STAT_MAX + 1];

	if (s->n >= (int)(sizeof(s->p) / sizeof(s->p[0])) ||
	    !a[RAWPROBE_A_PROBE_ID])
		return 0;
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->id = nla_get_u32(a[RAWPROBE_A_PROBE_ID]);
	if (a[RAWPROBE_A_KIND])
		p->kind = nla_get_u8(a[RAWPROBE_A_KIND]);
	if (a[RAWPROBE_A_STATE])
		p->state = nla_get_u8(a[RAWPROBE_A_STATE]);
	if (a[RAWPROBE_A_FLAGS])
		p->flags = nla_get_u32(a[RAWPROBE_A_FLAGS]);
	if (a[RAWPROBE_A_SYMBOL])
		snprintf(p->target, sizeof(p->target), "%s",
			 nla_get_string(a[RAWPROBE_A_SYMBOL]));
	p->module_owned = a[RAWPROBE_A_OWNER_MODULE] != NULL;
	if (a[RAWPROBE_A_STATS] &&
	    !nla_parse_nested(st, RAWPROBE_STAT_MAX, a[RAWPROBE_A_STATS], NULL) &&
	    st[RAWPROBE_STAT_HITS])
		p->hits = nla_get_u64(st[RAWPROBE_STAT_HITS]);
	return 0;
}

static int snap_ring(struct nlattr **a, void *ctx)
{
	struct snapshot *s = ctx;

	if (a[RAWPROBE_A_RING_RECORDS])
		s->records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (a[RAWPROBE_A_RING_MODE])
		s->mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	if (a[RAWPROBE_A_NR_PROBES])
		s->nr_probes = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	return 0;
}

static void snapshot(struct rp_nl *nl, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->ok = !rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP),
			    snap_probe, s) &&
		!rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_GET_INFO, 0),
			    snap_ring, s) &&
		!ts_session_list(nl, s->sess, 64, &s->nsess);
}

/* Unchanged: the same probes in the same states, no counter went back. */
static bool same_state(const struct snapshot *a, const struct snapshot *b,
		       char *why, size_t len)
{
	int i;

	if (!a->ok || !b->ok) {
		snprintf(why, len, "a snapshot failed");
		return false;
	}
	if (a->records != b->records || a->mode != b->mode) {
		snprintf(why, len, "rings %u/%u became %u/%u", a->records,
			 a->mode, b->records, b->mode);
		return false;
	}
	if (a->n != b->n) {
		snprintf(why, len, "%d probes became %d", a->n, b->n);
		return false;
	}
	if (a->nsess != b->nsess) {
		snprintf(why, len, "%d sessions became %d", a->nsess, b->nsess);
		return false;
	}
	for (i = 0; i < a->nsess; i++) {
		const struct ts_session *p = &a->sess[i], *q = &b->sess[i];

		if (p->id != q->id || strcmp(p->name, q->name) ||
		    p->records != q->records || p->mode != q->mode ||
		    p->uid != q->uid || p->nr_probes != q->nr_probes ||
		    p->bytes != q->bytes) {
			snprintf(why, len, "session %u '%s' changed: %u records "
				 "mode %u uid %u %u probes %" PRIu64 " bytes -> "
				 "%u '%s' %u mode %u uid %u %u probes %" PRIu64,
				 p->id, p->name, p->records, p->mode, p->uid,
				 p->nr_probes, p->bytes, q->id, q->name,
				 q->records, q->mode, q->uid, q->nr_probes,
				 q->bytes);
			return false;
		}
	}
	for (i = 0; i < a->n; i++) {
		const struct pstate *p = &a->p[i], *q = &b->p[i];

		if (p->id != q->id || p->kind != q->kind ||
		    p->state != q->state || p->flags != q->flags ||
		    strcmp(p->target, q->target) || q->hits < p->hits) {
			snprintf(why, len, "probe %u (%s) changed: state %u->%u, "
				 "flags %#x->%#x, hits %" PRIu64 "->%" PRIu64,
				 p->id, p->target, p->state, q->state, p->flags,
				 q->flags, p->hits, q->hits);
			return false;
		}
	}
	return true;
}

static void verdict(const struct opts *o, const char *name, bool ok,
		    const char *detail)
{
	char area[32];

	snprintf(area, sizeof(area), "fuzz %s", class_name[o->cls]);
	tap_verdict(area, name, ok, detail);
}

static int open_fuzz_socket(struct run *rn)
{
	int err = rp_nl_open(&rn->nl);

	if (err)
		return err;
	nl_socket_enable_msg_peek(rn->nl.sk);
	/* room to send the largest messages (batches past the maximum) */
	nl_socket_set_buffer_size(rn->nl.sk, 0, MSG_MAX + 4096);
	rn->port = nl_socket_get_local_port(rn->nl.sk);
	rn->st.sockets++;
	return 0;
}

static void run_and_report(struct run *rn)
{
	struct timespec t0, t1;
	char detail[120];
	bool ok;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ok = fuzz(rn);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_stats(rn, (t1.tv_sec - t0.tv_sec) +
		    (t1.tv_nsec - t0.tv_nsec) / 1e9);
	snprintf(detail, sizeof(detail), "%ld of %ld messages failed",
		 rn->st.failures, rn->st.sent);
	verdict(rn->o, "every message answered cleanly, none hung", ok, detail);
	if (rn->o->cls != C_ROOT)
		verdict(rn->o, "no command on probes or rings succeeded",
			!rn->changed, "see the FAIL lines");
}

/* uid_map of the initial namespace: "0 0 4294967295". */
static bool initial_userns(void)
{
	FILE *f = fopen("/proc/self/uid_map", "r");
	unsigned long a = 1, b = 1, c = 0;
	int n;

	if (!f)		/* no CONFIG_USER_NS: the initial one is all there is */
		return errno == ENOENT;
	n = fscanf(f, "%lu %lu %lu", &a, &b, &c);
	fclose(f);
	return n == 3 && a == 0 && b == 0 && c == 4294967295UL;
}

static int class_root(struct run *rn)
{
	struct opts *o = rn->o;
	struct snapshot *before = calloc(1, sizeof(*before));
	struct snapshot *after = calloc(1, sizeof(*after));
	struct rp_nl chk;
	struct nl_msg *msg;
	char detail[200];
	int n = 0, i, deleted, left;
	bool only_default;

	if (!before || !after || rp_nl_open(&chk)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	snapshot(&chk, before);
	if (!before->ok) {
		fprintf(stderr, "nl_fuzz: cannot list probes as root\n");
		return 2;
	}
	if (open_fuzz_socket(rn))
		return 2;
	run_and_report(rn);
	rp_nl_close(&rn->nl);	/* its own probes and sessions go with it */

	/* Clean up: every probe, the named sessions, the rings as they were. */
	msg = rp_nl_msg(&chk, RAWPROBE_CMD_PROBE_DEL, 0);
	nla_put_u32(msg, RAWPROBE_A_FLAGS, RAWPROBE_F_ALL);
	i = rp_nl_call(&chk, msg, NULL, NULL);
	snprintf(detail, sizeof(detail), "%s", strerror(-i));
	verdict(o, "delete every probe afterwards", !i, detail);
	msg = rp_nl_msg(&chk, RAWPROBE_CMD_RING_SET, 0);
	nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, before->records);
	nla_put_u32(msg, RAWPROBE_A_RING_MODE, before->mode);
	i = rp_nl_call(&chk, msg, NULL, NULL);
	snapshot(&chk, after);
	snprintf(detail, sizeof(detail), "%s; %u/%u, was %u/%u", strerror(-i),
		 after->records, after->mode, before->records, before->mode);
	verdict(o, "ring geometry restored", !i && after->ok &&
		after->records == before->records &&
		after->mode == before->mode, detail);
	/* (no probe writes into them now: RING_DEL takes each) */
	i = ts_session_del_named(&chk, &deleted);
	snprintf(detail, sizeof(detail), "%s (%d deleted)", strerror(-i),
		 deleted);
	verdict(o, "delete every named session afterwards", !i, detail);
	/*
	 * The closed socket's sessions go in the module's reaper (a work
	 * item): the listing comes down to the default session within
	 * seconds, not at once.
	 */
	only_default = ts_session_wait_default(&chk, 5000, &left);
	snprintf(detail, sizeof(detail), "%d sessions besides the default "
		 "one after 5 s", left);
	verdict(o, "only the default session left (the sockets' went with "
		"them)", only_default, detail);
	snapshot(&chk, after);
	for (i = 0; i < after->n; i++)
		n += !after->p[i].module_owned;
	snprintf(detail, sizeof(detail), "%d probes left (%u counted)", n,
		 after->nr_probes);
	verdict(o, "the module answers GET_INFO, no probe left",
		after->ok && n == 0 && after->nr_probes == (uint32_t)after->n,
		detail);
	rp_nl_close(&chk);
	free(before);
	free(after);
	return tap_summary();
}

static void drop_privileges(void)
{
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		perror("nl_fuzz: dropping privileges");
		_exit(2);
	}
	if (setuid(0) == 0) {
		fprintf(stderr, "nl_fuzz: could regain root\n");
		_exit(2);
	}
}

static int class_user(struct run *rn)
{
	struct opts *o = rn->o;
	struct snapshot *before = calloc(1, sizeof(*before));
	struct snapshot *now = calloc(1, sizeof(*now));
	struct rp_nl chk;
	char detail[240] = "";
	int pfd[2], status, checks = 0, i;
	bool same = true;
	pid_t pid;

	if (!before || !now || rp_nl_open(&chk)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	snapshot(&chk, before);
	if (!before->ok) {
		fprintf(stderr, "nl_fuzz: --class user starts as root\n");
		return 2;
	}
	printf("# %d probes before, rings %u records mode %u\n", before->n,
	       before->records, before->mode);
	for (i = 0; i < before->n && rn->nlearned < MAX_LEARNED; i++) {
		rn->learned[rn->nlearned++] = before->p[i].id;
		if (before->p[i].flags & RAWPROBE_F_AGG)
			learn_agg(rn, before->p[i].id);
	}
	if (pipe(pfd))
		return 2;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		int counts[2];

		close(pfd[0]);
		rp_nl_close(&chk);
		drop_privileges();
		if (open_fuzz_socket(rn))
			_exit(2);
		run_and_report(rn);
		counts[0] = tap_passed;
		counts[1] = tap_failed;
		fflush(stdout);
		if (write(pfd[1], counts, sizeof(counts)) != sizeof(counts))
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	for (;;) {
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };
		int counts[2];

		if (poll(&p, 1, 1000) == 0) {
			snapshot(&chk, now);
			checks++;
			if (same && !same_state(before, now, detail,
						sizeof(detail)))
				same = false;
			continue;
		}
		if (read(pfd[0], counts, sizeof(counts)) == sizeof(counts)) {
			tap_passed += counts[0];
			tap_failed += counts[1];
		} else {
			tap_failed++;
			printf("not ok - fuzz user: the unprivileged child "
			       "reported nothing\n");
		}
		break;
	}
	waitpid(pid, &status, 0);
	snapshot(&chk, now);
	checks++;
	if (same && !same_state(before, now, detail, sizeof(detail)))
		same = false;
	if (same)
		snprintf(detail, sizeof(detail), "%d checks", checks);
	printf("# %d checks of the probe list and rings from a root socket\n",
	       checks);
	verdict(o, "probe list and rings unchanged (checked as root)", same,
		detail);
	rp_nl_close(&chk);
	free(before);
	free(now);
	return tap_summary();
}

static int class_userns(struct run *rn)
{
	if (initial_userns()) {
		fprintf(stderr, "nl_fuzz: --class userns runs under "
			"`unshare -Ur`, in a new user namespace\n");
		return 2;
	}
	if (open_fuzz_socket(rn)) {
		fprintf(stderr, "nl_fuzz: rawprobe module not loaded\n");
		return 2;
	}
	run_and_report(rn);
	rp_nl_close(&rn->nl);
	return tap_summary();
}

static int dry_run(const struct opts *o)
{
	struct wire *w = malloc(sizeof(*w));
	uint64_t digest = 0xcbf29ce484222325ULL;
	long i, t[T_NR] = { 0 };
	struct fmsg m;
	int k;

	if (!w)
		return 2;
	for (i = o->first; i < o->first + o->count; i++) {
		uint64_t h;

		generate(o->seed, i, &m, w);
		h = fnv1a(0xcbf29ce484222325ULL, w->buf, w->len);
		digest = fnv1a(digest, &h, sizeof(h));
		t[m.tmpl]++;
		if (o->verbose) {
			printf("%ld %016" PRIx64 " %zu %s [%s]\n", i, h, w->len,
			       tmpl_name[m.tmpl], m.muts);
			print_hex(w->buf, w->len);
		}
	}
	printf("# templates:");
	for (k = 0; k < T_NR; k++)
		printf(" %s=%ld", tmpl_name[k], t[k]);
	printf("\n# digest %016" PRIx64 "\n", digest);
	free(w);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: nl_fuzz --seed S --count N [--class root|user|userns]\n"
		"               [--allow-changes] [--first I] [--ids ID,...]\n"
		"               [--sessions ID,...] [--epoch N]\n"
		"               [--dry-run] [--verbose] [--plain]\n"
		"  --class root    root of the initial namespace (the default);\n"
		"                  changes probes and rings: needs --allow-changes\n"
		"  --class user    start as root: drops to uid 65534 to fuzz, checks\n"
		"                  from a root socket that nothing changed\n"
		"  --class userns  run under `unshare -Ur`\n"
		"  --first I       start at message I (replay one: --count 1)\n"
		"  --ids LIST      probe ids the PROBE_ID attributes may target\n"
		"  --sessions LIST session ids the SESSION attributes may target\n"
		"  --epoch N       a new socket every N messages (default 1000;\n"
		"                  0: one socket for the run)\n"
		"  --dry-run       generate only; print the messages' digest\n"
		"  --verbose       print every message and its answer\n"
		"  --plain         send the templates unmutated (a debugging aid)\n");
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "count", required_argument, NULL, 'n' },
		{ "class", required_argument, NULL, 'c' },
		{ "allow-changes", no_argument, NULL, 'a' },
		{ "first", required_argument, NULL, 'f' },
		{ "ids", required_argument, NULL, 'i' },
		{ "sessions", required_argument, NULL, 'S' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "dry-run", no_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "plain", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct opts o = { .cls = C_ROOT, .count = -1, .argv0 = argv[0],
			  .epoch = EPOCH_DEFAULT };
	bool have_seed = false;
	struct run *rn;
	char *end, *tok;
	int c;

	while ((c = getopt_long(argc, argv, "s:n:c:af:i:S:e:dvph", lo, NULL)) != -1) {
		switch (c) {
		case 's':
			o.seed = strtoull(optarg, &end, 0);
			have_seed = !*end;
			break;
		case 'n':
			o.count = strtol(optarg, &end, 0);
			if (*end || o.count < 0)
				o.count = -1;
			break;
		case 'c':
			for (o.cls = 0; o.cls <= C_USERNS; o.cls++)
				if (!strcmp(optarg, class_name[o.cls]))
					break;
			if (o.cls > C_USERNS) {
				usage(stderr);
				return 2;
			}
			break;
		case 'a':
			o.allow_changes = true;
			break;
		case 'f':
			o.first = strtol(optarg, &end, 0);
			if (*end || o.first < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'i':
			for (tok = strtok(optarg, ","); tok && o.nids < MAX_LEARNED;
			     tok = strtok(NULL, ","))
				o.ids[o.nids++] = strtoul(tok, NULL, 0);
			break;
		case 'S':
			for (tok = strtok(optarg, ","); tok &&
			     o.nsessions < FZ_MAX_SESSIONS; tok = strtok(NULL, ","))
				o.sessions[o.nsessions++] = strtoul(tok, NULL, 0);
			break;
		case 'e':
			o.epoch = strtol(optarg, &end, 0);
			if (*end || o.epoch < 0) {
				usage(stderr);
				return 2;
			}
			break;
		case 'd':
			o.dry_run = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'p':
			plain = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!have_seed || o.count < 0 || optind != argc) {
		usage(stderr);
		return 2;
	}
	arena = malloc(ARENA_SIZE);
	rn = calloc(1, sizeof(*rn));
	if (!arena || !rn)
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("# seed %" PRIu64 ", %ld messages, class %s%s\n", o.seed, o.count,
	       class_name[o.cls], o.dry_run ? " (dry run)" : "");
	if (o.dry_run) {
		free(rn);
		return dry_run(&o);
	}
	rn->o = &o;
	memcpy(rn->learned, o.ids, sizeof(o.ids));
	rn->nlearned = o.nids;
	for (c = 0; c < o.nsessions; c++)
		fz_session_learn(&rn->sess, o.sessions[c]);
	switch (o.cls) {
	case C_ROOT:
		if (!initial_userns() || geteuid() != 0) {
			fprintf(stderr, "nl_fuzz: --class root needs root of the "
				"initial user namespace\n");
			return 2;
		}
		if (!o.allow_changes) {
			fprintf(stderr, "nl_fuzz: --class root adds and deletes "
				"(every) probe and resizes the rings: say "
				"--allow-changes\n");
			return 2;
		}
		return class_root(rn);
	case C_USER:
		if (geteuid() != 0) {
			fprintf(stderr, "nl_fuzz: --class user starts as root "
				"(it drops to uid 65534 itself)\n");
			return 2;
		}
		return class_user(rn);
	default:
		return class_userns(rn);
	}
}
