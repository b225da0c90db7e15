// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks (RAWPROBE_F_STACK): the callers of a probed function, in
 * the record's string area, at a function's entry only.
 *
 * Modules may call stack_trace_save() but not stack_trace_save_regs(),
 * so the walk starts in the handler, above kprobes' and ftrace's frames.
 * At a function's entry the word at the probed context's stack pointer
 * is the return address into its caller: the walk's frames before that
 * one are the machinery's, and are dropped. If the unwinder never
 * reaches it, the caller alone is recorded.
 */
#include <linux/kprobes.h>
#include <linux/stacktrace.h>
#include "core.h"

/* Room for the frames of the handler, kprobes and ftrace, then ours. */
#define RP_STACK_WALK	(RAWPROBE_STACK_MAX + 16)

unsigned int rp_stack_save(struct pt_regs *regs, u64 *frames)
{
	unsigned long walk[RP_STACK_WALK];
	unsigned long ret = regs_get_kernel_stack_nth(regs, 0);
	unsigned int n, i, k = 0;

	if (!ret)
		return 0;
	n = stack_trace_save(walk, ARRAY_SIZE(walk), 0);
	for (i = 0; i < n && walk[i] != ret; i++)
		;
	if (i == n) {
		frames[0] = ret;
		return 1;
	}
	while (i < n && k < RAWPROBE_STACK_MAX)
		frames[k++] = walk[i++];
	return k;
}
NOKPROBE_SYMBOL(rp_stack_save);

/* Into the record, where a string would go, flagged as a stack. */
void rp_stack_record(struct rawprobe_record *rec, const u64 *frames,
		     unsigned int n)
{
	if (frames != (const u64 *)rec->str)
		memcpy(rec->str, frames, n * sizeof(*frames));
	rec->str_len = n * sizeof(*frames);
	rec->flags |= RAWPROBE_REC_STACK;
}
NOKPROBE_SYMBOL(rp_stack_record);

/* An entry probe's hit: straight into the record. */
void rp_stack_emit(struct pt_regs *regs, struct rawprobe_record *rec)
{
	u64 *frames = (u64 *)rec->str;

	rp_stack_record(rec, frames, rp_stack_save(regs, frames));
}
NOKPROBE_SYMBOL(rp_stack_emit);
