// SPDX-License-Identifier: GPL-2.0
/*
 * Output formats of stream and trace: text, JSON lines, CSV, Chrome
 * trace-event JSON for Perfetto, and raw capture files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "lib/escape.h"
#include "lib/record_str.h"
#include "out/sink.h"
#include "out/template.h"
#include "out/stack.h"
#include "lib/symbols.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const rp_formats[] = {
	[RP_FMT_TEXT]		= "text",
	[RP_FMT_JSON]		= "json",
	[RP_FMT_CSV]		= "csv",
	[RP_FMT_PERFETTO]	= "perfetto",
	[RP_FMT_RAW]		= "raw",
	[RP_FMT_CTF]		= "ctf",
	[RP_FMT_FOLDED]		= "folded",
	[RP_FMT_HIST]		= "hist",
};

int rp_format_parse(const char *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rp_formats); i++)
		if (!strcmp(rp_formats[i], s))
			return (int)i;
	return -1;
}

const char *rp_format_name(int fmt)
{
	return fmt >= 0 && (size_t)fmt < ARRAY_SIZE(rp_formats) ?
	       rp_formats[fmt] : "?";
}

/* --- a set of u32 (thread ids, probe ids seen), open addressing --- */

struct rp_idset {
	uint32_t *v;		/* id + 1; 0 is an empty slot */
	size_t cap, n;
};

/* Adds id; returns 1 if it was new, 0 if known, -1 without memory. */
static int rp_idset_add(struct rp_idset *s, uint32_t id)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct rp_idset big = { .cap = s->cap ? s->cap * 2 : 256 };

		big.v = calloc(big.cap, sizeof(*big.v));
		if (!big.v)
			return -1;
		for (i = 0; i < s->cap; i++)
			if (s->v[i])
				rp_idset_add(&big, s->v[i] - 1);
		free(s->v);
		*s = big;
	}
	for (i = (id * 2654435761u) & (s->cap - 1); s->v[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->v[i] == id + 1)
			return 0;
	s->v[i] = id + 1;
	s->n++;
	return 1;
}

/* --- text and JSON lines, formatted into s->ob --- */

static void rp_text_record(struct rp_sink *s, const struct rawprobe_record *r,
			   const struct rp_probe_desc *d)
{
	if (s->tmpl)
		rp_record_template(&s->ob, r, d, s->tmpl);
	else
		rp_record_text(&s->ob, r, d);
}

static void rp_json_record(struct rp_sink *s, const struct rawprobe_record *r,
			   const struct rp_probe_desc *d)
{
	rp_record_json(&s->json, r, d);
}

static void rp_folded_record(struct rp_sink *s, const struct rawprobe_record *r,
			     const struct rp_probe_desc *d)
{
	(void)d;	/* the function comes from the address, as the frames */
	rp_record_folded(&s->ob, r);
}

static void rp_outbuf_sink_free(struct rp_sink *s)
{
	rp_outbuf_free(&s->ob);
}

static const struct rp_sink_ops rp_text_ops = {
	.record = rp_text_record, .free = rp_outbuf_sink_free,
};
static const struct rp_sink_ops rp_json_ops = {
	.record = rp_json_record, .free = rp_outbuf_sink_free,
};
static const struct rp_sink_ops rp_folded_ops = {
	.record = rp_folded_record, .free = rp_outbuf_sink_free,
};

void rp_sink_flush(struct rp_sink *s)
{
	rp_outbuf_flush(&s->ob);
}

/* --- CSV (RFC 4180) --- */

/*
 * Escaped as in text output (a CSV is read in terminals too, and so
 * every row is one line), then quoted, a '"' doubled: at most 2 +
 * RP_CSV_STR_MAX(n) bytes at the cursor for n bytes of s.
 */
#define RP_CSV_STR_MAX(n)	(2 + 2 * RP_ESCAPED_MAX(n))

#define RP_CSV_FIELD_MAX	RP_PROBE_NAME_MAX	/* the longest field */
_Static_assert(RP_CSV_FIELD_MAX >= RP_KSYM_MAX &&
	       RP_CSV_FIELD_MAX >= RAWPROBE_STR_LEN, "a field is cut");

static char *rp_csv_put(char *p, const char *s, size_t n)
{
	char esc[RP_ESCAPED_MAX(RP_CSV_FIELD_MAX)], *e, *end, *q;

	if (n > RP_CSV_FIELD_MAX)
		n = RP_CSV_FIELD_MAX;	/* none is longer */
	end = rp_put_escaped(esc, s, n);
	for (e = esc; (q = memchr(e, '"', (size_t)(end - e))); e = q + 1) {
		p = rp_put(p, e, (size_t)(q + 1 - e));
		*p++ = '"';
	}
	return rp_put(p, e, (size_t)(end - e));
}

static char *rp_csv_str(char *p, const char *s, size_t max)
{
	*p++ = '"';
	p = rp_csv_put(p, s, strnlen(s, max));
	*p++ = '"';
	return p;
}

/* The frames, innermost first, joined by ';' in one field */
static void rp_csv_stack(struct rp_outbuf *ob, const struct rawprobe_record *r)
{
	uint64_t frames[RAWPROBE_STACK_MAX];
	unsigned int n = rp_stack_frames(r, frames), i;
	char buf[RP_KSYM_MAX], *p;
	const char *frame;
	size_t len;

	for (i = 0; i < n; i++) {
		frame = rp_frame_str(frames[i], buf, &len);
		p = rp_ob_begin(ob, 2 + RP_CSV_STR_MAX(len));
		*p++ = i ? ';' : '"';
		p = rp_csv_put(p, frame, len);
		if (i + 1 == n)
			*p++ = '"';
		rp_ob_end(ob, p);
	}
}

static void rp_csv_begin(struct rp_sink *s)
{
	/* new columns go last: scripts that index them keep working */
	fputs("ts_ns,seq,cpu,pid,tgid,comm,probe_id,probe,kind,addr,sym,"
	      "arg0,arg1,arg2,arg3,arg4,arg5,str,retval,latency_ns,stack\n",
	      s->out);
}

/* A code address as sym+off, quoted as the sym column is */
static char *rp_csv_ksym(char *p, uint64_t v)
{
	char buf[RP_FMT_VALUE_MAX];
	size_t n = rp_fmt_value(buf, RAWPROBE_ARG_KSYM, v);

	*p++ = '"';
	p = rp_csv_put(p, buf, n);
	*p++ = '"';
	return p;
}

/* A typed value as JSON has it, but a pointer in hex, as text has it */
static char *rp_csv_typed(char *p, struct rp_typed t)
{
	return t.form == RP_FORM_PTR ? rp_put_hex(p, t.v) : rp_put_typed(p, t);
}

/*
 * The argument columns. One string goes in the str column, its
 * argument's left empty; several go each in its argument's column.
 */
static char *rp_csv_args(char *p, const struct rawprobe_record *r,
			 const struct rp_probe_desc *d)
{
	bool multi = rp_rec_multi_str(r);
	struct rp_rec_str rs;
	unsigned int i, t;

	for (i = 0; i < RAWPROBE_MAX_ARGS; i++) {
		*p++ = ',';
		if (multi && rp_rec_arg_str(r, i, &rs) &&
		    (rs.flags & RAWPROBE_REC_STR)) {
			p = rp_csv_str(p, rs.s, rs.len);
			continue;
		}
		/* a fetch that faulted has no value: empty, as a string's */
		if (!(r->flags & RAWPROBE_REC_ARGS) || i >= r->nargs ||
		    rp_arg_is_str(r, i) || rp_arg_faulted(r, i))
			continue;
		t = rp_argtype_of(d, i);
		if (t == RAWPROBE_ARG_KSYM)
			p = rp_csv_ksym(p, r->args[i]);
		else if (rp_argtype_is_fmt(t))
			p += rp_fmt_value(p, t, r->args[i]);
		else
			p = rp_csv_typed(p, rp_arg_typed(d, i, r->args[i]));
	}
	return p;
}


/* The most a row takes before its stack. */
#define RP_CSV_ROW_MAX	(8 * (RP_S64_CHARS_MAX + 1) + 32 + \
			 RP_CSV_STR_MAX(RAWPROBE_COMM_LEN) + \
			 2 * RP_CSV_STR_MAX(RP_CSV_FIELD_MAX) + \
			 RAWPROBE_MAX_ARGS * (RP_CSV_STR_MAX(RP_FMT_VALUE_MAX) + 1) + \
			 RP_CSV_STR_MAX(RAWPROBE_STR_LEN) + \
			 2 * (RP_S64_CHARS_MAX + 1))

static void rp_csv_record(struct rp_sink *s, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	const char *kind = rp_kind_name(r->kind), *sym;
	char *p = rp_ob_begin(&s->ob, RP_CSV_ROW_MAX);
	size_t sym_n;

	sym = rp_ksym_cached(r->addr, &sym_n);
	p = rp_put_u64(p, r->ts_ns);
	p = rp_put_u64(rp_put(p, ",", 1), r->seq);
	p = rp_put_u64(rp_put(p, ",", 1), r->cpu);
	p = rp_put_u64(rp_put(p, ",", 1), r->pid);
	p = rp_put_u64(rp_put(p, ",", 1), r->tgid);
	p = rp_csv_str(rp_put(p, ",", 1), r->comm, RAWPROBE_COMM_LEN);
	p = rp_put_u64(rp_put(p, ",", 1), r->probe_id);
	p = rp_csv_str(rp_put(p, ",", 1), d ? d->name : "", sizeof(d->name));
	p = rp_put(rp_put(p, ",", 1), kind, strlen(kind));
	p = rp_put_hex(rp_put(p, ",", 1), r->addr);
	*p++ = ',';
	*p++ = '"';
	p = rp_csv_put(p, sym, sym_n);
	*p++ = '"';
	p = rp_csv_args(p, r, d);
	*p++ = ',';
	if ((r->flags & RAWPROBE_REC_STR) && !rp_rec_multi_str(r))
		p = rp_csv_str(p, r->str, RAWPROBE_STR_LEN);
	*p++ = ',';
	if (r->flags & RAWPROBE_REC_RETVAL) {
		/* a pair's has a latency and no return value */
		if (!rp_rec_is_pair(r, d))
			p = rp_csv_typed(p, rp_ret_typed(d, r->retval));
		p = rp_put_u64(rp_put(p, ",", 1), r->latency_ns);
	} else {
		*p++ = ',';
	}
	*p++ = ',';
	rp_ob_end(&s->ob, p);
	rp_csv_stack(&s->ob, r);
	rp_ob_putc(&s->ob, '\n');
}

static const struct rp_sink_ops rp_csv_ops = {
	.begin = rp_csv_begin, .record = rp_csv_record,
	.free = rp_outbuf_sink_free,
};

/*
 * --- Chrome trace-event JSON, as ui.perfetto.dev opens it ---
 * pid = process (tgid), tid = thread (pid), ts and dur in microseconds.
 * A return record carries its entry time (ts - latency): it becomes a
 * complete slice ("X") on its thread; entry records are instants ("i").
 * Thread names come from metadata events ("M"), one per thread.
 */
struct rp_perfetto {
	struct rp_idset threads;
};

static void rp_usecs(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

static void rp_perfetto_event_start(struct rp_sink *s, const char *ph,
				    const struct rawprobe_record *r)
{
	if (s->n++)
		rp_ob_put(&s->ob, ",\n", 2);
	json_obj_open(&s->json);
	json_kv_str(&s->json, "ph", ph);
	json_kv_u64(&s->json, "pid", r->tgid);
	json_kv_u64(&s->json, "tid", r->pid);
}

static void rp_perfetto_event_end(struct rp_sink *s)
{
	json_obj_close(&s->json);
	s->json.first = true;	/* events are separated by hand */
}

static void rp_perfetto_thread(struct rp_sink *s,
			       const struct rawprobe_record *r)
{
	struct rp_perfetto *p = s->priv;
	char comm[RAWPROBE_COMM_LEN + 1];

	if (rp_idset_add(&p->threads, r->pid) != 1)
		return;
	snprintf(comm, sizeof(comm), "%.*s", RAWPROBE_COMM_LEN, r->comm);
	rp_perfetto_event_start(s, "M", r);
	json_kv_str(&s->json, "name", "thread_name");
	json_key(&s->json, "args");
	json_obj_open(&s->json);
	json_kv_str(&s->json, "name", comm);
	json_obj_close(&s->json);
	rp_perfetto_event_end(s);
}

/* A return value as -j has it, or a pair's record's end task */
static void rp_perfetto_retval(struct json *j, const struct rawprobe_record *r,
			       const struct rp_probe_desc *d)
{
	json_key(j, "retval");
	if (rp_rec_is_pair(r, d))
		json_s64(j, r->retval);
	else
		rp_json_typed(j, rp_ret_typed(d, r->retval));
}

static void rp_perfetto_args(struct rp_sink *s, const struct rawprobe_record *r,
			     const struct rp_probe_desc *d)
{
	struct json *j = &s->json;
	unsigned int i;
	char key[8];

	json_key(j, "args");
	json_obj_open(j);
	json_kv_u64(j, "cpu", r->cpu);
	for (i = 0; (r->flags & RAWPROBE_REC_ARGS) && i < r->nargs &&
		    i < RAWPROBE_MAX_ARGS; i++) {
		struct rp_rec_str rs;

		snprintf(key, sizeof(key), "arg%u", i);
		/* several strings: each under its argument's key */
		if (rp_rec_multi_str(r) && rp_rec_arg_str(r, i, &rs) &&
		    (rs.flags & RAWPROBE_REC_STR)) {
			json_key(j, key);
			json_strn(j, rs.s, rs.len);
			continue;
		}
		if (rp_arg_is_str(r, i) && !rp_arg_faulted(r, i))
			continue;
		if (rp_arg_faulted(r, i)) {
			json_kv_str(j, key, "(fault)");	/* as text shows it */
			continue;
		}
		json_key(j, key);	/* typed as -j has them */
		rp_json_typed(j, rp_arg_typed(d, i, r->args[i]));
	}
	if ((r->flags & RAWPROBE_REC_STR) && !rp_rec_multi_str(r))
		json_kv_str(j, "str", r->str);
	if (r->flags & RAWPROBE_REC_RETVAL)
		rp_perfetto_retval(j, r, d);
	/* as -j has it: the UI lists args.stack[0], [1], ... */
	if (rp_has_stack(r)) {
		uint64_t frames[RAWPROBE_STACK_MAX];

		rp_stack_json(j, frames, rp_stack_frames(r, frames));
	}
	json_obj_close(j);
}

static void rp_perfetto_begin(struct rp_sink *s)
{
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", s->out);
}

static void rp_perfetto_record(struct rp_sink *s,
			       const struct rawprobe_record *r,
			       const struct rp_probe_desc *d)
{
	bool ret = r->flags & RAWPROBE_REC_RETVAL;
	uint64_t start = r->ts_ns;
	char ts[32];

	rp_perfetto_thread(s, r);
	if (ret)
		start = r->latency_ns < start ? start - r->latency_ns : 0;
	rp_perfetto_event_start(s, ret ? "X" : "i", r);
	json_kv_str(&s->json, "name", d ? d->name : "?");
	json_kv_str(&s->json, "cat", rp_kind_name(r->kind));
	rp_usecs(ts, sizeof(ts), start);
	json_kv_raw(&s->json, "ts", ts);
	if (ret) {
		rp_usecs(ts, sizeof(ts), r->latency_ns);
		json_kv_raw(&s->json, "dur", ts);
	} else {
		json_kv_str(&s->json, "s", "t");
	}
	rp_perfetto_args(s, r, d);
	rp_perfetto_event_end(s);
	s->n--;		/* rp_sink counts records, not events */
}

static void rp_perfetto_end(struct rp_sink *s)
{
	fputs("\n]}\n", s->out);
}

static void rp_perfetto_free(struct rp_sink *s)
{
	struct rp_perfetto *p = s->priv;

	free(p->threads.v);
	free(p);
	rp_outbuf_sink_free(s);
}

static const struct rp_sink_ops rp_perfetto_ops = {
	.begin = rp_perfetto_begin, .record = rp_perfetto_record,
	.end = rp_perfetto_end, .free = rp_perfetto_free,
};

/*
 * --- capture files ---
 * RP_CAPTURE_MAGIC, then items: a u32 tag, a u32 length, the payload.
 * A probe's description (struct rp_probe_desc up to its argument names,
 * RP_DESC_CAPTURE_SIZE bytes) comes before its first record (struct
 * rawprobe_record); the names of its arguments, if it has some, follow
 * the description (struct rp_cap_names; names of 128 characters or
 * more, aliases' paths with them, in RP_CAP_LONG_NAMES' 512), then its
 * types where they were known (struct rp_cap_types). Readers skip items they do not know, so
 * older ones read such a capture without the names or the types: the
 * items are the format's versions, and the magic stays. A capture
 * without types (older, or made without BTF) is typed from the BTF of
 * the replay, as before types were kept.
 */
enum { RP_CAP_PROBE = 1, RP_CAP_RECORD = 2, RP_CAP_NAMES = 3,
       RP_CAP_TYPES = 4, RP_CAP_LONG_NAMES = 5 };

struct rp_cap_item {
	uint32_t tag, len;
};

#define RP_CAP_NAMES_SHORT 128	/* RAWPROBE_ARG_NAMES_LEN up to ABI 8 */
struct rp_cap_names {
	uint32_t id;
	char names[RAWPROBE_ARG_NAMES_LEN];	/* NUL-terminated */
};
/* (RP_CAP_NAMES: the first RP_CAP_NAMES_SHORT bytes of names[]) */
#define RP_CAP_NAMES_SIZE (offsetof(struct rp_cap_names, names) + \
			   RP_CAP_NAMES_SHORT)

/* The types BTF gave, which the replay's machine may not have */
struct rp_cap_types {
	uint32_t id;
	uint8_t ret_type;	/* enum rp_ret_type */
	uint8_t arg_bool;	/* bit i: argument i is a bool */
	uint8_t pad[2];		/* 0 */
};
_Static_assert(RP_DESC_CAPTURE_SIZE == 240, "the capture's probe item");
_Static_assert(RP_CAP_NAMES_SIZE == 132, "the capture's names item");
_Static_assert(sizeof(struct rp_cap_names) == 516, "its long names item");
_Static_assert(sizeof(struct rp_cap_types) == 8, "the capture's types item");

static void rp_cap_put(FILE *out, uint32_t tag, const void *p, uint32_t len)
{
	struct rp_cap_item it = { .tag = tag, .len = len };

	fwrite(&it, sizeof(it), 1, out);
	fwrite(p, len, 1, out);
}

static void rp_raw_begin(struct rp_sink *s)
{
	fwrite(RP_CAPTURE_MAGIC, 8, 1, s->out);
}

/* A probe's description, its names and types, before its first record */
static void rp_raw_desc(struct rp_sink *s, const struct rp_probe_desc *d)
{
	rp_cap_put(s->out, RP_CAP_PROBE, d, RP_DESC_CAPTURE_SIZE);
	if (rp_desc_has_names(d)) {
		struct rp_cap_names n = { .id = d->id };
		bool lng = strlen(d->arg_names) >= RP_CAP_NAMES_SHORT;

		memcpy(n.names, d->arg_names, sizeof(n.names));
		/* short names in the item older readers know */
		rp_cap_put(s->out, lng ? RP_CAP_LONG_NAMES : RP_CAP_NAMES, &n,
			   lng ? sizeof(n) : RP_CAP_NAMES_SIZE);
	}
	if (d->ret_type != RP_RET_RAW || d->arg_bool) {
		struct rp_cap_types t = {
			.id = d->id, .ret_type = d->ret_type,
			.arg_bool = d->arg_bool,
		};

		rp_cap_put(s->out, RP_CAP_TYPES, &t, sizeof(t));
	}
}

static void rp_raw_record(struct rp_sink *s, const struct rawprobe_record *r,
			  const struct rp_probe_desc *d)
{
	struct rp_idset *known = s->priv;

	if (d && rp_idset_add(known, d->id) == 1)
		rp_raw_desc(s, d);
	rp_cap_put(s->out, RP_CAP_RECORD, r, sizeof(*r));
}

static void rp_raw_free(struct rp_sink *s)
{
	struct rp_idset *known = s->priv;

	free(known->v);
	free(known);
}

static const struct rp_sink_ops rp_raw_ops = {
	.begin = rp_raw_begin, .record = rp_raw_record, .free = rp_raw_free,
};

int rp_sink_init(struct rp_sink *s, int fmt, FILE *out, bool pretty)
{
	static const struct rp_sink_ops *const ops[] = {
		[RP_FMT_TEXT] = &rp_text_ops, [RP_FMT_JSON] = &rp_json_ops,
		[RP_FMT_CSV] = &rp_csv_ops, [RP_FMT_PERFETTO] = &rp_perfetto_ops,
		[RP_FMT_RAW] = &rp_raw_ops, [RP_FMT_FOLDED] = &rp_folded_ops,
	};

	memset(s, 0, sizeof(*s));
	if (fmt < 0 || (size_t)fmt >= ARRAY_SIZE(ops) || !ops[fmt])
		return -EINVAL;
	s->ops = ops[fmt];
	s->out = out;
	json_init(&s->json, out, pretty);
	if (fmt == RP_FMT_PERFETTO)
		s->priv = calloc(1, sizeof(struct rp_perfetto));
	else if (fmt == RP_FMT_RAW)
		s->priv = calloc(1, sizeof(struct rp_idset));
	if ((fmt == RP_FMT_PERFETTO || fmt == RP_FMT_RAW) && !s->priv)
		return -ENOMEM;
	if (fmt != RP_FMT_RAW) {
		if (rp_outbuf_init(&s->ob, out, RP_OUTBUF_SIZE))
			return -ENOMEM;
		json_set_outbuf(&s->json, &s->ob);
	}
	return 0;
}

void rp_sink_record(struct rp_sink *s, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d)
{
	struct rawprobe_record shown;

	/*
	 * A capture keeps the kernel's bytes: its replay comes here again.
	 * (Addresses are strings: most records are out at the flag.)
	 */
	if ((r->flags & RAWPROBE_REC_STR) && s->ops != &rp_raw_ops &&
	    rp_rec_ip6_text(&shown, r, d))
		r = &shown;
	s->ops->record(s, r, d);
}

/* --- reading a capture file --- */

struct rp_cap_probes {
	struct rp_probe_desc *v;
	size_t n;
};

static struct rp_probe_desc *rp_cap_find(const struct rp_cap_probes *p,
					 uint32_t id)
{
	size_t i;

	for (i = p->n; i > 0; i--)	/* the latest wins */
		if (p->v[i - 1].id == id)
			return &p->v[i - 1];
	return NULL;
}

static int rp_cap_add(struct rp_cap_probes *p, const struct rp_probe_desc *d)
{
	void *v = realloc(p->v, (p->n + 1) * sizeof(*p->v));

	if (!v)
		return -ENOMEM;
	p->v = v;
	memset(&p->v[p->n], 0, sizeof(*p->v));
	memcpy(&p->v[p->n], d, RP_DESC_CAPTURE_SIZE);
	p->v[p->n].name[sizeof(d->name) - 1] = '\0';
	rp_desc_name_ready(&p->v[p->n]);
	p->n++;
	return 0;
}

/* Names of the latest probe of that id; names that are not, ignored. */
static void rp_cap_names(struct rp_cap_probes *p, struct rp_cap_names *n,
			 size_t size)
{
	struct rp_probe_desc *d = rp_cap_find(p, n->id);

	n->names[size - 1] = '\0';
	if (d)
		rp_desc_set_names(d, n->names);
}

/* Types of the latest probe of that id; a type this reader lacks, raw */
static void rp_cap_types(struct rp_cap_probes *p, const struct rp_cap_types *t)
{
	struct rp_probe_desc *d = rp_cap_find(p, t->id);

	if (!d)
		return;
	d->ret_type = t->ret_type <= RP_RET_MAX ? t->ret_type : RP_RET_RAW;
	d->arg_bool = t->arg_bool & rp_desc_bool_args(d);
	d->types_known = 1;
}

/* A record's probe, typed by types() before its first record if need be */
static const struct rp_probe_desc *
rp_cap_record_desc(struct rp_cap_probes *p, uint32_t id, rp_desc_types_fn types)
{
	struct rp_probe_desc *d = rp_cap_find(p, id);

	if (d && !d->types_known && types)
		types(d);
	return d;
}

static int rp_cap_items(FILE *f, rp_capture_fn fn, rp_desc_types_fn types,
			void *ctx, struct rp_cap_probes *probes)
{
	union {
		struct rawprobe_record r;
		struct rp_probe_desc d;
		struct rp_cap_names n;
		struct rp_cap_types t;
	} u;
	struct rp_cap_item it;
	int err = 0;

	while (!err && fread(&it, sizeof(it), 1, f) == 1) {
		if ((it.tag == RP_CAP_PROBE && it.len != RP_DESC_CAPTURE_SIZE) ||
		    (it.tag == RP_CAP_RECORD && it.len != sizeof(u.r)) ||
		    (it.tag == RP_CAP_NAMES && it.len != RP_CAP_NAMES_SIZE) ||
		    (it.tag == RP_CAP_LONG_NAMES && it.len != sizeof(u.n)) ||
		    (it.tag == RP_CAP_TYPES && it.len != sizeof(u.t)) ||
		    it.len > sizeof(u))
			return -EBADMSG;
		if (it.len && fread(&u, it.len, 1, f) != 1)
			return -EBADMSG;
		if (it.tag == RP_CAP_PROBE)
			err = rp_cap_add(probes, &u.d);
		else if (it.tag == RP_CAP_NAMES)
			rp_cap_names(probes, &u.n, RP_CAP_NAMES_SHORT);
		else if (it.tag == RP_CAP_LONG_NAMES)
			rp_cap_names(probes, &u.n, sizeof(u.n.names));
		else if (it.tag == RP_CAP_TYPES)
			rp_cap_types(probes, &u.t);
		else if (it.tag == RP_CAP_RECORD)
			err = fn(&u.r, rp_cap_record_desc(probes, u.r.probe_id,
							  types), ctx);
	}
	return err > 0 ? 0 : err;
}

#define RP_CAPTURE_BUF	(1 << 20)

int rp_capture_read(const char *path, rp_capture_fn fn,
		    rp_desc_types_fn types, void *ctx)
{
	struct rp_cap_probes probes = { 0 };
	char magic[8];
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	/* Replays are read as fast as they format: few, large reads. */
	char *buf = f && f != stdin ? malloc(RP_CAPTURE_BUF) : NULL;
	int err;

	if (!f)
		return -errno;
	if (buf)
		setvbuf(f, buf, _IOFBF, RP_CAPTURE_BUF);
	if (fread(magic, sizeof(magic), 1, f) != 1 ||
	    memcmp(magic, RP_CAPTURE_MAGIC, sizeof(magic)))
		err = -EPROTO;
	else
		err = rp_cap_items(f, fn, types, ctx, &probes);
	if (f != stdin)
		fclose(f);
	free(buf);
	free(probes.v);
	return err;
}
