// SPDX-License-Identifier: GPL-2.0
/*
 * --template (template.h): compiled once into segments, literal text or
 * a field with its width; each record's line is written straight into
 * the output buffer, a field through a scratch buffer when it is padded
 * on the left.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/record_str.h"
#include "lib/symbols.h"
#include "out/format.h"
#include "out/template.h"

enum rp_tfield {
	RP_TF_TEXT, RP_TF_TIME, RP_TF_TS, RP_TF_CPU, RP_TF_PID, RP_TF_TGID,
	RP_TF_COMM, RP_TF_PROBE, RP_TF_RETVAL, RP_TF_LAT_NS, RP_TF_LAT_US,
	RP_TF_LAT_MS, RP_TF_STR, RP_TF_ARGN, RP_TF_ARG,
};

static const struct {
	const char *name;
	unsigned char field;
} rp_tfields[] = {
	{ "time", RP_TF_TIME }, { "ts", RP_TF_TS }, { "cpu", RP_TF_CPU },
	{ "pid", RP_TF_PID }, { "tid", RP_TF_PID }, { "tgid", RP_TF_TGID },
	{ "comm", RP_TF_COMM }, { "probe", RP_TF_PROBE },
	{ "retval", RP_TF_RETVAL }, { "latency", RP_TF_LAT_NS },
	{ "latency_us", RP_TF_LAT_US }, { "latency_ms", RP_TF_LAT_MS },
	{ "str", RP_TF_STR },
};

#define RP_TMPL_WIDTH_MAX	256
#define RP_TMPL_FIELDS_MAX	64	/* a line's room stays bounded */
/* The most one field writes: an escaped string, quoted, or a symbol */
#define RP_TMPL_VALUE_MAX	(RP_ESCAPED_MAX(RAWPROBE_STR_LEN) + \
				 RP_ESCAPED_MAX(RP_FMT_VALUE_MAX) + \
				 RP_ESCAPED_MAX(RP_KSYM_MAX) + 16)

struct rp_tseg {
	unsigned char field;		/* enum rp_tfield */
	bool left;			/* padded on the right ("-WIDTH") */
	unsigned int width;
	unsigned int argn;		/* RP_TF_ARGN's N */
	uint64_t div;			/* an argument's "/N": 0 for none */
	char *text;			/* the literal, the name, time's format */
	size_t len;
};

struct rp_template {
	struct rp_tseg *v;
	size_t n;
	size_t max;			/* the most a line takes */
	unsigned int nfields;
	int64_t wall_ns;		/* the wall clock less the monotonic */
};

static char rp_tmpl_scratch[RP_TMPL_VALUE_MAX + RP_TMPL_WIDTH_MAX];

void rp_template_free(struct rp_template *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
	free(t);
}

static struct rp_tseg *rp_tmpl_add(struct rp_template *t, unsigned char field,
				   const char *text, size_t len)
{
	struct rp_tseg *v = realloc(t->v, (t->n + 1) * sizeof(*v)), *s;

	if (!v)
		return NULL;
	t->v = v;
	s = &v[t->n];
	memset(s, 0, sizeof(*s));
	s->field = field;
	s->text = malloc(len + 1);
	if (!s->text)
		return NULL;
	memcpy(s->text, text, len);
	s->text[len] = '\0';
	s->len = len;
	t->n++;
	return s;
}

/*
 * "NAME/N": an integer argument divided by N, as bpftrace's tools print
 * bytes in KB ({tx/1024}); the name stays NAME.
 */
static int rp_tmpl_div(struct rp_tseg *s, const char *src)
{
	char *slash = strchr(s->text, '/'), *end;
	unsigned long long n;

	if (!slash)
		return 0;
	errno = 0;
	n = strtoull(slash + 1, &end, 10);
	if (*end || end == slash + 1 || errno || !n || slash[1] == '-')
		return rp_usage_error("--template '%s': '%s' divides by no "
				      "number (NAME/N, N a positive integer)",
				      src, slash + 1);
	*slash = '\0';
	s->len = (size_t)(slash - s->text);
	s->div = n;
	return 0;
}

/* A field's name: a fixed one, argN, or an argument's name or path */
static int rp_tmpl_name(struct rp_tseg *s, const char *src)
{
	const char *n = s->text;
	size_t i;
	char *end;

	if (rp_tmpl_div(s, src))
		return RP_EXIT_USAGE;
	for (i = 0; i < sizeof(rp_tfields) / sizeof(rp_tfields[0]); i++)
		if (!strcmp(n, rp_tfields[i].name)) {
			s->field = rp_tfields[i].field;
			if (!s->div)
				return 0;
			return rp_usage_error("--template '%s': '%s/%llu': only "
					      "an argument divides", src, n,
					      (unsigned long long)s->div);
		}
	if (!strncmp(n, "arg", 3) && isdigit((unsigned char)n[3])) {
		s->argn = (unsigned int)strtoul(n + 3, &end, 10);
		if (!*end && s->argn < RAWPROBE_MAX_ARGS) {
			s->field = RP_TF_ARGN;
			return 0;
		}
	}
	if (!*n || !(isalpha((unsigned char)*n) || *n == '_') ||
	    strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789_->.[]") != strlen(n))
		return rp_usage_error("--template '%s': '%s' is no field (time, "
				      "ts, cpu, pid, tid, tgid, comm, probe, "
				      "retval, latency, latency_us, latency_ms, "
				      "str, argN, or an argument's name)", src, n);
	s->field = RP_TF_ARG;
	return 0;
}

/* "{NAME}" or "{NAME:SPEC}" at *pp (past the '{') */
static int rp_tmpl_field(struct rp_template *t, const char *src,
			 const char **pp)
{
	const char *p = *pp, *close = strchr(p, '}'), *colon;
	struct rp_tseg *s;
	char *end;
	long w;

	if (!close)
		return rp_usage_error("--template '%s': a '{' without its '}'",
				      src);
	if (++t->nfields > RP_TMPL_FIELDS_MAX)
		return rp_usage_error("--template '%s': more than %d fields",
				      src, RP_TMPL_FIELDS_MAX);
	colon = memchr(p, ':', (size_t)(close - p));
	s = rp_tmpl_add(t, RP_TF_ARG, p, (size_t)((colon ? colon : close) - p));
	if (!s)
		return RP_EXIT_FAIL;
	*pp = close + 1;
	if (rp_tmpl_name(s, src))
		return RP_EXIT_USAGE;
	if (!colon)
		return 0;
	colon++;
	if (s->field == RP_TF_TIME) {	/* strftime's format */
		free(s->text);
		s->len = (size_t)(close - colon);
		s->text = strndup(colon, s->len);
		return s->text ? 0 : RP_EXIT_FAIL;
	}
	s->left = *colon == '-';
	errno = 0;
	w = strtol(colon + s->left, &end, 10);
	if (end != close || end == colon + s->left || errno || w < 0 ||
	    w > RP_TMPL_WIDTH_MAX)
		return rp_usage_error("--template '%s': '%.*s' is no width "
				      "([-]0..%d)", src, (int)(close - colon),
				      colon, RP_TMPL_WIDTH_MAX);
	s->width = (unsigned int)w;
	return 0;
}

/* Literal text up to the next field, "{{" "}}" "\n" "\t" "\\" unfolded */
static int rp_tmpl_text(struct rp_template *t, const char *src,
			const char **pp)
{
	char buf[256];
	const char *p = *pp;
	size_t n = 0;

	while (*p && n < sizeof(buf)) {
		if (*p == '{' && p[1] != '{')
			break;
		if (*p == '}' && p[1] != '}')
			return rp_usage_error("--template '%s': a '}' without its "
					      "'{' (a literal one is '}}')", src);
		if (*p == '\\' && (p[1] == 'n' || p[1] == 't' || p[1] == '\\')) {
			buf[n++] = p[1] == 'n' ? '\n' : p[1] == 't' ? '\t' : '\\';
			p += 2;
			continue;
		}
		buf[n++] = *p;
		p += *p == '{' || *p == '}' ? 2 : 1;
	}
	*pp = p;
	return rp_tmpl_add(t, RP_TF_TEXT, buf, n) ? 0 : RP_EXIT_FAIL;
}

static int64_t rp_tmpl_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int rp_template_compile(const char *src, struct rp_template **out)
{
	struct rp_template *t = calloc(1, sizeof(*t));
	const char *p = src;
	size_t i;
	int rc = 0;

	if (!t)
		return RP_EXIT_FAIL;
	while (*p && !rc) {
		if (*p == '{' && p[1] != '{') {
			p++;
			rc = rp_tmpl_field(t, src, &p);
		} else {
			rc = rp_tmpl_text(t, src, &p);
		}
	}
	if (rc) {
		rp_template_free(t);
		return rc;
	}
	t->max = 1;		/* the newline */
	for (i = 0; i < t->n; i++)
		t->max += t->v[i].field == RP_TF_TEXT ? t->v[i].len :
			  RP_TMPL_VALUE_MAX + t->v[i].width;
	t->wall_ns = rp_tmpl_clock_ns(CLOCK_REALTIME) -
		     rp_tmpl_clock_ns(CLOCK_MONOTONIC);
	*out = t;
	return 0;
}

/* The record's argument that the probe names so, or -1 */
static int rp_tmpl_arg_index(const struct rp_probe_desc *d, const char *name,
			     size_t len)
{
	unsigned int i;

	if (!rp_desc_has_names(d))
		return -1;
	for (i = 0; i < d->nargs && i < RAWPROBE_MAX_ARGS; i++)
		if (d->name_len[i] == len &&
		    !memcmp(d->arg_names + d->name_off[i], name, len))
			return (int)i;
	return -1;
}

static char *rp_tmpl_time(char *p, const struct rawprobe_record *r,
			  const struct rp_template *t, const struct rp_tseg *s)
{
	int64_t ns = (int64_t)r->ts_ns + t->wall_ns;
	time_t sec = (time_t)(ns / 1000000000);
	char buf[128];
	struct tm tm;
	size_t n;

	if (!localtime_r(&sec, &tm))
		return rp_put(p, "-", 1);
	n = strftime(buf, sizeof(buf), s->len ? s->text : "%H:%M:%S", &tm);
	return rp_put_escaped(p, buf, n);
}

/*
 * Argument i divided by div ({tx/1024}): an integer as its type reads
 * it; anything else (a string, an address, a format, a label, a bool,
 * a fault) as it is.
 */
static char *rp_tmpl_arg_div(char *p, const struct rawprobe_record *r,
			     const struct rp_probe_desc *d, unsigned int i,
			     uint64_t div)
{
	unsigned int t = rp_argtype_of(d, i);
	struct rp_typed v = rp_arg_typed(d, i, r->args[i]);
	size_t len;

	if (rp_arg_faulted(r, i) || rp_arg_is_str(r, i) ||
	    rp_argtype_is_fmt(t) || t == RAWPROBE_ARG_PTR ||
	    v.form == RP_FORM_BOOL || rp_label(d, i, t, v.v, &len))
		return rp_text_arg_value(p, r, d, i, false);
	if (v.form == RP_FORM_S64)
		return rp_put_s64(p, (int64_t)v.v / (int64_t)div);
	return rp_put_u64(p, v.v / div);
}

/* Field s of r, unpadded */
static char *rp_tmpl_value(char *p, const struct rawprobe_record *r,
			   const struct rp_probe_desc *d,
			   const struct rp_template *t, const struct rp_tseg *s)
{
	bool ret = r->flags & RAWPROBE_REC_RETVAL;
	struct rp_rec_str rs;
	int i;

	switch (s->field) {
	case RP_TF_TIME:
		return rp_tmpl_time(p, r, t, s);
	case RP_TF_TS:
		p = rp_put_u64(p, r->ts_ns / 1000000000U);
		*p++ = '.';
		return rp_put_u64_width(p, r->ts_ns / 1000U % 1000000U, 6, '0');
	case RP_TF_CPU:
		return rp_put_u64(p, r->cpu);
	case RP_TF_PID:
		return rp_put_u64(p, r->pid);
	case RP_TF_TGID:
		return rp_put_u64(p, r->tgid);
	case RP_TF_COMM:
		return rp_put_escaped(p, r->comm,
				      strnlen(r->comm, RAWPROBE_COMM_LEN));
	case RP_TF_PROBE:
		return d ? rp_put_escaped(p, d->name,
					  strnlen(d->name, sizeof(d->name))) :
			   rp_put(p, "?", 1);
	case RP_TF_RETVAL:
		return ret && !rp_rec_is_pair(r, d) ?
		       rp_text_ret_value(p, r, d) : rp_put(p, "-", 1);
	case RP_TF_LAT_NS:
	case RP_TF_LAT_US:
	case RP_TF_LAT_MS:
		if (!ret)
			return rp_put(p, "-", 1);
		return rp_put_u64(p, r->latency_ns /
				  (s->field == RP_TF_LAT_NS ? 1 :
				   s->field == RP_TF_LAT_US ? 1000 : 1000000));
	case RP_TF_STR:
		return rp_rec_own_str(r, &rs) && (rs.flags & RAWPROBE_REC_STR) ?
		       rp_put_escaped(p, rs.s, rs.len) : rp_put(p, "-", 1);
	case RP_TF_ARGN:
		i = (int)s->argn;
		break;
	default:
		i = rp_tmpl_arg_index(d, s->text, s->len);
	}
	if (i < 0 || !(r->flags & RAWPROBE_REC_ARGS) || i >= r->nargs)
		return rp_put(p, "-", 1);
	if (s->div)
		return rp_tmpl_arg_div(p, r, d, (unsigned int)i, s->div);
	return rp_text_arg_value(p, r, d, (unsigned int)i, false);
}

void rp_record_template(struct rp_outbuf *ob, const struct rawprobe_record *r,
			const struct rp_probe_desc *d,
			const struct rp_template *t)
{
	char *p = rp_ob_begin(ob, t->max), *v, *end;
	const struct rp_tseg *s;
	size_t i, n;

	for (i = 0; i < t->n; i++) {
		s = &t->v[i];
		if (s->field == RP_TF_TEXT) {
			p = rp_put(p, s->text, s->len);
			continue;
		}
		if (s->left || !s->width) {
			v = p;
			p = rp_tmpl_value(p, r, d, t, s);
			p = rp_put_pad(v, p, s->width);
			continue;
		}
		end = rp_tmpl_value(rp_tmpl_scratch, r, d, t, s);
		n = (size_t)(end - rp_tmpl_scratch);
		if (n < s->width) {
			memset(p, ' ', s->width - n);
			p += s->width - n;
		}
		p = rp_put(p, rp_tmpl_scratch, n);
	}
	*p++ = '\n';
	rp_ob_end(ob, p);
}
