// SPDX-License-Identifier: GPL-2.0
/*
 * A probe request's target: parsed from "SYMBOL[+OFFSET]",
 * "MODULE:SYMBOL[+OFFSET]", "0xADDRESS" or a glob ("tcp_*",
 * "MODULE:GLOB", expanded by rp_probe_reqs_expand()), and whether it is a named
 * function's entry, where arguments, fetches and stacks are defined.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "lib/cli.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

/* kallsyms names: C identifiers plus the compiler's '.' suffixes. */
static int rp_name_ok(const char *s, const char *extra)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && !strchr(extra, *s))
			return 0;
	return 1;
}

/*
 * A glob names functions' entries (no +OFFSET), with the characters of
 * names and of fnmatch()'s sets; -EILSEQ where fnmatch() would read a
 * '[' without its ']' as the character itself.
 */
static int rp_glob_target(const char *sym, bool offset,
			  struct rp_probe_req *req)
{
	if (offset)
		return -EDOM;
	if (!rp_name_ok(sym, ".$*?[]!^-") || !rp_glob_valid(sym))
		return -EILSEQ;
	strcpy(req->symbol, sym);
	return 0;
}

int rp_target_parse(const char *s, struct rp_probe_req *req)
{
	char buf[256], *sym = buf, *colon, *plus;
	uint64_t v;

	if (!*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	if (!strncmp(s, "0x", 2))
		return rp_parse_u64(s, 1, UINT64_MAX, &req->addr);
	strcpy(buf, s);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		if (!*buf || strlen(buf) >= sizeof(req->module) ||
		    !rp_name_ok(buf, "-"))
			return -EINVAL;
		strcpy(req->module, buf);
		sym = colon + 1;
	}
	plus = strchr(sym, '+');
	if (plus) {
		*plus = '\0';
		if (rp_parse_u64(plus + 1, 0, RAWPROBE_MAX_OFFSET, &v))
			return -ERANGE;
		req->offset = (uint32_t)v;
	}
	if (!*sym || strlen(sym) >= sizeof(req->symbol))
		return -EINVAL;
	req->glob = rp_glob_is(sym);
	if (req->glob)
		return rp_glob_target(sym, plus != NULL, req);
	if (!rp_name_ok(sym, ".$"))
		return -EINVAL;
	strcpy(req->symbol, sym);
	return 0;
}

/* Option what needs r at a named function's entry: why, if it is not. */
int rp_entry_needed(const struct rp_probe_req *r, const char *what,
		    const char *why_name, const char *why_entry)
{
	if (!r->symbol[0])
		return rp_usage_error("%s needs a function's name, not an "
				      "address: %s", what, why_name);
	if (r->offset)
		return rp_usage_error("%s: %s%s%s+0x%x is not a function's "
				      "entry, %s", what, r->module,
				      r->module[0] ? ":" : "", r->symbol,
				      r->offset, why_entry);
	return RP_EXIT_OK;
}

int rp_entry_check(const struct rp_probe_req *r, const char *what)
{
	return rp_entry_needed(r, what, "its types come from BTF",
			       "where arguments are defined");
}
