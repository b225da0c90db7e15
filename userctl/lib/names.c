// SPDX-License-Identifier: GPL-2.0
/*
 * The names of the ABI's enums, both ways (kinds, states, events, ring
 * modes, clocks, argument types), and argument lists as --args spells
 * them ("fd:s32,buf:ptr").
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/names.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rp_kinds[] = {
	[RAWPROBE_KIND_KPROBE]		= "kprobe",
	[RAWPROBE_KIND_KRETPROBE]	= "kretprobe",
	[RAWPROBE_KIND_JPROBE]		= "jprobe",
	[RAWPROBE_KIND_CUSTOM]		= "custom",
	[RAWPROBE_KIND_TRACEPOINT]	= "tracepoint",
};

static const char *const rp_states[] = {
	[RAWPROBE_STATE_ARMED]		= "armed",
	[RAWPROBE_STATE_DISABLED]	= "disabled",
	[RAWPROBE_STATE_GONE]		= "gone",
};

static const char *const rp_events[] = {
	[RAWPROBE_EVENT_ADDED]		= "added",
	[RAWPROBE_EVENT_REMOVED]	= "removed",
	[RAWPROBE_EVENT_GONE]		= "gone",
	[RAWPROBE_EVENT_REARMED]	= "rearmed",
	[RAWPROBE_EVENT_ENABLED]	= "enabled",
	[RAWPROBE_EVENT_DISABLED]	= "disabled",
};

static const char *const rp_modes[] = {
	[RAWPROBE_RING_DISCARD]		= "discard",
	[RAWPROBE_RING_OVERWRITE]	= "overwrite",
};

static const char *const rp_clocks[] = {
	[RAWPROBE_CLOCK_MONO]	= "mono",
	[RAWPROBE_CLOCK_TSC]	= "tsc",
	[RAWPROBE_CLOCK_AUTO]	= "auto",
};

static const char *const rp_argtypes[] = {
	[RAWPROBE_ARG_U64]	= "u64",
	[RAWPROBE_ARG_S64]	= "s64",
	[RAWPROBE_ARG_S32]	= "s32",
	[RAWPROBE_ARG_U32]	= "u32",
	[RAWPROBE_ARG_PTR]	= "ptr",
	[RAWPROBE_ARG_KSTR]	= "str",
	[RAWPROBE_ARG_USTR]	= "ustr",
	[RAWPROBE_ARG_HEX]	= "hex",
	[RAWPROBE_ARG_KSYM]	= "ksym",
	[RAWPROBE_ARG_IP4]	= "ip4",
	[RAWPROBE_ARG_BE16]	= "be16",
	[RAWPROBE_ARG_BE32]	= "be32",
	[RAWPROBE_ARG_IP6]	= "ip6",
	[RAWPROBE_ARG_TCPSTATE]	= "tcpstate",
	[RAWPROBE_ARG_CAP]	= "cap",
	[RAWPROBE_ARG_SIGNAL]	= "signal",
	[RAWPROBE_ARG_ERRNO]	= "errno",
	[RAWPROBE_ARG_KSTRV]	= "strv",
	[RAWPROBE_ARG_USTRV]	= "ustrv",
	[RAWPROBE_ARG_INET_SADDR] = "saddr",
	[RAWPROBE_ARG_INET_DADDR] = "daddr",
};

static const char *rp_name(const char *const *names, size_t n, unsigned int v)
{
	return v < n && names[v] ? names[v] : "?";
}

static int rp_parse(const char *const *names, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return (int)i;
	return -1;
}

const char *rp_kind_name(unsigned int kind)
{
	RAWPROBE_LAYOUT_ASSERTS();
	return rp_name(rp_kinds, ARRAY_SIZE(rp_kinds), kind);
}

int rp_kind_parse(const char *s)
{
	return rp_parse(rp_kinds, ARRAY_SIZE(rp_kinds), s);
}

const char *rp_state_name(unsigned int state)
{
	return rp_name(rp_states, ARRAY_SIZE(rp_states), state);
}

const char *rp_event_name(unsigned int event)
{
	return rp_name(rp_events, ARRAY_SIZE(rp_events), event);
}

const char *rp_ring_mode_name(unsigned int mode)
{
	return rp_name(rp_modes, ARRAY_SIZE(rp_modes), mode);
}

int rp_ring_mode_parse(const char *s)
{
	return rp_parse(rp_modes, ARRAY_SIZE(rp_modes), s);
}

const char *rp_clock_name(unsigned int clock)
{
	return rp_name(rp_clocks, ARRAY_SIZE(rp_clocks), clock);
}

int rp_clock_parse(const char *s)
{
	return rp_parse(rp_clocks, ARRAY_SIZE(rp_clocks), s);
}

const char *rp_argtype_name(unsigned int type)
{
	return rp_name(rp_argtypes, ARRAY_SIZE(rp_argtypes), type);
}

int rp_argtype_parse(const char *s)
{
	if (!strcmp(s, "int"))
		return RAWPROBE_ARG_S32;
	if (!strcmp(s, "long"))
		return RAWPROBE_ARG_S64;
	if (!strcmp(s, "kstr"))
		return RAWPROBE_ARG_KSTR;
	return rp_parse(rp_argtypes, ARRAY_SIZE(rp_argtypes), s);
}

int rp_argtype_word(const char *s)
{
	int t = rp_argtype_parse(s);

	return (t >= RAWPROBE_ARG_TCPSTATE && t <= RAWPROBE_ARG_ERRNO) ||
	       t == RAWPROBE_ARG_INET_SADDR || t == RAWPROBE_ARG_INET_DADDR ?
	       -1 : t;
}

int rp_is_ident(const char *s, size_t len, size_t max)
{
	size_t i;

	if (!len || len > max || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (i = 0; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') ||
		      ((s[i] | 0x20) >= 'a' && (s[i] | 0x20) <= 'z')))
			return 0;
	return 1;
}

/* "fd:s32": the name appended to names, the type returned */
static int rp_argspec_named(char *tok, char *names, size_t size)
{
	char *colon = strchr(tok, ':');
	size_t len = strlen(names);

	if (!colon || !rp_is_ident(tok, (size_t)(colon - tok), size))
		return -EINVAL;
	*colon = '\0';
	if (len + !!len + strlen(tok) >= size)
		return -ERANGE;
	snprintf(names + len, size - len, "%s%s", len ? "," : "", tok);
	return rp_argtype_parse(colon + 1);
}

int rp_argspec_parse_names(const char *spec, unsigned char *types,
			   char *names, size_t size)
{
	char buf[128], *tok, *rest = buf;
	int n = 0, t, named = names && strchr(spec, ':');

	if (names)
		names[0] = '\0';
	if (strlen(spec) >= sizeof(buf))
		return -EINVAL;
	/* A bare count: that many raw u64 arguments. */
	if (spec[0] >= '0' && spec[0] <= '9' && !spec[1]) {
		n = spec[0] - '0';
		if (n > RAWPROBE_MAX_ARGS)
			return -ERANGE;
		memset(types, RAWPROBE_ARG_U64, (size_t)n);
		return n;
	}
	strcpy(buf, spec);
	/* strsep, not strtok: an empty type ("u64,,s32") is an error */
	while ((tok = strsep(&rest, ","))) {
		if (n == RAWPROBE_MAX_ARGS)
			return -ERANGE;
		/* every argument named, or none: one name per argument */
		t = named ? rp_argspec_named(tok, names, size) :
			    rp_argtype_word(tok);
		if (t < 0)
			return -EINVAL;
		types[n++] = (unsigned char)t;
	}
	return n ? n : -EINVAL;
}

int rp_argspec_parse(const char *spec, unsigned char *types)
{
	return rp_argspec_parse_names(spec, types, NULL, 0);
}
