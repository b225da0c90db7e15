/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sessions (RING_NEW, RING_DEL, RING_GET and its dump) for the test
 * tools, over rawprobectl's netlink layer (userctl/lib/nl.c): what the
 * fuzzer's clean-up and final checks (nl_fuzz) and the fault walks'
 * driver (nl_session) share.
 */
#ifndef RAWPROBE_TESTS_SESSIONS_H
#define RAWPROBE_TESTS_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "lib/nl.h"

#define TS_MAX_SESSIONS	1100	/* the kernel lists up to 1024 and 0 */

struct ts_session {
	uint32_t id;
	char name[RAWPROBE_SESSION_NAME_LEN];	/* "": unnamed */
	uint32_t records, mode, nr_rings, uid, nr_probes, readers;
	uint64_t bytes, lost;
	bool has_id, has_records;	/* the answer carried them */
};

/* Every listed session (a RING_GET dump), in id order; 0 or -errno. */
int ts_session_list(struct rp_nl *nl, struct ts_session *v, int max, int *n);

/*
 * RING_NEW: name NULL for an unnamed session (the socket's), records 0
 * for the automatic size, mode < 0 for the default session's. The
 * answer in *out when out is set.
 */
int ts_session_new(struct rp_nl *nl, const char *name, uint32_t records,
		   int mode, struct ts_session *out);

/* RING_DEL by name when name is set, else by id. */
int ts_session_del(struct rp_nl *nl, uint32_t id, const char *name);

/*
 * RING_DEL of every named session (by id, as listed); *deleted counts
 * them. The first error, or 0.
 */
int ts_session_del_named(struct rp_nl *nl, int *deleted);

/*
 * Poll the listing until the default session is the only one (a closed
 * socket's sessions are reaped by a work item), for up to timeout_ms.
 * True if it came to that; *left: how many others were listed last.
 */
bool ts_session_wait_default(struct rp_nl *nl, int timeout_ms, int *left);

/*
 * The budget all rings share (a sixteenth of MemTotal) is all there
 * for new sessions but what the listed ones hold: fill it with named
 * sessions of the largest sizes that fit (each must be admitted), then
 * one of the smallest size must be refused with E2BIG; delete them all.
 * Retried for up to timeout_ms (a session being reaped still holds its
 * rings a moment). True if the budget is exact; detail says what was
 * seen.
 */
bool ts_budget_check(struct rp_nl *nl, int timeout_ms, char *detail,
		     size_t len);

#endif
