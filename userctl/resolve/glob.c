// SPDX-License-Identifier: GPL-2.0
/*
 * Globs as targets: "tcp_*" is every function kprobes can take whose
 * name matches. What they can take is what ftrace can
 * (available_filter_functions: a function with an ftrace site is
 * kernel text that is not notrace), less what kprobes refuses by name
 * (its blacklist: NOKPROBE_SYMBOL, the entry and noinstr text), less
 * what the CLI refuses (a name several functions share: ambiguous) and
 * rawprobe's own code. The file lists "name" or "name [module]" a line,
 * a name as often as functions have it.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/symbols.h"
#include "lib/tracefs.h"
#include "resolve/glob.h"

/* The module whose code adds, arms and removes probes: never probed. */
#define RP_OWN_MODULE "rawprobe"

bool rp_glob_is(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

bool rp_glob_valid(const char *pat)
{
	const char *p;

	for (p = pat; *p; p++) {
		if (*p != '[')
			continue;
		p++;
		if (*p == '!' || *p == '^')
			p++;
		if (*p == ']')		/* "[]...]": a ']' first is one of the set */
			p++;
		p = strchr(p, ']');
		if (!p)
			return false;
	}
	return true;
}

static int rp_glob_fn_cmp(const void *a, const void *b)
{
	const struct rp_glob_fn *x = a, *y = b;

	return strcmp(x->name, y->name) ?: strcmp(x->module, y->module);
}

static int rp_glob_push(struct rp_glob_result *r, size_t *cap,
			const char *name, size_t len, const char *module)
{
	struct rp_glob_fn *f;

	if (r->n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		void *v = realloc(r->v, c * sizeof(*r->v));

		if (!v)
			return -ENOMEM;
		r->v = v;
		*cap = c;
	}
	f = &r->v[r->n++];
	snprintf(f->name, sizeof(f->name), "%.*s", (int)len, name);
	snprintf(f->module, sizeof(f->module), "%s", module);
	return 0;
}

/*
 * "name" or "name [module]" into name (NUL-terminated in line) and
 * module; 6.x lists the ftrace sites of discarded weak functions as
 * "__ftrace_invalid_address___N", no function's name.
 */
static const char *rp_afl_parse(char *line, const char **module)
{
	char *sp = strpbrk(line, " \t\n"), *end;

	*module = "";
	if (sp && sp[0] != '\n' && (end = strchr(sp, '['))) {
		*module = end + 1;
		end[strcspn(end, "]\n")] = '\0';
	}
	if (sp)
		*sp = '\0';
	if (!line[0] || !strncmp(line, "__ftrace_invalid_address__", 26))
		return NULL;
	return line;
}

/* available_filter_functions, or root's copy of it; NULL after saying why */
static FILE *rp_afl_open(void)
{
	char path[300];
	FILE *f, *copy;

	f = rp_tracefs_open("available_filter_functions", path, sizeof(path));
	if (f && !rp_tracefs_env()) {
		copy = rp_glob_list_open(path, false);
		if (copy) {
			fclose(f);
			f = copy;
		}
	}
	if (!f) {
		int e = errno;

		fprintf(stderr, "rawprobectl: %s: %s: a glob needs the list of "
			"functions ftrace can trace (mount tracefs: 'mount -t "
			"tracefs nodev /sys/kernel/tracing'; a kernel with "
			"CONFIG_FUNCTION_TRACER)\n", path, strerror(e));
		errno = e;
	}
	return f;
}

/* How much of pat is plain text before its first wildcard or escape */
static size_t rp_glob_prefix(const char *pat)
{
	return strcspn(pat, "*?[\\");
}

/*
 * The lines of available_filter_functions each of the n globs matches,
 * as listed, into r[k] (cap[k] its room): the list read once for all of
 * them (55,000 lines), a glob's plain prefix compared before fnmatch().
 */
static int rp_glob_read_afl(const char *const *modules,
			    const char *const *pats, size_t n,
			    struct rp_glob_result *r, size_t *cap,
			    const size_t *plen)
{
	const char *name, *mod;
	char line[512];
	int err = 0;
	size_t k;
	FILE *f;

	f = rp_afl_open();
	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f)) {
		name = rp_afl_parse(line, &mod);
		for (k = 0; name && !err && k < n; k++) {
			if (strncmp(name, pats[k], plen[k]) ||
			    (modules[k][0] && strcmp(mod, modules[k])) ||
			    fnmatch(pats[k], name, 0))
				continue;
			if (!strcmp(mod, RP_OWN_MODULE))
				r[k].own++;
			else
				err = rp_glob_push(&r[k], &cap[k], name,
						   strlen(name), mod);
		}
	}
	fclose(f);
	return err;
}

/* A name listed twice is two functions: neither is kept (see below). */
static void rp_glob_drop_listed_twice(struct rp_glob_result *r)
{
	size_t i, j, out = 0;

	if (r->n)	/* qsort(NULL, 0) is undefined */
		qsort(r->v, r->n, sizeof(*r->v), rp_glob_fn_cmp);
	for (i = 0; i < r->n; i = j) {
		for (j = i + 1; j < r->n && !rp_glob_fn_cmp(&r->v[i], &r->v[j]); j++)
			;
		if (j - i > 1) {
			r->shared += j - i;
			continue;
		}
		r->v[out++] = r->v[i];
	}
	r->n = out;
}

/* kprobes' blacklist: "0xSTART-0xEND\tname [module]" a line; its names */
static char **rp_blacklist_read(size_t *n)
{
	const char *path = getenv("RAWPROBE_KPROBES_BLACKLIST");
	char line[512], *name, **v = NULL;
	size_t cap = 0;
	FILE *f;

	*n = 0;
	if (path && *path)
		f = fopen(path, "r");
	else
		f = rp_glob_list_open(path = RP_KPROBES_BLACKLIST, true);
	if (!f) {
		fprintf(stderr, "rawprobectl: note: %s: %s: functions on kprobes' "
			"blacklist are not left out (mount debugfs), and the "
			"kernel refuses them\n", path, strerror(errno));
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		name = strchr(line, '\t');
		if (!name)
			continue;
		name++;
		name[strcspn(name, " \t\n")] = '\0';
		if (*n == cap) {
			void *t = realloc(v, (cap = cap ? cap * 2 : 1024) * sizeof(*v));

			if (!t)
				break;
			v = t;
		}
		v[*n] = strdup(name);
		if (v[*n])
			(*n)++;
	}
	fclose(f);
	return v;
}

static int rp_str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * By name: the blacklist names a module's function without saying
 * where ("name [module]" was cut to "name"), and a name on it anywhere
 * is left out everywhere, rather than risk the batch.
 */
static void rp_glob_drop_blacklisted(struct rp_glob_result *r, char **bl,
				     size_t nb)
{
	size_t i, out = 0;
	const char *key;

	for (i = 0; i < r->n; i++) {
		key = r->v[i].name;
		if (nb && bsearch(&key, bl, nb, sizeof(*bl), rp_str_cmp)) {
			r->blacklisted++;
			continue;
		}
		r->v[out++] = r->v[i];
	}
	r->n = out;
}

/*
 * Names kallsyms has more than once (in the module, for a module's
 * function; anywhere, for vmlinux's, which a kprobe by name looks up
 * first): a kprobe by name takes the first, which may not be the one
 * ftrace listed, and the CLI refuses such a name as ambiguous. Each is
 * probed by address ('probe add kprobe 0xADDR'), deliberately.
 */
static int rp_glob_drop_shared(struct rp_glob_result *r, size_t nr)
{
	const char **names, **mods;
	size_t i, k, at, out, total = 0;
	int *nmatch, err = 0;
	uint64_t *addr;

	for (k = 0; k < nr; k++)
		total += r[k].n;
	names = calloc(total + 1, sizeof(*names));
	mods = calloc(total + 1, sizeof(*mods));
	nmatch = calloc(total + 1, sizeof(*nmatch));
	addr = calloc(total + 1, sizeof(*addr));
	if (!names || !mods || !nmatch || !addr) {
		err = -ENOMEM;
		goto out;
	}
	for (k = 0, at = 0; k < nr; k++)
		for (i = 0; i < r[k].n; i++, at++) {
			names[at] = r[k].v[i].name;
			mods[at] = r[k].v[i].module;
		}
	if (rp_symbols_count(names, mods, total, nmatch, addr))
		goto out;	/* no kallsyms: the kernel judges */
	for (k = 0, at = 0; k < nr; k++) {
		for (i = 0, out = 0; i < r[k].n; i++, at++) {
			if (nmatch[at] > 1) {
				r[k].shared++;
				continue;
			}
			r[k].v[i].addr = addr[at];
			r[k].v[out++] = r[k].v[i];
		}
		r[k].n = out;
	}
out:
	free(names);
	free(mods);
	free(nmatch);
	free(addr);
	return err;
}

int rp_glob_expand_all(const char *const *modules, const char *const *pats,
		       size_t n, struct rp_glob_result *r)
{
	size_t k, nb = 0, found = 0, *cap, *plen;
	char **bl = NULL;
	int err = 0;

	memset(r, 0, n * sizeof(*r));
	cap = calloc(n, sizeof(*cap));
	plen = calloc(n, sizeof(*plen));
	if (!cap || !plen)
		err = -ENOMEM;
	for (k = 0; !err && k < n; k++)
		plen[k] = rp_glob_prefix(pats[k]);
	if (!err)
		err = rp_glob_read_afl(modules, pats, n, r, cap, plen);
	for (k = 0; !err && k < n; k++) {
		rp_glob_drop_listed_twice(&r[k]);
		found += r[k].n;
	}
	free(cap);
	free(plen);
	/* no blacklist to read, nor note of it, for nothing */
	if (!err && found) {
		bl = rp_blacklist_read(&nb);
		if (nb)
			qsort(bl, nb, sizeof(*bl), rp_str_cmp);
		for (k = 0; k < n; k++)
			rp_glob_drop_blacklisted(&r[k], bl, nb);
		err = rp_glob_drop_shared(r, n);
	}
	for (k = 0; k < nb; k++)
		free(bl[k]);
	free(bl);
	if (err)
		for (k = 0; k < n; k++)
			rp_glob_result_free(&r[k]);
	return err;
}

int rp_glob_expand(const char *module, const char *pat,
		   struct rp_glob_result *r)
{
	return rp_glob_expand_all(&module, &pat, 1, r);
}

/*
 * The subsystems of available_events whose events have no tracepoint a
 * probe can take: ftrace's own, and the dynamic ones (kprobe, uprobe,
 * synthetic, eprobe events). ftrace's syscall events have none either,
 * but the kernel builds them on raw_syscalls' as ftrace does.
 */
static bool rp_event_no_tp(const char *event)
{
	static const char *const sys[] = {
		"ftrace:", "kprobes:", "uprobes:", "synthetic:", "eprobes:",
	};
	size_t i;

	for (i = 0; i < sizeof(sys) / sizeof(sys[0]); i++)
		if (!strncmp(event, sys[i], strlen(sys[i])))
			return true;
	return false;
}

int rp_glob_events(const char *pat, struct rp_glob_result *r)
{
	char line[256], path[300];
	size_t cap = 0;
	int err = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = rp_tracefs_open("available_events", path, sizeof(path));
	if (!f) {
		err = -errno;
		fprintf(stderr, "rawprobectl: %s: %s: a glob of tracepoints needs "
			"tracefs' list of events (mount tracefs: 'mount -t "
			"tracefs nodev /sys/kernel/tracing')\n", path,
			strerror(errno));
		return err;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strchr(line, ':') || fnmatch(pat, line, 0))
			continue;
		if (rp_event_no_tp(line)) {
			r->not_tp++;
			continue;
		}
		err = rp_glob_push(r, &cap, line, strlen(line), "");
	}
	fclose(f);
	if (!err && r->n)
		qsort(r->v, r->n, sizeof(*r->v), rp_glob_fn_cmp);
	return err;
}

void rp_glob_result_free(struct rp_glob_result *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
