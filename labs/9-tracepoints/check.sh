# SPDX-License-Identifier: GPL-2.0
#
# Lab 9's checks (sourced by labs/guest.sh after labs/lib.sh): lab9.sh's
# functions, and the student's module, built on the host for this
# kernel in $OBJ. What the student's commands saw is compared with
# ftrace's own event, enabled on the same tracepoint over the same time.
LAB_SCRIPT=lab9.sh
export DURATION=5
D=/tmp/lab9

lab_cleanup() {
	rmmod lab9_exec 2>/dev/null
	ftrace_event_off sched_process_exec
	ftrace_event_off sched_switch
	rm -rf $D
}

# ftrace_event_on EVENT FILTER: ftrace's own sched:EVENT, filtered, into
# an empty trace buffer.
ftrace_event_on() {
	echo 0 > $TRACEFS/tracing_on
	: > $TRACEFS/trace
	echo "$2" > $TRACEFS/events/sched/$1/filter
	echo 1 > $TRACEFS/events/sched/$1/enable
	echo 1 > $TRACEFS/tracing_on
}

# ftrace_event_off EVENT: the event's lines counted; it is off again.
ftrace_event_off() {
	echo 0 > $TRACEFS/events/sched/$1/enable
	echo 0 > $TRACEFS/events/sched/$1/filter
	grep -c " $1:" $TRACEFS/trace || true
	: > $TRACEFS/trace
}

# student_probed FUNC ARGS...: the student's FUNC in the background
# until it has a probe, of whatever kind (the numbers say whether it is
# the right one), or it ended. Sets STUDENT_PID.
student_probed() {
	local rc=0
	student "$@" &
	STUDENT_PID=$!
	wait_for "[ \$(probe_count) -gt 0 ] || ! kill -0 $STUDENT_PID 2>/dev/null" 150
	[ "$(probe_count)" -gt 0 ] && return 0
	kill -0 $STUDENT_PID 2>/dev/null && hint "no probe appeared in 15 s"
	wait $STUDENT_PID || rc=$?
	hint "$1 ended (exit status $rc) without adding a probe"
}

# 4 programs started by lab9-exec (a renamed true), 2 by lab9-other: counted by the name each has once exec'd, as ftrace's
# sched_process_exec sees them.
ex_execs() {
	local got ft
	mkdir -p $D
	cp /bin/true $D/lab9-exec
	cp /bin/true $D/lab9-other
	ftrace_event_on sched_process_exec 'filename ~ "/tmp/lab9/*"'
	student_probed execs_by_comm $S/e.json
	for _ in 1 2 3 4; do $D/lab9-exec; done
	for _ in 1 2; do $D/lab9-other; done
	wait $STUDENT_PID || hint "execs_by_comm failed"
	ft=$(ftrace_event_off sched_process_exec)
	got=$(python3 - $S/e.json <<'PY' 2>/dev/null
import json, sys
by = {}
for l in open(sys.argv[1]):
    if l.strip():
        for e in json.loads(l)["entries"]:
            by[e.get("comm")] = by.get(e.get("comm"), 0) + e["count"]
print(by.get("lab9-exec", 0), by.get("lab9-other", 0))
PY
) || hint "$S/e.json holds no count JSON with entries by comm (rawprobectl -j count ... --by comm -o FILE)"
	[ "$ft" = 6 ] || hint "ftrace's own sched_process_exec saw $ft of the 6 execs (not the exercise's fault)"
	[ "$got" = "4 2" ] ||
		hint "lab9-exec started 4 programs and lab9-other 2, as ftrace saw them; your counts say '$got': by the name a program has once exec'd?"
}

# A process, lab9-sleeper (perl, renamed), sleeps 50 ms three times:
# each time it is switched out, prev its pid, next another task; as
# many records as ftrace's sched_switch lines with prev_comm its name.
ex_switches() {
	local pid n ft bad
	mkdir -p $D
	cp "$(command -v perl)" $D/lab9-sleeper
	ftrace_event_on sched_switch 'prev_comm == "lab9-sleeper"'
	student_probed switches lab9-sleeper $S/s.json
	$D/lab9-sleeper -MTime::HiRes=nanosleep -e 'nanosleep(5e7) for 1 .. 3' &
	pid=$!
	wait $pid
	wait $STUDENT_PID || hint "switches failed"
	ft=$(ftrace_event_off sched_switch)
	n=$(recs $S/s.json "r['pid'] == $pid")
	[ "$n" -ge 3 ] || hint "lab9-sleeper (pid $pid) slept 3 times; $n records are its own: is --comm its name?"
	bad=$(recs $S/s.json "r['pid'] == $pid and not (r['args'][0] == $pid != r['args'][1] and len(r['args']) == 2)")
	[ "$bad" = 0 ] ||
		hint "$bad of lab9-sleeper's $n records do not hold its pid as prev's and another as next's, the two arguments: $(head -c 300 $S/s.json)"
	[ "$ft" -ge 3 ] || hint "ftrace's own sched_switch saw $ft switches from lab9-sleeper (not the exercise's fault)"
	[ "$n" = "$ft" ] || hint "ftrace's own sched_switch saw $ft switches from lab9-sleeper, your records $n"
}

# load: the student's module (LID: its probe), and a scratch dir
load() {
	load_module lab9_exec "$@"
	mkdir -p $D
}

# The module's probe is its tracepoint; each exec of lab9-prog (a copy
# of true) is a record: the pid that exec'd, and the file's path.
ex_records() {
	local j pid pids="" n
	load
	j=$($CTL -j probe show "$LID")
	[ "$(json_get "$j" 'j["symbol"], j["owner_module"], j["state"]')" = "('sched:sched_process_exec', 'lab9_exec', 'armed')" ] ||
		hint "probe $LID is not the module's armed probe on the event sched:sched_process_exec: $(json_get "$j" 'j["symbol"], j["kind"], j["state"]')"
	cp /bin/true $D/lab9-prog
	stream_all $S/r.json -i "$LID"
	for _ in 1 2 3; do
		$D/lab9-prog &
		pids="$pids,$!"
		wait $!
	done
	stream_stop
	n=$(count_records $S/r.json "r['pid'] in [${pids#,}] and r.get('args') == [r['pid']]")
	[ "$n" = 3 ] || hint "3 execs; $n records hold the pid that exec'd as their one argument: old_pid is which of the event's arguments?"
	n=$(count_records $S/r.json "r['pid'] in [${pids#,}] and r.get('str') == '$D/lab9-prog'")
	[ "$n" = 3 ] || hint "3 execs of $D/lab9-prog; $n records have its path ($(count_records $S/r.json "'str' in r") of $(count_records $S/r.json True) have a string)"
}

ex_unload() {
	load
	/bin/true
	unload_module lab9_exec
}

exercise "execs_by_comm: programs started, counted by command, as ftrace counts them" ex_execs
exercise "switches: a command's context switches, prev and next by name" ex_switches
exercise "the module's tracepoint probe records each exec's pid and file" ex_records
exercise "rmmod unregisters the probe and logs its statistics" ex_unload
