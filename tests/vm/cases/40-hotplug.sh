# SPDX-License-Identifier: GPL-2.0
# CPU hotplug: the rings and counters of every possible CPU outlive its
# going offline, records keep flowing on the CPUs that stay, and a CPU
# that comes back (or comes up after a probe was added) records again.

S=$T_SCRATCH
LOOP=build/tools/getpgid_loop
CPU1=/sys/devices/system/cpu/cpu1/online
GETPGID=kprobe:__x64_sys_getpgid

cpu1() {	# 0 | 1: take cpu1 offline or bring it back, if not already
	[ "$(cat $CPU1)" = "$1" ] || echo "$1" > $CPU1
}

# on_cpu CPU CALLS: CALLS getpgid from a process pinned to CPU; prints its pid.
on_cpu() {
	taskset -c "$1" $LOOP -w 0 "$2" >/dev/null &
	echo $!
	wait $!
}

# tally FILE: "pid cpu kind count" for every combination in a JSON stream.
tally() {
	python3 -c '
import collections, json, sys
c = collections.Counter()
for line in open(sys.argv[1]):
    r = json.loads(line)
    c[r["pid"], r["cpu"], r["kind"]] += 1
for k, n in c.items():
    print(*k, n)' "$1" > "$1.tally"
}

# count TALLY PID CPU KIND: records of PID on CPU of KIND ("-": any)
count() {
	awk -v p="$2" -v c="$3" -v k="$4" '
		$1 == p && (c == "-" || $2 == c) && (k == "-" || $3 == k) { n += $4 }
		END { print n + 0 }' "$1"
}

# summary FILE: "hits records lost delivered" of the getpgid kprobe line
# of a stream's summary (stream_stop must have run).
summary() {
	awk -v p=$GETPGID '
		$1 == "PROBE" { for (i = 1; i <= NF; i++) col[$i] = i }
		$1 == p { print $col["HITS"], $col["RECORDS"], $col["LOST"], $col["DELIVERED"] }' "$1"
}

t_cpu1_can_go_offline() {
	[ -w $CPU1 ] || fail "no $CPU1: the kernel cannot offline cpu1"
	cpu1 1
	expect_eq 2 "$(nproc --all)" "possible CPUs"
}

t_offline_online_while_streaming() {
	local before after bg i s0 s1 t hits rec lost dlv gaps
	cpu1 1
	# Hotplug, not reader speed, is under test (make bench measures that):
	# with cpu1 offline the reader shares cpu0 with the workloads, so a
	# ring that holds the whole run keeps the counts below exact.
	$CTL ring set records 65536
	stream_bg $S/hp.json -e $GETPGID
	before=$(on_cpu 1 500)
	# unpinned and throttled: a steady trickle besides the bursts
	$LOOP -d 60 -s 50000 >/dev/null &
	bg=$!
	s0="" s1=""
	for i in 1 2 3; do
		cpu1 0
		s0+=" $(on_cpu 0 200)"
		cpu1 1
		s1+=" $(on_cpu 1 200)"
	done
	after=$(on_cpu 1 500)
	kill $bg
	wait $bg || true
	stream_stop
	read -r hits rec lost dlv < <(summary $S/hp.json.err)
	expect_ge 2200 "$hits" "hits"
	expect_eq "$hits" "$((rec + lost))" "hits = records + lost"
	expect_eq "$rec" "$dlv" "records delivered"
	expect_eq 0 "$lost" "records lost with a ring that holds the run"
	gaps=$(sed -n 's/.* \([0-9]*\) sequence gaps$/\1/p' $S/hp.json.err)
	expect_eq 0 "$gaps" "sequence gaps"
	expect_eq "$rec" "$(wc -l < $S/hp.json)" "records in the output"
	tally $S/hp.json
	t=$S/hp.json.tally
	expect_eq 500 "$(count $t $before 1 kprobe)" "cpu1 records before the first offline"
	expect_eq 500 "$(count $t $after 1 kprobe)" "cpu1 records after the last online"
	for i in $s0; do
		expect_eq 200 "$(count $t $i 0 kprobe)" "cpu0 records while cpu1 is offline (pid $i)"
	done
	for i in $s1; do
		expect_eq 200 "$(count $t $i 1 kprobe)" "cpu1 records once back online (pid $i)"
	done
	expect_ge 1 "$(count $t $bg - kprobe)" "records of the unpinned workload"
	expect_eq 0 "$(probe_count)" "stream probes removed"
}

# stats ID: "hits records+lost_ring" of a probe
stats() {
	json_get "$($CTL -j probe show "$1")" \
		'"%d %d" % (j["stats"]["hits"], j["stats"]["records"] + j["stats"]["lost_ring"])'
}

# The module loaded and probes added while cpu1 is offline: they fire and
# record on cpu1 once it is back.
t_added_while_offline() {
	local pid
	cpu1 0
	rmmod rawprobe
	module_load
	$CTL probe add kprobe __x64_sys_getpgid >/dev/null
	$CTL probe add kretprobe __x64_sys_getpgid >/dev/null
	cpu1 1
	pid=$(on_cpu 1 300)
	$CTL stream -d 0.3 > $S/off.txt 2>/dev/null
	expect_eq 300 "$(awk -v p=$pid '$2 == 1 && $3 == p && $5 == "kprobe:__x64_sys_getpgid"' $S/off.txt | wc -l)" \
		"kprobe records on cpu1 once it is back"
	expect_eq 300 "$(awk -v p=$pid '$2 == 1 && $3 == p && $5 == "kretprobe:__x64_sys_getpgid"' $S/off.txt | wc -l)" \
		"kretprobe records on cpu1 once it is back"
	$CTL probe del all
}

# The counters of an offline CPU still count.
t_offline_cpu_counters() {
	local id
	cpu1 1
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	on_cpu 1 300 >/dev/null
	cpu1 0
	expect_eq "300 300" "$(stats "$id")" "hits, records + lost, with cpu1 offline"
	cpu1 1
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probe deleted"
}

# Last, whatever failed before: later cases want both CPUs.
t_cpu1_back_online() {
	cpu1 1
	expect_eq 0-1 "$(cat /sys/devices/system/cpu/online)" "online CPUs"
}

tests t_cpu1_can_go_offline t_offline_online_while_streaming \
	t_added_while_offline t_offline_cpu_counters t_cpu1_back_online
