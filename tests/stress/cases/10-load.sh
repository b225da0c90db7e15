# SPDX-License-Identifier: GPL-2.0
# Load: probes of every kind on hot paths and
# in every context a guest offers (syscall, scheduler wakeup, kmalloc,
# hard and soft interrupts, NMI), a validating reader the whole time,
# then exact accounting; and the same with churn on the side. A run of
# tests/vm/suite.sh; STRESS_SECONDS (60) sets the length of each part.
# Lines "# figure: NAME KEY VALUE" feed make stress's table.

S=$T_SCRATCH
SECS=${STRESS_SECONDS:-60}
VALIDATE=build/tools/ring_validate
ACCOUNT=tests/stress/account.py
NMI_KO=$(dirname "$KO")/test-modules/rp_nmi.ko
# STRESS_NMI=0 leaves the NMI module out
NMI=${STRESS_NMI:-1}

# pick NAME...: the first that is a kprobe-able kernel function here
pick() {
	local s
	for s; do
		grep -qE "^[0-9a-f]+ [tT] $s\$" /proc/kallsyms &&
			! grep -qw -- "$s" /sys/kernel/debug/kprobes/blacklist &&
			{ echo "$s"; return 0; }
	done
	fail "none of $* can be probed here"
}

# SYMBOL+OFFSET of SYMBOL's first instruction past its ftrace call
# (+9 after endbr64 and the 5-byte nop, +5 without IBT): a kprobe there
# is an int3 probe, not a kprobe on ftrace.
int3_site() {
	local off id
	for off in 9 5; do
		id=$($CTL probe add -d kprobe "$1+$off" 2>/dev/null) || continue
		$CTL probe del "$id"
		echo "$1+$off"
		return 0
	done
	fail "no int3 site in $1"
}

# The probes of the load, added disabled: their ids in LOAD_IDS.
# The functions every CPU runs all the time (the timer interrupt and
# softirq, wakeups, slab allocation) get int3 kprobes; the syscall paths,
# idle while the load is stopped, get kprobes on ftrace, the kretprobes
# (reads, and sleeps that hold an instance each) and the jprobe. Arming an ftrace site while another CPU runs through
# it panics a TCG guest, with ftrace's own kprobe_events as well
# (docs/reliability.md, "Known issue: live patching ...");
# STRESS_FTRACE_HOT=1 puts the hot ones on ftrace too.
add_load_probes() {
	local sleep hot=() f
	load_tools
	sleep=$(pick hrtimer_nanosleep)
	for f in try_to_wake_up "$(pick kmem_cache_alloc_noprof kmem_cache_alloc)" \
		 "$(pick hrtimer_interrupt)" "$(pick run_timer_softirq rcu_core)"; do
		if [ "${STRESS_FTRACE_HOT:-0}" = 1 ]; then
			hot+=("$f")
		else
			hot+=("$(int3_site "$f")")
		fi
	done
	LOAD_IDS=$($CTL probe add -d kprobe __x64_sys_getpgid "${hot[@]}")
	NMI_ID=
	if [ "$NMI" = 1 ]; then
		grep -q '^rp_nmi ' /proc/modules || insmod "$NMI_KO"
		NMI_ID=$($CTL probe add -d kprobe "$(int3_site rp_nmi:rp_nmi_hit)")
		LOAD_IDS+=" $NMI_ID"
	fi
	# A kretprobe counts its hit at entry and its record at return, so
	# a call asleep across a snapshot (bash reading a pipe in the
	# churn loop) would unbalance a round. The kretprobes keep the
	# load's own readers and sleepers, which end before each disable,
	# and filter every other task at entry.
	LOAD_IDS+=" $($CTL probe add -d kretprobe vfs_read -m 64 --comm rp_load_cat)"
	LOAD_IDS+=" $($CTL probe add -d kretprobe "$sleep" -m 64 \
			--comm rp_load_sleep)"
	LOAD_IDS+=" $($CTL probe add -d jprobe do_sys_openat2 -a s32,ustr)"
	LOAD_IDS=$(echo $LOAD_IDS)
}

# The load's reader and sleeper under names of their own (the comm the
# kretprobes keep)
load_tools() {
	cp "$(command -v cat)" $S/rp_load_cat
	cp "$(command -v sleep)" $S/rp_load_sleep
}

load_probes() {	# enable|disable
	local id
	for id in $LOAD_IDS; do $CTL probe "$1" "$id"; done
}

# Work on both CPUs: syscalls, reads and opens, forks and wakeups,
# timers, and with "nmi" NMIs sent to the other CPU. The guest runs with
# tests/vm/run --tcg-single (docs/reliability.md, "Known issue: live
# patching under QEMU's multi-threaded TCG").
load_start() {	# [nmi]
	LOAD_PIDS=""
	rm -f $S/stop
	# a failed test stops its loops too
	trap 'touch $S/churn_stop; load_stop; wait ${CHURN_PID:-} ${SESS_PID:-}' EXIT
	( while [ ! -e $S/stop ]; do build/tools/getpgid_loop 20000 >/dev/null; done ) &
	LOAD_PIDS+=" $!"
	( while [ ! -e $S/stop ]; do
		$S/rp_load_cat /proc/version /proc/stat >/dev/null; done ) &
	LOAD_PIDS+=" $!"
	( while [ ! -e $S/stop ]; do $S/rp_load_sleep 0.01; done ) &
	LOAD_PIDS+=" $!"
	[ "${1:-}" = nmi ] || return 0
	[ "$NMI" = 1 ] || return 0
	( while [ ! -e $S/stop ]; do echo 20 > /proc/rp_nmi; sleep 0.1; done ) &
	LOAD_PIDS+=" $!"
}

# Every loop ends at its next turn: nothing outlives the test.
load_stop() {
	touch $S/stop
	wait $LOAD_PIDS 2>/dev/null || true
}

validator_start() {	# OUT
	$VALIDATE > "$1" 2>&1 &
	VAL_PID=$!
	wait_for "grep -q ready $1" 100 || fail "validator: $(cat "$1")"
}

validator_stop() {
	kill -INT "$VAL_PID"
	wait "$VAL_PID" || { cat "$1" >&2; fail "validator found corrupt records"; }
}

# account NAME BEFORE START MID AFTER VALIDATOR: accounting of the load
# probes (tests/stress/account.py)
account() {
	local out
	out=$(python3 $ACCOUNT "$2" "$3" "$4" "$5" "$6" $LOAD_IDS) ||
		{ echo "$out" >&2; fail "$1: accounting"; }
	echo "$out" | sed -n "s/^figure /# figure: $1 /p"
}

t_load() {
	local nmi0=0
	add_load_probes
	$CTL -j stats show > $S/before.json
	[ "$NMI" = 1 ] && nmi0=$(cat /proc/rp_nmi)
	validator_start $S/val.txt
	load_probes enable
	load_start nmi
	sleep "$SECS"
	load_stop
	load_probes disable
	$CTL -j stats show > $S/mid.json
	validator_stop $S/val.txt
	$CTL -j stats show > $S/after.json
	account load $S/before.json $S/before.json $S/mid.json $S/after.json \
		$S/val.txt
	echo "# figure: load seconds $SECS"
	if [ "$NMI" = 1 ]; then
		echo "# figure: load nmi_calls $(( $(cat /proc/rp_nmi) - nmi0 ))"
		expect_ge 1 "$(grep -c "^delivered $NMI_ID " $S/val.txt)" \
			"records from the NMI probe"
	fi
	$CTL probe del all
	rmmod_nmi
}

rmmod_nmi() {
	if grep -q '^rp_nmi ' /proc/modules; then rmmod rp_nmi; fi
}

# Churn on the side: probe lifecycles (add, disable, enable, del) in
# batches of 128 kprobes on functions a jprobe already holds (they join
# its aggregate kprobe: no text patching; the delete is one request, one
# grace period), and every 8th round, the first included, a batch of 16
# on bare functions (each arms and disarms an ftrace site); at least
# one round of each kind, however short the run; a reader that detaches and
# reattaches each round; a resize refused while it maps the rings and
# done between readers, in discard and overwrite mode. No NMIs here:
# t_load has them.
churn_loop() {	# CYCLES_FILE BARE_CYCLES_FILE
	local ids syms n=0 bare=0 round=0
	probeable_functions 144 > $S/churn.syms
	head -128 $S/churn.syms > $S/anchored.syms
	tail -16 $S/churn.syms > $S/bare.syms
	$CTL probe add jprobe $(cat $S/anchored.syms) > $S/anchors.ids
	while [ $round -lt 2 ] || [ ! -e $S/churn_stop ]; do
		round=$((round + 1))
		syms=$S/anchored.syms
		[ $((round % 8)) = 1 ] && syms=$S/bare.syms
		ids=$($CTL probe add kprobe $(cat $syms)) || continue
		$CTL probe disable $ids
		$CTL probe enable $ids
		$CTL probe del $ids
		n=$((n + $(wc -l < $syms)))
		[ $syms = $S/bare.syms ] && bare=$((bare + 16))
		echo $n > "$1"
		echo $bare > "$2"
	done
	$CTL probe del $(cat $S/anchors.ids)
}

# Sessions come and go beside it (docs/design.md, "Data plane"): a
# command that streams one churn function into rings of its own, and a
# named session made, written into by a probe and deleted. Each cycle
# ends cleanly; none is left. CYCLES_FILE counts them.
session_churn_loop() {	# CYCLES_FILE
	local n=0 sym id
	while [ $n -lt 2 ] || [ ! -e $S/churn_stop ]; do
		sym=$(sed -n "$((n % 16 + 1))p" $S/bare.syms)
		$CTL stream -e kprobe:$sym --ring-records 1024 -d 0.3 \
			>/dev/null 2>$S/sess.err ||
			echo "stream $n: $(cat $S/sess.err)" >> $S/sess.fail
		$CTL ring create churn$n records 1024 >/dev/null &&
			id=$($CTL probe add kprobe $sym --ring churn$n) &&
			$CTL probe del $id && $CTL ring del churn$n ||
			echo "named session $n" >> $S/sess.fail
		n=$((n + 1))
		echo $n > "$1"
	done
}

# The load stops while the load probes are armed and disarmed (see
# add_load_probes); the churn, on functions the load does not run, the
# sessions' churn and the reader do not.
t_load_with_churn() {
	local round rounds=4 rc out
	add_load_probes
	$CTL -j stats show > $S/before.json
	rm -f $S/churn_stop $S/sess.fail
	churn_loop $S/cycles $S/bare_cycles & CHURN_PID=$!
	wait_for "[ -s $S/bare.syms ]" 300 || fail "no churn functions"
	session_churn_loop $S/sessions & SESS_PID=$!
	for round in $(seq $rounds); do
		$CTL -j stats show > $S/start.json
		validator_start $S/val$round.txt
		load_probes enable
		load_start
		sleep $((SECS / rounds))
		rc=0
		out=$($CTL ring set records 1024 2>&1) || rc=$?
		expect_eq 1 "$rc" "ring set while mapped: $out"
		load_stop
		load_probes disable
		$CTL -j stats show > $S/mid.json
		validator_stop $S/val$round.txt
		$CTL -j stats show > $S/after.json
		account churn $S/before.json $S/start.json $S/mid.json \
			$S/after.json $S/val$round.txt
		cp $S/after.json $S/before.json
		# the next round's geometry, with no reader: even rounds
		# overwrite a smaller ring (reader-side exactness then only
		# holds in discard rounds; account.py knows)
		if [ $((round % 2)) = 1 ]; then
			$CTL ring set records 4096 mode overwrite
		else
			$CTL ring set records $RING_DEFAULT mode discard
		fi
	done
	touch $S/churn_stop
	wait $CHURN_PID
	wait $SESS_PID
	[ ! -e $S/sess.fail ] || fail "session cycles failed: $(head -3 $S/sess.fail)"
	expect_eq 1 "$(json_get "$($CTL -j ring list)" 'len(j)')" \
		"sessions left (the default one)"
	$CTL ring set records $RING_DEFAULT mode discard
	echo "# figure: churn probe_cycles $(cat $S/cycles)"
	echo "# figure: churn bare_probe_cycles $(cat $S/bare_cycles)"
	echo "# figure: churn reader_attaches $rounds"
	echo "# figure: churn session_cycles $(cat $S/sessions)"
	# thousands in a full run (docs/reliability.md); one round each in
	# a smoke
	expect_ge $((SECS >= 60 ? 1000 : 144)) "$(cat $S/cycles)" "probe cycles"
	expect_ge 16 "$(cat $S/bare_cycles)" "bare probe cycles"
	$CTL probe del all
	rmmod_nmi
}

tests t_load t_load_with_churn
