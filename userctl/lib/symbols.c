// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol help from /proc/kallsyms: refuse ambiguous names (several static
 * functions share one) listing the candidates, suggest near matches and
 * compiler variants (.isra, .constprop, ...) for unknown ones, and turn
 * addresses back into "function+offset [module]".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/outbuf.h"
#include "lib/symbols.h"

#define RP_MAX_SHOWN 4
#define RP_MAX_NEAR 5

struct rp_ksym_line {
	uint64_t addr;
	char type;
	char name[256];
	char module[80];
};

static bool rp_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const char *rp_skip_blanks(const char *p)
{
	while (rp_blank(*p))
		p++;
	return p;
}

/*
 * Copy the token at p into dst, cut to size: up to end, a newline or the
 * string's end (end ' ': a tab too).
 */
static const char *rp_ksym_token(const char *p, char end, char *dst,
				 size_t size)
{
	size_t n = 0;

	for (; *p && *p != '\n' && *p != end && !(end == ' ' && *p == '\t');
	     p++)
		if (n < size - 1)
			dst[n++] = *p;
	dst[n] = '\0';
	return p;
}

static int rp_hex_digit(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * "addr type name [module]": by hand, not sscanf nor strtoull/strspn,
 * which took a second, then half a second, to read kallsyms's 170,000
 * lines in a TCG guest, the whole start-up of a stream or a probe add.
 */
static int rp_ksym_parse(const char *line, struct rp_ksym_line *k)
{
	const char *p = line;
	uint64_t addr = 0;
	int d, digits = 0;

	while ((d = rp_hex_digit(*p)) >= 0) {
		addr = addr << 4 | (uint64_t)d;
		p++;
		digits++;
	}
	if (!digits || digits > 16 || !rp_blank(*p))
		return -1;
	k->addr = addr;
	p = rp_skip_blanks(p);
	if (!*p || *p == '\n' || !(rp_blank(p[1]) || p[1] == '\n' || !p[1]))
		return -1;
	k->type = *p;
	p = rp_skip_blanks(p + 1);
	if (!*p || *p == '\n')
		return -1;
	p = rp_ksym_token(p, ' ', k->name, sizeof(k->name));
	p = rp_skip_blanks(p);
	k->module[0] = '\0';
	if (*p == '[')
		rp_ksym_token(p + 1, ']', k->module, sizeof(k->module));
	return 0;
}

/* Functions: t/T, and weak ones (W) as some toolchains mark them. */
static int rp_is_text(char type)
{
	return type == 't' || type == 'T' || type == 'W';
}

/* A function's name wanted by a pass over kallsyms (NULL: every one) */
typedef bool (*rp_want_fn)(const char *name, const void *arg);

/*
 * The name of a line in the kernel's own form, "ADDR T NAME..." with one
 * space each, found in place (its type at name[-2], its end at *end); or
 * NULL, a line of another form. Most lines of a pass over kallsyms are
 * no query's: their name alone is looked at, where their full parse was
 * most of a probe add in a TCG guest.
 */
static char *rp_line_name(char *line, char **end)
{
	char *sp = strchr(line, ' ');

	if (!sp || sp == line || rp_hex_digit(sp[-1]) < 0 || !sp[1] ||
	    sp[2] != ' ')
		return NULL;
	*end = sp + 3 + strcspn(sp + 3, " \t\n");
	return sp + 3;
}

/* Is the line a function the pass wants? -1: another form, to be parsed. */
static int rp_line_wanted(char *line, rp_want_fn want, const void *arg)
{
	char *name, *end, save;
	bool yes;

	if (!want)
		return 1;
	name = rp_line_name(line, &end);
	if (!name)
		return -1;
	if (!rp_is_text(name[-2]))
		return 0;
	save = *end;
	*end = '\0';
	yes = want(name, arg);
	*end = save;
	return yes;
}

/* The next function of kallsyms at f that want wants into k: 1, or 0 at its end. */
static int rp_next_wanted(FILE *f, struct rp_ksym_line *k, rp_want_fn want,
			  const void *arg)
{
	char line[512];
	int wanted;

	while (fgets(line, sizeof(line), f)) {
		wanted = rp_line_wanted(line, want, arg);
		if (wanted && !rp_ksym_parse(line, k) && rp_is_text(k->type) &&
		    (wanted > 0 || want(k->name, arg)))
			return 1;
	}
	return 0;
}

/* The next function of kallsyms at f into k: 1, or 0 at its end. */
static int rp_next_text(FILE *f, struct rp_ksym_line *k)
{
	return rp_next_wanted(f, k, NULL, NULL);
}

/* --- checks before probe add --- */

struct rp_near {
	int score;
	char name[256];
};

struct rp_sym_query {
	const char *symbol;
	const char *module;
	int nmatch, nvar;
	int module_seen;	/* any symbol of the module named */
	struct rp_ksym_line shown[RP_MAX_SHOWN];
	char variants[RP_MAX_SHOWN][256];
	struct rp_near near[RP_MAX_NEAR];
	int nnear;
};

static int rp_query_cmp(const void *a, const void *b)
{
	const struct rp_sym_query *const *x = a, *const *y = b;

	return strcmp((*x)->symbol, (*y)->symbol);
}

static struct rp_sym_query **rp_find_query(struct rp_sym_query **sorted,
					   size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	/* first query whose symbol is >= name */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(sorted[mid]->symbol, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n ? &sorted[lo] : NULL;
}

static int rp_in_module(const struct rp_sym_query *q,
			const struct rp_ksym_line *k)
{
	return !q->module[0] || !strcmp(k->module, q->module);
}

/*
 * A line seen before: /proc/kallsyms can list a module's symbol twice
 * when the module list changes during the read (its iterator restarts
 * at a position): the same address and module are one function.
 */
static bool rp_seen_line(const struct rp_sym_query *q,
			 const struct rp_ksym_line *k)
{
	int i;

	for (i = 0; i < q->nmatch && i < RP_MAX_SHOWN; i++)
		if (q->shown[i].addr == k->addr &&
		    !strcmp(q->shown[i].module, k->module))
			return true;
	return false;
}

struct rp_query_set {
	struct rp_sym_query **sorted;
	size_t n;
};

static bool rp_query_named(const struct rp_query_set *set, const char *name)
{
	struct rp_sym_query **q = rp_find_query(set->sorted, set->n, name);

	return q && !strcmp((*q)->symbol, name);
}

/* A name some query is for, exactly or as its variant ("name.isra.0") */
static bool rp_query_wants(const char *name, const void *arg)
{
	const char *dot = strchr(name, '.');
	char base[256];
	size_t len = dot ? (size_t)(dot - name) : 0;

	if (rp_query_named(arg, name))
		return true;
	if (!len || len >= sizeof(base))
		return false;
	memcpy(base, name, len);
	base[len] = '\0';
	return rp_query_named(arg, base);
}

static void rp_note_line(struct rp_sym_query **sorted, size_t n,
			 const struct rp_ksym_line *k)
{
	struct rp_sym_query **q, **end = sorted + n;
	char base[256];
	char *dot;

	for (q = rp_find_query(sorted, n, k->name);
	     q && q < end && !strcmp((*q)->symbol, k->name); q++) {
		if (!rp_in_module(*q, k) || rp_seen_line(*q, k))
			continue;
		if ((*q)->nmatch < RP_MAX_SHOWN)
			(*q)->shown[(*q)->nmatch] = *k;
		(*q)->nmatch++;
	}
	/* "name.isra.0" is a variant of a query for "name" */
	dot = strchr(k->name, '.');
	if (!dot || dot == k->name)
		return;
	snprintf(base, sizeof(base), "%.*s", (int)(dot - k->name), k->name);
	for (q = rp_find_query(sorted, n, base);
	     q && q < end && !strcmp((*q)->symbol, base); q++)
		if ((*q)->nvar < RP_MAX_SHOWN && rp_in_module(*q, k))
			snprintf((*q)->variants[(*q)->nvar++],
				 sizeof((*q)->variants[0]), "%s", k->name);
}

/* Levenshtein distance, giving up (returning max + 1) beyond max. */
static int rp_edit_distance(const char *a, const char *b, int max)
{
	int la = (int)strlen(a), lb = (int)strlen(b), i, j;
	int row[257], prev_diag, tmp, best;

	if (la > 255 || lb > 255 || abs(la - lb) > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev_diag = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev_diag :
				 1 + (prev_diag < row[j - 1] ?
				      (prev_diag < row[j] ? prev_diag : row[j]) :
				      (row[j - 1] < row[j] ? row[j - 1] : row[j]));
			prev_diag = tmp;
			if (row[j] < best)
				best = row[j];
		}
		if (best > max)
			return max + 1;
	}
	return row[lb];
}

/*
 * How near name is to the query (lower is nearer), or -1: not near.
 * A name that extends the query (do_sys_open -> do_sys_openat2) or that
 * contains it ranks before one that is merely a few edits away.
 */
int rp_near_score(const char *query, const char *name)
{
	int lq = (int)strlen(query), ln = (int)strlen(name);
	int max = lq / 4 > 2 ? lq / 4 : 2, d;

	if (lq >= 3 && !strncmp(name, query, lq))
		return ln - lq;
	if (lq >= 4 && strstr(name, query))
		return 100 + ln - lq;
	d = rp_edit_distance(query, name, max);
	return d <= max ? 200 + d : -1;
}

static void rp_note_near(struct rp_sym_query *q, const struct rp_ksym_line *k)
{
	size_t lq = strlen(q->symbol);
	int score, i;

	/* compiler variants of the very name are listed on their own */
	if (!strncmp(k->name, q->symbol, lq) && k->name[lq] == '.')
		return;
	score = rp_near_score(q->symbol, k->name);
	if (score < 0)
		return;
	for (i = 0; i < q->nnear; i++)
		if (!strcmp(q->near[i].name, k->name))
			return;
	/* insertion into the few best, in score then name order */
	for (i = q->nnear; i > 0; i--) {
		const struct rp_near *p = &q->near[i - 1];

		if (p->score < score ||
		    (p->score == score && strcmp(p->name, k->name) < 0))
			break;
		if (i < RP_MAX_NEAR)
			q->near[i] = *p;
	}
	if (i >= RP_MAX_NEAR)
		return;
	q->near[i].score = score;
	snprintf(q->near[i].name, sizeof(q->near[i].name), "%s", k->name);
	if (q->nnear < RP_MAX_NEAR)
		q->nnear++;
}

static void rp_report_ambiguous(const struct rp_sym_query *q)
{
	int i;

	fprintf(stderr, "rawprobectl: symbol '%s' is ambiguous: %d functions "
		"have this name; name one by address (or MODULE:SYMBOL):\n",
		q->symbol, q->nmatch);
	for (i = 0; i < q->nmatch && i < RP_MAX_SHOWN; i++)
		fprintf(stderr, "  0x%016" PRIx64 " %s%s%s%s\n",
			q->shown[i].addr, q->shown[i].name,
			q->shown[i].module[0] ? " [" : "", q->shown[i].module,
			q->shown[i].module[0] ? "]" : "");
	if (q->shown[0].addr == 0)
		fprintf(stderr, "  (addresses are hidden: run as root or "
			"lower kernel.kptr_restrict)\n");
}

static void rp_report_unknown(const struct rp_sym_query *q)
{
	int i;

	fprintf(stderr, "rawprobectl: %s%s%s: unknown symbol: no such "
		"function in %s (ENOENT)\n", q->module,
		q->module[0] ? ":" : "", q->symbol, rp_kallsyms_path());
	if (q->nvar) {
		fprintf(stderr, "  the compiler renamed it; try:");
		for (i = 0; i < q->nvar; i++)
			fprintf(stderr, " %s", q->variants[i]);
		fputc('\n', stderr);
	}
	if (q->nnear) {
		fprintf(stderr, "  did you mean:");
		for (i = 0; i < q->nnear; i++)
			fprintf(stderr, " %s%s%s", q->module,
				q->module[0] ? ":" : "", q->near[i].name);
		fputc('\n', stderr);
	}
}

static int rp_report(const struct rp_sym_query *q)
{
	if (q->nmatch == 1)
		return 0;
	if (q->nmatch > 1) {
		rp_report_ambiguous(q);
		return -EEXIST;
	}
	if (q->nvar || q->nnear) {
		rp_report_unknown(q);
		return -ENOENT;
	}
	return 0;	/* nothing near: the kernel gives the reason */
}

/* Second pass, only for names that were not found: near matches. */
static void rp_find_near(FILE *f, struct rp_sym_query *q, size_t n)
{
	struct rp_ksym_line k;
	size_t i;

	rewind(f);
	while (rp_next_text(f, &k)) {
		for (i = 0; i < n; i++) {
			if (q[i].nmatch || !rp_in_module(&q[i], &k))
				continue;
			q[i].module_seen = 1;
			rp_note_near(&q[i], &k);
		}
	}
	/* symbols of a module that is not loaded: the kernel says so */
	for (i = 0; i < n; i++)
		if (q[i].module[0] && !q[i].module_seen)
			q[i].nnear = q[i].nvar = 0;
}

/*
 * The queries for symbols[] in modules[], each with the functions of
 * its name counted (nmatch) in one pass over kallsyms (modules NULL: in
 * any), left open at f.
 * NULL when there is nothing to read or no memory.
 */
static struct rp_sym_query *rp_symbols_scan(const char *const *symbols,
					    const char *const *modules,
					    size_t n, FILE **f)
{
	struct rp_sym_query *q, **sorted;
	struct rp_query_set wants;
	struct rp_ksym_line k;
	size_t i;

	*f = rp_kallsyms_open();
	if (!*f)
		return NULL;	/* the kernel will judge */
	q = calloc(n, sizeof(*q));
	sorted = calloc(n, sizeof(*sorted));
	if (!q || !sorted) {
		fclose(*f);
		free(q);
		free(sorted);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		q[i].symbol = symbols[i];
		q[i].module = modules && modules[i] ? modules[i] : "";
		sorted[i] = &q[i];
	}
	qsort(sorted, n, sizeof(*sorted), rp_query_cmp);
	wants.sorted = sorted;
	wants.n = n;
	while (rp_next_wanted(*f, &k, rp_query_wants, &wants))
		rp_note_line(sorted, n, &k);
	free(sorted);
	return q;
}

/*
 * A glob's names, thousands of them: 32 bytes each, where a query's
 * lines shown and near names take 4 KiB (40 MB zeroed for a glob of
 * 10,000 functions, most of its expansion under TCG).
 */
struct rp_sym_count {
	const char *symbol, *module;
	int nmatch;
	bool in_module;		/* the first line's: a module's */
	bool aliased;		/* a line beside one of its has its address */
	uint64_t addr;		/* and its address */
};

/*
 * The names by hash (open addressing, a power of two at least twice
 * their number): kallsyms' 200,000 lines each cost a hash and, mostly,
 * one empty slot, where a binary search over 10,000 names took 14
 * strcmp()s a line.
 */
struct rp_count_table {
	struct rp_sym_count **slot;
	size_t mask;
};

static uint64_t rp_name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

static int rp_count_table_init(struct rp_count_table *t,
			       struct rp_sym_count *c, size_t n)
{
	size_t size = 16, i, at;

	while (size < 2 * n)
		size *= 2;
	t->slot = calloc(size, sizeof(*t->slot));
	if (!t->slot)
		return -1;
	t->mask = size - 1;
	for (i = 0; i < n; i++) {
		at = rp_name_hash(c[i].symbol) & t->mask;
		while (t->slot[at])
			at = (at + 1) & t->mask;
		t->slot[at] = &c[i];
	}
	return 0;
}

/* The queries of the name at name..end, the first in t->slot[*at] */
static struct rp_sym_count *rp_count_find(const struct rp_count_table *t,
					  char *name, char *end, size_t *at)
{
	struct rp_sym_count *c;
	char save = *end;

	*end = '\0';
	*at = rp_name_hash(name) & t->mask;
	while ((c = t->slot[*at]) && strcmp(c->symbol, name))
		*at = (*at + 1) & t->mask;
	*end = save;
	return c;
}

/*
 * The queries of the line's name, if any: only the name is looked at
 * first (kallsyms' "ADDR T NAME [MODULE]"), the rest parsed for a line
 * of a name asked for, most lines being no query's. alias: the line
 * before has the same address. Returns whether the line was a query's.
 */
static bool rp_count_line(const struct rp_count_table *t, char *line,
			  bool alias)
{
	char *end, *name = rp_line_name(line, &end);
	struct rp_ksym_line k;
	struct rp_sym_count *c;
	bool hit = false;
	size_t at;

	if (!name || !rp_is_text(name[-2]) ||
	    !rp_count_find(t, name, end, &at) || rp_ksym_parse(line, &k))
		return false;
	/* every query of k's name, in the run of slots from its hash */
	for (; (c = t->slot[at]); at = (at + 1) & t->mask) {
		if (strcmp(c->symbol, k.name) ||
		    (c->module[0] && strcmp(k.module, c->module)))
			continue;
		hit = true;
		c->aliased |= alias;
		/* the same line again (rp_seen_line()) */
		if (c->nmatch && c->addr == k.addr)
			continue;
		if (!c->nmatch++) {
			c->addr = k.addr;
			c->in_module = k.module[0];
		}
	}
	return hit;
}

/* The line after a query's has its address: the query's is an alias. */
static void rp_count_alias_after(const struct rp_count_table *t, char *line)
{
	char *end, *name = rp_line_name(line, &end);
	struct rp_sym_count *c;
	size_t at;

	if (!name || !rp_count_find(t, name, end, &at))
		return;
	for (; (c = t->slot[at]); at = (at + 1) & t->mask)
		if (!strncmp(c->symbol, name, end - name) &&
		    !c->symbol[end - name])
			c->aliased = true;
}

/*
 * Two lines of the kernel's form with one address. vmlinux's lines come
 * sorted by address (kallsyms' own lookup relies on it), so the names
 * of one address are neighbours.
 */
static bool rp_same_addr(const char *a, const char *b)
{
	const char *sp = strchr(a, ' ');

	return sp && sp > a && !strncmp(a, b, sp - a + 1);
}

/*
 * The names' counts, in one pass over kallsyms (modules NULL: in any),
 * left open at f; NULL when there is nothing to read or no memory.
 */
static struct rp_sym_count *rp_count_scan(const char *const *symbols,
					  const char *const *modules,
					  size_t n, FILE **f)
{
	struct rp_count_table t = { 0 };
	struct rp_sym_count *c;
	char line[2][512];
	int cur = 0, prev = 0;	/* the line before: 1 a query's, -1 not */
	bool alias;
	size_t i;

	*f = rp_kallsyms_open();
	if (!*f)
		return NULL;
	c = calloc(n, sizeof(*c));
	for (i = 0; c && i < n; i++) {
		c[i].symbol = symbols[i];
		c[i].module = modules && modules[i] ? modules[i] : "";
	}
	if (!c || rp_count_table_init(&t, c, n)) {
		fclose(*f);
		free(c);
		return NULL;
	}
	while (fgets(line[cur], sizeof(line[cur]), *f)) {
		alias = prev && rp_same_addr(line[cur], line[!cur]);
		if (alias && prev > 0)
			rp_count_alias_after(&t, line[!cur]);
		prev = rp_count_line(&t, line[cur], alias) ? 1 : -1;
		cur = !cur;
	}
	free(t.slot);
	return c;
}

/*
 * rp_symbols_count() (nmatch may be NULL), or with vmlinux set, only a
 * vmlinux function's own address: not a module's, not an alias's.
 */
static int rp_symbols_addrs(const char *const *symbols,
			    const char *const *modules, size_t n, int *nmatch,
			    uint64_t *addr, bool vmlinux)
{
	struct rp_sym_count *c;
	size_t i;
	FILE *f;

	c = rp_count_scan(symbols, modules, n, &f);
	if (!c)
		return -1;
	for (i = 0; i < n; i++) {
		if (nmatch)
			nmatch[i] = c[i].nmatch;
		addr[i] = c[i].nmatch == 1 &&
			  !(vmlinux && (c[i].in_module || c[i].aliased)) ?
			  c[i].addr : 0;
	}
	fclose(f);
	free(c);
	return 0;
}

int rp_symbols_count(const char *const *symbols, const char *const *modules,
		     size_t n, int *nmatch, uint64_t *addr)
{
	return rp_symbols_addrs(symbols, modules, n, nmatch, addr, false);
}

int rp_symbols_vmlinux(const char *const *symbols, size_t n, uint64_t *addr)
{
	return rp_symbols_addrs(symbols, NULL, n, NULL, addr, true);
}

int rp_symbols_check(const char *const *symbols, const char *const *modules,
		     size_t n)
{
	struct rp_sym_query *q;
	int err = 0, e, missing = 0;
	size_t i;
	FILE *f;

	q = rp_symbols_scan(symbols, modules, n, &f);
	if (!q)
		return 0;
	for (i = 0; i < n; i++)
		missing += !q[i].nmatch;
	if (missing)
		rp_find_near(f, q, n);
	for (i = 0; i < n; i++) {
		e = rp_report(&q[i]);
		if (e && !err)
			err = e;
	}
	fclose(f);
	free(q);
	return err;
}

int rp_symbol_check(const char *symbol, const char *module)
{
	return rp_symbols_check(&symbol, &module, 1);
}

/* --- address to symbol --- */

struct rp_ksym {
	uint64_t addr;
	char *name;		/* "name" or "name [module]"; NULL: not text */
	size_t name_len;	/* of "name" */
};

static struct {
	struct rp_ksym *v;
	size_t n;
	int loaded;
} rp_ksyms;

static int rp_ksym_cmp(const void *a, const void *b)
{
	const struct rp_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int rp_ksym_push(const struct rp_ksym_line *k, size_t *cap)
{
	char buf[400];

	if (rp_ksyms.n == *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		void *v = realloc(rp_ksyms.v, c * sizeof(*rp_ksyms.v));

		if (!v)
			return -ENOMEM;
		rp_ksyms.v = v;
		*cap = c;
	}
	snprintf(buf, sizeof(buf), "%s%s%s%s", k->name,
		 k->module[0] ? " [" : "", k->module, k->module[0] ? "]" : "");
	rp_ksyms.v[rp_ksyms.n].addr = k->addr;
	rp_ksyms.v[rp_ksyms.n].name = rp_is_text(k->type) ? strdup(buf) : NULL;
	rp_ksyms.v[rp_ksyms.n].name_len = strlen(k->name);
	rp_ksyms.n++;
	return 0;
}

static void rp_ksyms_load(void)
{
	struct rp_ksym_line k;
	char line[512];
	size_t cap = 0;
	FILE *f;

	rp_ksyms.loaded = 1;
	f = rp_kallsyms_open();
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!rp_ksym_parse(line, &k) && k.addr &&
		    rp_ksym_push(&k, &cap))
			break;
	fclose(f);
	if (rp_ksyms.n)		/* qsort(NULL, 0) is undefined */
		qsort(rp_ksyms.v, rp_ksyms.n, sizeof(*rp_ksyms.v), rp_ksym_cmp);
}

void rp_ksyms_preload(void)
{
	if (!rp_ksyms.loaded)
		rp_ksyms_load();
}

/* The function addr is in, or NULL (not in kernel text, or not known). */
static const struct rp_ksym *rp_ksym_find(uint64_t addr)
{
	size_t lo = 0, hi;

	if (!rp_ksyms.loaded)
		rp_ksyms_load();
	hi = rp_ksyms.n;
	/*
	 * Below the first symbol, or past the last one by more than a
	 * function's size (there is no telling where text ends): most
	 * pointers (heap, stack, user) are one or the other, and need no
	 * search.
	 */
	if (!hi || addr < rp_ksyms.v[0].addr ||
	    (addr > rp_ksyms.v[hi - 1].addr &&
	     addr - rp_ksyms.v[hi - 1].addr > 0x10000))
		return NULL;
	/* the last symbol at or below addr */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (rp_ksyms.v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo > 0: addr >= v[0].addr */
	return rp_ksyms.v[lo - 1].name ? &rp_ksyms.v[lo - 1] : NULL;
}

void rp_ksym_format(uint64_t addr, char *buf, size_t len)
{
	/* a kallsyms line is < 512 bytes; the offset adds 19 */
	char tmp[512 + 32], *p;
	const struct rp_ksym *s = rp_ksym_find(addr);
	const char *mod;
	size_t n;

	buf[0] = '\0';
	if (!s)
		return;
	/* "name+0x10 [module]", cut to len like snprintf */
	p = rp_put(tmp, s->name, s->name_len);
	*p++ = '+';
	p = rp_put_hex(p, addr - s->addr);
	mod = s->name + s->name_len;
	p = rp_put(p, mod, strlen(mod));
	n = (size_t)(p - tmp) < len ? (size_t)(p - tmp) : len - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
}

const char *rp_ksym_func(uint64_t addr, size_t *len)
{
	const struct rp_ksym *s = rp_ksym_find(addr);

	*len = s ? s->name_len : 0;
	return s ? s->name : "";
}

static bool rp_name_is(const char *name, const void *arg)
{
	return !strcmp(name, arg);
}

int rp_ksym_module(const char *name, char *module, size_t len)
{
	struct rp_ksym_line k;
	int found = 0;
	FILE *f = rp_kallsyms_open();

	if (!f)
		return -1;
	found = rp_next_wanted(f, &k, rp_name_is, name);
	fclose(f);
	if (found && module)
		snprintf(module, len, "%s", k.module);
	return found;
}

int rp_ksym_size(const char *name, const char *module, uint64_t *size)
{
	size_t i, j, len = strlen(name), found = 0, at = 0;
	const char *mod;

	if (!rp_ksyms.loaded)
		rp_ksyms_load();
	for (i = 0; i < rp_ksyms.n; i++) {
		const struct rp_ksym *s = &rp_ksyms.v[i];

		if (!s->name || s->name_len != len || memcmp(s->name, name, len))
			continue;
		/* "name [module]": the module between " [" and "]" */
		mod = s->name + len;
		if (module && (*module ?
			       strncmp(mod, " [", 2) ||
			       strncmp(mod + 2, module, strlen(module)) ||
			       strcmp(mod + 2 + strlen(module), "]") : *mod))
			continue;
		found++;
		at = i;
	}
	if (found != 1)
		return -1;
	for (j = at + 1; j < rp_ksyms.n; j++)
		if (rp_ksyms.v[j].addr > rp_ksyms.v[at].addr) {
			*size = rp_ksyms.v[j].addr - rp_ksyms.v[at].addr;
			return 0;
		}
	return -1;
}

int rp_ksym_exists(const char *name)
{
	return rp_ksym_module(name, NULL, 0);
}

/*
 * The records of one probe repeat a handful of addresses (the probed
 * function, the same pointers): a direct-mapped cache spares each of them
 * a binary search of kallsyms and a snprintf. kallsyms is read once, so
 * an entry never goes stale.
 */
#define RP_KSYM_CACHE	256		/* a power of two */

struct rp_ksym_cached {
	uint64_t addr;
	int valid;
	size_t len;
	char sym[RP_KSYM_MAX];
};

const char *rp_ksym_cached(uint64_t addr, size_t *len)
{
	static struct rp_ksym_cached cache[RP_KSYM_CACHE];
	/* Functions are 16-byte aligned: hash what varies above that. */
	struct rp_ksym_cached *c = &cache[((addr >> 4) ^ (addr >> 12)) &
					  (RP_KSYM_CACHE - 1)];

	if (!c->valid || c->addr != addr) {
		rp_ksym_format(addr, c->sym, sizeof(c->sym));
		c->len = strlen(c->sym);
		c->addr = addr;
		c->valid = 1;
	}
	*len = c->len;
	return c->sym;
}
