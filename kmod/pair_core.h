/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pair's table of starts: the lock-free part, shared by the kernel
 * module (kmod/pair.c, probes/pair.c) and the host unit tests
 * (tests/unit/test_pair.c). Include pair_core_kernel.h's primitives (the
 * kernel) or tests/unit/pair_core_host.h's first.
 *
 * Primitives: rp_pair_load_acquire(p), rp_pair_store_release(p, v),
 * rp_pair_cmpxchg(p, old, new) (fully ordered, as the kernel's cmpxchg()
 * returning the value seen), rp_pair_read(p) and rp_pair_write(p, v)
 * (READ_ONCE and WRITE_ONCE of a u64); rp_pair_walk, what makes the
 * walks along a key's slots a function of their own (noinline, and
 * never probed in the kernel), and RP_PAIR_WALK_DONE(fn) after each.
 *
 * Unlike an aggregation's tables, this one is shared by every CPU: a
 * start runs on one CPU and its end, often, on another (a request issued
 * here completes in another CPU's interrupt; a task woken here runs
 * there). And a start or an end may interrupt another on its CPU (an IRQ,
 * an NMI): so no lock at all, which a nested handler could spin on.
 *
 * The table is an open-addressing hash of nr_slots slots (a power of
 * two), each stride u64 (RP_PAIR_SLOT_WORDS, or more where the starts
 * carry values to their ends):
 *   word 0   its state: RP_PAIR_READY or RP_PAIR_BUSY or neither (free),
 *            RP_PAIR_USED once a writer ever claimed it (0: never
 *            used), a sequence number moved on each time a writer claims
 *            the slot, and the 32-bit hash of the key it has (READY) or
 *            last had (free)
 *   word 1   the key
 *   word 2   the start's time, in the clock's units
 *   word 3.. what the start carries to its end (stride - 3 words: for
 *            a pair that writes records, the start's task; for one that
 *            counts by the start's stack or arguments, those too)
 * A key looks at up to RP_PAIR_PROBES slots from its hash, and no
 * further than a slot never used: a start takes the first free slot of
 * its sequence, so its key is never stored past one (and a slot, once
 * used, stays so). A table of a few live keys among many gone looks at
 * a slot or two, not sixteen. A free slot keeps its last key (word 1)
 * and that key's hash: a start of the same key takes it back at once,
 * without looking further (a key's starts and ends, one after the other,
 * use one slot and look at one).
 *
 * A start claims a slot (cmpxchg of word 0 to BUSY with the next
 * sequence), writes the key and the time, then publishes it (store-
 * release of READY): the slot its key already has (the earlier start is
 * replaced), else the first free one, else one whose start has expired.
 * An end finds READY with its key's hash and key, reads the time, then
 * frees the slot by a cmpxchg from exactly the state it read: a start
 * that rewrote the slot meanwhile moved the sequence on, so the end's
 * cmpxchg fails and it reads again; a time read is the start's that the
 * end takes out, never half another's. A slot BUSY under a writer (on
 * another CPU, or the one this handler interrupted) is passed by: an end
 * for that key finds no start, a start for it takes another slot (two
 * starts of one key at the same instant; the second one's end finds the
 * first, the other expires).
 */
#ifndef _RAWPROBE_PAIR_CORE_H
#define _RAWPROBE_PAIR_CORE_H

#ifndef RP_PAIR_PRIMITIVES
#error "include pair_core_kernel.h or pair_core_host.h, not pair_core.h"
#endif

#define RP_PAIR_READY		(1ULL << 63)
#define RP_PAIR_BUSY		(1ULL << 62)
#define RP_PAIR_USED		(1ULL << 61)
#define RP_PAIR_SEQ_SHIFT	32
#define RP_PAIR_SEQ_MASK	((1ULL << 29) - 1)
#define RP_PAIR_PROBES		16	/* slots a key may look at */
#define RP_PAIR_SLOT_WORDS	3	/* state, key, time */
#define RP_PAIR_CARRY_MAX	8	/* words a start may carry */

enum rp_pair_put_res {
	RP_PAIR_STORED,		/* in a free slot */
	RP_PAIR_REPLACED,	/* over an earlier start of the key */
	RP_PAIR_RECLAIMED,	/* over a start that had expired */
	RP_PAIR_FULL,		/* no room: not stored */
	RP_PAIR_LOST,		/* a look's own: no room, a claim lost */
};

enum rp_pair_take_res {
	RP_PAIR_MATCHED,	/* *ts is the start's time */
	RP_PAIR_NO_START,	/* none stored */
	RP_PAIR_TOO_OLD,	/* one, expired: taken out, not matched */
};

struct rp_pair_table {
	__u64 *slots;		/* nr_slots * stride, zeroed */
	__u32 mask;		/* nr_slots - 1 */
	__u32 stride;		/* words a slot: RP_PAIR_SLOT_WORDS + carried */
	__u64 expire;		/* clock units; 0: starts never expire */
	__u32 probes;		/* slots a key looks at (table size max) */
};

/*
 * A table of nr_slots (a power of two) slots of stride words at slots,
 * zeroed, whose starts expire after expire clock units (0: never).
 */
static inline void rp_pair_table_init(struct rp_pair_table *t, __u64 *slots,
				      __u32 nr_slots, __u32 stride,
				      __u64 expire)
{
	t->slots = slots;
	t->mask = nr_slots - 1;
	t->stride = stride;
	t->expire = expire;
	t->probes = nr_slots < RP_PAIR_PROBES ? nr_slots : RP_PAIR_PROBES;
}

/* The key's 32-bit hash, as READY slots keep it. */
static inline __u32 rp_pair_hash(__u64 key)
{
	__u64 h = (key ^ 0x9e3779b97f4a7c15ULL) * 0x9e3779b97f4a7c15ULL;

	return (__u32)(h >> 32);
}

/*
 * Slot i of hash h, in a table of sw words a slot: the hit path passes
 * RP_PAIR_SLOT_WORDS, a constant, where it knows the table carries
 * nothing (a multiply less, and the carry loops gone).
 */
static __always_inline __u64 *rp_pair_slot(const struct rp_pair_table *t,
					   __u32 h, __u32 i, __u32 sw)
{
	return t->slots + (__u64)((h + i) & t->mask) * sw;
}

static inline __u64 rp_pair_seq(__u64 w)
{
	return (w >> RP_PAIR_SEQ_SHIFT) & RP_PAIR_SEQ_MASK;
}

/* A slot's state after a writer claims it from w. */
static inline __u64 rp_pair_busy(__u64 w)
{
	return RP_PAIR_BUSY | RP_PAIR_USED |
	       (((rp_pair_seq(w) + 1) & RP_PAIR_SEQ_MASK) << RP_PAIR_SEQ_SHIFT);
}

/* The same slot freed, its sequence and hash kept: used, not READY. */
static inline __u64 rp_pair_free_of(__u64 w)
{
	return w & ~(RP_PAIR_READY | RP_PAIR_BUSY);
}

static inline int rp_pair_is_key(const __u64 *slot, __u64 w, __u32 h,
				 __u64 key)
{
	return (w & RP_PAIR_READY) && (__u32)w == h &&
	       rp_pair_read(&slot[1]) == key;
}

/* A free slot whose last key was key (never used: not even hashed) */
static inline int rp_pair_was_key(const __u64 *slot, __u64 w, __u32 h,
				  __u64 key)
{
	return (w & (RP_PAIR_READY | RP_PAIR_BUSY | RP_PAIR_USED)) ==
	       RP_PAIR_USED && (__u32)w == h &&
	       rp_pair_read(&slot[1]) == key;
}

/* Has the start at time ts expired at now? */
static inline int rp_pair_expired(const struct rp_pair_table *t, __u64 ts,
				  __u64 now)
{
	return t->expire && (__s64)(now - ts) > (__s64)t->expire;
}

/* What a start carries to its end: stride - RP_PAIR_SLOT_WORDS words */
struct rp_pair_carry {
	__u64 w[RP_PAIR_CARRY_MAX];
};

/*
 * Claim the slot in state w, fill it in, publish it: 1, or 0 if another
 * writer changed it first.
 */
static __always_inline int rp_pair_fill(__u64 *slot, __u64 w, __u32 h,
					__u64 key, __u64 now,
					const struct rp_pair_carry *c,
					__u32 sw)
{
	__u64 busy = rp_pair_busy(w);
	__u32 i;

	if (rp_pair_cmpxchg(&slot[0], w, busy) != w)
		return 0;
	rp_pair_write(&slot[1], key);
	rp_pair_write(&slot[2], now);
	for (i = RP_PAIR_SLOT_WORDS; i < sw; i++)
		rp_pair_write(&slot[i], c->w[i - RP_PAIR_SLOT_WORDS]);
	/* the key and time before the state that says they are in */
	rp_pair_store_release(&slot[0], (busy & ~RP_PAIR_BUSY) |
				      RP_PAIR_READY | h);
	return 1;
}

/*
 * One look along key's slots: the slot its key already has (replaced),
 * else a free one that had it last, else the first free one, else one
 * whose start has expired. RP_PAIR_LOST: none, and a claim lost to
 * another writer (worth a second look).
 */
static __always_inline enum rp_pair_put_res
rp_pair_put_once(struct rp_pair_table *t, __u64 key, __u32 h, __u64 now,
		 const struct rp_pair_carry *c, __u32 sw)
{
	__u64 *slot, *free_slot = 0, *old_slot = 0, w, free_w = 0, old_w = 0;
	__u32 i, n = t->probes;
	int tried = 0;

	for (i = 0; i < n; i++) {
		slot = rp_pair_slot(t, h, i, sw);
		w = rp_pair_load_acquire(&slot[0]);
		if (rp_pair_is_key(slot, w, h, key)) {
			if (rp_pair_fill(slot, w, h, key, now, c, sw))
				return RP_PAIR_REPLACED;
			tried = 1;
			continue;	/* taken meanwhile: a free one below */
		}
		/*
		 * (A start of key further on is not looked for: one there
		 * came while this slot was busy, and an end finds the
		 * newer start first.)
		 */
		if (rp_pair_was_key(slot, w, h, key)) {
			if (rp_pair_fill(slot, w, h, key, now, c, sw))
				return RP_PAIR_STORED;
			tried = 1;
			continue;
		}
		if (!(w & (RP_PAIR_READY | RP_PAIR_BUSY))) {
			if (!free_slot) {
				free_slot = slot;
				free_w = w;
			}
			if (!w)		/* never used: the key is not past it */
				break;
		} else if (!old_slot && (w & RP_PAIR_READY) &&
			   rp_pair_expired(t, rp_pair_read(&slot[2]), now)) {
			old_slot = slot;
			old_w = w;
		}
	}
	if (free_slot) {
		if (rp_pair_fill(free_slot, free_w, h, key, now, c, sw))
			return RP_PAIR_STORED;
		tried = 1;
	}
	if (old_slot) {
		if (rp_pair_fill(old_slot, old_w, h, key, now, c, sw))
			return RP_PAIR_RECLAIMED;
		tried = 1;
	}
	return tried ? RP_PAIR_LOST : RP_PAIR_FULL;
}

/*
 * A start's look along its key's slots, out of the handler: a claim lost
 * to another writer (on another CPU, or one this handler interrupted)
 * looks again once, a second loss is counted as full.
 */
static rp_pair_walk enum rp_pair_put_res
rp_pair_put_walk(struct rp_pair_table *t, __u64 key, __u32 h, __u64 now,
		 const struct rp_pair_carry *c, __u32 sw)
{
	enum rp_pair_put_res r;

	r = rp_pair_put_once(t, key, h, now, c, sw);
	if (r == RP_PAIR_LOST)
		r = rp_pair_put_once(t, key, h, now, c, sw);
	return r == RP_PAIR_LOST ? RP_PAIR_FULL : r;
}
RP_PAIR_WALK_DONE(rp_pair_put_walk);

/*
 * A start of key at now, carrying c (stride - RP_PAIR_SLOT_WORDS words
 * of it; NULL if none): where it went (the caller counts it). The
 * commonest, the key's first slot free since its last end, is taken
 * here; anything else walks (a handler that inlines this keeps to a few
 * registers).
 */
static __always_inline enum rp_pair_put_res
rp_pair_put_in(struct rp_pair_table *t, __u64 key, __u64 now,
	       const struct rp_pair_carry *c, __u32 sw)
{
	__u32 h = rp_pair_hash(key);
	__u64 *slot = rp_pair_slot(t, h, 0, sw);
	__u64 w = rp_pair_load_acquire(&slot[0]);

	if (rp_pair_was_key(slot, w, h, key) &&
	    rp_pair_fill(slot, w, h, key, now, c, sw))
		return RP_PAIR_STORED;
	return rp_pair_put_walk(t, key, h, now, c, sw);
}

static inline enum rp_pair_put_res
rp_pair_put_carry(struct rp_pair_table *t, __u64 key, __u64 now,
		  const struct rp_pair_carry *c)
{
	return rp_pair_put_in(t, key, now, c, t->stride);
}

/* A start that carries nothing, into a table of RP_PAIR_SLOT_WORDS */
static __always_inline enum rp_pair_put_res
rp_pair_put(struct rp_pair_table *t, __u64 key, __u64 now)
{
	return rp_pair_put_in(t, key, now, NULL, RP_PAIR_SLOT_WORDS);
}

/*
 * Take key's start out of the slot in state w if it is there: 1, *ts
 * its time and, if c, what it carried; 0 if it is not (or no longer: a
 * writer changed the slot between the reads and the cmpxchg, and *w is
 * the state it left).
 */
static __always_inline int rp_pair_take_slot(__u64 *slot, __u64 *w, __u32 h,
					     __u64 key, __u64 *ts,
					     struct rp_pair_carry *c,
					     __u32 sw)
{
	__u64 seen;
	__u32 j;

	if (!rp_pair_is_key(slot, *w, h, key))
		return 0;
	*ts = rp_pair_read(&slot[2]);
	for (j = RP_PAIR_SLOT_WORDS; c && j < sw; j++)
		c->w[j - RP_PAIR_SLOT_WORDS] = rp_pair_read(&slot[j]);
	seen = rp_pair_cmpxchg(&slot[0], *w, rp_pair_free_of(*w));
	if (seen == *w)
		return 1;
	*w = seen;
	return 0;
}

/* What an end's walk found: returned in registers, no pointer taken */
struct rp_pair_took {
	enum rp_pair_take_res r;
	__u64 ts;
};

static inline struct rp_pair_took
rp_pair_taken(const struct rp_pair_table *t, __u64 ts, __u64 now)
{
	struct rp_pair_took k = {
		rp_pair_expired(t, ts, now) ? RP_PAIR_TOO_OLD : RP_PAIR_MATCHED,
		ts
	};

	return k;
}

/*
 * An end's look along its key's slots, out of the handler. A slot a
 * writer changes between the reads and the cmpxchg is read again (a
 * start rewrote it, or another end took it: then it is no longer this
 * key's, or no longer READY): what the end takes is one start's, never
 * half another's.
 */
static rp_pair_walk struct rp_pair_took
rp_pair_take_walk(struct rp_pair_table *t, __u64 key, __u32 h, __u64 now,
		  struct rp_pair_carry *c, __u32 sw)
{
	struct rp_pair_took none = { RP_PAIR_NO_START, 0 };
	__u32 i, n = t->probes;
	__u64 *slot, w, ts;

	for (i = 0; i < n; i++) {
		slot = rp_pair_slot(t, h, i, sw);
		w = rp_pair_load_acquire(&slot[0]);
		if (!w)			/* never used: the key is not past it */
			break;
		while (rp_pair_is_key(slot, w, h, key))
			if (rp_pair_take_slot(slot, &w, h, key, &ts, c, sw))
				return rp_pair_taken(t, ts, now);
	}
	return none;
}
RP_PAIR_WALK_DONE(rp_pair_take_walk);

/*
 * An end of key at now: its start taken out of the table, *ts its time
 * and, if c, what it carried. The commonest, the start in the key's
 * first slot, is taken here; anything else walks.
 */
static __always_inline enum rp_pair_take_res
rp_pair_take_in(struct rp_pair_table *t, __u64 key, __u64 now, __u64 *ts,
		struct rp_pair_carry *c, __u32 sw)
{
	__u32 h = rp_pair_hash(key);
	__u64 *slot = rp_pair_slot(t, h, 0, sw);
	__u64 w = rp_pair_load_acquire(&slot[0]);
	struct rp_pair_took k;

	if (rp_pair_take_slot(slot, &w, h, key, ts, c, sw))
		return rp_pair_taken(t, *ts, now).r;
	k = rp_pair_take_walk(t, key, h, now, c, sw);
	*ts = k.ts;
	return k.r;
}

static inline enum rp_pair_take_res
rp_pair_take_carry(struct rp_pair_table *t, __u64 key, __u64 now, __u64 *ts,
		   struct rp_pair_carry *c)
{
	return rp_pair_take_in(t, key, now, ts, c, t->stride);
}

/* An end that takes nothing carried, from a table of RP_PAIR_SLOT_WORDS */
static __always_inline enum rp_pair_take_res
rp_pair_take(struct rp_pair_table *t, __u64 key, __u64 now, __u64 *ts)
{
	return rp_pair_take_in(t, key, now, ts, NULL, RP_PAIR_SLOT_WORDS);
}

/*
 * Take the expired starts out (a reader's sweep, any context): how many.
 * Ready slots only, each by the cmpxchg an end would use.
 */
static inline __u64 rp_pair_sweep(struct rp_pair_table *t, __u64 now,
				  __u64 *pending)
{
	__u64 *slot, w, n = 0;
	__u32 i;

	*pending = 0;
	for (i = 0; i <= t->mask; i++) {
		slot = t->slots + (__u64)i * t->stride;
		w = rp_pair_load_acquire(&slot[0]);
		if (!(w & RP_PAIR_READY))
			continue;
		if (!rp_pair_expired(t, rp_pair_read(&slot[2]), now)) {
			(*pending)++;
			continue;
		}
		if (rp_pair_cmpxchg(&slot[0], w, rp_pair_free_of(w)) == w)
			n++;
		else
			(*pending)++;	/* an end or a start has it now */
	}
	return n;
}

#endif /* _RAWPROBE_PAIR_CORE_H */
