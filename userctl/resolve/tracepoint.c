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
#include <string.h>
#include "lib/cli.h"
#include "lib/tracefs.h"
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

/*
 * Is "SUBSYSTEM:EVENT" in available_events? 0 if it is or cannot be
 * told (the kernel judges), -ENOENT after saying so.
 */
int rp_tp_check(const char *event)
{
	char path[PATH_MAX], line[256];
	const char *name = strchr(event, ':') + 1;
	FILE *f = rp_tracefs_open("available_events", path, sizeof(path));
	int found = 0, other = 0;
	char near[256] = "";

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		found = !strcmp(line, event);
		if (!found && !other && !strcmp(strchr(line, ':') ?
						 strchr(line, ':') + 1 : "", name)) {
			other = 1;
			snprintf(near, sizeof(near), "%s", line);
		}
	}
	fclose(f);
	if (found)
		return 0;
	fprintf(stderr, "rawprobectl: tracepoint:%s: no such event in %s%s%s%s\n",
		event, path, other ? " (there is tracepoint:" : "",
		other ? near : "", other ? ")" : "");
	return -ENOENT;
}
