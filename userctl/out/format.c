// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>
#include "lib/escape.h"
#include "lib/lookup.h"
#include "lib/record_str.h"
#include "out/format.h"
#include "lib/path.h"
#include "out/stack.h"
#include "lib/symbols.h"

static rp_arg_label_fn rp_arg_label;
static rp_ret_label_fn rp_ret_label;

void rp_format_set_labels(rp_arg_label_fn fn)
{
	rp_arg_label = fn;
}

void rp_format_set_ret_labels(rp_ret_label_fn fn)
{
	rp_ret_label = fn;
}

/* Only identifiers are shown: nothing in them to escape. */
static const char *rp_label_shown(const char *l, size_t *len)
{
	if (!l)
		return NULL;
	*len = strnlen(l, RP_ARG_LABEL_MAX + 1);
	return rp_is_ident(l, *len, RP_ARG_LABEL_MAX) ? l : NULL;
}

const char *rp_label(const struct rp_probe_desc *d, unsigned int i,
		     unsigned int type, uint64_t v, size_t *len)
{
	if (!rp_arg_label || (type != RAWPROBE_ARG_U32 && type != RAWPROBE_ARG_S32))
		return NULL;
	return rp_label_shown(rp_arg_label(d, i, v), len);
}

unsigned int rp_argtype_of(const struct rp_probe_desc *d, unsigned int i)
{
	return d && i < d->nargs ? d->argtypes[i] : RAWPROBE_ARG_U64;
}

int rp_arg_is_str(const struct rawprobe_record *r, unsigned int i)
{
	struct rp_rec_str rs;

	return rp_rec_arg_str(r, i, &rs);
}

/*
 * The longest line rp_record_text() writes, which it reserves once and
 * then writes without further checks: names, symbols and the string
 * escaped, each byte at worst "\xHH".
 */
#define RP_TEXT_SYM_MAX		(3 + RP_ESCAPED_MAX(RP_KSYM_MAX - 1))
#define RP_TEXT_STR_MAX		(2 + RP_ESCAPED_MAX(RAWPROBE_STR_LEN) + 3)
/* A ptr argument, "0x" and 16 digits, and its symbol; the string is shorter. */
#define RP_TEXT_ARG_MAX		(2 + 16 + RP_TEXT_SYM_MAX)
_Static_assert(RP_TEXT_STR_MAX <= RP_TEXT_ARG_MAX, "an argument's room");
/*
 * Time, CPU and thread; and the return value and latency (typed, a
 * pointer's symbol or a label: an argument's room, at the end below).
 */
#define RP_TEXT_NUMBERS_MAX	128
#define RP_TEXT_LINE_MAX						\
	(RP_TEXT_NUMBERS_MAX + RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + 1 +	\
	 RP_ESCAPED_MAX(RP_PROBE_NAME_MAX) +				\
	 RP_TEXT_SYM_MAX + 3 + RAWPROBE_MAX_ARGS * (2 + RP_TEXT_ARG_MAX) + \
	 RAWPROBE_ARG_NAMES_LEN + RAWPROBE_MAX_ARGS +			\
	 1 + RP_TEXT_STR_MAX + RP_TEXT_ARG_MAX + 1)
_Static_assert(RP_ARG_LABEL_MAX <= RP_TEXT_ARG_MAX, "a label's room");

/* " <vfs_read+0x10>" for an address in kernel text, else nothing. */
static char *rp_text_sym(char *p, uint64_t addr)
{
	size_t len;
	const char *sym = rp_ksym_cached(addr, &len);

	if (!len)
		return p;
	*p++ = ' ';
	*p++ = '<';
	p = rp_put_escaped(p, sym, len);
	*p++ = '>';
	return p;
}

/* A captured string, quoted and escaped; "<fault>" if it faulted. */
static char *rp_text_str(char *p, const struct rp_rec_str *rs)
{
	if (!(rs->flags & RAWPROBE_REC_STR))
		return rp_put(p, "<fault>", 7);
	*p++ = '"';
	p = rp_put_escaped(p, rs->s, rs->len);
	*p++ = '"';
	if (rs->flags & RAWPROBE_REC_STR_TRUNC)
		p = rp_put(p, "...", 3);
	return p;
}

_Static_assert(RP_FMT_VALUE_MAX > RP_KSYM_MAX, "a symbol's room");

size_t rp_fmt_value(char *buf, unsigned int type, uint64_t v)
{
	const char *sym;
	char *p = buf;
	size_t len;
	int i;

	switch (type) {
	case RAWPROBE_ARG_KSYM:
		sym = rp_ksym_cached(v, &len);
		if (!len)
			p = rp_put_hex(p, v);
		else
			p = rp_put(p, sym, len);
		break;
	case RAWPROBE_ARG_IP4:
		for (i = 0; i < 4; i++) {
			if (i)
				*p++ = '.';
			p = rp_put_u64(p, (v >> (8 * i)) & 0xff);
		}
		break;
	case RAWPROBE_ARG_BE16:
		p = rp_put_u64(p, ((v & 0xff) << 8) | ((v >> 8) & 0xff));
		break;
	case RAWPROBE_ARG_BE32:
		p = rp_put_u64(p, __builtin_bswap32((uint32_t)v));
		break;
	case RAWPROBE_ARG_TCPSTATE:
	case RAWPROBE_ARG_CAP:
	case RAWPROBE_ARG_SIGNAL:
	case RAWPROBE_ARG_ERRNO:
		p += rp_lookup_format(p, type, v);
		break;
	default:
		p = rp_put_hex(p, v);
	}
	*p = '\0';
	return (size_t)(p - buf);
}

int rp_desc_has_fmt(const struct rp_probe_desc *d)
{
	unsigned int i;

	for (i = 0; d && i < d->nargs && i < RAWPROBE_MAX_ARGS; i++)
		if (rp_argtype_is_fmt(d->argtypes[i]))
			return 1;
	return 0;
}

char *rp_put_typed(char *p, struct rp_typed t)
{
	switch (t.form) {
	case RP_FORM_S64:
		return rp_put_s64(p, (int64_t)t.v);
	case RP_FORM_BOOL:
		return t.v ? rp_put(p, "true", 4) : rp_put(p, "false", 5);
	default:
		return rp_put_u64(p, t.v);
	}
}

void rp_json_typed(struct json *j, struct rp_typed t)
{
	char one[RP_S64_CHARS_MAX + 1];

	*rp_put_typed(one, t) = '\0';
	json_raw(j, one);
}

static char *rp_text_arg(char *p, unsigned int type, uint64_t v)
{
	char buf[RP_FMT_VALUE_MAX];

	if (rp_argtype_is_fmt(type))
		return rp_put_escaped(p, buf, rp_fmt_value(buf, type, v));
	switch (type) {
	case RAWPROBE_ARG_S64:
	case RAWPROBE_ARG_S32:
		return rp_put_s64(p, (int64_t)v);
	case RAWPROBE_ARG_U32:
		return rp_put_u64(p, v);
	case RAWPROBE_ARG_PTR:
		return rp_text_sym(rp_put_hex(p, v), v);
	default:
		return rp_put_hex(p, v);
	}
}

char *rp_text_arg_value(char *p, const struct rawprobe_record *r,
			const struct rp_probe_desc *d, unsigned int i,
			bool quoted)
{
	int named = rp_desc_has_names(d);
	unsigned int t = rp_argtype_of(d, i);
	struct rp_typed v = rp_arg_typed(d, i, r->args[i]);
	struct rp_rec_str rs;
	const char *label;
	size_t len;

	if (rp_arg_faulted(r, i))
		return rp_put(p, "(fault)", 7);	/* no value: not 0 */
	if (rp_rec_arg_str(r, i, &rs)) {
		if (quoted || !(rs.flags & RAWPROBE_REC_STR))
			return rp_text_str(p, &rs);
		return rp_put_escaped(p, rs.s, rs.len);
	}
	/* a bool a capture kept: true or false without BTF too */
	if (v.form == RP_FORM_BOOL)
		return rp_put_typed(p, v);
	if (named && (label = rp_label(d, i, t, v.v, &len)))
		return rp_put(p, label, len);
	if (named && t == RAWPROBE_ARG_U64)
		return rp_put_u64(p, v.v);	/* a declared integer */
	return rp_text_arg(p, t, v.v);
}

static char *rp_text_args(char *p, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	int named = rp_desc_has_names(d);
	unsigned int i;

	*p++ = ' ';
	*p++ = '(';
	for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
		if (i) {
			*p++ = ',';
			*p++ = ' ';
		}
		/* identifiers and paths (rp_desc_set_names): nothing to escape */
		if (named && i < d->nargs) {
			p = rp_put(p, d->arg_names + d->name_off[i], d->name_len[i]);
			*p++ = '=';
		}
		p = rp_text_arg_value(p, r, d, i, true);
	}
	*p++ = ')';
	return p;
}

/*
 * Runs of records share their second, their CPU, task and command, and
 * their probe: the head keeps those parts formatted from the last record
 * and copies them while they match. (To keep up with a tight syscall loop
 * in a TCG guest the stream formats about a million lines a second; the
 * head was a third of that work, and the name and its padding a tenth.)
 * One formatter per process, like the stream.
 */
#define RP_TEXT_WHO_MAX	(5 + 1 + 10 + 1 + RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + 1)
/* copied in one fixed move when no longer: most heads */
#define RP_TEXT_HEAD_COPY	64
static struct rp_text_head_cache {
	uint64_t sec;
	char sec_txt[24];		/* "%6llu." */
	size_t sec_len;
	uint32_t pid;
	uint16_t cpu;
	char comm[RAWPROBE_COMM_LEN];
	uint32_t name_key;		/* the name after who, or 0 */
	/* "%3u %7u %-16.16s ", the command escaped; then "%-24s", the name */
	char who_txt[RP_TEXT_WHO_MAX + RP_PROBE_NAME_MAX + 24 +
		     RP_TEXT_HEAD_COPY];
	size_t who_len;			/* without the name */
	size_t head_len;		/* with it (name_key) */
	int valid;
} rp_head_cache;
_Static_assert(RP_TEXT_LINE_MAX > 24 + RP_TEXT_HEAD_COPY + 6 +
	       RP_TEXT_WHO_MAX + RP_PROBE_NAME_MAX + 24,
	       "the fixed copies stay inside a line's room");

/*
 * "%06u" of v < 1,000,000: three digit pairs, no loop (a record's
 * microseconds change at every line; the loop was a sixth of a line).
 */
static char *rp_put_usec(char *p, uint32_t v)
{
	uint32_t hi = v / 10000U, lo = v % 10000U;

	memcpy(p, &rp_digit_pairs[2 * hi], 2);
	memcpy(p + 2, &rp_digit_pairs[2 * (lo / 100U)], 2);
	memcpy(p + 4, &rp_digit_pairs[2 * (lo % 100U)], 2);
	return p + 6;
}

/*
 * n bytes of the cache at p, in a fixed move of RP_TEXT_HEAD_COPY bytes
 * when they fit (the line's reservation has room past them).
 */
static char *rp_text_copy(char *p, const char *s, size_t n)
{
	if (__builtin_expect(n > RP_TEXT_HEAD_COPY, 0))
		return rp_put(p, s, n);
	memcpy(p, s, RP_TEXT_HEAD_COPY);
	return p + n;
}

/* who_txt from r: "%3u %7u %-16.16s " */
static void rp_text_who(struct rp_text_head_cache *c,
			const struct rawprobe_record *r)
{
	char *q = rp_put_u64_width(c->who_txt, r->cpu, 3, ' ');

	*q++ = ' ';
	q = rp_put_u64_width(q, r->pid, 7, ' ');
	*q++ = ' ';
	q = rp_put_escaped_left(q, r->comm, RAWPROBE_COMM_LEN, 16);
	*q++ = ' ';
	c->who_len = (size_t)(q - c->who_txt);
	c->pid = r->pid;
	c->cpu = r->cpu;
	memcpy(c->comm, r->comm, sizeof(c->comm));
	c->name_key = 0;
}

/* d's name after who_txt, padded to 24, under d's key */
static void rp_text_head_name(struct rp_text_head_cache *c,
			      const struct rp_probe_desc *d)
{
	char *q = c->who_txt + c->who_len;

	q = rp_put_pad(q, rp_put(q, d->name, d->name_plain_len), 24);
	c->head_len = (size_t)(q - c->who_txt);
	c->name_key = d->name_key;
}

/*
 * "%6llu.%06llu %3u %7u %-16.16s ": time to the microsecond, cpu, pid,
 * comm; and "%-24s", d's name, if it has a key (*named).
 */
static char *rp_text_head(char *p, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d, bool *named)
{
	struct rp_text_head_cache *c = &rp_head_cache;
	uint64_t sec = r->ts_ns / 1000000000U;
	char *q;

	if (!c->valid || c->sec != sec) {
		q = rp_put_u64_width(c->sec_txt, sec, 6, ' ');
		*q++ = '.';
		c->sec_len = (size_t)(q - c->sec_txt);
		c->sec = sec;
	}
	if (!c->valid || c->pid != r->pid || c->cpu != r->cpu ||
	    memcmp(c->comm, r->comm, sizeof(c->comm)))
		rp_text_who(c, r);
	c->valid = 1;
	p = rp_put(p, c->sec_txt, c->sec_len);
	p = rp_put_usec(p, (uint32_t)(r->ts_ns / 1000U % 1000000U));
	*p++ = ' ';
	*named = d && d->name_key;
	if (!*named)
		return rp_text_copy(p, c->who_txt, c->who_len);
	if (c->name_key != d->name_key)
		rp_text_head_name(c, d);
	return rp_text_copy(p, c->who_txt, c->head_len);
}

char *rp_text_ret_value(char *p, const struct rawprobe_record *r,
			const struct rp_probe_desc *d)
{
	struct rp_typed v = rp_ret_typed(d, r->retval);
	const char *label;
	size_t len;

	if (v.form == RP_FORM_PTR)
		return rp_text_arg(p, RAWPROBE_ARG_PTR, v.v);
	/*
	 * An integer of a known type may be an enum's: its enumerator. (A
	 * lookup per record where the desc does not say no: a kretprobe's
	 * line was a third dearer than a kprobe's for it.)
	 */
	if (v.form != RP_FORM_BOOL && d && d->ret_type != RP_RET_RAW &&
	    d->ret_label != RP_RET_LABEL_NONE && rp_ret_label &&
	    (label = rp_label_shown(rp_ret_label(d, v.v), &len)))
		return rp_put(p, label, len);
	return rp_put_typed(p, v);
}

/*
 * " = %lld (%llu ns)", the value typed when its type is known; a pair's
 * " (%llu ns)", the time since its start.
 */
static char *rp_text_retval(char *p, const struct rawprobe_record *r,
			    const struct rp_probe_desc *d)
{
	if (!rp_rec_is_pair(r, d)) {
		p = rp_put(p, " = ", 3);
		p = rp_text_ret_value(p, r, d);
	}
	*p++ = ' ';
	*p++ = '(';
	p = rp_put_u64(p, r->latency_ns);
	return rp_put(p, " ns)", 4);
}

/*
 * The callers under the record's line, innermost first, one a line as
 * bpftrace prints a kstack: the line above names the probed function.
 */
static void rp_text_stack(struct rp_outbuf *ob,
			  const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = rp_stack_frames(r, frames), i;
	char *p = rp_ob_begin(ob, n * (8 + RP_FRAME_TEXT_MAX + 1));

	for (i = 0; i < n; i++) {
		p = rp_put(p, "        ", 8);
		p = rp_put_frame(p, frames[i]);
		*p++ = '\n';
	}
	rp_ob_end(ob, p);
}

/* "%-24s", a name the head did not copy */
static char *rp_text_name(char *p, const struct rp_probe_desc *d)
{
	if (d && d->name_plain_len)
		return rp_put_pad(p, rp_put(p, d->name, d->name_plain_len), 24);
	if (d)
		return rp_put_escaped_left(p, d->name, sizeof(d->name), 24);
	return rp_put_pad(p, rp_put(p, "?", 1), 24);	/* a probe that is gone */
}

void rp_record_text(struct rp_outbuf *ob, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d)
{
	char *p = rp_ob_begin(ob, RP_TEXT_LINE_MAX);
	struct rp_rec_str rs;
	bool named;

	p = rp_text_head(p, r, d, &named);
	if (!named)
		p = rp_text_name(p, d);
	if (!d || d->is_addr)
		p = rp_text_sym(p, r->addr);
	if (r->flags & RAWPROBE_REC_ARGS)
		p = rp_text_args(p, r, d);
	/* a string of its own, not one of the arguments (the flag: no call) */
	if ((r->flags & RAWPROBE_REC_STR) && rp_rec_own_str(r, &rs)) {
		*p++ = ' ';
		p = rp_text_str(p, &rs);
	}
	if (r->flags & RAWPROBE_REC_RETVAL)
		p = rp_text_retval(p, r, d);
	*p++ = '\n';
	rp_ob_end(ob, p);
	if (rp_has_stack(r))
		rp_text_stack(ob, r);
}

/* "addr": a hex string, as JSON numbers lose precision beyond 2^53 */
static void rp_json_addr(struct json *j, uint64_t addr)
{
	char tmp[2 + 16 + 1];

	*rp_put_hex(tmp, addr) = '\0';
	json_kv_str(j, "addr", tmp);
}

/* "arg_names": the names of d's arguments, in order */
static void rp_json_names(struct json *j, const struct rp_probe_desc *d)
{
	unsigned int i;

	json_key(j, "arg_names");
	json_arr_open(j);
	for (i = 0; i < d->nargs; i++)
		json_strn(j, d->arg_names + d->name_off[i], d->name_len[i]);
	json_arr_close(j);
}

/* The record's members up to "sym", the generic way (a FILE, or -p). */
static void rp_json_head(struct json *j, const struct rawprobe_record *r,
			 const struct rp_probe_desc *d)
{
	const char *sym;
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
}

/*
 * The same bytes at a cursor (compact output into the stream's buffer):
 * constant keys, one reservation; what made -j half as fast as text
 * was a call, a strlen and a scan per key. false: not compact.
 */
static bool rp_json_head_fast(struct json *j, const struct rawprobe_record *r,
			      const struct rp_probe_desc *d)
{
	size_t comm_n = strnlen(r->comm, RAWPROBE_COMM_LEN);
	size_t name_n = d ? strnlen(d->name, sizeof(d->name)) : 0;
	const char *kind = rp_kind_name(r->kind);
	size_t kind_n = strlen(kind), sym_n;
	const char *sym = rp_ksym_cached(r->addr, &sym_n);
	char *p;

	p = json_cursor(j, 256 + 6 * (comm_n + name_n + kind_n + sym_n));
	if (!p)
		return false;
	p = rp_put_u64(JSON_PUT_LIT(p, "{\"ts_ns\":"), r->ts_ns);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"seq\":"), r->seq);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"cpu\":"), r->cpu);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"pid\":"), r->pid);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"tgid\":"), r->tgid);
	p = json_put_string(JSON_PUT_LIT(p, ",\"comm\":"), r->comm, comm_n);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"probe_id\":"), r->probe_id);
	if (d)
		p = json_put_string(JSON_PUT_LIT(p, ",\"probe\":"), d->name,
				    name_n);
	p = json_put_string(JSON_PUT_LIT(p, ",\"kind\":"), kind, kind_n);
	p = rp_put_hex(JSON_PUT_LIT(p, ",\"addr\":\""), r->addr);
	*p++ = '"';
	if (sym_n)
		p = json_put_string(JSON_PUT_LIT(p, ",\"sym\":"), sym, sym_n);
	json_cursor_done(j, p, 1);
	return true;
}

/* "args_text": the value formats' arguments as text shows them */
static void rp_json_args_text(struct json *j, const struct rawprobe_record *r,
			      const struct rp_probe_desc *d, unsigned int n)
{
	char buf[RP_FMT_VALUE_MAX];
	unsigned int i, t;

	json_key(j, "args_text");
	json_arr_open(j);
	for (i = 0; i < n; i++) {
		t = rp_argtype_of(d, i);
		if (!rp_argtype_is_fmt(t) || rp_arg_faulted(r, i) ||
		    rp_arg_is_str(r, i)) {
			json_null(j);
			continue;
		}
		rp_fmt_value(buf, t, r->args[i]);
		json_str(j, buf);
	}
	json_arr_close(j);
}

/* Argument i as "args" has it: typed (rp_arg_typed), or null (a fault) */
static char *rp_json_arg(char *p, const struct rawprobe_record *r,
			 const struct rp_probe_desc *d, unsigned int i)
{
	if (rp_arg_faulted(r, i))
		return JSON_PUT_LIT(p, "null");
	return rp_put_typed(p, rp_arg_typed(d, i, r->args[i]));
}

static void rp_json_args(struct json *j, const struct rawprobe_record *r,
			 const struct rp_probe_desc *d)
{
	unsigned int i, n = r->nargs < RAWPROBE_MAX_ARGS ?
			    r->nargs : RAWPROBE_MAX_ARGS;
	char *p = json_cursor(j, 16 + n * (RP_S64_CHARS_MAX + 1));

	if (p)
		p = JSON_PUT_LIT(p, ",\"args\":[");
	else {
		json_key(j, "args");
		json_arr_open(j);
	}
	for (i = 0; i < n; i++) {
		if (!p) {
			if (rp_arg_faulted(r, i))
				json_null(j);
			else
				rp_json_typed(j, rp_arg_typed(d, i,
							      r->args[i]));
			continue;
		}
		if (i)
			*p++ = ',';
		p = rp_json_arg(p, r, d, i);
	}
	if (p) {
		*p++ = ']';
		json_cursor_done(j, p, 1);
	} else {
		json_arr_close(j);
	}
	if (rp_desc_has_names(d))
		rp_json_names(j, d);
	if (rp_desc_has_fmt(d))
		rp_json_args_text(j, r, d, n);
}

/*
 * Several strings: "strs", one object an argument's string, in order:
 * {"arg": 1, "str": "pts0", "truncated": false} ("str" null if its
 * read faulted).
 */
static void rp_json_strs(struct json *j, const struct rawprobe_record *r)
{
	struct rp_rec_str rs;
	unsigned int i;

	json_key(j, "strs");
	json_arr_open(j);
	for (i = 0; i < RAWPROBE_MAX_ARGS; i++) {
		if (!rp_rec_arg_str(r, i, &rs))
			continue;
		json_obj_open(j);
		json_kv_u64(j, "arg", i);
		json_key(j, "str");
		if (rs.flags & RAWPROBE_REC_STR)
			json_strn(j, rs.s, rs.len);
		else
			json_null(j);
		json_kv_bool(j, "truncated", rs.flags & RAWPROBE_REC_STR_TRUNC);
		json_obj_close(j);
	}
	json_arr_close(j);
}

static void rp_json_str(struct json *j, const struct rawprobe_record *r)
{
	size_t n = strnlen(r->str, RAWPROBE_STR_LEN);
	bool trunc = r->flags & RAWPROBE_REC_STR_TRUNC;
	char *p;

	if (rp_rec_multi_str(r)) {
		rp_json_strs(j, r);
		return;
	}
	p = json_cursor(j, 48 + 6 * n);

	if (!p) {
		json_kv_strn(j, "str", r->str, RAWPROBE_STR_LEN);
		json_kv_bool(j, "str_truncated", trunc);
		return;
	}
	p = json_put_string(JSON_PUT_LIT(p, ",\"str\":"), r->str, n);
	if (trunc)
		p = JSON_PUT_LIT(p, ",\"str_truncated\":true");
	else
		p = JSON_PUT_LIT(p, ",\"str_truncated\":false");
	json_cursor_done(j, p, 1);
}

/* A pair's: the time since its start, and the task that ended it */
static void rp_json_pair(struct json *j, const struct rawprobe_record *r)
{
	json_kv_u64(j, "latency_ns", r->latency_ns);
	json_kv_u64(j, "end_pid", (uint32_t)r->end_task);
	json_kv_u64(j, "end_tgid", r->end_task >> 32);
}

/*
 * "retval" as its function's type has it (rp_ret_typed); "retval_raw",
 * the register as a signed number (retval before types), where that
 * reads otherwise.
 */
static void rp_json_retval(struct json *j, const struct rawprobe_record *r,
			   const struct rp_probe_desc *d)
{
	struct rp_typed v;
	bool raw;
	char *p;

	if (rp_rec_is_pair(r, d)) {
		rp_json_pair(j, r);
		return;
	}
	v = rp_ret_typed(d, r->retval);
	raw = rp_typed_differs(v, r->retval);
	p = json_cursor(j, 48 + 2 * RP_S64_CHARS_MAX + RP_U64_DIGITS_MAX);
	if (!p) {
		json_key(j, "retval");
		rp_json_typed(j, v);
		if (raw)
			json_kv_s64(j, "retval_raw", r->retval);
		json_kv_u64(j, "latency_ns", r->latency_ns);
		return;
	}
	p = rp_put_typed(JSON_PUT_LIT(p, ",\"retval\":"), v);
	if (raw)
		p = rp_put_s64(JSON_PUT_LIT(p, ",\"retval_raw\":"), r->retval);
	p = rp_put_u64(JSON_PUT_LIT(p, ",\"latency_ns\":"), r->latency_ns);
	json_cursor_done(j, p, 1);
}

void rp_record_json(struct json *j, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d)
{
	if (!rp_json_head_fast(j, r, d))
		rp_json_head(j, r, d);
	if (r->flags & RAWPROBE_REC_ARGS)
		rp_json_args(j, r, d);
	if ((r->flags & RAWPROBE_REC_STR) || rp_rec_multi_str(r))
		rp_json_str(j, r);
	if (r->flags & RAWPROBE_REC_STR_FAULT)
		json_kv_bool(j, "str_fault", true);
	if (rp_has_stack(r)) {
		uint64_t frames[RAWPROBE_STACK_MAX];

		rp_stack_json(j, frames, rp_stack_frames(r, frames));
	}
	if (r->flags & RAWPROBE_REC_RETVAL)
		rp_json_retval(j, r, d);
	json_obj_close(j);
	json_end_doc(j);
}
