// SPDX-License-Identifier: GPL-2.0
/*
 * Prototypes from BTF, through libbpf's BTF API: what a function's
 * arguments are called and what rawprobe type records each of them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <bpf/libbpf.h>
#include "resolve/btf_int.h"
#include "lib/cli.h"
#include "lib/escape.h"
#include "lib/names.h"
#include "lib/symbols.h"
#include "lib/tracefs.h"

/* modules' BTF kept at once: all that a kernel loads, for a type's search */
#define RP_BTF_MODS		1024

/* --- loading --- */

struct rp_btf_mod {
	char name[64];
	struct btf *btf;
	int err;
};

static struct {
	bool tried;
	struct btf *vmlinux;
	int err;			/* of vmlinux's */
	char path[PATH_MAX];		/* vmlinux's BTF */
	char dir[PATH_MAX];		/* modules' BTF, or "" */
	struct rp_btf_mod mods[RP_BTF_MODS];
	unsigned int nmods;
} rp_btf;

static void rp_btf_free(void)
{
	unsigned int i;

	for (i = 0; i < rp_btf.nmods; i++)
		btf__free(rp_btf.mods[i].btf);
	btf__free(rp_btf.vmlinux);
	rp_btf.vmlinux = NULL;
	rp_btf.nmods = 0;
}

const char *rp_btf_env(void)
{
	const char *p = getenv("RAWPROBECTL_BTF");

	return p && *p ? p : NULL;
}

static void rp_btf_paths(void)
{
	const char *env = rp_btf_env();
	struct stat st;

	if (!env) {
		snprintf(rp_btf.path, sizeof(rp_btf.path), "/sys/kernel/btf/vmlinux");
		snprintf(rp_btf.dir, sizeof(rp_btf.dir), "/sys/kernel/btf");
	} else if (!stat(env, &st) && S_ISDIR(st.st_mode)) {
		snprintf(rp_btf.path, sizeof(rp_btf.path), "%s/vmlinux", env);
		snprintf(rp_btf.dir, sizeof(rp_btf.dir), "%s", env);
	} else {
		snprintf(rp_btf.path, sizeof(rp_btf.path), "%s", env);
		rp_btf.dir[0] = '\0';
	}
}

/* libbpf's own messages: we say what failed ourselves */
static int rp_btf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static struct btf *rp_btf_vmlinux(void)
{
	if (rp_btf.tried)
		return rp_btf.vmlinux;
	rp_btf.tried = true;
	rp_btf_paths();
	libbpf_set_print(rp_btf_quiet);
	errno = 0;
	rp_btf.vmlinux = btf__parse(rp_btf.path, NULL);
	rp_btf.err = rp_btf.vmlinux ? 0 : errno ? -errno : -EINVAL;
	atexit(rp_btf_free);
	return rp_btf.vmlinux;
}

void rp_btf_vmlinux_perror(void)
{
	int err = rp_btf.err;

	fprintf(stderr, "rawprobectl: no BTF of the kernel: %s: %s", rp_btf.path,
		strerror(-err));
	if (rp_btf_env())
		fprintf(stderr, " (from RAWPROBECTL_BTF: a raw BTF or ELF vmlinux "
			"file, or a directory holding vmlinux)\n");
	else
		fprintf(stderr, " (%s; or name a BTF or vmlinux file with "
			"RAWPROBECTL_BTF=FILE)\n", err == -ENOENT ?
			"the kernel needs CONFIG_DEBUG_INFO_BTF=y" :
			"is it readable here?");
}

static struct rp_btf_mod *rp_btf_mod_find(const char *module)
{
	unsigned int i;

	for (i = 0; i < rp_btf.nmods; i++)
		if (!strcmp(rp_btf.mods[i].name, module))
			return &rp_btf.mods[i];
	return NULL;
}

/* A module's BTF, split over vmlinux's; NULL and *err if there is none. */
static struct btf *rp_btf_module(const char *module, int *err, bool verbose)
{
	struct rp_btf_mod *m = rp_btf_mod_find(module);
	struct btf *base = rp_btf_vmlinux();
	char path[PATH_MAX + 72];

	if (!base) {
		*err = rp_btf.err;
		if (verbose)
			rp_btf_vmlinux_perror();
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", rp_btf.dir, module);
	if (!m && rp_btf.nmods < RP_BTF_MODS && rp_btf.dir[0]) {
		m = &rp_btf.mods[rp_btf.nmods++];
		snprintf(m->name, sizeof(m->name), "%s", module);
		errno = 0;
		m->btf = btf__parse_split(path, base);
		m->err = m->btf ? 0 : errno ? -errno : -EINVAL;
	}
	*err = m ? m->err : -ENOENT;
	if (m && m->btf)
		return m->btf;
	if (!verbose)
		return NULL;
	if (!rp_btf.dir[0])
		fprintf(stderr, "rawprobectl: no BTF of module %s: RAWPROBECTL_BTF "
			"names a file, the kernel's own BTF only (a directory "
			"laid out as /sys/kernel/btf holds modules' too)\n", module);
	else
		fprintf(stderr, "rawprobectl: no BTF of module %s: %s: %s%s\n",
			module, path, strerror(-*err), *err == -ENOENT ?
			" (is the module loaded? modules need "
			"CONFIG_DEBUG_INFO_BTF_MODULES=y)" : "");
	return NULL;
}

const struct btf *rp_btf_kernel(bool verbose)
{
	struct btf *btf = rp_btf_vmlinux();

	if (!btf && verbose)
		rp_btf_vmlinux_perror();
	return btf;
}

const struct btf *rp_btf_module_get(const char *module)
{
	int err;

	return rp_btf_module(module, &err, false);
}

const char *rp_btf_module_name(const char *module)
{
	struct rp_btf_mod *m = rp_btf_mod_find(module);

	return m ? m->name : "";
}

static int rp_btf_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A module's BTF file: not vmlinux, not a dot file, a C identifier. */
static bool rp_btf_is_module(const char *name)
{
	return strcmp(name, "vmlinux") && name[0] != '.' &&
	       rp_is_ident(name, strlen(name), 63);
}

int rp_btf_modules(char ***names)
{
	unsigned int n = 0, cap = 0;
	struct dirent *de;
	char **v = NULL, **nv;
	DIR *d;

	*names = NULL;
	if (!rp_btf_vmlinux() || !rp_btf.dir[0] || !(d = opendir(rp_btf.dir)))
		return 0;	/* a file names vmlinux's BTF alone */
	while ((de = readdir(d))) {
		if (!rp_btf_is_module(de->d_name))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), rp_btf_name_cmp);
	*names = v;
	return (int)n;
}

void rp_btf_modules_free(char **names, int n)
{
	while (n > 0)
		free(names[--n]);
	free(names);
}

/* --- types --- */

const char *rp_btf_str(const struct btf *btf, uint32_t off)
{
	const char *s = btf__name_by_offset(btf, off);

	return s ? s : "";
}

const struct btf_type *rp_btf_skip(const struct btf *btf, uint32_t *id)
{
	const struct btf_type *t;
	int depth;

	for (depth = 0; depth < RP_BTF_DEPTH; depth++) {
		if (!*id)
			return NULL;		/* void */
		t = btf__type_by_id(btf, *id);
		if (!t || !(btf_is_mod(t) || btf_is_typedef(t)))
			return t;
		*id = t->type;
	}
	return NULL;
}

/* "int (*)(struct sock *, int)" for a pointer to a function */
static void rp_btf_spell_fn(const struct btf *btf, const struct btf_type *t,
			    char *buf, size_t len, int depth)
{
	const struct btf_param *p = btf_params(t);
	char ret[RP_BTF_TYPE_MAX], arg[RP_BTF_TYPE_MAX];
	unsigned int i, n = btf_vlen(t);
	size_t at;

	rp_btf_spell(btf, t->type, ret, sizeof(ret), depth + 1);
	at = (size_t)snprintf(buf, len, "%s (*)(", ret);
	for (i = 0; i < n && at < len; i++) {
		if (!p[i].type && i == n - 1)
			snprintf(arg, sizeof(arg), "...");
		else
			rp_btf_spell(btf, p[i].type, arg, sizeof(arg), depth + 1);
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "",
				       arg);
	}
	if (at < len)
		snprintf(buf + at, len - at, "%s)", n ? "" : "void");
}

const char *rp_btf_tag(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		return "struct";
	case BTF_KIND_UNION:
		return "union";
	case BTF_KIND_FWD:
		return btf_kflag(t) ? "union" : "struct";
	default:
		return "enum";
	}
}

/* As bpftrace -lv shows it. */
void rp_btf_spell(const struct btf *btf, uint32_t id, char *buf, size_t len,
		  int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	char inner[RP_BTF_TYPE_MAX];
	size_t n;

	if (!id) {
		snprintf(buf, len, "void");
		return;
	}
	if (!t || depth > RP_BTF_DEPTH) {
		snprintf(buf, len, "?");
		return;
	}
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPEDEF:
		snprintf(buf, len, "%s", rp_btf_str(btf, t->name_off));
		return;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_FWD:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(buf, len, "%s %s", rp_btf_tag(t),
			 t->name_off ? rp_btf_str(btf, t->name_off) : "{...}");
		return;
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
		rp_btf_spell(btf, t->type, inner, sizeof(inner), depth + 1);
		n = strlen(inner);
		/* a const pointer: "char *const" */
		snprintf(buf, len, n && inner[n - 1] == '*' ? "%2$s %1$s" : "%1$s %2$s",
			 btf_is_const(t) ? "const" : "volatile", inner);
		return;
	case BTF_KIND_PTR: {
		uint32_t to = t->type;
		const struct btf_type *target;

		/* type tags (__user, __rcu) are not shown, as bpftrace does */
		for (n = 0; n < RP_BTF_DEPTH && to &&
		     (target = btf__type_by_id(btf, to)) && btf_is_type_tag(target); n++)
			to = target->type;
		target = to ? btf__type_by_id(btf, to) : NULL;
		if (target && btf_is_func_proto(target)) {
			rp_btf_spell_fn(btf, target, buf, len, depth);
			return;
		}
		rp_btf_spell(btf, to, inner, sizeof(inner), depth + 1);
		n = strlen(inner);
		/* (cut like any long type: "?" marks it) */
		if (snprintf(buf, len, "%s%s", inner,
			     n && inner[n - 1] == '*' ? "*" : " *") >= (int)len)
			snprintf(buf, len, "?");
		return;
	}
	case BTF_KIND_ARRAY:
		rp_btf_spell(btf, btf_array(t)->type, inner, sizeof(inner),
			     depth + 1);
		snprintf(buf, len, "%s[%u]", inner, btf_array(t)->nelems);
		return;
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		rp_btf_spell(btf, t->type, buf, len, depth + 1);
		return;
	default:
		snprintf(buf, len, "?");
	}
}

/*
 * The rawprobe type that records an argument of type id. Registers hold
 * integers and pointers; an aggregate passed by value fills one (at most
 * 8 bytes: kept raw) or is elsewhere (more: two registers, or memory),
 * and a float is in an SSE register: past those, later arguments are not
 * in the registers rawprobe reads for them (x86-64 and arm64 ABIs).
 */
int rp_btf_fit(const struct btf *btf, uint32_t id, unsigned char *type)
{
	const struct btf_type *t = rp_btf_skip(btf, &id);
	bool sign;

	*type = RAWPROBE_ARG_U64;
	if (!t)
		return RP_FIT_RAW;	/* void (a K&R prototype) or bad BTF */
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		*type = RAWPROBE_ARG_PTR;	/* never dereferenced: user or kernel? */
		return RP_FIT_OK;
	case BTF_KIND_INT:
		if (t->size > 8)
			return RP_FIT_STOP;	/* __int128: two registers */
		sign = btf_int_encoding(t) & BTF_INT_SIGNED;
		if (t->size <= 4)
			*type = sign ? RAWPROBE_ARG_S32 : RAWPROBE_ARG_U32;
		else
			*type = sign ? RAWPROBE_ARG_S64 : RAWPROBE_ARG_U64;
		return RP_FIT_OK;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		sign = btf_kflag(t);		/* a signed enum's encoding */
		if (t->size <= 4)
			*type = sign ? RAWPROBE_ARG_S32 : RAWPROBE_ARG_U32;
		else
			*type = sign ? RAWPROBE_ARG_S64 : RAWPROBE_ARG_U64;
		return RP_FIT_OK;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return t->size <= 8 ? RP_FIT_RAW : RP_FIT_STOP;
	case BTF_KIND_FLOAT:
		return RP_FIT_STOP;
	default:
		return RP_FIT_RAW;
	}
}

/* --- finding a function --- */

/* Function name's id in btf from id start on (a module's own part), or 0. */
static uint32_t rp_btf_func_id(const struct btf *btf, const char *name,
			       uint32_t start)
{
	uint32_t id, n = btf__type_cnt(btf);
	const struct btf_type *t;
	int found;

	if (start <= 1) {
		found = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		return found > 0 ? (uint32_t)found : 0;
	}
	for (id = start; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (btf_is_func(t) && !strcmp(rp_btf_str(btf, t->name_off), name))
			return id;
	}
	return 0;
}

/*
 * Where function lives: vmlinux's or module's BTF; -ENOENT if it has no
 * such function (said by the caller), another errno if there is no BTF
 * (said here, if verbose).
 */
int rp_btf_where(const char *function, const char *module,
			const struct btf **btf, uint32_t *id, bool verbose)
{
	struct btf *vmlinux = rp_btf_vmlinux(), *b;
	char mod[64] = "";
	int err;

	if (!vmlinux) {
		if (verbose)
			rp_btf_vmlinux_perror();
		return rp_btf.err == -ENOENT ? -ENODATA : rp_btf.err;
	}
	if (!module[0]) {
		*btf = vmlinux;
		*id = rp_btf_func_id(vmlinux, function, 1);
		if (*id)
			return 0;
		/* a module's function, named without its module */
		if (!rp_btf.dir[0] || rp_ksym_module(function, mod, sizeof(mod)) != 1 ||
		    !mod[0])
			return -ENOENT;
		module = mod;
	}
	/* (a missing BTF is no unknown function: -ENODATA) */
	b = rp_btf_module(module, &err, verbose);
	if (!b)
		return -ENODATA;
	*btf = b;
	*id = rp_btf_func_id(b, function, btf__type_cnt(vmlinux));
	return *id ? 0 : -ENOENT;
}

/* Into the few best, in score then name order (as symbols.c does). */
void rp_btf_near_add(struct rp_btf_near *best, int *nbest, int score,
		     const char *name)
{
	int i;

	for (i = 0; i < *nbest; i++)
		if (!strcmp(best[i].name, name))
			return;
	for (i = *nbest; i > 0; i--) {
		const struct rp_btf_near *p = &best[i - 1];

		if (p->score < score ||
		    (p->score == score && strcmp(p->name, name) < 0))
			break;
		if (i < RP_BTF_NEAR)
			best[i] = *p;
	}
	if (i >= RP_BTF_NEAR)
		return;
	best[i].score = score;
	best[i].name = name;
	if (*nbest < RP_BTF_NEAR)
		(*nbest)++;
}

void rp_btf_near_print(const struct rp_btf_near *best, int nbest)
{
	int i;

	if (!nbest)
		return;
	fprintf(stderr, "  did you mean:");
	for (i = 0; i < nbest; i++)
		fprintf(stderr, " %s", best[i].name);
	fputc('\n', stderr);
}

/* "did you mean": the nearest functions of that BTF, from id start on */
static void rp_btf_near(const struct btf *btf, uint32_t start,
			const char *function)
{
	struct rp_btf_near best[RP_BTF_NEAR];
	uint32_t id, n = btf__type_cnt(btf);
	const struct btf_type *t;
	const char *name;
	int nbest = 0, score;

	for (id = start; id < n; id++) {
		t = btf__type_by_id(btf, id);
		if (!btf_is_func(t))
			continue;
		name = rp_btf_str(btf, t->name_off);
		score = rp_near_score(function, name);
		if (score >= 0)
			rp_btf_near_add(best, &nbest, score, name);
	}
	rp_btf_near_print(best, nbest);
}

void rp_btf_unknown(const char *function, const char *module)
{
	struct rp_btf_mod *m;

	fprintf(stderr, "rawprobectl: %s%s%s: no such function in the BTF of %s%s "
		"(ENOENT)\n", module, module[0] ? ":" : "", function,
		module[0] ? "module " : "the kernel, ",
		module[0] ? module : rp_btf.path);
	m = module[0] ? rp_btf_mod_find(module) : NULL;
	if (m && m->btf && rp_btf.vmlinux)
		rp_btf_near(m->btf, btf__type_cnt(rp_btf.vmlinux), function);
	else if (!module[0] && rp_btf.vmlinux)
		rp_btf_near(rp_btf.vmlinux, 1, function);
}

/* --- prototypes --- */

static void rp_btf_param_set(struct rp_btf_param *p, const struct btf *btf,
			     const char *name, uint32_t type, unsigned int i)
{
	if (rp_is_ident(name, strlen(name), RP_BTF_NAME_MAX - 1))
		snprintf(p->name, sizeof(p->name), "%s", name);
	else
		snprintf(p->name, sizeof(p->name), "arg%u", i);
	p->type_id = type;
	rp_btf_spell(btf, type, p->type, sizeof(p->type), 0);
	p->fit = (unsigned char)rp_btf_fit(btf, type, &p->argtype);
}

void rp_btf_fill(const struct btf *btf, uint32_t func_id,
			struct rp_btf_proto *pr)
{
	const struct btf_type *f = btf__type_by_id(btf, func_id);
	const struct btf_type *t = btf__type_by_id(btf, f->type);
	const struct btf_param *p;
	unsigned int i, n;

	pr->btf = btf;
	if (!t || !btf_is_func_proto(t))
		return;
	p = btf_params(t);
	n = btf_vlen(t);
	if (n && !p[n - 1].type) {
		pr->varargs = true;
		n--;
	}
	pr->nparams = n;
	rp_btf_spell(btf, t->type, pr->ret, sizeof(pr->ret), 0);
	pr->ret_id = t->type;
	for (i = 0; i < n && i < RP_BTF_PARAMS_MAX; i++)
		rp_btf_param_set(&pr->params[i], btf, rp_btf_str(btf, p[i].name_off),
				 p[i].type, i);
}

/* Other functions of the same name (static ones, in several files). */
unsigned int rp_btf_same_name(const struct btf *btf, uint32_t id)
{
	const char *name = rp_btf_str(btf, btf__type_by_id(btf, id)->name_off);
	uint32_t n = btf__type_cnt(btf);
	const struct btf_type *t;
	unsigned int same = 0;

	for (id++; id < n; id++) {
		t = btf__type_by_id(btf, id);
		same += btf_is_func(t) && !strcmp(rp_btf_str(btf, t->name_off), name);
	}
	return same;
}
