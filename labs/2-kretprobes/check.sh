# SPDX-License-Identifier: GPL-2.0
#
# Lab 2's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab2.sh
FN=hrtimer_nanosleep

# (lab2.sh's own sleepers is the student's; the check uses its own)
# sleepers N [SECS]: N sleep commands, SECS long (1), in flight together:
# starting them takes time under TCG, so where all must overlap they
# sleep longer. Waits for its own children only (a stream may run).
sleepers() {
	local i pids=()
	for i in $(seq "$1"); do
		sleep "${2:-1}" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# check_kretprobe ID: a kretprobe on hrtimer_nanosleep
check_kretprobe() {
	local j
	j=$($CTL -j probe show "$1" 2>/dev/null) ||
		hint "there is no probe $1 (was it deleted, or not persistent?)"
	[ "$(json_get "$j" 'j["kind"], j["symbol"]')" = "('kretprobe', '$FN')" ] ||
		hint "probe $1 is a $(json_get "$j" 'j["kind"]') on $(json_get "$j" 'j["target"]'), not a kretprobe on $FN"
}

ex_one() {
	local id missed hits n
	id=$(student add_one) || hint "add_one failed"
	[[ $id =~ ^[0-9]+$ ]] || hint "add_one printed '$id', not a probe id"
	check_kretprobe "$id"
	n=$(json_get "$($CTL -j probe show "$id")" 'j["maxactive"]')
	[ "$n" = 1 ] || hint "probe $id has room for $n calls at a time, not one"
	sleepers 8 3
	missed=$(stat_of "$id" missed_maxactive)
	hits=$(stat_of "$id" hits)
	# one instance: the first sleeper holds it for its whole second
	[ "$hits" -ge 1 ] || hint "the probe saw no call at all"
	[ "$missed" -ge 6 ] ||
		hint "8 sleepers, $hits seen, $missed missed: the pool is bigger than one call"
}

ex_enough() {
	local id missed n
	id=$(student add_enough 24) || hint "add_enough failed"
	[[ $id =~ ^[0-9]+$ ]] || hint "add_enough printed '$id', not a probe id"
	check_kretprobe "$id"
	stream_all $S/rec.json -i "$id"
	sleepers 24
	stream_stop
	missed=$(stat_of "$id" missed_maxactive)
	[ "$missed" = 0 ] ||
		hint "24 sleepers, $missed missed: the pool is smaller than the calls in flight"
	n=$(count_records $S/rec.json "r['comm'] == 'sleep' and r['latency_ns'] >= 900000000")
	[ "$n" -ge 24 ] || hint "only $n records of a second-long sleep"
}

# The pool the student reports must be the one that runs out, and read
# from the kernel: while default_maxactive runs, a kprobe of the check's
# on register_kretprobe() sees whether it had the kernel set a pool up
# (10 is right on this 2-CPU guest, and wrong on one of 6 CPUs or more).
ex_default() {
	local n id missed spy regs
	spy=$($CTL probe add kprobe register_kretprobe)
	n=$(student default_maxactive) || hint "default_maxactive failed"
	regs=$(stat_of "$spy" hits)
	$CTL probe del "$spy" >/dev/null
	[[ $n =~ ^[0-9]+$ ]] || hint "default_maxactive printed '$n', not a number"
	[ "$n" -le 256 ] || hint "$n instances for 2 CPUs? read it from the kernel, do not guess"
	[ "$(probe_count)" = 0 ] || hint "default_maxactive left a probe behind"
	[ "$regs" -ge 1 ] ||
		hint "default_maxactive printed $n without registering a kretprobe: the number must come from the kernel, whatever its CPUs"
	id=$($CTL probe add kretprobe $FN)
	sleepers $((n + 4)) 4
	missed=$(stat_of "$id" missed_maxactive)
	[ "$missed" = 4 ] ||
		hint "$((n + 4)) sleepers on a default kretprobe missed $missed calls, not 4: the pool is not $n"
}

# Only the sleeps a signal cut short: hrtimer_nanosleep() returns
# -ERESTART_RESTARTBLOCK (-516) then, not -EINTR; the others, 0, are
# filtered in the kernel.
ex_cut_short() {
	local id n cut pids=() i
	id=$(student add_cut_short) || hint "add_cut_short failed"
	[[ $id =~ ^[0-9]+$ ]] || hint "add_cut_short printed '$id', not a probe id"
	check_kretprobe "$id"
	stream_all $S/cut.json -i "$id"
	sleep 30 &
	cut=$!
	sleep 30 &
	cut="$cut $!"
	for i in 1 2 3; do
		sleep 1 &
		pids+=($!)
	done
	# (the long ones started first: by now they sleep)
	wait "${pids[@]}"
	kill -TERM $cut
	wait $cut 2>/dev/null || true
	sleep 0.5
	stream_stop
	n=$(count_records $S/cut.json "r['comm'] == 'sleep' and r.get('retval', 0) < 0")
	[ "$n" = 2 ] ||
		hint "2 sleeps killed in hrtimer_nanosleep, $n records of sleep with a negative return value: what does it return when a signal cuts it short?"
	n=$(count_records $S/cut.json "r.get('retval', -1) >= 0")
	[ "$n" = 0 ] || hint "$n records of sleeps that ended as asked (return value 0 or more)"
	n=$(stat_of "$id" filtered)
	[ "$n" -ge 3 ] ||
		hint "the probe's filtered counter is $n after 3 sleeps that ended as asked: filter in the kernel"
}

exercise "maxactive 1: calls in flight beyond one are missed" ex_one
exercise "a pool as large as the calls in flight misses none" ex_enough
exercise "default_maxactive reports the pool the kernel really gives" ex_default
exercise "add_cut_short records only the sleeps a signal cut short" ex_cut_short
