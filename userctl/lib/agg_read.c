// SPDX-License-Identifier: GPL-2.0
/*
 * AGG_READ: a dump whose first message holds the interval
 * (RAWPROBE_A_AGG_INTERVAL) and every message a share of the entries
 * (RAWPROBE_A_AGG_ENTRIES), one per key and CPU (a key may come more than
 * once on a CPU too): merged here, as bpftrace merges its per-CPU maps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "lib/agg_read.h"

static int rp_agg_interval(struct nlattr *a, struct rp_agg_result *r)
{
	struct nlattr *tb[RAWPROBE_AGG_I_MAX + 1];

	if (nla_parse_nested(tb, RAWPROBE_AGG_I_MAX, a, NULL) ||
	    !tb[RAWPROBE_AGG_I_KEY_WORDS] || !tb[RAWPROBE_AGG_I_VAL_WORDS] ||
	    !tb[RAWPROBE_AGG_I_HITS])
		return -EBADMSG;
	r->key_words = nla_get_u32(tb[RAWPROBE_AGG_I_KEY_WORDS]);
	r->val_words = nla_get_u32(tb[RAWPROBE_AGG_I_VAL_WORDS]);
	if (r->key_words > 16 || !r->val_words || r->val_words > 1024)
		return -EBADMSG;
	r->hits = nla_get_u64(tb[RAWPROBE_AGG_I_HITS]);
	if (tb[RAWPROBE_AGG_I_DROPPED])
		r->dropped = nla_get_u64(tb[RAWPROBE_AGG_I_DROPPED]);
	if (tb[RAWPROBE_AGG_I_START_NS])
		r->start_ns = nla_get_u64(tb[RAWPROBE_AGG_I_START_NS]);
	if (tb[RAWPROBE_AGG_I_END_NS])
		r->end_ns = nla_get_u64(tb[RAWPROBE_AGG_I_END_NS]);
	if (tb[RAWPROBE_AGG_I_STACK_WORD]) {
		r->stack_word = (int)nla_get_u32(tb[RAWPROBE_AGG_I_STACK_WORD]);
		if ((uint32_t)r->stack_word >= r->key_words)
			return -EBADMSG;
	}
	return 0;
}

/* AGG_STACK: the id, then the frames */
static int rp_agg_push_stack(struct rp_agg_result *r, const void *words,
			     int len)
{
	const uint64_t *w = words;
	struct rp_agg_stack *st;
	size_t n = (size_t)len / sizeof(uint64_t);

	if (len % sizeof(uint64_t) || !n || n > 1 + RAWPROBE_STACK_MAX)
		return -EBADMSG;
	if (r->nstacks == r->stacks_cap) {
		size_t cap = r->stacks_cap ? 2 * r->stacks_cap : 64;

		st = realloc(r->stacks, cap * sizeof(*st));
		if (!st)
			return -ENOMEM;
		r->stacks = st;
		r->stacks_cap = cap;
	}
	st = &r->stacks[r->nstacks++];
	memset(st, 0, sizeof(*st));
	st->id = w[0];
	st->n = (unsigned int)(n - 1);
	memcpy(st->frames, w + 1, (n - 1) * sizeof(uint64_t));
	return 0;
}

static int rp_agg_push(struct rp_agg_result *r, const void *words, int len)
{
	size_t stride = r->key_words + r->val_words;
	uint64_t *w;

	if (!stride || (size_t)len != stride * sizeof(uint64_t))
		return -EBADMSG;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;

		w = realloc(r->words, cap * stride * sizeof(uint64_t));
		if (!w)
			return -ENOMEM;
		r->words = w;
		r->cap = cap;
	}
	memcpy(rp_agg_entry(r, r->n++), words, (size_t)len);
	return 0;
}

/* Each attribute of type in nest (if any) through push. */
static int rp_agg_push_all(struct nlattr *nest, int type,
			   int (*push)(struct rp_agg_result *r,
				       const void *w, int len),
			   struct rp_agg_result *r)
{
	struct nlattr *e;
	int rem, err;

	if (!nest)
		return 0;
	nla_for_each_nested(e, nest, rem) {
		if (nla_type(e) != type)
			continue;
		err = push(r, nla_data(e), nla_len(e));
		if (err)
			return err;
	}
	return 0;
}

static int rp_agg_reply(struct nlattr **a, void *ctx)
{
	struct rp_agg_result *r = ctx;
	int err;

	if (a[RAWPROBE_A_AGG_INTERVAL]) {
		err = rp_agg_interval(a[RAWPROBE_A_AGG_INTERVAL], r);
		if (err)
			return err;
	}
	return rp_agg_push_all(a[RAWPROBE_A_AGG_ENTRIES], RAWPROBE_A_AGG_ENTRY,
			       rp_agg_push, r) ?:
	       rp_agg_push_all(a[RAWPROBE_A_AGG_STACKS], RAWPROBE_A_AGG_STACK,
			       rp_agg_push_stack, r);
}

static int rp_agg_stack_id_cmp(const void *a, const void *b)
{
	const struct rp_agg_stack *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int rp_agg_stack_frames_cmp(const void *a, const void *b)
{
	const struct rp_agg_stack *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return memcmp(x->frames, y->frames, x->n * sizeof(uint64_t)) ?:
	       rp_agg_stack_id_cmp(a, b);
}

const struct rp_agg_stack *rp_agg_stack_of(const struct rp_agg_result *r,
					   const uint64_t *entry)
{
	struct rp_agg_stack key;

	if (r->stack_word < 0 || !r->nstacks)
		return NULL;
	key.id = entry[r->stack_word];
	return bsearch(&key, r->stacks, r->nstacks, sizeof(key),
		       rp_agg_stack_id_cmp);
}

/*
 * One stack may come under two ids (the kernel's writers passed a slot
 * being filled in): each entry's id becomes the lowest of its stack's,
 * so that the merge adds them up. Stacks end sorted by id.
 */
static void rp_agg_stacks_unify(struct rp_agg_result *r)
{
	const struct rp_agg_stack *st;
	struct rp_agg_stack *s = r->stacks;
	size_t i, first = 0;

	if (r->stack_word < 0 || r->nstacks < 2)
		goto sort;
	qsort(s, r->nstacks, sizeof(*s), rp_agg_stack_frames_cmp);
	/* the duplicates' ids, moved to their first's in the entries */
	for (i = 1; i < r->nstacks; i++) {
		if (s[i].n != s[first].n ||
		    memcmp(s[i].frames, s[first].frames,
			   s[i].n * sizeof(uint64_t))) {
			first = i;
			continue;
		}
		s[i].frames[0] = s[first].id;	/* (an alias from here on) */
		s[i].n = UINT32_MAX;
	}
	qsort(s, r->nstacks, sizeof(*s), rp_agg_stack_id_cmp);
	for (i = 0; i < r->n; i++) {
		st = rp_agg_stack_of(r, rp_agg_entry(r, i));
		if (st && st->n == UINT32_MAX)
			rp_agg_entry(r, i)[r->stack_word] = st->frames[0];
	}
	for (i = first = 0; i < r->nstacks; i++)
		if (s[i].n != UINT32_MAX)
			s[first++] = s[i];
	r->nstacks = first;
	return;
sort:
	if (r->nstacks > 1)
		qsort(s, r->nstacks, sizeof(*s), rp_agg_stack_id_cmp);
}

static size_t rp_sort_stride, rp_sort_keys;

static int rp_agg_key_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	size_t i;

	for (i = 0; i < rp_sort_keys; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int rp_agg_count_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	uint64_t cx = x[rp_sort_keys + RP_AGG_W_COUNT];
	uint64_t cy = y[rp_sort_keys + RP_AGG_W_COUNT];

	if (cx != cy)
		return cx > cy ? -1 : 1;
	return rp_agg_key_cmp(a, b);
}

static void rp_agg_sort(struct rp_agg_result *r,
			int (*cmp)(const void *, const void *))
{
	rp_sort_stride = r->key_words + r->val_words;
	rp_sort_keys = r->key_words;
	if (r->n > 1)
		qsort(r->words, r->n, rp_sort_stride * sizeof(uint64_t), cmp);
}

/* Add the values of src into dst: one key's */
static void rp_agg_add_values(uint64_t *dst, const uint64_t *src, size_t nv)
{
	size_t i;

	dst[RP_AGG_W_COUNT] += src[RP_AGG_W_COUNT];
	if (nv == 1)
		return;
	dst[RP_AGG_W_SUM] += src[RP_AGG_W_SUM];
	if ((int64_t)src[RP_AGG_W_MIN] < (int64_t)dst[RP_AGG_W_MIN])
		dst[RP_AGG_W_MIN] = src[RP_AGG_W_MIN];
	if ((int64_t)src[RP_AGG_W_MAX] > (int64_t)dst[RP_AGG_W_MAX])
		dst[RP_AGG_W_MAX] = src[RP_AGG_W_MAX];
	for (i = RP_AGG_W_BUCKETS; i < nv; i++)
		dst[i] += src[i];
}

void rp_agg_merge(struct rp_agg_result *r)
{
	size_t stride = r->key_words + r->val_words, i, out = 0;
	uint64_t *w;

	rp_agg_sort(r, rp_agg_key_cmp);
	for (i = 0; i < r->n; i++) {
		w = rp_agg_entry(r, i);
		if (out && !memcmp(rp_agg_entry(r, out - 1), w,
				   r->key_words * sizeof(uint64_t))) {
			rp_agg_add_values(rp_agg_entry(r, out - 1) + r->key_words,
					  w + r->key_words, r->val_words);
			continue;
		}
		if (out != i)
			memmove(rp_agg_entry(r, out), w,
				stride * sizeof(uint64_t));
		out++;
	}
	r->n = out;
}

/*
 * The stacks of r that acc has not, by id; then one id per stack again
 * (an interval may name a stack by another of its ids).
 */
static int rp_agg_accumulate_stacks(struct rp_agg_result *acc,
				    const struct rp_agg_result *r)
{
	const struct rp_agg_stack *st;
	uint64_t w[1 + RAWPROBE_STACK_MAX];
	size_t i;
	int err;

	acc->stack_word = r->stack_word;
	for (i = 0; i < r->nstacks; i++) {
		st = &r->stacks[i];
		if (acc->nstacks && bsearch(st, acc->stacks, acc->nstacks,
					    sizeof(*st), rp_agg_stack_id_cmp))
			continue;
		w[0] = st->id;
		memcpy(w + 1, st->frames, st->n * sizeof(uint64_t));
		err = rp_agg_push_stack(acc, w,
					(int)((1 + st->n) * sizeof(uint64_t)));
		if (err)
			return err;
		qsort(acc->stacks, acc->nstacks, sizeof(*st),
		      rp_agg_stack_id_cmp);
	}
	rp_agg_stacks_unify(acc);
	return 0;
}

int rp_agg_accumulate(struct rp_agg_result *acc, const struct rp_agg_result *r)
{
	size_t stride = r->key_words + r->val_words, i;
	int err;

	if (!acc->val_words) {
		acc->key_words = r->key_words;
		acc->val_words = r->val_words;
		acc->start_ns = r->start_ns;
	}
	if (acc->key_words != r->key_words || acc->val_words != r->val_words)
		return -EINVAL;
	for (i = 0; i < r->n; i++) {
		err = rp_agg_push(acc, rp_agg_entry(r, i),
				  (int)(stride * sizeof(uint64_t)));
		if (err)
			return err;
	}
	err = rp_agg_accumulate_stacks(acc, r);
	if (err)
		return err;
	acc->end_ns = r->end_ns;
	acc->hits += r->hits;
	acc->dropped += r->dropped;
	rp_agg_merge(acc);
	return 0;
}

int rp_agg_append_keyed(struct rp_agg_result *dst,
			const struct rp_agg_result *src, uint64_t key)
{
	size_t stride = src->key_words + src->val_words, i;
	uint64_t *w;
	int err = 0;

	if (src->nstacks)
		return -EINVAL;
	if (!dst->val_words) {
		dst->key_words = src->key_words + 1;
		dst->val_words = src->val_words;
		dst->start_ns = src->start_ns;
		dst->stack_word = -1;
	}
	if (dst->key_words != src->key_words + 1 ||
	    dst->val_words != src->val_words)
		return -EINVAL;
	w = malloc((1 + stride) * sizeof(*w));
	if (!w)
		return -ENOMEM;
	w[0] = key;
	for (i = 0; !err && i < src->n; i++) {
		memcpy(w + 1, rp_agg_entry(src, i), stride * sizeof(*w));
		err = rp_agg_push(dst, w, (int)((1 + stride) * sizeof(*w)));
	}
	free(w);
	dst->end_ns = src->end_ns > dst->end_ns ? src->end_ns : dst->end_ns;
	dst->hits += src->hits;
	dst->dropped += src->dropped;
	return err;
}

void rp_agg_sort_by_count(struct rp_agg_result *r)
{
	rp_agg_sort(r, rp_agg_count_cmp);
}

int rp_agg_fetch(struct rp_nl *nl, uint32_t id, struct rp_agg_result *r)
{
	struct nl_msg *msg;
	int err;

	memset(r, 0, sizeof(*r));
	r->stack_word = -1;
	msg = rp_nl_msg(nl, RAWPROBE_CMD_AGG_READ, NLM_F_DUMP);
	if (!msg)
		return -ENOMEM;
	nla_put_u32(msg, RAWPROBE_A_PROBE_ID, id);
	err = rp_nl_call(nl, msg, rp_agg_reply, r);
	if (err) {
		rp_agg_result_free(r);
		return err;
	}
	if (!r->val_words) {
		rp_agg_result_free(r);
		return -EBADMSG;	/* no interval: not an AGG_READ answer */
	}
	rp_agg_stacks_unify(r);
	rp_agg_merge(r);
	return 0;
}

void rp_agg_result_free(struct rp_agg_result *r)
{
	free(r->words);
	free(r->stacks);
	r->words = NULL;
	r->stacks = NULL;
	r->n = r->cap = 0;
	r->nstacks = r->stacks_cap = 0;
}
