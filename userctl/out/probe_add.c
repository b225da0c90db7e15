// SPDX-License-Identifier: GPL-2.0
/*
 * Persistent probes added from resolved requests (out/probe_add.h):
 * probe add's targets, a glob's functions, a pair's probes.
 */
#include <stdio.h>
#include <stdlib.h>
#include "lib/cli.h"
#include "lib/json.h"
#include "lib/probe_nl.h"
#include "lib/ring_nl.h"
#include "out/probe.h"
#include "out/probe_add.h"

/*
 * An unknown session said as one (with near names), not as the add's
 * ENOENT, which an unknown symbol gives too.
 */
int rp_probe_ring_check(struct rp_nl *nl, const struct rp_probe_req *req)
{
	char label[RP_SESSION_LABEL_MAX], what[RP_SESSION_LABEL_MAX + 16];
	struct rp_session s;
	int err;

	if (!req->ring.name[0] && req->ring.id == RAWPROBE_SESSION_DEFAULT)
		return RP_EXIT_OK;
	err = rp_session_get(nl, &req->ring, &s);
	if (!err)
		return RP_EXIT_OK;
	snprintf(what, sizeof(what), "--ring %s",
		 rp_session_label(req->ring.id, req->ring.name, label,
				  sizeof(label)));
	rp_nl_perror(nl, what, err);
	rp_session_hint(nl, &req->ring, err);
	return rp_exit_from_errno(err);
}

static int rp_probe_add_print(const uint32_t *ids, size_t n)
{
	size_t i;

	if (rp_opts.json)
		json_arr_open(&rp_json);
	for (i = 0; i < n; i++) {
		if (rp_opts.json)
			json_u64(&rp_json, ids[i]);
		else
			printf("%u\n", ids[i]);
	}
	if (rp_opts.json) {
		json_arr_close(&rp_json);
		json_end_doc(&rp_json);
	}
	return RP_EXIT_OK;
}

int rp_probe_add_reqs(struct rp_probe_req **reqs, size_t *n, bool dry_run,
		      size_t max)
{
	uint32_t *ids = NULL;
	struct rp_nl nl;
	int rc, err;

	rc = rp_probe_reqs_expand(reqs, n, max);
	if (rc)
		return rc;
	err = rp_probe_check(*reqs, *n);
	if (err)
		return rp_exit_from_errno(err);
	rc = rp_probe_auto_args(*reqs, *n);
	if (rc || dry_run) {
		if (!rc)
			rp_probe_dry_run(*reqs, *n);
		return rc;
	}
	ids = calloc(*n, sizeof(*ids));
	rc = ids ? rp_connect(&nl) : RP_EXIT_FAIL;
	if (rc)
		goto out;
	rc = rp_probe_ring_check(&nl, &(*reqs)[0]);
	if (!rc) {
		err = rp_probe_add_many(&nl, *reqs, *n, ids);
		rc = err ? rp_exit_from_errno(err) : rp_probe_add_print(ids, *n);
	}
	rp_nl_close(&nl);
out:
	free(ids);
	return rc;
}
