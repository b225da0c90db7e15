/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the ABI's enums, both ways, and record formatting.
 */
#ifndef RAWPROBECTL_FORMAT_H
#define RAWPROBECTL_FORMAT_H

#include <stdio.h>
#include "rawprobe.h"
#include "json.h"

const char *rp_kind_name(unsigned int kind);
int rp_kind_parse(const char *s);		/* -1 if unknown */
const char *rp_state_name(unsigned int state);
const char *rp_event_name(unsigned int event);
const char *rp_ring_mode_name(unsigned int mode);
int rp_ring_mode_parse(const char *s);		/* -1 if unknown */
const char *rp_argtype_name(unsigned int type);
int rp_argtype_parse(const char *s);		/* -1 if unknown */
/* "s32,ustr,u64": fills types[], returns the count or a negative errno. */
int rp_argspec_parse(const char *spec, unsigned char *types);

/* What stream prints per probe: its name and argument types. */
struct rp_probe_desc {
	char name[224];			/* "kretprobe:vfs_read" */
	unsigned char nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
};

/* One line of human output for a record. */
void rp_record_print(FILE *out, const struct rawprobe_record *r,
		     const struct rp_probe_desc *d, unsigned long long t0);
void rp_record_json(struct json *j, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);

#endif
