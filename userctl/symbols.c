// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols.h"

#define RP_MAX_SHOWN 4

struct rp_ksym_line {
	uint64_t addr;
	char type;
	char name[256];
	char module[80];
};

static int rp_ksym_parse(const char *line, struct rp_ksym_line *k)
{
	char mod[80] = "";
	int n;

	n = sscanf(line, "%" SCNx64 " %c %255s %79s", &k->addr, &k->type,
		   k->name, mod);
	if (n < 3)
		return -1;
	k->module[0] = '\0';
	if (n == 4 && mod[0] == '[') {
		mod[strcspn(mod, "]")] = '\0';
		snprintf(k->module, sizeof(k->module), "%s", mod + 1);
	}
	return 0;
}

static int rp_is_text(char type)
{
	return type == 't' || type == 'T';
}

struct rp_sym_query {
	const char *symbol;
	const char *module;
	int nmatch, nvar;
	struct rp_ksym_line shown[RP_MAX_SHOWN];
	char variants[RP_MAX_SHOWN][256];
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

static void rp_note_line(struct rp_sym_query **sorted, size_t n,
			 const struct rp_ksym_line *k)
{
	struct rp_sym_query **q, **end = sorted + n;
	char base[256];
	char *dot;

	for (q = rp_find_query(sorted, n, k->name);
	     q && q < end && !strcmp((*q)->symbol, k->name); q++) {
		if ((*q)->module[0] && strcmp(k->module, (*q)->module))
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
		if ((*q)->nvar < RP_MAX_SHOWN &&
		    (!(*q)->module[0] || !strcmp(k->module, (*q)->module)))
			snprintf((*q)->variants[(*q)->nvar++],
				 sizeof((*q)->variants[0]), "%s", k->name);
}

static int rp_report(const struct rp_sym_query *q)
{
	int i;

	if (q->nmatch == 1)
		return 0;
	if (q->nmatch > 1) {
		fprintf(stderr, "rawprobectl: symbol '%s' is ambiguous: %d "
			"functions have this name; name one by address "
			"(or MODULE:SYMBOL):\n", q->symbol, q->nmatch);
		for (i = 0; i < q->nmatch && i < RP_MAX_SHOWN; i++)
			fprintf(stderr, "  0x%016" PRIx64 " %s%s%s%s\n",
				q->shown[i].addr, q->shown[i].name,
				q->shown[i].module[0] ? " [" : "",
				q->shown[i].module,
				q->shown[i].module[0] ? "]" : "");
		if (q->shown[0].addr == 0)
			fprintf(stderr, "  (addresses are hidden: run as root "
				"or lower kernel.kptr_restrict)\n");
		return -EEXIST;
	}
	if (q->nvar) {
		fprintf(stderr, "rawprobectl: no function '%s'%s%s; the "
			"compiler renamed it, try:", q->symbol,
			q->module[0] ? " in " : "", q->module);
		for (i = 0; i < q->nvar; i++)
			fprintf(stderr, " %s", q->variants[i]);
		fputc('\n', stderr);
		return -ENOENT;
	}
	return 0;	/* not found here: the kernel gives the reason */
}

int rp_symbols_check(const char *const *symbols, const char *const *modules,
		     size_t n)
{
	struct rp_sym_query *q, **sorted;
	struct rp_ksym_line k;
	char line[512];
	int err = 0, e;
	size_t i;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;	/* the kernel will judge */
	q = calloc(n, sizeof(*q));
	sorted = calloc(n, sizeof(*sorted));
	if (!q || !sorted)
		goto out;
	for (i = 0; i < n; i++) {
		q[i].symbol = symbols[i];
		q[i].module = modules[i] ? modules[i] : "";
		sorted[i] = &q[i];
	}
	qsort(sorted, n, sizeof(*sorted), rp_query_cmp);
	while (fgets(line, sizeof(line), f))
		if (!rp_ksym_parse(line, &k) && rp_is_text(k.type))
			rp_note_line(sorted, n, &k);
	for (i = 0; i < n; i++) {
		e = rp_report(&q[i]);
		if (e && !err)
			err = e;
	}
out:
	fclose(f);
	free(q);
	free(sorted);
	return err;
}

int rp_symbol_check(const char *symbol, const char *module)
{
	return rp_symbols_check(&symbol, &module, 1);
}
