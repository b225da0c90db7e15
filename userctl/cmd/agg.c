// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl agg show|clear ID: a persistent counting probe's tables
 * (probe add --count), as ftrace's hist trigger lives on an event. A
 * show ends the interval: it prints the counts since the last show or
 * clear, and the next interval begins; clear ends it unseen.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cmd/cmd.h"
#include "cmd/count.h"
#include "cmd/probe.h"
#include "lib/agg_read.h"
#include "lib/cli.h"

static int rp_agg_info(struct nlattr **a, void *ctx)
{
	return rp_probe_info_parse(a, ctx);
}

static int rp_agg_one(const char *what, int argc, char **argv, bool show)
{
	char usage[96], target[RP_TARGET_MAX];
	struct rp_count_names names;
	struct rp_probe_info pi;
	struct rp_probe_req req;
	struct rp_agg_result r;
	struct rp_agg_view v;
	struct rp_nl nl;
	uint64_t id;
	int rc, err;

	snprintf(usage, sizeof(usage), "Usage: rawprobectl agg %s ID\n", what);
	if (argc == 2 && rp_is_help(argv[1])) {
		fputs(usage, stdout);
		return RP_EXIT_OK;
	}
	if (argc != 2 || rp_parse_u64(argv[1], 1, UINT32_MAX, &id)) {
		fputs(usage, stderr);
		return RP_EXIT_USAGE;
	}
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
		if (rp_opts.json)
			rp_agg_print_json(&rp_json, &v, &r, NULL);
		else
			rp_agg_print_text(stdout, &v, &r, NULL);
	}
	rp_agg_result_free(&r);
	return RP_EXIT_OK;
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
	{ "show",  rp_agg_show_cmd,  "ID    the counts since the last show or clear" },
	{ "clear", rp_agg_clear_cmd, "ID    start counting afresh" },
	{ NULL, NULL, NULL },
};

int rp_cmd_agg(int argc, char **argv)
{
	return rp_dispatch("agg", rp_agg_cmds, argc - 1, argv + 1);
}
