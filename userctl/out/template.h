/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --template: a line of text per record, as a tool prints its rows: the
 * template's text with each {FIELD} or {FIELD:SPEC} replaced by that
 * field of the record, then a newline.
 *
 *   FIELD   time (the wall clock; SPEC: strftime's, default %H:%M:%S),
 *           ts (seconds since boot, as text output's first column),
 *           cpu, pid (the thread), tid (the same), tgid, comm, probe,
 *           retval, latency (ns), latency_us, latency_ms, str (the
 *           record's own string), argN, or an argument's name (--args
 *           NAME, a field path's text) shown as text output shows it:
 *           enums and bools by name, strings unquoted (escaped)
 *   SPEC    [-]WIDTH: padded to WIDTH columns, on the left with '-' (as
 *           printf's %-16s); time's: a strftime format
 *   {{ }}   literal braces; \n and \t a newline and a tab
 *
 * A field the record does not carry (a name its probe has not, retval
 * at entry) is "-".
 */
#ifndef RAWPROBECTL_OUT_TEMPLATE_H
#define RAWPROBECTL_OUT_TEMPLATE_H

#include "rawprobe.h"
#include "lib/desc.h"
#include "lib/outbuf.h"

struct rp_template;

/*
 * Compile src into *out (rp_template_free() it); a usage error naming
 * what is wrong (an unknown field, a brace left open, a bad width).
 */
int rp_template_compile(const char *src, struct rp_template **out);
void rp_template_free(struct rp_template *t);
/* Record r of probe d (NULL: gone) as t's line */
void rp_record_template(struct rp_outbuf *ob, const struct rawprobe_record *r,
			const struct rp_probe_desc *d,
			const struct rp_template *t);

#endif
