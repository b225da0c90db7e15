# SPDX-License-Identifier: GPL-2.0
# Load (issue 13, items 1 and 2): probes of every kind on hot paths and
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
# NMIs are opt-in: under TCG a guest with ftrace-based kprobes armed and
# NMIs arriving panics (docs/reliability.md, "Open").
NMI=${STRESS_NMI:-0}

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

# The probes of the load, added disabled: their ids in LOAD_IDS.
add_load_probes() {
	local kmalloc cache
	kmalloc=$(pick __kmalloc_noprof __kmalloc)
	cache=$(pick kmem_cache_alloc_noprof kmem_cache_alloc)
	LOAD_IDS=$($CTL probe add -d kprobe __x64_sys_getpgid try_to_wake_up \
			"$cache" "$(pick hrtimer_interrupt)" \
			"$(pick run_timer_softirq rcu_core)")
	NMI_ID=
	if [ "$NMI" = 1 ]; then
		grep -q '^rp_nmi ' /proc/modules || insmod "$NMI_KO"
		NMI_ID=$($CTL probe add -d kprobe rp_nmi:rp_nmi_hit)
		LOAD_IDS+=" $NMI_ID"
	fi
	LOAD_IDS+=" $($CTL probe add -d kretprobe vfs_read "$kmalloc" -m 64)"
	LOAD_IDS+=" $($CTL probe add -d jprobe do_sys_openat2 -a s32,ustr)"
	LOAD_IDS=$(echo $LOAD_IDS)
}

load_probes() {	# enable|disable
	local id
	for id in $LOAD_IDS; do $CTL probe "$1" "$id"; done
}

# Work on both CPUs: syscalls, reads and opens, forks and wakeups,
# timers, and with "nmi" (and STRESS_NMI=1) NMIs sent to the other CPU,
# only while the probe set is still: NMIs while kprobes are armed and
# disarmed panic a TCG guest with ftrace's kprobe_events alone
# (tests/stress/repro/nmi-kprobe-events.sh), and the panic was seen with
# a still probe set too (docs/reliability.md, "Open").
load_start() {	# [nmi]
	LOAD_PIDS=""
	rm -f $S/stop
	trap load_stop EXIT	# a failed test stops its load too
	( while [ ! -e $S/stop ]; do build/tools/getpgid_loop 20000 >/dev/null; done ) &
	LOAD_PIDS+=" $!"
	( while [ ! -e $S/stop ]; do cat /proc/version /proc/stat >/dev/null; done ) &
	LOAD_PIDS+=" $!"
	( while [ ! -e $S/stop ]; do sleep 0.01; done ) &
	LOAD_PIDS+=" $!"
	[ "${1:-}" = nmi ] || return 0
	[ "$NMI" = 1 ] || return 0
	( while [ ! -e $S/stop ]; do echo 20 > /proc/rp_nmi; sleep 0.1; done ) &
	LOAD_PIDS+=" $!"
}

# Every loop ends at its next turn: nothing outlives the test.
load_stop() {
	touch $S/stop
	wait $LOAD_PIDS ${CHURN_PID:-} 2>/dev/null || true
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

# account NAME BEFORE MID AFTER VALIDATOR: accounting of the load probes
account() {
	local out
	out=$(python3 $ACCOUNT "$2" "$3" "$4" "$5" $LOAD_IDS) ||
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
	account load $S/before.json $S/mid.json $S/after.json $S/val.txt
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

# Churn on the side: probe lifecycles in batches of 8, a reader that
# detaches and reattaches each round, a resize refused while it maps
# the rings and done between readers, in discard and overwrite mode.
# No NMIs here (see load_start); t_load has them with STRESS_NMI=1.
churn_loop() {	# COUNT_FILE
	local ids n=0 id
	probeable_functions 8 > $S/churn.syms
	while [ ! -e $S/stop ]; do
		ids=$($CTL probe add kprobe $(cat $S/churn.syms)) || continue
		for id in $ids; do $CTL probe disable "$id"; done
		for id in $ids; do $CTL probe enable "$id"; done
		for id in $ids; do $CTL probe del "$id"; done
		n=$((n + 8))
		echo $n > "$1"
	done
}

t_load_with_churn() {
	local round rounds=4 rc out
	add_load_probes
	$CTL -j stats show > $S/before.json
	load_start
	churn_loop $S/cycles & CHURN_PID=$!
	for round in $(seq $rounds); do
		validator_start $S/val$round.txt
		load_probes enable
		sleep $((SECS / rounds))
		rc=0
		out=$($CTL ring set records 1024 2>&1) || rc=$?
		expect_eq 1 "$rc" "ring set while mapped: $out"
		load_probes disable
		$CTL -j stats show > $S/mid.json
		validator_stop $S/val$round.txt
		$CTL -j stats show > $S/after.json
		account churn $S/before.json $S/mid.json $S/after.json \
			$S/val$round.txt
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
	load_stop
	$CTL ring set records $RING_DEFAULT mode discard
	echo "# figure: churn probe_cycles $(cat $S/cycles)"
	echo "# figure: churn reader_attaches $rounds"
	expect_ge 8 "$(cat $S/cycles)" "probe cycles"
	$CTL probe del all
	rmmod_nmi
}

tests t_load t_load_with_churn
