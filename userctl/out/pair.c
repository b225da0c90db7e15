// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's probe as rawprobectl shows it (out/pair.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include "out/pair.h"

/* The key as the kernel takes it: "pid", "tgid" or "argN" */
static const char *rp_pair_key_str(const struct rp_pair_req *p, char *buf,
				   size_t len)
{
	if (p->key == RAWPROBE_AGG_KEY_ARG)
		snprintf(buf, len, "arg%u", p->key_arg);
	else
		snprintf(buf, len, "%s", p->key == RAWPROBE_AGG_KEY_TGID ?
			 "tgid" : "pid");
	return buf;
}

static const char *rp_pair_role(const struct rp_pair_req *p)
{
	return p->role == RAWPROBE_PAIR_START ? "start" : "end";
}

const char *rp_pair_str(const struct rp_pair_req *p, char *buf, size_t len)
{
	char key[16];

	snprintf(buf, len, "pair %s key=%s max_keys=%u expire_ms=%u",
		 rp_pair_role(p), rp_pair_key_str(p, key, sizeof(key)),
		 p->max_keys, p->expire_ms);
	return buf;
}

void rp_pair_json(struct json *j, const struct rp_pair_req *p,
		  const struct rp_pair_stats *st)
{
	char key[16];

	json_key(j, "pair");
	json_obj_open(j);
	json_kv_str(j, "role", rp_pair_role(p));
	json_kv_str(j, "key", rp_pair_key_str(p, key, sizeof(key)));
	json_kv_u64(j, "max_keys", p->max_keys);
	json_kv_u64(j, "expire_ms", p->expire_ms);
	if (st && st->set) {
		json_key(j, "stats");
		json_obj_open(j);
		json_kv_u64(j, "starts", st->starts);
		json_kv_u64(j, "matched", st->matched);
		json_kv_u64(j, "no_start", st->no_start);
		json_kv_u64(j, "full", st->full);
		json_kv_u64(j, "expired", st->expired);
		json_kv_u64(j, "replaced", st->replaced);
		json_kv_u64(j, "pending", st->pending);
		json_obj_close(j);
	}
	json_obj_close(j);
}

void rp_pair_summary(FILE *out, const struct rp_pair_stats *st)
{
	fprintf(out, "pair: %" PRIu64 " starts, %" PRIu64 " matched, %" PRIu64
		" ends without a start, %" PRIu64 " full, %" PRIu64
		" expired, %" PRIu64 " replaced, %" PRIu64 " pending\n",
		st->starts, st->matched, st->no_start, st->full, st->expired,
		st->replaced, st->pending);
}

void rp_pair_detail(FILE *out, const struct rp_pair_req *p,
		    const struct rp_pair_stats *st)
{
	char key[16];

	fprintf(out, "  pair        %s, key %s, room for %u starts%s, expiry %u ms\n",
		rp_pair_role(p), rp_pair_key_str(p, key, sizeof(key)),
		p->max_keys ? p->max_keys : RAWPROBE_AGG_KEYS_DEFAULT,
		p->max_keys ? "" : " (default)", p->expire_ms);
	if (st->set) {
		fputs("  pair counts ", out);
		rp_pair_summary(out, st);
	}
}
