// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms of record values, the bpftrace way: hist() (log2 buckets)
 * and lhist() (linear), one per probe, or per probe and command.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/escape.h"
#include "out/histogram.h"
#include "out/flame.h"
#include "out/stack.h"

#define RP_LOG2_BUCKETS	65	/* [0], [1, 2), ... [2^63, 2^64) */
#define RP_LINEAR_MAX	1000	/* linear buckets before the overflow one */
#define RP_BAR_WIDTH	52

struct rp_hist {
	char probe[224];
	char comm[RAWPROBE_COMM_LEN + 1];
	uint64_t count, neg, over;	/* neg: below 0; over: linear, past the last */
	uint64_t over_at;		/* linear: where over begins */
	uint64_t b[RP_LINEAR_MAX];	/* log2 uses the first 65 */
	/*
	 * Of an unsigned value (latency, a pointer, a u64) min and max hold
	 * its bits, compared and printed unsigned: a kernel address is no
	 * negative number. The sum is exact either way.
	 */
	bool is_signed;
	int64_t min, max;
	__int128 sum;
};

/*
 * hist --stack: one stack of a probe (and command, with --by comm) as
 * recorded. Records are counted by addresses, a hash lookup each; the
 * names, which merge the call sites within a function, come at the end.
 */
struct rp_hstack {
	uint64_t count;
	/* the key: from addr up to folded, zero-filled */
	uint64_t addr;			/* the probed function's */
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n;
	char comm[RAWPROBE_COMM_LEN];	/* "" without --by comm */
	char probe[RP_PROBE_NAME_MAX];
	char *folded;			/* at the end: [comm;]root;...;fn */
};

#define RP_HSTACK_KEY	offsetof(struct rp_hstack, addr)
#define RP_HSTACK_KEY_LEN (offsetof(struct rp_hstack, folded) - RP_HSTACK_KEY)

struct rp_hstacks {
	struct rp_hstack **v;
	size_t n;
	uint32_t *slots;		/* index into v + 1; 0 is free */
	size_t nslots;			/* a power of two, at most half full */
};

struct rp_hists {
	struct rp_hist_opts o;
	bool json;
	struct rp_hist **v;
	size_t n;
	struct rp_hstacks stacks;	/* RP_HIST_STACK */
	uint64_t skipped;	/* records without the value */
	unsigned int interval;	/* hist -i: the one printed next, from 1 */
};

static const char *rp_hist_value_name(const struct rp_hist_opts *o,
				      char *buf, size_t len)
{
	if (o->value == RP_HIST_ARG)
		snprintf(buf, len, "arg%u", o->arg);
	else
		snprintf(buf, len, "%s", o->value == RP_HIST_RETVAL ?
			 "retval" : o->value == RP_HIST_STACK ? "stack" :
			 "latency_ns");
	return buf;
}

/* The record's value; false when it has none. */
static bool rp_hist_value(const struct rp_hist_opts *o,
			  const struct rawprobe_record *r,
			  const struct rp_probe_desc *d, int64_t *v,
			  bool *is_signed)
{
	unsigned int t;

	*is_signed = true;
	switch (o->value) {
	case RP_HIST_LATENCY:
		*v = (int64_t)r->latency_ns;
		*is_signed = false;
		return r->flags & RAWPROBE_REC_RETVAL;
	case RP_HIST_RETVAL:
		*v = r->retval;
		return r->flags & RAWPROBE_REC_RETVAL;
	default:
		if (!(r->flags & RAWPROBE_REC_ARGS) || o->arg >= r->nargs ||
		    rp_arg_is_str(r, o->arg) || rp_arg_faulted(r, o->arg))
			return false;
		t = rp_argtype_of(d, o->arg);
		*is_signed = t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64;
		*v = (int64_t)r->args[o->arg];
		return true;
	}
}

static struct rp_hist *rp_hist_find(struct rp_hists *h, const char *probe,
				    const char *comm)
{
	struct rp_hist *x;
	void *v;
	size_t i;

	for (i = 0; i < h->n; i++)
		if (!strcmp(h->v[i]->probe, probe) &&
		    !strcmp(h->v[i]->comm, comm))
			return h->v[i];
	v = realloc(h->v, (h->n + 1) * sizeof(*h->v));
	x = calloc(1, sizeof(*x));
	if (!v || !x) {
		free(x);
		h->v = v ? v : h->v;
		return NULL;
	}
	h->v = v;
	snprintf(x->probe, sizeof(x->probe), "%s", probe);
	snprintf(x->comm, sizeof(x->comm), "%s", comm);
	x->over_at = RP_LINEAR_MAX * h->o.step;
	h->v[h->n++] = x;
	return x;
}

/* v below w, as the value's type compares them */
static bool rp_hist_below(const struct rp_hist *x, int64_t v, int64_t w)
{
	return x->is_signed ? v < w : (uint64_t)v < (uint64_t)w;
}

static unsigned int rp_log2_index(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

static void rp_hist_add(struct rp_hist *x, const struct rp_hist_opts *o,
			int64_t v, bool is_signed)
{
	uint64_t u = (uint64_t)v;

	x->is_signed = is_signed;
	if (!x->count || rp_hist_below(x, v, x->min))
		x->min = v;
	if (!x->count || rp_hist_below(x, x->max, v))
		x->max = v;
	x->count++;
	x->sum += is_signed ? (__int128)v : (__int128)u;
	if (is_signed && v < 0)
		x->neg++;
	else if (!o->step)
		x->b[rp_log2_index(u)]++;
	else if (u / o->step < RP_LINEAR_MAX)
		x->b[u / o->step]++;
	else
		x->over++;
}

/* What a histogram is named by: its probe, gone or not. */
static void rp_hist_probe(char *probe, size_t len,
			  const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	if (d)
		snprintf(probe, len, "%s", d->name);
	else
		snprintf(probe, len, "probe#%u", r->probe_id);
}

/* --- stacks --- */

static uint32_t rp_hstack_hash(const struct rp_hstack *k)
{
	const unsigned char *p = (const unsigned char *)k + RP_HSTACK_KEY;
	uint32_t h = 2166136261u;	/* FNV-1a */
	size_t i;

	for (i = 0; i < RP_HSTACK_KEY_LEN; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static bool rp_hstack_same(const struct rp_hstack *a,
			   const struct rp_hstack *b)
{
	return !memcmp((const char *)a + RP_HSTACK_KEY,
		       (const char *)b + RP_HSTACK_KEY, RP_HSTACK_KEY_LEN);
}

static void rp_hstack_slot_put(uint32_t *slots, size_t nslots,
			       const struct rp_hstack *k, size_t i)
{
	size_t at = rp_hstack_hash(k) & (nslots - 1);

	while (slots[at])
		at = (at + 1) & (nslots - 1);
	slots[at] = (uint32_t)(i + 1);
}

/* Room for one more stack: the slots at most half full, v as big. */
static int rp_hstack_grow(struct rp_hstacks *t)
{
	size_t nslots = t->nslots ? t->nslots * 2 : 256, i;
	uint32_t *slots;
	void *v;

	if (2 * (t->n + 1) <= t->nslots)
		return 0;
	if (nslots / 2 > UINT32_MAX)
		return -ENOMEM;
	v = realloc(t->v, nslots / 2 * sizeof(*t->v));
	slots = calloc(nslots, sizeof(*slots));
	if (v)
		t->v = v;
	if (!v || !slots) {
		free(slots);
		return -ENOMEM;
	}
	for (i = 0; i < t->n; i++)
		rp_hstack_slot_put(slots, nslots, t->v[i], i);
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

/* The stack k counts in: found, or a new one; NULL without memory. */
static struct rp_hstack *rp_hstack_find(struct rp_hstacks *t,
					const struct rp_hstack *k)
{
	struct rp_hstack *x;
	size_t at;

	for (at = t->nslots ? rp_hstack_hash(k) & (t->nslots - 1) : 0;
	     t->nslots && t->slots[at]; at = (at + 1) & (t->nslots - 1))
		if (rp_hstack_same(t->v[t->slots[at] - 1], k))
			return t->v[t->slots[at] - 1];
	x = malloc(sizeof(*x));
	if (!x || rp_hstack_grow(t)) {
		free(x);
		return NULL;
	}
	*x = *k;
	t->v[t->n] = x;
	rp_hstack_slot_put(t->slots, t->nslots, x, t->n++);
	return x;
}

/* A record without a stack counts as its function alone. */
static void rp_hstack_record(struct rp_hists *h,
			     const struct rawprobe_record *r,
			     const struct rp_probe_desc *d)
{
	struct rp_hstack k, *x;

	memset(&k, 0, sizeof(k));
	k.addr = r->addr;
	k.n = rp_stack_frames(r, k.frames);
	if (h->o.by_comm)
		memcpy(k.comm, r->comm, sizeof(k.comm));
	/* folded lines do not name probes: one line for a stack of two */
	if (h->json)
		rp_hist_probe(k.probe, sizeof(k.probe), r, d);
	h->skipped += !rp_has_stack(r);
	x = rp_hstack_find(&h->stacks, &k);
	if (x)
		x->count++;
}

static void rp_hist_record(struct rp_sink *s, const struct rawprobe_record *r,
			   const struct rp_probe_desc *d)
{
	struct rp_hists *h = s->priv;
	char probe[224], comm[RAWPROBE_COMM_LEN + 1] = "";
	struct rp_hist *x;
	bool is_signed;
	int64_t v;

	if (h->o.value == RP_HIST_STACK) {
		rp_hstack_record(h, r, d);
		return;
	}
	if (!rp_hist_value(&h->o, r, d, &v, &is_signed)) {
		h->skipped++;
		return;
	}
	rp_hist_probe(probe, sizeof(probe), r, d);
	if (h->o.by_comm)
		snprintf(comm, sizeof(comm), "%.*s", RAWPROBE_COMM_LEN, r->comm);
	x = rp_hist_find(h, probe, comm);
	if (x)
		rp_hist_add(x, &h->o, v, is_signed);
}

/* --- printing --- */

/* 1536 -> "1536", 2048 -> "2K": powers of 1024 as bpftrace shows them */
static void rp_hist_num(char *buf, size_t len, uint64_t v, bool log2)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T", "P", "E" };
	int i = 0;

	while (log2 && v >= 1024 && !(v % 1024) && i < 6) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%" PRIu64 "%s", v, suffix[i]);
}

/* Bucket i's bounds: [*lo, *hi); has_hi false for the open last one. */
static void rp_hist_bounds(const struct rp_hists *h, size_t i, uint64_t *lo,
			   uint64_t *hi, bool *has_hi)
{
	*has_hi = true;
	if (h->o.step) {
		*lo = i * h->o.step;
		*hi = *lo + h->o.step;
		return;
	}
	*lo = i ? 1ULL << (i - 1) : 0;
	*hi = i < 64 ? 1ULL << i : 0;
	*has_hi = i < 64;
}

static size_t rp_hist_nb(const struct rp_hists *h)
{
	return h->o.step ? RP_LINEAR_MAX : RP_LOG2_BUCKETS;
}

static void rp_hist_bar(FILE *out, const char *label, uint64_t n,
			uint64_t peak)
{
	int w = peak ? (int)(n * RP_BAR_WIDTH / peak) : 0;
	char bar[RP_BAR_WIDTH + 1];

	memset(bar, '@', (size_t)w);
	bar[w] = '\0';
	fprintf(out, "%-20s %8" PRIu64 " |%-*s|\n", label, n, RP_BAR_WIDTH, bar);
}

static void rp_hist_label(const struct rp_hists *h, size_t i, char *buf,
			  size_t len)
{
	char a[32], b[32];
	uint64_t lo, hi;
	bool has_hi;

	rp_hist_bounds(h, i, &lo, &hi, &has_hi);
	if (!h->o.step && i == 0) {
		snprintf(buf, len, "[0]");
		return;
	}
	rp_hist_num(a, sizeof(a), lo, !h->o.step);
	rp_hist_num(b, sizeof(b), hi, !h->o.step);
	snprintf(buf, len, "[%s, %s)", a, has_hi ? b : "...");
}

/* n in decimal: a sum, which may be past 64 bits */
static const char *rp_hist_i128(char *buf, size_t len, __int128 n)
{
	unsigned __int128 u = n < 0 ? -(unsigned __int128)n : (unsigned __int128)n;
	char tmp[48], *p = tmp + sizeof(tmp);

	*--p = '\0';
	do {
		*--p = (char)('0' + (int)(u % 10));
		u /= 10;
	} while (u);
	if (n < 0)
		*--p = '-';
	snprintf(buf, len, "%s", p);
	return buf;
}

/* min or max as the value's type has it */
static const char *rp_hist_ext(char *buf, size_t len, const struct rp_hist *x,
			       int64_t v)
{
	if (x->is_signed)
		snprintf(buf, len, "%" PRId64, v);
	else
		snprintf(buf, len, "%" PRIu64, (uint64_t)v);
	return buf;
}

static double rp_hist_avg(const struct rp_hist *x)
{
	return x->count ? (double)x->sum / (double)x->count : 0.0;
}

static void rp_hist_text(FILE *out, const struct rp_hists *h,
			 const struct rp_hist *x)
{
	size_t i, first = SIZE_MAX, last = 0, nb = rp_hist_nb(h);
	uint64_t peak = x->neg > x->over ? x->neg : x->over;
	char label[80], vname[16], sum[48], min[24], max[24];
	char probe[RP_ESCAPED_MAX(sizeof(x->probe)) + 1];
	char comm[RP_ESCAPED_MAX(sizeof(x->comm)) + 1];

	for (i = 0; i < nb; i++) {
		if (!x->b[i])
			continue;
		first = first == SIZE_MAX ? i : first;
		last = i;
		peak = x->b[i] > peak ? x->b[i] : peak;
	}
	rp_escape_str(probe, sizeof(probe), x->probe, sizeof(x->probe));
	rp_escape_str(comm, sizeof(comm), x->comm, sizeof(x->comm));
	fprintf(out, "@%s%s%s%s, %s%s: count %" PRIu64 ", sum %s, avg %.0f, "
		"min %s, max %s\n", probe, comm[0] ? "[" : "",
		comm, comm[0] ? "]" : "",
		rp_hist_value_name(&h->o, vname, sizeof(vname)),
		h->o.step ? " (linear)" : "", x->count,
		rp_hist_i128(sum, sizeof(sum), x->sum), rp_hist_avg(x),
		rp_hist_ext(min, sizeof(min), x, x->min),
		rp_hist_ext(max, sizeof(max), x, x->max));
	if (x->neg)
		rp_hist_bar(out, "(..., 0)", x->neg, peak);
	for (i = first; first != SIZE_MAX && i <= last; i++) {
		rp_hist_label(h, i, label, sizeof(label));
		rp_hist_bar(out, label, x->b[i], peak);
	}
	if (x->over) {
		snprintf(label, sizeof(label), "[%" PRIu64 ", ...)",
			 x->over_at);
		rp_hist_bar(out, label, x->over, peak);
	}
	fputc('\n', out);
}

static void rp_hist_bucket_json(struct json *j, const uint64_t *lo,
				const uint64_t *hi, uint64_t n)
{
	json_obj_open(j);
	if (lo)
		json_kv_u64(j, "low", *lo);
	if (hi)
		json_kv_u64(j, "high", *hi);
	json_kv_u64(j, "count", n);
	json_obj_close(j);
}

static void rp_hist_json(struct json *j, const struct rp_hists *h,
			 const struct rp_hist *x)
{
	char vname[16], sum[48];
	uint64_t lo, hi, zero = 0, top = x->over_at;
	bool has_hi;
	size_t i;

	json_obj_open(j);
	json_kv_str(j, "probe", x->probe);
	if (h->o.by_comm)
		json_kv_str(j, "comm", x->comm);
	json_kv_str(j, "value", rp_hist_value_name(&h->o, vname, sizeof(vname)));
	json_kv_str(j, "scale", h->o.step ? "linear" : "log2");
	if (h->o.step)
		json_kv_u64(j, "step", h->o.step);
	if (h->interval)
		json_kv_u64(j, "interval", h->interval);
	json_kv_u64(j, "count", x->count);
	json_kv_raw(j, "sum", rp_hist_i128(sum, sizeof(sum), x->sum));
	if (x->is_signed) {
		json_kv_s64(j, "min", x->min);
		json_kv_s64(j, "max", x->max);
	} else {
		json_kv_u64(j, "min", (uint64_t)x->min);
		json_kv_u64(j, "max", (uint64_t)x->max);
	}
	json_key(j, "buckets");
	json_arr_open(j);
	if (x->neg)
		rp_hist_bucket_json(j, NULL, &zero, x->neg);
	for (i = 0; i < rp_hist_nb(h); i++) {
		if (!x->b[i])
			continue;
		rp_hist_bounds(h, i, &lo, &hi, &has_hi);
		rp_hist_bucket_json(j, &lo, has_hi ? &hi : NULL, x->b[i]);
	}
	if (x->over)
		rp_hist_bucket_json(j, &top, NULL, x->over);
	json_arr_close(j);
	json_obj_close(j);
	json_end_doc(j);
}

static int rp_hist_cmp(const void *a, const void *b)
{
	const struct rp_hist *const *x = a, *const *y = b;
	int c = strcmp((*x)->probe, (*y)->probe);

	return c ? c : strcmp((*x)->comm, (*y)->comm);
}

/* --- printing stacks --- */

/* x's folded stack, by names: [comm;]root;...;caller;function */
static int rp_hstack_fold(struct rp_hstack *x, bool by_comm)
{
	char buf[RP_FOLDED_LINE_MAX], *p = buf;

	if (by_comm) {
		p = rp_put_folded_str(p, x->comm, sizeof(x->comm));
		*p++ = ';';
	}
	p = rp_put_folded_stack(p, x->addr, x->frames, x->n);
	*p = '\0';
	x->folded = strdup(buf);
	return x->folded ? 0 : -ENOMEM;
}

static int rp_hstack_by_name(const void *a, const void *b)
{
	const struct rp_hstack *const *x = a, *const *y = b;
	int c = strcmp((*x)->probe, (*y)->probe);

	return c ? c : strcmp((*x)->folded, (*y)->folded);
}

/* The most seen first; then in name order, so the output is stable. */
static int rp_hstack_by_count(const void *a, const void *b)
{
	const struct rp_hstack *const *x = a, *const *y = b;

	if ((*x)->count != (*y)->count)
		return (*x)->count < (*y)->count ? 1 : -1;
	return rp_hstack_by_name(a, b);
}

static void rp_hstack_free(struct rp_hstack *x)
{
	free(x->folded);
	free(x);
}

/*
 * Stacks that differ only in where within a function a call was (the
 * offsets) read the same by name: one line each, their counts added.
 */
static int rp_hstacks_merge(struct rp_hstacks *t, bool by_comm)
{
	size_t i, k = 0;

	for (i = 0; i < t->n; i++)
		if (rp_hstack_fold(t->v[i], by_comm))
			return -ENOMEM;
	if (!t->n)	/* qsort(NULL, 0) is undefined */
		return 0;
	qsort(t->v, t->n, sizeof(*t->v), rp_hstack_by_name);
	for (i = 1; i < t->n; i++) {
		if (!rp_hstack_by_name(&t->v[k], &t->v[i])) {
			t->v[k]->count += t->v[i]->count;
			rp_hstack_free(t->v[i]);
		} else {
			t->v[++k] = t->v[i];
		}
	}
	t->n = k + 1;
	qsort(t->v, t->n, sizeof(*t->v), rp_hstack_by_count);
	return 0;
}

/* As the folded line has it, names alone: the callers innermost first. */
static void rp_hstack_json(struct json *j, const struct rp_hists *h,
			   const struct rp_hstack *x)
{
	char buf[RP_KSYM_MAX];
	const char *name;
	unsigned int i;
	size_t len;

	json_obj_open(j);
	json_kv_str(j, "probe", x->probe);
	if (h->o.by_comm)
		json_kv_strn(j, "comm", x->comm, sizeof(x->comm));
	json_kv_str(j, "value", "stack");
	name = rp_frame_func(x->addr, buf, &len);
	json_kv_strn(j, "function", name, len);
	json_key(j, "stack");
	json_arr_open(j);
	for (i = 0; i < x->n; i++) {
		name = rp_frame_func(x->frames[i], buf, &len);
		json_strn(j, name, len);
	}
	json_arr_close(j);
	json_kv_u64(j, "count", x->count);
	json_obj_close(j);
	json_end_doc(j);
}

/* -f svg, speedscope: the folded lines drawn */
static int rp_hstack_flame(struct rp_sink *s, const struct rp_hists *h)
{
	const struct rp_hstacks *t = &h->stacks;
	struct rp_flame f;
	size_t i;
	int err = 0;

	rp_flame_init(&f, "hist --stack");
	for (i = 0; !err && i < t->n; i++)
		err = rp_flame_add(&f, t->v[i]->folded,
				   strlen(t->v[i]->folded), t->v[i]->count);
	if (!err)
		err = rp_flame_write(&f, s->out, h->o.stacks ==
				     RP_HIST_STACKS_SVG ? RP_FLAME_SVG :
				     RP_FLAME_SPEEDSCOPE);
	rp_flame_free(&f);
	return err;
}

/* Folded lines, "stack count", for flamegraph.pl; or JSON, one a stack. */
static void rp_hstack_end(struct rp_sink *s)
{
	struct rp_hists *h = s->priv;
	struct rp_hstacks *t = &h->stacks;
	size_t i;

	s->err = rp_hstacks_merge(t, h->o.by_comm);
	if (!s->err && h->o.stacks >= RP_HIST_STACKS_SVG)
		s->err = rp_hstack_flame(s, h);
	if (s->err) {
		fprintf(stderr, "rawprobectl: hist: %s\n", strerror(-s->err));
		return;
	}
	for (i = 0; h->o.stacks < RP_HIST_STACKS_SVG && i < t->n; i++) {
		if (h->json)
			rp_hstack_json(&s->json, h, t->v[i]);
		else
			fprintf(s->out, "%s %" PRIu64 "\n", t->v[i]->folded,
				t->v[i]->count);
	}
	/* stderr: what goes to a flame graph stays stacks only */
	if (!t->n)
		fprintf(stderr, "rawprobectl: hist: no records\n");
	if (h->skipped)
		fprintf(stderr, "rawprobectl: hist: %" PRIu64 " records had "
			"no stack (probes without --stack): counted as their "
			"function alone\n", h->skipped);
	fflush(s->out);
}

/* Every histogram, sorted, as text or JSON. */
static void rp_hist_print_all(struct rp_sink *s, struct rp_hists *h)
{
	size_t i;

	if (h->n)	/* qsort(NULL, 0) is undefined */
		qsort(h->v, h->n, sizeof(*h->v), rp_hist_cmp);
	for (i = 0; i < h->n; i++) {
		if (h->json)
			rp_hist_json(&s->json, h, h->v[i]);
		else
			rp_hist_text(s->out, h, h->v[i]);
	}
}

static void rp_hist_end(struct rp_sink *s)
{
	struct rp_hists *h = s->priv;
	char vname[16];

	if (h->o.value == RP_HIST_STACK) {
		rp_hstack_end(s);
		return;
	}

	rp_hist_print_all(s, h);
	if (!h->json && !h->n)
		fprintf(s->out, "no records with a %s value\n",
			rp_hist_value_name(&h->o, vname, sizeof(vname)));
	if (h->skipped)
		fprintf(stderr, "rawprobectl: hist: %" PRIu64 " records had no "
			"%s (%s)\n", h->skipped,
			rp_hist_value_name(&h->o, vname, sizeof(vname)),
			h->o.value == RP_HIST_ARG ?
			"fewer arguments, or a string" :
			"not kretprobe returns");
	fflush(s->out);
}

/* --- histograms counted elsewhere: the kernel's (hist -i) --- */

int rp_hist_put(struct rp_sink *s, const struct rp_hist_counts *c)
{
	struct rp_hists *h = s->priv;
	char comm[RAWPROBE_COMM_LEN + 1] = "";
	struct rp_hist *x;
	size_t nb = c->nb < rp_hist_nb(h) ? c->nb : rp_hist_nb(h);

	if (c->comm)
		snprintf(comm, sizeof(comm), "%.*s", RAWPROBE_COMM_LEN, c->comm);
	x = rp_hist_find(h, c->probe, comm);
	if (!x)
		return -ENOMEM;
	memcpy(x->b, c->b, nb * sizeof(*c->b));
	x->count = c->count;
	x->neg = c->neg;
	x->over = c->over;
	if (c->over)
		x->over_at = c->over_at;
	x->is_signed = c->is_signed;
	x->min = c->min;
	x->max = c->max;
	x->sum = c->is_signed ? (__int128)c->sum : (__int128)(uint64_t)c->sum;
	return 0;
}

static void rp_hist_clear(struct rp_hists *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		free(h->v[i]);
	h->n = 0;
}

/*
 * One interval of hist -i: its time (text) or its number (JSON), the
 * histograms, and a clean slate for the next one.
 */
void rp_hist_print(struct rp_sink *s)
{
	struct rp_hists *h = s->priv;
	char when[16];
	time_t now = time(NULL);
	struct tm tm;

	h->interval++;
	if (!h->json) {
		strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
		fprintf(s->out, "%s\n", when);
	}
	rp_hist_print_all(s, h);
	rp_hist_clear(h);
	fflush(s->out);
}

static void rp_hist_free(struct rp_sink *s)
{
	struct rp_hists *h = s->priv;
	size_t i;

	rp_hist_clear(h);
	free(h->v);
	for (i = 0; i < h->stacks.n; i++)
		rp_hstack_free(h->stacks.v[i]);
	free(h->stacks.v);
	free(h->stacks.slots);
	free(h);
}

static const struct rp_sink_ops rp_hist_ops = {
	.record = rp_hist_record, .end = rp_hist_end, .free = rp_hist_free,
};

int rp_hist_sink_init(struct rp_sink *s, const struct rp_hist_opts *o,
		      FILE *out, bool json, bool pretty)
{
	struct rp_hists *h = calloc(1, sizeof(*h));

	memset(s, 0, sizeof(*s));
	if (!h)
		return -ENOMEM;
	h->o = *o;
	/* -f folded, svg, speedscope: stacks as asked, whatever -j says */
	h->json = json && o->stacks == RP_HIST_STACKS_TEXT;
	s->ops = &rp_hist_ops;
	s->out = out;
	s->priv = h;
	json_init(&s->json, out, pretty);
	return 0;
}
