/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the ABI's enums, both ways, and record formatting.
 */
#ifndef RAWPROBECTL_FORMAT_H
#define RAWPROBECTL_FORMAT_H

#include <stdint.h>
#include <stdio.h>
#include "rawprobe.h"
#include "json.h"
#include "outbuf.h"

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
#define RP_PROBE_NAME_MAX 224
struct rp_probe_desc {
	uint32_t id;
	unsigned char kind;		/* enum rawprobe_kind */
	unsigned char is_addr;		/* the target is a raw address */
	unsigned char nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
	char name[RP_PROBE_NAME_MAX];	/* "kretprobe:vfs_read" */
};

/* The type of argument i of a record (u64 when d does not say). */
unsigned int rp_argtype_of(const struct rp_probe_desc *d, unsigned int i);
/* Is argument i of r the captured string (or its fault)? */
int rp_arg_is_str(const struct rawprobe_record *r, unsigned int i);

/*
 * One line of human output for a record: addresses of raw-address probes
 * and ptr arguments that point into kernel text are symbolized. The
 * command, names, symbols and strings are escaped (escape.h), as JSON
 * output escapes them its own way.
 */
void rp_record_text(struct rp_outbuf *ob, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);
void rp_record_json(struct json *j, const struct rawprobe_record *r,
		    const struct rp_probe_desc *d);

#endif
