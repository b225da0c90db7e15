// SPDX-License-Identifier: GPL-2.0
/*
 * count -f openmetrics: the aggregates in Prometheus' text exposition
 * format 0.0.4, the one node_exporter's textfile collector parses (its
 * parser and promtool's are the same, prometheus/common's expfmt). The
 * families, each with its HELP and TYPE once:
 *
 *   rawprobe_hits_total{probe, KEYS}		counter: hits counted by key
 *   rawprobe_dropped_hits_total{probe}		counter: hits of keys that
 *						found no room (--max-keys)
 * and with --stats VALUE, per key:
 *   rawprobe_V{probe, KEYS}			summary of _sum and _count;
 *						with --hist or --lhist a
 *						histogram (_bucket{le})
 *   rawprobe_V_min, rawprobe_V_max		gauges
 *
 * V is retval, latency_seconds, argN or arg_NAME: latency is measured in
 * nanoseconds and shown in seconds, Prometheus' base unit (promtool's
 * lint refuses "nanoseconds" in a name). No timestamps: the textfile
 * collector skips a file that has them.
 *
 * A key's value is the text that count's table shows (a command escaped
 * as escape.h says, so never a control byte nor invalid UTF-8, which
 * Prometheus refuses), then escaped as the format wants: backslash,
 * double quote and newline.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "out/openmetrics.h"
#include "out/stack.h"

#define RP_OM_NAME 64

struct rp_om {
	FILE *out;
	const struct rp_agg_view *v;
	const struct rp_agg_result *r;
	size_t n;				/* entries shown */
	char family[RP_OM_NAME + 16];		/* rawprobe_V */
	bool seconds;				/* V in ns, shown in seconds */
	char names[RP_AGG_VIEW_KEYS][RP_OM_NAME];	/* label names */
	char *probe;				/* probe_id="..",probe="..",
						 * escaped
						 */
	char **labels;				/* each entry's, escaped */
};

void rp_om_label_name(char *buf, size_t len, const char *name)
{
	static const char *const ours[] = { "probe", "probe_id", "le",
					    "quantile" };
	unsigned char c, prev = 0;
	size_t n = 0, i;
	bool gap = false;

	for (; *name && n + 2 < len; prev = c, name++) {
		c = (unsigned char)*name;
		if (c >= 0x80 || !isalnum(c)) {
			gap = n > 0;
			continue;
		}
		/* fooBar: a word begins (promtool's lint wants snake_case) */
		if (isupper(c) && (islower(prev) || isdigit(prev)) && n)
			gap = true;
		if (gap)
			buf[n++] = '_';
		buf[n++] = (char)tolower(c);
		gap = false;
	}
	buf[n] = '\0';
	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (!strcmp(buf, ours[i]))
			break;
	if (n && !isdigit((unsigned char)buf[0]) &&
	    i == sizeof(ours) / sizeof(ours[0]))
		return;
	if (!n) {
		snprintf(buf, len, "key");
		return;
	}
	/* "key_" and what fits of the rest */
	memmove(buf + 4, buf, n + 1 < len - 4 ? n + 1 : len - 4);
	memcpy(buf, "key_", 4);
	buf[len - 1] = '\0';
}

/* Label names for the keys, each once: a second "a_b" becomes "a_b_2". */
static void rp_om_names(struct rp_om *om)
{
	char name[RP_OM_NAME - 4];	/* room for "_2".."_4" */
	unsigned int i, k;

	for (i = 0; i < om->v->nkeys; i++) {
		rp_om_label_name(name, sizeof(name), om->v->names[i]);
		snprintf(om->names[i], RP_OM_NAME, "%s", name);
		for (k = 0; k < i; k++)
			if (!strcmp(om->names[k], om->names[i]))
				snprintf(om->names[i], RP_OM_NAME, "%s_%c",
					 name, (char)('1' + i));
	}
}

/* A label value: backslash, double quote and newline escaped. */
static void rp_om_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* A stack key's label: the stack folded, root first, as text shows it. */
static void rp_om_stack(FILE *f, const struct rp_om *om, size_t e,
			unsigned int i, const uint64_t **w)
{
	static char buf[RP_FOLDED_STACK_MAX + 1];
	char *p;

	(*w)++;
	p = rp_agg_put_stack(buf, om->v, om->r, e, i);
	*p = '\0';
	rp_om_escape(f, buf);
}

char *rp_om_probe_labels(const struct rp_agg_view *v)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	if (v->probe_id)
		fprintf(f, "probe_id=\"%u\",", v->probe_id);
	fputs("probe=\"", f);
	rp_om_escape(f, v->probe);
	fputc('"', f);
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/* Entry e's labels, probe="...",KEY="...": malloc'd, NULL if no memory. */
static char *rp_om_entry_labels(const struct rp_om *om, size_t e)
{
	const uint64_t *w = rp_agg_entry(om->r, e);
	char cell[RP_AGG_CELL], *s = NULL;
	size_t len = 0;
	unsigned int i;
	FILE *f;

	f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	fputs(om->probe, f);
	for (i = 0; i < om->v->nkeys; i++) {
		fprintf(f, ",%s=\"", om->names[i]);
		if (rp_agg_key_is_stack(om->v->keys[i]))
			rp_om_stack(f, om, e, i, &w);
		else
			rp_om_escape(f, rp_agg_key_str(om->v, i, &w, cell,
						       sizeof(cell)));
		fputc('"', f);
	}
	if (fclose(f)) {
		free(s);
		return NULL;
	}
	return s;
}

/* The value family's name: rawprobe_retval, _latency_seconds, _arg_len */
static void rp_om_family(struct rp_om *om)
{
	char name[RP_OM_NAME];
	bool argn;

	om->seconds = om->v->value_kind == RAWPROBE_AGG_VALUE_LATENCY;
	if (om->seconds) {
		snprintf(om->family, sizeof(om->family),
			 "rawprobe_latency_seconds");
		return;
	}
	rp_om_label_name(name, sizeof(name), om->v->value);
	if (om->v->value_kind == RAWPROBE_AGG_VALUE_RETVAL) {
		snprintf(om->family, sizeof(om->family), "rawprobe_retval");
		return;
	}
	/* argN as it is; a name of the user's after arg_ */
	argn = !strncmp(name, "arg", 3) && name[3] &&
	       strspn(name + 3, "0123456789") == strlen(name + 3);
	snprintf(om->family, sizeof(om->family), "rawprobe_%s%s",
		 argn ? "" : "arg_", name);
}

/* A value: an integer, or nanoseconds as seconds, exactly (no float). */
static void rp_om_num(FILE *out, int64_t x, bool seconds)
{
	uint64_t a = x < 0 ? -(uint64_t)x : (uint64_t)x;
	char frac[10];
	int n = 9;

	if (!seconds) {
		fprintf(out, "%" PRId64, x);
		return;
	}
	snprintf(frac, sizeof(frac), "%09" PRIu64, a % 1000000000);
	while (n && frac[n - 1] == '0')
		frac[--n] = '\0';
	fprintf(out, "%s%" PRIu64 "%s%s", x < 0 ? "-" : "", a / 1000000000,
		n ? "." : "", frac);
}

/*
 * The last bucket printed with a bound of its own, of every entry (one
 * layout for all, so that sum by (le) adds like with like): linear, all
 * but the last (open above: +Inf's); log2, up to the highest one that
 * counted (65 would be mostly zeros), never bucket 64 (up to INT64_MAX),
 * and the one below 0 only if some entry has a value there (*first).
 * SIZE_MAX: none.
 */
static size_t rp_om_last_bucket(const struct rp_om *om, size_t nb,
				size_t *first)
{
	const uint64_t *b;
	size_t e, i, last = 1;

	*first = 0;
	if (om->v->hist == RAWPROBE_AGG_HIST_LINEAR)
		return nb >= 2 ? nb - 2 : SIZE_MAX;
	*first = 1;
	for (e = 0; e < om->n; e++) {
		b = rp_agg_entry(om->r, e) + om->r->key_words + RP_AGG_W_BUCKETS;
		if (b[0])
			*first = 0;
		for (i = nb; i-- > last; )
			if (b[i]) {
				last = i;
				break;
			}
	}
	return last < 64 ? last : 63;
}

/*
 * Entry e's histogram, cumulative as Prometheus' is. Buckets are
 * [lo, hi) of integers, so "le" (at most) is hi - 1: [1024, 2048) is
 * le="2047"; log2's bucket 0 (below 0) is le="-1", its 1 (0) le="0".
 */
static void rp_om_hist(const struct rp_om *om, size_t e, size_t first,
		       size_t last)
{
	const uint64_t *val = rp_agg_entry(om->r, e) + om->r->key_words;
	const uint64_t *b = val + RP_AGG_W_BUCKETS;
	size_t i, nb = rp_agg_nbuckets(om->v, om->r);
	uint64_t cum = 0;
	bool olo, ohi;
	int64_t lo, hi;

	for (i = 0; i < nb; i++) {
		cum += b[i];
		if (last == SIZE_MAX || i > last || i < first)
			continue;
		rp_agg_bounds(om->v, i, nb, &lo, &hi, &olo, &ohi);
		fprintf(om->out, "%s_bucket{%s,le=\"", om->family,
			om->labels[e]);
		rp_om_num(om->out, hi - 1, om->seconds);
		fprintf(om->out, "\"} %" PRIu64 "\n", cum);
	}
	fprintf(om->out, "%s_bucket{%s,le=\"+Inf\"} %" PRIu64 "\n",
		om->family, om->labels[e], cum);
	fprintf(om->out, "%s_sum{%s} ", om->family, om->labels[e]);
	rp_om_num(om->out, (int64_t)val[RP_AGG_W_SUM], om->seconds);
	fprintf(om->out, "\n%s_count{%s} %" PRIu64 "\n", om->family,
		om->labels[e], cum);
}

/* --stats: the value's summary or histogram */
static void rp_om_value_samples(const struct rp_om *om)
{
	size_t e, first = 0, last = 0, nb = rp_agg_nbuckets(om->v, om->r);
	const uint64_t *val;

	if (nb)
		last = rp_om_last_bucket(om, nb, &first);
	for (e = 0; e < om->n; e++) {
		val = rp_agg_entry(om->r, e) + om->r->key_words;
		if (nb) {
			rp_om_hist(om, e, first, last);
			continue;
		}
		fprintf(om->out, "%s_sum{%s} ", om->family, om->labels[e]);
		rp_om_num(om->out, (int64_t)val[RP_AGG_W_SUM], om->seconds);
		fprintf(om->out, "\n%s_count{%s} %" PRIu64 "\n", om->family,
			om->labels[e], val[RP_AGG_W_COUNT]);
	}
}

/* --stats: the value's lowest (k 0) or highest (1), as gauges */
static void rp_om_extreme_samples(const struct rp_om *om, unsigned int k)
{
	const uint64_t *val;
	size_t e;

	for (e = 0; e < om->n; e++) {
		val = rp_agg_entry(om->r, e) + om->r->key_words;
		fprintf(om->out, "%s_%s{%s} ", om->family, k ? "max" : "min",
			om->labels[e]);
		rp_om_num(om->out, (int64_t)val[RP_AGG_W_MIN + k], om->seconds);
		fputc('\n', om->out);
	}
}

struct rp_om *rp_om_new(FILE *out, const struct rp_agg_view *v,
			const struct rp_agg_result *r)
{
	struct rp_om *om = calloc(1, sizeof(*om));
	size_t e;

	if (!om)
		return NULL;
	om->out = out;
	om->v = v;
	om->r = r;
	om->n = v->top && v->top < r->n ? v->top : r->n;
	om->probe = rp_om_probe_labels(v);
	om->labels = calloc(om->n ? om->n : 1, sizeof(*om->labels));
	if (!om->probe || !om->labels) {
		rp_om_free(om);
		return NULL;
	}
	rp_om_names(om);
	for (e = 0; e < om->n; e++)
		if (!(om->labels[e] = rp_om_entry_labels(om, e)))
			break;
	if (e < om->n) {
		fputs("rawprobectl: out of memory for the labels\n", stderr);
		om->n = e;	/* the entries that have theirs */
	}
	if (v->stats)
		rp_om_family(om);
	return om;
}

void rp_om_free(struct rp_om *om)
{
	size_t e;

	if (!om)
		return;
	for (e = 0; om->labels && e < om->n; e++)
		free(om->labels[e]);
	free(om->labels);
	free(om->probe);
	free(om);
}

bool rp_om_has(const struct rp_om *om, enum rp_om_part part)
{
	return part <= RP_OM_DROPPED || om->v->stats;
}

const char *rp_om_type(const struct rp_om *om, enum rp_om_part part)
{
	if (part <= RP_OM_DROPPED)
		return "counter";
	if (part == RP_OM_VALUE)
		return rp_agg_nbuckets(om->v, om->r) ? "histogram" : "summary";
	return "gauge";
}

void rp_om_name(const struct rp_om *om, enum rp_om_part part, char *buf,
		size_t len)
{
	static const char *const fixed[] = {
		[RP_OM_HITS] = "rawprobe_hits_total",
		[RP_OM_DROPPED] = "rawprobe_dropped_hits_total",
		[RP_OM_MIN] = "_min",
		[RP_OM_MAX] = "_max",
	};

	if (part <= RP_OM_DROPPED)
		snprintf(buf, len, "%s", fixed[part]);
	else
		snprintf(buf, len, "%s%s", om->family,
			 part == RP_OM_VALUE ? "" : fixed[part]);
}

void rp_om_rename(struct rp_om *om, const char *suffix)
{
	size_t n = strlen(om->family);

	snprintf(om->family + n, sizeof(om->family) - n, "%s", suffix);
}

void rp_om_head(const struct rp_om *om, enum rp_om_part part)
{
	char name[sizeof(om->family) + 8], help[200];

	rp_om_name(om, part, name, sizeof(name));
	if (part == RP_OM_HITS)
		snprintf(help, sizeof(help), "Hits of a rawprobe probe counted "
			 "in the kernel, by key (rawprobectl count)");
	else if (part == RP_OM_DROPPED)
		snprintf(help, sizeof(help), "Hits of a rawprobe probe whose "
			 "key found no room in its table (--max-keys), counted "
			 "under no key");
	else if (part == RP_OM_VALUE && om->seconds)
		snprintf(help, sizeof(help), "Time from entry to return at a "
			 "rawprobe kretprobe, or from a pair's start to its end, "
			 "by key (rawprobectl count --stats latency, latency)");
	else if (part == RP_OM_VALUE)
		snprintf(help, sizeof(help), "Values of %s at a rawprobe "
			 "probe's hits, by key (rawprobectl count --stats)",
			 om->family + strlen("rawprobe_"));
	else
		snprintf(help, sizeof(help), "The %s of %s since the start, "
			 "by key", part == RP_OM_MAX ? "highest" : "lowest",
			 om->family);
	fprintf(om->out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		rp_om_type(om, part));
}

void rp_om_samples(const struct rp_om *om, enum rp_om_part part)
{
	size_t e;

	switch (part) {
	case RP_OM_HITS:
		/*
		 * A keyless count has its one series from the start, at 0:
		 * Prometheus' increase() sees no rise in a series' first value
		 */
		if (!om->v->nkeys && !om->n)
			fprintf(om->out, "rawprobe_hits_total{%s} 0\n",
				om->probe);
		for (e = 0; e < om->n; e++)
			fprintf(om->out, "rawprobe_hits_total{%s} %" PRIu64 "\n",
				om->labels[e], rp_agg_entry(om->r, e)
				[om->r->key_words + RP_AGG_W_COUNT]);
		break;
	case RP_OM_DROPPED:
		fprintf(om->out, "rawprobe_dropped_hits_total{%s} %" PRIu64
			"\n", om->probe, om->r->dropped);
		break;
	case RP_OM_VALUE:
		rp_om_value_samples(om);
		break;
	default:
		rp_om_extreme_samples(om, part == RP_OM_MAX);
		break;
	}
}

void rp_agg_print_openmetrics(FILE *out, const struct rp_agg_view *v,
			      const struct rp_agg_result *r,
			      const struct rp_agg_totals *t)
{
	struct rp_om *om = rp_om_new(out, v, r);
	int part;

	(void)t;
	if (!om) {
		fputs("rawprobectl: out of memory for the labels\n", stderr);
		return;
	}
	for (part = 0; part < RP_OM_PARTS; part++) {
		if (!rp_om_has(om, part))
			continue;
		rp_om_head(om, part);
		rp_om_samples(om, part);
	}
	fputc('\n', out);
	fflush(out);
	rp_om_free(om);
}
