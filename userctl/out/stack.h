/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel stacks in records (--stack, RAWPROBE_REC_STACK): the return
 * addresses the kernel put in the string area, and the names every
 * output gives them.
 */
#ifndef RAWPROBECTL_STACK_H
#define RAWPROBECTL_STACK_H

#include <stddef.h>
#include <stdint.h>
#include "lib/escape.h"
#include "out/format.h"
#include "lib/json.h"
#include "lib/outbuf.h"
#include "lib/symbols.h"

/*
 * The record's stack into frames[RAWPROBE_STACK_MAX]: the probed
 * function's callers, innermost first. Returns their count, 0 without a
 * stack (or with an empty one).
 */
unsigned int rp_stack_frames(const struct rawprobe_record *r,
			     uint64_t *frames);
static inline int rp_has_stack(const struct rawprobe_record *r)
{
	return !!(r->flags & RAWPROBE_REC_STACK);
}

/*
 * A frame as text, JSON, CSV, Perfetto and CTF name it: "ksys_read+0x6b",
 * "ext4_file_read_iter+0x10 [ext4]", or "0xffffffffa0001234" when the
 * address is in no known function; never "". Not escaped. In buf (of
 * RP_KSYM_MAX bytes) or in the symbol cache: valid until the next call.
 */
const char *rp_frame_str(uint64_t addr, char *buf, size_t *len);

/* The most rp_put_frame() writes: a symbol escaped (an address is less). */
#define RP_FRAME_TEXT_MAX	RP_ESCAPED_MAX(RP_KSYM_MAX - 1)
/* rp_frame_str() escaped at the cursor p, as text output shows it. */
char *rp_put_frame(char *p, uint64_t addr);

/* "stack": [frames...] of a record that has one. */
void rp_stack_json(struct json *j, const uint64_t *frames, unsigned int n);
/* The same, under key ("start_stack") */
void rp_stack_json_as(struct json *j, const char *key, const uint64_t *frames,
		      unsigned int n);

/*
 * Folded stacks (flamegraph.pl, speedscope): frames are function names
 * alone, root first, joined by ';'. What could hold a ';' (a command)
 * has it escaped as "\x3b", like the rest of what escape.h escapes.
 */
#define RP_FOLDED_NAME_MAX	RP_ESCAPED_MAX(255)
/*
 * The name alone of the function addr is in ("ksys_read"), or its
 * address as rp_frame_str() gives it; in buf (RP_KSYM_MAX bytes) or in
 * the symbols (then not NUL-terminated): *len bytes.
 */
const char *rp_frame_func(uint64_t addr, char *buf, size_t *len);
/* The same, escaped as folded stacks have it. */
char *rp_put_folded_name(char *p, uint64_t addr);
/* At most max bytes of s (up to a NUL), escaped, ';' too. */
char *rp_put_folded_str(char *p, const char *s, size_t max);
/*
 * "COMM;root;...;caller;FUNCTION 1": one record (-f folded). The most
 * it writes, and the same without the command and count (hist --stack).
 */
#define RP_FOLDED_STACK_MAX	((RAWPROBE_STACK_MAX + 1) * \
				 (RP_FOLDED_NAME_MAX + 1))
#define RP_FOLDED_LINE_MAX	(RP_ESCAPED_MAX(RAWPROBE_COMM_LEN) + 1 + \
				 RP_FOLDED_STACK_MAX + 1 + \
				 RP_U64_DIGITS_MAX + 1)
/*
 * Frames root first, then addr, the probed function; a tracepoint's
 * stack (addr 0) ends at its first frame, the function that hit it.
 */
char *rp_put_folded_stack(char *p, uint64_t addr, const uint64_t *frames,
			  unsigned int n);
void rp_record_folded(struct rp_outbuf *ob, const struct rawprobe_record *r);

#endif
