# SPDX-License-Identifier: GPL-2.0
# Sessions (docs/design.md, "Data plane"): every command that reads
# records has rings of its own; named sessions for daemons and flight
# recorders; a session's records are its owner's.

# Streams write here: a CAP_PERFMON user's too.
S=$(mktemp -d /tmp/rp-sessions.XXXXXX)
chmod 1777 $S
LOOP=build/tools/getpgid_loop
SYS=__x64_sys_getpgid
PERFMON="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"

# Sessions besides the default one, as `ring list` shows them.
sessions() {
	json_get "$($CTL -j ring list)" 'len([s for s in j if s["session"] != 0])'
}

# records_of FILE: the getpgid records of a JSON stream.
records_of() {
	count_records "$1" "r.get('probe', '').endswith('$SYS')"
}

# What a failed test leaves running would keep the module in use.
cleanup() {
	local pids
	pids=$(jobs -p)
	[ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
	wait 2>/dev/null || true
	ftrace_del
	chmod 0600 /dev/rawprobe
	$CTL probe del all >/dev/null 2>&1 || true
	for n in $(json_get "$($CTL -j ring list)" \
		   '" ".join(s["name"] for s in j if s.get("name") and s["session"])'); do
		$CTL ring del "$n" || true
	done
}

# The node is root's (0600); a CAP_PERFMON user's tracer is let in by
# its mode (a group, a udev rule), the open then asks for CAP_PERFMON.
let_users_open() {
	trap cleanup EXIT
	chmod 0666 /dev/rawprobe
}

# stream_start N ARGS...: stream N in the background, JSON into $S/N.json,
# as root or, with RUNAS set, as that (setpriv ...); waits until its
# probes are armed (its readiness line).
stream_start() {
	local n=$1
	shift
	trap cleanup EXIT
	rm -f $S/$n.json
	: > $S/$n.err	# (stale_out: not the last stream $n's line)
	$RUNAS $CTL -j stream -o $S/$n.json "$@" 2>$S/$n.err &
	eval "PID_$n=$!"
	wait_for "ready_line $S/$n.err" 300 ||
		fail "stream $n never said it was ready: $(cat $S/$n.err)"
}

stream_end() {
	local pid
	eval "pid=\$PID_$1"
	kill -INT "$pid"
	wait "$pid" || fail "stream $1 exit status $?: $(cat $S/$1.err)"
}

# hits_of N: the summary's HITS for the getpgid probe of stream N.
hits_of() {
	awk -v p="kprobe:$SYS" '$1 == p { print $2 }' $S/$1.err
}

# Eight commands at once: four on one function with the same arguments
# (two of them a CAP_PERFMON user's), one with other arguments, one on a
# return probe, two on another function. Each stream's records are its
# own probe's hits, and the getpgid ones are ftrace's kprobe_profile
# count for the same window: the calls the loop made.
t_eight_streams_at_once() {
	local n n0 n1 i
	ftrace_add rpsess "$SYS"
	let_users_open
	stream_start 1 -e kprobe:$SYS
	stream_start 2 -e kprobe:$SYS
	RUNAS=$PERFMON stream_start 3 -e kprobe:$SYS
	RUNAS=$PERFMON stream_start 4 -e kprobe:$SYS
	stream_start 5 -e kprobe:$SYS --args 2
	stream_start 6 -e kretprobe:$SYS
	stream_start 7 -e kprobe:__x64_sys_getppid
	RUNAS=$PERFMON stream_start 8 -e kprobe:__x64_sys_getppid
	expect_eq 8 "$(sessions)" "sessions of the eight streams"
	n0=$(awk '$1 ~ /rpsess$/ { print $2 }' $TRACING/kprobe_profile)
	$LOOP -w 0 2000 >/dev/null
	python3 -c 'import os; [os.getppid() for _ in range(700)]'
	n1=$(awk '$1 ~ /rpsess$/ { print $2 }' $TRACING/kprobe_profile)
	for i in 1 2 3 4 5 6 7 8; do stream_end $i; done
	ftrace_del
	expect_ge 2000 "$((n1 - n0))" "kprobe_profile's hits"
	for i in 1 2 3 4 5; do
		n=$(records_of $S/$i.json)
		expect_eq "$((n1 - n0))" "$n" "stream $i's records against kprobe_profile"
		expect_eq "$n" "$(hits_of $i)" "stream $i's records against its hits"
	done
	n=$(count_records $S/6.json "r.get('probe', '').startswith('kretprobe:')")
	expect_eq "$((n1 - n0))" "$n" "the return probe's records"
	for i in 7 8; do
		n=$(count_records $S/$i.json "r.get('probe', '').endswith('getppid')")
		expect_ge 700 "$n" "stream $i's getppid records"
		expect_eq 0 "$(records_of $S/$i.json)" "stream $i's getpgid records"
	done
	wait_for '[ "$(sessions)" = 0 ]' 100 ||
		fail "sessions left: $($CTL ring list)"
	expect_eq 0 "$(probe_count)" "probes left"
}

# kill -9 of one command: its session and rings go, the other's stream
# goes on.
t_kill_frees_its_session() {
	local before
	before=$(json_get "$($CTL -j ring list)" 'sum(s["allocated_bytes"] for s in j)')
	stream_start 1 -e kprobe:$SYS --ring-records 1024
	stream_start 2 -e kprobe:$SYS --ring-records 1024
	expect_eq 2 "$(sessions)" "two sessions"
	kill -KILL $PID_1
	wait $PID_1 || true
	wait_for '[ "$(sessions)" = 1 ]' 100 ||
		fail "the killed stream's session stays: $($CTL ring list)"
	$LOOP -w 0 500 >/dev/null
	stream_end 2
	expect_eq 500 "$(records_of $S/2.json)" "the other stream's records"
	wait_for '[ "$(sessions)" = 0 ]' 100 || fail "sessions left: $($CTL ring list)"
	expect_eq "$before" \
		"$(json_get "$($CTL -j ring list)" 'sum(s["allocated_bytes"] for s in j)')" \
		"ring memory after both ended"
}

# A stopped reader loses its own records; the other reader loses none.
t_stalled_reader_loses_only_its_own() {
	local lost
	stream_start 1 -e kprobe:$SYS --ring-records 1024
	stream_start 2 -e kprobe:$SYS --ring-records 16384
	kill -STOP $PID_1
	taskset -c 0 $LOOP -w 0 5000 >/dev/null
	kill -CONT $PID_1
	stream_end 1
	stream_end 2
	expect_eq 5000 "$(records_of $S/2.json)" "the running reader's records"
	lost=$(awk -v p="kprobe:$SYS" '$1 == p { print $4 }' $S/1.err)
	expect_ge 1 "$lost" "the stopped reader's losses"
	expect_eq 5000 "$(( $(records_of $S/1.json) + lost ))" \
		"the stopped reader's records + lost"
}

# A session's records are its owner's: a CAP_PERFMON user maps neither
# a root command's session nor a named one, nor adds probes into it.
t_perfmon_cannot_read_roots_session() {
	local id out
	let_users_open
	stream_start 1 -e kprobe:$SYS
	id=$(json_get "$($CTL -j ring list)" '[s["session"] for s in j if s["session"] != 0][0]')
	out=$($PERFMON python3 -c '
import fcntl, os, struct, sys
fd = os.open("/dev/rawprobe", os.O_RDWR)
try:
    fcntl.ioctl(fd, 0x4004b702, struct.pack("I", int(sys.argv[1])))
    print("attached")
except OSError as e:
    print(os.strerror(e.errno))' "$id")
	expect_eq "Operation not permitted" "$out" "CAP_PERFMON attaching to root's session"
	stream_end 1
	$CTL ring create rp-root records 1024 >/dev/null
	expect_fail 4 "owner's.*EPERM" $PERFMON $CTL stream --ring rp-root -d 0.1
	expect_fail 4 "another user's.*EPERM" \
		$PERFMON $CTL probe add kprobe $SYS --ring rp-root
	expect_fail 4 "CAP_SYS_ADMIN.*EPERM" $PERFMON $CTL ring create rp-user
	$CTL ring del rp-root
}

# A named session as a flight recorder: overwrite mode, probes added into
# it, read afterwards by stream --ring; deleted once its probes are.
t_named_session_flight_recorder() {
	local id j n
	trap cleanup EXIT
	$CTL ring create flight records 1024 mode overwrite >/dev/null
	expect_fail 1 "exists.*EEXIST" $CTL ring create flight
	id=$($CTL probe add kprobe $SYS --ring flight)
	j=$($CTL -j ring list)
	expect_eq "1 overwrite 1024" \
		"$(json_get "$j" '" ".join(str(s[k]) for s in j if s.get("name") == "flight" for k in ("probes", "mode", "records"))')" \
		"flight in ring list"
	taskset -c 0 $LOOP -w 0 3000 >/dev/null
	$CTL -j stream --ring flight -d 0.5 -o $S/flight.json 2>/dev/null
	n=$(records_of $S/flight.json)
	expect_ge 1 "$n" "records read from the flight recorder"
	[ "$n" -le 2048 ] || fail "$n records from a 1024-record ring per CPU"
	# the default session saw none of it
	$CTL -j stream -d 0.2 -o $S/default.json 2>/dev/null
	expect_eq 0 "$(records_of $S/default.json)" "records in the default session"
	expect_fail 1 "delete them first.*EBUSY" $CTL ring del flight
	$CTL probe del "$id"
	$CTL ring del flight
	expect_eq 0 "$(sessions)" "sessions left"
}

# Probes that differ in their arguments are not duplicates, in one
# command or in two; the same probe twice in one session still is.
t_duplicates_per_session() {
	trap cleanup EXIT
	stream_start 1 -e kprobe:$SYS --args 1 -e kprobe:$SYS --args 2
	stream_end 1
	expect_fail 1 "identical probe.*EEXIST" \
		$CTL stream -e kprobe:$SYS -e kprobe:$SYS -d 0.1
	$CTL ring create dup >/dev/null
	$CTL probe add kprobe $SYS --ring dup >/dev/null
	expect_fail 1 "identical probe.*EEXIST" $CTL probe add kprobe $SYS --ring dup
	$CTL probe add kprobe $SYS >/dev/null	# the default session's
	$CTL probe del all >/dev/null
	$CTL ring del dup
}

tests t_eight_streams_at_once t_kill_frees_its_session \
	t_stalled_reader_loses_only_its_own t_perfmon_cannot_read_roots_session \
	t_named_session_flight_recorder t_duplicates_per_session
