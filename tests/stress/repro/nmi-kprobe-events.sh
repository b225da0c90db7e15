# SPDX-License-Identifier: GPL-2.0
# The guest panic of the stress load (docs/reliability.md), without
# rawprobe: ftrace kprobe events on the load's functions, enabled and
# disabled in a loop, while NMIs go to the other CPU (rp_nmi.ko) and the
# load runs. On Debian 6.12 under TCG the guest jumps to address 0 on
# entry to one of the probed functions within a few minutes. Not part of
# any suite; run it by hand:
#   tests/vm/run -k 6.12 -n -t 900 -- env R_SECS=150 \
#       tests/vm/suite.sh tests/stress/repro/nmi-kprobe-events.sh
# R_NMI=0 runs it without the NMIs.

S=$T_SCRATCH
NMI_KO=$(dirname "$KO")/test-modules/rp_nmi.ko
T=/sys/kernel/tracing

pick() {
	local s
	for s; do
		grep -qE "^[0-9a-f]+ [tT] $s\$" /proc/kallsyms && { echo "$s"; return; }
	done
}

t_nmi_kprobe_events() {
	local pids="" i=0 f e
	rmmod rawprobe		# not in the kernel for this one
	[ "${R_NMI:-1}" = 1 ] && insmod "$NMI_KO"
	for f in __x64_sys_getpgid try_to_wake_up \
		 "$(pick kmem_cache_alloc_noprof kmem_cache_alloc)" \
		 hrtimer_interrupt run_timer_softirq vfs_read do_sys_openat2; do
		echo "p:rp$i $f" >> $T/kprobe_events
		i=$((i + 1))
	done
	echo "r:rpr0 vfs_read" >> $T/kprobe_events
	echo "r:rpr1 $(pick __kmalloc_noprof __kmalloc)" >> $T/kprobe_events
	echo 1 > $T/events/kprobes/enable
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
	( while [ ! -e $S/stop ]; do
		for e in $T/events/kprobes/rp*/enable; do echo 0 > "$e"; done
		sleep 0.3
		for e in $T/events/kprobes/rp*/enable; do echo 1 > "$e"; done
		sleep 0.3
	  done ) &
	pids+=" $!"
	sleep "${R_SECS:-60}"
	touch $S/stop
	wait $pids
	echo 0 > $T/events/kprobes/enable
	echo > $T/kprobe_events
	[ "${R_NMI:-1}" = 1 ] && rmmod rp_nmi
	insmod "$KO"
}

tests t_nmi_kprobe_events
