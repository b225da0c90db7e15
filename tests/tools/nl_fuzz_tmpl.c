// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's templates: one valid message per command, and the
 * values attributes take (real targets, values in and out of range, what
 * each attribute holds), which the mutations draw on too. Apart because
 * this is all the fuzzer knows of rawprobe's commands and attributes
 * (the sessions' part: nl_fuzz_session.c).
 */
#include <stdint.h>
#include <string.h>
#include "nl_fuzz.h"

/* --- the values attributes take --- */

/* What each attribute holds, for values and foreign attributes. */
const uint8_t attr_vk[RAWPROBE_A_MAX + 1] = {
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
	[RAWPROBE_A_PAIR]		= VK_NEST,
	[RAWPROBE_A_PAIR_STATS]		= VK_NEST,
};

/* Every table entry filled in: a new attribute must say what it holds. */
_Static_assert(RAWPROBE_A_MAX == RAWPROBE_A_PAIR_STATS,
	       "attr_vk[] (and the AGG, OVR and PAIR values below) know the attributes up to PAIR_STATS");

/*
 * Harmless, real targets: a "valid answer" now and then really adds a
 * probe, on functions that any kernel has and that are safe to probe.
 * Addresses are never kernel text (the guest boots with nokaslr, where
 * 0xffffffff81000000 would be): raw-address adds all fail.
 */
const char *const symbols[] = {
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
uint64_t interesting(struct rng *r, uint16_t t, uint8_t vk)
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
bool no_bitflips(uint16_t t)
{
	t &= NLA_TYPE_MASK;
	return t == RAWPROBE_A_ADDR || t == RAWPROBE_A_OFFSET ||
	       t == RAWPROBE_A_RING_RECORDS || t == RAWPROBE_A_AGG_MAX_KEYS;
}

/* --- templates: one valid message per command --- */

const char *const tmpl_name[T_NR] = {
	"GET_INFO", "PROBE_ADD", "ADD_BATCH", "PROBE_DEL", "PROBE_GET",
	"PROBE_GET(dump)", "PROBE_ENABLE", "PROBE_DISABLE", "STATS_RESET",
	"RING_GET", "RING_SET", "RING_GET(dump)", "RING_NEW", "RING_DEL",
	"AGG_READ(dump)", "EVENT", "UNSPEC", "unknown",
};
static const unsigned int tmpl_weight[T_NR] = {
	2, 7, 4, 3, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 4, 1, 1, 1,
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
	/* zeroed: a mutated length reads past what was filled in */
	unsigned char keys[RAWPROBE_AGG_MAX_KEYS] = { 0 };
	unsigned char kargs[RAWPROBE_AGG_MAX_KEYS] = { 0 };
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
 * A pair's start or end, valid or not: roles, keys and arguments out of
 * range now and then; a batch's pair is often whole (a pair changes no
 * behaviour, so the kernel may accept it on any target).
 */
static void build_pair(struct rng *r, struct flist *l)
{
	struct flist *o = put_nest(l, RAWPROBE_A_PAIR);

	if (chance(r, 95))
		put_u8(o, RAWPROBE_PAIR_ROLE, below(r, 4));
	if (chance(r, 95))
		put_u8(o, RAWPROBE_PAIR_KEY, below(r, __RAWPROBE_AGG_KEY_MAX + 1));
	if (chance(r, 50))
		put_u8(o, RAWPROBE_PAIR_KEY_ARG, below(r, RAWPROBE_MAX_ARGS + 2));
	if (chance(r, 30))
		put_u32(o, RAWPROBE_PAIR_MAX_KEYS, PICK(r, vals_u32));
	if (chance(r, 30))
		put_u32(o, RAWPROBE_PAIR_EXPIRE_MS, PICK(r, vals_u32));
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

void build_spec(struct rng *r, struct flist *l, bool in_batch)
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
			/* one more: a length of nargs + 1 is sent too */
			unsigned char len[RAWPROBE_MAX_ARGS + 1] = { 0 };

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
	if (chance(r, in_batch ? 20 : 8))
		build_pair(r, l);
	/* into a session, by id or name: the default one otherwise */
	if (chance(r, in_batch ? 15 : 25))
		fz_session_ref(r, l);
}

void build_template(struct rng *r, struct fmsg *m)
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
