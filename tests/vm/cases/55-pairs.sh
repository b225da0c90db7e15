# SPDX-License-Identifier: GPL-2.0
# latency: a pair's start and end joined in the kernel by a key (a table
# of starts every CPU shares, kmod/pair_core.h), against workloads whose
# answer is known: sleeps of a known length, starts that never end, more
# starts than the table holds; every start and end counted by where it
# went, nothing left behind.

S=$T_SCRATCH

lo_up() {
	ip link set lo up
}

# docs_sum FILE EXPR: EXPR of every JSON document of FILE (as d), added.
docs_sum() {
	python3 - "$1" "$2" <<'PY'
import json, sys
print(sum(eval(sys.argv[2], {"d": json.loads(l)}) for l in open(sys.argv[1]) if l.strip()))
PY
}

# count_json_ok FILE: FILE's documents as the schema's count says.
count_json_ok() {
	schema count "$1"
}

# entries FILE CODE: what CODE prints, e every entry of FILE's documents.
entries() {
	python3 - "$1" "$2" <<'PY'
import json, sys
e = [x for l in open(sys.argv[1]) if l.strip() for x in json.loads(l)["entries"]]
exec(sys.argv[2])
PY
}

# pair_stat ERRFILE NAME: a count of the "pair: ..." summary line.
pair_stat() {
	python3 - "$1" "$2" <<'PY'
import re, sys
line = [l for l in open(sys.argv[1]) if l.startswith("pair: ")][-1]
print(dict((k, int(v)) for v, k in re.findall(r"([0-9]+) ([a-z ]+?)(?:,|$)", line[6:].strip()))[sys.argv[2]])
PY
}

# A sleep's latency from its system call to the wakeup of its task, by
# pid: each of sleeper's 6 sleeps of 50 ms is in the histogram once and
# lasted at least 50 ms; only sleeper's starts (--comm), any waker's end.
t_pair_sleep_known() {
	cp "$(command -v sleep)" $S/sleeper
	bg_start $S/sl.out -j latency --comm sleeper --key pid \
		--from kprobe:__x64_sys_clock_nanosleep \
		--from kprobe:__x64_sys_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid' -o $S/sl.json
	for _ in 1 2 3 4 5 6; do $S/sleeper 0.05; done
	bg_stop INT
	expect_eq 6 "$(docs_sum $S/sl.json 'd["count"]')" "sleeps in the histogram"
	expect_eq 1 "$(docs_sum $S/sl.json 'int(d["min"] >= 50000000)')" \
		"the shortest at least 50 ms: $(cat $S/sl.json)"
	expect_eq 0 "$(docs_sum $S/sl.json 'd["count"] - sum(b["count"] for b in d["buckets"])')" \
		"every sleep in a bucket"
	expect_eq 6 "$(pair_stat $S/sl.out.err starts)" "starts"
	expect_eq 6 "$(pair_stat $S/sl.out.err matched)" "matched"
	expect_eq 0 "$(pair_stat $S/sl.out.err pending)" "pending"
}

# -f openmetrics, every interval the run so far (Prometheus' counters
# only grow): the last exposition has the three sleeps, in seconds, each
# in the buckets from 50 ms up. Its probes armed through kprobes
# (RAWPROBE_ARM=kprobes), the path a pair's other tests do not take.
t_pair_openmetrics() {
	cp "$(command -v sleep)" $S/sleeper4
	RAWPROBE_ARM=kprobes bg_start $S/om.out latency -f openmetrics -i 0.5 \
		--comm sleeper4 --key pid --from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid'
	expect_eq 2 "$(grep -c -e ' __x64_sys_clock_nanosleep+0x' -e ' try_to_wake_up+0x' /sys/kernel/debug/kprobes/list)" \
		"RAWPROBE_ARM=kprobes: both are kprobes"
	for _ in 1 2 3; do $S/sleeper4 0.05; done
	bg_stop INT
	expect_eq 3 "$(grep '^rawprobe_latency_seconds_count{' $S/om.out | tail -1 | awk '{ print $2 }')" \
		"the run's count, last: $(cat $S/om.out)"
	expect_eq 3 "$(grep '^rawprobe_latency_seconds_bucket{.*le="+Inf"}' $S/om.out | tail -1 | awk '{ print $2 }')" \
		"+Inf bucket"
	expect_eq 1 "$(grep '^rawprobe_latency_seconds_sum{' $S/om.out | tail -1 | awk '{ print ($2 >= 0.15) }')" \
		"the sum, at least 3 x 50 ms"
	expect_eq "" "$(grep '^rawprobe_latency_seconds_count{' $S/om.out | awk 'p > $2 { print "went back: " p " " $2 } { p = $2 }')" \
		"no count goes backwards"
}

# Where each start and end goes, with --expire 0.2: five starts of one
# key (four replaced), an end after 0.5 s (its start expired), a start
# and its end at once (matched), an end alone; at rest
# starts = matched + expired + replaced + pending.
PAIRS='import os, time
open("/proc/self/comm", "w").write("rp-pairs")
for _ in range(5):
    os.getpgid(0)
time.sleep(0.5)
os.getppid()
os.getpgid(0); os.getppid()
os.getppid()'
t_pair_causes() {
	bg_start $S/pc.out -j latency --comm rp-pairs --key pid --expire 0.2 \
		--from kprobe:__x64_sys_getpgid --to kprobe:__x64_sys_getppid \
		-o $S/pc.json
	py "$PAIRS"
	bg_stop INT
	expect_eq 6 "$(pair_stat $S/pc.out.err starts)" "starts"
	expect_eq 4 "$(pair_stat $S/pc.out.err replaced)" "replaced"
	expect_eq 1 "$(pair_stat $S/pc.out.err expired)" "expired"
	expect_eq 1 "$(pair_stat $S/pc.out.err matched)" "matched"
	expect_ge 2 "$(pair_stat $S/pc.out.err 'ends without a start')" \
		"ends without a start (anyone's getppid is an end)"
	expect_eq 0 "$(pair_stat $S/pc.out.err pending)" "pending"
	expect_eq 1 "$(docs_sum $S/pc.json 'd["count"]')" "latencies counted"
}

# --by KEYS other than comm: count's keys, of the end's (here the task
# switched in: the woken one, whose pid is the key), as count's tables.
t_pair_by_keys() {
	local pid
	cp "$(command -v sleep)" $S/sleeper6
	bg_start $S/bk.out -j latency --by pid,comm --comm sleeper6 \
		--from kprobe:__x64_sys_clock_nanosleep --from-key pid \
		--to kprobe:finish_task_switch.isra.0 --to-key pid -o $S/bk.json
	$S/sleeper6 0.05 & pid=$!
	wait $pid
	bg_stop INT
	expect_eq "$pid sleeper6 1 1 1" \
		"$(python3 -c 'import json, sys; e = [e for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["entries"]]; print(" ".join(str(x) for x in (e[0]["pid"], e[0]["comm"], e[0]["count"], int(e[0]["min"] >= 50000000))), len(e)) if e else print("none")' $S/bk.json)" \
		"the sleep under its pid and comm: $(cat $S/bk.json)"
}

# The start's task as keys: a sleep's end (try_to_wake_up) runs in its
# waker, a timer interrupt's task, but start_comm and start_pid are the
# sleeper's, taken from the table with the start's time.
t_pair_start_keys() {
	local pid
	cp "$(command -v sleep)" $S/sleeper7
	bg_start $S/sk.out -j latency --by start_comm,start_pid,comm \
		--comm sleeper7 --key pid \
		--from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid' -o $S/sk.json
	$S/sleeper7 0.05 & pid=$!
	wait $pid
	bg_stop INT
	schema count $S/sk.json
	expect_eq "sleeper7 $pid 1" \
		"$(python3 -c 'import json, sys; e = [e for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["entries"]]; print(" ".join(str(x) for x in (e[0]["start_comm"], e[0]["start_pid"], e[0]["count"]))) if len(e) == 1 else print(e)' $S/sk.json)" \
		"the sleep under its sleeper: $(cat $S/sk.json)"
	expect_fail 2 "start_comm: the task of a pair's start" \
		$CTL count kprobe:vfs_read --by start_comm
}

# The start's stack as a key: a sleep's, from its system call (the
# start's function the innermost frame, the syscall entry below it), not
# the end's (try_to_wake_up, from the timer that ends the sleep).
t_pair_start_stack() {
	cp "$(command -v sleep)" $S/sleeper8
	bg_start $S/ss.out -j latency --by start_stack --comm sleeper8 --key pid \
		--from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid' -o $S/ss.json
	$S/sleeper8 0.05
	$S/sleeper8 0.05
	bg_stop INT
	count_json_ok $S/ss.json
	expect_eq "2 __x64_sys_clock_nanosleep 1 0" "$(entries $S/ss.json '
f = [s.split("+")[0] for s in e[0]["start_stack"]] if e else []
print(sum(x["count"] for x in e), f[0] if f else "none",
      int(any(s.startswith(("do_syscall_64", "entry_SYSCALL_64")) for s in f)),
      int("try_to_wake_up" in f))')" \
		"both sleeps under the syscall's stack: $(cat $S/ss.json)"
	expect_fail 1 "one stack: its own or its start's" $CTL latency --key pid \
		--by stack,start_stack --from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid'
	expect_eq 0 "$(probe_count)" "probes left"
}

# The start's arguments as keys (--by start.NAME): getpgid(N), then
# getppid(), by the same process: the latency from one to the other is
# counted under the N the start saw, which the end does not know: 3
# under 111, 5 under 222; a start that computes no such argument, or a
# string, is refused.
GETPGIDS='import os
open("/proc/self/comm", "w").write("rp-carry")
for n in [111] * 3 + [222] * 5:
    try:
        os.getpgid(n)
    except OSError:
        pass
    os.getppid()'
t_pair_start_args() {
	local ids end
	bg_start $S/sa.out -j latency --by start.pid --comm rp-carry --key tgid \
		--from tracepoint:syscalls:sys_enter_getpgid --args pid \
		--to tracepoint:syscalls:sys_enter_getppid -o $S/sa.json
	py "$GETPGIDS"
	bg_stop INT
	count_json_ok $S/sa.json
	expect_eq "111:3 222:5" "$(entries $S/sa.json '
print(" ".join("%s:%d" % (x["start.pid"], x["count"]) for x in sorted(e, key=lambda x: x["start.pid"])))')" \
		"the latencies under the start's pid argument: $(cat $S/sa.json)"
	# the same from kprobes (the start's argument by BTF), persistent
	ids=$($CTL probe add pair --comm rp-carry --key tgid --by start.pid \
		--from kprobe:__x64_sys_getpgid --args pid \
		--to kprobe:__x64_sys_getppid)
	end=$(echo $ids | cut -d' ' -f2)
	py "$GETPGIDS"
	expect_eq "111:3 222:5" \
		"$(json_get "$($CTL -j agg show "$end")" '" ".join("%d:%d" % (e["start.arg0"], e["count"]) for e in sorted(j["entries"], key=lambda e: e["start.arg0"]))')" \
		"agg show: under the start's argument"
	$CTL probe del $ids
	expect_fail 2 "computes no argument 'fd'" $CTL latency --key tgid \
		--by start.fd --from tracepoint:syscalls:sys_enter_getpgid --args pid \
		--to tracepoint:syscalls:sys_enter_getppid
	expect_fail 2 "numbers, not strings" $CTL latency --key tgid \
		--by start.filename --from tracepoint:syscalls:sys_enter_openat \
		--args filename:str --to tracepoint:syscalls:sys_exit_openat
	expect_fail 2 "an argument of a pair's start" $CTL count kprobe:vfs_read \
		--by start.count
	expect_eq 0 "$(probe_count)" "probes left"
}

# A table of --max-keys 4 (8 slots): 20 tasks each start once and never
# end; every start is stored or counted full, none is lost.
FORKS='import os
open("/proc/self/comm", "w").write("rp-full")
kids = []
for _ in range(20):
    pid = os.fork()
    if pid == 0:
        os.getpgid(0)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)'
t_pair_table_full() {
	local starts full
	bg_start $S/tf.out -j latency --comm rp-full --key pid --max-keys 4 \
		--from kprobe:__x64_sys_getpgid --to kprobe:__x64_sys_getppid \
		-o $S/tf.json
	py "$FORKS"
	bg_stop INT
	starts=$(pair_stat $S/tf.out.err starts)
	full=$(pair_stat $S/tf.out.err full)
	expect_eq 20 "$((starts + full))" "starts + full"
	expect_ge 4 "$starts" "starts stored"
	expect_ge 1 "$full" "starts with no room"
	expect_eq "$starts" "$(pair_stat $S/tf.out.err pending)" "all pending"
}

# An argument as the key (the task a wakeup wakes, p->pid, against the
# sleeper's own pid): the runqlat shape, by field path on both ends.
t_pair_field_keys() {
	cp "$(command -v sleep)" $S/sleeper2
	bg_start $S/fk.out -j latency --comm sleeper2 \
		--from kprobe:__x64_sys_clock_nanosleep --from-key pid \
		--from kprobe:__x64_sys_nanosleep --from-key tgid \
		--to kprobe:try_to_wake_up --to-key 'p->tgid' -o $S/fk.json
	$S/sleeper2 0.05
	bg_stop INT
	expect_eq 1 "$(docs_sum $S/fk.json 'd["count"]')" "the sleep, by tgid"
}

# Block I/O from issue to completion, biolatency's question, on a
# null_blk device: 64 direct reads of 4 KiB are 64 requests, each
# started and ended once (keyed by the request), none left pending.
t_pair_block_io() {
	null_blk_up
	bg_start $S/bio.out -j latency --key rq --from kprobe:blk_mq_start_request \
		--to kprobe:blk_mq_end_request -o $S/bio.json
	dd if=/dev/nullb0 of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
	bg_stop INT
	expect_eq 64 "$(docs_sum $S/bio.json 'd["count"]')" "requests in the histogram"
	expect_eq 64 "$(pair_stat $S/bio.out.err starts)" "requests started"
	expect_eq 64 "$(pair_stat $S/bio.out.err matched)" "requests ended"
	expect_eq 0 "$(pair_stat $S/bio.out.err 'ends without a start')" "ends without a start"
	expect_eq 0 "$(pair_stat $S/bio.out.err pending)" "pending"
	# by the issuer: dd's, not the completion's task
	bg_start $S/bic.out -j latency --key rq --by start_comm \
		--from kprobe:blk_mq_start_request \
		--to kprobe:blk_mq_end_request -o $S/bic.json
	dd if=/dev/nullb0 of=/dev/null bs=4k count=64 iflag=direct 2>/dev/null
	bg_stop INT
	expect_eq "64 1" \
		"$(python3 -c 'import json, sys; e = [e for l in open(sys.argv[1]) if l.strip() for e in json.loads(l)["entries"]]; print(sum(x["count"] for x in e), int(sum(x["count"] for x in e if x["start_comm"] == "dd") >= 32))' $S/bic.json)" \
		"the requests, most of them dd's: $(cat $S/bic.json)"
}

# runqlat's question: a task from its wakeup (or its birth) to its
# running, keyed by the woken task (p->pid) at the start and by the task
# switched in (pid) at the end; counted by the end's comm, the woken
# task's. rp-runq, started before the probes and asleep on a FIFO, is
# woken by the write that lets it go, then sleeps 8 times: each of those
# 9 wakeups is counted once, and none that ftrace's sched_wakeup did not
# see over the same window. (ftrace may see more: a wakeup that finds
# the task still on its runqueue, ttwu_runnable(), which a slow kernel
# makes, is a sched_wakeup with no activation, and no wait to measure.)
RUNQ='import os, time
open("/proc/self/comm", "w").write("rp-runq")
fd = os.open(os.environ["FIFO"], os.O_RDWR)
open(os.environ["FIFO"] + ".ready", "w").close()
os.read(fd, 1)
for _ in range(8):
    time.sleep(0.02)'
sched_wakeup_off() {
	echo 0 > $TRACING/events/sched/sched_wakeup/enable
	echo 0 > $TRACING/events/sched/sched_wakeup/filter
}
t_pair_runqlat() {
	local n pid
	mkfifo $S/go
	FIFO=$S/go python3 -c "$RUNQ" &
	pid=$!
	wait_for "[ -e $S/go.ready ] && [ \$(awk '{ print \$3 }' /proc/$pid/stat) = S ]" 200 ||
		fail "rp-runq never went to sleep on its FIFO"
	bg_start $S/rq.out -j latency --by comm \
		--from kprobe:ttwu_do_activate --from-key 'p->pid' \
		--from kprobe:wake_up_new_task --from-key 'p->pid' \
		--to kprobe:finish_task_switch.isra.0 --to-key pid -o $S/rq.json
	trap sched_wakeup_off EXIT
	echo "pid == $pid" > $TRACING/events/sched/sched_wakeup/filter
	echo > $TRACING/trace
	echo 1 > $TRACING/events/sched/sched_wakeup/enable
	echo > $S/go
	wait $pid
	sched_wakeup_off
	bg_stop INT
	n=$(docs_sum $S/rq.json 'd["count"] if d["comm"] == "rp-runq" else 0')
	expect_ge 9 "$n" "rp-runq's wakeups to run"
	expect_ge "$n" "$(grep -c 'sched_wakeup:' $TRACING/trace)" \
		"ftrace's sched_wakeup events for rp-runq, at least the pair's"
	expect_ge "$n" "$(pair_stat $S/rq.out.err matched)" \
		"the pair's matches, every task's, rp-runq's among them"
}

# tcplife's question: a TCP session from its connect to its close,
# keyed by the socket; the end only when the state becomes TCP_CLOSE
# (7), by --filter. Three loopback sessions held 200, 500 and 800 ms:
# each in the 100 ms bucket of its length or the next (the handshake
# and the close take a few ms, a debug kernel's a hundred).
TCPLIFE='import socket, time
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(8)
for hold in (0.2, 0.5, 0.8):
    c = socket.create_connection(srv.getsockname())
    a, _ = srv.accept()
    time.sleep(hold)
    c.close()
    a.close()
    time.sleep(0.05)'
t_pair_tcplife() {
	lo_up
	bg_start $S/tl.out -j latency --key sk --linear 100000000 \
		--from kprobe:tcp_v4_connect \
		--to kprobe:tcp_set_state --filter 'state == 7' -o $S/tl.json
	py "$TCPLIFE"
	bg_stop INT
	expect_eq 3 "$(docs_sum $S/tl.json 'd["count"]')" "sessions"
	expect_eq "2 5 8" \
		"$(python3 -c 'import json, sys; print(" ".join(str({2: 2, 3: 2, 5: 5, 6: 5, 8: 8, 9: 8}.get(b["low"] // 100000000, -1)) for l in open(sys.argv[1]) if l.strip() for b in json.loads(l)["buckets"] if b["count"]))' $S/tl.json)" \
		"each session in the bucket of its length or the next: $(cat $S/tl.json)"
	expect_eq 3 "$(pair_stat $S/tl.out.err matched)" "matched"
}

# tcplife's rows: latency --records writes a record a completed pair,
# the start's task (the process that connected, not the one that closed)
# with the end's time and arguments and the latency: the three sessions
# of 200, 500 and 800 ms, each its own row, ended by the closing task;
# a filter on the latency keeps the two longer ones.
t_pair_records() {
	local other
	lo_up
	bg_start $S/lr.out -j latency --records --key sk \
		--from kprobe:tcp_v4_connect \
		--to kprobe:tcp_set_state --filter 'state == 7' -o $S/lr.json
	py "open('/proc/self/comm', 'w').write('rp-tcplife')
$TCPLIFE
open('$S/lr.pid', 'w').write(str(__import__('os').getpid()))"
	bg_stop INT
	schema record $S/lr.json
	expect_eq "rp-tcplife rp-tcplife rp-tcplife" \
		"$(python3 -c 'import json, sys; print(" ".join(json.loads(l)["comm"] for l in open(sys.argv[1]) if l.strip()))' $S/lr.json)" \
		"each row's comm, the start's: $(cat $S/lr.json)"
	expect_eq "$(cat $S/lr.pid) 3" \
		"$(python3 -c 'import json, sys; r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(" ".join(str(x) for x in sorted(set(d["tgid"] for d in r))), len(r))' $S/lr.json)" \
		"the rows' process, the one that connected"
	expect_eq "2 5 8" \
		"$(python3 -c 'import json, sys; print(" ".join(str({2: 2, 3: 2, 5: 5, 6: 5, 8: 8, 9: 8}.get(json.loads(l)["latency_ns"] // 100000000, -1)) for l in open(sys.argv[1]) if l.strip()))' $S/lr.json)" \
		"each session's length, in order"
	expect_eq 3 "$(docs_sum $S/lr.json 'int(d["end_pid"] > 0 and d["end_tgid"] > 0)')" \
		"each row's end task"
	expect_eq 3 "$(pair_stat $S/lr.out.err matched)" "matched"
	# the sessions of over 400 ms, as text; the shorter one is filtered
	bg_start $S/lt.out latency --records --key sk --from kprobe:tcp_v4_connect \
		--to kprobe:tcp_set_state --filter 'state == 7 && latency > 400000000'
	# another command beside it, whose summary is of its own probes only
	stale_out $S/other.out
	$CTL trace kprobe:__x64_sys_getppid > $S/other.out 2> $S/other.err &
	other=$!
	wait_for "ready_line $S/other.err || ! kill -0 $other 2>/dev/null" 300
	py "open('/proc/self/comm', 'w').write('rp-tcplife')
$TCPLIFE"
	kill -INT $other
	wait $other
	expect_eq 0 "$(grep -c '^pair: ' $S/other.err)" \
		"another command's summary, no pair line: $(cat $S/other.err)"
	bg_stop INT
	expect_eq 2 "$(grep -cE 'rp-tcplife .*tcp_set_state.* \([0-9]{9} ns\)$' $S/lt.out)" \
		"text: the start's comm, the latency: $(cat $S/lt.out)"
	expect_eq 3 "$(pair_stat $S/lt.out.err matched)" "matched, the short one too"
}

# probe add pair: persistent, read with agg show (the end's histogram)
# and probe show (the pair's counts); deleting one probe keeps the
# other's table; both go with probe del.
t_pair_persistent() {
	local ids start end j
	cp "$(command -v sleep)" $S/sleeper3
	ids=$($CTL probe add pair --comm sleeper3 --key pid \
		--from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid')
	start=$(echo $ids | cut -d' ' -f1)
	end=$(echo $ids | cut -d' ' -f2)
	# both on vmlinux functions' entries: armed through rawprobe's
	# ftrace_ops (kmod/fentry.c), not kprobes
	expect_eq "True True" "$(for id in $start $end; do json_get "$($CTL -j probe show $id)" 'j.get("ftrace", False)'; done | xargs)" \
		"both probes armed through ftrace"
	expect_eq 2 "$(grep -c -e '^__x64_sys_clock_nanosleep ' -e '^try_to_wake_up ' $TRACING/enabled_functions)" \
		"both functions traced"
	for _ in 1 2; do $S/sleeper3 0.05; done
	j=$($CTL -j agg show "$end")
	expect_eq 2 "$(json_get "$j" 'sum(e["count"] for e in j["entries"])')" "agg show: the sleeps: $j"
	expect_eq 1 "$(json_get "$j" 'int(min(e["min"] for e in j["entries"]) >= 50000000)')" "at least 50 ms"
	j=$($CTL -j probe show "$start")
	expect_eq "start pid 2" "$(json_get "$j" '" ".join(str(v) for v in (j["pair"]["role"], j["pair"]["key"], j["pair"]["stats"]["matched"]))')" \
		"the start's role, key and the pair's matches"
	expect_match "^  pair        end, key arg0" "$($CTL probe show "$end")" "probe show's pair line"
	$CTL -j probe list | schema probe_list
	$CTL probe del "$start"
	$S/sleeper3 0.05
	expect_eq 0 "$(json_get "$($CTL -j agg show "$end")" 'sum(e["count"] for e in j["entries"])')" \
		"no start, no latency"
	$CTL probe del "$end"
	expect_eq 0 "$(probe_count)" "probes left"
	expect_eq 0 "$(grep -c -e '^__x64_sys_clock_nanosleep ' -e '^try_to_wake_up ' $TRACING/enabled_functions)" \
		"neither function traced after del"
}

# probe add pair --records: persistent ends that write a record a pair
# into the default session, which stream reads.
t_pair_persistent_records() {
	local ids
	cp "$(command -v sleep)" $S/sleeper5
	ids=$($CTL probe add pair --records --comm sleeper5 --key pid \
		--from kprobe:__x64_sys_clock_nanosleep \
		--to kprobe:try_to_wake_up --to-key 'p->pid' | xargs)
	bg_start $S/ps.out -j stream -o $S/ps.json
	$S/sleeper5 0.05
	kill -INT "$BG_PID"
	wait "$BG_PID" || fail "stream's exit"
	expect_eq "sleeper5 1" \
		"$(python3 -c 'import json, sys; r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(" ".join(sorted(set(d["comm"] for d in r))), sum(d["latency_ns"] >= 50000000 for d in r))' $S/ps.json)" \
		"the sleep's record: $(cat $S/ps.json)"
	$CTL probe del $ids
	expect_eq 0 "$(probe_count)" "probes left"
}

# What only the kernel can refuse (the command line's own refusals are
# tests/cli's): a start that is not an entry probe, nothing left behind.
t_pair_refused() {
	expect_fail 1 'entry probes \(kprobe, jprobe\)' $CTL latency --key pid \
		--from kretprobe:vfs_read --to kprobe:vfs_write
	expect_fail 1 'entry probes \(kprobe, jprobe\)' $CTL latency --key pid \
		--from kprobe:vfs_read --to kretprobe:vfs_write
	expect_eq 0 "$(probe_count)" "probes left"
}

tests t_pair_sleep_known t_pair_openmetrics t_pair_causes t_pair_table_full t_pair_field_keys \
	t_pair_by_keys t_pair_start_keys t_pair_start_stack t_pair_start_args t_pair_block_io t_pair_runqlat t_pair_tcplife t_pair_records \
	t_pair_persistent t_pair_persistent_records t_pair_refused
