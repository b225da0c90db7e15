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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

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

static const char *rp_btf_env(void)
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

static void rp_btf_vmlinux_perror(void)
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
static int rp_btf_where(const char *function, const char *module,
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

static void rp_btf_unknown(const char *function, const char *module)
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

static void rp_btf_fill(const struct btf *btf, uint32_t func_id,
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
static unsigned int rp_btf_same_name(const struct btf *btf, uint32_t id)
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

/* __x64_sys_openat -> openat (*compat: a compat syscall); NULL if not one */
static const char *rp_btf_syscall_name(const char *sym, bool *compat)
{
	static const char *const pre[] = {
		"__x64_sys_", "__ia32_sys_", "__x64_compat_sys_", "__ia32_compat_sys_",
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		len = strlen(pre[i]);
		if (!strncmp(sym, pre[i], len) && sym[len]) {
			*compat = i >= 2;
			return sym + len;
		}
	}
	return NULL;
}

/* SYSCALL_DEFINE0's __do_sys_NAME(const struct pt_regs *__unused) */
static bool rp_btf_no_args(const struct rp_btf_proto *pr)
{
	const struct btf_type *t;
	uint32_t id;

	if (pr->nparams != 1 || pr->params[0].argtype != RAWPROBE_ARG_PTR)
		return false;
	id = pr->params[0].type_id;
	t = rp_btf_skip(pr->btf, &id);
	id = t ? t->type : 0;
	t = rp_btf_skip(pr->btf, &id);
	return t && btf_is_struct(t) &&
	       !strcmp(rp_btf_str(pr->btf, t->name_off), "pt_regs");
}

/* tracefs, where syscalls' formats are; NULL: none to use */
static const char *rp_btf_tracefs(void)
{
	/* another kernel's BTF: not this one's tracefs */
	if (!rp_tracefs_env() && rp_btf_env())
		return NULL;
	return rp_tracefs_dir();
}

/* A C integer type's name as BTF spells it ("long" is "long int"). */
static const char *rp_btf_int_name(const char *c)
{
	static const char *const names[][2] = {
		{ "long", "long int" }, { "unsigned long", "long unsigned int" },
		{ "unsigned", "unsigned int" }, { "short", "short int" },
		{ "unsigned short", "short unsigned int" },
		{ "long long", "long long int" },
		{ "unsigned long long", "long long unsigned int" },
		{ "bool", "_Bool" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(c, names[i][0]))
			return names[i][1];
	return c;
}

/* "struct X", "union X", "enum X": X's id in btf, or 0 if not tagged so */
static int rp_btf_tagged(const struct btf *btf, const char *c)
{
	static const struct { const char *tag; int kind; } tags[] = {
		{ "struct ", BTF_KIND_STRUCT }, { "union ", BTF_KIND_UNION },
		{ "enum ", BTF_KIND_ENUM },
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		len = strlen(tags[i].tag);
		if (!strncmp(c, tags[i].tag, len))
			return btf__find_by_name_kind(btf, c + len, tags[i].kind);
	}
	return 0;
}

/* A type spelled in C ("umode_t", "const char *"), found in btf. */
static void rp_btf_param_from_c(struct rp_btf_param *p, const struct btf *btf,
				const char *type)
{
	char base[RP_BTF_TYPE_MAX], *b = base;
	int id;

	snprintf(p->type, sizeof(p->type), "%s", type);
	p->fit = RP_FIT_OK;
	if (strchr(type, '*')) {
		p->argtype = RAWPROBE_ARG_PTR;
		return;
	}
	snprintf(base, sizeof(base), "%s", type);
	while (!strncmp(b, "const ", 6) || !strncmp(b, "volatile ", 9))
		b = strchr(b, ' ') + 1;
	id = rp_btf_tagged(btf, b);
	if (!id) {	/* not tagged: a typedef, or an integer's name */
		id = btf__find_by_name_kind(btf, b, BTF_KIND_TYPEDEF);
		if (id <= 0)
			id = btf__find_by_name_kind(btf, rp_btf_int_name(b),
						    BTF_KIND_INT);
	}
	if (id <= 0) {
		p->argtype = RAWPROBE_ARG_U64;
		p->fit = RP_FIT_RAW;
		return;
	}
	p->type_id = (uint32_t)id;
	p->fit = (unsigned char)rp_btf_fit(btf, p->type_id, &p->argtype);
}

/*
 * "\tfield:const char * filename;\toffset:24;..." -> type and name. The
 * syscall's arguments follow its __syscall_nr field.
 */
static int rp_btf_format_line(char *line, char **type, char **name)
{
	char *f = strstr(line, "field:"), *semi, *sp;

	if (!f)
		return -1;
	f += 6;
	semi = strchr(f, ';');
	if (!semi)
		return -1;
	*semi = '\0';
	sp = strrchr(f, ' ');
	if (!sp)
		return -1;
	*name = sp + 1;
	while (sp > f && sp[-1] == ' ')
		sp--;
	*sp = '\0';
	*type = f;
	return 0;
}

/* The syscall's arguments from its tracepoint's format. */
static int rp_btf_from_format(const char *tracefs, const char *sys,
			      struct rp_btf_proto *pr, char *path, size_t len)
{
	char line[512], *type, *name;
	bool args = false;
	unsigned int n = 0;
	FILE *f;
	int id;

	snprintf(path, len, "%s/events/syscalls/sys_enter_%s/format", tracefs, sys);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (rp_btf_format_line(line, &type, &name))
			continue;
		if (!strcmp(name, "__syscall_nr")) {
			args = true;
			continue;
		}
		if (!args || n == RAWPROBE_MAX_ARGS)
			continue;
		if (rp_is_ident(name, strlen(name), RP_BTF_NAME_MAX - 1))
			snprintf(pr->params[n].name, sizeof(pr->params[n].name),
				 "%s", name);
		else
			snprintf(pr->params[n].name, sizeof(pr->params[n].name),
				 "arg%u", n);
		rp_btf_param_from_c(&pr->params[n++], pr->btf, type);
	}
	fclose(f);
	if (!args)
		return -EBADMSG;
	pr->nparams = n;
	snprintf(pr->ret, sizeof(pr->ret), "long");
	id = btf__find_by_name_kind(pr->btf, "long int", BTF_KIND_INT);
	pr->ret_id = id > 0 ? (uint32_t)id : 0;
	snprintf(pr->from, sizeof(pr->from), "syscalls:sys_enter_%s's format",
		 sys);
	return 0;
}

/*
 * A syscall's entry point: the syscall's own arguments, which its
 * __do_sys_ (or __se_sys_) function has when the compiler kept it, and
 * its tracepoint's format otherwise.
 */
static int rp_btf_syscall(const char *function, const char *sys, bool compat,
			  struct rp_btf_proto *pr, bool verbose)
{
	const char *kinds[] = { compat ? "__do_compat_sys_" : "__do_sys_",
				compat ? "__se_compat_sys_" : "__se_sys_" };
	const char *tracefs = rp_btf_tracefs();
	char name[RP_BTF_NAME_MAX + 32], path[PATH_MAX + 64];
	const struct btf *btf;
	uint32_t id;
	size_t i;
	int err;

	pr->syscall = true;
	pr->user_ptrs = true;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s%s", kinds[i], sys);
		if (rp_btf_where(name, "", &btf, &id, false))
			continue;
		rp_btf_fill(btf, id, pr);
		snprintf(pr->from, sizeof(pr->from), "%s", name);
		if (rp_btf_no_args(pr))
			pr->nparams = 0;
		return 0;
	}
	pr->btf = rp_btf.vmlinux;
	err = tracefs && !compat ? rp_btf_from_format(tracefs, sys, pr, path,
						       sizeof(path)) : -ENOENT;
	if (!err)
		return 0;
	if (verbose) {
		fprintf(stderr, "rawprobectl: %s: the BTF has no prototype of the "
			"syscall %s (%s%s and %s%s were inlined)", function, sys,
			kinds[0], sys, kinds[1], sys);
		if (tracefs && !compat)
			fprintf(stderr, ", and %s: %s", path, strerror(-err));
		else if (!compat)
			fprintf(stderr, ", and no tracefs to read its format "
				"from (RAWPROBECTL_TRACEFS=DIR names one)");
		fprintf(stderr, ": give its arguments' types with --args\n");
	}
	return -ENOENT;
}

/*
 * A syscalls:sys_enter_NAME event's arguments: the syscall's own, as a
 * probe on its entry point has them, but passed in place (the kernel
 * reads them from the user's registers); sys_exit_NAME's: its return
 * value, "ret" as ftrace names it.
 */
static int rp_btf_tp_syscall(const char *event, struct rp_btf_proto *pr,
			     bool verbose)
{
	const char *name = strchr(event, ':') + 1;
	bool enter = !strncmp(name, "sys_enter_", 10);
	const char *sys = name + (enter ? 10 : 9);
	int err;

	if (!enter && strncmp(name, "sys_exit_", 9))
		return -ENOENT;
	if (!rp_btf_kernel(verbose))
		return -ENOENT;
	if (enter) {
		err = rp_btf_syscall(event, sys, false, pr, verbose);
		if (err)
			return err;
	} else {
		pr->btf = rp_btf.vmlinux;
		pr->nparams = 1;
		snprintf(pr->params[0].name, sizeof(pr->params[0].name), "ret");
		rp_btf_param_from_c(&pr->params[0], pr->btf, "long");
		snprintf(pr->from, sizeof(pr->from), "sys_%s's return", sys);
	}
	pr->syscall = false;		/* the kernel passes them in place */
	pr->user_ptrs = enter;
	snprintf(pr->ret, sizeof(pr->ret), "void");
	pr->ret_id = 0;
	return 0;
}

/*
 * A tracepoint's arguments ("SUBSYSTEM:EVENT"): its __traceiter_EVENT
 * function's, which BTF names (the btf_trace_EVENT typedef does not),
 * past the __data the tracepoint passes its probes first; no return.
 */
static int rp_btf_tp_proto(const char *event, struct rp_btf_proto *pr,
			   bool verbose)
{
	char fn[RP_BTF_NAME_MAX + 16];
	const struct btf *btf;
	uint32_t id;
	int err;

	if (!strncmp(event, "syscalls:", 9))
		return rp_btf_tp_syscall(event, pr, verbose);
	snprintf(fn, sizeof(fn), "__traceiter_%s", strchr(event, ':') + 1);
	err = rp_btf_where(fn, "", &btf, &id, verbose);
	if (err == -ENOENT && verbose)
		fprintf(stderr, "rawprobectl: tracepoint:%s: the kernel's BTF has "
			"no %s, which names a tracepoint's arguments: give them "
			"by position (--args 2)\n", event, fn);
	if (err)
		return err;
	rp_btf_fill(btf, id, pr);
	if (pr->nparams) {
		memmove(&pr->params[0], &pr->params[1],
			(RP_BTF_PARAMS_MAX - 1) * sizeof(pr->params[0]));
		pr->nparams--;
	}
	snprintf(pr->ret, sizeof(pr->ret), "void");
	pr->ret_id = 0;
	snprintf(pr->from, sizeof(pr->from), "%s", fn);
	return 0;
}

static int rp_btf_proto_lookup(const char *function, const char *module,
			       struct rp_btf_proto *pr, bool verbose)
{
	const struct btf *btf;
	const char *sys;
	bool compat;
	uint32_t id;
	int err;

	memset(pr, 0, sizeof(*pr));
	if (!module[0] && strchr(function, ':'))	/* a tracepoint's event */
		return rp_btf_tp_proto(function, pr, verbose);
	sys = module[0] ? NULL : rp_btf_syscall_name(function, &compat);
	if (sys && !rp_is_ident(sys, strlen(sys), RP_BTF_NAME_MAX))
		sys = NULL;
	err = rp_btf_where(function, module, &btf, &id, verbose && !sys);
	if (sys && err == -ENOENT && rp_btf.vmlinux) {
		/* SYSCALL_DEFINE0's entry point is __do_sys_NAME's alias */
		if (!rp_btf_syscall(function, sys, compat, pr, false))
			return 0;
	} else if (sys && (!err || !rp_btf.vmlinux)) {
		if (!rp_btf.vmlinux && verbose)
			rp_btf_vmlinux_perror();
		return err ?: rp_btf_syscall(function, sys, compat, pr, verbose);
	}
	if (err == -ENOENT && verbose && rp_btf.vmlinux)
		rp_btf_unknown(function, module);
	if (err)
		return err;
	rp_btf_fill(btf, id, pr);
	pr->same_name = rp_btf_same_name(btf, id);
	return 0;
}

/*
 * The last prototypes looked up, by name. A lookup walks BTF's types by
 * name and may read a syscall's tracepoint format: tens of milliseconds
 * under TCG, which a stream's first record must not pay while the rings
 * fill (rp_stream_live looks its probes up before they fire). A failure
 * is kept too, but looked up again when it is to be said.
 */
#define RP_BTF_PROTO_CACHE	8
static struct rp_btf_proto_ent {
	char function[128], module[64];
	int err;
	struct rp_btf_proto pr;
} rp_protos[RP_BTF_PROTO_CACHE];
static unsigned int rp_nprotos, rp_protos_next;

int rp_btf_proto_get(const char *function, const char *module,
		     struct rp_btf_proto *pr, bool verbose)
{
	struct rp_btf_proto_ent *e;
	unsigned int i;

	if (strlen(function) >= sizeof(e->function) ||
	    strlen(module) >= sizeof(e->module))
		return rp_btf_proto_lookup(function, module, pr, verbose);
	for (i = 0; i < rp_nprotos; i++) {
		e = &rp_protos[i];
		if (strcmp(e->function, function) || strcmp(e->module, module) ||
		    (e->err && verbose))
			continue;
		*pr = e->pr;
		return e->err;
	}
	if (rp_nprotos < RP_BTF_PROTO_CACHE)
		e = &rp_protos[rp_nprotos++];
	else
		e = &rp_protos[rp_protos_next++ % RP_BTF_PROTO_CACHE];
	strcpy(e->function, function);
	strcpy(e->module, module);
	e->err = rp_btf_proto_lookup(function, module, &e->pr, verbose);
	*pr = e->pr;
	return e->err;
}

/* --- --args auto --- */

/* "fd,buf,count": BTF's names, argN for any that would not fit */
static void rp_btf_names(const struct rp_btf_proto *pr, unsigned int n,
			 char *names, size_t size)
{
	size_t total = 0, at = 0;
	unsigned int i;
	bool shorten;

	for (i = 0; i < n; i++)
		total += strlen(pr->params[i].name) + 1;
	/* 6 names of 16 and their commas fit RAWPROBE_ARG_NAMES_LEN */
	shorten = total > size;
	names[0] = '\0';
	for (i = 0; i < n && at < size; i++) {
		const char *name = pr->params[i].name;

		if (shorten && strlen(name) > 16)
			at += (size_t)snprintf(names + at, size - at, "%sarg%u",
					       i ? "," : "", i);
		else
			at += (size_t)snprintf(names + at, size - at, "%s%s",
					       i ? "," : "", name);
	}
}

int rp_btf_req_args(struct rp_probe_req *req)
{
	const char *fn = req->symbol;
	struct rp_btf_proto pr;
	unsigned int i, n;
	int err;

	err = rp_btf_proto_get(fn, req->module, &pr, true);
	if (err)
		return err;
	n = pr.nparams < RAWPROBE_MAX_ARGS ? pr.nparams : RAWPROBE_MAX_ARGS;
	for (i = 0; i < n; i++) {
		const struct rp_btf_param *p = &pr.params[i];

		if (p->fit == RP_FIT_STOP) {
			fprintf(stderr, "rawprobectl: note: %s: '%s %s' is not "
				"one general register's value, and the arguments "
				"after it are not where rawprobe reads them: "
				"recording the %u before it\n", fn, p->type,
				p->name, i);
			n = i;
			break;
		}
		if (p->fit == RP_FIT_RAW)
			fprintf(stderr, "rawprobectl: note: %s: '%s %s' is "
				"recorded as a raw u64 (the register's value)\n",
				fn, p->type, p->name);
		req->argtypes[i] = p->argtype;
	}
	if (n == RAWPROBE_MAX_ARGS && (pr.nparams > n || pr.varargs))
		fprintf(stderr, "rawprobectl: note: %s has %u%s arguments: "
			"recording the first %d\n", fn, pr.nparams,
			pr.varargs ? " and more" : "", RAWPROBE_MAX_ARGS);
	req->nargs = (int)n;
	rp_btf_names(&pr, n, req->arg_names, sizeof(req->arg_names));
	if (pr.syscall)
		req->flags |= RAWPROBE_F_SYSCALL;
	return 0;
}
