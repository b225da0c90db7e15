# SPDX-License-Identifier: GPL-2.0
# The data plane: /dev/rawprobe, ring modes, resizing, accounting.

S=$T_SCRATCH

t_device_contract() {
	local out
	out=$(build/tools/ring_mmap) || { echo "$out" >&2; fail "see above"; }
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "ring_mmap"
}

# Hostile callers of the device: mmap sweep,
# mremap/mprotect/fork, poll under munmap, bad ioctls, 2000 opens,
# unprivileged open; nothing left referenced.
t_device_hostile() {
	local out
	out=$(build/tools/dev_hostile) || { echo "$out" >&2; fail "see above"; }
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "dev_hostile"
}

t_resize_refused_while_mapped() {
	$CTL stream -q >/dev/null 2>&1 &
	local pid=$!
	sleep 1
	expect_fail 1 "a reader has the rings mapped.*EBUSY" $CTL ring set records 128
	kill -INT $pid; wait $pid
	$CTL ring set records 128
	$CTL ring set records $RING_DEFAULT
}

# A small overwrite ring, filled past capacity with no reader: the
# stream afterwards gets the newest records, and every hit is accounted.
t_overwrite_mode() {
	local id j n
	$CTL ring set records 64 mode overwrite
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'
	$CTL -j stream -d 0.5 -o $S/ow.json 2>$S/ow.err
	n=$(grep -c "\"probe_id\":$id" $S/ow.json || true)
	expect_ge 1 "$n" "newest records read"
	[ "$n" -le 128 ] || fail "read $n records from a 64-record ring per CPU"
	j=$($CTL -j probe show $id)
	expect_eq 1000 "$(json_get "$j" 'j["stats"]["hits"]')" "hits"
	$CTL probe del "$id"
	$CTL ring set records $RING_DEFAULT mode discard
}

# Discard mode, tiny ring, no reader: the ring fills, the rest is lost,
# and the stream's summary agrees with the probe's counters.
t_discard_accounting() {
	local id j rec lost
	$CTL ring set records 64
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	taskset -c 0 python3 -c 'import os; [os.getpgid(0) for _ in range(500)]'
	j=$($CTL -j probe show $id)
	rec=$(json_get "$j" 'j["stats"]["records"]')
	lost=$(json_get "$j" 'j["stats"]["lost_ring"]')
	expect_eq 500 "$((rec + lost))" "records + lost = hits"
	expect_ge 436 "$lost" "lost once the 64-record ring is full"
	$CTL probe del "$id"
	$CTL ring set records $RING_DEFAULT
}

t_poll_wakes_reader() {
	# stream blocks in poll(); a single record must reach it (flush timer)
	# while it runs, not only when it exits
	stream_bg $S/poll.json -e kprobe:__x64_sys_getpgid
	python3 -c 'import os; os.getpgid(0)'
	wait_for "has_text $S/poll.json getpgid" 50 ||
		fail "record not delivered within 5 s"
	stream_stop
}

t_poll_flush_rearms() {
	local out
	$CTL probe add kprobe __x64_sys_getpgid >/dev/null
	out=$(build/tools/ring_mmap --wake) || { echo "$out" >&2; fail "see above"; }
	expect_match "^ok - ring: one record wakes a sleeping reader" "$out" "woken"
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "ring_mmap --wake"
	$CTL probe del all
}

# The writers' wakeup, not the flush timer: with a 60 s flush period a
# burst of a watermark's records must wake a sleeping reader within 10 s.
t_watermark_wakes_reader() {
	local out
	module_unload
	module_load flush_ms=60000 || fail "insmod flush_ms=60000"
	$CTL probe add kprobe __x64_sys_getpgid >/dev/null
	out=$(build/tools/ring_mmap --burst) || { echo "$out" >&2; fail "see above"; }
	expect_match "^ok - ring: a watermark of records wakes" "$out" "woken"
	expect_match "^[1-9][0-9]* passed, 0 failed" "$(echo "$out" | tail -1)" "ring_mmap --burst"
	$CTL probe del all
	module_unload
	expect_fail 1 "Invalid parameters" insmod "$KO" flush_ms=0
	module_load
}

# A stream stopped while 5,000 records pile up (fewer than a ring holds)
# and then told to end must still print every one of them: its last
# drains take a batch of 1,024 at a time, and once took only one batch,
# leaving the rest unread and uncounted (found by make bench).
t_stream_delivers_the_backlog() {
	local pid h lines
	$CTL stream -e kretprobe:__x64_sys_getpgid > $S/backlog.txt \
		2> $S/backlog.err &
	pid=$!
	wait_for "grep -q ' __x64_sys_getpgid+0x' /sys/kernel/debug/kprobes/list" 100 ||
		fail "the stream added no probe: $(cat $S/backlog.err)"
	sleep 0.5	# in its loop
	kill -STOP $pid
	taskset -c 0 python3 -c 'import os; [os.getpgid(0) for _ in range(5000)]'
	kill -INT $pid
	kill -CONT $pid
	wait $pid || fail "stream exit status $?: $(cat $S/backlog.err)"
	# HITS RECORDS LOST FILTERED DELIVERED
	h=($(awk '$1 == "kretprobe:__x64_sys_getpgid" { print $2, $4, $6 }' \
		$S/backlog.err))
	expect_ge 5000 "${h[0]}" "hits"
	expect_eq 0 "${h[1]}" "lost"
	expect_eq "${h[0]}" "${h[2]}" "delivered, of the hits"
	lines=$(grep -c '__x64_sys_getpgid.* = ' $S/backlog.txt || true)
	expect_eq "${h[0]}" "$lines" "lines printed"
}

# stream --drain-log: a reader stopped while a 1,024-record ring
# overflows logs, in its first pass after, a backlog of the whole ring
# and the losses the summary reports; the passes it logged delivered no
# more than the summary's count, and the file ends with its own instant.
t_drain_log() {
	local pid h
	$CTL ring set records 1024
	$CTL stream -e kprobe:__x64_sys_getpgid --drain-log $S/drain.log \
		> /dev/null 2> $S/drain.err &
	pid=$!
	wait_for "[ \$(armed_at __x64_sys_getpgid) = 1 ]" 100 ||
		fail "the stream added no probe: $(cat $S/drain.err)"
	taskset -c 0 python3 -c 'import os; [os.getpgid(0) for _ in range(500)]'
	sleep 0.5	# drained
	kill -STOP $pid
	taskset -c 0 python3 -c 'import os; [os.getpgid(0) for _ in range(3000)]'
	kill -CONT $pid
	sleep 0.5	# a pass after the overflow
	kill -INT $pid
	wait $pid || fail "stream exit status $?: $(cat $S/drain.err)"
	$CTL ring set records $RING_DEFAULT
	# HITS LOST DELIVERED
	h=($(awk '$1 == "kprobe:__x64_sys_getpgid" { print $2, $4, $6 }' \
		$S/drain.err))
	expect_ge 3500 "${h[0]}" "hits"
	expect_ge 1 "${h[1]}" "lost, by the summary"
	expect_match '^# rawprobectl drain log: [0-9]+ rings of 1024 records$' \
		"$(head -1 $S/drain.log)" "header"
	# passes, max backlog, records, last lost, start_ns in order, end >= last
	set -- $(awk '/^#/ { if ($2 == "end") end = $3; next }
		NF != 6 { bad++ }
		$1 < last { bad++ }
		{ n++; last = $1; rec += $4; lost = $6
		  if ($5 > max) max = $5 }
		END { print n + 0, max + 0, rec + 0, lost + 0, bad + 0,
			  (end >= last) }' $S/drain.log)
	expect_ge 3 "$1" "passes logged"
	expect_eq 1024 "$2" "the largest backlog: the full ring"
	[ "$3" -le "${h[2]}" ] && [ "$3" -ge 1024 ] ||
		fail "the passes delivered $3 records, the summary ${h[2]}"
	expect_eq "${h[1]}" "$4" "lost, by the log's last pass"
	expect_eq 0 "$5" "malformed or unordered lines"
	expect_eq 1 "$6" "# end comes last, after every pass"
}

# The clock (uapi enum rawprobe_clock): auto, the default, is the TSC
# where the kernel's clocksource is tsc (the test guest's: tests/vm/run
# boots with tsc=reliable); a change is refused while a probe is
# registered; every record, kprobe and kretprobe, reaches the stream in
# CLOCK_MONOTONIC ns, within the span the workload's own clock_gettime()
# saw, with a latency inside it too. With the clocksource switched to
# hpet, auto falls back to mono, and doctor says why.
CS=/sys/devices/system/clocksource/clocksource0/current_clocksource

t_clock_auto() {
	local span
	trap '$CTL probe del all >/dev/null 2>&1 || true
	      echo tsc > $CS; $CTL ring set clock auto >/dev/null 2>&1 || true' EXIT
	expect_eq tsc "$(cat $CS)" "the guest's clocksource"
	expect_match '^clock tsc \(tsc offered: [0-9]+\.[0-9]{3} MHz\)' \
		"$($CTL ring show)" "ring show"
	expect_match 'clock +tsc \([0-9]+\.[0-9]{3} MHz\)' "$($CTL doctor)" \
		"doctor"
	$CTL probe add kprobe vfs_read >/dev/null
	expect_fail 1 'probes are registered: remove them first' \
		$CTL ring set clock mono
	expect_fail 2 'the clock goes in a command of its own' \
		$CTL ring set clock mono records 1024
	expect_fail 2 "clock is auto, mono or tsc, not 'tcs'" \
		$CTL ring set clock tcs
	$CTL probe del all >/dev/null

	stream_bg $S/tsc.json -e kprobe:__x64_sys_getpgid \
		-e kretprobe:__x64_sys_getpgid
	span=$(taskset -c 0 python3 -c '
import os, time
lo = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
for _ in range(200):
    os.getpgid(0)
print(lo, time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
	stream_stop
	set -- $span
	expect_eq 400 "$(count_records $S/tsc.json "r['comm'] == 'python3' and \
		$1 <= r['ts_ns'] <= $2")" "records inside the workload's span"
	expect_eq 200 "$(count_records $S/tsc.json "r['comm'] == 'python3' and \
		'latency_ns' in r and 0 < r['latency_ns'] < $2 - $1")" \
		"kretprobe latencies inside it"

	$CTL ring set clock mono
	expect_match '^clock mono' "$($CTL ring show | tail -1)" "mono asked"
	expect_match 'WARN +clock +mono, while the TSC would serve' \
		"$($CTL doctor)" "doctor on mono by choice"
	echo hpet > $CS
	$CTL ring set clock auto
	expect_match '^clock mono' "$($CTL ring show | tail -1)" \
		"auto with clocksource hpet"
	expect_match 'clock +mono \(fallback\): the kernel.s clocksource is hpet' \
		"$($CTL doctor)" "doctor says why"
	echo tsc > $CS
	$CTL ring set clock auto
	expect_match '^clock tsc' "$($CTL ring show | tail -1)" \
		"auto with clocksource tsc again"
}

# Two `ring set`s of different fields at once both land (each used to
# fill what it did not ask from a geometry read before the resize lock:
# a records-then-mode pair ended at the old record count).
# The records' allocation takes long enough for the mode's request to
# arrive during it; three rounds, each checked.
t_concurrent_ring_sets_both_land() {
	local r pid j
	rings_allocate
	for r in 65536:overwrite 32768:discard 65536:overwrite; do
		$CTL ring set records "${r%:*}" &
		pid=$!
		$CTL ring set mode "${r#*:}"
		wait $pid
		j=$($CTL -j ring show)
		expect_eq "${r%:*} ${r#*:}" \
			"$(json_get "$j" 'j["records"]') $(json_get "$j" 'j["mode"]')" \
			"records and mode after both"
	done
	$CTL ring set records $RING_DEFAULT mode discard
}

tests t_concurrent_ring_sets_both_land t_device_contract t_device_hostile t_poll_flush_rearms t_watermark_wakes_reader t_resize_refused_while_mapped t_overwrite_mode \
	t_discard_accounting t_poll_wakes_reader t_stream_delivers_the_backlog \
	t_drain_log t_clock_auto
