/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records as text and JSON, and what a probe's records need to be read
 * (struct rp_probe_desc).
 */
#ifndef RAWPROBECTL_FORMAT_H
#define RAWPROBECTL_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rawprobe.h"
#include "lib/json.h"
#include "lib/outbuf.h"

#include "lib/desc.h"
#include "lib/names.h"

/*
 * What a named argument's value means beyond its number ("true", an
 * enumerator's name), or NULL. Set by whoever knows the types (BTF:
 * btf.c); NULL by default. Only identifiers of at most RP_ARG_LABEL_MAX
 * bytes are shown.
 */
#define RP_ARG_LABEL_MAX 64
typedef const char *(*rp_arg_label_fn)(const struct rp_probe_desc *d,
				       unsigned int i, uint64_t v);
void rp_format_set_labels(rp_arg_label_fn fn);
/*
 * The label of named argument i of d, of value v and type (bools and
 * enums are u32 or s32), if it has one that prints (*len its length);
 * NULL otherwise.
 */
const char *rp_label(const struct rp_probe_desc *d, unsigned int i,
		     unsigned int type, uint64_t v, size_t *len);

/*
 * The name of a kretprobe's return value v (cut to d->ret_type): an
 * enumerator's, or NULL. Set by whoever knows the types (BTF: btf.c);
 * NULL by default. The type itself is d->ret_type.
 */
typedef const char *(*rp_ret_label_fn)(const struct rp_probe_desc *d,
				       uint64_t v);
void rp_format_set_ret_labels(rp_ret_label_fn fn);

/*
 * Value formats (--args NAME:ip4 and the like): recorded as u64, printed
 * as hex, sym+off (ksym: a code address; hex when it is in no known
 * function), a dotted quad (ip4: the low 32 bits, in network order as
 * memory holds them), or the low 16 or 32 bits big-endian in decimal
 * (be16, a port; be32), or a name from a table (tcpstate, cap, signal,
 * errno: lib/lookup.h). rp_fmt_value() writes v so into buf, of at least
 * RP_FMT_VALUE_MAX bytes, unescaped and NUL-terminated; returns the
 * length.
 */
static inline int rp_argtype_is_fmt(unsigned int t)
{
	return (t >= RAWPROBE_ARG_HEX && t <= RAWPROBE_ARG_BE32) ||
	       (t >= RAWPROBE_ARG_TCPSTATE && t <= RAWPROBE_ARG_ERRNO);
}
#define RP_FMT_VALUE_MAX	240	/* RP_KSYM_MAX and a NUL */
size_t rp_fmt_value(char *buf, unsigned int type, uint64_t v);
/* Does a record of d have an argument with a value format? */
int rp_desc_has_fmt(const struct rp_probe_desc *d);

/*
 * A pair's record (latency --records): its probe's desc says so; the
 * time since its start in latency_ns, the start's task in its header and
 * the end's in end_task (uapi: struct rawprobe_record).
 */
static inline int rp_rec_is_pair(const struct rawprobe_record *r,
				 const struct rp_probe_desc *d)
{
	return (r->flags & RAWPROBE_REC_RETVAL) && d && d->pair_end;
}

/* The type of argument i of a record (u64 when d does not say). */
unsigned int rp_argtype_of(const struct rp_probe_desc *d, unsigned int i);

/*
 * A typed value: how it prints (a signed or an unsigned number, true or
 * false, or a pointer: in JSON an unsigned number, as ptr arguments
 * always were; in text and CSV hex), and the value cut to its type.
 */
enum rp_form { RP_FORM_U64, RP_FORM_S64, RP_FORM_BOOL, RP_FORM_PTR };
struct rp_typed {
	uint64_t v;
	enum rp_form form;
};

/* v cut to its 32-bit type: the register's upper bits are not the value's */
static inline uint64_t rp_arg_cut(unsigned int type, uint64_t v)
{
	if (type == RAWPROBE_ARG_S32)
		return (uint64_t)(int64_t)(int32_t)v;
	return type == RAWPROBE_ARG_U32 ? (uint32_t)v : v;
}

/* A _Bool is its register's low byte (the x86-64 ABI leaves the rest). */
static inline struct rp_typed rp_typed_bool(uint64_t v)
{
	return (struct rp_typed){ (v & 0xff) != 0, RP_FORM_BOOL };
}

/* Argument i of d's record, of value v, typed. */
static inline struct rp_typed rp_arg_typed(const struct rp_probe_desc *d,
					   unsigned int i, uint64_t v)
{
	unsigned int t = rp_argtype_of(d, i);

	if (d && (d->arg_bool >> i) & 1)
		return rp_typed_bool(v);
	v = rp_arg_cut(t, v);
	if (t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64)
		return (struct rp_typed){ v, RP_FORM_S64 };
	return (struct rp_typed){ v, t == RAWPROBE_ARG_PTR ? RP_FORM_PTR :
							     RP_FORM_U64 };
}

/*
 * A kretprobe's return value, the register raw, by d->ret_type; unknown:
 * the register, signed.
 */
static inline struct rp_typed rp_ret_typed(const struct rp_probe_desc *d,
					   int64_t raw)
{
	uint64_t v = (uint64_t)raw;

	switch (d ? d->ret_type : RP_RET_RAW) {
	case RP_RET_U64:
		return (struct rp_typed){ v, RP_FORM_U64 };
	case RP_RET_S32:
		return (struct rp_typed){ rp_arg_cut(RAWPROBE_ARG_S32, v),
					  RP_FORM_S64 };
	case RP_RET_U32:
		return (struct rp_typed){ rp_arg_cut(RAWPROBE_ARG_U32, v),
					  RP_FORM_U64 };
	case RP_RET_BOOL:
		return rp_typed_bool(v);
	case RP_RET_PTR:
		return (struct rp_typed){ v, RP_FORM_PTR };
	default:
		return (struct rp_typed){ v, RP_FORM_S64 };
	}
}

/*
 * Does t read otherwise than raw, the register as a signed number (what
 * a return value was before its type was known)?
 */
static inline bool rp_typed_differs(struct rp_typed t, int64_t raw)
{
	if (t.form == RP_FORM_BOOL)
		return true;
	if (t.form == RP_FORM_S64)
		return (int64_t)t.v != raw;
	return t.v != (uint64_t)raw || raw < 0;
}

/*
 * t as JSON and CSV have it: a number, signed or not (a pointer's
 * unsigned), true or false. At most RP_S64_CHARS_MAX bytes.
 */
char *rp_put_typed(char *p, struct rp_typed t);
/* The same, a value of the JSON document j */
void rp_json_typed(struct json *j, struct rp_typed t);
/* Is argument i of r the captured string (or its fault)? */
int rp_arg_is_str(const struct rawprobe_record *r, unsigned int i);
/* Did argument i's field fetch hit an unreadable address (no value)? */
static inline int rp_arg_faulted(const struct rawprobe_record *r,
				 unsigned int i)
{
	return i < RAWPROBE_MAX_ARGS && (r->fault_mask >> i) & 1;
}

/*
 * One line of human output for a record: addresses of raw-address probes
 * and ptr arguments that point into kernel text are symbolized. The
 * command, names, symbols and strings are escaped (escape.h), as JSON
 * output escapes them its own way.
 */
void rp_record_text(struct rp_outbuf *ob, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);
/*
 * Argument i of r as that line shows it: a string quoted or not (then
 * escaped, unquoted: a template's column), a bool's or an enum's label,
 * a number of its type.
 */
char *rp_text_arg_value(char *p, const struct rawprobe_record *r,
			const struct rp_probe_desc *d, unsigned int i,
			bool quoted);
/* Its return value as its function's type has it (rp_ret_label_fn). */
char *rp_text_ret_value(char *p, const struct rawprobe_record *r,
			const struct rp_probe_desc *d);
void rp_record_json(struct json *j, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);

#endif
