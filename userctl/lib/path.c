// SPDX-License-Identifier: GPL-2.0
/*
 * Field paths, the syntax (path.h). Kept apart from BTF so that the
 * record formatters can check argument names with the same grammar the
 * command line is parsed with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/path.h"

static bool rp_ident_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') ||
	       ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

static const char *rp_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* text[] += piece: names are sent in it, so it must fit whole */
static int rp_path_append(struct rp_path *p, const char *piece, size_t n)
{
	size_t len = strlen(p->text);

	if (len + n >= sizeof(p->text))
		return -ERANGE;
	memcpy(p->text + len, piece, n);
	p->text[len + n] = '\0';
	return 0;
}

/* An identifier at *s into name (and text[]) */
static int rp_path_ident(const char **s, char *name, struct rp_path *p)
{
	const char *c = rp_skip_blanks(*s);
	size_t n = 0;

	while (rp_ident_char(c[n]))
		n++;
	*s = c;
	if (!n || (c[0] >= '0' && c[0] <= '9'))
		return -EINVAL;
	if (n >= RP_PATH_NAME_MAX)
		return -ERANGE;
	memcpy(name, c, n);
	name[n] = '\0';
	*s = c + n;
	return rp_path_append(p, name, n);
}

/* "N ]" after a '[', in decimal: an index of an array or a pointer */
static int rp_path_index(const char **s, struct rp_path_step *st,
			 struct rp_path *p)
{
	const char *c = rp_skip_blanks(*s);
	uint64_t v = 0;
	char num[16];
	size_t n;

	for (n = 0; c[n] >= '0' && c[n] <= '9'; n++) {
		v = v * 10 + (uint64_t)(c[n] - '0');
		if (v > INT32_MAX) {
			*s = c;
			return -ERANGE;
		}
	}
	*s = c;
	if (!n)
		return -EINVAL;
	c = rp_skip_blanks(c + n);
	*s = c;
	if (*c != ']')
		return -EINVAL;
	*s = c + 1;
	st->index = (uint32_t)v;
	snprintf(num, sizeof(num), "[%u]", st->index);
	return rp_path_append(p, num, strlen(num));
}

/* "->", "." or "[" at c; 0 if none */
static char rp_path_op(const char *c)
{
	if (c[0] == '-' && c[1] == '>')
		return '>';
	return *c == '.' || *c == '[' ? *c : 0;
}

static int rp_path_step(const char **s, struct rp_path *p, char op)
{
	struct rp_path_step *st;
	int err;

	if (p->nsteps == RP_PATH_STEPS_MAX)
		return -ERANGE;
	st = &p->steps[p->nsteps++];
	st->op = op;
	if (op == '[')
		err = rp_path_index(s, st, p);
	else
		err = rp_path_append(p, op == '>' ? "->" : ".", op == '>' ? 2 : 1) ?:
		      rp_path_ident(s, st->name, p);
	st->end = (uint8_t)strlen(p->text);
	return err;
}

/* STEP* at *s */
static int rp_path_steps(const char **s, struct rp_path *p)
{
	const char *c = *s, *next;
	int err = 0;
	char op;

	while (!err) {
		next = rp_skip_blanks(c);
		op = rp_path_op(next);
		if (!op)
			break;
		c = next + (op == '>' ? 2 : 1);
		err = rp_path_step(&c, p, op);
	}
	*s = c;
	return err;
}

/* The word w at *s, then blanks; -EINVAL if not there */
static int rp_path_word(const char **s, const char *w)
{
	const char *c = rp_skip_blanks(*s);
	size_t n = strlen(w);

	*s = c;
	if (strncmp(c, w, n))
		return -EINVAL;
	*s = rp_skip_blanks(c + n);
	return 0;
}

/* CAST, "(struct NAME *)", at *s: p->cast and text[] */
static int rp_path_cast(const char **s, struct rp_path *p)
{
	const char *c = *s;
	int err;

	err = rp_path_word(&c, "(");
	if (!err && (strncmp(c, "struct", 6) || (c[6] != ' ' && c[6] != '\t')))
		err = -EINVAL;
	err = err ?: rp_path_word(&c, "struct") ?: rp_path_append(p, "(struct ", 8) ?:
	      rp_path_ident(&c, p->cast, p) ?: rp_path_word(&c, "*") ?:
	      rp_path_word(&c, ")") ?: rp_path_append(p, " *)", 3);
	*s = c;
	return err;
}

int rp_path_parse(const char **s, struct rp_path *p)
{
	const char *c = rp_skip_blanks(*s), *in;
	bool paren = false;
	int err = 0;

	p->text[0] = '\0';
	p->nsteps = p->cast_at = 0;
	p->cast[0] = p->head[0] = '\0';
	p->cast_end = 0;
	if (*c == '(') {
		in = rp_skip_blanks(c + 1);
		paren = *in == '(';
		if (paren) {
			c = in;
			err = rp_path_append(p, "(", 1);
		}
		err = err ?: rp_path_cast(&c, p);
	}
	p->head_off = (unsigned int)strlen(p->text);
	err = err ?: rp_path_ident(&c, p->head, p);
	p->head_end = (unsigned int)strlen(p->text);
	err = err ?: rp_path_steps(&c, p);
	p->cast_at = p->nsteps;
	if (!err && paren) {
		err = rp_path_word(&c, ")") ?: rp_path_append(p, ")", 1);
		if (!err)
			p->cast_end = (unsigned int)strlen(p->text);
		err = err ?: rp_path_steps(&c, p);
	}
	*s = err ? c : rp_skip_blanks(c);
	return err;
}

bool rp_is_path(const char *s, size_t len)
{
	char buf[RAWPROBE_ARG_NAMES_LEN];
	struct rp_path p;
	const char *c = buf;

	if (!len || len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* (spaces are allowed between tokens, not in names sent) */
	return !rp_path_parse(&c, &p) && !*c && strlen(p.text) == len &&
	       !memcmp(p.text, s, len);
}

size_t rp_path_prefix(const struct rp_path *p, int k)
{
	return k < 0 ? p->head_end : p->steps[k].end;
}

bool rp_arg_name_split(const char *s, size_t len, size_t *name_len,
		       size_t *path_off)
{
	const char *eq = memchr(s, '=', len);
	size_t n = eq ? (size_t)(eq - s) : len, i;

	*name_len = n;
	*path_off = eq ? n + 1 : 0;
	if (eq) {
		if (!n || n >= RP_PATH_NAME_MAX || (s[0] >= '0' && s[0] <= '9'))
			return false;
		for (i = 0; i < n; i++)
			if (!rp_ident_char(s[i]))
				return false;
	}
	return rp_is_path(s + *path_off, len - *path_off);
}
