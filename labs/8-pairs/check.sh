# SPDX-License-Identifier: GPL-2.0
#
# Lab 8's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab8.sh
export DURATION=5

# hist_sum FILE EXPR: EXPR of every histogram (as d) the student's
# latency wrote to FILE, added; "bad" if FILE holds no such JSON
hist_sum() {
	python3 - "$1" "$2" <<'PY' 2>/dev/null || echo bad
import json, sys
print(sum(eval(sys.argv[2], {"d": json.loads(l)}) for l in open(sys.argv[1]) if l.strip()))
PY
}

# Three sleeps of 50 ms by one process, lab8-sleeper (perl, renamed):
# three in the histograms, none shorter than 50 ms. (One process: a
# sleeper's exit wakes its parent, which a wrong key could take for the
# end of its sleep.)
ex_sleeps() {
	local n
	cp "$(command -v perl)" /tmp/lab8-sleeper
	student_bg __x64_sys_clock_nanosleep sleeps lab8-sleeper $S/s.json
	/tmp/lab8-sleeper -MTime::HiRes=nanosleep -e 'nanosleep(5e7) for 1 .. 3'
	wait $STUDENT_PID || hint "sleeps failed"
	n=$(hist_sum $S/s.json 'd["count"]')
	[ "$n" != bad ] || hint "$S/s.json holds no histogram JSON (rawprobectl -j latency -o FILE)"
	[ "$n" != 0 ] ||
		hint "no sleep was timed: does the end's key name the task woken (try_to_wake_up's p), not the waker?"
	[ "$n" = 3 ] || hint "lab8-sleeper slept 3 times; the histograms count $n"
	n=$(hist_sum $S/s.json 'int(d["min"] < 50000000)')
	[ "$n" = 0 ] || hint "a sleep of 50 ms measured shorter: from the system call to the wakeup?"
}

# 32 direct reads of 4 KiB from a null_blk device: 32 requests.
ex_block() {
	local n
	modprobe -d "$KMOD_ROOT" null_blk nr_devices=1 irqmode=0 ||
		hint "modprobe null_blk failed (not the exercise's fault)"
	for n in $(seq 50); do [ -b /dev/nullb0 ] && break; sleep 0.1; done
	student_bg blk_mq_start_request block_latency $S/b.json
	dd if=/dev/nullb0 of=/dev/null bs=4k count=32 iflag=direct 2>/dev/null
	wait $STUDENT_PID || hint "block_latency failed"
	n=$(hist_sum $S/b.json 'd["count"]')
	[ "$n" != bad ] || hint "$S/b.json holds no histogram JSON"
	[ "$n" = 32 ] || hint "dd made 32 requests; the histograms count $n"
}

# Two loopback sessions held 200 and 400 ms: one in [200, 300) ms, one
# in [400, 500).
ex_tcp() {
	local got
	ip link set lo up
	student_bg tcp_v4_connect tcp_lifetimes $S/t.json
	python3 - <<'PY'
import socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(4)
for hold in (0.2, 0.4):
    c = socket.create_connection(srv.getsockname())
    a, _ = srv.accept()
    time.sleep(hold)
    c.close()
    a.close()
PY
	wait $STUDENT_PID || hint "tcp_lifetimes failed"
	got=$(python3 -c 'import json, sys; print(" ".join(str(b.get("low")) for l in open(sys.argv[1]) if l.strip() for b in json.loads(l)["buckets"] if b["count"]))' $S/t.json 2>/dev/null) ||
		hint "$S/t.json holds no histogram JSON"
	[ "$got" = "200000000 400000000" ] ||
		hint "two sessions of 200 and 400 ms; the buckets holding them start at: $got (ns)"
}

lab_cleanup() { rm -f /tmp/lab8-sleeper; rmmod null_blk; }

exercise "sleeps: a command's sleeps, system call to wakeup" ex_sleeps
exercise "block_latency: block requests, issue to completion (biolatency)" ex_block
exercise "tcp_lifetimes: TCP sessions, connect to close (tcplife)" ex_tcp
