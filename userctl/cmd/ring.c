// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl ring show|set: the per-CPU rings' geometry, mode and clock.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "out/format.h"

struct rp_ring_geo {
	uint32_t nr_rings, records, mode;
	int64_t bytes;		/* allocated now; -1: a module that does not say */
	uint32_t clock, tsc_khz;
};

static int rp_ring_reply(struct nlattr **a, void *ctx)
{
	struct rp_ring_geo *g = ctx;

	if (!a[RAWPROBE_A_NR_RINGS] || !a[RAWPROBE_A_RING_RECORDS] ||
	    !a[RAWPROBE_A_RING_MODE])
		return -EBADMSG;
	g->nr_rings = nla_get_u32(a[RAWPROBE_A_NR_RINGS]);
	g->records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	g->mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	g->bytes = a[RAWPROBE_A_RING_BYTES] ?
		   (int64_t)nla_get_u64(a[RAWPROBE_A_RING_BYTES]) : -1;
	g->clock = a[RAWPROBE_A_RING_CLOCK] ?
		   nla_get_u32(a[RAWPROBE_A_RING_CLOCK]) : RAWPROBE_CLOCK_MONO;
	g->tsc_khz = a[RAWPROBE_A_TSC_KHZ] ?
		     nla_get_u32(a[RAWPROBE_A_TSC_KHZ]) : 0;
	return 0;
}

static int rp_ring_show(int argc, char **argv)
{
	struct rp_ring_geo g;
	struct nl_msg *msg;
	struct rp_nl nl;
	int rc, err;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl ring show\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_GET, 0);
	err = msg ? rp_nl_call(&nl, msg, rp_ring_reply, &g) : -ENOMEM;
	if (err) {
		rc = rp_fail(&nl, "ring show", err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	if (rp_opts.json) {
		json_obj_open(&rp_json);
		json_kv_u64(&rp_json, "rings", g.nr_rings);
		json_kv_u64(&rp_json, "records", g.records);
		json_kv_u64(&rp_json, "record_size", RAWPROBE_RECORD_SIZE);
		json_kv_str(&rp_json, "mode", rp_ring_mode_name(g.mode));
		if (g.bytes >= 0)
			json_kv_u64(&rp_json, "allocated_bytes", (uint64_t)g.bytes);
		json_kv_str(&rp_json, "clock", rp_clock_name(g.clock));
		json_kv_u64(&rp_json, "tsc_khz", g.tsc_khz);
		json_obj_close(&rp_json);
		json_end_doc(&rp_json);
	} else {
		printf("rings %u, records %u per ring (%u KiB), mode %s\n",
		       g.nr_rings, g.records,
		       g.records * RAWPROBE_RECORD_SIZE / 1024,
		       rp_ring_mode_name(g.mode));
		if (g.bytes > 0)
			printf("allocated %llu KiB\n",
			       (unsigned long long)g.bytes / 1024);
		else if (!g.bytes)
			printf("not allocated yet: the first probe or reader allocates them\n");
		printf("clock %s", rp_clock_name(g.clock));
		if (g.tsc_khz)
			printf(" (tsc offered: %u.%03u MHz)", g.tsc_khz / 1000,
			       g.tsc_khz % 1000);
		else
			printf(" (tsc not offered: no TSC the kernel trusts)");
		printf("\n");
	}
	return RP_EXIT_OK;
}

static void rp_ring_set_usage(FILE *out)
{
	fprintf(out,
		"Usage: rawprobectl ring set [records N] [mode discard|overwrite]\n"
		"       rawprobectl ring set clock mono|tsc\n"
		"  records  per-CPU ring size, a power of two in %u..%u\n"
		"  mode     discard: a full ring drops new records (default)\n"
		"           overwrite: a full ring overwrites the oldest\n"
		"  clock    mono: records carry CLOCK_MONOTONIC ns (default)\n"
		"           tsc: the TSC, cheaper to read; readers convert it\n"
		"Records and mode only while no stream is reading; before the first\n"
		"probe or reader, they only change what will be allocated. The clock\n"
		"only while no probe is registered.\n",
		RAWPROBE_RING_MIN, RAWPROBE_RING_MAX);
}

static int rp_ring_set(int argc, char **argv)
{
	struct nl_msg *msg;
	struct rp_nl nl;
	uint64_t records = 0;
	int mode = -1, clock = -1, i, rc, err;

	for (i = 1; i < argc; i += 2) {
		if (rp_is_help(argv[i])) {
			rp_ring_set_usage(stdout);
			return RP_EXIT_OK;
		}
		if (i + 1 >= argc)
			return rp_usage_error("ring set %s: missing value", argv[i]);
		if (!strcmp(argv[i], "records")) {
			if (rp_parse_u64(argv[i + 1], RAWPROBE_RING_MIN,
					 RAWPROBE_RING_MAX, &records) ||
			    (records & (records - 1)))
				return rp_usage_error("records must be a power of two in %u..%u",
						      RAWPROBE_RING_MIN,
						      RAWPROBE_RING_MAX);
		} else if (!strcmp(argv[i], "mode")) {
			mode = rp_ring_mode_parse(argv[i + 1]);
			if (mode < 0)
				return rp_usage_error("mode is discard or overwrite, not '%s'",
						      argv[i + 1]);
		} else if (!strcmp(argv[i], "clock")) {
			clock = rp_clock_parse(argv[i + 1]);
			if (clock < 0)
				return rp_usage_error("clock is mono or tsc, not '%s'",
						      argv[i + 1]);
		} else {
			rp_ring_set_usage(stderr);
			return RP_EXIT_USAGE;
		}
	}
	if (!records && mode < 0 && clock < 0) {
		rp_ring_set_usage(stderr);
		return RP_EXIT_USAGE;
	}
	if (clock >= 0 && (records || mode >= 0))
		return rp_usage_error("ring set: the clock goes in a command of its own");
	rc = rp_connect(&nl);
	if (rc)
		return rc;
	msg = rp_nl_msg(&nl, RAWPROBE_CMD_RING_SET, 0);
	if (!msg)
		return RP_EXIT_FAIL;
	if (records)
		nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, (uint32_t)records);
	if (mode >= 0)
		nla_put_u32(msg, RAWPROBE_A_RING_MODE, (uint32_t)mode);
	if (clock >= 0)
		nla_put_u32(msg, RAWPROBE_A_RING_CLOCK, (uint32_t)clock);
	err = rp_nl_call(&nl, msg, NULL, NULL);
	rc = err ? rp_fail(&nl, "ring set", err) : RP_EXIT_OK;
	rp_nl_close(&nl);
	return rc;
}

static const struct rp_cmd rp_ring_cmds[] = {
	{ "show", rp_ring_show, "                                geometry, mode, clock" },
	{ "set",  rp_ring_set,  "[records N] [mode M] | clock C  resize, mode or clock" },
	{ NULL, NULL, NULL },
};

int rp_cmd_ring(int argc, char **argv)
{
	return rp_dispatch("ring", rp_ring_cmds, argc - 1, argv + 1);
}
