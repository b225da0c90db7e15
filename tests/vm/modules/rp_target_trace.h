/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rp_target's tracepoint: rp_target:rp_target_hit, fired by each read
 * of /proc/rp_target, a module's tracepoint that goes with the module.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rp_target

#if !defined(_RP_TARGET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RP_TARGET_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(rp_target_hit,
	TP_PROTO(int value, unsigned long calls),
	TP_ARGS(value, calls),
	TP_STRUCT__entry(
		__field(int, value)
		__field(unsigned long, calls)
	),
	TP_fast_assign(
		__entry->value = value;
		__entry->calls = calls;
	),
	TP_printk("value=%d calls=%lu", __entry->value, __entry->calls)
);

#endif /* _RP_TARGET_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rp_target_trace
#include <trace/define_trace.h>
