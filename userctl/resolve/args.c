// SPDX-License-Identifier: GPL-2.0
/*
 * Named arguments: --args by name ('skb->len,fd,buf:str:count'), each
 * element a field path (compiled in path.c) with its :TYPE and a
 * string's :LEN, or an alias of one ('len=skb->len:u32'), into req's
 * arguments (nargs, argtypes, arg_names, fetch[], str_len_arg[]); and
 * whether a --args list is one by name at all, or the positional form
 * (a count, types).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/names.h"
#include "lib/path.h"
#include "resolve/args.h"
#include "resolve/fetch_int.h"

/* How the text at is wrong, where a path (or what follows it) is */
static int rp_syntax_error(const struct rp_fctx *cx, const struct rp_path *p,
			   const char *at, int err)
{
	if (err == -ERANGE)
		return rp_fetch_error(cx, "too long at '%s' (names of at most "
				      "%d characters, %d steps, indexes below "
				      "2^31, %d characters in all)", at,
				      RP_PATH_NAME_MAX - 1, RP_PATH_STEPS_MAX,
				      RAWPROBE_ARG_NAMES_LEN - 1);
	/* (the cast itself, or its closing parenthesis) */
	if (err && p->text[0] == '(' &&
	    (!p->head[0] || (p->text[1] == '(' && !p->cast_end)))
		return rp_fetch_error(cx, "expected a cast, '((struct NAME *)PATH)"
				      "->MEMBER' or '(struct NAME *)PATH', %s%s%s",
				      *at ? "at '" : "at the end", at,
				      *at ? "'" : "");
	if (err)
		return rp_fetch_error(cx, "expected a name%s %s%s%s", p->text[0] ?
				      " or an index" : " (an argument's)",
				      *at ? "at '" : "at the end", at,
				      *at ? "'" : "");
	return rp_fetch_error(cx, "unexpected '%s' after '%s' (a path is "
			      "ARG, then ->MEMBER, .MEMBER or [N], then :TYPE "
			      "if any)", at, p->text);
}

/* (a script's --args may run over lines: an element's blanks and newlines) */
static char *rp_trim(char *s)
{
	char *end;

	s += strspn(s, " \t\r\n");
	end = s + strlen(s);
	while (end > s && strchr(" \t\r\n", end[-1]))
		*--end = '\0';
	return s;
}

/*
 * NAME= before a path: an alias, whose NAME output shows and the path's
 * own text stays what the kernel keeps, for another reader's BTF.
 */
static int rp_arg_alias(const struct rp_fctx *cx, const char **elem,
			char *alias, size_t size)
{
	const char *eq = strchr(*elem, '='), *e = *elem;
	size_t n;

	alias[0] = '\0';
	if (!eq)
		return 0;
	n = (size_t)(eq - e);
	while (n && (e[n - 1] == ' ' || e[n - 1] == '\t'))
		n--;
	if (!rp_is_ident(e, n, RP_PATH_NAME_MAX - 1))
		return rp_fetch_error(cx, "'%.*s': an alias is NAME=PATH, NAME "
				      "an identifier of at most %d characters "
				      "(letters, digits, '_')", (int)(eq - e),
				      e, RP_PATH_NAME_MAX - 1);
	snprintf(alias, size, "%.*s", (int)n, e);
	*elem = eq + 1;
	return 0;
}

/*
 * One element of --args: [NAME=]PATH[:TYPE[:LEN]]; LEN, the name of
 * another element whose value bounds a string's length, goes to len (or
 * ""), NAME to alias (or "").
 */
static int rp_arg_compile(const struct rp_fctx *cx, const char *elem,
			  struct rp_path *p, struct rp_operand *o, char *len,
			  size_t len_size, char *alias)
{
	char type[16];
	const char *c = elem, *l;
	int want = -1, err;

	len[0] = '\0';
	err = rp_arg_alias(cx, &c, alias, RP_PATH_NAME_MAX);
	if (err)
		return err;
	err = rp_path_parse(&c, p);
	if (err || (*c && *c != ':'))
		return rp_syntax_error(cx, p, c, err);
	if (*c == ':') {
		l = strchr(c + 1, ':');
		snprintf(type, sizeof(type), "%.*s",
			 (int)(l ? l - c - 1 : (long)strlen(c + 1)), c + 1);
		if (l)
			snprintf(len, len_size, "%s", l + 1);
		want = strlen(type) < sizeof(type) - 1 ?
		       rp_argtype_parse(rp_trim(type)) : -1;
		if (want < 0)
			return rp_fetch_error(cx, "unknown type '%s' (u64, s64, "
					      "s32, u32, ptr, str, ustr, strv, "
					      "ustrv, hex, ksym, ip4, be16, "
					      "be32, ip6, tcpstate, cap, signal, "
					      "errno)", c + 1);
	}
	err = rp_operand_compile(cx, p, want, o);
	/*
	 * a syscall's own char pointer is the user's: ':str' reads there;
	 * and its array of them (execve's argv), ':strv'
	 */
	if (!err && !o->f.nloads && cx->pr && cx->pr->user_ptrs) {
		if (o->argtype == RAWPROBE_ARG_KSTR)
			o->argtype = RAWPROBE_ARG_USTR;
		else if (o->argtype == RAWPROBE_ARG_KSTRV)
			o->argtype = RAWPROBE_ARG_USTRV;
	}
	return err;
}

/*
 * buf:str:count: LEN names another element of the list, an integer one,
 * whose value the kernel takes as the string's length (it stops at a NUL
 * before it, and at --strmax).
 */
static int rp_args_lens(struct rp_probe_req *r,
			char names[][RAWPROBE_ARG_NAMES_LEN],
			char lens[][RAWPROBE_ARG_NAMES_LEN])
{
	int i, j;

	memset(r->str_len_arg, 0, sizeof(r->str_len_arg));
	for (i = 0; i < r->nargs; i++) {
		if (!lens[i][0])
			continue;
		if (!rp_is_str_type(r->argtypes[i]))
			return rp_usage_error("--args '%s:...:%s': a length is "
					      "for a string (:str, :ustr)",
					      names[i], lens[i]);
		for (j = 0; j < r->nargs; j++)
			if (j != i && !strcmp(names[j], lens[i]))
				break;
		if (j == r->nargs)
			return rp_usage_error("--args: '%s', the length of '%s', "
					      "is not in the list: add it "
					      "('%s:str:%s,%s')", lens[i],
					      names[i], names[i], lens[i],
					      lens[i]);
		if (rp_is_area_type(r->argtypes[j]) ||
		    r->argtypes[j] == RAWPROBE_ARG_PTR)
			return rp_usage_error("--args: '%s', the length of '%s', "
					      "is a %s: a length is an integer",
					      lens[i], names[i],
					      rp_argtype_name(r->argtypes[j]));
		r->str_len_arg[i] = (uint8_t)(j + 1);
	}
	return RP_EXIT_OK;
}

/*
 * "a,b,c", the names sent: paths as the parser writes them, or aliases
 * of them ("len=skb->len"), one per argument. The kernel keeps an
 * alias's path, for readers of another command (stream of a probe add)
 * to label bools and enums by BTF as this one does.
 */
static int rp_args_names(struct rp_probe_req *r,
			 char names[][RAWPROBE_ARG_NAMES_LEN],
			 char paths[][RAWPROBE_ARG_NAMES_LEN])
{
	size_t at = 0;
	int i;

	r->arg_names[0] = '\0';
	for (i = 0; i < r->nargs; i++) {
		bool alias = strcmp(names[i], paths[i]);

		at += (size_t)snprintf(r->arg_names + at,
				       at < sizeof(r->arg_names) ?
				       sizeof(r->arg_names) - at : 0,
				       "%s%s%s%s", i ? "," : "", names[i],
				       alias ? "=" : "", alias ? paths[i] : "");
		if (at >= sizeof(r->arg_names))
			return rp_usage_error("--args '%s': its names and paths "
					      "take %zu characters or more: the "
					      "kernel keeps %d "
					      "(RAWPROBE_ARG_NAMES_LEN)",
					      r->args_by_name, at,
					      RAWPROBE_ARG_NAMES_LEN - 1);
	}
	return RP_EXIT_OK;
}

/* An alias names one argument: not another's name, alias or path */
static int rp_args_unique(const struct rp_probe_req *r,
			  char names[][RAWPROBE_ARG_NAMES_LEN],
			  char paths[][RAWPROBE_ARG_NAMES_LEN])
{
	int i, j;

	for (i = 0; i < r->nargs; i++) {
		if (!strcmp(names[i], paths[i]))
			continue;
		for (j = 0; j < r->nargs; j++)
			if (j != i && !strcmp(names[i], names[j]))
				return rp_usage_error("--args: '%s' names two "
						      "arguments ('%s%s%s' and "
						      "'%s=%s'): give each its "
						      "own name", names[i],
						      names[j], strcmp(names[j],
						      paths[j]) ? "=" : "",
						      strcmp(names[j], paths[j]) ?
						      paths[j] : "",
						      names[i], paths[i]);
	}
	return RP_EXIT_OK;
}

int rp_fetch_args_compile(struct rp_probe_req *r)
{
	char spec[RP_ARGSPEC_MAX], *rest = spec, *elem;
	char names[RAWPROBE_MAX_ARGS][RAWPROBE_ARG_NAMES_LEN];
	char paths[RAWPROBE_MAX_ARGS][RAWPROBE_ARG_NAMES_LEN];
	char lens[RAWPROBE_MAX_ARGS][RAWPROBE_ARG_NAMES_LEN];
	char alias[RP_PATH_NAME_MAX];
	char what[RP_ARGSPEC_MAX + 16];
	struct rp_fctx cx = { .kind = (unsigned int)r->kind,
			      .function = r->symbol, .what = what,
			      .what_names_it = true };
	struct rp_btf_proto pr;
	struct rp_operand o;
	struct rp_path p;
	int n = 0, rc, err;

	rc = rp_entry_check(r, "--args by name");
	if (rc)
		return rc;
	err = rp_btf_proto_get(r->symbol, r->module, &pr, true);
	if (err)
		return rp_exit_from_errno(err);
	cx.pr = &pr;
	snprintf(spec, sizeof(spec), "%s", r->args_by_name);
	while ((elem = strsep(&rest, ","))) {
		elem = rp_trim(elem);
		snprintf(what, sizeof(what), "--args '%s'", elem);
		if (n == RAWPROBE_MAX_ARGS)
			return rp_usage_error("--args '%s': more than %d "
					      "arguments", r->args_by_name,
					      RAWPROBE_MAX_ARGS);
		rc = rp_arg_compile(&cx, elem, &p, &o, lens[n], sizeof(lens[n]),
				    alias);
		if (rc)
			return rc;
		snprintf(paths[n], sizeof(paths[n]), "%s", p.text);
		snprintf(names[n], sizeof(names[n]), "%s",
			 alias[0] ? alias : p.text);
		r->fetch[n] = o.f;
		r->argtypes[n++] = o.argtype;
	}
	r->nargs = n;
	r->nfetch = (uint8_t)n;
	if (pr.syscall)
		r->flags |= RAWPROBE_F_SYSCALL;
	return rp_args_unique(r, names, paths) ?:
	       rp_args_names(r, names, paths) ?: rp_args_lens(r, names, lens);
}

int rp_fetch_labels_compile(struct rp_probe_req *r)
{
	struct rp_btf_proto pr;

	if (!r->symbol[0] || r->offset ||
	    rp_btf_proto_get(r->symbol, r->module, &pr, false)) {
		r->args_by_name[0] = '\0';
		return RP_EXIT_OK;
	}
	return rp_fetch_args_compile(r);
}

/*
 * Not a count nor a type: a parameter's name, resolved by name. C's
 * type words are no parameter's: "s32,float" is a type list, wrong.
 */
static bool rp_arg_is_name(const char *elem, size_t len)
{
	static const char *const ctypes[] = {
		"char", "short", "float", "double", "void", "signed",
		"unsigned", "bool", "_Bool",
	};
	char word[16];
	size_t i;

	if (!len || memchr(elem, ':', len))
		return false;
	if (len >= sizeof(word))
		return true;
	memcpy(word, elem, len);
	word[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(ctypes); i++)
		if (!strcmp(word, ctypes[i]))
			return false;
	return !isdigit((unsigned char)word[0]) && rp_argtype_word(word) < 0;
}

/* A bare type word of the positional form (u64, s32, ...). */
static bool rp_arg_is_type(const char *elem, size_t len)
{
	char word[16];

	if (!len || len >= sizeof(word))
		return false;
	memcpy(word, elem, len);
	word[len] = '\0';
	return rp_argtype_word(word) >= 0;
}

/*
 * By name when an element is a path, or names a parameter in a list
 * with no type word: "s32,bogus" is a typo in a list of types, and is
 * refused as one.
 */
bool rp_args_by_name(const char *spec)
{
	bool name = false, type = false;
	const char *e = spec, *colon;
	size_t len;

	for (;;) {
		len = strcspn(e, ",");
		/* a path, an alias, or a string's length (buf:str:count) */
		colon = memchr(e, ':', len);
		if (strcspn(e, "-.[=(") < len ||
		    (colon && memchr(colon + 1, ':', len - (colon + 1 - e))))
			return true;
		name |= rp_arg_is_name(e, len);
		type |= rp_arg_is_type(e, len);
		if (!e[len])
			return name && !type;
		e += len + 1;
	}
}
