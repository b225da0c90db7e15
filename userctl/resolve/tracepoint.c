// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoint targets: "tracepoint:SUBSYSTEM:EVENT" (or bpftrace's
 * "t:"), the event as tracefs' available_events names it, or a glob of
 * them ("sched:sched_*", expanded by glob.c). The request's symbol is
 * "SUBSYSTEM:EVENT"; the kernel attaches to that event's tracepoint.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/cli.h"
#include "lib/symbols.h"
#include "lib/tracefs.h"
#include "resolve/btf_int.h"
#include "resolve/glob.h"
#include "resolve/probe_req.h"

/*
 * A subsystem's or an event's name, [A-Za-z0-9_]+, or (glob) a glob of
 * them: its length.
 */
static size_t rp_tp_word(const char *s, bool glob)
{
	size_t n = 0;

	while (isalnum((unsigned char)s[n]) || s[n] == '_' ||
	       (glob && strchr("*?[]!", s[n]) && s[n]))
		n++;
	return n;
}

int rp_tp_target_parse(const char *target, struct rp_probe_req *req)
{
	bool glob = rp_glob_is(target);
	size_t sys = rp_tp_word(target, glob), ev;

	if (glob && !rp_glob_valid(target))
		return rp_usage_error("bad glob 'tracepoint:%s': a '[' without "
				      "its ']'", target);
	req->glob = glob;
	ev = target[sys] == ':' ? rp_tp_word(target + sys + 1, glob) : 0;
	if (!sys || !ev || target[sys + 1 + ev] ||
	    strlen(target) >= sizeof(req->symbol))
		return rp_usage_error("a tracepoint is tracepoint:SUBSYSTEM:EVENT "
				      "(tracepoint:sched:sched_switch), not "
				      "'%s'", target);
	snprintf(req->symbol, sizeof(req->symbol), "%s", target);
	return 0;
}

/* A FILE's whole text, NUL-terminated (closed); NULL if it cannot */
static char *rp_tp_slurp(FILE *f)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *nb;

	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		len += fread(buf + len, 1, cap - len - 1, f);
	} while (!feof(f) && !ferror(f));
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/*
 * Is "SUBSYSTEM:EVENT" in available_events? 0 if it is or cannot be
 * told (the kernel judges), -ENOENT after saying so, with the event of
 * that name in another subsystem, and the nearest names.
 */
int rp_tp_check(const char *event)
{
	char path[PATH_MAX], *text, *line, *next;
	const char *name = strchr(event, ':') + 1, *other = NULL;
	FILE *f = rp_tracefs_open("available_events", path, sizeof(path));
	struct rp_btf_near best[RP_BTF_NEAR];
	int nbest = 0, score;

	text = f ? rp_tp_slurp(f) : NULL;
	if (!text)
		return 0;
	for (line = text; *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (!strcmp(line, event)) {
			free(text);
			return 0;
		}
		if (!other && strchr(line, ':') && !strcmp(strchr(line, ':') + 1, name))
			other = line;
		score = rp_near_score(event, line);
		if (score >= 0)
			rp_btf_near_add(best, &nbest, score, line);
	}
	fprintf(stderr, "rawprobectl: tracepoint:%s: no such event in %s%s%s%s\n",
		event, path, other ? " (there is tracepoint:" : "",
		other ? other : "", other ? ")" : "");
	if (!other)
		rp_btf_near_print(best, nbest);
	free(text);
	return -ENOENT;
}
