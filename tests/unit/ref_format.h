/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record formatters as they were, on printf: the oracle that
 * test_format.c holds userctl/out/format.c's hand-written text, JSON and
 * CSV to (values typed as the description says, a kernel stack's
 * frames). Included by test_format.c alone, after its headers and its
 * TEXT_BASE.
 */
#ifndef RP_TEST_REF_FORMAT_H
#define RP_TEST_REF_FORMAT_H

#include "lib/lookup.h"

/* A pair's record (latency --records): its probe's desc says so */
static bool ref_is_pair(const struct rp_probe_desc *d)
{
	return d && d->pair_end;
}

/* %-*s of the escaped s */
static void ref_escape_left(FILE *out, const char *s, size_t max, long width)
{
	long start = ftell(out), n;

	ref_escape(out, s, max);
	for (n = ftell(out) - start; n < width; n++)
		fputc(' ', out);
}

/* " <sym>" of an address in kernel text */
static void ref_sym(FILE *out, uint64_t addr)
{
	char sym[200];

	rp_ksym_format(addr, sym, sizeof(sym));
	if (!sym[0])
		return;
	fputs(" <", out);
	ref_escape(out, sym, sizeof(sym));
	fputc('>', out);
}

static void ref_str(FILE *out, const struct rawprobe_record *r)
{
	fputc('"', out);
	ref_escape(out, r->str, r->str_len < RAWPROBE_STR_LEN ? r->str_len :
		   RAWPROBE_STR_LEN);
	fprintf(out, "\"%s", r->flags & RAWPROBE_REC_STR_TRUNC ? "..." : "");
}

static int ref_is_fmt(unsigned int t)
{
	return (t >= RAWPROBE_ARG_HEX && t <= RAWPROBE_ARG_BE32) ||
	       (t >= RAWPROBE_ARG_TCPSTATE && t <= RAWPROBE_ARG_ERRNO);
}

/*
 * A lookup's name (the tables are test_lookup.c's, against libc's): an
 * int's low half, an errno negative (a long's, or an int's unextended)
 */
static void ref_lookup(char *buf, size_t len, unsigned int type, uint64_t v)
{
	const char *name;
	int64_t e = (v >> 32) ? (int64_t)v : (int64_t)(int32_t)v;

	if (type == RAWPROBE_ARG_ERRNO) {
		name = e < 0 && e > -4096 ? rp_lookup_errno((uint64_t)-e) : NULL;
		if (name)
			snprintf(buf, len, "-%s", name);
		else
			snprintf(buf, len, "%" PRId64, e);
		return;
	}
	name = type == RAWPROBE_ARG_TCPSTATE ? rp_lookup_tcpstate((uint32_t)v) :
	       type == RAWPROBE_ARG_CAP ? rp_lookup_cap((uint32_t)v) :
	       rp_lookup_signal((uint32_t)v);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%d", (int32_t)v);
}

/* The value formats (hex, ksym, ip4, be16, be32, lookups), as text prints them */
static void ref_fmt(char *buf, size_t len, unsigned int type, uint64_t v)
{
	switch (type) {
	case RAWPROBE_ARG_TCPSTATE:
	case RAWPROBE_ARG_CAP:
	case RAWPROBE_ARG_SIGNAL:
	case RAWPROBE_ARG_ERRNO:
		ref_lookup(buf, len, type, v);
		break;
	case RAWPROBE_ARG_KSYM:
		rp_ksym_format(v, buf, len);
		if (!buf[0])
			snprintf(buf, len, "0x%" PRIx64, v);
		break;
	case RAWPROBE_ARG_IP4:
		snprintf(buf, len, "%u.%u.%u.%u", (unsigned int)(v & 0xff),
			 (unsigned int)(v >> 8 & 0xff),
			 (unsigned int)(v >> 16 & 0xff),
			 (unsigned int)(v >> 24 & 0xff));
		break;
	case RAWPROBE_ARG_BE16:
		snprintf(buf, len, "%u", (unsigned int)((v & 0xff) << 8 |
							(v >> 8 & 0xff)));
		break;
	case RAWPROBE_ARG_BE32:
		snprintf(buf, len, "%u", (unsigned int)((v & 0xff) << 24 |
							(v >> 8 & 0xff) << 16 |
							(v >> 16 & 0xff) << 8 |
							(v >> 24 & 0xff)));
		break;
	default:
		snprintf(buf, len, "0x%" PRIx64, v);
	}
}

static void ref_arg(FILE *out, unsigned int type, uint64_t v)
{
	char buf[256];

	if (ref_is_fmt(type)) {
		ref_fmt(buf, sizeof(buf), type, v);
		ref_escape(out, buf, sizeof(buf));
		return;
	}
	switch (type) {
	case RAWPROBE_ARG_S64:
	case RAWPROBE_ARG_S32:
		fprintf(out, "%" PRId64, (int64_t)v);
		break;
	case RAWPROBE_ARG_U32:
		fprintf(out, "%" PRIu64, v);
		break;
	case RAWPROBE_ARG_PTR:
		fprintf(out, "0x%" PRIx64, v);
		ref_sym(out, v);
		break;
	default:
		fprintf(out, "0x%" PRIx64, v);
	}
}

/*
 * Named arguments: the oracle's own split of d's names, and the labels
 * (bools, enums) of test_label() when the test set them.
 */
static rp_arg_label_fn ref_label;

static int ref_names(const struct rp_probe_desc *d, char names[][128])
{
	char copy[RAWPROBE_ARG_NAMES_LEN], *rest = copy, *tok;
	int n = 0;

	if (!d || !d->arg_names[0])
		return 0;
	memcpy(copy, d->arg_names, sizeof(copy));
	while ((tok = strsep(&rest, ",")) && n < RAWPROBE_MAX_ARGS)
		strcpy(names[n++], tok);
	return n;
}

/* An argument's value as its 32-bit type has it: the upper bits dropped */
static uint64_t ref_cut(unsigned int type, uint64_t v)
{
	if (type == RAWPROBE_ARG_S32)
		return (uint64_t)(int64_t)(int32_t)v;
	return type == RAWPROBE_ARG_U32 ? (uint32_t)v : v;
}

/* A bool (d->arg_bool): its low byte, true or false; NULL if not one */
static const char *ref_bool_arg(const struct rp_probe_desc *d, unsigned int i,
				uint64_t v)
{
	if (!d || !((d->arg_bool >> i) & 1))
		return NULL;
	return v & 0xff ? "true" : "false";
}

/*
 * A return value by d->ret_type into buf (a pointer: in hex for text, a
 * number for JSON); *differs: it is not the register as a signed number.
 */
static void ref_ret(char *buf, size_t len, const struct rp_probe_desc *d,
		    int64_t raw, bool json, bool *differs)
{
	uint64_t v = (uint64_t)raw;

	*differs = raw < 0;
	switch (d ? d->ret_type : RP_RET_RAW) {
	case RP_RET_U64:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	case RP_RET_S32:
		snprintf(buf, len, "%" PRId32, (int32_t)v);
		*differs = (int32_t)v != raw;
		break;
	case RP_RET_U32:
		snprintf(buf, len, "%" PRIu32, (uint32_t)v);
		*differs = (int64_t)(uint32_t)v != raw;
		break;
	case RP_RET_BOOL:
		snprintf(buf, len, "%s", v & 0xff ? "true" : "false");
		*differs = true;
		break;
	case RP_RET_PTR:
		snprintf(buf, len, json ? "%" PRIu64 : "0x%" PRIx64, v);
		break;
	default:
		snprintf(buf, len, "%" PRId64, raw);
		*differs = false;
	}
}

static const char *ref_label_of(const struct rp_probe_desc *d, unsigned int i,
				unsigned int type, uint64_t v)
{
	const char *l;
	size_t k, len;

	if (!ref_label || (type != RAWPROBE_ARG_U32 && type != RAWPROBE_ARG_S32))
		return NULL;
	l = ref_label(d, i, v);
	if (!l || !(len = strlen(l)) || len > RP_ARG_LABEL_MAX ||
	    (l[0] >= '0' && l[0] <= '9'))
		return NULL;
	for (k = 0; k < len; k++)
		if (!(l[k] == '_' || (l[k] >= '0' && l[k] <= '9') ||
		      (l[k] >= 'a' && l[k] <= 'z') || (l[k] >= 'A' && l[k] <= 'Z')))
			return NULL;
	return l;
}

/* A record's stack: its frames, from the string area. */
static unsigned int ref_frames(const struct rawprobe_record *r,
			       uint64_t *frames)
{
	unsigned int n = r->str_len / 8;

	if (!(r->flags & RAWPROBE_REC_STACK))
		return 0;
	if (n > RAWPROBE_STACK_MAX)
		n = RAWPROBE_STACK_MAX;
	memcpy(frames, r->str, n * 8);
	return n;
}

/* A frame as every output names it: its symbol, else its address. */
static void ref_frame(char *buf, size_t len, uint64_t addr)
{
	rp_ksym_format(addr, buf, len);
	if (!buf[0])
		snprintf(buf, len, "0x%" PRIx64, addr);
}

/* A line for each caller, under the record's line. */
static void ref_text_stack(FILE *out, const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = ref_frames(r, frames), i;
	char frame[200];

	for (i = 0; i < n; i++) {
		ref_frame(frame, sizeof(frame), frames[i]);
		fputs("        ", out);
		ref_escape(out, frame, sizeof(frame));
		fputc('\n', out);
	}
}

static void ref_text(FILE *out, const struct rawprobe_record *r,
		     const struct rp_probe_desc *d)
{
	unsigned long long t = r->ts_ns;
	char names[RAWPROBE_MAX_ARGS][128];
	int nnames = ref_names(d, names);
	const char *label;
	unsigned int i, type;
	char ret[32];
	bool differs;
	uint64_t v;

	fprintf(out, "%6llu.%06llu %3u %7u ", t / 1000000000ULL,
		(t / 1000) % 1000000ULL, r->cpu, r->pid);
	ref_escape_left(out, r->comm, RAWPROBE_COMM_LEN, 16);
	fputc(' ', out);
	ref_escape_left(out, d ? d->name : "?", sizeof(d->name), 24);
	if (!d || d->is_addr)
		ref_sym(out, r->addr);
	if (r->flags & RAWPROBE_REC_ARGS) {
		fputs(" (", out);
		for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
			if (i)
				fputs(", ", out);
			if ((int)i < nnames)
				fprintf(out, "%s=", names[i]);
			type = rp_argtype_of(d, i);
			v = ref_cut(type, r->args[i]);
			if ((r->fault_mask >> i) & 1)
				fputs("(fault)", out);
			else if ((r->flags & RAWPROBE_REC_STR) && i == r->str_arg)
				ref_str(out, r);
			else if ((r->flags & RAWPROBE_REC_STR_FAULT) &&
				 i == r->str_arg)
				fputs("<fault>", out);
			else if ((label = ref_bool_arg(d, i, r->args[i])))
				fputs(label, out);
			else if (nnames &&
				 (label = ref_label_of(d, i, type, v)))
				fputs(label, out);
			else if (nnames && type == RAWPROBE_ARG_U64)
				fprintf(out, "%" PRIu64, v);
			else
				ref_arg(out, type, v);
		}
		fputc(')', out);
	}
	if ((r->flags & RAWPROBE_REC_STR) &&
	    (!(r->flags & RAWPROBE_REC_ARGS) || r->str_arg >= r->nargs)) {
		fputc(' ', out);
		ref_str(out, r);
	}
	if ((r->flags & RAWPROBE_REC_RETVAL) && ref_is_pair(d))
		fprintf(out, " (%" PRIu64 " ns)", (uint64_t)r->latency_ns);
	else if (r->flags & RAWPROBE_REC_RETVAL) {
		ref_ret(ret, sizeof(ret), d, r->retval, false, &differs);
		fprintf(out, " = %s", ret);
		if (d && d->ret_type == RP_RET_PTR)
			ref_sym(out, (uint64_t)r->retval);
		fprintf(out, " (%" PRIu64 " ns)", (uint64_t)r->latency_ns);
	}
	fputc('\n', out);
	ref_text_stack(out, r);
}

static void ref_json_value(FILE *out, const char *s)
{
	const unsigned char *p;

	fputc('"', out);
	for (p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':  fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

static void ref_json_str(FILE *out, const char *key, const char *s)
{
	fprintf(out, ",\"%s\":", key);
	ref_json_value(out, s);
}

static void ref_json_stack(FILE *out, const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = ref_frames(r, frames), i;
	char frame[200];

	fputs(",\"stack\":[", out);
	for (i = 0; i < n; i++) {
		ref_frame(frame, sizeof(frame), frames[i]);
		fputs(i ? "," : "", out);
		ref_json_value(out, frame);
	}
	fputc(']', out);
}

/* "args_text", when d has a value format: those arguments as text */
static void ref_json_args_text(FILE *out, const struct rawprobe_record *r,
			       const struct rp_probe_desc *d)
{
	unsigned int i, t, any = 0;
	char buf[256];

	for (i = 0; d && i < d->nargs; i++)
		any |= ref_is_fmt(d->argtypes[i]);
	if (!any)
		return;
	fputs(",\"args_text\":[", out);
	for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
		t = rp_argtype_of(d, i);
		fputs(i ? "," : "", out);
		if (!ref_is_fmt(t) || (r->fault_mask >> i) & 1 ||
		    ((r->flags & (RAWPROBE_REC_STR | RAWPROBE_REC_STR_FAULT)) &&
		     i == r->str_arg)) {
			fputs("null", out);
			continue;
		}
		ref_fmt(buf, sizeof(buf), t, r->args[i]);
		ref_json_value(out, buf);
	}
	fputc(']', out);
}

static void ref_json(FILE *out, const struct rawprobe_record *r,
		     const struct rp_probe_desc *d)
{
	char sym[200], names[RAWPROBE_MAX_ARGS][128], ret[32];
	int nnames = ref_names(d, names);
	const char *b;
	unsigned int i;
	bool differs;

	fprintf(out, "{\"ts_ns\":%" PRIu64 ",\"seq\":%" PRIu64
		",\"cpu\":%u,\"pid\":%u,\"tgid\":%u", (uint64_t)r->ts_ns,
		(uint64_t)r->seq, r->cpu, r->pid, r->tgid);
	ref_json_str(out, "comm", r->comm);
	fprintf(out, ",\"probe_id\":%u", r->probe_id);
	if (d)
		ref_json_str(out, "probe", d->name);
	fprintf(out, ",\"kind\":\"%s\",\"addr\":\"0x%" PRIx64 "\"",
		rp_kind_name(r->kind), (uint64_t)r->addr);
	rp_ksym_format(r->addr, sym, sizeof(sym));
	if (sym[0])
		ref_json_str(out, "sym", sym);
	if (r->flags & RAWPROBE_REC_ARGS) {
		fputs(",\"args\":[", out);
		for (i = 0; i < r->nargs && i < RAWPROBE_MAX_ARGS; i++) {
			unsigned int t = rp_argtype_of(d, i);
			uint64_t v = ref_cut(t, r->args[i]);

			fputs(i ? "," : "", out);
			if ((r->fault_mask >> i) & 1)
				fputs("null", out);
			else if ((b = ref_bool_arg(d, i, r->args[i])))
				fputs(b, out);
			else if (t == RAWPROBE_ARG_S32 || t == RAWPROBE_ARG_S64)
				fprintf(out, "%" PRId64, (int64_t)v);
			else
				fprintf(out, "%" PRIu64, v);
		}
		fputc(']', out);
		for (i = 0; i < (unsigned int)nnames; i++)
			fprintf(out, "%s\"%s\"", i ? "," : ",\"arg_names\":[",
				names[i]);
		if (nnames)
			fputc(']', out);
		ref_json_args_text(out, r, d);
	}
	if (r->flags & RAWPROBE_REC_STR) {
		/* the area up to a NUL (a stack's frames may have none) */
		char str[RAWPROBE_STR_LEN + 1] = "";

		memcpy(str, r->str, RAWPROBE_STR_LEN);
		ref_json_str(out, "str", str);
		fprintf(out, ",\"str_truncated\":%s",
			r->flags & RAWPROBE_REC_STR_TRUNC ? "true" : "false");
	}
	if (r->flags & RAWPROBE_REC_STR_FAULT)
		fputs(",\"str_fault\":true", out);
	if (r->flags & RAWPROBE_REC_STACK)
		ref_json_stack(out, r);
	if ((r->flags & RAWPROBE_REC_RETVAL) && ref_is_pair(d))
		fprintf(out, ",\"latency_ns\":%" PRIu64 ",\"end_pid\":%" PRIu32
			",\"end_tgid\":%" PRIu32, (uint64_t)r->latency_ns,
			(uint32_t)r->end_task, (uint32_t)(r->end_task >> 32));
	else if (r->flags & RAWPROBE_REC_RETVAL) {
		ref_ret(ret, sizeof(ret), d, r->retval, true, &differs);
		fprintf(out, ",\"retval\":%s", ret);
		if (differs)
			fprintf(out, ",\"retval_raw\":%" PRId64,
				(int64_t)r->retval);
		fprintf(out, ",\"latency_ns\":%" PRIu64,
			(uint64_t)r->latency_ns);
	}
	fputs("}\n", out);
}

#endif
