// SPDX-License-Identifier: GPL-2.0
/*
 * count's tables: per interval, the keys by count, highest first, as
 * bpftrace prints a map and funccount its table.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/escape.h"
#include "lib/symbols.h"
#include "out/aggregate.h"
#include "out/flame.h"
#include "out/stack.h"

/* A string key's text (escaped), its words read; *w is past the first. */
/* An enum's or a bool's key by name, as trace prints them: 1 if it is */
static int rp_agg_key_label(const struct rp_agg_view *v, unsigned int i,
			    uint64_t x, char *buf, size_t len)
{
	size_t n;
	/* (a start's argument is not one of this probe's) */
	const char *l = v->desc && v->keys[i] == RAWPROBE_AGG_KEY_ARG ?
			rp_label(v->desc, v->argidx[i], v->argtypes[i], x, &n) :
			NULL;

	if (!l)
		return 0;
	snprintf(buf, len, "%.*s", (int)n, l);
	return 1;
}

static const char *rp_agg_key_text(char *buf, size_t len, const uint64_t **w)
{
	char s[RAWPROBE_AGG_STR_KEY_LEN + 1];

	memcpy(s, *w - 1, RAWPROBE_AGG_STR_KEY_LEN);
	s[RAWPROBE_AGG_STR_KEY_LEN] = '\0';
	*w += RAWPROBE_AGG_STR_KEY_LEN / 8 - 1;
	return rp_escape_str(buf, len, s, strnlen(s, RAWPROBE_AGG_STR_KEY_LEN));
}

const char *rp_agg_key_str(const struct rp_agg_view *v, unsigned int i,
				  const uint64_t **w, char *buf, size_t len)
{
	char comm[RAWPROBE_COMM_LEN + 1];
	uint64_t x = **w;

	(*w)++;
	switch (v->keys[i]) {
	case RAWPROBE_AGG_KEY_COMM:
	case RAWPROBE_AGG_KEY_START_COMM:
		memcpy(comm, *w - 1, RAWPROBE_COMM_LEN);
		comm[RAWPROBE_COMM_LEN] = '\0';
		(*w)++;
		return rp_escape_str(buf, len, comm, RAWPROBE_COMM_LEN);
	case RAWPROBE_AGG_KEY_CALLER:
		rp_ksym_format(x, buf, len);
		if (!buf[0])
			snprintf(buf, len, "0x%" PRIx64, x);
		return buf;
	case RAWPROBE_AGG_KEY_RETVAL:
		snprintf(buf, len, "%" PRId64, (int64_t)x);
		return buf;
	case RP_AGG_KEY_FUNC:
		snprintf(buf, len, "%s", x < v->nfuncs ? v->funcs[x] : "?");
		return buf;
	case RAWPROBE_AGG_KEY_ARG:
	case RAWPROBE_AGG_KEY_START_ARG:
		if (v->argtypes[i] == RAWPROBE_ARG_KSTR ||
		    v->argtypes[i] == RAWPROBE_ARG_USTR)
			return rp_agg_key_text(buf, len, w);
		if (v->argtypes[i] == RAWPROBE_ARG_IP6) {
			if (!inet_ntop(AF_INET6, *w - 1, buf, (socklen_t)len))
				buf[0] = '\0';
			(*w)++;
			return buf;
		}
		if (rp_agg_key_label(v, i, x, buf, len))
			return buf;
		if (rp_argtype_is_fmt(v->argtypes[i])) {
			char tmp[RP_FMT_VALUE_MAX];

			rp_fmt_value(tmp, v->argtypes[i], x);
			snprintf(buf, len, "%s", tmp);
		} else if (v->argtypes[i] == RAWPROBE_ARG_PTR)
			snprintf(buf, len, "0x%" PRIx64, x);
		else if (v->argtypes[i] == RAWPROBE_ARG_U64 ||
			 v->argtypes[i] == RAWPROBE_ARG_U32)
			snprintf(buf, len, "%" PRIu64, x);
		else
			snprintf(buf, len, "%" PRId64, (int64_t)x);
		return buf;
	default:
		snprintf(buf, len, "%" PRIu64, x);
		return buf;
	}
}

void rp_agg_view_func_key(struct rp_agg_view *v, const char *const *funcs,
			  size_t n)
{
	memmove(v->keys + 1, v->keys, v->nkeys * sizeof(v->keys[0]));
	memmove(v->argtypes + 1, v->argtypes, v->nkeys * sizeof(v->argtypes[0]));
	memmove(v->argidx + 1, v->argidx, v->nkeys * sizeof(v->argidx[0]));
	memmove(v->names + 1, v->names, v->nkeys * sizeof(v->names[0]));
	v->keys[0] = RP_AGG_KEY_FUNC;
	v->argtypes[0] = 0;
	v->argidx[0] = 0;
	v->desc = NULL;		/* one desc a function: labels are one's */
	v->names[0] = "func";
	v->nkeys++;
	v->funcs = funcs;
	v->nfuncs = n;
}

/* A key whose JSON value is a number (pid, cpu, an integer argument). */
static bool rp_agg_key_numeric(const struct rp_agg_view *v, unsigned int i)
{
	return v->keys[i] != RAWPROBE_AGG_KEY_COMM &&
	       v->keys[i] != RAWPROBE_AGG_KEY_START_COMM &&
	       v->keys[i] != RAWPROBE_AGG_KEY_CALLER &&
	       v->keys[i] != RP_AGG_KEY_FUNC &&
	       !rp_agg_key_is_stack(v->keys[i]) &&
	       !((v->keys[i] == RAWPROBE_AGG_KEY_ARG ||
		  v->keys[i] == RAWPROBE_AGG_KEY_START_ARG) &&
		 (v->argtypes[i] == RAWPROBE_ARG_PTR ||
		  v->argtypes[i] == RAWPROBE_ARG_KSTR ||
		  v->argtypes[i] == RAWPROBE_ARG_USTR ||
		  v->argtypes[i] == RAWPROBE_ARG_IP6 ||
		  rp_argtype_is_fmt(v->argtypes[i])));
}

static double rp_agg_secs(const struct rp_agg_result *r)
{
	return r->end_ns > r->start_ns ? (r->end_ns - r->start_ns) / 1e9 : 0;
}

/* --- histograms (--hist, --lhist): bpftrace's bars --- */

#define RP_AGG_BAR 52

size_t rp_agg_nbuckets(const struct rp_agg_view *v,
		       const struct rp_agg_result *r)
{
	return v->hist && r->val_words > RP_AGG_W_BUCKETS ?
	       r->val_words - RP_AGG_W_BUCKETS : 0;
}

void rp_agg_bounds(const struct rp_agg_view *v, size_t b, size_t nb,
		   int64_t *lo, int64_t *hi, bool *open_lo, bool *open_hi)
{
	*open_lo = b == 0;
	*open_hi = v->hist == RAWPROBE_AGG_HIST_LINEAR && b == nb - 1;
	if (v->hist == RAWPROBE_AGG_HIST_LOG2) {
		/* (..., 0), [0, 1), [1, 2), [2, 4), ... [2^62, INT64_MAX] */
		*lo = b >= 2 ? (int64_t)1 << (b - 2) : b ? 0 : INT64_MIN;
		*hi = b == 64 ? INT64_MAX : b >= 2 ? (int64_t)1 << (b - 1) :
		      (int64_t)b;
		return;
	}
	*lo = v->lin_min + (int64_t)(b * v->lin_step);
	*hi = *lo + (int64_t)v->lin_step;
}

/* 1024-based suffixes, as bpftrace labels its buckets */
static void rp_agg_num(char *buf, size_t len, int64_t x)
{
	static const char suffix[] = "KMGTPE";
	unsigned int i = 0;

	while (x >= 1024 && !(x & 1023) && i < sizeof(suffix) - 1) {
		x /= 1024;
		i++;
	}
	if (i)
		snprintf(buf, len, "%" PRId64 "%c", x, suffix[i - 1]);
	else
		snprintf(buf, len, "%" PRId64, x);
}

static void rp_agg_text_hist(FILE *out, const struct rp_agg_view *v,
			     const uint64_t *b, size_t nb)
{
	size_t i, first = nb, last = 0;
	uint64_t top = 0;
	char lo[24], hi[24], label[64];
	bool olo, ohi;
	int64_t l, h;

	for (i = 0; i < nb; i++) {
		if (!b[i])
			continue;
		first = first < i ? first : i;
		last = i;
		top = b[i] > top ? b[i] : top;
	}
	for (i = first; i <= last && i < nb; i++) {
		rp_agg_bounds(v, i, nb, &l, &h, &olo, &ohi);
		rp_agg_num(lo, sizeof(lo), l);
		rp_agg_num(hi, sizeof(hi), h);
		snprintf(label, sizeof(label), "%s%s, %s)", olo ? "(..." : "[",
			 olo ? "" : lo, ohi ? "..." : hi);
		fprintf(out, "%-20s %8" PRIu64 " |%-*.*s|\n", label, b[i],
			RP_AGG_BAR, (int)(top ? b[i] * RP_AGG_BAR / top : 0),
			"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@");
	}
}

static void rp_agg_json_hist(struct json *j, const struct rp_agg_view *v,
			     const uint64_t *b, size_t nb)
{
	bool olo, ohi;
	int64_t l, h;
	size_t i;

	json_key(j, "buckets");
	json_arr_open(j);
	for (i = 0; i < nb; i++) {
		if (!b[i])
			continue;
		rp_agg_bounds(v, i, nb, &l, &h, &olo, &ohi);
		json_obj_open(j);
		if (!olo)
			json_kv_s64(j, "lo", l);
		if (!ohi)
			json_kv_s64(j, "hi", h);
		json_kv_u64(j, "count", b[i]);
		json_obj_close(j);
	}
	json_arr_close(j);
}

bool rp_agg_has_stack(const struct rp_agg_view *v)
{
	unsigned int i;

	for (i = 0; i < v->nkeys; i++)
		if (rp_agg_key_is_stack(v->keys[i]))
			return true;
	return false;
}

char *rp_agg_put_stack(char *p, const struct rp_agg_view *v,
		       const struct rp_agg_result *r, size_t e, unsigned int i)
{
	const struct rp_agg_stack *st = rp_agg_stack_of(r, rp_agg_entry(r, e));
	/* a start's stack has its function in it: no leaf to add */
	uint64_t addr = v->keys[i] == RAWPROBE_AGG_KEY_STACK ? v->addr : 0;

	if (st)
		return rp_put_folded_stack(p, addr, st->frames, st->n);
	return addr ? rp_put_folded_name(p, addr) : rp_put(p, "[unknown]", 9);
}

/* The interval's first line: when, how long, what, how many. */
static void rp_agg_text_when(FILE *out, const struct rp_agg_view *v,
			     const struct rp_agg_result *r)
{
	char when[16];
	time_t now = time(NULL);
	struct tm tm;

	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
	fprintf(out, "%s  %.3f s  %s  %" PRIu64 " hits, %" PRIu64
		" dropped\n", when, rp_agg_secs(r), v->probe, r->hits,
		r->dropped);
}

static void rp_agg_text_total(FILE *out, const struct rp_agg_totals *t)
{
	fprintf(out, "total: %" PRIu64 " hits, %" PRIu64 " counted, %" PRIu64
		" dropped", t->hits, t->counted, t->dropped);
	if (t->at_return && t->in_flight)
		fprintf(out, ", %" PRIu64 " in flight at the end (not counted)",
			t->in_flight);
	fputc('\n', out);
}

/* The most a folded line of the keys takes: the stack, the others' text. */
#define RP_AGG_FOLDED_MAX	(RP_FOLDED_STACK_MAX + RAWPROBE_AGG_MAX_KEYS * \
				 (RP_ESCAPED_MAX(RP_AGG_CELL) + 1) + \
				 RP_U64_DIGITS_MAX + 2)

/* Key i of entry e, folded at p; *w advances past its words. */
static char *rp_agg_fold_key(char *p, const struct rp_agg_view *v,
			     const struct rp_agg_result *r, size_t e,
			     unsigned int i, const uint64_t **w)
{
	char cell[RP_AGG_CELL];

	switch (v->keys[i]) {
	case RAWPROBE_AGG_KEY_STACK:
	case RAWPROBE_AGG_KEY_START_STACK:
		(*w)++;
		return rp_agg_put_stack(p, v, r, e, i);
	case RAWPROBE_AGG_KEY_COMM:	/* raw: folding escapes it */
	case RAWPROBE_AGG_KEY_START_COMM:
		p = rp_put_folded_str(p, (const char *)*w, RAWPROBE_COMM_LEN);
		*w += 2;
		return p;
	default:
		return rp_put_folded_str(p, rp_agg_key_str(v, i, w, cell,
							   sizeof(cell)),
					 sizeof(cell));
	}
}

/* Entry e's keys folded into line: "KEYS;root;...;function"; its length */
static size_t rp_agg_fold_entry(char *line, const struct rp_agg_view *v,
				const struct rp_agg_result *r, size_t e,
				const uint64_t **w)
{
	unsigned int i;
	char *p = line;

	*w = rp_agg_entry(r, e);
	for (i = 0; i < v->nkeys; i++) {
		if (i)
			*p++ = ';';
		p = rp_agg_fold_key(p, v, r, e, i, w);
	}
	return (size_t)(p - line);
}

/* --by ...stack: "KEYS;root;...;function COUNT" per key, for flamegraph.pl */
static void rp_agg_print_folded(FILE *out, const struct rp_agg_view *v,
				const struct rp_agg_result *r, size_t n)
{
	static char line[RP_AGG_FOLDED_MAX];
	const uint64_t *w;
	size_t e, len;

	for (e = 0; e < n; e++) {
		len = rp_agg_fold_entry(line, v, r, e, &w);
		fprintf(out, "%.*s %" PRIu64 "\n", (int)len, line,
			w[RP_AGG_W_COUNT]);
	}
}

/* The same lines drawn: a flame graph, or speedscope's profile */
static int rp_agg_print_flame(FILE *out, int fmt, const struct rp_agg_view *v,
			      const struct rp_agg_result *r, size_t n)
{
	static char line[RP_AGG_FOLDED_MAX];
	struct rp_flame f;
	const uint64_t *w;
	size_t e, len;
	int err = 0;

	rp_flame_init(&f, v->probe);
	for (e = 0; !err && e < n; e++) {
		len = rp_agg_fold_entry(line, v, r, e, &w);
		err = rp_flame_add(&f, line, len, w[RP_AGG_W_COUNT]);
	}
	if (!err)
		err = rp_flame_write(&f, out, fmt);
	rp_flame_free(&f);
	return err;
}

int rp_agg_print_stacks(FILE *out, int flame, const struct rp_agg_view *v,
			const struct rp_agg_result *r,
			const struct rp_agg_totals *t)
{
	size_t n = v->top && v->top < r->n ? v->top : r->n;
	int err = 0;

	rp_agg_text_when(stderr, v, r);
	if (flame < 0)
		rp_agg_print_folded(out, v, r, n);
	else
		err = rp_agg_print_flame(out, flame, v, r, n);
	if (err)
		fprintf(stderr, "rawprobectl: flame graph: %s\n",
			strerror(-err));
	if (t)
		rp_agg_text_total(stderr, t);
	fflush(out);
	return err;
}

static void rp_agg_text_head(FILE *out, const struct rp_agg_view *v,
			     const struct rp_agg_result *r)
{
	unsigned int i;

	rp_agg_text_when(out, v, r);
	fprintf(out, "%12s", "COUNT");
	if (v->stats)
		fprintf(out, " %14s %12s %12s %12s", "SUM", "MIN", "MAX", "MEAN");
	for (i = 0; i < v->nkeys; i++)
		fprintf(out, "  %s", v->names[i]);
	fputc('\n', out);
}

/*
 * The probe is disarmed before the last read, so no hit comes after it:
 * a hit its filters passed that is in no interval is a call whose return
 * had not come by then (a task asleep in the function). Waiting for it
 * could take for ever; it is told, not counted.
 */
void rp_agg_totals_in_flight(struct rp_agg_totals *t)
{
	uint64_t seen = t->counted + t->dropped;

	t->at_return = true;
	t->in_flight = t->hits > seen ? t->hits - seen : 0;
}

/*
 * A count with no key and no hit yet has no entry; its row says 0, as
 * bpftrace's count() prints 0 (a sum, a minimum of nothing: "-").
 */
static void rp_agg_text_zero(FILE *out, const struct rp_agg_view *v)
{
	fprintf(out, "%12d", 0);
	if (v->stats)
		fprintf(out, " %14s %12s %12s %12s", "-", "-", "-", "-");
	fputc('\n', out);
}

void rp_agg_print_text(FILE *out, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t)
{
	char cell[RP_AGG_CELL];
	const uint64_t *w, *val;
	unsigned int i;
	size_t e, n = v->top && v->top < r->n ? v->top : r->n;

	if (rp_agg_has_stack(v)) {
		rp_agg_print_stacks(out, -1, v, r, t);
		return;
	}
	rp_agg_text_head(out, v, r);
	if (!r->n && !v->nkeys)		/* a keyless count's quiet interval */
		rp_agg_text_zero(out, v);
	for (e = 0; e < n; e++) {
		w = rp_agg_entry(r, e);
		val = w + r->key_words;
		fprintf(out, "%12" PRIu64, val[RP_AGG_W_COUNT]);
		if (v->stats)
			fprintf(out, " %14" PRId64 " %12" PRId64 " %12" PRId64
				" %12" PRId64, (int64_t)val[RP_AGG_W_SUM],
				(int64_t)val[RP_AGG_W_MIN],
				(int64_t)val[RP_AGG_W_MAX],
				(int64_t)val[RP_AGG_W_SUM] /
				(int64_t)(val[RP_AGG_W_COUNT] ?: 1));
		for (i = 0; i < v->nkeys; i++)
			fprintf(out, "  %s", rp_agg_key_str(v, i, &w, cell,
							    sizeof(cell)));
		fputc('\n', out);
	}
	if (n < r->n)
		fprintf(out, "%12s  (%zu more keys)\n", "...", r->n - n);
	for (e = 0; rp_agg_nbuckets(v, r) && e < n; e++) {
		w = rp_agg_entry(r, e);
		val = w + r->key_words;
		fputs("\n@[", out);
		for (i = 0; i < v->nkeys; i++)
			fprintf(out, "%s%s", i ? ", " : "",
				rp_agg_key_str(v, i, &w, cell, sizeof(cell)));
		fprintf(out, "]: %s\n", v->value);
		rp_agg_text_hist(out, v, val + RP_AGG_W_BUCKETS,
				 rp_agg_nbuckets(v, r));
	}
	if (t)
		rp_agg_text_total(out, t);
	fputc('\n', out);
	fflush(out);
}

static void rp_agg_json_entry(struct json *j, const struct rp_agg_view *v,
			      const struct rp_agg_result *r, size_t e)
{
	const uint64_t *w = rp_agg_entry(r, e), *val = w + r->key_words, *k;
	const struct rp_agg_stack *st;
	char cell[RP_AGG_CELL];
	unsigned int i;

	json_obj_open(j);
	for (i = 0; i < v->nkeys; i++) {
		k = w;
		if (rp_agg_key_is_stack(v->keys[i])) {
			st = rp_agg_stack_of(r, rp_agg_entry(r, e));
			rp_stack_json_as(j, v->names[i], st ? st->frames : NULL,
					 st ? st->n : 0);
			w++;
			continue;
		}
		rp_agg_key_str(v, i, &w, cell, sizeof(cell));
		if (!rp_agg_key_numeric(v, i))
			json_kv_str(j, v->names[i], cell);
		else if (v->keys[i] == RAWPROBE_AGG_KEY_PID ||
			 v->keys[i] == RAWPROBE_AGG_KEY_TGID ||
			 v->keys[i] == RAWPROBE_AGG_KEY_CPU ||
			 v->argtypes[i] == RAWPROBE_ARG_U64 ||
			 v->argtypes[i] == RAWPROBE_ARG_U32)
			json_kv_u64(j, v->names[i], *k);
		else
			json_kv_s64(j, v->names[i], (int64_t)*k);
	}
	json_kv_u64(j, "count", val[RP_AGG_W_COUNT]);
	if (v->stats) {
		json_kv_s64(j, "sum", (int64_t)val[RP_AGG_W_SUM]);
		json_kv_s64(j, "min", (int64_t)val[RP_AGG_W_MIN]);
		json_kv_s64(j, "max", (int64_t)val[RP_AGG_W_MAX]);
	}
	if (rp_agg_nbuckets(v, r))
		rp_agg_json_hist(j, v, val + RP_AGG_W_BUCKETS,
				 rp_agg_nbuckets(v, r));
	json_obj_close(j);
}

void rp_agg_print_json(struct json *j, const struct rp_agg_view *v,
		       const struct rp_agg_result *r,
		       const struct rp_agg_totals *t)
{
	size_t e, n = v->top && v->top < r->n ? v->top : r->n;

	json_obj_open(j);
	json_kv_str(j, "probe", v->probe);
	json_key(j, "interval");
	json_obj_open(j);
	json_kv_u64(j, "start_ns", r->start_ns);
	json_kv_u64(j, "end_ns", r->end_ns);
	json_kv_u64(j, "hits", r->hits);
	json_kv_u64(j, "dropped", r->dropped);
	json_kv_u64(j, "keys", r->n);
	json_obj_close(j);
	if (v->stats)
		json_kv_str(j, "value", v->value);
	json_key(j, "entries");
	json_arr_open(j);
	for (e = 0; e < n; e++)
		rp_agg_json_entry(j, v, r, e);
	json_arr_close(j);
	if (t) {
		json_key(j, "total");
		json_obj_open(j);
		json_kv_u64(j, "hits", t->hits);
		json_kv_u64(j, "counted", t->counted);
		json_kv_u64(j, "dropped", t->dropped);
		if (t->at_return)
			json_kv_u64(j, "in_flight", t->in_flight);
		json_obj_close(j);
	}
	json_obj_close(j);
	json_end_doc(j);
}
