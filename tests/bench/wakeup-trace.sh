#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: who is late when a stream's reader sleeps in poll() past
# the wakeup watermark (tests/bench/drainlog.py's "late wakeup"). ROUNDS
# (default 40) tsc-clock kprobe streams on getpgid with drain logs, the
# getpgid loop on cpu0 and the reader on cpu1, with ftrace's view of the
# wake path on the mono trace clock (the drain log's): the writer's
# irq_work on cpu0 (irq_vectors:irq_work_entry), the reader's
# sched_wakeup and its sched_switch. A round whose reader slept more than
# 3 ms in poll() and woke to more than 4,096 records keeps its drain log
# and trace in the output directory (late-ROUND.log, trace-ROUND.txt):
#   tests/vm/run -k 6.12 -t 1200 -o DIR -- env ROUNDS=150 \
#       bash tests/bench/wakeup-trace.sh
# Not a test: a diagnosis (docs/performance.md, "The last losses").
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh
module_load || exit 1
T=/sys/kernel/tracing
echo mono > $T/trace_clock
echo 0 > $T/tracing_on
echo 8192 > $T/buffer_size_kb
echo 1 > $T/events/irq_vectors/irq_work_entry/enable
echo 'comm == "rawprobectl"' > $T/events/sched/sched_wakeup/filter
echo 1 > $T/events/sched/sched_wakeup/enable
echo 'next_comm == "rawprobectl" || prev_comm == "rawprobectl"' > $T/events/sched/sched_switch/filter
echo 1 > $T/events/sched/sched_switch/enable
$CTL ring set clock tsc
late=0
for r in $(seq 1 ${ROUNDS:-40}); do
	echo > $T/trace
	echo 1 > $T/tracing_on
	taskset -c 1 $CTL stream -e kprobe:__x64_sys_getpgid --drain-log /tmp/d.log > /dev/null 2>/tmp/e &
	pid=$!
	wait_for "grep -q ' __x64_sys_getpgid+0x' /sys/kernel/debug/kprobes/list" 100
	taskset -c 0 build/tools/getpgid_loop -b 5 100000 > /tmp/w
	kill -INT $pid; wait $pid
	echo 0 > $T/tracing_on
	lost=$(awk '$1 == "kprobe:__x64_sys_getpgid" { print $4 }' /tmp/e)
	if awk '!/^#/ && $2 > 3000000 && $5 > 4096 { f = 1 } END { exit !f }' /tmp/d.log; then
		late=$((late + 1))
		cp /tmp/d.log /rawprobe-out/late-$r.log
		cat $T/trace > /rawprobe-out/trace-$r.txt
		echo "round $r: late wakeup, lost $lost, $(cat /tmp/w)"
	else
		echo "round $r: lost $lost, $(cat /tmp/w)"
	fi
done
$CTL ring set clock auto
echo "late rounds: $late"
