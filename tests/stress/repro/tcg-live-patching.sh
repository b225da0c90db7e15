# SPDX-License-Identifier: GPL-2.0
# The guest panic of the stress load (docs/reliability.md), without
# rawprobe: ftrace kprobe events on the load's functions, enabled and
# disabled in a loop, while the load runs (and NMIs go to the other CPU,
# rp_nmi.ko). Under QEMU's multi-threaded TCG the guest jumps to address
# 0 on entry to one of the probed functions within seconds; with
# tests/vm/run --tcg-single it runs on. Not part of any suite; run it by
# hand:
#   tests/vm/run -k 6.1 -n -t 900 [--tcg-single] -- env R_SECS=150 \
#       tests/vm/suite.sh $PWD/tests/stress/repro/tcg-live-patching.sh
# R_NMI=0 runs it without the NMIs; R_TOGGLE=0 leaves the events
# enabled the whole time (no text patching while the load runs);
# R_INT3=1 puts the kprobes one instruction past the ftrace site (int3
# probes, not kprobes on ftrace) and leaves the kretprobes out.

S=$T_SCRATCH
NMI_KO=$(dirname "$KO")/test-modules/rp_nmi.ko
T=/sys/kernel/tracing

pick() {
	local s
	for s; do
		grep -qE "^[0-9a-f]+ [tT] $s\$" /proc/kallsyms && { echo "$s"; return; }
	done
}

# add_kprobe NAME FUNCTION: at the ftrace site, or with R_INT3=1 at the
# instruction after it (+9 after endbr64 and the 5-byte nop, else +5)
add_kprobe() {
	local off
	if [ "${R_INT3:-0}" = 1 ]; then
		for off in 9 5; do
			echo "p:$1 $2+$off" >> $T/kprobe_events 2>/dev/null &&
				return 0
		done
		echo "no int3 site in $2" >&2
		return 1
	fi
	echo "p:$1 $2" >> $T/kprobe_events
}

t_kprobe_events_under_load() {
	local pids="" i=0 f e
	rmmod rawprobe		# not in the kernel for this one
	[ "${R_NMI:-1}" = 1 ] && insmod "$NMI_KO"
	for f in __x64_sys_getpgid try_to_wake_up \
		 "$(pick kmem_cache_alloc_noprof kmem_cache_alloc)" \
		 hrtimer_interrupt run_timer_softirq vfs_read do_sys_openat2; do
		add_kprobe rp$i "$f"
		i=$((i + 1))
	done
	if [ "${R_INT3:-0}" != 1 ]; then
		echo "r:rpr0 vfs_read" >> $T/kprobe_events
		echo "r:rpr1 $(pick __kmalloc_noprof __kmalloc)" >> $T/kprobe_events
	fi
	echo 1 > $T/events/kprobes/enable
	echo "# $(grep -c . /sys/kernel/debug/kprobes/list) kprobes," \
		"$(grep -c FTRACE /sys/kernel/debug/kprobes/list) on ftrace"
	rm -f $S/stop
	trap 'touch $S/stop' EXIT
	( while [ ! -e $S/stop ]; do build/tools/getpgid_loop 20000 >/dev/null; done ) &
	pids+=" $!"
	( while [ ! -e $S/stop ]; do cat /proc/version /proc/stat >/dev/null; done ) &
	pids+=" $!"
	( while [ ! -e $S/stop ]; do sleep 0.01; done ) &
	pids+=" $!"
	if [ "${R_NMI:-1}" = 1 ]; then
		( while [ ! -e $S/stop ]; do echo 20 > /proc/rp_nmi; sleep 0.1; done ) &
		pids+=" $!"
	fi
	# a heartbeat on the console: a guest that hangs says when
	( while [ ! -e $S/stop ]; do
		echo "<2>repro: $(awk '{ s += $2 } END { print s }' \
			$T/kprobe_profile) hits" > /dev/kmsg
		sleep 10
	  done ) &
	pids+=" $!"
	[ "${R_TOGGLE:-1}" = 1 ] && ( while [ ! -e $S/stop ]; do
		for e in $T/events/kprobes/rp*/enable; do echo 0 > "$e"; done
		sleep 0.3
		for e in $T/events/kprobes/rp*/enable; do echo 1 > "$e"; done
		sleep 0.3
	  done ) &
	[ "${R_TOGGLE:-1}" = 1 ] && pids+=" $!"
	sleep "${R_SECS:-60}"
	touch $S/stop
	wait $pids
	echo 0 > $T/events/kprobes/enable
	echo > $T/kprobe_events
	[ "${R_NMI:-1}" = 1 ] && rmmod rp_nmi
	insmod "$KO"
}

tests t_kprobe_events_under_load
