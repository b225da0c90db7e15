// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include "format.h"
#include "symbols.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rp_kinds[] = {
	[RAWPROBE_KIND_KPROBE]		= "kprobe",
	[RAWPROBE_KIND_KRETPROBE]	= "kretprobe",
	[RAWPROBE_KIND_JPROBE]		= "jprobe",
	[RAWPROBE_KIND_CUSTOM]		= "custom",
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

static const char *const rp_argtypes[] = {
	[RAWPROBE_ARG_U64]	= "u64",
	[RAWPROBE_ARG_S64]	= "s64",
	[RAWPROBE_ARG_S32]	= "s32",
	[RAWPROBE_ARG_U32]	= "u32",
	[RAWPROBE_ARG_PTR]	= "ptr",
	[RAWPROBE_ARG_KSTR]	= "str",
	[RAWPROBE_ARG_USTR]	= "ustr",
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

int rp_argspec_parse(const char *spec, unsigned char *types)
{
	char buf[128], *tok, *save = NULL;
	int n = 0, t;

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
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n == RAWPROBE_MAX_ARGS)
			return -ERANGE;
		t = rp_argtype_parse(tok);
		if (t < 0)
			return -EINVAL;
		types[n++] = (unsigned char)t;
	}
	return n ? n : -EINVAL;
}

unsigned int rp_argtype_of(const struct rp_probe_desc *d, unsigned int i)
{
	return d && i < d->nargs ? d->argtypes[i] : RAWPROBE_ARG_U64;
}

int rp_arg_is_str(const struct rawprobe_record *r, unsigned int i)
{
	return (r->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT)) &&
	       i == r->str_arg;
}

/* " <vfs_read+0x10>" for an address in kernel text, else nothing. */
static void rp_text_sym(struct rp_outbuf *ob, uint64_t addr)
{
	size_t len;
	const char *sym = rp_ksym_cached(addr, &len);

	if (!len)
		return;
	rp_ob_put(ob, " <", 2);
	rp_ob_put(ob, sym, len);
	rp_ob_putc(ob, '>');
}

/* The captured string, quoted as is (text output does not escape). */
static void rp_text_str(struct rp_outbuf *ob, const struct rawprobe_record *r)
{
	size_t max = r->str_len < RAWPROBE_STR_LEN ? r->str_len :
		     RAWPROBE_STR_LEN;

	rp_ob_putc(ob, '"');
	rp_ob_put(ob, r->str, strnlen(r->str, max));
	rp_ob_putc(ob, '"');
	if (r->flags & RAWPROBE_REC_STR_TRUNC)
		rp_ob_put(ob, "...", 3);
}

static void rp_text_arg(struct rp_outbuf *ob, unsigned int type, uint64_t v)
{
	switch (type) {
	case RAWPROBE_ARG_S64:
	case RAWPROBE_ARG_S32:
		rp_ob_s64(ob, (int64_t)v);
		break;
	case RAWPROBE_ARG_U32:
		rp_ob_u64(ob, v);
		break;
	case RAWPROBE_ARG_PTR:
		rp_ob_hex(ob, v);
		rp_text_sym(ob, v);
		break;
	default:
		rp_ob_hex(ob, v);
	}
}

static void rp_text_args(struct rp_outbuf *ob, const struct rawprobe_record *r,
			 const struct rp_probe_desc *d)
{
	unsigned int i;

	rp_ob_put(ob, " (", 2);
	for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
		if (i)
			rp_ob_put(ob, ", ", 2);
		if ((r->flags & RAWPROBE_REC_STR) && i == r->str_arg)
			rp_text_str(ob, r);
		else if ((r->flags & RAWPROBE_REC_STR_FAULT) && i == r->str_arg)
			rp_ob_put(ob, "<fault>", 7);
		else
			rp_text_arg(ob, rp_argtype_of(d, i), r->args[i]);
	}
	rp_ob_putc(ob, ')');
}

/* "%6llu.%06llu": CLOCK_MONOTONIC seconds to the microsecond. */
static void rp_text_time(struct rp_outbuf *ob, uint64_t ns)
{
	rp_ob_u64_width(ob, ns / 1000000000U, 6, ' ');
	rp_ob_putc(ob, '.');
	rp_ob_u64_width(ob, ns / 1000U % 1000000U, 6, '0');
}

void rp_record_text(struct rp_outbuf *ob, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d)
{
	rp_text_time(ob, r->ts_ns);
	rp_ob_putc(ob, ' ');
	rp_ob_u64_width(ob, r->cpu, 3, ' ');
	rp_ob_putc(ob, ' ');
	rp_ob_u64_width(ob, r->pid, 7, ' ');
	rp_ob_putc(ob, ' ');
	rp_ob_str_left(ob, r->comm, RAWPROBE_COMM_LEN, 16);
	rp_ob_putc(ob, ' ');
	rp_ob_str_left(ob, d ? d->name : "?", sizeof(d->name), 24);
	if (!d || d->is_addr)
		rp_text_sym(ob, r->addr);
	if (r->flags & RAWPROBE_REC_ARGS)
		rp_text_args(ob, r, d);
	/* a string of its own, not one of the arguments */
	if ((r->flags & RAWPROBE_REC_STR) &&
	    (!(r->flags & RAWPROBE_REC_ARGS) || r->str_arg >= r->nargs)) {
		rp_ob_putc(ob, ' ');
		rp_text_str(ob, r);
	}
	if (r->flags & RAWPROBE_REC_RETVAL) {
		rp_ob_put(ob, " = ", 3);
		rp_ob_s64(ob, r->retval);
		rp_ob_put(ob, " (", 2);
		rp_ob_u64(ob, r->latency_ns);
		rp_ob_put(ob, " ns)", 4);
	}
	rp_ob_putc(ob, '\n');
}

/* "addr": a hex string, as JSON numbers lose precision beyond 2^53 */
static void rp_json_addr(struct json *j, uint64_t addr)
{
	char tmp[2 + 16 + 1], *p;

	tmp[sizeof(tmp) - 1] = '\0';
	p = rp_u64_hexdigits(addr, tmp + sizeof(tmp) - 1);
	*--p = 'x';
	*--p = '0';
	json_kv_str(j, "addr", p);
}

void rp_record_json(struct json *j, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d)
{
	const char *sym;
	unsigned int i;
	size_t len;

	json_obj_open(j);
	json_kv_u64(j, "ts_ns", r->ts_ns);
	json_kv_u64(j, "seq", r->seq);
	json_kv_u64(j, "cpu", r->cpu);
	json_kv_u64(j, "pid", r->pid);
	json_kv_u64(j, "tgid", r->tgid);
	json_kv_strn(j, "comm", r->comm, RAWPROBE_COMM_LEN);
	json_kv_u64(j, "probe_id", r->probe_id);
	if (d)
		json_kv_str(j, "probe", d->name);
	json_kv_str(j, "kind", rp_kind_name(r->kind));
	rp_json_addr(j, r->addr);
	sym = rp_ksym_cached(r->addr, &len);
	if (len)
		json_kv_str(j, "sym", sym);
	if (r->flags & RAWPROBE_REC_ARGS) {
		json_key(j, "args");
		json_arr_open(j);
		for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
			unsigned int t = rp_argtype_of(d, i);

			if (t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64)
				json_s64(j, (int64_t)r->args[i]);
			else
				json_u64(j, r->args[i]);
		}
		json_arr_close(j);
	}
	if (r->flags & RAWPROBE_REC_STR) {
		json_kv_strn(j, "str", r->str, RAWPROBE_STR_LEN);
		json_kv_bool(j, "str_truncated",
			     r->flags & RAWPROBE_REC_STR_TRUNC);
	}
	if (r->flags & RAWPROBE_REC_STR_FAULT)
		json_kv_bool(j, "str_fault", true);
	if (r->flags & RAWPROBE_REC_RETVAL) {
		json_kv_s64(j, "retval", r->retval);
		json_kv_u64(j, "latency_ns", r->latency_ns);
	}
	json_obj_close(j);
	json_end_doc(j);
}
