// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl probe add|del|list|show|enable|disable|reset
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/ring_nl.h"
#include "out/probe.h"
#include "out/probe_add.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

static int rp_probe_add_one(struct rp_probe_req *req, const char *kind,
			    const char *target, bool dry_run)
{
	struct rp_probe_info pi;
	struct rp_nl nl;
	int rc, err;

	rc = rp_probe_req_init(req, kind, target);
	if (rc)
		return rc;
	err = rp_probe_check(req, 1);
	if (err)
		return rp_exit_from_errno(err);
	rc = rp_probe_auto_args(req, 1);
	if (rc || dry_run) {
		if (!rc)
			rp_probe_dry_run(req, 1);
		return rc;
	}
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	rc = rp_probe_ring_check(&nl, req);
	if (rc) {
		rp_nl_close(&nl);
		return rc;
	}
	err = rp_probe_add_req(&nl, req, &pi);
	rp_nl_close(&nl);
	if (err)
		return rp_exit_from_errno(err);
	if (rp_opts.json)
		rp_probe_print(&pi);
	else
		printf("%u\n", pi.id);
	return RP_EXIT_OK;
}

/* Targets from argv, "-" meaning one per line on stdin. */
static int rp_collect_targets(const struct rp_probe_req *tmpl,
			      const char *kind, char **targets, int nt,
			      struct rp_probe_req **out, size_t *n)
{
	size_t cap = 0;
	char line[512];
	int i, rc;

	*out = NULL;
	*n = 0;
	for (i = 0; i < nt; i++) {
		bool from_stdin = !strcmp(targets[i], "-");
		const char *t = targets[i];

		for (;;) {
			if (from_stdin) {
				if (!fgets(line, sizeof(line), stdin))
					break;
				line[strcspn(line, " \t\r\n")] = '\0';
				if (!line[0] || line[0] == '#')
					continue;
				t = line;
			}
			if (*n == cap) {
				void *v;

				cap = cap ? cap * 2 : 64;
				v = realloc(*out, cap * sizeof(**out));
				if (!v)
					return RP_EXIT_FAIL;
				*out = v;
			}
			(*out)[*n] = *tmpl;
			rc = rp_probe_req_init(&(*out)[*n], kind, t);
			if (rc)
				return rc;
			(*n)++;
			if (!from_stdin)
				break;
		}
	}
	return *n ? RP_EXIT_OK : rp_usage_error("no targets given");
}

static int rp_probe_add_targets(const struct rp_probe_req *tmpl,
				const char *kind, char **targets, int nt,
				bool dry_run, size_t max)
{
	struct rp_probe_req *reqs;
	size_t n;
	int rc;

	rc = rp_collect_targets(tmpl, kind, targets, nt, &reqs, &n);
	if (!rc)
		rc = rp_probe_add_reqs(&reqs, &n, dry_run, max);
	free(reqs);
	return rc;
}

/* --- probe add pair --- */

static void rp_add_pair_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl probe add pair --from KIND:TARGET [--from-key KEY]\n"
		"                                  --to KIND:TARGET [--to-key KEY]\n"
		"                                  [--key KEY] [OPTIONS]\n"
		"\n"
		"A persistent pair, as 'rawprobectl latency' makes for as long as it\n"
		"runs: its ends count the time since their key's start in the kernel\n"
		"('rawprobectl agg show ID' of an end reads them, 'probe show ID' says\n"
		"where the starts and ends went). Prints the new probes' ids.\n"
		"\n"
		"      --from, --to, --key, --from-key, --to-key, --max-keys N,\n"
		"      --expire SECONDS  as 'rawprobectl latency --help' says\n"
		"      --by KEYS        the ends count by these (as count's --by)\n"
		"      --hist log2 | --lhist MIN,MAX,STEP  the latency's buckets\n"
		"                       (default log2)\n"
		"      --records        the ends write a record a completed pair\n"
		"                       instead (as 'latency --records'), into the\n"
		"                       default session: read them with stream\n"
		"  -a, --args SPEC, --filter EXPR  of the probe given before\n"
		"      --pid N | --tgid N | --comm NAME | --cpu N | --cgroup PATH\n"
		"                       choose the starts\n"
		"  -d, --disabled       add without arming\n"
		"      --dry-run        print the requests, add nothing\n");
}

static const struct option rp_pair_longopts[] = {
	RP_PAIR_LONGOPTS,
	RP_PROBE_LONGOPTS,
	RP_FILTER_LONGOPTS,
	{ "by",        required_argument, NULL, RP_OPT_AGG_BY },
	{ "hist",      required_argument, NULL, RP_OPT_AGG_HIST },
	{ "lhist",     required_argument, NULL, RP_OPT_AGG_LHIST },
	{ "disabled",  no_argument,       NULL, 'd' },
	{ "dry-run",   no_argument,       NULL, 'n' },
	{ "help",      no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What probe add pair's command line builds */
struct rp_pair_add {
	struct rp_probe_req *reqs;	/* RP_PAIR_ADD_MAX of them */
	size_t n;
	struct rp_pair_opts po;
	struct rp_task_filter filter;	/* the starts' */
	struct rp_probe_req agg;	/* --by, --hist, --lhist: the ends' */
	uint32_t flags;			/* RAWPROBE_F_DISABLED */
	bool dry_run;
};

#define RP_PAIR_ADD_MAX 64

static int rp_pair_add_probe(struct rp_pair_add *pa, int opt, const char *arg)
{
	int rc;

	if (pa->n == RP_PAIR_ADD_MAX)
		return rp_usage_error("at most %d probes in a pair",
				      RP_PAIR_ADD_MAX);
	rc = rp_probe_req_parse(arg, &pa->reqs[pa->n]);
	if (rc)
		return rc;
	pa->reqs[pa->n++].pair.role = opt == RP_OPT_PAIR_FROM ?
				      RAWPROBE_PAIR_START : RAWPROBE_PAIR_END;
	return RP_EXIT_OK;
}

static int rp_pair_add_opt(struct rp_pair_add *pa, int opt, const char *arg)
{
	struct rp_probe_req *last = pa->n ? &pa->reqs[pa->n - 1] : NULL;

	if (opt == RP_OPT_PAIR_FROM || opt == RP_OPT_PAIR_TO)
		return rp_pair_add_probe(pa, opt, arg);
	if (rp_is_pair_opt(opt))
		return rp_pair_opt(opt, arg, &pa->po, last);
	if (rp_is_task_filter_opt(opt))
		return rp_task_filter_opt(opt, arg, &pa->filter);
	if (rp_is_agg_opt(opt))
		return rp_agg_opt(opt, arg, &pa->agg);
	if (opt == RP_OPT_OVERRIDE)
		return rp_usage_error("a pair's probes take no --override");
	if (!last)
		return rp_usage_error("probe options apply to the probe before "
				      "them: give --from or --to first");
	return rp_probe_opt(opt, arg, last);
}

/*
 * Persistent; the starts filtered, the ends counting the latency (or,
 * with --records, writing a record a pair)
 */
static int rp_pair_add_finish(struct rp_pair_add *pa)
{
	struct rp_probe_req *r;
	size_t i;
	int rc = rp_pair_reqs_finish(pa->reqs, pa->n, &pa->po);

	if (!rc && pa->po.records && (pa->agg.agg.by[0] || pa->agg.agg.hist))
		rc = rp_usage_error("--records writes a record a pair: not with "
				    "--by, --hist or --lhist");
	for (i = 0; !rc && i < pa->n; i++) {
		r = &pa->reqs[i];
		r->flags |= RAWPROBE_F_PERSISTENT | pa->flags;
		if (r->pair.role == RAWPROBE_PAIR_START) {
			r->filter = pa->filter;
			continue;
		}
		if (pa->po.records)
			continue;
		r->agg = pa->agg.agg;
		r->flags |= RAWPROBE_F_AGG;
		snprintf(r->agg.value, sizeof(r->agg.value), "latency");
		if (!r->agg.hist)
			r->agg.hist = RAWPROBE_AGG_HIST_LOG2;
		r->agg.max_keys = pa->po.max_keys;
	}
	return rc;
}

static int rp_probe_add_pair(int argc, char **argv)
{
	struct rp_pair_add pa = { .n = 0 };
	int opt, rc = RP_EXIT_OK;

	pa.reqs = calloc(RP_PAIR_ADD_MAX, sizeof(*pa.reqs));
	if (!pa.reqs)
		return RP_EXIT_FAIL;
	optind = 0;
	opterr = 0;
	while (!rc && (opt = getopt_long(argc, argv, "a:m:s:dh",
					 rp_pair_longopts, NULL)) != -1) {
		if (opt == 'h') {
			rp_add_pair_usage(stdout);
			goto out;
		} else if (opt == 'n') {
			pa.dry_run = true;
		} else if (opt == 'd') {
			pa.flags |= RAWPROBE_F_DISABLED;
		} else if (opt == '?') {
			rc = rp_bad_option(argv, "a:m:s:dh", rp_pair_longopts,
					   "rawprobectl probe add pair");
		} else {
			rc = rp_pair_add_opt(&pa, opt, optarg);
		}
	}
	if (!rc && optind < argc)
		rc = rp_usage_error("unexpected '%s' (a pair's probes are given "
				    "with --from and --to)", argv[optind]);
	if (!rc)
		rc = rp_pair_add_finish(&pa) ?:
		     rp_probe_add_reqs(&pa.reqs, &pa.n, pa.dry_run,
				       RAWPROBE_MAX_BATCH);
out:
	free(pa.reqs);
	return rc;
}

static int rp_probe_add_cmd(int argc, char **argv)
{
	struct rp_probe_add_args a;
	int rc;

	if (argc > 1 && !strcmp(argv[1], "pair"))
		return rp_probe_add_pair(argc - 1, argv + 1);
	rc = rp_probe_add_parse(argc, argv, &a);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	a.req.flags |= RAWPROBE_F_PERSISTENT;
	/* one function: its description back; a glob's are many: ids */
	if (a.ntargets == 1 && strcmp(a.targets[0], "-") &&
	    !rp_glob_is(a.targets[0]))
		return rp_probe_add_one(&a.req, a.kind, a.targets[0],
					a.dry_run);
	return rp_probe_add_targets(&a.req, a.kind, a.targets, a.ntargets,
				    a.dry_run, a.max);
}

/* --- probe list / show --- */
static int rp_probe_list_cmd(int argc, char **argv)
{
	struct rp_probe_info *v = NULL;
	struct rp_nl nl;
	struct rp_sessions ss = { 0 };
	size_t n = 0, i;
	int rc, err;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl probe list\n"
			       "Every probe with its state and statistics: hits, "
			       "records delivered,\nlost (ring full), missed "
			       "(kretprobe maxactive) and recursion misses; the\n"
			       "session it writes into (RING: default, a name, or "
			       "a command's own by id).\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_probe_dump(&nl, &v, &n);
	/* the sessions' names, if the caller may see them; else ids */
	if (!err && !rp_opts.json && rp_session_dump(&nl, &ss.v, &ss.n))
		ss.n = 0;
	rp_nl_close(&nl);
	if (err)
		return rp_fail(&nl, "probe list", err);
	if (rp_opts.json) {
		json_arr_open(&rp_json);
		for (i = 0; i < n; i++)
			rp_probe_json(&rp_json, &v[i]);
		json_arr_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		rp_probe_table(v, n, &ss);
	}
	free(ss.v);
	free(v);
	return RP_EXIT_OK;
}

/* --- commands on one probe id (or all) --- */
/* One id the kernel refused: reported; the exit code is the first's. */
static void rp_id_failed(struct rp_nl *nl, const char *what, uint32_t id,
			 int err, int *first)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%s %u", what, id);
	err = rp_fail(nl, buf, err);
	*first = *first ?: err;
}

/* enable and disable: one request per id. */
static void rp_send_each(struct rp_nl *nl, int cmd, const char *what,
			 uint32_t *ids, size_t n, int *first)
{
	struct nl_msg *msg;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		msg = rp_nl_msg(nl, cmd, 0);
		if (!msg) {
			*first = *first ?: RP_EXIT_FAIL;
			return;
		}
		nla_put_u32(msg, RAWPROBE_A_PROBE_ID, ids[i]);
		err = rp_nl_call(nl, msg, NULL, NULL);
		if (err)
			rp_id_failed(nl, what, ids[i], err, first);
	}
}

/*
 * del: the kernel removes a list of ids in one grace period (a script
 * deleting 1,000 probes waits for one, not 1,000). It takes a list
 * whole or not at all and names the id it refused (its index in the
 * extended-ack cookie); that id is reported and the list sent again
 * without it, so that, like rm, the others are still removed.
 */
static void rp_send_del(struct rp_nl *nl, const char *what, uint32_t *ids,
			size_t n, int *first)
{
	size_t len, idx;
	uint32_t cookie;
	int err;

	while (n) {
		len = n < RAWPROBE_MAX_BATCH ? n : RAWPROBE_MAX_BATCH;
		err = rp_probe_del_list(nl, ids, len);
		if (!err) {
			ids += len;
			n -= len;
			continue;
		}
		idx = 0;
		if (len > 1 && nl->cookie_len == sizeof(cookie)) {
			memcpy(&cookie, nl->cookie, sizeof(cookie));
			idx = cookie;
		} else if (len > 1) {
			idx = len;	/* not one id's fault */
		}
		if (idx >= len) {
			*first = *first ?: rp_fail(nl, what, err);
			return;
		}
		rp_id_failed(nl, what, ids[idx], err, first);
		memmove(&ids[idx], &ids[idx + 1], (n - idx - 1) * sizeof(*ids));
		n--;
	}
}

/*
 * del, enable and disable take several ids, in one process and over one
 * socket (a script churning probes pays for one exec, not one per id).
 * Every id is parsed before anything is sent; then, like rm, an id the
 * kernel refuses is reported and the others are still done, and the exit
 * code is the first failure's.
 */
static int rp_ids_request(int cmd, const char *what, int argc, char **argv)
{
	uint32_t *ids = calloc((size_t)argc, sizeof(*ids));
	struct rp_nl nl;
	int i, rc = 0, first = RP_EXIT_OK;

	if (!ids)
		return RP_EXIT_FAIL;
	for (i = 0; i < argc && !rc; i++)
		rc = rp_parse_id(argv[i], &ids[i]);
	if (!rc)
		rc = rp_connect(&nl);
	if (!rc) {
		if (cmd == RAWPROBE_CMD_PROBE_DEL)
			rp_send_del(&nl, what, ids, (size_t)argc, &first);
		else
			rp_send_each(&nl, cmd, what, ids, (size_t)argc, &first);
		rp_nl_close(&nl);
	}
	free(ids);
	return rc ?: first;
}

static int rp_some_args(int argc, char **argv, const char *usage)
{
	if (argc == 2 && rp_is_help(argv[1])) {
		printf("%s", usage);
		return -1;
	}
	if (argc < 2) {
		fprintf(stderr, "%s", usage);
		return RP_EXIT_USAGE;
	}
	return 0;
}

/* probe del all: how many probes the kernel left, being others' */
static int rp_del_all_reply(struct nlattr **a, void *ctx)
{
	if (a[RAWPROBE_A_NR_PROBES])
		*(uint32_t *)ctx = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	return 0;
}

static int rp_probe_del_cmd(int argc, char **argv)
{
	uint32_t kept = 0;
	int rc = rp_some_args(argc, argv,
			      "Usage: rawprobectl probe del ID...|all\n");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	if (argc == 2 && !strcmp(argv[1], "all")) {
		rc = rp_id_request(RAWPROBE_CMD_PROBE_DEL, "probe del",
				   argv[1], true, rp_del_all_reply, &kept);
		if (!rc && kept)
			fprintf(stderr, "rawprobectl: probe del all: %u "
				"probe%s kept: other commands' probes and "
				"overrides need CAP_SYS_ADMIN to remove\n",
				kept, kept == 1 ? "" : "s");
		return rc;
	}
	return rp_ids_request(RAWPROBE_CMD_PROBE_DEL, "probe del", argc - 1,
			      argv + 1);
}

static int rp_probe_enable_cmd(int argc, char **argv)
{
	bool enable = argv[0][0] == 'e';
	int rc = rp_some_args(argc, argv, enable ?
			      "Usage: rawprobectl probe enable ID...\n" :
			      "Usage: rawprobectl probe disable ID...\n");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	return rp_ids_request(enable ? RAWPROBE_CMD_PROBE_ENABLE :
			      RAWPROBE_CMD_PROBE_DISABLE,
			      enable ? "probe enable" : "probe disable",
			      argc - 1, argv + 1);
}


static int rp_show_reply(struct nlattr **a, void *ctx)
{
	struct rp_probe_info pi;
	int err = rp_probe_info_parse(a, &pi);

	if (err)
		return err;
	if (rp_opts.json)
		rp_probe_print(&pi);
	else
		rp_probe_detail(&pi, ctx);
	return 0;
}

static int rp_probe_show_cmd(int argc, char **argv)
{
	struct rp_sessions ss = { 0 };
	struct rp_nl nl;
	uint32_t id;
	int rc = rp_one_arg(argc, argv, "Usage: rawprobectl probe show ID\n");

	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_parse_id(argv[1], &id);
	if (rc)
		return rc;
	/* the sessions' names, quietly: the request below says what fails */
	if (!rp_opts.json && !rp_nl_open(&nl)) {
		if (rp_session_dump(&nl, &ss.v, &ss.n))
			ss.n = 0;
		rp_nl_close(&nl);
	}
	rc = rp_id_request(RAWPROBE_CMD_PROBE_GET, "probe show", argv[1],
			   false, rp_show_reply, &ss);
	free(ss.v);
	return rc;
}

static const struct rp_cmd rp_probe_cmds[] = {
	{ "add",     rp_probe_add_cmd,    "KIND TARGET [OPTIONS]  add a persistent probe\n"
	  "                 pair --from K:T --to K:T --key KEY  a pair (latency)" },
	{ "del",     rp_probe_del_cmd,    "ID...|all              remove probes" },
	{ "list",    rp_probe_list_cmd,   "                       probes with statistics" },
	{ "show",    rp_probe_show_cmd,   "ID                     one probe" },
	{ "enable",  rp_probe_enable_cmd, "ID...                  arm disabled probes" },
	{ "disable", rp_probe_enable_cmd, "ID...                  stop probes firing" },
	{ "reset",   rp_probe_reset_cmd,  "ID|all                 zero statistics" },
	{ NULL, NULL, NULL },
};

int rp_cmd_probe(int argc, char **argv)
{
	return rp_dispatch("probe", rp_probe_cmds, argc - 1, argv + 1);
}
