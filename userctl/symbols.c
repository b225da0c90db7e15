// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols.h"

#define RP_MAX_SHOWN 8

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

/* "name.isra.0", "name.constprop.0", "name.part.0", "name.cold" */
static int rp_is_variant(const char *cand, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(cand, name, n) && cand[n] == '.';
}

int rp_symbol_check(const char *symbol, const char *module)
{
	struct rp_ksym_line k, shown[RP_MAX_SHOWN];
	char variants[RP_MAX_SHOWN][256];
	int nmatch = 0, nvar = 0, i;
	char line[512];
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return 0;	/* the kernel will judge */
	while (fgets(line, sizeof(line), f)) {
		if (rp_ksym_parse(line, &k) || !rp_is_text(k.type))
			continue;
		if (module && module[0] && strcmp(k.module, module))
			continue;
		if (!strcmp(k.name, symbol)) {
			if (nmatch < RP_MAX_SHOWN)
				shown[nmatch] = k;
			nmatch++;
		} else if (nvar < RP_MAX_SHOWN && rp_is_variant(k.name, symbol)) {
			snprintf(variants[nvar++], sizeof(variants[0]), "%s",
				 k.name);
		}
	}
	fclose(f);

	if (nmatch == 1)
		return 0;
	if (nmatch > 1) {
		fprintf(stderr, "rawprobectl: symbol '%s' is ambiguous: %d "
			"functions have this name; name one by address "
			"(or MODULE:SYMBOL):\n", symbol, nmatch);
		for (i = 0; i < nmatch && i < RP_MAX_SHOWN; i++)
			fprintf(stderr, "  0x%016" PRIx64 " %s%s%s%s\n",
				shown[i].addr, shown[i].name,
				shown[i].module[0] ? " [" : "",
				shown[i].module, shown[i].module[0] ? "]" : "");
		if (shown[0].addr == 0)
			fprintf(stderr, "  (addresses are hidden: run as root "
				"or lower kernel.kptr_restrict)\n");
		return -EEXIST;
	}
	if (nvar) {
		fprintf(stderr, "rawprobectl: no function '%s'%s%s; the compiler "
			"renamed it, try:", symbol, module && *module ? " in " : "",
			module ? module : "");
		for (i = 0; i < nvar; i++)
			fprintf(stderr, " %s", variants[i]);
		fputc('\n', stderr);
		return -ENOENT;
	}
	return 0;	/* not found here: let the kernel give the reason */
}
