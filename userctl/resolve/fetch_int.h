/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Field fetches' internals: what path.c, which compiles a field path
 * against BTF, shares with the two that compile paths through it,
 * args.c (--args by name) and filter.c (--filter). Calls go one way:
 * args.c and filter.c use path.c, never the other way round.
 */
#ifndef RAWPROBECTL_FETCH_INT_H
#define RAWPROBECTL_FETCH_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "rawprobe.h"
#include "resolve/btf_int.h"
#include "lib/names.h"
#include "lib/path.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What paths are compiled against: the probed function's prototype. */
struct rp_fctx {
	unsigned int kind;		/* enum rawprobe_kind: retval or not */
	const char *function;
	const struct rp_btf_proto *pr;	/* NULL: no BTF (argN, retval only) */
	const char *what;		/* for messages: "--args 'skb->len'" */
	bool what_names_it;		/* ...which names the whole path */
	bool quiet;			/* labels: a path that fails says nothing */
	bool pair_latency;		/* a pair's end's filter: 'latency' is
					 * the time since its start, in ns */
};

/* A value, compiled. */
struct rp_operand {
	struct rawprobe_fetch f;
	uint32_t type;		/* its BTF type, modifiers skipped; 0: unknown */
	uint32_t declared;	/* as declared (a typedef's name, for messages) */
	unsigned char argtype;	/* enum rawprobe_argtype */
};

/* "did you mean" names, gathered while looking for query */
struct rp_near_names {
	const char *query;
	struct rp_btf_near best[RP_BTF_NEAR];
	int n;
};

static inline bool rp_is_str_type(int type)
{
	return type == RAWPROBE_ARG_KSTR || type == RAWPROBE_ARG_USTR;
}

/* What the record's string area carries (names.h) */
static inline bool rp_is_area_type(int type)
{
	return type >= 0 && rp_argtype_is_area((unsigned int)type);
}

/* "rawprobectl: <cx->what>: <message>" (nothing if cx is quiet): usage */
int rp_fetch_error(const struct rp_fctx *cx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The parameter called name (or argN): its index, or -1 */
int rp_param_index(const struct rp_btf_proto *pr, const char *name);
/* A path into a program; want: a :TYPE given, or -1 */
int rp_operand_compile(const struct rp_fctx *cx, const struct rp_path *p,
		       int want, struct rp_operand *o);
/*
 * Is o, compiled from p, a string (*size: a char array's, else 0), and
 * one in user memory (*user)?
 */
bool rp_operand_str(const struct rp_fctx *cx, const struct rp_path *p,
		    const struct rp_operand *o, uint16_t *size, bool *user);

#endif
