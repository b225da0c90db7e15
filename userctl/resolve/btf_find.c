// SPDX-License-Identifier: GPL-2.0
/*
 * Types and functions by name or glob in the kernel's BTF: vmlinux's
 * first, then each loaded module's (split BTF over vmlinux's), since
 * people name a module's struct (ext4_inode_info) without its module.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "resolve/btf_layout.h"
#include "lib/symbols.h"

static const char *const rp_tkind_names[] = {
	[RP_TK_STRUCT] = "struct", [RP_TK_UNION] = "union",
	[RP_TK_ENUM] = "enum", [RP_TK_TYPEDEF] = "typedef",
};

const char *rp_btf_tkind_name(enum rp_btf_tkind kind)
{
	return rp_tkind_names[kind];
}

static bool rp_tkind_is(enum rp_btf_tkind kind, const struct btf_type *t)
{
	switch (kind) {
	case RP_TK_STRUCT:
		return btf_is_struct(t);
	case RP_TK_UNION:
		return btf_is_union(t);
	case RP_TK_ENUM:
		return btf_is_any_enum(t);
	default:
		return btf_is_typedef(t);
	}
}

/* KIND name's id among btf's types from start on (a module's own), or 0 */
static uint32_t rp_type_id(const struct btf *btf, uint32_t start,
			   enum rp_btf_tkind kind, const char *name)
{
	uint32_t id, n = btf__type_cnt(btf);
	const struct btf_type *t;

	for (id = start; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (t->name_off && rp_tkind_is(kind, t) &&
		    !strcmp(rp_btf_str(btf, t->name_off), name))
			return id;
	}
	return 0;
}

/* "did you mean": the nearest names of that kind in btf, from start on */
static void rp_type_near(const struct btf *btf, uint32_t start,
			 enum rp_btf_tkind kind, const char *name,
			 struct rp_btf_near *best, int *nbest)
{
	uint32_t id, n = btf__type_cnt(btf);
	const struct btf_type *t;
	const char *s;
	int score;

	for (id = start; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (!t->name_off || !rp_tkind_is(kind, t))
			continue;
		s = rp_btf_str(btf, t->name_off);
		score = rp_near_score(name, s);
		if (score >= 0)
			rp_btf_near_add(best, nbest, score, s);
	}
}

/* Where the search goes: vmlinux, then modules (or module alone). */
struct rp_btf_scope {
	const struct btf *vmlinux;
	uint32_t start;		/* a module's own types' first id */
	char **mods;
	int nmods;
	bool vmlinux_too;
};

static int rp_scope_open(struct rp_btf_scope *s, const char *module)
{
	memset(s, 0, sizeof(*s));
	s->vmlinux = rp_btf_kernel(true);
	if (!s->vmlinux)
		return -ENODATA;
	s->start = btf__type_cnt(s->vmlinux);
	s->vmlinux_too = !module[0];
	if (module[0]) {
		s->mods = calloc(1, sizeof(*s->mods));
		if (!s->mods || !(s->mods[0] = strdup(module)))
			return -ENOMEM;
		s->nmods = 1;
		return 0;
	}
	s->nmods = rp_btf_modules(&s->mods);
	return 0;
}

static void rp_scope_close(struct rp_btf_scope *s)
{
	rp_btf_modules_free(s->mods, s->nmods);
}

/* Module i's BTF; NULL, said if the module was named, if it has none */
static const struct btf *rp_scope_mod(const struct rp_btf_scope *s, int i)
{
	const struct btf *b = rp_btf_module_get(s->mods[i]);

	if (!b && !s->vmlinux_too)
		fprintf(stderr, "rawprobectl: no BTF of module %s (is it loaded? "
			"modules need CONFIG_DEBUG_INFO_BTF_MODULES=y)\n",
			s->mods[i]);
	return b;
}

static void rp_type_unknown(const struct rp_btf_scope *s,
			    enum rp_btf_tkind kind, const char *name)
{
	struct rp_btf_near best[RP_BTF_NEAR];
	const struct btf *b;
	int i, nbest = 0;

	if (s->vmlinux_too) {
		fprintf(stderr, "rawprobectl: no %s '%s' in the kernel's BTF "
			"(vmlinux, %d module%s)\n", rp_btf_tkind_name(kind), name,
			s->nmods, s->nmods == 1 ? "" : "s");
		rp_type_near(s->vmlinux, 1, kind, name, best, &nbest);
	} else {
		fprintf(stderr, "rawprobectl: no %s '%s' in the BTF of module "
			"%s\n", rp_btf_tkind_name(kind), name, s->mods[0]);
	}
	for (i = 0; i < s->nmods; i++)
		if ((b = rp_btf_module_get(s->mods[i])))
			rp_type_near(b, s->start, kind, name, best, &nbest);
	rp_btf_near_print(best, nbest);
}

int rp_btf_type_find(enum rp_btf_tkind kind, const char *name,
		     const char *module, struct rp_btf_found *f)
{
	struct rp_btf_scope s;
	const struct btf *b;
	int i, err;

	memset(f, 0, sizeof(*f));
	err = rp_scope_open(&s, module);
	f->nmods = s.nmods;
	if (!err && s.vmlinux_too)
		f->id = rp_type_id(s.vmlinux, 1, kind, name);
	if (f->id)
		f->btf = s.vmlinux;
	for (i = 0; !err && !f->id && i < s.nmods; i++) {
		b = rp_scope_mod(&s, i);
		f->id = b ? rp_type_id(b, s.start, kind, name) : 0;
		f->btf = b;
		snprintf(f->module, sizeof(f->module), "%s", s.mods[i]);
		if (!b && !s.vmlinux_too)
			err = -ENODATA;
	}
	if (!err && !f->id) {
		rp_type_unknown(&s, kind, name);
		err = -ENOENT;
	}
	rp_scope_close(&s);
	return err;
}

/* --- functions by glob --- */

bool rp_btf_is_glob(const char *pattern)
{
	return strpbrk(pattern, "*?[") != NULL;
}

/* fnmatch's brackets: "[]x]" and "[!]x]" hold a ']' of their own */
const char *rp_btf_glob_unterminated(const char *pattern)
{
	const char *p, *q;

	for (p = pattern; *p; p++) {
		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '[')
			continue;
		q = p + 1;
		if (*q == '!' || *q == '^')
			q++;
		if (*q == ']')
			q++;
		q = strchr(q, ']');
		if (!q)
			return p;
		p = q;
	}
	return NULL;
}

struct rp_fnames {
	struct rp_btf_fname *v;
	int n, cap;
};

static int rp_fnames_add(struct rp_fnames *l, const char *name,
			 const char *module)
{
	struct rp_btf_fname *nv;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		nv = realloc(l->v, (size_t)l->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		l->v = nv;
	}
	l->v[l->n].name = name;
	l->v[l->n++].module = module;
	return 0;
}

static int rp_fname_cmp(const void *a, const void *b)
{
	const struct rp_btf_fname *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/*
 * btf's functions (from start on) that match glob, in name order, each
 * name once: static functions of one name in several files are one
 * target to a probe.
 */
static int rp_glob_btf(const struct btf *btf, uint32_t start,
		       const char *glob, const char *module,
		       struct rp_fnames *l)
{
	uint32_t id, n = btf__type_cnt(btf);
	const struct btf_type *t;
	int first = l->n, i, j;
	const char *name;

	for (id = start; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (!btf_is_func(t))
			continue;
		name = rp_btf_str(btf, t->name_off);
		if (!fnmatch(glob, name, 0) && rp_fnames_add(l, name, module))
			return -ENOMEM;
	}
	qsort(l->v + first, (size_t)(l->n - first), sizeof(*l->v), rp_fname_cmp);
	for (i = j = first; i < l->n; i++)
		if (j == first || strcmp(l->v[j - 1].name, l->v[i].name))
			l->v[j++] = l->v[i];
	l->n = j;
	return 0;
}

int rp_btf_func_glob(const char *glob, const char *module,
		     struct rp_btf_fname **out, int *nmods)
{
	struct rp_fnames l = { 0 };
	struct rp_btf_scope s;
	const struct btf *b;
	int i, err;

	*out = NULL;
	err = rp_scope_open(&s, module);
	*nmods = s.nmods;
	if (!err && s.vmlinux_too)
		err = rp_glob_btf(s.vmlinux, 1, glob, "", &l);
	for (i = 0; !err && i < s.nmods; i++) {
		b = rp_scope_mod(&s, i);
		if (!b && !s.vmlinux_too)
			err = -ENODATA;
		else if (b)	/* (the module's name, as long as its BTF) */
			err = rp_glob_btf(b, s.start, glob,
					  rp_btf_module_name(s.mods[i]), &l);
	}
	rp_scope_close(&s);
	if (err) {
		free(l.v);
		return err;
	}
	*out = l.v;
	return l.n;
}
