/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the ABI's enums, both ways, and --args' argument lists.
 */
#ifndef RAWPROBECTL_NAMES_H
#define RAWPROBECTL_NAMES_H

#include <stddef.h>
#include "rawprobe.h"

const char *rp_kind_name(unsigned int kind);
int rp_kind_parse(const char *s);		/* -1 if unknown */
const char *rp_state_name(unsigned int state);
const char *rp_event_name(unsigned int event);
const char *rp_ring_mode_name(unsigned int mode);
int rp_ring_mode_parse(const char *s);		/* -1 if unknown */
const char *rp_clock_name(unsigned int clock);
int rp_clock_parse(const char *s);		/* -1 if unknown */
const char *rp_argtype_name(unsigned int type);
int rp_argtype_parse(const char *s);		/* -1 if unknown */
/*
 * A bare type word of a positional list ("u64,s32"): not a lookup's nor
 * a socket address's (cap, signal, errno, saddr name parameters as
 * often as types: those are NAME:TYPE's only).
 */
int rp_argtype_word(const char *s);

/* Addresses the kernel copies into the string area: bytes, no NUL */
static inline int rp_argtype_is_addr(unsigned int t)
{
	return t == RAWPROBE_ARG_IP6 || t == RAWPROBE_ARG_INET_SADDR ||
	       t == RAWPROBE_ARG_INET_DADDR;
}

/* A string array (strv, ustrv): its strings joined, as one string. */
static inline int rp_argtype_is_strv(unsigned int t)
{
	return t == RAWPROBE_ARG_KSTRV || t == RAWPROBE_ARG_USTRV;
}

/* What the record's string area carries: strings, their arrays, addresses */
static inline int rp_argtype_is_area(unsigned int t)
{
	return t == RAWPROBE_ARG_KSTR || t == RAWPROBE_ARG_USTR ||
	       rp_argtype_is_addr(t) || rp_argtype_is_strv(t);
}
/* "s32,ustr,u64": fills types[], returns the count or a negative errno. */
int rp_argspec_parse(const char *spec, unsigned char *types);
/*
 * The same, and "fd:s32,buf:ptr" (a name for every argument or none):
 * names gets "fd,buf" (RAWPROBE_A_ARG_NAMES), or "" without names.
 */
int rp_argspec_parse_names(const char *spec, unsigned char *types,
			   char *names, size_t size);
/* Is s a C identifier of at most max bytes? */
int rp_is_ident(const char *s, size_t len, size_t max);

#endif
