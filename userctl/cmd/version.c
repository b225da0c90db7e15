// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl version: the CLI's and the module's versions and ABIs.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include "cmd/cmd.h"
#include "lib/cli.h"
#include "out/format.h"

/* The module's part is left out when it is not loaded (mi NULL). */
static void rp_version_json(const struct rp_module_info *mi)
{
	struct json *j = &rp_json;

	json_obj_open(j);
	json_key(j, "cli");
	json_obj_open(j);
	json_kv_str(j, "version", RAWPROBECTL_VERSION);
	json_kv_u64(j, "abi", RAWPROBE_ABI_VERSION);
	json_kv_u64(j, "json_schema", RAWPROBECTL_JSON_SCHEMA);
	json_obj_close(j);
	if (!mi) {
		json_obj_close(j);
		json_end_doc(j);
		return;
	}
	json_key(j, "module");
	json_obj_open(j);
	json_kv_str(j, "version", mi->version);
	json_kv_u64(j, "abi", mi->abi);
	json_kv_str(j, "kernel", mi->kernel);
	json_kv_u64(j, "rings", mi->nr_rings);
	json_kv_u64(j, "ring_records", mi->ring_records);
	json_kv_str(j, "ring_mode", rp_ring_mode_name(mi->ring_mode));
	json_kv_u64(j, "probes", mi->nr_probes);
	json_obj_close(j);
	json_kv_bool(j, "abi_match", mi->abi == RAWPROBE_ABI_VERSION);
	json_obj_close(j);
	json_end_doc(j);
}

static void rp_version_text(const struct rp_module_info *mi)
{
	printf("rawprobectl %s (ABI %u)\n", RAWPROBECTL_VERSION,
	       RAWPROBE_ABI_VERSION);
	printf("module      %s (ABI %u) on Linux %s\n", mi->version, mi->abi,
	       mi->kernel);
	printf("rings       %u x %u records (%u KiB each), %s mode\n",
	       mi->nr_rings, mi->ring_records,
	       mi->ring_records * RAWPROBE_RECORD_SIZE / 1024,
	       rp_ring_mode_name(mi->ring_mode));
	printf("probes      %u\n", mi->nr_probes);
}

int rp_cmd_version(int argc, char **argv)
{
	struct rp_module_info mi = { 0 };
	struct rp_nl nl;
	int rc, err;

	rc = rp_no_args(argc, argv, "Usage: rawprobectl version\n"
			       "Print the CLI's and the loaded module's "
			       "versions and ABI versions.\n");
	if (rc)
		return rc < 0 ? RP_EXIT_OK : rc;
	rc = rp_connect(&nl);
	if (rc) {
		if (rp_opts.json)
			rp_version_json(NULL);
		else
			printf("rawprobectl %s (ABI %u)\n",
			       RAWPROBECTL_VERSION, RAWPROBE_ABI_VERSION);
		return rc;
	}
	err = rp_module_info_get(&nl, &mi);
	if (err) {
		rc = rp_fail(&nl, "version", err);
		rp_nl_close(&nl);
		return rc;
	}
	rp_nl_close(&nl);
	if (rp_opts.json)
		rp_version_json(&mi);
	else
		rp_version_text(&mi);
	if (mi.abi != RAWPROBE_ABI_VERSION) {
		fprintf(stderr, "rawprobectl: ABI mismatch: CLI %u, module %u; "
			"rebuild both from one tree\n", RAWPROBE_ABI_VERSION,
			mi.abi);
		return RP_EXIT_FAIL;
	}
	return RP_EXIT_OK;
}
