// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl serve's metrics: what a scrape reads and prints.
 *
 * A probe's counts are read as agg show reads them, an interval that the
 * read ends (AGG_READ), so each scrape's interval is added to the run's
 * in user space (rp_agg_accumulate(), as count -i -f openmetrics does):
 * every hit is counted once, and a counter never goes back. The probe's
 * statistics (hits, records, lost, filtered) are the kernel's running
 * totals, which 'probe reset' or a module reload zero: a value below the
 * last one is a reset, the last one is kept as a base under the new, so
 * the counter goes on growing (what the reset's interval counted before
 * the next scrape is not seen).
 *
 * A probe is known by its id and what it is (kind, target, keys, value):
 * the id is a label, so a new probe is a new series. Ids are handed out
 * in turn and come back only when the module is loaded again; a probe
 * that comes back under its old id and target (the same config, after a
 * reload) takes up its old counters, kept for RP_EXP_GONE_MAX probes
 * gone, and they go on growing. A probe gone is no longer exported.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/names.h"
#include "lib/probe_nl.h"
#include "out/count.h"
#include "out/exporter.h"
#include "out/openmetrics.h"

/* The statistics exported, each a counter of its own or a cause of lost */
enum { RP_EXP_HITS, RP_EXP_RECORDS, RP_EXP_LOST_RING, RP_EXP_LOST_MAXACTIVE,
       RP_EXP_LOST_RECURSION, RP_EXP_FILTERED, RP_EXP_NSTATS };

struct rp_exp_probe {
	struct rp_probe_info pi;	/* as the last scrape found it */
	char target[RP_TARGET_MAX + 16];	/* "kprobe:vfs_read" */
	bool live;			/* in the last scrape's list */
	uint64_t gone;			/* the scrape it went at */
	uint64_t last[RP_EXP_NSTATS];	/* the kernel's, last read */
	uint64_t base[RP_EXP_NSTATS];	/* what resets took away */
	bool counting;			/* RAWPROBE_F_AGG: acc holds the run */
	struct rp_agg_result acc;
	struct rp_count_names names;	/* the view's */
	struct rp_agg_view view;
	struct rp_om *om;		/* this scrape's */
};

struct rp_exporter {
	struct rp_exp_probe **p;
	size_t n, cap;
	uint32_t *own;			/* the --config's probes */
	size_t nown;
	uint64_t scrapes;
	uint64_t read_errors;		/* AGG_READs that failed */
	bool up;
};

struct rp_exporter *rp_exporter_new(void)
{
	return calloc(1, sizeof(struct rp_exporter));
}

static void rp_exp_probe_free(struct rp_exp_probe *p)
{
	rp_om_free(p->om);
	rp_agg_result_free(&p->acc);
	free(p);
}

void rp_exporter_free(struct rp_exporter *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++)
		rp_exp_probe_free(x->p[i]);
	free(x->p);
	free(x->own);
	free(x);
}

int rp_exporter_own(struct rp_exporter *x, const uint32_t *ids, size_t n)
{
	uint32_t *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	if (n)
		memcpy(v, ids, n * sizeof(*ids));
	free(x->own);
	x->own = v;
	x->nown = n;
	return 0;
}

/* Persistent, or the exporter's: others' probes go with their command */
static bool rp_exp_wanted(const struct rp_exporter *x,
			  const struct rp_probe_info *pi)
{
	size_t i;

	if (pi->flags & RAWPROBE_F_PERSISTENT)
		return true;
	for (i = 0; i < x->nown; i++)
		if (x->own[i] == pi->id)
			return true;
	return false;
}

/* The same probe: its id, what it probes, and what it counts by */
static bool rp_exp_same(const struct rp_exp_probe *p,
			const struct rp_probe_info *pi, const char *target)
{
	const struct rp_agg_req *a = &p->pi.agg, *b = &pi->agg;

	return p->pi.id == pi->id && !strcmp(p->target, target) &&
	       (p->pi.flags & RAWPROBE_F_AGG) == (pi->flags & RAWPROBE_F_AGG) &&
	       a->nkeys == b->nkeys && !memcmp(a->keys, b->keys, a->nkeys) &&
	       !memcmp(a->key_args, b->key_args, a->nkeys) &&
	       a->value_kind == b->value_kind && a->value_arg == b->value_arg &&
	       a->hist == b->hist && a->lin_buckets == b->lin_buckets &&
	       a->lin_min == b->lin_min && a->lin_step == b->lin_step;
}

static struct rp_exp_probe *rp_exp_find(struct rp_exporter *x,
					const struct rp_probe_info *pi,
					const char *target)
{
	struct rp_exp_probe *p;
	size_t i;

	for (i = 0; i < x->n; i++)
		if (rp_exp_same(x->p[i], pi, target))
			return x->p[i];
	if (x->n == x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 16;
		struct rp_exp_probe **v = realloc(x->p, cap * sizeof(*v));

		if (!v)
			return NULL;
		x->p = v;
		x->cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	snprintf(p->target, sizeof(p->target), "%s", target);
	p->counting = pi->flags & RAWPROBE_F_AGG;
	p->acc.stack_word = -1;
	x->p[x->n++] = p;
	return p;
}

/* The kernel's totals now; a fall is a reset, kept under the new */
static void rp_exp_stats(struct rp_exp_probe *p, const struct rp_probe_info *pi)
{
	const uint64_t now[RP_EXP_NSTATS] = {
		pi->hits, pi->records, pi->lost_ring, pi->miss_maxactive,
		pi->miss_recursion, pi->filtered,
	};
	unsigned int i;

	for (i = 0; i < RP_EXP_NSTATS; i++) {
		if (now[i] < p->last[i])
			p->base[i] += p->last[i];
		p->last[i] = now[i];
	}
}

/* The interval since the last scrape, added to the run's */
static void rp_exp_read(struct rp_exporter *x, struct rp_nl *nl,
			struct rp_exp_probe *p)
{
	struct rp_probe_req req;
	struct rp_agg_result r;
	int err;

	err = rp_agg_fetch(nl, p->pi.id, &r);
	if (!err) {
		err = rp_agg_accumulate(&p->acc, &r);
		rp_agg_result_free(&r);
	}
	if (err)
		x->read_errors++;
	rp_agg_req_of_info(&p->pi, &req);
	rp_count_view(&req, p->target, 0, &p->names, &p->view);
	p->view.probe_id = p->pi.id;
	p->view.addr = p->pi.probed_addr;
}

/* The list read: who is there, each one's totals and counts */
/* KIND:TARGET, what tells a kprobe from a kretprobe on one function */
static void rp_exp_target(const struct rp_probe_info *pi, char *buf,
			  size_t len)
{
	int n = snprintf(buf, len, "%s:", rp_kind_name(pi->kind));

	rp_probe_target(pi, buf + n, len - (size_t)n);
}

static int rp_exp_update(struct rp_exporter *x, struct rp_nl *nl)
{
	char target[RP_TARGET_MAX + 16];
	struct rp_probe_info *v;
	struct rp_exp_probe *p;
	size_t n, i;
	int err;

	err = rp_probe_dump(nl, &v, &n);
	if (err)
		return err;
	for (i = 0; i < x->n; i++)
		x->p[i]->live = false;
	for (i = 0; i < n; i++) {
		if (!rp_exp_wanted(x, &v[i]))
			continue;
		rp_exp_target(&v[i], target, sizeof(target));
		p = rp_exp_find(x, &v[i], target);
		if (!p)
			continue;
		p->pi = v[i];
		p->live = true;
		rp_exp_stats(p, &v[i]);
		if (p->counting)
			rp_exp_read(x, nl, p);
	}
	free(v);
	return 0;
}

/* The oldest gone probes forgotten, past RP_EXP_GONE_MAX of them */
static void rp_exp_forget(struct rp_exporter *x)
{
	size_t i, out, gone = 0;
	uint64_t cut = x->scrapes;

	for (i = 0; i < x->n; i++) {
		if (!x->p[i]->live && !x->p[i]->gone)
			x->p[i]->gone = x->scrapes;
		gone += !x->p[i]->live;
	}
	/* a scrape's worth at a time: the cut is raised until enough go */
	while (gone > RP_EXP_GONE_MAX) {
		cut = UINT64_MAX;
		for (i = 0; i < x->n; i++)
			if (!x->p[i]->live && x->p[i]->gone < cut)
				cut = x->p[i]->gone;
		for (i = out = 0; i < x->n; i++) {
			if (!x->p[i]->live && x->p[i]->gone == cut) {
				rp_exp_probe_free(x->p[i]);
				gone--;
				continue;
			}
			x->p[out++] = x->p[i];
		}
		x->n = out;
	}
	for (i = 0; i < x->n; i++)
		if (x->p[i]->live)
			x->p[i]->gone = 0;
}

/* --- the exposition --- */

static void rp_exp_head(FILE *out, const char *name, const char *type,
			const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A statistic of every live probe, under one family */
static void rp_exp_stat_family(const struct rp_exporter *x, FILE *out,
			       const char *name, const char *help,
			       unsigned int first, unsigned int last)
{
	static const char *const cause[] = { "ring", "maxactive", "recursion" };
	const struct rp_exp_probe *p;
	struct rp_agg_view v;
	unsigned int k;
	char *labels;
	size_t i;

	rp_exp_head(out, name, "counter", help);
	for (i = 0; i < x->n; i++) {
		p = x->p[i];
		if (!p->live)
			continue;
		memset(&v, 0, sizeof(v));
		v.probe = p->target;
		v.probe_id = p->pi.id;
		labels = rp_om_probe_labels(&v);
		for (k = first; labels && k <= last; k++) {
			fprintf(out, "%s{%s", name, labels);
			if (first != last)
				fprintf(out, ",cause=\"%s\"",
					cause[k - RP_EXP_LOST_RING]);
			fprintf(out, "} %" PRIu64 "\n", p->base[k] + p->last[k]);
		}
		free(labels);
	}
}

static void rp_exp_stats_print(const struct rp_exporter *x, FILE *out)
{
	rp_exp_stat_family(x, out, "rawprobe_probe_hits_total", "Hits of a "
			   "rawprobe probe (rawprobectl probe list's HITS)",
			   RP_EXP_HITS, RP_EXP_HITS);
	rp_exp_stat_family(x, out, "rawprobe_probe_records_total", "Records "
			   "a rawprobe probe delivered to its rings",
			   RP_EXP_RECORDS, RP_EXP_RECORDS);
	rp_exp_stat_family(x, out, "rawprobe_probe_lost_total", "Hits of a "
			   "rawprobe probe that made no record, by cause (ring "
			   "full, kretprobe maxactive, recursion)",
			   RP_EXP_LOST_RING, RP_EXP_LOST_RECURSION);
	rp_exp_stat_family(x, out, "rawprobe_probe_filtered_total", "Hits of "
			   "a rawprobe probe its filters rejected",
			   RP_EXP_FILTERED, RP_EXP_FILTERED);
}

/*
 * Two probes' values of one name and two types (a histogram, a summary)
 * cannot share a family: the later ones take their type's name.
 */
static void rp_exp_value_names(struct rp_exp_probe **c, size_t n)
{
	char a[128], b[128];
	size_t i, j;

	for (j = 0; j < n; j++) {
		if (!rp_om_has(c[j]->om, RP_OM_VALUE))
			continue;
		rp_om_name(c[j]->om, RP_OM_VALUE, b, sizeof(b));
		for (i = 0; i < j; i++) {
			if (!rp_om_has(c[i]->om, RP_OM_VALUE))
				continue;
			rp_om_name(c[i]->om, RP_OM_VALUE, a, sizeof(a));
			if (!strcmp(a, b) &&
			    strcmp(rp_om_type(c[i]->om, RP_OM_VALUE),
				   rp_om_type(c[j]->om, RP_OM_VALUE))) {
				snprintf(a, sizeof(a), "_%s",
					 rp_om_type(c[j]->om, RP_OM_VALUE));
				rp_om_rename(c[j]->om, a);
				break;
			}
		}
	}
}

/* A part of every counting probe, family by family, each head once */
static void rp_exp_part(struct rp_exp_probe **c, size_t n,
			enum rp_om_part part, bool *done)
{
	char a[128], b[128];
	size_t i, j;

	memset(done, 0, n * sizeof(*done));
	for (i = 0; i < n; i++) {
		if (done[i] || !rp_om_has(c[i]->om, part))
			continue;
		rp_om_name(c[i]->om, part, a, sizeof(a));
		rp_om_head(c[i]->om, part);
		for (j = i; j < n; j++) {
			if (done[j] || !rp_om_has(c[j]->om, part))
				continue;
			rp_om_name(c[j]->om, part, b, sizeof(b));
			if (strcmp(a, b))
				continue;
			rp_om_samples(c[j]->om, part);
			done[j] = true;
		}
	}
}

static void rp_exp_counts_print(struct rp_exporter *x, FILE *out)
{
	struct rp_exp_probe **c = calloc(x->n + 1, sizeof(*c));
	bool *done = calloc(x->n + 1, sizeof(*done));
	size_t i, n = 0;
	int part;

	for (i = 0; c && done && i < x->n; i++) {
		if (!x->p[i]->live || !x->p[i]->counting ||
		    !x->p[i]->acc.val_words)
			continue;
		x->p[i]->om = rp_om_new(out, &x->p[i]->view, &x->p[i]->acc);
		if (x->p[i]->om)
			c[n++] = x->p[i];
	}
	rp_exp_value_names(c, n);
	for (part = 0; part < RP_OM_PARTS; part++)
		rp_exp_part(c, n, part, done);
	for (i = 0; i < n; i++) {
		rp_om_free(c[i]->om);
		c[i]->om = NULL;
	}
	free(done);
	free(c);
}

int rp_exporter_scrape(struct rp_exporter *x, struct rp_nl *nl, FILE *out)
{
	int err = nl ? rp_exp_update(x, nl) : -ENOENT;
	size_t i;

	x->scrapes++;
	x->up = !err;
	if (!x->up)
		for (i = 0; i < x->n; i++)
			x->p[i]->live = false;
	rp_exp_forget(x);
	rp_exp_head(out, "rawprobe_up", "gauge", "1 if the rawprobe module "
		    "answered this scrape's probe list, else 0");
	fprintf(out, "rawprobe_up %d\n", x->up);
	rp_exp_head(out, "rawprobe_exporter_read_errors_total", "counter",
		    "Reads of a probe's counts that failed (the probe went "
		    "between the list and the read, or the read was refused)");
	fprintf(out, "rawprobe_exporter_read_errors_total %" PRIu64 "\n",
		x->read_errors);
	rp_exp_stats_print(x, out);
	rp_exp_counts_print(x, out);
	return err;
}
