// SPDX-License-Identifier: GPL-2.0
/*
 * rawprobectl's scripts (lib/script.h): words split as a shell splits
 * them, the declarations among them, the user's options expanded.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/script.h"

/* A word, where it began, and whether it began its line */
struct rp_word {
	char *s;
	unsigned int line;
	bool first;
};

struct rp_lexer {
	const char *p;
	unsigned int line;
	bool at_line_start;
	char *err;
	size_t errlen;
};

static int rp_script_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Blanks, comments and line ends before the next word: 0 at the end */
static int rp_lex_skip(struct rp_lexer *lx)
{
	for (;;) {
		const char *p = lx->p;

		if (*p == ' ' || *p == '\t' || *p == '\r') {
			lx->p++;
		} else if (*p == '\\' && p[1] == '\n') {
			lx->p += 2;
			lx->line++;
		} else if (*p == '#') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else if (*p == '\n') {
			lx->p++;
			lx->line++;
			lx->at_line_start = true;
		} else {
			return *p != '\0';
		}
	}
}

/* A double-quoted part's next character, \" and \\ unescaped */
static const char *rp_lex_dq(const char *p, char **o)
{
	if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
		p++;
	*(*o)++ = *p;
	return p + 1;
}

/* One word, its quotes removed, into a new string: -1 on an open quote */
static int rp_lex_word(struct rp_lexer *lx, struct rp_word *w)
{
	const char *p = lx->p;
	char *o = malloc(strlen(p) + 1);
	char q;

	if (!o)
		return rp_script_err(lx->err, lx->errlen, "%s", strerror(ENOMEM));
	w->s = o;
	w->line = lx->line;
	w->first = lx->at_line_start;
	lx->at_line_start = false;
	while (*p && !strchr(" \t\r\n#", *p)) {
		if (*p == '\\' && p[1]) {
			if (p[1] == '\n')
				lx->line++;
			else
				*o++ = p[1];
			p += 2;
			continue;
		}
		if (*p != '\'' && *p != '"') {
			*o++ = *p++;
			continue;
		}
		q = *p++;
		while (*p && *p != q) {
			lx->line += *p == '\n';
			p = q == '"' ? rp_lex_dq(p, &o) : (*o++ = *p, p + 1);
		}
		if (!*p) {
			free(w->s);
			return rp_script_err(lx->err, lx->errlen,
					     "line %u: %c not closed", w->line,
					     q);
		}
		p++;
	}
	*o = '\0';
	lx->p = p;
	return 0;
}

/* The words of the line that begins with w[0]: how many */
static size_t rp_line_len(const struct rp_word *w, size_t n)
{
	size_t k = 1;

	while (k < n && !w[k].first)
		k++;
	return k;
}

static char **rp_words_dup(const struct rp_word *w, size_t n)
{
	char **v = calloc(n + 1, sizeof(*v));
	size_t i;

	for (i = 0; v && i < n; i++) {
		v[i] = strdup(w[i].s);
		if (!v[i]) {
			rp_script_argv_free(v);
			return NULL;
		}
	}
	return v;
}

/* description "TEXT" */
static int rp_decl_description(struct rp_script *s, const struct rp_word *w,
			       size_t n, char *err, size_t errlen)
{
	if (n != 2 || s->description)
		return rp_script_err(err, errlen, "line %u: description takes "
				     "one quoted text, once", w[0].line);
	s->description = strdup(w[1].s);
	return s->description ? 0 : -1;
}

/* option -X [NAME] "EXPANSION" "HELP" */
static int rp_decl_option(struct rp_script *s, const struct rp_word *w,
			  size_t n, char *err, size_t errlen)
{
	struct rp_script_opt *o = &s->opts[s->nopts];
	bool valued = n == 5;
	struct rp_lexer lx = { .err = err, .errlen = errlen };
	struct rp_word ew[RP_SCRIPT_WORDS_MAX];
	size_t i, ne = 0;
	int rc = 0;

	if ((n != 4 && n != 5) || w[1].s[0] != '-' || !w[1].s[1] ||
	    w[1].s[2] || w[1].s[1] == 'h' || w[1].s[1] == '-')
		return rp_script_err(err, errlen, "line %u: option -X [NAME] "
				     "\"EXPANSION\" \"HELP\" (-X one letter, "
				     "not -h)", w[0].line);
	if (s->nopts == RP_SCRIPT_OPTS_MAX)
		return rp_script_err(err, errlen, "line %u: at most %d options",
				     w[0].line, RP_SCRIPT_OPTS_MAX);
	for (i = 0; i < s->nopts; i++)
		if (s->opts[i].flag == w[1].s[1])
			return rp_script_err(err, errlen, "line %u: -%c twice",
					     w[0].line, w[1].s[1]);
	lx.p = w[valued ? 3 : 2].s;
	while (!rc && rp_lex_skip(&lx) && ne < RP_SCRIPT_WORDS_MAX)
		rc = rp_lex_word(&lx, &ew[ne++]);
	if (!rc && rp_lex_skip(&lx))
		rc = rp_script_err(err, errlen, "line %u: too many words",
				   w[0].line);
	if (rc)
		ne -= !!ne;	/* the word that failed is freed */
	o->flag = w[1].s[1];
	o->value = valued ? strdup(w[2].s) : NULL;
	o->expand = rc ? NULL : rp_words_dup(ew, ne);
	o->nexpand = ne;
	o->help = strdup(w[n - 1].s);
	s->nopts++;
	for (i = 0; i < ne; i++)
		free(ew[i].s);
	if (!rc && (!o->expand || !o->help || (valued && !o->value)))
		rc = rp_script_err(err, errlen, "%s", strerror(ENOMEM));
	return rc;
}

static int rp_script_build(struct rp_script *s, struct rp_word *w, size_t n,
			   char *err, size_t errlen)
{
	size_t i = 0, k;
	int rc;

	while (i < n && w[i].first && (!strcmp(w[i].s, "description") ||
				       !strcmp(w[i].s, "option"))) {
		k = rp_line_len(w + i, n - i);
		rc = w[i].s[0] == 'd' ?
		     rp_decl_description(s, w + i, k, err, errlen) :
		     rp_decl_option(s, w + i, k, err, errlen);
		if (rc)
			return rc;
		i += k;
	}
	if (i == n)
		return rp_script_err(err, errlen, "no command: a script is a "
				     "rawprobectl command (trace ..., count "
				     "...)");
	s->words = rp_words_dup(w + i, n - i);
	s->nwords = n - i;
	return s->words ? 0 : rp_script_err(err, errlen, "%s", strerror(ENOMEM));
}

int rp_script_parse(const char *text, struct rp_script *s, char *err,
		    size_t errlen)
{
	struct rp_lexer lx = { .p = text, .line = 1, .at_line_start = true,
			       .err = err, .errlen = errlen };
	struct rp_word *w = calloc(RP_SCRIPT_WORDS_MAX, sizeof(*w));
	size_t n = 0, i;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!w)
		return rp_script_err(err, errlen, "%s", strerror(ENOMEM));
	while (!rc && rp_lex_skip(&lx)) {
		if (n == RP_SCRIPT_WORDS_MAX) {
			rc = rp_script_err(err, errlen, "line %u: more than %d "
					   "words", lx.line, RP_SCRIPT_WORDS_MAX);
			break;
		}
		rc = rp_lex_word(&lx, &w[n]);
		n += !rc;
	}
	if (!rc)
		rc = rp_script_build(s, w, n, err, errlen);
	for (i = 0; i < n; i++)
		free(w[i].s);
	free(w);
	return rc;
}

int rp_script_load(const char *path, struct rp_script *s, char *err,
		   size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;
	int rc;

	memset(s, 0, sizeof(*s));
	if (!f)
		return rp_script_err(err, errlen, "%s: %s", path,
				     strerror(errno));
	text = malloc(RP_SCRIPT_SIZE_MAX + 1);
	n = text ? fread(text, 1, RP_SCRIPT_SIZE_MAX + 1, f) : 0;
	fclose(f);
	if (!text || n > RP_SCRIPT_SIZE_MAX || memchr(text, '\0', n)) {
		free(text);
		return rp_script_err(err, errlen, "%s: not a script (text of at "
				     "most %d bytes)", path, RP_SCRIPT_SIZE_MAX);
	}
	text[n] = '\0';
	rc = rp_script_parse(text, s, err, errlen);
	free(text);
	return rc;
}

void rp_script_argv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void rp_script_free(struct rp_script *s)
{
	size_t i;

	free(s->description);
	for (i = 0; i < s->nopts; i++) {
		free(s->opts[i].value);
		rp_script_argv_free(s->opts[i].expand);
		free(s->opts[i].help);
	}
	rp_script_argv_free(s->words);
	memset(s, 0, sizeof(*s));
}

/* word with each {NAME} of o's replaced by val: a new string */
static char *rp_expand_word(const char *word, const struct rp_script_opt *o,
			    const char *val)
{
	size_t nlen = o->value ? strlen(o->value) : 0, vlen = strlen(val);
	size_t cap = strlen(word) + 1, len = 0;
	char *out = malloc(cap), *tmp;
	const char *p = word;

	while (out && *p) {
		bool hit = nlen && p[0] == '{' && !strncmp(p + 1, o->value, nlen) &&
			   p[nlen + 1] == '}';
		const char *add = hit ? val : p;
		size_t alen = hit ? vlen : 1;

		if (len + alen + 1 > cap) {
			cap = 2 * cap + alen;
			tmp = realloc(out, cap);
			if (!tmp) {
				free(out);
				return NULL;
			}
			out = tmp;
		}
		memcpy(out + len, add, alen);
		len += alen;
		p += hit ? nlen + 2 : 1;
	}
	if (out)
		out[len] = '\0';
	return out;
}

static const struct rp_script_opt *rp_script_opt(const struct rp_script *s,
						 char flag)
{
	size_t i;

	for (i = 0; i < s->nopts; i++)
		if (s->opts[i].flag == flag)
			return &s->opts[i];
	return NULL;
}

struct rp_argv {
	char **v;
	int n;
};

static int rp_argv_add(struct rp_argv *a, char *word, char *err,
		       size_t errlen)
{
	if (!word)
		return rp_script_err(err, errlen, "%s", strerror(ENOMEM));
	if (a->n == RP_SCRIPT_WORDS_MAX) {
		free(word);
		return rp_script_err(err, errlen, "more than %d words",
				     RP_SCRIPT_WORDS_MAX);
	}
	a->v[a->n++] = word;
	return 0;
}

/* argv[*i], an option of s's: its expansion's words added */
static int rp_script_user_opt(const struct rp_script *s, int argc,
			      char **argv, int *i, struct rp_argv *a,
			      char *err, size_t errlen)
{
	const char *arg = argv[*i], *val = "";
	const struct rp_script_opt *o;
	size_t k;
	int rc = 0;

	o = arg[0] == '-' && arg[1] && arg[1] != '-' ? rp_script_opt(s, arg[1]) :
						       NULL;
	if (!o)
		return rp_script_err(err, errlen, "unknown option '%s' (-h "
				     "lists the script's)", arg);
	if (o->value) {
		if (arg[2])
			val = arg + 2;
		else if (*i + 1 < argc)
			val = argv[++*i];
		else
			return rp_script_err(err, errlen, "-%c wants its %s",
					     o->flag, o->value);
	} else if (arg[2]) {
		return rp_script_err(err, errlen, "-%c takes no value, not "
				     "'%s'", o->flag, arg);
	}
	for (k = 0; !rc && k < o->nexpand; k++)
		rc = rp_argv_add(a, rp_expand_word(o->expand[k], o, val), err,
				 errlen);
	return rc;
}

int rp_script_argv(const struct rp_script *s, int argc, char **argv,
		   char ***out, int *outc, char *err, size_t errlen)
{
	struct rp_argv a = { .v = calloc(RP_SCRIPT_WORDS_MAX + 1,
					 sizeof(char *)) };
	size_t k;
	int i, rc = 0;

	*out = NULL;
	if (!a.v)
		return rp_script_err(err, errlen, "%s", strerror(ENOMEM));
	for (k = 0; !rc && k < s->nwords; k++)
		rc = rp_argv_add(&a, strdup(s->words[k]), err, errlen);
	for (i = 0; !rc && i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			rc = 1;
		} else if (!strcmp(argv[i], "--")) {
			while (!rc && ++i < argc)
				rc = rp_argv_add(&a, strdup(argv[i]), err,
						 errlen);
		} else {
			rc = rp_script_user_opt(s, argc, argv, &i, &a, err,
						errlen);
		}
	}
	if (rc) {
		rp_script_argv_free(a.v);
		return rc;
	}
	*out = a.v;
	*outc = a.n;
	return 0;
}

/* A word as a shell would take it back: quoted where it has to be */
static void rp_put_word(FILE *out, const char *w)
{
	const char *p;

	if (*w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_@%+=:,./-") == strlen(w)) {
		fputs(w, out);
		return;
	}
	fputc('\'', out);
	for (p = w; *p; p++)
		fputs(*p == '\'' ? "'\\''" : (char[]){ *p, '\0' }, out);
	fputc('\'', out);
}

void rp_script_usage(FILE *out, const char *name, const struct rp_script *s)
{
	size_t i;

	fprintf(out, "Usage: %s", name);
	for (i = 0; i < s->nopts; i++)
		fprintf(out, " [-%c%s%s]", s->opts[i].flag,
			s->opts[i].value ? " " : "",
			s->opts[i].value ? s->opts[i].value : "");
	fprintf(out, " [-- COMMAND OPTIONS]\n");
	if (s->description)
		fprintf(out, "%s\n", s->description);
	fprintf(out, "\nOptions:\n");
	for (i = 0; i < s->nopts; i++)
		fprintf(out, "  -%c %-10s %s\n", s->opts[i].flag,
			s->opts[i].value ? s->opts[i].value : "",
			s->opts[i].help);
	fprintf(out, "  -h            this help\n"
		"  -- ARGS       ARGS added to the command as they are\n"
		"\nRuns: rawprobectl");
	for (i = 0; i < s->nwords; i++) {
		fputc(' ', out);
		rp_put_word(out, s->words[i]);
	}
	fputc('\n', out);
}
