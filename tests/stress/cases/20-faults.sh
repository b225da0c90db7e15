# SPDX-License-Identifier: GPL-2.0
# Faults of the users: the controller SIGKILLed
# mid-stream and mid-batch-add, a target module loaded and unloaded under
# its probe, a custom probe module unloaded while its handler fires.
# STRESS_KILLS (100) and STRESS_CYCLES (50) set the counts.
# Lines "# figure: NAME KEY VALUE" feed make stress's table.

S=$T_SCRATCH
KILLS=${STRESS_KILLS:-100}
CYCLES=${STRESS_CYCLES:-50}
TARGET_KO=$(dirname "$KO")/test-modules/rp_target.ko
MINIMAL_KO=$(dirname "$KO")/examples/kprobe_minimal/kprobe_minimal.ko

refcnt() { cat /sys/module/rawprobe/refcnt; }

# Every probe a killed controller owned is gone, the device is free.
after_kill() {	# WHAT
	wait_for '[ $(probe_count) = 0 ]' 100 ||
		fail "$1: probes left: $($CTL probe list)"
	wait_for '[ $(refcnt) = 0 ]' 300 ||
		fail "$1: module refcount $(refcnt); holders:" \
			"$(ls -l /proc/[0-9]*/fd 2>/dev/null | grep rawprobe)" \
			"$(ps -eo pid,stat,comm | grep -v ' ps$')"
}

# A short pause, 0 to 0.3 s, different each time.
jitter() { sleep "0.$((RANDOM % 4))$((RANDOM % 10))"; }

t_sigkill_mid_stream() {
	local i pid id
	for i in $(seq $KILLS); do
		$CTL stream -q -e kprobe:vfs_read -e kretprobe:vfs_write \
			-e jprobe:do_sys_openat2 -a s32,ustr >/dev/null 2>&1 &
		pid=$!
		wait_for "[ \$(probe_count) = 3 ] || ! kill -0 $pid 2>/dev/null" 100
		cat /proc/version >/dev/null
		jitter
		kill -9 $pid
		wait $pid 2>/dev/null || true
		after_kill "kill $i"
	done
	# the rings are whole for the next reader
	build/tools/ring_validate > $S/val.txt & pid=$!
	trap "kill -INT $pid 2>/dev/null || true" EXIT
	wait_for "grep -q ready $S/val.txt" 100
	id=$($CTL probe add kprobe vfs_read)
	cat /proc/version >/dev/null
	$CTL probe del "$id"
	kill -INT $pid
	wait $pid || { cat $S/val.txt >&2; fail "corrupt records after the kills"; }
	expect_ge 1 "$(awk '$1 == "records" { print $2 }' $S/val.txt)" \
		"records read after the kills"
	echo "# figure: kill mid_stream $KILLS"
}

# A killed batch: the kernel takes a batch whole or not at all, so the
# persistent probes of `probe add` are all there or none; the owned
# probes of `stream -e` are never left.
t_sigkill_mid_batch() {
	local i pid n syms args=()
	syms=$(probeable_functions 64)
	for s in $(echo "$syms" | head -32); do args+=(-e "kprobe:$s"); done
	for i in $(seq $((KILLS / 2))); do
		$CTL probe add kprobe $syms >/dev/null 2>&1 & pid=$!
		jitter
		kill -9 $pid
		wait $pid 2>/dev/null || true
		n=$(probe_count)
		[ "$n" = 0 ] || [ "$n" = 64 ] || fail "batch $i: $n of 64 probes"
		$CTL probe del all >/dev/null
		$CTL stream -q "${args[@]}" >/dev/null 2>&1 & pid=$!
		jitter
		kill -9 $pid
		wait $pid 2>/dev/null || true
		after_kill "owned batch $i"
	done
	echo "# figure: kill mid_batch $((KILLS / 2 * 2))"
}

# A persistent probe on a module function: gone at every unload, re-armed
# at every load, every call in between counted.
t_target_module_cycles() {
	local i id state
	insmod "$TARGET_KO"
	id=$($CTL probe add kprobe rp_target:rp_target_hit)
	for i in $(seq $CYCLES); do
		cat /proc/rp_target >/dev/null
		rmmod rp_target
		state=$(json_get "$($CTL -j probe show $id)" 'j["state"]')
		[ "$state" = gone ] || fail "cycle $i: $state after rmmod"
		insmod "$TARGET_KO"
		state=$(json_get "$($CTL -j probe show $id)" 'j["state"]')
		[ "$state" = armed ] || fail "cycle $i: $state after insmod"
	done
	expect_eq $CYCLES "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" \
		"calls counted over $CYCLES cycles"
	$CTL probe del "$id"
	rmmod rp_target
	echo "# figure: modules target_cycles $CYCLES"
}

# The example module's handler fires on both CPUs while it is unloaded
# and loaded again: each unload waits its handlers out.
t_custom_module_unload_while_firing() {
	local i load
	rm -f $S/stop
	trap "touch $S/stop" EXIT	# a failed test stops its load too
	( while [ ! -e $S/stop ]; do cat /proc/version >/dev/null; done ) & load=$!
	for i in $(seq $((CYCLES / 5))); do
		insmod "$MINIMAL_KO" || fail "insmod: $(dmesg | tail -3)"
		sleep 0.2
		rmmod kprobe_minimal
	done
	touch $S/stop
	wait $load
	expect_eq 0 "$(probe_count)" "probes left by the custom module"
	echo "# figure: modules custom_cycles $((CYCLES / 5))"
}

tests t_sigkill_mid_stream t_sigkill_mid_batch t_target_module_cycles \
	t_custom_module_unload_while_firing
