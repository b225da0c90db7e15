/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of the ABI's enums, both ways, and record formatting.
 */
#ifndef RAWPROBECTL_FORMAT_H
#define RAWPROBECTL_FORMAT_H

#include <stddef.h>
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
const char *rp_clock_name(unsigned int clock);
int rp_clock_parse(const char *s);		/* -1 if unknown */
const char *rp_argtype_name(unsigned int type);
int rp_argtype_parse(const char *s);		/* -1 if unknown */
/* "s32,ustr,u64": fills types[], returns the count or a negative errno. */
int rp_argspec_parse(const char *spec, unsigned char *types);
/*
 * The same, and "fd:s32,buf:ptr" (a name for every argument or none):
 * names gets "fd,buf" (RAWPROBE_A_ARG_NAMES), or "" without names.
 */
int rp_argspec_parse_names(const char *spec, unsigned char *types,
			   char *names, size_t size);
/* Is s a C identifier of at most max bytes? */
int rp_is_ident(const char *s, size_t len, size_t max);

/* What stream prints per probe: its name and argument types. */
#define RP_PROBE_NAME_MAX 224
struct rp_probe_desc {
	uint32_t id;
	unsigned char kind;		/* enum rawprobe_kind */
	unsigned char is_addr;		/* the target is a raw address */
	unsigned char nargs;
	unsigned char argtypes[RAWPROBE_MAX_ARGS];
	char name[RP_PROBE_NAME_MAX];	/* "kretprobe:vfs_read" */
	/*
	 * The arguments are field fetches (RAWPROBE_A_FETCH): named by what
	 * they are (parameters, field paths), in any order, not by position.
	 */
	unsigned char by_name;
	unsigned char pad[2];		/* (a capture's probe item is 240 bytes) */
	/*
	 * Argument names (RAWPROBE_A_ARG_NAMES), set by rp_desc_set_names().
	 * Capture files keep them in an item of their own: the probe item
	 * is the part above (RP_DESC_CAPTURE_SIZE bytes).
	 */
	unsigned char name_off[RAWPROBE_MAX_ARGS], name_len[RAWPROBE_MAX_ARGS];
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* "fd,buf,count", or "" */
	/*
	 * The name's length if text prints it as it is (nothing to escape),
	 * set by rp_desc_name_ready(); 0: unknown, escaped at every record.
	 */
	unsigned char name_plain_len;
};
#define RP_DESC_CAPTURE_SIZE offsetof(struct rp_probe_desc, name_off)

/*
 * Name d's arguments from "fd,buf,count": one identifier or field path
 * (path.h: "skb->len") per argument (d->nargs of them). -EINVAL and no
 * names if names is not that.
 */
int rp_desc_set_names(struct rp_probe_desc *d, const char *names);
/* Once d->name is set: what text's lines need to copy it without a scan. */
void rp_desc_name_ready(struct rp_probe_desc *d);
static inline int rp_desc_has_names(const struct rp_probe_desc *d)
{
	return d && d->arg_names[0];
}

/*
 * What a named argument's value means beyond its number ("true", an
 * enumerator's name), or NULL. Set by whoever knows the types (BTF:
 * btf.c); NULL by default. Only identifiers of at most RP_ARG_LABEL_MAX
 * bytes are shown.
 */
#define RP_ARG_LABEL_MAX 64
typedef const char *(*rp_arg_label_fn)(const struct rp_probe_desc *d,
				       unsigned int i, uint64_t v);
void rp_format_set_labels(rp_arg_label_fn fn);

/*
 * How a kretprobe's return value v reads, from its function's type: *type
 * is RAWPROBE_ARG_S32, U32, S64, U64 or PTR (the register's bits above
 * a 32-bit type's are not the value's), and a label as rp_arg_label_fn's
 * ("true", an enumerator's name) or NULL. Set by whoever knows the types
 * (BTF: btf.c); by default, NULL: a signed 64-bit number.
 */
typedef const char *(*rp_ret_label_fn)(const struct rp_probe_desc *d,
				       uint64_t v, unsigned int *type);
void rp_format_set_ret_labels(rp_ret_label_fn fn);

/* The type of argument i of a record (u64 when d does not say). */
unsigned int rp_argtype_of(const struct rp_probe_desc *d, unsigned int i);
/* Is argument i of r the captured string (or its fault)? */
int rp_arg_is_str(const struct rawprobe_record *r, unsigned int i);
/* Did argument i's field fetch hit an unreadable address (no value)? */
static inline int rp_arg_faulted(const struct rawprobe_record *r,
				 unsigned int i)
{
	return i < RAWPROBE_MAX_ARGS && (r->fault_mask >> i) & 1;
}

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
