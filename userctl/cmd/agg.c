// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl agg show|clear ID: a persistent counting probe's tables
 * (probe add --count), as ftrace's hist trigger lives on an event. A
 * show ends the interval: it prints the counts since the last show or
 * clear, and the next interval begins; clear ends it unseen.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "out/count.h"
#include "lib/probe_nl.h"
#include "out/probe.h"
#include "lib/agg_read.h"
#include "lib/cli.h"

static int rp_agg_info(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

/*
 * ID, and for show -f FORMAT: 0, -1 after a help, or an exit code. The
 * format's default is -j's.
 */
static int rp_agg_args(const char *usage, int argc, char **argv, bool show,
		       uint64_t *id, int *fmt)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *arg = NULL;
	int opt, rc;

	*fmt = rp_opts.json ? RP_COUNT_JSON : RP_COUNT_TEXT;
	optind = 0;	/* full getopt reset: main() parsed already */
	while ((opt = getopt_long(argc, argv, show ? "-f:h" : "-h", longopts,
				  NULL)) != -1) {
		if (opt == 'h' || (opt == 1 && rp_is_help(optarg))) {
			fputs(usage, stdout);
			return -1;
		}
		if (opt == 'f' && show) {
			rc = rp_count_format(optarg, fmt);
			if (rc)
				return rc;
			continue;
		}
		if (opt != 1 || arg) {
			fputs(usage, stderr);
			return RP_EXIT_USAGE;
		}
		arg = optarg;
	}
	if (!arg || rp_parse_u64(arg, 1, UINT32_MAX, id)) {
		fputs(usage, stderr);
		return RP_EXIT_USAGE;
	}
	return 0;
}

static int rp_agg_one(const char *what, int argc, char **argv, bool show)
{
	char usage[160], target[RP_TARGET_MAX];
	struct rp_count_names names;
	struct rp_probe_info pi;
	struct rp_probe_req req;
	struct rp_agg_result r;
	struct rp_agg_view v;
	struct rp_nl nl;
	uint64_t id;
	int rc, err, fmt;

	snprintf(usage, sizeof(usage), "Usage: rawprobectl agg %s ID%s\n", what,
		 show ? " [-f text|json|openmetrics|folded|svg|speedscope]" :
		 "");
	rc = rp_agg_args(usage, argc, argv, show, &id, &fmt);
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_count_request(&nl, RAWPROBE_CMD_PROBE_GET, (uint32_t)id,
			       rp_agg_info, &pi);
	if (!err && !(pi.flags & RAWPROBE_F_AGG)) {
		fprintf(stderr, "rawprobectl: probe %u does not count: it writes "
			"records (add it with --count)\n", pi.id);
		rp_nl_close(&nl);
		return RP_EXIT_FAIL;
	}
	if (!err)
		err = rp_agg_fetch(&nl, (uint32_t)id, &r);
	/* 6.1 drops a dump's reason given at its start: it is this one */
	if (err == -EACCES && !nl.errmsg[0])
		snprintf(nl.errmsg, sizeof(nl.errmsg), "the probe's tables "
			 "belong to the command that added it: only it reads them");
	if (err) {
		rc = rp_fail(&nl, "agg", err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	if (show) {
		rp_agg_req_of_info(&pi, &req);
		rp_probe_target(&pi, target, sizeof(target));
		rp_count_view(&req, target, 0, &names, &v);
		v.addr = pi.probed_addr;
		rp_agg_sort_by_count(&r);
		rc = rp_count_format_fits(fmt, &req.agg);
		if (!rc && rp_count_print(fmt, &v, &r, NULL))
			rc = RP_EXIT_FAIL;
	}
	rp_agg_result_free(&r);
	return rc;
}

static int rp_agg_show_cmd(int argc, char **argv)
{
	return rp_agg_one("show", argc, argv, true);
}

static int rp_agg_clear_cmd(int argc, char **argv)
{
	return rp_agg_one("clear", argc, argv, false);
}

static const struct rp_cmd rp_agg_cmds[] = {
	{ "show",  rp_agg_show_cmd,  "ID [-f FORMAT]  the counts since the last show or clear" },
	{ "clear", rp_agg_clear_cmd, "ID    start counting afresh" },
	{ NULL, NULL, NULL },
};

int rp_cmd_agg(int argc, char **argv)
{
	return rp_dispatch("agg", rp_agg_cmds, argc - 1, argv + 1);
}
