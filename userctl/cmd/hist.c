// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl hist and latency: histograms, of records (the record path of stream,
 * out/stream.c) or, with probes of its own, counted in the kernel.
 *
 * hist KIND:TARGET...: its probes count in the kernel (RAWPROBE_F_AGG),
 * a kretprobe's latency in log2 or linear buckets per key (comm, or
 * none), an entry probe's hits; no record is written. Each read
 * (AGG_READ) ends an interval and starts the next, so every hit is in
 * exactly one. The kernel's buckets become hist's (out/histogram.c), an
 * entry probe's counts a table as count prints it (out/aggregate.c).
 */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cmd/cmd.h"
#include "out/count.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/agg_read.h"
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/json.h"
#include "out/aggregate.h"
#include "out/histogram.h"
#include "out/openmetrics.h"
#include "out/pair.h"
#include "out/stream.h"
#include "resolve/probe_req.h"

struct rp_hist_agg {
	struct rp_nl *nl;
	const struct rp_probe_req *reqs;	/* added, F_AGG */
	const uint32_t *ids;			/* their ids */
	unsigned int n;
	const struct rp_hist_opts *o;
	struct rp_sink *sink;			/* rp_hist_sink_init()'s */
	double interval, duration;		/* seconds; 0: none */
	volatile sig_atomic_t *stop;		/* set by a signal */
	bool summary;				/* per probe, to stderr */
};

/* What the run keeps per probe */
struct rp_hist_probe {
	struct rp_probe_desc desc;	/* its name, as records name it */
	struct rp_agg_totals t;
	struct rp_count_names names;	/* an entry probe's table */
	struct rp_agg_view view;
	struct rp_agg_result acc;	/* -f openmetrics: the run so far */
};

static uint64_t rp_hist_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void rp_hist_wait(const struct rp_hist_agg *a, uint64_t until)
{
	uint64_t now;

	while (!*a->stop && (now = rp_hist_now()) < until)
		poll(NULL, 0, (int)((until - now) / 1000000 < 200 ?
				    (until - now) / 1000000 + 1 : 200));
}

static int rp_hist_info(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

static int rp_hist_probe_get(const struct rp_hist_agg *a, unsigned int i,
			     struct rp_probe_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	return rp_count_request(a->nl, RAWPROBE_CMD_PROBE_GET, a->ids[i],
				rp_hist_info, pi);
}

/*
 * Is the value signed, as hist reads it from records? Latency is not;
 * an argument is as its type (an untyped one is u64).
 */
static bool rp_hist_signed(const struct rp_hist_opts *o,
			   const struct rp_probe_desc *d)
{
	unsigned int t;

	if (o->value == RP_HIST_LATENCY)
		return false;
	if (o->value == RP_HIST_RETVAL)
		return true;
	t = o->arg < d->nargs ? d->argtypes[o->arg] : RAWPROBE_ARG_U64;
	return t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64;
}

/*
 * One entry's values as hist's buckets. The kernel's bucket 0 holds the
 * values below 0 (as s64; log2's, and linear's from -step: a latency has
 * none): hist's "below 0" if the value is signed, else the unsigned
 * values from 2^63, hist's last log2 bucket or linear's over. The rest
 * are hist's from [0]; linear's last holds everything past, hist's over.
 */
static int rp_hist_entry(const struct rp_hist_agg *a,
			 const struct rp_probe_desc *d,
			 const struct rp_agg_result *r, size_t e)
{
	const uint64_t *w = rp_agg_entry(r, e), *v = w + r->key_words;
	const uint64_t *kb = v + RP_AGG_W_BUCKETS;
	size_t nb = r->val_words - RP_AGG_W_BUCKETS;
	uint64_t b[RAWPROBE_AGG_LIN_BUCKETS_MAX + 1] = { 0 };
	bool neg = a->o->value != RP_HIST_LATENCY || !a->o->step;
	struct rp_hist_counts c = {
		.probe = d->name,
		.comm = a->o->by_comm ? (const char *)w : NULL,
		.count = v[RP_AGG_W_COUNT],
		.is_signed = rp_hist_signed(a->o, d),
		.sum = (int64_t)v[RP_AGG_W_SUM],
		.min = (int64_t)v[RP_AGG_W_MIN],
		.max = (int64_t)v[RP_AGG_W_MAX],
		.b = b,
	};

	if (!nb || nb > sizeof(b) / sizeof(b[0]))
		return 0;
	c.nb = nb - neg - (a->o->step ? 1 : 0);
	memcpy(b, kb + neg, c.nb * sizeof(*b));
	if (a->o->step) {
		c.over = kb[nb - 1];
		c.over_at = c.nb * a->o->step;
	}
	if (neg && c.is_signed)
		c.neg = kb[0];
	else if (neg && a->o->step)
		c.over += kb[0];
	else if (neg)
		b[c.nb++] = kb[0];	/* [2^63, 2^64) */
	return rp_hist_put(a->sink, &c);
}

/*
 * -f openmetrics: Prometheus' counters only grow, so each interval
 * prints the run so far (as count's), histograms as _bucket{le=...}.
 */
static int rp_hist_read_om(const struct rp_hist_agg *a,
			   struct rp_hist_probe *p, struct rp_agg_result *r,
			   bool last)
{
	int err = rp_agg_accumulate(&p->acc, r);

	rp_agg_result_free(r);
	if (err)
		return rp_fail(a->nl, "hist: adding up the counts", err);
	rp_agg_sort_by_count(&p->acc);
	rp_agg_print_openmetrics(a->sink->out, &p->view, &p->acc,
				 last ? &p->t : NULL);
	return RP_EXIT_OK;
}

/* Probe i's interval: histograms into the sink, or a table of hits. */
static int rp_hist_read(const struct rp_hist_agg *a, unsigned int i,
			struct rp_hist_probe *p, bool last)
{
	struct rp_agg_result r;
	struct json j;
	size_t e;
	int err;

	err = rp_agg_fetch(a->nl, a->ids[i], &r);
	if (err)
		return rp_fail(a->nl, "hist: reading the counts", err);
	for (e = 0; e < r.n; e++)
		p->t.counted += rp_agg_entry(&r, e)[r.key_words + RP_AGG_W_COUNT];
	p->t.dropped += r.dropped;
	p->t.hits += r.hits;
	if (a->o->openmetrics)
		return rp_hist_read_om(a, p, &r, last);
	/* an entry probe's hits; latency --by KEYS: count's tables */
	if (!p->view.stats || a->o->by[0]) {
		rp_agg_sort_by_count(&r);
		if (rp_opts.json) {
			json_init(&j, a->sink->out, rp_opts.pretty);
			rp_agg_print_json(&j, &p->view, &r, last ? &p->t : NULL);
		} else {
			rp_agg_print_text(a->sink->out, &p->view, &r,
					  last ? &p->t : NULL);
		}
	}
	for (e = 0; p->view.stats && !a->o->by[0] && !err && e < r.n; e++)
		err = rp_hist_entry(a, &p->desc, &r, e);
	rp_agg_result_free(&r);
	return err ? rp_fail(a->nl, "hist", err) : RP_EXIT_OK;
}

/* A pair's start counts nothing: its end has the latency. */
static bool rp_hist_counts(const struct rp_hist_agg *a, unsigned int i)
{
	return a->reqs[i].flags & RAWPROBE_F_AGG;
}

static bool rp_hist_any(const struct rp_hist_agg *a,
			const struct rp_hist_probe *p)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (p[i].view.stats && !a->o->by[0])
			return true;
	return false;
}

/* Every probe's interval; printed now with -i, else at the end. */
static int rp_hist_interval(const struct rp_hist_agg *a,
			    struct rp_hist_probe *p, bool last)
{
	unsigned int i;
	int rc = RP_EXIT_OK;

	for (i = 0; i < a->n && !rc; i++)
		if (rp_hist_counts(a, i))
			rc = rp_hist_read(a, i, &p[i], last);
	/* entry probes' tables have their own time: no line of none */
	if (!rc && a->interval && rp_hist_any(a, p) && !a->o->openmetrics)
		rp_hist_print(a->sink);
	return rc;
}

/*
 * A pair's table, as its end saw it last (every probe of the pair has
 * the same counts): where each start and end went.
 */
static void rp_hist_pair_summary(const struct rp_hist_agg *a)
{
	struct rp_probe_info pi;
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		if (a->reqs[i].pair.role != RAWPROBE_PAIR_END ||
		    rp_hist_probe_get(a, i, &pi) || !pi.pair_stats.set)
			continue;
		rp_pair_summary(stderr, &pi.pair_stats);
		return;
	}
}

/*
 * Hits (the probe's count), counted in the tables, dropped; then a
 * kretprobe's calls that had not returned at the last read.
 */
static void rp_hist_summary(const struct rp_hist_agg *a,
			    const struct rp_hist_probe *p)
{
	char name[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) + 1];
	struct rp_agg_totals t;
	struct rp_probe_info pi;
	unsigned int i;

	fprintf(stderr, "\n%-40s %10s %10s %10s %10s\n", "PROBE", "HITS",
		"RECORDS", "COUNTED", "DROPPED");
	for (i = 0; i < a->n; i++) {
		if (rp_hist_probe_get(a, i, &pi))
			continue;
		rp_escape_str(name, sizeof(name), p[i].desc.name,
			      sizeof(p[i].desc.name));
		fprintf(stderr, "%-40s %10" PRIu64 " %10" PRIu64 " %10" PRIu64
			" %10" PRIu64 "\n", name, pi.hits, pi.records,
			p[i].t.counted, p[i].t.dropped);
		if (pi.kind != RAWPROBE_KIND_KRETPROBE)
			continue;
		t = p[i].t;
		t.hits = pi.hits - pi.filtered;
		rp_agg_totals_in_flight(&t);
		if (t.in_flight)
			fprintf(stderr, "%s: %" PRIu64 " call%s in flight at "
				"the end, not counted\n", name, t.in_flight,
				t.in_flight == 1 ? "" : "s");
	}
	rp_hist_pair_summary(a);
	fprintf(stderr, "counted in the kernel: no records\n");
}

static void rp_hist_disable(const struct rp_hist_agg *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		rp_count_request(a->nl, RAWPROBE_CMD_PROBE_DISABLE, a->ids[i],
				 NULL, NULL);
}

/* Names as records give them; an entry probe's table's columns. */
static int rp_hist_probes(const struct rp_hist_agg *a,
			  struct rp_hist_probe *p)
{
	struct rp_probe_info pi;
	unsigned int i;
	int err;

	for (i = 0; i < a->n; i++) {
		err = rp_hist_probe_get(a, i, &pi);
		if (err)
			return rp_fail(a->nl, "hist: the probe", err);
		rp_probe_desc(&pi, &p[i].desc);
		if (rp_hist_counts(a, i))
			rp_count_view(&a->reqs[i], p[i].desc.name, 0,
				      &p[i].names, &p[i].view);
	}
	return RP_EXIT_OK;
}

static int rp_hist_agg_run(const struct rp_hist_agg *a)
{
	struct rp_hist_probe p[a->n ? a->n : 1];
	uint64_t start = rp_hist_now(), end = UINT64_MAX, next;
	uint64_t step = (uint64_t)(a->interval * 1e9);
	unsigned int i;
	int rc;

	memset(p, 0, sizeof(p));
	rc = rp_hist_probes(a, p);
	if (a->duration)
		end = start + (uint64_t)(a->duration * 1e9);
	next = step ? start + step : end;
	while (!rc && !*a->stop) {
		rp_hist_wait(a, next < end ? next : end);
		if (*a->stop || rp_hist_now() >= end)
			break;
		rc = rp_hist_interval(a, p, false);
		next += step;
	}
	/* No hit after the last read: disarmed first, then read. */
	rp_hist_disable(a);
	if (!rc)
		rc = rp_hist_interval(a, p, true);
	/* at the end as today; entry probes alone have no histogram */
	if (!rc && !a->interval && rp_hist_any(a, p) && !a->o->openmetrics)
		a->sink->ops->end(a->sink);
	for (i = 0; i < a->n; i++)
		rp_agg_result_free(&p[i].acc);
	fflush(a->sink->out);
	if (a->summary)
		rp_hist_summary(a, p);
	return rc;
}

/* hist's own probes, counting in the kernel: no rings, no records. */
static int rp_stream_hist_agg(struct rp_stream *s, struct rp_stream_cfg *c,
			      volatile sig_atomic_t *stop)
{
	struct rp_hist_agg a = {
		.nl = &s->nl, .reqs = c->reqs, .n = (unsigned int)c->nreqs,
		.o = &c->hist, .sink = &s->sink, .interval = c->interval,
		.duration = c->duration, .stop = stop,
		.summary = !rp_opts.json || s->out != stdout,
	};
	int rc, err;

	err = rp_stream_add(s, c->reqs, c->nreqs);
	if (err)
		return rp_exit_from_errno(err);
	a.ids = s->owned;
	if (rp_stream_sink(s))
		return RP_EXIT_FAIL;
	rp_stream_refresh(s);
	rp_stream_ready(s);
	rc = rp_hist_agg_run(&a);
	if (!rc && s->sink.err)
		rc = RP_EXIT_FAIL;
	s->sink.ops->free(&s->sink);
	rp_stream_owned_del(s);
	return rc;
}

int rp_cmd_hist(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_HIST, argc, argv, rp_stream_hist_agg);
}

/* latency: a pair's ends count the time since their starts, as hist's */
int rp_cmd_latency(int argc, char **argv)
{
	return rp_stream_main(RP_MODE_LATENCY, argc, argv, rp_stream_hist_agg);
}
