// SPDX-License-Identifier: GPL-2.0
/*
 * Sessions for the test tools (sessions.h): listing, making and deleting
 * them, waiting for a closed socket's to go, and the budget check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netlink/attr.h>
#include "sessions.h"

static void ts_parse(struct nlattr **a, struct ts_session *s)
{
	memset(s, 0, sizeof(*s));
	if (a[RAWPROBE_A_SESSION]) {
		s->id = nla_get_u32(a[RAWPROBE_A_SESSION]);
		s->has_id = true;
	}
	if (a[RAWPROBE_A_SESSION_NAME])
		snprintf(s->name, sizeof(s->name), "%.*s",
			 nla_len(a[RAWPROBE_A_SESSION_NAME]),
			 (char *)nla_data(a[RAWPROBE_A_SESSION_NAME]));
	if (a[RAWPROBE_A_RING_RECORDS]) {
		s->records = nla_get_u32(a[RAWPROBE_A_RING_RECORDS]);
		s->has_records = true;
	}
	if (a[RAWPROBE_A_RING_MODE])
		s->mode = nla_get_u32(a[RAWPROBE_A_RING_MODE]);
	if (a[RAWPROBE_A_NR_RINGS])
		s->nr_rings = nla_get_u32(a[RAWPROBE_A_NR_RINGS]);
	if (a[RAWPROBE_A_SESSION_UID])
		s->uid = nla_get_u32(a[RAWPROBE_A_SESSION_UID]);
	if (a[RAWPROBE_A_NR_PROBES])
		s->nr_probes = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	if (a[RAWPROBE_A_SESSION_READERS])
		s->readers = nla_get_u32(a[RAWPROBE_A_SESSION_READERS]);
	if (a[RAWPROBE_A_RING_BYTES])
		s->bytes = nla_get_u64(a[RAWPROBE_A_RING_BYTES]);
	if (a[RAWPROBE_A_SESSION_LOST])
		s->lost = nla_get_u64(a[RAWPROBE_A_SESSION_LOST]);
}

struct ts_list {
	struct ts_session *v;
	int max, n;
};

static int ts_list_one(struct nlattr **a, void *ctx)
{
	struct ts_list *l = ctx;

	if (l->n < l->max)
		ts_parse(a, &l->v[l->n]);
	l->n++;
	return 0;
}

int ts_session_list(struct rp_nl *nl, struct ts_session *v, int max, int *n)
{
	struct ts_list l = { .v = v, .max = max };
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_GET, NLM_F_DUMP);
	int err;

	if (!msg)
		return -ENOMEM;
	err = rp_nl_call(nl, msg, ts_list_one, &l);
	*n = l.n < max ? l.n : max;
	return err;
}

static int ts_answer(struct nlattr **a, void *ctx)
{
	if (ctx)
		ts_parse(a, ctx);
	return 0;
}

int ts_session_new(struct rp_nl *nl, const char *name, uint32_t records,
		   int mode, struct ts_session *out)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_NEW, 0);

	if (!msg)
		return -ENOMEM;
	if (name)
		nla_put_string(msg, RAWPROBE_A_SESSION_NAME, name);
	if (records)
		nla_put_u32(msg, RAWPROBE_A_RING_RECORDS, records);
	if (mode >= 0)
		nla_put_u32(msg, RAWPROBE_A_RING_MODE, mode);
	return rp_nl_call(nl, msg, ts_answer, out);
}

int ts_session_del(struct rp_nl *nl, uint32_t id, const char *name)
{
	struct nl_msg *msg = rp_nl_msg(nl, RAWPROBE_CMD_RING_DEL, 0);

	if (!msg)
		return -ENOMEM;
	if (name)
		nla_put_string(msg, RAWPROBE_A_SESSION_NAME, name);
	else
		nla_put_u32(msg, RAWPROBE_A_SESSION, id);
	return rp_nl_call(nl, msg, NULL, NULL);
}

int ts_session_del_named(struct rp_nl *nl, int *deleted)
{
	struct ts_session *v = calloc(TS_MAX_SESSIONS, sizeof(*v));
	int n, i, err, first = 0;

	*deleted = 0;
	if (!v)
		return -ENOMEM;
	err = ts_session_list(nl, v, TS_MAX_SESSIONS, &n);
	for (i = 0; !err && i < n; i++) {
		if (!v[i].name[0])
			continue;
		err = ts_session_del(nl, v[i].id, NULL);
		if (!err)
			(*deleted)++;
		else if (!first)
			first = err;
		err = 0;
	}
	free(v);
	return err ?: first;
}

static void ts_sleep_ms(int ms)
{
	struct timespec t = { .tv_sec = ms / 1000,
			      .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

bool ts_session_wait_default(struct rp_nl *nl, int timeout_ms, int *left)
{
	struct ts_session *v = calloc(TS_MAX_SESSIONS, sizeof(*v));
	int n, waited = 0, i;
	bool ok = false;

	*left = -1;
	if (!v)
		return false;
	for (;;) {
		if (!ts_session_list(nl, v, TS_MAX_SESSIONS, &n)) {
			*left = 0;
			for (i = 0; i < n; i++)
				*left += v[i].id != RAWPROBE_SESSION_DEFAULT;
			ok = n >= 1 && v[0].id == RAWPROBE_SESSION_DEFAULT &&
			     !*left;
		}
		if (ok || waited >= timeout_ms)
			break;
		ts_sleep_ms(20);
		waited += 20;
	}
	free(v);
	return ok;
}

/* What a session of n records takes (kmod/ring.c rp_rings_bytes()). */
static uint64_t ts_rings_bytes(uint32_t n, uint32_t cpus)
{
	return ((uint64_t)n * RAWPROBE_RECORD_SIZE +
		(uint64_t)sysconf(_SC_PAGESIZE)) * cpus;
}

/* kmod/budget.c rp_budget_limit(): a sixteenth of totalram (MemTotal). */
static uint64_t ts_budget_limit(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024 / 16;
}

static int ts_probe_count(struct nlattr **a, void *ctx)
{
	if (a[RAWPROBE_A_NR_PROBES])
		*(uint32_t *)ctx = nla_get_u32(a[RAWPROBE_A_NR_PROBES]);
	return 0;
}

#define TS_FILL_MAX	64

/* One attempt: 1 exact, 0 short (retry), -1 wrong; sessions deleted. */
static int ts_budget_try(struct rp_nl *nl, char *detail, size_t len)
{
	struct ts_session *v = calloc(TS_MAX_SESSIONS, sizeof(*v)), got;
	uint64_t limit = ts_budget_limit(), used = 0, left, b;
	uint32_t ids[TS_FILL_MAX], cpus = 0, n, probes = ~0u;
	int nv, i, nfill = 0, err, ret = 1;
	char name[RAWPROBE_SESSION_NAME_LEN];

	if (!v || !limit) {
		snprintf(detail, len, "no memory, or no MemTotal");
		free(v);
		return -1;
	}
	err = rp_nl_call(nl, rp_nl_msg(nl, RAWPROBE_CMD_GET_INFO, 0),
			 ts_probe_count, &probes) ?:
	      ts_session_list(nl, v, TS_MAX_SESSIONS, &nv);
	if (err || probes) {
		snprintf(detail, len, "%s", err ? strerror(-err) :
			 "probes hold some of the budget: delete them first");
		free(v);
		return -1;
	}
	for (i = 0; i < nv; i++) {
		used += v[i].bytes;
		cpus = v[i].nr_rings;
	}
	free(v);
	if (!cpus || used > limit) {
		snprintf(detail, len, "%u rings, %" PRIu64 " of %" PRIu64
			 " bytes used", cpus, used, limit);
		return -1;
	}
	left = limit - used;
	for (n = RAWPROBE_RING_MAX; n >= RAWPROBE_RING_MIN && ret == 1; n /= 2) {
		b = ts_rings_bytes(n, cpus);
		while (b <= left && nfill < TS_FILL_MAX) {
			snprintf(name, sizeof(name), "ts-budget-%d", nfill);
			err = ts_session_new(nl, name, n, -1, &got);
			if (err) {
				snprintf(detail, len, "a session of %u records "
					 "(%" PRIu64 " bytes) refused with %" PRIu64
					 " of %" PRIu64 " left: %s (%s)", n, b,
					 left, limit, strerror(-err), nl->errmsg);
				ret = err == -E2BIG ? 0 : -1;
				break;
			}
			ids[nfill++] = got.id;
			if (got.bytes != b) {
				snprintf(detail, len, "a session of %u records "
					 "holds %" PRIu64 " bytes, not %" PRIu64,
					 n, got.bytes, b);
				ret = -1;
				break;
			}
			left -= b;
		}
	}
	if (ret == 1) {
		err = ts_session_new(nl, "ts-budget-over", RAWPROBE_RING_MIN, -1,
				     &got);
		if (!err) {
			ids[nfill++] = got.id;
			snprintf(detail, len, "a session of %u records admitted "
				 "with %" PRIu64 " bytes of the budget left",
				 RAWPROBE_RING_MIN, left);
			ret = -1;
		} else if (err != -E2BIG) {
			snprintf(detail, len, "the last session: %s (%s), not "
				 "E2BIG", strerror(-err), nl->errmsg);
			ret = -1;
		} else {
			snprintf(detail, len, "%" PRIu64 " of %" PRIu64 " bytes "
				 "in %d sessions, %" PRIu64 " used before, %"
				 PRIu64 " left", limit - used - left, limit,
				 nfill, used, left);
		}
	}
	for (i = 0; i < nfill; i++) {
		err = ts_session_del(nl, ids[i], NULL);
		if (err && ret >= 0) {
			snprintf(detail, len, "deleting session %u: %s", ids[i],
				 strerror(-err));
			ret = -1;
		}
	}
	return ret;
}

bool ts_budget_check(struct rp_nl *nl, int timeout_ms, char *detail,
		     size_t len)
{
	int waited = 0, r;

	for (;;) {
		r = ts_budget_try(nl, detail, len);
		if (r || waited >= timeout_ms)
			return r == 1;
		ts_sleep_ms(100);
		waited += 100;
	}
}
