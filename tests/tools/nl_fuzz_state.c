// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer's snapshots of the module's state (probes, the
 * default rings, sessions), taken from a root socket: what the root
 * class restores and the user class compares while its unprivileged
 * child fuzzes. Apart because it talks to the module through
 * rawprobectl's own calls (userctl/lib/nl.c), not the fuzzer's bytes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include "nl_fuzz.h"

/* --- state snapshots, through rawprobectl's own netlink calls --- */

static int snap_probe(struct nlattr **a, void *ctx)
{
	struct snapshot *s = ctx;
	struct pstate *p;
	struct nlattr *st[RAWPROBE_STAT_MAX + 1];

	if (s->n >= (int)(sizeof(s->p) / sizeof(s->p[0])) ||
	    !a[RAWPROBE_A_PROBE_ID])
		return 0;
	p = &s->p[s->n++];
	memset(p, 0, sizeof(*p));
	p->id = nla_get_u32(a[RAWPROBE_A_PROBE_ID]);
	if (a[RAWPROBE_A_KIND])
		p->kind = nla_get_u8(a[RAWPROBE_A_KIND]);
	if (a[RAWPROBE_A_STATE])
		p->state = nla_get_u8(a[RAWPROBE_A_STATE]);
	if (a[RAWPROBE_A_FLAGS])
		p->flags = nla_get_u32(a[RAWPROBE_A_FLAGS]);
	if (a[RAWPROBE_A_SYMBOL])
		snprintf(p->target, sizeof(p->target), "%s",
			 nla_get_string(a[RAWPROBE_A_SYMBOL]));
	p->module_owned = a[RAWPROBE_A_OWNER_MODULE] != NULL;
	if (a[RAWPROBE_A_STATS] &&
	    !nla_parse_nested(st, RAWPROBE_STAT_MAX, a[RAWPROBE_A_STATS], NULL) &&
	    st[RAWPROBE_STAT_HITS])
		p->hits = nla_get_u64(st[RAWPROBE_STAT_HITS]);
	return 0;
}

static int snap_ring(struct nlattr **a, void *ctx)
{
	struct snapshot *s = ctx;

	if (a[RAWPROBE_A_RING_RECORDS])
		s->records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
	if (a[RAWPROBE_A_RING_MODE])
		s->mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	if (a[RAWPROBE_A_NR_PROBES])
		s->nr_probes = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	return 0;
}

void snapshot(struct rp_nl *nl, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->ok = !rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_PROBE_GET, NLM_F_DUMP),
			    snap_probe, s) &&
		!rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_GET_INFO, 0),
			    snap_ring, s) &&
		!ts_session_list(nl, s->sess, 64, &s->nsess);
}

/* Unchanged: the same probes in the same states, no counter went back. */
bool same_state(const struct snapshot *a, const struct snapshot *b,
		char *why, size_t len)
{
	int i;

	if (!a->ok || !b->ok) {
		snprintf(why, len, "a snapshot failed");
		return false;
	}
	if (a->records != b->records || a->mode != b->mode) {
		snprintf(why, len, "rings %u/%u became %u/%u", a->records,
			 a->mode, b->records, b->mode);
		return false;
	}
	if (a->n != b->n) {
		snprintf(why, len, "%d probes became %d", a->n, b->n);
		return false;
	}
	if (a->nsess != b->nsess) {
		snprintf(why, len, "%d sessions became %d", a->nsess, b->nsess);
		return false;
	}
	for (i = 0; i < a->nsess; i++) {
		const struct ts_session *p = &a->sess[i], *q = &b->sess[i];

		if (p->id != q->id || strcmp(p->name, q->name) ||
		    p->records != q->records || p->mode != q->mode ||
		    p->uid != q->uid || p->nr_probes != q->nr_probes ||
		    p->bytes != q->bytes) {
			snprintf(why, len, "session %u '%s' changed: %u records "
				 "mode %u uid %u %u probes %" PRIu64 " bytes -> "
				 "%u '%s' %u mode %u uid %u %u probes %" PRIu64,
				 p->id, p->name, p->records, p->mode, p->uid,
				 p->nr_probes, p->bytes, q->id, q->name,
				 q->records, q->mode, q->uid, q->nr_probes,
				 q->bytes);
			return false;
		}
	}
	for (i = 0; i < a->n; i++) {
		const struct pstate *p = &a->p[i], *q = &b->p[i];

		if (p->id != q->id || p->kind != q->kind ||
		    p->state != q->state || p->flags != q->flags ||
		    strcmp(p->target, q->target) || q->hits < p->hits) {
			snprintf(why, len, "probe %u (%s) changed: state %u->%u, "
				 "flags %#x->%#x, hits %" PRIu64 "->%" PRIu64,
				 p->id, p->target, p->state, q->state, p->flags,
				 q->flags, p->hits, q->hits);
			return false;
		}
	}
	return true;
}
