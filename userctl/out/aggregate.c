// SPDX-License-Identifier: GPL-2.0
/*
 * count's tables: per interval, the keys by count, highest first, as
 * bpftrace prints a map and funccount its table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "lib/escape.h"
#include "lib/symbols.h"
#include "out/aggregate.h"

#define RP_AGG_CELL (RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + RP_KSYM_MAX)

/* Key i of entry w as text; *w advances past its words. */
static const char *rp_agg_key_str(const struct rp_agg_view *v, unsigned int i,
				  const uint64_t **w, char *buf, size_t len)
{
	char comm[RAWPROBE_COMM_LEN + 1];
	uint64_t x = **w;

	(*w)++;
	switch (v->keys[i]) {
	case RAWPROBE_AGG_KEY_COMM:
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
	case RAWPROBE_AGG_KEY_ARG:
		if (v->argtypes[i] == RAWPROBE_ARG_PTR)
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

/* A key whose JSON value is a number (pid, cpu, an integer argument). */
static bool rp_agg_key_numeric(const struct rp_agg_view *v, unsigned int i)
{
	return v->keys[i] != RAWPROBE_AGG_KEY_COMM &&
	       v->keys[i] != RAWPROBE_AGG_KEY_CALLER &&
	       !(v->keys[i] == RAWPROBE_AGG_KEY_ARG &&
		 v->argtypes[i] == RAWPROBE_ARG_PTR);
}

static double rp_agg_secs(const struct rp_agg_result *r)
{
	return r->end_ns > r->start_ns ? (r->end_ns - r->start_ns) / 1e9 : 0;
}

static void rp_agg_text_head(FILE *out, const struct rp_agg_view *v,
			     const struct rp_agg_result *r)
{
	char when[16];
	time_t now = time(NULL);
	struct tm tm;
	unsigned int i;

	strftime(when, sizeof(when), "%H:%M:%S", localtime_r(&now, &tm));
	fprintf(out, "%s  %.3f s  %s  %" PRIu64 " hits, %" PRIu64
		" dropped\n", when, rp_agg_secs(r), v->probe, r->hits,
		r->dropped);
	fprintf(out, "%12s", "COUNT");
	if (v->stats)
		fprintf(out, " %14s %12s %12s %12s", "SUM", "MIN", "MAX", "MEAN");
	for (i = 0; i < v->nkeys; i++)
		fprintf(out, "  %s", v->names[i]);
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

	rp_agg_text_head(out, v, r);
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
	if (t)
		fprintf(out, "total: %" PRIu64 " hits, %" PRIu64 " counted, %"
			PRIu64 " dropped\n", t->hits, t->counted, t->dropped);
	fputc('\n', out);
	fflush(out);
}

static void rp_agg_json_entry(struct json *j, const struct rp_agg_view *v,
			      const struct rp_agg_result *r, size_t e)
{
	const uint64_t *w = rp_agg_entry(r, e), *val = w + r->key_words, *k;
	char cell[RP_AGG_CELL];
	unsigned int i;

	json_obj_open(j);
	for (i = 0; i < v->nkeys; i++) {
		k = w;
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
		json_obj_close(j);
	}
	json_obj_close(j);
	json_end_doc(j);
}
