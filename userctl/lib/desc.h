/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a probe's records need to be read: its name, kind and arguments'
 * types and names (lib/desc.c). Made from the kernel's description of
 * the probe, or read back from a capture file.
 */
#ifndef RAWPROBECTL_DESC_H
#define RAWPROBECTL_DESC_H

#include <stddef.h>
#include <stdint.h>
#include "rawprobe.h"

/*
 * A kretprobe's return value's type, from its function's BTF (or a
 * capture that kept it): output cuts the register to it and prints it
 * so. RP_RET_RAW: not known (no BTF, a void or struct return, not a
 * kretprobe): the register as a signed 64-bit number.
 */
enum rp_ret_type {
	RP_RET_RAW,
	RP_RET_S64,
	RP_RET_U64,
	RP_RET_S32,
	RP_RET_U32,
	RP_RET_BOOL,
	RP_RET_PTR,
	RP_RET_MAX = RP_RET_PTR,
};

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
	/*
	 * A pair's end that writes records (latency --records): its
	 * records' RAWPROBE_REC_RETVAL means a latency since the start,
	 * end_task in retval's place (an override's entry records have the
	 * flag too, with a return value).
	 */
	unsigned char pair_end;
	unsigned char pad[1];		/* (a capture's probe item is 240 bytes) */
	/*
	 * Argument names (RAWPROBE_A_ARG_NAMES), set by rp_desc_set_names().
	 * Capture files keep them in an item of their own: the probe item
	 * is the part above (RP_DESC_CAPTURE_SIZE bytes).
	 */
	uint16_t name_off[RAWPROBE_MAX_ARGS], name_len[RAWPROBE_MAX_ARGS];
	/* each one's path: its name's, or an alias's (tx=sk->bytes_acked) */
	uint16_t path_off[RAWPROBE_MAX_ARGS], path_len[RAWPROBE_MAX_ARGS];
	char arg_names[RAWPROBE_ARG_NAMES_LEN];	/* "fd,buf,count", or "" */
	/*
	 * The name's length if text prints it as it is (nothing to escape),
	 * set by rp_desc_name_ready(); 0: unknown, escaped at every record.
	 */
	unsigned char name_plain_len;
	/*
	 * Which name that is: a number rp_desc_name_ready() hands out, one
	 * per call, if name_plain_len is set (else 0). Text keeps the name
	 * formatted with the record's head under this key (a copy of d
	 * carries its name and its key together).
	 */
	uint32_t name_key;
	/*
	 * Types argtypes do not say, from BTF (rp_btf_desc_types()) or a
	 * capture's types item: the return value's (enum rp_ret_type), and
	 * the arguments that are bools (bit i: argument i), which JSON and
	 * CSV print as true or false. types_known: looked for already.
	 */
	unsigned char ret_type, arg_bool, types_known;
	/*
	 * May the return value print as an enumerator (rp_btf_desc_types())?
	 * 0: not known, asked at each record (a capture's probes);
	 * RP_RET_LABEL_NONE: no, nothing to ask per record.
	 */
	unsigned char ret_label;
};
enum { RP_RET_LABEL_UNKNOWN, RP_RET_LABEL_NONE, RP_RET_LABEL_ENUM };
#define RP_DESC_CAPTURE_SIZE offsetof(struct rp_probe_desc, name_off)

/*
 * Name d's arguments from "fd,buf,count": one identifier or field path
 * (path.h: "skb->len"), or an alias of one ("len=skb->len"), per
 * argument (d->nargs of them). -EINVAL and no names if names is not
 * that.
 */
int rp_desc_set_names(struct rp_probe_desc *d, const char *names);
/*
 * The arguments that may be bools (bit i: argument i): those recorded as
 * 32-bit integers, as --args auto records a bool; one declared :u64 or
 * :hex is read as declared.
 */
unsigned char rp_desc_bool_args(const struct rp_probe_desc *d);
/* Once d->name is set: what text's lines need to copy it without a scan. */
void rp_desc_name_ready(struct rp_probe_desc *d);
static inline int rp_desc_has_names(const struct rp_probe_desc *d)
{
	return d && d->arg_names[0];
}

#endif
