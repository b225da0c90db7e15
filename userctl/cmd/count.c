// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl count KIND:TARGET [--by KEY[,KEY]] [--stats VALUE]
 *                   [-i S] [-d S] [--top N] [-f FORMAT]: how often, by
 * whom, from where, counted in the kernel (RAWPROBE_F_AGG) with no record
 * per hit, as BCC's funccount and bpftrace's count() do. The probe belongs to the
 * command's socket; every interval ends with a read (AGG_READ), which
 * starts the next, so each hit is counted in exactly one interval.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd/cmd.h"
#include "out/count.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/agg_read.h"
#include "lib/cli.h"
#include "lib/names.h"
#include "out/aggregate.h"
#include "out/format.h"
#include "resolve/btf.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

#define RP_COUNT_SECONDS_MAX 31536000	/* -i, -d: at most a year */


struct rp_count_cfg {
	struct rp_probe_req req;
	char probe[RP_TARGET_MAX];
	bool have_target;
	uint64_t addr;			/* the probed function's */
	struct rp_probe_desc desc;	/* its probe's: enum keys by name */
	bool have_desc;
	double interval, duration;	/* seconds; 0: none */
	uint64_t top;
	int format;			/* enum rp_count_format; -1: -j's */
	struct rp_count_names names;
	size_t max_probes;		/* --max-probes */
	bool dry_run, glob;		/* glob: per function (a glob, or
					 * several targets) */
	struct rp_probe_req *more;	/* targets after the first */
	size_t nmore;
	/* req, or a glob's: one a function, counted apart (the func key) */
	struct rp_probe_req *reqs;
	size_t n;
	uint32_t *ids;			/* reqs[]'s probes */
	const char **funcs;		/* a glob's: "vfs_read", "ext4:..." */
};

static volatile sig_atomic_t rp_count_stop;

static void rp_count_on_signal(int sig)
{
	(void)sig;
	rp_count_stop = 1;
}

static void rp_count_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl count KIND:TARGET... [PROBE OPTIONS] [--by KEY[,KEY]...]\n"
		"                         [--stats VALUE [--hist log2 | --lhist MIN,MAX,STEP]]\n"
		"                         [-i SECONDS] [-d SECONDS] [--top N] [-f FORMAT]\n\n"
		"Counts the probe's hits in the kernel, by key, and writes no record.\n\n"
		"  -b, --by KEYS        count by these, comma-separated (at most %d):\n"
		"                       comm, pid, tgid, cpu, caller (the calling\n"
		"                       function, at an entry), stack (the kernel\n"
		"                       stack: folded, for flamegraph.pl), retval\n"
		"                       (kretprobes),\n"
		"                       argN or an argument's name (--args)\n"
		"      --stats VALUE    also sum, min, max and mean of VALUE: retval\n"
		"                       or latency (ns; kretprobes), argN or a name\n"
		"      --sum VALUE      the same\n"
		"      --hist log2      and VALUE's power-of-2 histogram, per key\n"
		"      --lhist MIN,MAX,STEP  or its linear one (values outside\n"
		"                       counted in the first or last bucket)\n"
		"  -i, --interval S     print and restart every S seconds\n"
		"  -d, --duration S     stop after S seconds (default: Ctrl-C)\n"
		"  -t, --top N          the N highest counts only\n"
		"  -f, --format FMT     text (default), json (= -j) or openmetrics:\n"
		"                       Prometheus' text format, for node_exporter's\n"
		"                       textfile collector; its counts are the run's\n"
		"                       so far, not the interval's (man page);\n"
		"                       with --by stack: folded (what text is\n"
		"                       then), svg (a flame graph to open in a\n"
		"                       browser) or speedscope (not with -i)\n"
		"      --max-keys N     keys each CPU's table holds (default %d);\n"
		"                       hits of keys past it are counted as dropped\n"
		"      --include-self   count rawprobectl's own hits too (left out\n"
		"                       by default)\n"
		"      --dry-run        print the probes' requests, add nothing\n"
		"      --max-probes N   a glob may make N probes (default %d)\n"
		"  A glob ('kprobe:vfs_*') counts each function apart: a first\n"
		"  key, func, as bpftrace's @[func] = count(); so do several\n"
		"  targets of one kind ('kprobe:vfs_read* kprobe:vfs_write*')\n"
		"  probe options: --args, --filter, --maxactive, --pid, --tgid,\n"
		"  --comm, --cpu, --cgroup (see 'rawprobectl probe add --help')\n",
		RAWPROBE_AGG_MAX_KEYS, RAWPROBE_AGG_KEYS_DEFAULT,
		RP_GLOB_CAP_DEFAULT);
}

static const struct option rp_count_longopts[] = {
	RP_PROBE_LONGOPTS,
	RP_FILTER_LONGOPTS,
	RP_SELF_LONGOPT,
	RP_AGG_LONGOPTS,
	{ "interval",  required_argument, NULL, 'i' },
	{ "duration",  required_argument, NULL, 'd' },
	{ "top",       required_argument, NULL, 't' },
	{ "format",    required_argument, NULL, 'f' },
	{ "dry-run",   no_argument,       NULL, 'n' },
	RP_GLOB_LONGOPT,
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int rp_count_seconds(const char *opt, const char *arg, double *out)
{
	char *end = NULL;

	*out = isdigit((unsigned char)*arg) ? strtod(arg, &end) : 0;
	if (!(*out > 0 && *out <= RP_COUNT_SECONDS_MAX) || !end || *end)
		return rp_usage_error("--%s wants seconds in (0, %d], not '%s'",
				      opt, RP_COUNT_SECONDS_MAX, arg);
	return 0;
}

/* A target after the first: of its kind, counted per function */
static int rp_count_more(struct rp_count_cfg *c, const struct rp_probe_req *t,
			 const char *arg)
{
	struct rp_probe_req *v;
	size_t len = strlen(c->probe);

	if (t->kind != c->req.kind)
		return rp_usage_error("count's targets are of one kind: '%s' "
				      "is not a %s", arg,
				      rp_kind_name(c->req.kind));
	v = realloc(c->more, (c->nmore + 1) * sizeof(*v));
	if (!v)
		return RP_EXIT_FAIL;
	c->more = v;
	c->more[c->nmore++] = *t;
	c->glob = true;
	snprintf(c->probe + len, sizeof(c->probe) - len, " %s", arg);
	return 0;
}

/* A target's own fields into r, keeping the options r has */
static void rp_count_set_target(struct rp_probe_req *r,
				const struct rp_probe_req *t)
{
	r->kind = t->kind;
	memcpy(r->symbol, t->symbol, sizeof(t->symbol));
	memcpy(r->module, t->module, sizeof(t->module));
	r->offset = t->offset;
	r->addr = t->addr;
	r->glob = t->glob;
}

/* KIND:TARGET, keeping the options already given */
static int rp_count_target(struct rp_count_cfg *c, const char *arg)
{
	struct rp_probe_req t;
	int rc;

	rc = rp_probe_req_parse(arg, &t);
	if (rc)
		return rc;
	if (c->have_target)
		return rp_count_more(c, &t, arg);
	c->req.kind = t.kind;
	memcpy(c->req.symbol, t.symbol, sizeof(t.symbol));
	memcpy(c->req.module, t.module, sizeof(t.module));
	c->req.offset = t.offset;
	c->req.addr = t.addr;
	c->req.glob = c->glob = t.glob;
	snprintf(c->probe, sizeof(c->probe), "%s", arg);
	c->have_target = true;
	return 0;
}

static int rp_count_opt(struct rp_count_cfg *c, int opt, const char *arg)
{
	switch (opt) {
	case 1:
		return rp_count_target(c, arg);
	case 'b':
		return rp_agg_opt(RP_OPT_AGG_BY, arg, &c->req);
	case 'i':
		return rp_count_seconds("interval", arg, &c->interval);
	case 'd':
		return rp_count_seconds("duration", arg, &c->duration);
	case 't':
		if (rp_parse_u64(arg, 1, UINT32_MAX, &c->top))
			return rp_usage_error("--top wants a number > 0, not '%s'",
					      arg);
		return 0;
	case 'f':
		return rp_count_format(arg, &c->format);
	case 'n':
		c->dry_run = true;
		return 0;
	case RP_OPT_MAX_PROBES:
		return rp_max_probes_opt(arg, &c->max_probes);
	default:
		if (rp_is_agg_opt(opt))
			return rp_agg_opt(opt, arg, &c->req);
		return rp_probe_opt(opt, arg, &c->req);
	}
}

static int rp_count_parse(int argc, char **argv, struct rp_count_cfg *c)
{
	int opt, rc;

	optind = 0;	/* full getopt reset: main() parsed already */
	opterr = 0;	/* rp_bad_option() says what was wrong */
	while ((opt = getopt_long(argc, argv, "-a:m:s:b:i:d:t:f:h",
				  rp_count_longopts, NULL)) != -1) {
		if (opt == 'h') {
			rp_count_usage(stdout);
			return -1;
		}
		if (opt == '?')
			return rp_bad_option(argv, "-a:m:s:b:i:d:t:f:h",
					     rp_count_longopts,
					     "rawprobectl count");
		rc = rp_count_opt(c, opt, optarg);
		if (rc)
			return rc;
	}
	if (!c->have_target)
		return rp_usage_error("count needs a probe, e.g. 'rawprobectl "
				      "count kprobe:vfs_read --by comm'");
	if (c->format < 0)
		c->format = rp_opts.json ? RP_COUNT_JSON : RP_COUNT_TEXT;
	if ((c->format == RP_COUNT_SVG || c->format == RP_COUNT_SPEEDSCOPE) &&
	    c->interval)
		return rp_usage_error("-f %s is one document, of the whole run: "
				      "not with -i", c->format == RP_COUNT_SVG ?
				      "svg" : "speedscope");
	rp_task_filter_leave_self_out(&c->req.filter);
	return 0;
}

/* Sleep until the deadline (ns, CLOCK_MONOTONIC) or a signal. */
static void rp_count_wait(uint64_t until)
{
	struct timespec ts;
	uint64_t now;

	while (!rp_count_stop) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
		if (now >= until)
			return;
		poll(NULL, 0, (int)((until - now) / 1000000 < 200 ?
				    (until - now) / 1000000 + 1 : 200));
	}
}

static uint64_t rp_count_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int rp_count_info(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

/*
 * Where the kernel put probe id (a folded stack's leaf; 0 if unknown),
 * and the probe as records name it (enum and bool keys by name).
 */
static void rp_count_probe_get(struct rp_nl *nl, uint32_t id,
			       struct rp_count_cfg *c)
{
	struct rp_probe_info pi;

	memset(&pi, 0, sizeof(pi));
	if (rp_count_request(nl, RAWPROBE_CMD_PROBE_GET, id, rp_count_info, &pi))
		return;
	c->addr = pi.probed_addr;
	rp_probe_desc(&pi, &c->desc);
	c->have_desc = true;
}

/*
 * The interval's counts: the probe's, or a glob's probes' in one table,
 * each entry keyed first by its probe's index (RP_AGG_KEY_FUNC).
 */
static int rp_count_fetch(struct rp_nl *nl, const struct rp_count_cfg *c,
			  struct rp_agg_result *r)
{
	struct rp_agg_result one;
	size_t i;
	int err = 0;

	if (!c->glob)
		return rp_agg_fetch(nl, c->ids[0], r);
	memset(r, 0, sizeof(*r));
	r->stack_word = -1;
	for (i = 0; !err && i < c->n; i++) {
		err = rp_agg_fetch(nl, c->ids[i], &one);
		if (!err)
			err = rp_agg_append_keyed(r, &one, i);
		rp_agg_result_free(&one);
	}
	if (err)
		rp_agg_result_free(r);
	return err;
}

/* The hits its probes' filters passed: the counted or dropped */
static uint64_t rp_count_hits(struct rp_nl *nl, const struct rp_count_cfg *c)
{
	struct rp_probe_info pi;
	uint64_t hits = 0;
	size_t i;

	for (i = 0; i < c->n; i++) {
		memset(&pi, 0, sizeof(pi));
		if (!rp_count_request(nl, RAWPROBE_CMD_PROBE_GET, c->ids[i],
				      rp_count_info, &pi))
			hits += pi.hits - pi.filtered;
	}
	return hits;
}

/*
 * One interval: read, print; the totals go on the last one. Prometheus'
 * counters only grow (rate() takes a fall for a restart), so openmetrics
 * prints the run so far, added up in acc, where the others print the
 * interval.
 */
static int rp_count_interval(struct rp_nl *nl, const struct rp_count_cfg *c,
			     const struct rp_agg_view *v,
			     struct rp_agg_totals *t,
			     struct rp_agg_result *acc, bool last)
{
	int fmt = c->format;
	struct rp_agg_result r;
	size_t e;
	int err;

	err = rp_count_fetch(nl, c, &r);
	if (err)
		return rp_fail(nl, "count: reading the counts", err);
	for (e = 0; e < r.n; e++)
		t->counted += rp_agg_entry(&r, e)[r.key_words + RP_AGG_W_COUNT];
	t->dropped += r.dropped;
	if (last) {
		t->hits = rp_count_hits(nl, c);
		if (c->req.kind == RAWPROBE_KIND_KRETPROBE)
			rp_agg_totals_in_flight(t);
	}
	if (fmt == RP_COUNT_OPENMETRICS) {
		err = rp_agg_accumulate(acc, &r);
		rp_agg_result_free(&r);
		if (err)
			return rp_fail(nl, "count: adding up the counts", err);
		rp_agg_sort_by_count(acc);
		rp_count_print(fmt, v, acc, last ? t : NULL);
		return RP_EXIT_OK;
	}
	rp_agg_sort_by_count(&r);
	err = rp_count_print(fmt, v, &r, last ? t : NULL);
	rp_agg_result_free(&r);
	return err ? RP_EXIT_FAIL : RP_EXIT_OK;
}

/* Until the duration, a signal, or the probe's end; then the last read. */
static int rp_count_run(struct rp_nl *nl, struct rp_count_cfg *c)
{
	uint64_t start = rp_count_now(), end = UINT64_MAX, next;
	struct rp_agg_totals t = { 0 };
	struct rp_agg_result acc = { 0 };
	struct rp_agg_view v;
	int rc = RP_EXIT_OK;

	size_t i;

	rp_count_view(&c->req, c->probe, c->top, &c->names, &v);
	v.addr = c->addr;
	v.desc = c->have_desc ? &c->desc : NULL;
	if (c->glob)
		rp_agg_view_func_key(&v, c->funcs, c->n);
	if (c->duration)
		end = start + (uint64_t)(c->duration * 1e9);
	fprintf(stderr, "Counting %s%s%s%s. Hit Ctrl-C to end.\n", c->probe,
		c->glob ? " by func" : "",
		c->req.agg.by[0] ? (c->glob ? "," : " by ") : "", c->req.agg.by);
	next = c->interval ? start + (uint64_t)(c->interval * 1e9) : end;
	while (!rp_count_stop && !rc) {
		rp_count_wait(next < end ? next : end);
		if (rp_count_stop || rp_count_now() >= end)
			break;
		rc = rp_count_interval(nl, c, &v, &t, &acc, false);
		next += (uint64_t)(c->interval * 1e9);
	}
	if (!rc) {
		/* No hit after the last read: disarmed first, then read. */
		for (i = 0; i < c->n; i++)
			rp_count_request(nl, RAWPROBE_CMD_PROBE_DISABLE,
					 c->ids[i], NULL, NULL);
		rc = rp_count_interval(nl, c, &v, &t, &acc, true);
	}
	rp_agg_result_free(&acc);
	return rc;
}

/*
 * Each function once: two targets that name one (kprobe:vfs_read and
 * kprobe:vfs_*) would count its calls twice under one key.
 */
static int rp_count_once(const struct rp_count_cfg *c)
{
	size_t i, j;

	for (i = 0; i < c->n; i++)
		for (j = i + 1; j < c->n; j++)
			if (!strcmp(c->funcs[i], c->funcs[j]) &&
			    c->reqs[i].offset == c->reqs[j].offset &&
			    c->reqs[i].addr == c->reqs[j].addr)
				return rp_usage_error("%s is in two of count's "
						      "targets: give each "
						      "function once",
						      c->funcs[i]);
	return RP_EXIT_OK;
}

/*
 * A glob's functions, or several targets', a probe each: per function,
 * the probes' other keys after it.
 */
static int rp_count_expand(struct rp_count_cfg *c)
{
	size_t i;
	int rc;

	c->reqs = malloc((1 + c->nmore) * sizeof(*c->reqs));
	if (!c->reqs)
		return RP_EXIT_FAIL;
	c->reqs[0] = c->req;
	for (i = 0; i < c->nmore; i++) {
		c->reqs[1 + i] = c->req;
		rp_count_set_target(&c->reqs[1 + i], &c->more[i]);
	}
	c->n = 1 + c->nmore;
	if (!c->glob)
		return RP_EXIT_OK;
	rc = rp_probe_reqs_expand(&c->reqs, &c->n, c->max_probes);
	if (rc)
		return rc;
	c->funcs = calloc(c->n, sizeof(*c->funcs));
	if (!c->funcs)
		return RP_EXIT_FAIL;
	for (i = 0; i < c->n; i++) {
		char *f = malloc(sizeof(c->reqs[i].module) +
				 sizeof(c->reqs[i].symbol) + 1);

		if (!f)
			return RP_EXIT_FAIL;
		sprintf(f, "%s%s%s", c->reqs[i].module,
			c->reqs[i].module[0] ? ":" : "", c->reqs[i].symbol);
		c->funcs[i] = f;
	}
	return rp_count_once(c);
}

/*
 * Checked, resolved, printed with --dry-run (-1): ready to add (0). A
 * stack key's ids are each probe's table's, not merged here.
 */
static int rp_count_prepare(struct rp_count_cfg *c)
{
	size_t i;
	int rc;

	rc = rp_count_expand(c);
	if (rc)
		return rc;
	if (rp_probe_check(c->reqs, c->n))
		return RP_EXIT_FAIL;
	for (i = 0; i < c->n; i++)
		c->reqs[i].flags |= RAWPROBE_F_AGG;
	rc = rp_probe_auto_args(c->reqs, c->n);
	if (rc)
		return rc;
	/* the table's columns are the first's: the same --by for all */
	c->req = c->reqs[0];
	rc = rp_count_format_fits(c->format, &c->req.agg);
	if (rc)
		return rc;
	if (c->glob && memchr(c->req.agg.keys, RAWPROBE_AGG_KEY_STACK,
			      c->req.agg.nkeys))
		return rp_usage_error("a glob is counted per function: not "
				      "--by stack (count one function's stacks)");
	if (!c->dry_run)
		return 0;
	rp_probe_dry_run(c->reqs, c->n);
	return -1;
}

static void rp_count_free(struct rp_count_cfg *c)
{
	size_t i;

	for (i = 0; c->funcs && i < c->n; i++)
		free((void *)c->funcs[i]);
	free(c->funcs);
	free(c->reqs);
	free(c->ids);
	free(c->more);
}

/* Its probes, all or none, owned by the socket. */
static int rp_count_add(struct rp_nl *nl, struct rp_count_cfg *c)
{
	struct rp_probe_info pi;
	int err;

	c->ids = calloc(c->n, sizeof(*c->ids));
	if (!c->ids)
		return -ENOMEM;
	if (c->glob)
		return rp_probe_add_many(nl, c->reqs, c->n, c->ids);
	err = rp_probe_add_req(nl, &c->req, &pi);
	if (!err) {
		c->ids[0] = pi.id;
		rp_count_probe_get(nl, pi.id, c);
	}
	return err;
}

int rp_cmd_count(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = rp_count_on_signal };
	struct rp_count_cfg c;
	struct rp_nl nl;
	int rc;

	memset(&c, 0, sizeof(c));
	c.format = -1;
	c.max_probes = RP_GLOB_CAP_DEFAULT;
	rc = rp_count_parse(argc, argv, &c);
	if (!rc)
		rc = rp_count_prepare(&c);
	if (!rc)
		rc = rp_connect(&nl);
	if (rc) {
		rp_count_free(&c);
		return rc < 0 ? RP_EXIT_OK : rc;
	}
	/*
	 * Before the probes: a Ctrl-C while a glob arms (seconds) stops the
	 * kernel's batch, which takes back what it armed, and the command
	 * ends; a background job's ignored SIGINT is taken back too.
	 */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	rc = rp_count_add(&nl, &c);
	if (rc) {
		rp_nl_close(&nl);
		rp_count_free(&c);
		return rp_count_stop ? RP_EXIT_OK : rp_exit_from_errno(rc);
	}
	/* enum and bool keys by name, from BTF, as trace prints them */
	rp_format_set_labels(rp_btf_arg_label);
	rc = rp_count_run(&nl, &c);
	/* the socket's probes go with it; deleted now, not at exit */
	rp_probe_del_many(&nl, c.ids, c.n);
	rp_nl_close(&nl);
	rp_count_free(&c);
	return rc;
}
