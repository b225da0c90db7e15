// SPDX-License-Identifier: GPL-2.0
/*
 * The value filter, --filter 'retval < 0 && skb->len > 1000': its text
 * checked as given (rp_value_filter_opt()), then parsed into terms,
 * OPERAND CMP CONST joined by && and ||, and compiled against the
 * probed function's BTF (rp_value_filter_compile()) into struct
 * rawprobe_value_term lists the kernel runs (probes/fetch.c): each
 * operand a field path (path.c, which also says if it is a string),
 * each constant a number or an enumerator at the operand's width, or a
 * string that == and != compare and the globs ~ and !~ match, kept in
 * the probe's filter_strs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resolve/btf_int.h"
#include "lib/cli.h"
#include "resolve/fetch_int.h"
#include "resolve/filter.h"
#include "lib/path.h"
#include "lib/symbols.h"

#define RP_CONST_MAX	32	/* a constant as written, with its NUL */

/* A term as written: OPERAND[:str|:ustr] CMP CONST, CONST "a string" */
struct rp_term_text {
	struct rp_path path;
	unsigned char cmp;		/* enum rawprobe_cmp */
	bool or;			/* starts an alternative (||) */
	int want;			/* :str or :ustr given; else -1 */
	bool is_str;			/* the constant is in quotes */
	char cnst[RP_CONST_MAX];
	char str[RAWPROBE_CMP_STR_LEN];
};

static const struct {
	const char *op;
	unsigned char cmp;
} rp_cmp_ops[] = {
	{ "==", RAWPROBE_CMP_EQ }, { "!=", RAWPROBE_CMP_NE },
	{ "<=", RAWPROBE_CMP_LE }, { ">=", RAWPROBE_CMP_GE },
	{ "<", RAWPROBE_CMP_LT }, { ">", RAWPROBE_CMP_GT },
	{ "&", RAWPROBE_CMP_ANY },
	{ "!~", RAWPROBE_CMP_NGLOB }, { "~", RAWPROBE_CMP_GLOB },
};

static const char *rp_skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* text up to end, without the spaces before end */
static size_t rp_trimmed_len(const char *text, const char *end)
{
	while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return (size_t)(end - text);
}

static bool rp_at_join(const char *c)
{
	return !strncmp(c, "&&", 2) || !strncmp(c, "||", 2);
}

/* The comparison at *c: its rp_cmp_ops[] index, -1 if there is none */
static int rp_cmp_parse(const char **c)
{
	size_t i, n;

	if (rp_at_join(*c))
		return -1;
	for (i = 0; i < ARRAY_SIZE(rp_cmp_ops); i++) {
		n = strlen(rp_cmp_ops[i].op);
		if (!strncmp(*c, rp_cmp_ops[i].op, n)) {
			*c = rp_skip_spaces(*c + n);
			return (int)i;
		}
	}
	return -1;
}

static int rp_value_filter_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static int rp_value_filter_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rp_usage_error("--filter: %s", msg);
}

/* A number or a name: [-]digits, 0x..., an enumerator */
static size_t rp_const_len(const char *c)
{
	size_t n = *c == '-';

	while (isalnum((unsigned char)c[n]) || c[n] == '_')
		n++;
	return n == 1 && *c == '-' ? 0 : n;
}

static int rp_const_take(const char **c, char *out, const char *after,
			 const char *op)
{
	size_t n = rp_const_len(*c);

	if (!n)
		return rp_value_filter_error("expected a number after '%s %s'%s%s%s",
					     after, op, **c ? ", not '" : "", *c,
					     **c ? "'" : "");
	if (n >= RP_CONST_MAX)
		return rp_value_filter_error("'%.*s' is too long for a constant",
					     (int)n, *c);
	memcpy(out, *c, n);
	out[n] = '\0';
	*c = rp_skip_spaces(*c + n);
	return 0;
}

/* "x & c", "x & c == 0" (none of the bits), "x & c != 0" (any) */
static int rp_bits_test(const char **c, struct rp_term_text *t)
{
	char zero[RP_CONST_MAX];
	bool none = !strncmp(*c, "==", 2);
	const char *at = rp_skip_spaces(*c + 2);

	if (!none && strncmp(*c, "!=", 2))
		return 0;
	if (rp_const_take(&at, zero, t->path.text, none ? "& ... ==" : "& ... !="))
		return RP_EXIT_USAGE;
	if (strcmp(zero, "0"))
		return rp_value_filter_error("'%s & %s' compares with 0 only ('== 0': "
					     "none of those bits, '!= 0': any), not "
					     "with %s", t->path.text, t->cnst, zero);
	t->cmp = none ? RAWPROBE_CMP_NONE : RAWPROBE_CMP_ANY;
	*c = at;
	return 0;
}

static int rp_no_cmp(const char *c, const struct rp_path *p)
{
	size_t n = strspn(c, "=!<>&|~");

	if (!*c || rp_at_join(c) || !n)
		return rp_value_filter_error("expected a comparison after '%s'%s%s%s "
					     "(==, !=, <, <=, >, >=, &, ~, !~)",
					     p->text, *c ? ", not '" : "", c,
					     *c ? "'" : "");
	return rp_value_filter_error("unknown operator '%.*s' after '%s' (==, !=, "
				     "<, <=, >, >=, &, ~, !~)", (int)n, c,
				     p->text);
}

/* "a string": printable, no quote or backslash inside, bounded */
static int rp_str_take(const char **c, struct rp_term_text *t, const char *op)
{
	const char *end = strchr(*c + 1, '"');
	size_t n;

	if (!end)
		return rp_value_filter_error("unterminated string after '%s %s': "
					     "%s", t->path.text, op, *c);
	n = (size_t)(end - *c - 1);
	if (n >= sizeof(t->str))
		return rp_value_filter_error("\"%.*s\" is %zu characters: a string "
					     "compares on its first %d bytes, so "
					     "constants are shorter "
					     "(RAWPROBE_CMP_STR_LEN)", (int)n,
					     *c + 1, n, RAWPROBE_CMP_STR_LEN);
	memcpy(t->str, *c + 1, n);
	t->str[n] = '\0';
	t->is_str = true;
	*c = rp_skip_spaces(end + 1);
	return 0;
}

/* == and != of strings, and the globs; nothing else takes a string */
static int rp_str_cmp(struct rp_term_text *t, const char *op)
{
	if (!t->is_str) {
		if (t->cmp != RAWPROBE_CMP_GLOB && t->cmp != RAWPROBE_CMP_NGLOB)
			return 0;
		return rp_value_filter_error("'%s %s' matches a string with a glob: "
					     "give it in quotes ('%s %s \"pts*\"')",
					     t->path.text, op, t->path.text, op);
	}
	if (t->cmp == RAWPROBE_CMP_EQ)
		t->cmp = RAWPROBE_CMP_STR_EQ;
	else if (t->cmp == RAWPROBE_CMP_NE)
		t->cmp = RAWPROBE_CMP_STR_NE;
	else if (t->cmp != RAWPROBE_CMP_GLOB && t->cmp != RAWPROBE_CMP_NGLOB)
		return rp_value_filter_error("'%s %s \"%s\"': strings compare "
					     "with ==, != and the globs ~ and !~",
					     t->path.text, op, t->str);
	return 0;
}

/* PATH:str or PATH:ustr: the operand is read as that string */
static int rp_term_want(const char **c, struct rp_term_text *t)
{
	size_t n;

	t->want = -1;
	if (**c != ':')
		return 0;
	n = strspn(*c + 1, "abcdefghijklmnopqrstuvwxyz0123456789");
	if (n == 3 && !strncmp(*c + 1, "str", 3))
		t->want = RAWPROBE_ARG_KSTR;
	else if (n == 4 && !strncmp(*c + 1, "ustr", 4))
		t->want = RAWPROBE_ARG_USTR;
	else
		return rp_value_filter_error("'%s:%.*s': a filter's operand takes "
					     ":str (a kernel string) or :ustr (a "
					     "user string)", t->path.text,
					     (int)n, *c + 1);
	*c = rp_skip_spaces(*c + 1 + n);
	return 0;
}

static int rp_term_parse(const char **c, struct rp_term_text *t)
{
	int err, op;

	err = rp_path_parse(c, &t->path);
	if (err == -ERANGE)
		return rp_value_filter_error("too long at '%s' (names of at most %d "
					     "characters, %d steps)", *c,
					     RP_PATH_NAME_MAX - 1, RP_PATH_STEPS_MAX);
	if (err)
		return rp_value_filter_error("expected a value (retval, argN, an "
					     "argument's name or a field path) %s%s%s",
					     **c ? "at '" : "at the end", *c,
					     **c ? "'" : "");
	if (rp_term_want(c, t))
		return RP_EXIT_USAGE;
	op = rp_cmp_parse(c);
	if (op < 0)
		return rp_no_cmp(*c, &t->path);
	t->cmp = rp_cmp_ops[op].cmp;
	if (**c == '"' ? rp_str_take(c, t, rp_cmp_ops[op].op) :
	    rp_const_take(c, t->cnst, t->path.text, rp_cmp_ops[op].op))
		return RP_EXIT_USAGE;
	if (rp_str_cmp(t, rp_cmp_ops[op].op))
		return RP_EXIT_USAGE;
	return t->cmp == RAWPROBE_CMP_ANY ? rp_bits_test(c, t) : 0;
}

/* TERM ('&&' TERM | '||' TERM)*, at most RAWPROBE_MAX_VALUE_TERMS */
static int rp_value_filter_parse(const char *text, struct rp_term_text *tt,
				 unsigned int *n)
{
	const char *c = rp_skip_spaces(text);
	bool or = false;
	int rc;

	for (*n = 0;; c = rp_skip_spaces(c + 2)) {
		if (*n == RAWPROBE_MAX_VALUE_TERMS)
			return rp_value_filter_error("more than %d comparisons: the "
						     "kernel takes at most %d "
						     "(RAWPROBE_MAX_VALUE_TERMS)",
						     RAWPROBE_MAX_VALUE_TERMS,
						     RAWPROBE_MAX_VALUE_TERMS);
		memset(&tt[*n], 0, sizeof(tt[*n]));
		tt[*n].or = or;
		rc = rp_term_parse(&c, &tt[(*n)++]);
		if (rc)
			return rc;
		if (!*c)
			return 0;
		if (!rp_at_join(c))
			return rp_value_filter_error("expected &&, || or the end "
						     "after '%.*s', not '%s'",
						     (int)rp_trimmed_len(text, c), text,
						     c);
		or = *c == '|';
	}
}

/* Is term t a pair's end's latency? */
static bool rp_term_is_latency(const struct rp_fctx *cx,
			       const struct rp_term_text *t)
{
	return cx->pair_latency && !t->path.nsteps &&
	       !strcmp(t->path.head, "latency");
}

/*
 * latency, in a pair's end's filter: the kernel tests it once the end
 * found its start, the other terms at entry; so only in the end of
 * latency --records (a histogram counts every latency), with && only.
 */
static int rp_filter_latency_check(const struct rp_fctx *cx,
				   const struct rp_probe_req *r,
				   const struct rp_term_text *tt,
				   unsigned int n)
{
	bool lat = false, or = false;
	unsigned int i;

	for (i = 0; i < n; i++) {
		lat |= rp_term_is_latency(cx, &tt[i]);
		or |= tt[i].or;
	}
	if (!lat)
		return 0;
	if (r->flags & RAWPROBE_F_AGG)
		return rp_value_filter_error("latency: a histogram counts every "
					     "latency; filter on it with "
					     "--records");
	if (or)
		return rp_value_filter_error("latency is tested once the end "
					     "found its start, the other terms "
					     "before: join them with && only");
	return 0;
}

/* Does the filter need BTF: a path, a parameter's name, an enumerator? */
static bool rp_filter_needs_btf(const struct rp_fctx *cx,
				const struct rp_term_text *tt, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		const struct rp_path *p = &tt[i].path;

		if (rp_term_is_latency(cx, &tt[i]))
			continue;
		if (p->nsteps || (strcmp(p->head, "retval") &&
				  rp_param_index(NULL, p->head) < 0))
			return true;
		if (tt[i].is_str ? tt[i].want < 0 :
		    !isdigit((unsigned char)tt[i].cnst[tt[i].cnst[0] == '-']))
			return true;
	}
	return false;
}

/* An enumerator of enum t (or true/false of a bool), by name */
static int rp_const_name(const struct rp_fctx *cx, const char *s,
			 const struct rp_operand *o, uint64_t *out)
{
	const struct btf *btf = cx->pr ? cx->pr->btf : NULL;
	const struct btf_type *t = btf && o->type ?
				   btf__type_by_id(btf, o->type) : NULL;
	struct rp_near_names nn = { .query = s };
	char ty[RP_BTF_TYPE_MAX];
	unsigned int i, n;
	const char *name;
	int rc;

	if (t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_BOOL) &&
	    (!strcmp(s, "true") || !strcmp(s, "false"))) {
		*out = s[0] == 't';
		return 0;
	}
	if (!t || !btf_is_any_enum(t))
		return rp_fetch_error(cx, "'%s' is not a number (decimal, or 0x "
				      "hex)%s", s, t ? "; names are for enums" :
				      "");
	for (i = 0, n = btf_vlen(t); i < n; i++) {
		if (btf_is_enum(t)) {
			name = rp_btf_str(btf, btf_enum(t)[i].name_off);
			*out = btf_kflag(t) ? (uint64_t)(int64_t)btf_enum(t)[i].val :
			       (uint32_t)btf_enum(t)[i].val;
		} else {
			name = rp_btf_str(btf, btf_enum64(t)[i].name_off);
			*out = btf_enum64_value(btf_enum64(t) + i);
		}
		if (!strcmp(name, s))
			return 0;
		if (rp_near_score(s, name) >= 0)
			rp_btf_near_add(nn.best, &nn.n, rp_near_score(s, name),
					name);
	}
	rp_btf_spell(btf, o->declared, ty, sizeof(ty), 0);
	rc = rp_fetch_error(cx, "'%s' is no enumerator of %s", s, ty);
	rp_btf_near_print(nn.best, nn.n);
	return rc;
}

/*
 * The constant, as the kernel compares it: sign-extended for a signed
 * comparison, else at the value's width (-1 of a u32 is 0xffffffff).
 */
static int rp_const_value(const struct rp_fctx *cx,
			  const struct rp_term_text *t,
			  const struct rp_operand *o, uint64_t *out)
{
	unsigned int w = o->f.bit_size ? o->f.bit_size : o->f.size * 8u;
	bool bits = t->cmp == RAWPROBE_CMP_ANY || t->cmp == RAWPROBE_CMP_NONE;
	bool sgn = (o->f.flags & RAWPROBE_FETCH_SIGNED) && !bits;
	uint64_t umax = w >= 64 ? UINT64_MAX : (1ULL << w) - 1, mag;
	const char *s = t->cnst, *digits = s + (*s == '-');
	bool hex = digits[0] == '0' && (digits[1] | 0x20) == 'x';
	char *end;

	if (!isdigit((unsigned char)*digits))
		return rp_const_name(cx, s, o, out);
	errno = 0;
	mag = strtoull(digits, &end, hex ? 16 : 10);
	if (*end || errno || (hex && !digits[2]))
		return rp_fetch_error(cx, "'%s' is not a number (decimal, or 0x "
				      "hex)", s);
	/* negative down to -2^(w-1); positive to the type's maximum */
	if (*s == '-' ? mag > umax / 2 + 1 : mag > (sgn ? umax / 2 : umax))
		return rp_fetch_error(cx, "%s does not fit '%s', a %s%u-bit "
				      "value", s, t->path.text,
				      sgn ? "signed " : "", w);
	*out = *s == '-' ? -mag : mag;
	if (!sgn)
		*out &= umax;
	return 0;
}

/* The constant, appended to the probe's strings (once) */
static int rp_str_const(struct rp_probe_req *r, const char *str,
			uint64_t *off)
{
	size_t n = strlen(str) + 1, at;

	for (at = 0; at < r->filter_strs_len; at += strlen(r->filter_strs + at) + 1)
		if (!strcmp(r->filter_strs + at, str)) {
			*off = at;
			return 0;
		}
	if (r->filter_strs_len + n > sizeof(r->filter_strs))
		return rp_value_filter_error("its strings take more than %d bytes "
					     "(RAWPROBE_FILTER_STRS_LEN)",
					     RAWPROBE_FILTER_STRS_LEN);
	memcpy(r->filter_strs + r->filter_strs_len, str, n);
	*off = r->filter_strs_len;
	r->filter_strs_len += (uint16_t)n;
	return 0;
}

/* A number's operand with a string, or the other way round */
static int rp_term_kinds(const struct rp_fctx *cx,
			 const struct rp_term_text *t,
			 const struct rp_operand *o, bool str)
{
	if (t->is_str == str)
		return 0;
	if (str)
		return rp_fetch_error(cx, "'%s' is a string: compare it with a "
				      "string in quotes ('%s == \"...\"'), or "
				      "one of its chars ([N]) with a number",
				      t->path.text, t->path.text);
	if (o->argtype == RAWPROBE_ARG_PTR || o->argtype == RAWPROBE_ARG_U64)
		return rp_fetch_error(cx, "'%s' is not a string (a char array or "
				      "a char pointer): compare it with a number, "
				      "or what it points to with '%s:str' (or "
				      ":ustr)", t->path.text, t->path.text);
	return rp_fetch_error(cx, "'%s' is a number, not a string: compare it "
			      "with a number", t->path.text);
}

static int rp_term_compile(const struct rp_fctx *cx, struct rp_probe_req *r,
			   const struct rp_term_text *t,
			   struct rawprobe_value_term *vt)
{
	struct rp_operand o;
	uint64_t value = 0;
	bool str, user;
	uint16_t size;
	int rc;

	rc = rp_operand_compile(cx, &t->path, t->want, &o);
	if (rc)
		return rc;
	str = rp_operand_str(cx, &t->path, &o, &size, &user);
	rc = rp_term_kinds(cx, t, &o, str);
	if (rc)
		return rc;
	memset(vt, 0, sizeof(*vt));
	vt->fetch = o.f;
	vt->cmp = t->cmp;
	vt->flags = t->or ? RAWPROBE_TERM_OR : 0;
	if (str) {
		vt->fetch.size = 8;	/* the string's address */
		vt->fetch.flags = 0;
		vt->str_size = size;
		vt->flags |= user ? RAWPROBE_TERM_USER : 0;
		rc = rp_str_const(r, t->str, &value);
	} else {
		rc = rp_const_value(cx, t, &o, &value);
	}
	vt->value = value;
	return rc;
}

int rp_value_filter_compile(struct rp_probe_req *r)
{
	struct rp_term_text tt[RAWPROBE_MAX_VALUE_TERMS];
	struct rp_fctx cx = { .kind = (unsigned int)r->kind,
			      .function = r->symbol, .what = "--filter",
			      .pair_latency = r->pair.role == RAWPROBE_PAIR_END };
	struct rp_btf_proto pr;
	unsigned int n, i;
	bool need;
	int rc, err;

	rc = rp_value_filter_parse(r->value_filter, tt, &n) ?:
	     rp_entry_check(r, "--filter") ?:
	     rp_filter_latency_check(&cx, r, tt, n);
	if (rc)
		return rc;
	/* retval and argN need no BTF: it only types them, when there */
	need = rp_filter_needs_btf(&cx, tt, n);
	err = rp_btf_proto_get(r->symbol, r->module, &pr, need);
	if (err && need)
		return rp_exit_from_errno(err);
	cx.pr = err ? NULL : &pr;
	r->filter_strs_len = 0;
	for (i = 0; i < n; i++) {
		rc = rp_term_compile(&cx, r, &tt[i], &r->terms[i]);
		if (rc)
			return rc;
	}
	r->nterms = (uint8_t)n;
	return RP_EXIT_OK;
}

/*
 * What a bpftrace or ftrace user may write, and what to write instead:
 * the command name is --comm (a task filter, not a value), and there are
 * no parentheses (&& binds tighter than ||, as in C).
 */
/*
 * f with what is between double quotes blanked: a string constant may
 * hold parentheses, an apostrophe or the word comm ("(deleted)").
 */
static void rp_blank_strings(const char *f, char *out, size_t size)
{
	bool in = false;
	size_t i;

	for (i = 0; f[i] && i + 1 < size; i++) {
		out[i] = in && f[i] != '"' ? ' ' : f[i];
		in ^= f[i] == '"';
	}
	out[i] = '\0';
}

static int rp_value_filter_words(const char *text)
{
	char f[RAWPROBE_FILTER_STR_LEN];
	const char *c, *v;
	size_t n;

	rp_blank_strings(text, f, sizeof(f));
	if (strpbrk(f, "()"))
		return rp_value_filter_error("parentheses are not supported: "
					     "write alternatives of terms "
					     "('a && b || c' is (a && b) || c, "
					     "as in C), or a probe per case");
	for (c = f; (c = strstr(c, "comm")); c += 4) {
		if ((c > f && (isalnum((unsigned char)c[-1]) || c[-1] == '_' ||
			       c[-1] == '>' || c[-1] == '.')) ||
		    isalnum((unsigned char)c[4]) || c[4] == '_')
			continue;
		v = rp_skip_spaces(c + 4);
		if (strncmp(v, "==", 2))
			continue;
		v = rp_skip_spaces(v + 2);
		if (*v != '"' && *v != '\'')
			continue;
		v = text + (v - f);	/* the name, as written */
		n = strcspn(v + 1, "\"'");
		return rp_value_filter_error("the command name is not a value "
					     "--filter compares: use --comm "
					     "%.*s", (int)n, v + 1);
	}
	if (strchr(f, '\''))
		return rp_value_filter_error("strings are in double quotes "
					     "('name == \"pts0\"')");
	return 0;
}

int rp_value_filter_opt(const char *arg, struct rp_probe_req *req)
{
	char buf[RAWPROBE_FILTER_STR_LEN];
	const char *s = rp_skip_spaces(arg), *c;
	size_t len = strlen(s);
	int rc;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (!len)
		return rp_value_filter_error("empty: give comparisons, e.g. "
					     "'retval < 0'");
	if (len >= sizeof(buf))
		return rp_value_filter_error("%zu characters: the kernel keeps at "
					     "most %d (RAWPROBE_FILTER_STR_LEN)",
					     len, RAWPROBE_FILTER_STR_LEN - 1);
	memcpy(buf, s, len);
	buf[len] = '\0';
	rc = rp_value_filter_words(buf);
	if (rc)
		return rc;
	/* what the kernel echoes back: printable, no escapes */
	for (c = buf; *c; c++)
		if (*c < 0x20 || *c > 0x7e || *c == '\\')
			return rp_value_filter_error("unexpected character 0x%02x: "
						     "printable ASCII only, without "
						     "backslashes",
						     (unsigned char)*c);
	memcpy(req->value_filter, buf, len + 1);
	req->nterms = 0;
	return 0;
}
