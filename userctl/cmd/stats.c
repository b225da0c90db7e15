// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl stats [show [ID...]] | stats reset ID|all: every probe's
 * counters and their totals, where each hit went.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/probe_nl.h"

#define RP_NSTATS 9

static const char *const rp_stat_keys[RP_NSTATS] = {
	"hits", "records", "lost_ring", "missed_maxactive",
	"missed_recursion", "string_faults", "fetch_faults", "filtered",
	"overridden",
};

static void rp_stats_of(const struct rp_probe_info *pi, uint64_t *v)
{
	v[0] = pi->hits;
	v[1] = pi->records;
	v[2] = pi->lost_ring;
	v[3] = pi->miss_maxactive;
	v[4] = pi->miss_recursion;
	v[5] = pi->str_faults;
	v[6] = pi->fetch_faults;
	v[7] = pi->filtered;
	v[8] = pi->overridden;
}

static void rp_stats_json_counters(struct json *j, const uint64_t *v)
{
	int i;

	for (i = 0; i < RP_NSTATS; i++)
		json_kv_u64(j, rp_stat_keys[i], v[i]);
}

static void rp_stats_row(const char *id, const char *name, const uint64_t *v)
{
	int i;

	printf("%5s %-36s", id, name);
	for (i = 0; i < RP_NSTATS; i++)
		printf(" %10" PRIu64, v[i]);
	putchar('\n');
}

static bool rp_stats_wanted(uint32_t id, char **ids, int nids)
{
	int i;

	for (i = 0; i < nids; i++)
		if (strtoul(ids[i], NULL, 0) == id)
			return true;
	return !nids;
}

static void rp_stats_print(const struct rp_probe_info *v, size_t n,
			   char **ids, int nids)
{
	uint64_t c[RP_NSTATS], total[RP_NSTATS] = { 0 };
	char name[RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) + 1];
	struct rp_probe_desc d;
	char id[16];
	size_t i;
	int k;

	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_key(&rp_json, "probes");
		json_arr_open(&rp_json);
	} else {
		printf("%5s %-36s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
		       "ID", "PROBE", "HITS", "RECORDS", "LOST", "MISSED",
		       "RECURSION", "STRFAULTS", "FETCHFLTS", "FILTERED",
		       "OVERRIDES");
	}
	for (i = 0; i < n; i++) {
		if (!rp_stats_wanted(v[i].id, ids, nids))
			continue;
		rp_probe_desc(&v[i], &d);
		rp_stats_of(&v[i], c);
		for (k = 0; k < RP_NSTATS; k++)
			total[k] += c[k];
		if (!rp_opts.json) {
			snprintf(id, sizeof(id), "%u", v[i].id);
			rp_stats_row(id, rp_escape_str(name, sizeof(name), d.name,
							 sizeof(d.name)), c);
			continue;
		}
		json_obj_open(&rp_json);
		json_kv_u64(&rp_json, "id", v[i].id);
		json_kv_str(&rp_json, "probe", d.name);
		rp_stats_json_counters(&rp_json, c);
		json_obj_close(&rp_json);
	}
	if (!rp_opts.json) {
		rp_stats_row("", "total", total);
		return;
	}
	json_arr_close(&rp_json);
	json_key(&rp_json, "total");
	json_obj_open(&rp_json);
	rp_stats_json_counters(&rp_json, total);
	json_obj_close(&rp_json);
	json_obj_close(&rp_json);
	json_end_doc(&rp_json);
}

static const char rp_stats_show_usage[] =
	"Usage: rawprobectl stats [show] [ID...]\n"
	"Counters of every probe (or of those named) and their totals:\n"
	"  HITS       handler entries, filtered or not\n"
	"  RECORDS    records written to the rings\n"
	"  LOST       records lost: the ring was full\n"
	"  MISSED     kretprobe returns missed: maxactive instances in use\n"
	"  RECURSION  hits missed: the probe fired inside a probe handler\n"
	"  STRFAULTS  string arguments that could not be read\n"
	"  FETCHFLTS  field fetches (--args PATH, --filter) that hit a bad\n"
	"             pointer: those values show as (fault)\n"
	"  FILTERED   hits rejected by the probe's --pid/--tgid/--comm/--cpu\n"
	"             or --filter (and, with --override, by its limits)\n"
	"  OVERRIDES  hits whose function was made to return (--override)\n"
	"HITS = RECORDS + LOST + FILTERED for every probe (a counting probe's\n"
	"HITS - FILTERED are its counts and dropped keys).\n";

static int rp_stats_show(int argc, char **argv)
{
	struct rp_probe_info *v = NULL;
	struct rp_nl nl;
	uint64_t id;
	size_t n = 0;
	int rc, err, i;

	for (i = 1; i < argc; i++) {
		if (rp_is_help(argv[i])) {
			fputs(rp_stats_show_usage, stdout);
			return RP_EXIT_OK;
		}
		if (rp_parse_u64(argv[i], 1, UINT32_MAX, &id))
			return rp_usage_error("'%s' is not a probe id (see 'probe list')",
					      argv[i]);
	}
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	err = rp_probe_dump(&nl, &v, &n);
	rc = err ? rp_fail(&nl, "stats", err) : RP_EXIT_OK;
	rp_nl_close(&nl);
	if (!err)
		rp_stats_print(v, n, argv + 1, argc - 1);
	free(v);
	return rc;
}

static const struct rp_cmd rp_stats_cmds[] = {
	{ "show",  rp_stats_show,      "[ID...]   counters and totals (default)" },
	{ "reset", rp_probe_reset_cmd, "ID|all    zero counters" },
	{ NULL, NULL, NULL },
};

int rp_cmd_stats(int argc, char **argv)
{
	/* "stats" and "stats 3 4" mean "stats show ..." */
	if (argc < 2 || (argv[1][0] >= '0' && argv[1][0] <= '9'))
		return rp_stats_show(argc, argv);
	return rp_dispatch("stats", rp_stats_cmds, argc - 1, argv + 1);
}
