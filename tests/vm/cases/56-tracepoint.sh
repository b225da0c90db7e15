# SPDX-License-Identifier: GPL-2.0
# Tracepoints (tracepoint:SUBSYSTEM:EVENT, bpftrace's t:): a probe on a
# vmlinux tracepoint, its handlers an entry probe's, the event's
# arguments by position or by name (the kernel's BTF). Counts against a
# known workload and against ftrace's own event with the same filter;
# records carrying the arguments the tracepoint passed; bad targets
# refused; nothing left.

S=$T_SCRATCH
TARGET_KO=$(dirname "$KO")/test-modules/rp_target.ko

# docs_sum FILE EXPR: EXPR of every JSON document of FILE (as d), added.
docs_sum() {
	python3 - "$1" "$2" <<'PY'
import json, sys
print(sum(eval(sys.argv[2], {"d": json.loads(l)}) for l in open(sys.argv[1]) if l.strip()))
PY
}

# forks COMM N: a process named COMM forks N children that exit at once
forks() {
	python3 -c 'import os, sys
open("/proc/self/comm", "w").write(sys.argv[1])
for _ in range(int(sys.argv[2])):
    pid = os.fork()
    if not pid:
        os._exit(0)
    os.waitpid(pid, 0)' "$1" "$2"
}

# A command's 5 execs, counted by its comm in the kernel: exactly 5.
t_tp_count_exec() {
	cp /bin/true $S/rp-tpexec
	bg_start $S/ex.json -j count tracepoint:sched:sched_process_exec --comm rp-tpexec
	for _ in 1 2 3 4 5; do $S/rp-tpexec; done
	bg_stop INT
	expect_eq 5 "$(json_get "$(tail -n 1 $S/ex.json)" 'sum(e["count"] for e in j["entries"])')" \
		"rp-tpexec's execs: $(cat $S/ex.json)"
}

# sched_process_exec(p, old_pid, bprm): a record per exec, its second
# argument the pid that exec'd, as the record's header has it; the
# probe is t: as bpftrace writes it.
t_tp_records_args() {
	cp /bin/true $S/rp-tpargs
	bg_start $S/ar.json -j trace t:sched:sched_process_exec --args 2 --comm rp-tpargs
	for _ in 1 2 3; do $S/rp-tpargs; done
	bg_stop INT
	expect_eq "3 3" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [d for d in r if "probe" in d]
print(len(r), sum(d["args"][1] == d["tgid"] for d in r))' $S/ar.json)" \
		"records, and old_pid = the exec'ing pid: $(head -c 600 $S/ar.json)"
}

# as_ftrace SUBSYS:EVENT FILTER LINE COMM N CMD...: the event counted
# by ftrace (its lines that match LINE, FILTER on) and by rawprobe (for
# COMM) while CMD runs: both N
as_ftrace() {
	local event=$1 filter=$2 line=$3 comm=$4 want=$5 ev n
	shift 5
	ev=$TRACING/events/${event/://}
	echo 0 > $TRACING/tracing_on
	: > $TRACING/trace
	echo "$filter" > $ev/filter
	echo 1 > $ev/enable
	bg_start $S/af.json -j count "tracepoint:$event" --comm "$comm"
	echo 1 > $TRACING/tracing_on
	"$@"
	echo 0 > $TRACING/tracing_on
	bg_stop INT
	n=$(grep -c "$line" $TRACING/trace)
	echo 0 > $ev/enable
	echo 0 > $ev/filter
	: > $TRACING/trace
	echo 1 > $TRACING/tracing_on
	expect_eq "$want" "$n" "ftrace's $event lines"
	expect_eq "$n" "$(json_get "$(tail -n 1 $S/af.json)" 'sum(e["count"] for e in j["entries"])')" \
		"rawprobe's count, ftrace's"
}

# Against ftrace: sched_process_fork filtered to a parent's comm in both,
# 7 forks.
t_tp_count_equals_ftrace() {
	as_ftrace sched:sched_process_fork 'parent_comm == "rp-tpfork"' \
		'sched_process_fork:' rp-tpfork 7 forks rp-tpfork 7
}

# The same by name, from the kernel's BTF (__traceiter_sched_process_exec):
# old_pid and a field of p, the task, both the exec'ing pid.
t_tp_args_by_name() {
	cp /bin/true $S/rp-tpname
	bg_start $S/nm.json -j trace tracepoint:sched:sched_process_exec \
		--args 'old_pid,p->pid' --comm rp-tpname
	for _ in 1 2; do $S/rp-tpname; done
	bg_stop INT
	expect_eq "2 2" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [d for d in r if "probe" in d]
print(len(r), sum(d["args"][0] == d["tgid"] == d["args"][1] for d in r))' $S/nm.json)" \
		"old_pid and p->pid: $(head -c 600 $S/nm.json)"
	expect_match "pid_t old_pid" "$($CTL btf show tracepoint:sched:sched_process_exec)" \
		"btf show's arguments"
}

# glob_counted GLOB LISTED COMM EVENT N CMD...: count GLOB for a comm,
# a probe per event of available_events that LISTED (grep's pattern)
# matches; CMD's N hits counted apart under EVENT
glob_counted() {
	local glob=$1 listed=$2 comm=$3 ev=$4 n=$5 j had
	shift 5
	had=$(probe_count)
	bg_start $S/gl.json -j count "$glob" --comm "$comm"
	expect_eq "$(grep -c "$listed" $TRACING/available_events)" "$(($(probe_count) - had))" \
		"a probe per event of available_events"
	"$@"
	bg_stop INT
	j=$(tail -n 1 $S/gl.json)
	expect_eq "$n" "$(json_get "$j" "[e['count'] for e in j['entries'] if e['func'] == '$ev'][0]")" \
		"$ev's hits: $j"
}

# A glob: a parent's 3 forks under sched:sched_process_fork.
t_tp_glob_count() {
	glob_counted 'tracepoint:sched:sched_process_f*' '^sched:sched_process_f' \
		rp-tpglob sched:sched_process_fork 3 forks rp-tpglob 3
	schema count $S/gl.json
}

# btf show 'tracepoint:sched:*' lists every sched event tracefs lists,
# each with its arguments from the kernel's BTF.
t_tp_listing() {
	expect_eq "$(grep '^sched:' $TRACING/available_events | sort | xargs)" \
		"$($CTL btf show 'tracepoint:sched:*' | sed -n 's/^tracepoint://p' | sort | xargs)" \
		"btf show's events, available_events'"
	expect_match "struct task_struct \* next" "$($CTL btf show t:sched:sched_switch)" \
		"sched_switch's next"
}

# Stacks: a parent's 3 forks counted by stack under sched_process_fork,
# every one through kernel_clone (which hits it), none of rawprobe's own
# frames; a record's --stack the same.
t_tp_stacks() {
	local j
	bg_start $S/st.json -j count tracepoint:sched:sched_process_fork \
		--by stack --comm rp-tpstk
	forks rp-tpstk 3
	bg_stop INT
	j=$(tail -n 1 $S/st.json)
	expect_eq "3 3 0" "$(json_get "$j" '" ".join(str(x) for x in (sum(e["count"] for e in j["entries"]), sum(e["count"] for e in j["entries"] if any(f.startswith("kernel_clone") for f in e["stack"])), sum(1 for e in j["entries"] for f in e["stack"] if "[rawprobe]" in f)))')" \
		"forks, through kernel_clone, rawprobe's frames: $j"
	bg_start $S/sr.json -j trace tracepoint:sched:sched_process_fork --stack --comm rp-tpstk2
	forks rp-tpstk2 1
	bg_stop INT
	expect_eq "1" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(sum(1 for d in r if "probe" in d and any(f.startswith("kernel_clone") for f in d.get("stack", []))))' $S/sr.json)" \
		"the record's stack: $(head -c 800 $S/sr.json)"
}

# The caller key: a parent's 3 forks counted by caller under
# sched_process_fork, all from kernel_clone (which hits it), alone on
# the tracepoint and again beside a second probe on it (the tracepoint
# then calls its probes through its iterator, which the key skips).
t_tp_caller() {
	local j other
	for other in no yes; do
		[ $other = yes ] && other=$($CTL probe add tracepoint sched:sched_process_fork)
		bg_start $S/cl.json -j count tracepoint:sched:sched_process_fork \
			--by caller --comm rp-tpcall
		forks rp-tpcall 3
		bg_stop INT
		j=$(tail -n 1 $S/cl.json)
		expect_eq "3 3" "$(json_get "$j" '" ".join(str(x) for x in (sum(e["count"] for e in j["entries"]), sum(e["count"] for e in j["entries"] if e["caller"].startswith("kernel_clone"))))')" \
			"forks, from kernel_clone (second probe: $other): $j"
	done
	$CTL probe del "$other"
}

# sched:sched_switch against a known workload: a process named rp-tpsw
# sleeps 3 times; the switches to it (filtered in the kernel on
# next->comm) are at least 3, each with its pid as next->pid, and each
# switched out the task the record's header names (prev is current).
t_tp_sched_switch() {
	local pid
	bg_start $S/sw.json -j trace tracepoint:sched:sched_switch \
		--args 'prev->pid,next->pid,next->comm' --filter 'next->comm == "rp-tpsw"'
	python3 -c 'import os, time
open("/proc/self/comm", "w").write("rp-tpsw")
print(os.getpid(), flush=True)
for _ in range(3):
    time.sleep(0.05)' > $S/sw.pid
	bg_stop INT
	pid=$(cat $S/sw.pid)
	expect_eq "1 1 1" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [d for d in r if "probe" in d]
print(int(len(r) >= 3), int(all(d["args"][1] == int(sys.argv[2]) and d["str"] == "rp-tpsw" for d in r)),
      int(all(d["args"][0] == d["pid"] for d in r)))' $S/sw.json $pid)" \
		"switches to rp-tpsw ($pid): $(head -c 800 $S/sw.json)"
}

# udp_closed N: N datagrams to a closed port on loopback
udp_closed() {
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(int(sys.argv[1])):
    s.sendto(b"x", ("127.0.0.1", 9))' "$1"
}

# skb:kfree_skb, dropwatch's and `perf record -e skb:kfree_skb -ag`'s
# question, the same event on 6.1 and 6.12 where the function changed:
# 5 datagrams to a closed port, 5 drops of reason NO_SOCKET (its value
# as the kernel's BTF has it; in text, its name), each from
# __udp4_lib_rcv by stack.
t_tp_kfree_skb() {
	local want
	ip link set lo up
	want=$($CTL btf show 'enum skb_drop_reason' |
		sed -n 's/^[[:space:]]*SKB_DROP_REASON_NO_SOCKET *= *\([0-9]*\).*/\1/p')
	bg_start $S/kr.json -j count tracepoint:skb:kfree_skb --args reason --by reason
	udp_closed 5
	bg_stop INT
	expect_eq 5 "$(json_get "$(tail -n 1 $S/kr.json)" "sum(e['count'] for e in j['entries'] if e['reason'] == ${want:-999})")" \
		"drops for no socket (reason $want): $(tail -n 1 $S/kr.json)"
	bg_start $S/ks.json -j count tracepoint:skb:kfree_skb --by stack
	udp_closed 5
	bg_stop INT
	expect_eq 5 "$(json_get "$(tail -n 1 $S/ks.json)" 'sum(e["count"] for e in j["entries"] if any(f.startswith("__udp4_lib_rcv") for f in e["stack"]))')" \
		"drops from __udp4_lib_rcv: $(tail -n 1 $S/ks.json | head -c 800)"
	# in text, the reason by name, as trace prints it
	bg_start $S/kt.txt count tracepoint:skb:kfree_skb --args reason --by reason
	udp_closed 2
	bg_stop INT
	expect_match '^ +2  SKB_DROP_REASON_NO_SOCKET$' "$(cat $S/kt.txt)" "the reason by name"
	# folded, the stack ends at the function that freed the skb, or at
	# trace_kfree_skb() after it where the kernel (KASAN's) keeps that
	# wrapper out of line: a real frame, the tracepoint's caller
	bg_start $S/kf.txt count tracepoint:skb:kfree_skb --by stack
	udp_closed 2
	bg_stop INT
	expect_eq "1 0" "$(grep -c -E ';__udp4_lib_rcv;[A-Za-z_.0-9]+(;trace_kfree_skb)? [0-9]+$' $S/kf.txt | sed 's/^[1-9][0-9]*$/1/') $(grep -c '0x' $S/kf.txt)" \
		"folded stacks, no address for a leaf: $(cat $S/kf.txt)"
}

# A pair of tracepoints: a parent's 4 forks (sched_process_fork, keyed
# by the child's pid) to each child's exit (sched_process_exit, in the
# child: its pid) after 50 ms: 4 latencies, none under 50 ms, each
# counted under the child's comm.
t_tp_pair() {
	bg_start $S/pr.json -j latency --comm rp-tppair \
		--from tracepoint:sched:sched_process_fork --from-key 'child->pid' \
		--to tracepoint:sched:sched_process_exit --to-key pid --by comm
	python3 -c 'import os, time
open("/proc/self/comm", "w").write("rp-tppair")
kids = []
for _ in range(4):
    pid = os.fork()
    if not pid:
        time.sleep(0.05)
        os._exit(0)
    kids.append(pid)
for pid in kids:
    os.waitpid(pid, 0)'
	bg_stop INT
	expect_eq "4 1" "$(python3 -c 'import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
e = [x for x in d if x.get("comm") == "rp-tppair"]
print(sum(x["count"] for x in e), int(all(x["min"] >= 50000000 for x in e)))' $S/pr.json)" \
		"the children's lives, at least 50 ms: $(cat $S/pr.json)"
}

# runqlat.bt's pair, as bpftrace writes it: a wakeup to the switch to
# the woken task; 3 sleeps of a command are among its matches.
t_tp_runqlat() {
	bg_start $S/rl.out latency --from tracepoint:sched:sched_wakeup --from-key 'p->pid' \
		--to tracepoint:sched:sched_switch --to-key 'next->pid'
	for _ in 1 2 3; do sleep 0.05; done
	bg_stop INT
	expect_ge 3 "$(sed -n 's/^pair: .* \([0-9][0-9]*\) matched.*/\1/p' $S/rl.out.err | tail -1)" \
		"matched wakeups: $(cat $S/rl.out.err)"
}

# A persistent probe on a tracepoint, listed as one, counted by comm.
t_tp_persistent() {
	local id
	cp /bin/true $S/rp-tppers
	id=$($CTL probe add tracepoint sched:sched_process_exec --count --by comm)
	expect_match '"target": *"sched:sched_process_exec"|"kind": *"tracepoint"' \
		"$($CTL -j probe show "$id")" "probe show"
	$S/rp-tppers; $S/rp-tppers
	expect_eq 2 "$(json_get "$($CTL -j agg show "$id")" 'sum(e["count"] for e in j["entries"] if e["comm"] == "rp-tppers")')" \
		"agg show: two execs"
	expect_match 'tracepoint +sched:sched_process_exec +armed' "$($CTL probe list)" "probe list"
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes left"
}

# opens COMM FILE...: a process named COMM opens each FILE once (a
# missing one fails with ENOENT), nothing else once it is named
opens() {
	python3 -c 'import os, sys
open("/proc/self/comm", "w").write(sys.argv[1])
for f in sys.argv[2:]:
    try:
        os.close(os.open(f, os.O_RDONLY))
    except OSError:
        pass' "$@"
}

# sysloop COMM N: a process named COMM calls getppid() N times
sysloop() {
	python3 -c 'import os, sys
open("/proc/self/comm", "w").write(sys.argv[1])
for _ in range(int(sys.argv[2])):
    os.getppid()' "$1" "$2"
}

# syscalls:sys_enter_openat, as bpftrace's opensnoop takes it: the
# filenames of a known list, each once, in order, read from user memory
# by name (the event's format, or the syscall's BTF); sys_exit_openat's
# ret: the missing file's -ENOENT, the only failure.
t_tp_syscall_openat() {
	local f=$S/rp-tpo
	echo a > $f.1; echo b > $f.2
	bg_start $S/so.json -j trace tracepoint:syscalls:sys_enter_openat \
		--args 'filename:str,flags' --comm rp-tpopen
	opens rp-tpopen $f.1 $f.2 $f.missing $f.1
	bg_stop INT
	expect_eq "$f.1 $f.2 $f.missing $f.1" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join(d["str"] for d in r if "probe" in d))' $S/so.json)" \
		"the filenames opened: $(head -c 800 $S/so.json)"
	bg_start $S/sx.json -j trace tracepoint:syscalls:sys_exit_openat \
		--args ret --filter 'ret < 0' --comm rp-tpopen
	opens rp-tpopen $f.1 $f.missing $f.2
	bg_stop INT
	expect_eq "-2" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join(str(d["args"][0]) for d in r if "probe" in d))' $S/sx.json)" \
		"the failed open's ret: $(head -c 800 $S/sx.json)"
	# opensnoop's rows: --template's line per record
	bg_start $S/st.txt trace tracepoint:syscalls:sys_enter_openat \
		--args filename:str --comm rp-tpopen --template '{pid:7} {comm} {filename}'
	opens rp-tpopen $f.1 $f.2
	bg_stop INT
	expect_eq "rp-tpopen $f.1|rp-tpopen $f.2|1" \
		"$(awk '{ print $2 " " $3 }' $S/st.txt | paste -sd'|')|$(awk '{ print $1 }' $S/st.txt | sort -u | wc -l)" \
		"the template's lines: $(cat $S/st.txt)"
	expect_match "const char \\* filename" \
		"$($CTL btf show tracepoint:syscalls:sys_enter_openat)" "btf show's arguments"
}

# Against ftrace: syscalls:sys_enter_getppid filtered to a comm in both,
# 9 calls; and raw_syscalls:sys_enter counted by its id has getppid's
# number 9 times.
t_tp_syscall_count() {
	as_ftrace syscalls:sys_enter_getppid 'comm == "rp-tpsys"' \
		'sys_getppid()' rp-tpsys 9 sysloop rp-tpsys 9
	bg_start $S/rs.json -j count tracepoint:raw_syscalls:sys_enter --args id --by id --comm rp-tpsys
	sysloop rp-tpsys 9
	bg_stop INT
	expect_eq 9 "$(json_get "$(tail -n 1 $S/rs.json)" '[e["count"] for e in j["entries"] if e["id"] == 110][0]')" \
		"raw_syscalls:sys_enter's getppid (110): $(tail -n 1 $S/rs.json)"
}

# A glob of syscall events: getppid's 4 calls under its own, and in a
# persistent probe on the same event beside them (two probes on one
# syscall's list); the persistent one's exit event counts the returns.
t_tp_syscall_glob() {
	local en ex
	en=$($CTL probe add tracepoint syscalls:sys_enter_getppid --count --comm rp-tpsg)
	ex=$($CTL probe add tracepoint syscalls:sys_exit_getppid --count --comm rp-tpsg)
	glob_counted 'tracepoint:syscalls:sys_enter_getp*' '^syscalls:sys_enter_getp' \
		rp-tpsg syscalls:sys_enter_getppid 4 sysloop rp-tpsg 4
	expect_eq "4 4" "$(json_get "$($CTL -j agg show "$en")" 'sum(e["count"] for e in j["entries"])') $(json_get "$($CTL -j agg show "$ex")" 'sum(e["count"] for e in j["entries"])')" \
		"the persistent probes' counts, entry and exit"
	$CTL probe del "$en" "$ex"
	sysloop rp-tpsg 2
	expect_eq 0 "$(probe_count)" "probes left"
}

# A module's tracepoint (rp_target's, fired by each read of
# /proc/rp_target with 21 and its count of calls): the probe goes gone
# with the module and is armed again when it is loaded again, its
# records before and after.
t_tp_module_gone_and_back() {
	local id state hits
	state() { json_get "$($CTL -j probe show $id)" 'j["state"]'; }
	hits() { json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]'; }
	insmod "$TARGET_KO"
	id=$($CTL probe add tracepoint rp_target:rp_target_hit --args s32,u64)
	cat /proc/rp_target >/dev/null
	expect_eq "armed 1" "$(state) $(hits)" "state and hits, loaded"
	rmmod rp_target
	expect_eq gone "$(state)" "after rmmod"
	insmod "$TARGET_KO"
	expect_eq armed "$(state)" "after insmod"
	cat /proc/rp_target >/dev/null
	expect_eq 2 "$(hits)" "hits after it came back"
	$CTL -j stream -d 0.5 -o $S/tm.json 2>/dev/null
	expect_eq "21/1 21/1" "$(python3 -c 'import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(" ".join("%d/%d" % (d["args"][0], d["args"][1]) for d in r if d.get("probe_id") == int(sys.argv[2])))' $S/tm.json $id)" \
		"the records, one each side of the reload: $(head -c 600 $S/tm.json)"
	rmmod rp_target
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes left"
}

# What is refused, and why: an unknown event (with its subsystem's
# namesake), an unknown syscall's event, a glob that matches nothing;
# nothing left behind.
t_tp_refused() {
	expect_fail 1 'no such event' $CTL count tracepoint:sched:no_such_event
	expect_fail 1 'there is tracepoint:sched:sched_switch' $CTL count tracepoint:irq:sched_switch
	expect_fail 1 'no such event' $CTL count tracepoint:syscalls:sys_enter_no_such_call
	expect_fail 1 'matches no tracepoint' $CTL count 'tracepoint:sched:no_such_*'
	expect_eq 0 "$(probe_count)" "probes left"
}

tests t_tp_count_exec t_tp_records_args t_tp_args_by_name t_tp_count_equals_ftrace \
	t_tp_glob_count t_tp_listing t_tp_stacks t_tp_caller t_tp_sched_switch t_tp_kfree_skb \
	t_tp_pair t_tp_runqlat t_tp_persistent \
	t_tp_syscall_openat t_tp_syscall_count t_tp_syscall_glob t_tp_module_gone_and_back \
	t_tp_refused
