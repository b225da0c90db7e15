// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel stacks (RAWPROBE_F_STACK, and an aggregate's stack key): the
 * callers of a probed function, at a function's entry.
 *
 * Modules may not call stack_trace_save_regs(), but x86's unwinder is
 * exported (__unwind_start() and the rest, EXPORT_SYMBOL_GPL), so the
 * walk starts where stack_trace_save_regs() starts it: at the probed
 * context's registers, its first frame the probed function, dropped
 * here. A walk from the handler (stack_trace_save()) would first climb
 * the handler's, kprobes' and ftrace's own frames, each an ORC lookup,
 * to throw them away: it took twice the instructions. If the unwinder
 * finds nothing, the word at the stack pointer, the return address at a
 * function's entry, is the one frame.
 *
 * A tracepoint's probe has no probed context's registers: its pt_regs
 * holds the event's arguments (kmod/tracepoint.c marks it). Its walk
 * starts here and leaves out rawprobe's own frames, however the
 * compiler inlined or split them: the first kept is the function that
 * hit the tracepoint (or the tracepoint's iterator, when several probes
 * share it), as perf and bpftrace show a tracepoint's stack.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/ptrace.h>
#include <asm/unwind.h>
#include "core.h"

static unsigned int rp_stack_save_here(u64 *frames, unsigned int max)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int k = 0;

	for (unwind_start(&state, current, NULL, NULL);
	     !unwind_done(&state) && k < max;
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (!within_module(addr, THIS_MODULE))
			frames[k++] = addr;
	}
	return k;
}
NOKPROBE_SYMBOL(rp_stack_save_here);

/**
 * rp_stack_tp_caller() - the function that hit a tracepoint: the first
 *	frame that is neither rawprobe's nor the tracepoint's iterator
 *	(through which it calls its probes when it has several)
 * @p: the tracepoint's probe
 *
 * Return: the return address into that function, or 0.
 */
unsigned long rp_stack_tp_caller(const struct rawprobe_probe *p)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int k = 0;

	for (unwind_start(&state, current, NULL, NULL);
	     !unwind_done(&state) && k++ < RAWPROBE_STACK_MAX;
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (!within_module(addr, THIS_MODULE) &&
		    (addr < p->tp_iter || addr >= p->tp_iter_end))
			return addr;
	}
	return 0;
}
NOKPROBE_SYMBOL(rp_stack_tp_caller);

unsigned int rp_stack_save_max(struct pt_regs *regs, u64 *frames,
			       unsigned int max)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int k = 0;

	if (regs->orig_ax == RP_REGS_TRACEPOINT)
		return rp_stack_save_here(frames, max);
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && k < max;
	     unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		if (addr != instruction_pointer(regs))
			frames[k++] = addr;
	}
	if (!k && max) {
		addr = regs_get_kernel_stack_nth(regs, 0);
		if (addr)
			frames[k++] = addr;
	}
	return k;
}
NOKPROBE_SYMBOL(rp_stack_save_max);

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
