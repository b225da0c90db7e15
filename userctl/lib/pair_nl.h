/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A pair's probe in netlink (lib/pair_nl.c): RAWPROBE_A_PAIR as a
 * request carries it and a description gives it back, with the pair's
 * counts (RAWPROBE_A_PAIR_STATS). lib/probe_nl.c calls here.
 */
#ifndef RAWPROBECTL_PAIR_NL_H
#define RAWPROBECTL_PAIR_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include "rawprobe.h"

/* What the key was given as, for --from-key, --to-key and --key */
#define RP_PAIR_KEY_EXPR_MAX 128

struct rp_pair_req {
	uint8_t role;		/* enum rawprobe_pair_role; 0: not a pair's */
	uint8_t key;		/* RAWPROBE_AGG_KEY_PID, _TGID or _ARG */
	uint8_t key_arg;	/* _ARG: the argument (resolved) */
	uint32_t max_keys;	/* 0: the module's default */
	uint32_t expire_ms;
	uint8_t carry_args;	/* a start's: its first arguments, for the
				 * ends' --by start.NAME
				 */
	char key_expr[RP_PAIR_KEY_EXPR_MAX];	/* as written */
};

struct rp_pair_stats {
	bool set;		/* the description had them */
	uint64_t starts, matched, no_start, full, expired, replaced, pending;
};

/* RAWPROBE_A_PAIR of a request: 0 or -EMSGSIZE */
int rp_pair_put(struct nl_msg *msg, const struct rp_pair_req *p);
/* A description's pair and counts (zeroed when it has none) */
void rp_pair_from_attrs(struct nlattr **a, struct rp_pair_req *p,
			struct rp_pair_stats *st);

#endif
