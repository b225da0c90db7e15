/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobe aggregation tables: the writer side, shared by the kernel
 * module and the host unit tests (tests/unit/test_agg.c). Include
 * ring_core_kernel.h or tests/unit/ring_core_host.h, which map the
 * primitives (the rp_local_* operations, atomic against writers nested
 * on one CPU) and then include this file.
 *
 * Primitives beyond the ring's: rp_local_add(__u64 *p, __u64 v),
 * rp_write_once_u64(__u64 *p, __u64 v), and rp_read_once_ptr(pp) and
 * rp_write_once_ptr(pp, v) for a pointer a nested writer may change.
 *
 * A table belongs to one CPU and one epoch of one probe. Its writers are
 * the probe's handlers on that CPU, nested at most through IRQ and NMI;
 * its reader reads it only once no writer can be in it any more (the
 * epoch switched and a grace period passed: kmod/agg.c), so nothing here
 * orders a writer against the reader.
 *
 * The table is an open-addressing hash of nr_slots slots (a power of
 * two), each of slot_words u64:
 *   word 0          the key's hash, never 0; 0: the slot is free;
 *                   RP_AGG_BUSY set while a writer fills in the key
 *   words 1..k      the key (key_words of them)
 *   then            the values (val_words of them, by the shape)
 * A hit hashes its key and looks at up to RP_AGG_PROBES slots from there:
 *   - a slot with its hash and key: it updates the values there;
 *   - a free slot: it claims it (cmpxchg 0 -> hash | BUSY), writes the key
 *     and the values' starting points, clears BUSY, then updates;
 *   - anything else (another key, or a slot BUSY under a writer that this
 *     one interrupted): the next slot.
 * A key that finds no slot is counted in dropped. A key may so stand in
 * two slots (a nested writer passed the slot its interrupted writer was
 * claiming for the same key): readers add up equal keys, as they add up
 * the CPUs' tables anyway. For every table: hits = the slots' counts +
 * dropped, exactly.
 *
 * Hits on one CPU come in runs of one key (one task's calls, one
 * caller's), so the table remembers the slot its last hit found (last):
 * a hit whose key is that slot's skips the hash and the probing. A slot's
 * key never changes once its claim is complete, and last only ever points
 * at such a slot (or is NULL), so a nested writer that moves it leaves
 * the interrupted one comparing against a whole key, either slot's.
 */
#ifndef _RAWPROBE_AGG_CORE_H
#define _RAWPROBE_AGG_CORE_H

#ifndef RP_RING_PRIMITIVES
#error "include ring_core_kernel.h or ring_core_host.h, not agg_core.h"
#endif

#define RP_AGG_BUSY		(1ULL << 63)
#define RP_AGG_PROBES		16	/* slots a key may look at */
#define RP_AGG_KEY_WORDS_MAX	8
#define RP_AGG_LOG2_BUCKETS	65	/* < 0, 0, then [2^(i-2), 2^(i-1)) */
#define RP_AGG_LIN_BUCKETS_MAX	RAWPROBE_AGG_LIN_BUCKETS_MAX

/* What a slot's values are (enum rp_agg_shape's flags). */
#define RP_AGG_VAL_STATS	(1U << 0)	/* sum, min, max of a value */
#define RP_AGG_VAL_LOG2		(1U << 1)	/* log2 buckets of a value */
#define RP_AGG_VAL_LINEAR	(1U << 2)	/* linear buckets of a value */

/* The values' words after the count: */
#define RP_AGG_COUNT		0
#define RP_AGG_SUM		1
#define RP_AGG_MIN		2
#define RP_AGG_MAX		3
#define RP_AGG_BUCKETS		4	/* the first bucket, after the stats */

struct rp_agg_shape {
	__u32 flags;		/* RP_AGG_VAL_* */
	__u16 key_words;	/* 0..RP_AGG_KEY_WORDS_MAX */
	__u16 nbuckets;		/* buckets, for LOG2 or LINEAR */
	__s64 lin_min;		/* LINEAR: the first bucket's low end */
	__u64 lin_step;		/* LINEAR: each bucket's width, > 0 */
};

/* A slot's values: the count, then the stats, then the buckets. */
static inline __u32 rp_agg_val_words(const struct rp_agg_shape *s)
{
	if (!(s->flags & (RP_AGG_VAL_STATS | RP_AGG_VAL_LOG2 |
			  RP_AGG_VAL_LINEAR)))
		return 1;
	return RP_AGG_BUCKETS + s->nbuckets;
}

static inline __u32 rp_agg_slot_words(const struct rp_agg_shape *s)
{
	return 1 + s->key_words + rp_agg_val_words(s);
}

struct rp_agg_table {
	__u64 hits;		/* every hit of this CPU in this epoch */
	__u64 dropped;		/* of them, keys that found no slot */
	__u64 *slots;		/* nr_slots * slot_words, zeroed */
	__u64 *last;		/* the slot of the last hit's key, or NULL */
	__u32 mask;		/* nr_slots - 1 */
	__u32 slot_words;
	struct rp_agg_shape shape;
};

/*
 * A 64-bit mix of the key's words: per word, xor, a multiply by 2^64 over
 * the golden ratio, the high half folded into the low (whose bits pick
 * the slot). Four instructions a word: a hit hashes its key every time.
 */
static inline __u64 rp_agg_hash(const __u64 *key, __u32 n)
{
	__u64 h = 0x9e3779b97f4a7c15ULL ^ n;
	__u32 i;

	for (i = 0; i < n; i++) {
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	h &= ~RP_AGG_BUSY;
	return h ? h : 1;
}

/*
 * The bucket of v: log2 (0 for v < 0, 1 for 0: a return value's errors
 * and zeros apart) or linear, clamped at both ends.
 */
static inline __u32 rp_agg_bucket(const struct rp_agg_shape *s, __s64 v)
{
	__u64 off;

	if (s->flags & RP_AGG_VAL_LOG2) {
		if (v <= 0)
			return v == 0;
		/* 2 + floor(log2(v)), in one instruction (bsr or lzcnt) */
		return 65 - (__u32)__builtin_clzll((__u64)v);
	}
	if (v < s->lin_min)
		return 0;
	off = ((__u64)v - (__u64)s->lin_min) / s->lin_step;
	if (off >= s->nbuckets)
		return s->nbuckets - 1U;
	return (__u32)off;
}

static inline int rp_agg_key_equal(const __u64 *a, const __u64 *b, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* min or max, against writers nested on this CPU */
static inline void rp_agg_extreme(__u64 *p, __s64 v, int want_max)
{
	__u64 old = rp_local_read(p), seen;

	while (want_max ? v > (__s64)old : v < (__s64)old) {
		seen = rp_local_cmpxchg(p, old, (__u64)v);
		if (seen == old)
			return;
		old = seen;
	}
}

static inline void rp_agg_update(const struct rp_agg_table *t, __u64 *vals,
				 __s64 v)
{
	const struct rp_agg_shape *s = &t->shape;

	rp_local_inc(&vals[RP_AGG_COUNT]);
	if (!(s->flags & (RP_AGG_VAL_STATS | RP_AGG_VAL_LOG2 |
			  RP_AGG_VAL_LINEAR)))
		return;
	rp_local_add(&vals[RP_AGG_SUM], (__u64)v);
	rp_agg_extreme(&vals[RP_AGG_MIN], v, 0);
	rp_agg_extreme(&vals[RP_AGG_MAX], v, 1);
	if (s->nbuckets)
		rp_local_inc(&vals[RP_AGG_BUCKETS + rp_agg_bucket(s, v)]);
}

/*
 * Claim free slot @slot for @key: 1 if this writer did, 0 if another
 * (nested) writer took it first.
 */
static inline int rp_agg_claim(const struct rp_agg_table *t, __u64 *slot,
			       __u64 h, const __u64 *key)
{
	__u32 k = t->shape.key_words, i;

	if (rp_local_cmpxchg(&slot[0], 0, h | RP_AGG_BUSY) != 0)
		return 0;
	for (i = 0; i < k; i++)
		rp_write_once_u64(&slot[1 + i], key[i]);
	if (t->shape.flags & (RP_AGG_VAL_STATS | RP_AGG_VAL_LOG2 |
			      RP_AGG_VAL_LINEAR)) {
		rp_write_once_u64(&slot[1 + k + RP_AGG_MIN], ~0ULL >> 1);
		rp_write_once_u64(&slot[1 + k + RP_AGG_MAX], 1ULL << 63);
	}
	rp_write_once_u64(&slot[0], h);
	return 1;
}

/* A hit whose key could not be made: dropped, and still a hit. */
static inline void rp_agg_drop(struct rp_agg_table *t)
{
	rp_local_inc(&t->hits);
	rp_local_inc(&t->dropped);
}

/* The last hit's slot if it holds @key (k words): no search needed. */
static inline __u64 *rp_agg_last(const struct rp_agg_table *t,
				 const __u64 *key, __u32 k)
{
	__u64 *slot = rp_read_once_ptr(&t->last);

	return slot && rp_agg_key_equal(&slot[1], key, k) ? slot : NULL;
}

/*
 * One hit: count it under @key (t->shape.key_words words), with value @v
 * for the stats and buckets. Returns 0, or -1 if the key found no slot
 * (counted in dropped). Safe against writers nested on this CPU.
 */
static inline int rp_agg_add(struct rp_agg_table *t, const __u64 *key,
			     __s64 v)
{
	__u32 k = t->shape.key_words, i, at;
	__u64 h, *slot = rp_agg_last(t, key, k), sh;

	rp_local_inc(&t->hits);
	if (slot) {
		rp_agg_update(t, slot + 1 + k, v);
		return 0;
	}
	h = rp_agg_hash(key, k);
	for (i = 0; i < RP_AGG_PROBES && i <= t->mask; i++) {
		at = (__u32)(h + i) & t->mask;
		slot = t->slots + (__u64)at * t->slot_words;
		sh = rp_local_read(&slot[0]);
		if (!sh) {
			if (!rp_agg_claim(t, slot, h, key)) {
				i--;	/* taken meanwhile: look again */
				continue;
			}
			sh = h;
		}
		if (sh == h && rp_agg_key_equal(&slot[1], key, k)) {
			rp_write_once_ptr(&t->last, slot);
			rp_agg_update(t, slot + 1 + k, v);
			return 0;
		}
	}
	rp_local_inc(&t->dropped);
	return -1;
}

#endif /* _RAWPROBE_AGG_CORE_H */
