/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rawprobe kernel API: write your own probe handlers in a module of your
 * own and let the core do the rest. The core registers the kprobe,
 * kretprobe or tracepoint probe, gives it an id, lists it in
 * `rawprobectl probe list`, and your records land in the same per-CPU
 * rings as every other probe's, so `rawprobectl stream` and `hist` show
 * them. Start from examples/ (examples/tp_sched_switch: a tracepoint).
 *
 *	static int my_entry(struct rawprobe_probe *probe, struct pt_regs *regs,
 *			    void *data)
 *	{
 *		rawprobe_emit(probe, rawprobe_arg(regs, 0));
 *		return 0;
 *	}
 *
 *	static const struct rawprobe_desc my_desc = {
 *		.name	= "my_probe",
 *		.symbol	= "kernel_clone",
 *		.kind	= RAWPROBE_KIND_KPROBE,
 *		.entry	= my_entry,
 *	};
 *
 *	probe = rawprobe_register(&my_desc);	// module init; IS_ERR() on failure
 *	rawprobe_unregister(probe);		// module exit
 *
 * Handlers run in probe context: preemption (and on some paths
 * interrupts) disabled, possibly in NMI. They must not sleep, take
 * sleeping locks or allocate; read memory the probed code did not hand
 * over with the *_nofault helpers (rawprobe_record_str() does).
 * Records may also be written from process context (init, a work item):
 * rawprobe_reserve() turns preemption off until the commit or discard.
 *
 * Every record costs one hit in the probe's statistics; a record that
 * does not fit (ring full) is counted as lost, so for every probe
 * hits == records + lost, as for the core's own probes.
 */
#ifndef _RAWPROBE_API_H
#define _RAWPROBE_API_H

#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/module.h>
#include "rawprobe.h"	/* uapi: struct rawprobe_record, RAWPROBE_KIND_* */

struct rawprobe_probe;	/* opaque: the handle rawprobe_register() returns */
struct rp_ring;

/**
 * typedef rawprobe_entry_fn - a probe's entry handler
 * @probe: the probe that was hit
 * @regs: the registers at the probed instruction
 * @data: kretprobes: the call's data area (&rawprobe_desc.data_size
 *        bytes, shared with the return handler); NULL otherwise
 *
 * Called in probe context when the probed instruction is hit (kprobes,
 * jprobe-style probes), at function entry (kretprobes), or when the
 * event fires (tracepoints: @regs holds the event's arguments in the
 * places of a function's, see rawprobe_arg()).
 *
 * Return: 0, or from a kretprobe's entry handler non-zero to skip the
 * return handler for this call (e.g. a filter said no). A handler that
 * overrides the return value returns what rawprobe_override_return()
 * returned.
 */
typedef int (*rawprobe_entry_fn)(struct rawprobe_probe *probe,
				 struct pt_regs *regs, void *data);

/**
 * typedef rawprobe_return_fn - a kretprobe's return handler
 * @probe: the probe
 * @regs: the registers at the return; regs_return_value() gives the
 *        return value
 * @data: the call's data area, as the entry handler left it
 *
 * Called in probe context when the probed function returns.
 *
 * Return: 0.
 */
typedef int (*rawprobe_return_fn)(struct rawprobe_probe *probe,
				  struct pt_regs *regs, void *data);

/**
 * struct rawprobe_desc - what a probe module asks for
 * @name: the name rawprobectl shows, at most 63 bytes
 * @symbol: "function" or "module:function"; for a tracepoint
 *          "SUBSYSTEM:EVENT" as tracefs names it ("sched:sched_switch"),
 *          the whole string the event's name, no module in it
 * @offset: kprobes: bytes into the function
 * @kind: %RAWPROBE_KIND_KPROBE, %RAWPROBE_KIND_KRETPROBE,
 *        %RAWPROBE_KIND_JPROBE or %RAWPROBE_KIND_TRACEPOINT
 * @entry: the entry handler (required but for kretprobes)
 * @ret: kretprobes only: the return handler
 * @data_size: kretprobes: bytes of per-call data for @entry and @ret
 * @maxactive: kretprobes: instances, 0 for the kernel's default
 * @flags: %RAWPROBE_DESC_DISABLED (register disarmed),
 *         %RAWPROBE_DESC_OVERRIDE (@entry may override the return value)
 * @priv: yours, returned by rawprobe_priv()
 *
 * The core reads it at rawprobe_register() and keeps the pointer: it
 * must stay valid until rawprobe_unregister() (a static const is best).
 *
 * A tracepoint probe (%RAWPROBE_KIND_TRACEPOINT) takes a tracepoint (a
 * module's goes and comes back with its module; a syscalls:sys_enter_NAME
 * event passes the syscall's arguments, sys_exit_NAME its return value)
 * and only an entry handler: @ret, @data_size, @maxactive, @offset and
 * %RAWPROBE_DESC_OVERRIDE are refused (-EINVAL). @entry is called with the event's arguments, as
 * rawprobe_arg() tells; disarmed (%RAWPROBE_DESC_DISABLED, `rawprobectl
 * probe disable`) it stays attached and is not called.
 */
struct rawprobe_desc {
	const char *name;	/* shown by rawprobectl, at most 63 bytes */
	const char *symbol;	/* "function", "module:function", or a
				 * tracepoint's "SUBSYSTEM:EVENT"
				 */
	unsigned int offset;	/* kprobes: bytes into the function */
	u8 kind;		/* RAWPROBE_KIND_KPROBE, _KRETPROBE, _JPROBE,
				 * _TRACEPOINT
				 */
	rawprobe_entry_fn entry;
	rawprobe_return_fn ret;	/* kretprobes only */
	size_t data_size;	/* kretprobes: per-call data for entry/ret */
	unsigned int maxactive;	/* kretprobes: 0 for the kernel's default */
	unsigned int flags;	/* RAWPROBE_DESC_* */
	void *priv;		/* yours: rawprobe_priv() */
	const char *session;	/* a named session's rings (`rawprobectl
				 * ring create NAME`), or NULL: the default
				 * session's, which `stream` reads
				 */
};

#define RAWPROBE_DESC_DISABLED	(1U << 0)	/* register disarmed */
#define RAWPROBE_DESC_OVERRIDE	(1U << 1)	/* entry may override return */

#define RAWPROBE_NAME_LEN	64

/**
 * __rawprobe_register() - register a probe owned by a module
 * @desc: what to probe and with which handlers
 * @owner: the owning module; use rawprobe_register(), which passes
 *         THIS_MODULE
 *
 * Registers the kprobe, kretprobe or tracepoint probe, gives it an id
 * and lists it in
 * `rawprobectl probe list`; the first probe allocates the rings. The
 * probe belongs to @owner: user space cannot delete it, and the core
 * removes it, with a warning, if the module unloads without
 * rawprobe_unregister(). Process context; may sleep.
 *
 * Return: the probe, or an ERR_PTR() (the reason is also logged).
 */
struct rawprobe_probe *__rawprobe_register(const struct rawprobe_desc *desc,
					   struct module *owner);

/**
 * rawprobe_register() - register a probe owned by the calling module
 * @desc: what to probe and with which handlers
 *
 * Return: the probe, or an ERR_PTR(); see __rawprobe_register().
 */
#define rawprobe_register(desc) __rawprobe_register(desc, THIS_MODULE)

/**
 * rawprobe_unregister() - remove a probe
 * @probe: what rawprobe_register() returned; NULL and ERR_PTR() values
 *         are ignored
 *
 * Disarms and unregisters the probe and waits until no handler runs
 * it. Process context; may sleep. Call it from module exit.
 */
void rawprobe_unregister(struct rawprobe_probe *probe);

/**
 * rawprobe_id() - a probe's id
 * @probe: the probe
 *
 * Return: the id `rawprobectl probe list` shows and records carry.
 */
u32 rawprobe_id(const struct rawprobe_probe *probe);

/**
 * rawprobe_priv() - a probe's private pointer
 * @probe: the probe
 *
 * Return: &rawprobe_desc.priv of the probe's description.
 */
void *rawprobe_priv(const struct rawprobe_probe *probe);

/**
 * struct rawprobe_stats - a probe's counters, summed over CPUs
 * @hits: records attempted: rawprobe_reserve() and rawprobe_emit() calls
 * @records: records committed
 * @lost: records that found the ring full
 * @missed: kprobe recursion and kretprobe maxactive misses
 *
 * hits = records + lost + the records given up with rawprobe_discard()
 * (which `rawprobectl probe list` shows as FILTERED).
 */
struct rawprobe_stats {
	u64 hits;
	u64 records;
	u64 lost;
	u64 missed;
};

/**
 * rawprobe_get_stats() - read a probe's counters
 * @probe: the probe
 * @stats: filled with the sums over every CPU
 *
 * Any context.
 */
void rawprobe_get_stats(const struct rawprobe_probe *probe,
			struct rawprobe_stats *stats);

/* --- records --- */

/**
 * struct rawprobe_slot - a reserved record, private to the core
 * @ring: the ring it is on
 * @rec: the record
 * @pos: its position in the ring
 *
 * Lives on the writer's stack from rawprobe_reserve() to
 * rawprobe_commit() or rawprobe_discard().
 */
struct rawprobe_slot {
	struct rp_ring *ring;
	struct rawprobe_record *rec;
	u64 pos;
};

/**
 * rawprobe_reserve() - reserve a record on this CPU's ring
 * @probe: the probe the record belongs to
 * @slot: filled for rawprobe_commit() or rawprobe_discard()
 *
 * The record's header (time, sequence, cpu, pid, comm, probe id, kind,
 * address) is filled. Fill what you need, add the matching
 * RAWPROBE_REC_* flags with |= (flags already says which clock ts_ns
 * is), then call rawprobe_commit(). Every reserved record must be
 * committed or discarded, at once and on every path: a record left
 * alone stops the reader at it for good. Preemption is off from here to
 * the commit or discard, so nothing in between may sleep.
 *
 * Context: a handler, or process context (module init, a work item).
 * Return: the record, or NULL when the ring is full (counted as lost):
 * just return.
 */
struct rawprobe_record *rawprobe_reserve(struct rawprobe_probe *probe,
					 struct rawprobe_slot *slot);

/**
 * rawprobe_commit() - publish a reserved record to readers
 * @probe: the probe that reserved it
 * @slot: what rawprobe_reserve() filled
 *
 * Context: right after rawprobe_reserve(), on the same CPU; enables
 * preemption again.
 */
void rawprobe_commit(struct rawprobe_probe *probe, struct rawprobe_slot *slot);

/**
 * rawprobe_clock() - read the clock of the records' ts_ns
 *
 * A latency_ns is the difference of two readings, as the
 * kretprobe_latency example takes it; readers convert it as they
 * convert ts_ns.
 *
 * Return: CLOCK_MONOTONIC nanoseconds, or TSC cycles when the rings use
 * the tsc clock (`ring set clock tsc`).
 */
u64 rawprobe_clock(void);

/**
 * rawprobe_discard() - give a reserved record up
 * @probe: the probe that reserved it
 * @slot: what rawprobe_reserve() filled
 *
 * For an early return: nothing worth recording after all. Readers skip
 * the record, no sequence gap is reported, and the hit counts as
 * filtered.
 *
 * Context: as rawprobe_commit(); enables preemption again.
 */
void rawprobe_discard(struct rawprobe_probe *probe, struct rawprobe_slot *slot);

/**
 * __rawprobe_emit() - write a record of values in one call
 * @probe: the probe
 * @args: the values
 * @nargs: how many; past %RAWPROBE_MAX_ARGS the rest are dropped
 *
 * Use rawprobe_emit(), which counts the values itself.
 *
 * Return: 0, or -ENOSPC when the ring is full (counted as lost).
 */
int __rawprobe_emit(struct rawprobe_probe *probe, const u64 *args,
		    unsigned int nargs);

/**
 * rawprobe_emit() - write a record of up to %RAWPROBE_MAX_ARGS values
 * @probe: the probe
 * @...: the values, each converted to u64
 *
 * Return: 0, or -ENOSPC when the ring is full (counted as lost).
 */
#define rawprobe_emit(probe, ...)					\
	__rawprobe_emit(probe, ((const u64[]){ 0, ##__VA_ARGS__ }) + 1,	\
			sizeof((const u64[]){ 0, ##__VA_ARGS__ }) /	\
			sizeof(u64) - 1)

/* --- arguments and strings --- */

/**
 * rawprobe_arg() - an argument of the probed function, or of the event
 * @regs: the registers the handler was given
 * @n: the argument's position, from 0; the first six are in registers
 *
 * Valid only at the function's entry.
 *
 * In a tracepoint probe's handler, argument @n is the event's, in the
 * order of its TP_PROTO in include/trace/events/ (six at most): for
 * sched:sched_switch on 6.1 and 6.12, (bool preempt, struct task_struct
 * *prev, struct task_struct *next, unsigned int prev_state), so prev is
 * argument 1; for sched:sched_process_exec, (struct task_struct *p,
 * pid_t old_pid, struct linux_binprm *bprm). Cast each to its type: an
 * argument narrower than 64 bits (a bool, an int) holds only its own
 * width, the bits above are the caller's leftovers, and an argument
 * past the event's count is garbage. `rawprobectl btf show
 * tracepoint:SUBSYSTEM:EVENT` prints the running kernel's prototype.
 * There are no other registers: instruction_pointer(@regs) is the
 * probe's address (the records' addr), not code, and the stack pointer
 * the handler's own, so a stack is walked from the handler
 * (stack_trace_save()): rawprobe's and the tracepoint's frames first,
 * then the function that hit the event.
 *
 * Return: the argument's register value.
 */
static inline unsigned long rawprobe_arg(struct pt_regs *regs, unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}

/**
 * rawprobe_record_str() - copy a string into a reserved record
 * @probe: the probe that reserved @rec
 * @rec: the record
 * @src: a NUL-terminated string
 * @user: @src is a user pointer
 *
 * Copies without faulting into rec->str and sets str_len and the
 * RAWPROBE_REC_STR, _STR_TRUNC or _STR_FAULT flags.
 *
 * Return: the length copied, or -EFAULT.
 */
long rawprobe_record_str(struct rawprobe_probe *probe,
			 struct rawprobe_record *rec, const void *src,
			 bool user);

/**
 * rawprobe_override_return() - make the probed function return at once
 * @probe: a probe registered with %RAWPROBE_DESC_OVERRIDE
 * @regs: the registers the entry handler was given
 * @rc: the value the function returns, without running
 *
 * Fault injection, from the entry handler:
 * ``return rawprobe_override_return(probe, regs, rc);``
 * The rules of ``rawprobectl --override`` apply (docs/design.md): the
 * core accepts %RAWPROBE_DESC_OVERRIDE only on system call entry points
 * (__x64_sys_*, any @rc), the allocators' fault hooks (should_failslab:
 * an errno; should_fail_alloc_page: 1) and their entry points (0), only
 * where the kprobe sits on the function's ftrace site, and not while the
 * kernel is locked down. An allocation made with __GFP_NOFAIL is never
 * failed. See examples/error_inject.
 *
 * Return: 1, what the handler must return, or 0 if the function runs
 * after all (@rc does not fit what it returns, or it must not fail).
 */
int rawprobe_override_return(struct rawprobe_probe *probe,
			     struct pt_regs *regs, unsigned long rc);

/* --- pairs: the time between two handlers that see one object --- */

struct rawprobe_pair;	/* opaque: a table of starts, shared by all CPUs */

/**
 * struct rawprobe_pair_stats - where a pair's starts and ends went
 * @starts: starts stored (a key's second start replaces its first)
 * @matched: ends that found their start
 * @no_start: ends that found none (or one expired)
 * @full: starts that found no room
 * @expired: starts dropped for age
 * @replaced: starts dropped for a later start of their key
 * @pending: starts waiting; at rest starts == matched + expired +
 *	replaced + pending
 */
struct rawprobe_pair_stats {
	u64 starts, matched, no_start, full, expired, replaced, pending;
};

/**
 * rawprobe_pair_create() - a table of starts for a start and an end handler
 * @max_keys: starts it has room for at least at once (0: 1024; at most
 *	65536)
 * @expire_ms: a start older than this is dropped, counted as expired
 *	(0: never)
 *
 * What `rawprobectl latency` builds on: a start handler stores the time
 * under a key (a pointer, a pid), an end handler on any CPU takes its
 * key's start out and gets the time since. Lock-free, safe in any
 * context a handler runs in, IRQ and NMI included. Process context; may
 * sleep.
 *
 * Return: the pair, or an ERR_PTR().
 */
struct rawprobe_pair *rawprobe_pair_create(u32 max_keys, u32 expire_ms);

/**
 * rawprobe_pair_destroy() - free a pair, once no handler can use it
 * @pair: from rawprobe_pair_create(); NULL or an ERR_PTR() is ignored
 *
 * Unregister the probes whose handlers use it first.
 */
void rawprobe_pair_destroy(struct rawprobe_pair *pair);

/**
 * rawprobe_pair_start() - store the time under @key
 * @pair: the pair
 * @key: the object that links the start to its end
 */
void rawprobe_pair_start(struct rawprobe_pair *pair, u64 key);

/**
 * rawprobe_pair_end() - take @key's start out: the time since it
 * @pair: the pair
 * @key: the object, as the start handler gave it
 * @latency_ns: the nanoseconds since its start, when there was one
 *
 * Return: 0, or -ENOENT when no start was stored (or it had expired).
 */
int rawprobe_pair_end(struct rawprobe_pair *pair, u64 key, u64 *latency_ns);

/**
 * rawprobe_pair_get_stats() - where its starts and ends went
 * @pair: the pair
 * @stats: filled in; expired starts are swept out first
 *
 * Process context.
 */
void rawprobe_pair_get_stats(struct rawprobe_pair *pair,
			     struct rawprobe_pair_stats *stats);

/* --- jprobe-style handlers with the probed function's prototype --- */

#define __RP_NARGS(...) __RP_NARGS_(__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6,	\
				    5, 4, 3, 2, 1, 0)
#define __RP_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, N,	\
		    ...) N
#define __RP_CAT(a, b) __RP_CAT_(a, b)
#define __RP_CAT_(a, b) a##b
#define __RP_MAP(m, ...)						\
	__RP_CAT(__RP_MAP, __RP_NARGS(__VA_ARGS__))(m, 0, __VA_ARGS__)
#define __RP_MAP2(m, i, t, a) m(i, t, a)
#define __RP_MAP4(m, i, t, a, ...) m(i, t, a), __RP_MAP2(m, i + 1, __VA_ARGS__)
#define __RP_MAP6(m, i, t, a, ...) m(i, t, a), __RP_MAP4(m, i + 1, __VA_ARGS__)
#define __RP_MAP8(m, i, t, a, ...) m(i, t, a), __RP_MAP6(m, i + 1, __VA_ARGS__)
#define __RP_MAP10(m, i, t, a, ...) m(i, t, a), __RP_MAP8(m, i + 1, __VA_ARGS__)
#define __RP_MAP12(m, i, t, a, ...) m(i, t, a), __RP_MAP10(m, i + 1, __VA_ARGS__)
#define __RP_DECL(i, t, a) t a
#define __RP_FETCH(i, t, a) ((t)rawprobe_arg(regs, i))

/**
 * RAWPROBE_JPROBE() - define a handler with the probed function's prototype
 * @name: the &rawprobe_entry_fn to define, for a %RAWPROBE_KIND_JPROBE desc
 * @...: type1, arg1, type2, arg2, ...: the probed function's parameters
 *
 * Declares a handler that receives the probed function's arguments
 * typed, as jprobes did, in the style of SYSCALL_DEFINEx:
 *
 *	RAWPROBE_JPROBE(openat2_entry, int, dfd,
 *			const char __user *, filename, struct open_how *, how)
 *	{
 *		... use dfd, filename, how, probe and regs ...
 *		return 0;
 *	}
 *
 * The body also sees probe and regs. Up to six arguments, each passed
 * in a register (integers and pointers; not structures passed by
 * value). Valid only at the function's entry.
 */
#define RAWPROBE_JPROBE(name, ...)					\
	static int name##_typed(struct rawprobe_probe *probe,		\
				struct pt_regs *regs,			\
				__RP_MAP(__RP_DECL, __VA_ARGS__));	\
	static int name(struct rawprobe_probe *probe,			\
			struct pt_regs *regs, void *data)		\
	{								\
		return name##_typed(probe, regs,			\
				    __RP_MAP(__RP_FETCH, __VA_ARGS__));	\
	}								\
	static int name##_typed(struct rawprobe_probe *probe,		\
				struct pt_regs *regs,			\
				__RP_MAP(__RP_DECL, __VA_ARGS__))

#endif /* _RAWPROBE_API_H */
