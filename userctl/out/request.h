/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A probe request's compiled fields as --dry-run shows them (fetch
 * programs, value filter terms), from the uapi structs alone.
 */
#ifndef RAWPROBECTL_REQUEST_H
#define RAWPROBECTL_REQUEST_H

#include <stddef.h>
#include "rawprobe.h"
#include "lib/json.h"

/* What --dry-run shows: "src=arg0 loads=112 size=8 signed" */
void rp_fetch_str(const struct rawprobe_fetch *f, char *buf, size_t len);
const char *rp_cmp_name(unsigned int cmp);
void rp_fetch_json(struct json *j, const struct rawprobe_fetch *f);
/*
 * "value_filter": {"text": ..., "terms": [...]} of a --filter: its text,
 * its nterms terms t, and strs, the string constants they point into.
 */
void rp_value_filter_json(struct json *j, const char *text,
			  const struct rawprobe_value_term *t,
			  unsigned int nterms, const char *strs);

#endif
