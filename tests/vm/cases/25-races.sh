# SPDX-License-Identifier: GPL-2.0
# Races between users of the module: rmmod while the module is busy, a
# target module going away while its probes are added, a resize racing
# a reader's mapping. Each attempt either works or fails cleanly;
# nothing is left behind.

TARGET_KO=$(dirname "$KO")/test-modules/rp_target.ko
MINIMAL_KO=$(dirname "$KO")/examples/kprobe_minimal/kprobe_minimal.ko
S=$T_SCRATCH

# rmmod's own wording for a module that is still referenced
rmmod_refused() { expect_fail 1 "in use" rmmod rawprobe; }

# A reader asleep in poll holds the device open: rmmod is refused, the
# reader goes on, and once it has gone rmmod works.
t_rmmod_while_streaming() {
	stream_bg $S/s.json -e kprobe:vfs_read
	wait_for "grep -q /dev/rawprobe /proc/$STREAM_PID/maps" 100
	rmmod_refused
	cat /proc/version >/dev/null
	sleep 0.5
	stream_stop
	expect_ge 1 "$(count_records $S/s.json "r['comm'] == 'cat'")" \
		"records after the refused rmmod"
	rmmod rawprobe
	module_load
}

# Probes firing on both CPUs, no reader: rmmod takes them down with it.
t_rmmod_while_probes_fire() {
	local load kprobes
	kprobes=$(kprobes_total)
	$CTL probe add kprobe vfs_read vfs_write do_sys_openat2 >/dev/null
	$CTL probe add kretprobe vfs_read vfs_write >/dev/null
	$CTL probe add jprobe do_sys_openat2 --args s32,ustr >/dev/null
	( while :; do cat /proc/version >/dev/null; done ) & load=$!
	sleep 0.5
	rmmod rawprobe
	kill $load; wait $load 2>/dev/null || true
	grep -q '^rawprobe ' /proc/modules && fail "still loaded"
	expect_eq "$kprobes" "$(kprobes_total)" "kprobes registered"
	expect_eq 0 "$(fentry_left)" "functions in rawprobe's ftrace filter"
	module_load
	expect_eq 0 "$(probe_count)" "probes after a reload"
}

# A custom probe module depends on the core: the core stays.
t_rmmod_with_custom_module() {
	insmod "$MINIMAL_KO"
	rmmod_refused
	rmmod kprobe_minimal
	rmmod rawprobe
	module_load
}

# The target module comes and goes while probes on it are added by name
# and deleted: each add works or fails cleanly, and none is left. (A
# registration holds the target for its duration: rmmod may be refused.)
module_churn() {	# TARGET: probed while rp_target comes and goes
	local i churn rc out
	: > $S/churn.added
	# loaded for 0 to 0.4 s each time, 20 times, and on (up to 200)
	# until an add has come in while it was there
	( set -e
	  for i in $(seq 200); do
		insmod "$TARGET_KO"
		sleep "0.$((RANDOM % 5))"
		until rmmod rp_target 2>/dev/null; do sleep 0.01; done
		[ $i -lt 20 ] || [ ! -s $S/churn.added ] || break
	  done ) & churn=$!
	# a failed check ends the test, not the churn: it would go on into
	# the next test's (whose insmod then finds rp_target loaded)
	# (each command of it may fail: set -e holds in a trap too)
	trap 'kill $churn 2>/dev/null || :; wait $churn 2>/dev/null || :
	      rmmod rp_target 2>/dev/null || :' EXIT
	while kill -0 $churn 2>/dev/null; do
		rc=0
		out=$($CTL probe add kprobe "$1" 2>$S/churn.err) || rc=$?
		case $rc in
		0) $CTL probe del $out 2>$S/del.err ||
			fail "probe del $out: $(cat $S/del.err)"
		   echo >> $S/churn.added ;;
		# (a line of it: near names may follow, found in a module
		# loaded again since; a glob says first what it matched)
		1) expect_match "^rawprobectl: .+(\(E[A-Z]+\)|matches no function.*)$" \
			"$(cat $S/churn.err)" "a clean error" ;;
		*) fail "exit $rc: $(cat $S/churn.err)" ;;
		esac
	done
	wait $churn || fail "the churn's insmod or rmmod failed (exit $?)"
	expect_eq 0 "$(probe_count)" "probes left"
}

t_target_module_churn() {
	module_churn rp_target:rp_target_hit
}

# The same through a glob, whose module functions rawprobe's ftrace_ops
# arms: never one in a module its notifier has seen going (ftrace would
# warn at the module's freeing, which fails the guest).
t_target_module_churn_glob() {
	module_churn 'rp_target_*'
	echo "    $(wc -l < $S/churn.added) globs added while rp_target churned"
	expect_ge 1 "$(wc -l < $S/churn.added)" "globs added while it churned"
}

# Resizes racing readers that map the rings: each resize works or is
# refused with EBUSY, each reader streams, and the geometry stays whole.
t_resize_races_mapping() {
	local i pid rc out want=$RING_DEFAULT
	for i in $(seq 10); do
		$CTL stream -d 0.3 >/dev/null 2>$S/err & pid=$!
		for want in 4096 $RING_DEFAULT; do
			rc=0
			out=$($CTL ring set records $want 2>&1) || rc=$?
			[ $rc = 0 ] ||
				expect_match "EBUSY" "$out" "a refused resize"
		done
		wait $pid || fail "stream $i: $(cat $S/err)"
	done
	$CTL ring set records $RING_DEFAULT
	expect_eq $RING_DEFAULT "$(json_get "$($CTL -j ring show)" 'j["records"]')" "ring size"
	$CTL -j stream -d 0.2 -e kprobe:vfs_read -o $S/last.json
	cat /proc/version >/dev/null
}

# A refused first add gives back the rings it allocated while a reader
# maps them: the reader keeps them, or allocates them again.
t_refused_first_add_races_reader() {
	local i k pid
	for i in $(seq 8); do
		rmmod rawprobe
		module_load
		$CTL stream -d 0.2 >/dev/null 2>$S/err & pid=$!
		for k in 1 2 3; do
			expect_fail 1 "ENOENT" $CTL probe add kprobe rp_no_such_function
		done
		wait $pid || fail "stream $i: $(cat $S/err)"
	done
	expect_eq 0 "$(probe_count)" "probes left"
	$CTL -j stream -d 0.2 -e kprobe:vfs_read -o $S/after.json
}

# Requests wait for the probe table killably (kmod/registry.c): a `probe
# list` queued behind a long `probe del all`, asleep on the table's lock,
# dies at once when killed, while the removal goes on; it slept
# uninterruptibly until the end.
t_waiter_killed_behind_batch() {
	local n=1000 del waiter start ms
	[ "$T_DEBUG_KERNEL" = 1 ] && n=200
	probeable_functions $n > $S/funcs
	# kprobes remove them one at a time (ftrace's batch would be quick)
	RAWPROBE_ARM=kprobes $CTL probe add kprobe - < $S/funcs > /dev/null
	$CTL probe del all & del=$!
	wait_for "[ \$(kprobes_total) -lt $n ]" 300 || fail "the removal never began"
	$CTL -j probe list > /dev/null 2>&1 & waiter=$!
	wait_for "grep -q rp_probe_walk /proc/$waiter/stack" 300 ||
		fail "the waiter never slept on the table's lock"
	start=$(date +%s%N)
	kill -KILL $waiter
	wait $waiter || true
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo "    the killed waiter was gone in $ms ms; $(kprobes_total) probes still to remove" >&2
	kill -0 $del 2>/dev/null ||
		fail "the removal ended before the killed waiter did ($ms ms)"
	wait $del || fail "probe del all failed"
	expect_eq 0 "$(probe_count)" "probes left"
}

tests t_rmmod_while_streaming t_rmmod_while_probes_fire \
	t_rmmod_with_custom_module t_target_module_churn \
	t_target_module_churn_glob t_resize_races_mapping \
	t_refused_first_add_races_reader t_waiter_killed_behind_batch
