# SPDX-License-Identifier: GPL-2.0
# The example probe modules (examples/, built by `make examples` with
# their own Makefiles): each loads on the core, fires on a workload that
# exercises it, its records decode in `rawprobectl stream`, and it
# unloads taking its probe with it. Also the API's guard rails, and a
# module's tracepoint probe's.

EX=$(dirname "$KO")/examples
LEAKY_KO=$(dirname "$KO")/test-modules/rp_leaky.ko
WRITER_KO=$(dirname "$KO")/test-modules/rp_writer.ko
S=$T_SCRATCH

# example_load NAME SYMBOL [PARAM=VALUE...]: load an example (unloaded
# again when the test ends, whatever happens) and set EX_ID to its probe.
example_load() {
	local name=$1 sym=$2 j
	shift 2
	insmod "$EX/$name/$name.ko" "$@"
	trap "rmmod $name 2>/dev/null || true" EXIT
	j=$($CTL -j probe list)
	EX_ID=$(json_get "$j" "[p['id'] for p in j if p.get('name') == '$name'][0]")
	expect_eq "$sym" "$(json_get "$j" "[p['symbol'] for p in j if p['id'] == $EX_ID][0]")" "$name's symbol"
	expect_eq "$name" "$(json_get "$j" "[p['owner_module'] for p in j if p['id'] == $EX_ID][0]")" "owner module"
}

# example_unload NAME: its probe must go with it, and hits add up.
example_unload() {
	local j
	j=$($CTL -j probe show "$EX_ID")
	expect_eq "$(json_get "$j" 'j["stats"]["hits"]')" \
		"$(json_get "$j" 'j["stats"]["records"] + j["stats"]["lost_ring"] + j["stats"]["filtered"]')" \
		"$1: hits = records + lost + filtered"
	rmmod "$1"
	expect_eq 0 "$(json_get "$($CTL -j probe list)" "len([p for p in j if p['id'] == $EX_ID])")" \
		"$1's probe removed on unload"
}

lo_up() {
	ip link set lo up
}

t_kprobe_minimal() {
	local n me=$BASHPID
	example_load kprobe_minimal kernel_clone
	stream_all $S/min.json
	for n in 1 2 3 4 5; do /bin/true; done
	stream_stop
	n=$(count_records $S/min.json "r['probe_id'] == $EX_ID and r['kind'] == 'kprobe' and len(r['args']) == 2 and r['pid'] == $me")
	expect_ge 5 "$n" "a record per fork, with ip and argument 0"
	example_unload kprobe_minimal
	dmesg | grep -q "kprobe_minimal: .* hits, .* records, 0 lost" ||
		fail "exit statistics not logged"
}

t_kretprobe_latency() {
	local n
	head -c 1000 /dev/zero > $S/zeros
	example_load kretprobe_latency vfs_read
	stream_all $S/lat.json
	dd if=$S/zeros of=/dev/null bs=100 count=3 2>/dev/null
	stream_stop
	n=$(count_records $S/lat.json "r['probe_id'] == $EX_ID and r['comm'] == 'dd' and r['kind'] == 'kretprobe' and r['retval'] == 100 and r['args'][0] == 100 and 0 < r['latency_ns'] < 10**9")
	expect_eq 3 "$n" "vfs_read returns with size asked, bytes read, latency"
	example_unload kretprobe_latency
}

# A pair in a module: each of the sleeper's sleeps is one record, with
# its pid and at least the 50 ms it slept; both probes go at the unload.
t_sleep_latency() {
	local n pids=""
	cp "$(command -v sleep)" $S/rp-sleeper
	example_load sleep_latency try_to_wake_up comm=rp-sleeper
	stream_all $S/sl.json
	for n in 1 2 3; do
		$S/rp-sleeper 0.05 &
		pids="$pids,$!"
		wait $!
	done
	stream_stop
	n=$(count_records $S/sl.json "r['probe_id'] == $EX_ID and r['args'][0] in [${pids#,}] and 50000000 <= r['args'][1] < 10**10")
	expect_eq 3 "$n" "three sleeps, by pid, of at least 50 ms"
	example_unload sleep_latency
	expect_eq 0 "$(json_get "$($CTL -j probe list)" "len(j)")" "the start's probe removed too"
	expect_match "3 sleeps timed" "$(dmesg | tail -5)" "the pair's counts at the unload"
}

t_jprobe_openat2() {
	local f=$S/opened-by-example n
	echo data > "$f"
	example_load jprobe_openat2 do_sys_openat2
	stream_all $S/open.json
	for n in 1 2 3; do cat "$f" >/dev/null; done
	stream_stop
	# args[0] is the s32 AT_FDCWD (-100) as the record's u64
	n=$(count_records $S/open.json "r['probe_id'] == $EX_ID and r['kind'] == 'jprobe' and r.get('str') == '$f' and r['comm'] == 'cat' and r['args'][0] % 2**64 == 2**64 - 100")
	expect_eq 3 "$n" "typed arguments and the file name"
	example_unload jprobe_openat2
}

# A tracepoint in a module: sched_switch(preempt, prev, next, prev_state).
# Three sleepers are each switched out (prev: the record's own pid, as
# current is prev at the event) and back in (next, with next's comm);
# the switches to them equal ftrace's own sched_switch lines filtered
# on next_comm, both probes of the one tracepoint over the same window.
t_tp_sched_switch() {
	local ev=$TRACING/events/sched/sched_switch n pids="" ft
	cp "$(command -v sleep)" $S/rp-switcher
	example_load tp_sched_switch sched:sched_switch comm=rp-switcher
	echo 0 > $TRACING/tracing_on
	: > $TRACING/trace
	echo 'next_comm == "rp-switcher"' > $ev/filter
	echo 1 > $ev/enable
	stream_all $S/sw.json
	echo 1 > $TRACING/tracing_on
	for n in 1 2 3; do
		$S/rp-switcher 0.05 &
		pids="$pids,$!"
		wait $!
	done
	echo 0 > $TRACING/tracing_on
	stream_stop
	ft=$(grep -c 'sched_switch:' $TRACING/trace)
	echo 0 > $ev/enable
	echo 0 > $ev/filter
	: > $TRACING/trace
	echo 1 > $TRACING/tracing_on
	expect_eq 3 "$(python3 - $S/sw.json "$EX_ID" "${pids#,}" <<'PY'
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
r = [d for d in r if d.get("probe_id") == int(sys.argv[2])]
pids = [int(p) for p in sys.argv[3].split(",")]
print(sum(any(d["args"][0] == p and d["pid"] == p for d in r) for p in pids))
PY
)" "each sleeper switched out: prev's pid, the record's own"
	n=$(count_records $S/sw.json "r['probe_id'] == $EX_ID and r['args'][1] in [${pids#,}] and r.get('str') == 'rp-switcher'")
	expect_ge 3 "$n" "each sleeper switched in: next's pid and comm"
	expect_eq 0 "$(count_records $S/sw.json "r['probe_id'] == $EX_ID and r['pid'] != r['args'][0]")" \
		"records whose prev is not current"
	expect_ge 3 "$ft" "ftrace's sched_switch lines to rp-switcher"
	expect_eq "$ft" "$(count_records $S/sw.json "r['probe_id'] == $EX_ID and r.get('str') == 'rp-switcher'")" \
		"switches to rp-switcher, the module's records and ftrace's lines"
	example_unload tp_sched_switch
	expect_match "tp_sched_switch: [0-9]+ switches recorded, 0 lost" "$(dmesg | tail -5)" \
		"the exit statistics"
}

# fork_n N: N forks of a child that exits at once
fork_n() {
	py 'import os, sys
for _ in range(int(sys.argv[1])):
    pid = os.fork()
    if not pid:
        os._exit(0)
    os.waitpid(pid, 0)' "$1"
}

# A module's tracepoint probe through the API: what a tracepoint cannot
# take refused, with the core's reason logged; disarmed and armed from
# user space (no handler call while disarmed); removed with its module.
t_api_tracepoint() {
	local id h
	expect_fail 1 "Invalid param" insmod $LEAKY_KO event=sched:sched_process_fork offset=4
	echo 'p:rp_leaky_kp vfs_read' >> $TRACING/kprobe_events
	expect_fail 1 "not supported" insmod $LEAKY_KO event=kprobes:rp_leaky_kp
	echo '-:rp_leaky_kp' >> $TRACING/kprobe_events
	dmesg | grep -q "probe leaky on kprobes:rp_leaky_kp: an ftrace event with no tracepoint" ||
		fail "a kprobe event's refusal not explained: $(dmesg | tail -3)"
	# (insmod words ENOENT as "Unknown symbol in module")
	expect_fail 1 "Unknown symbol|No such file" insmod $LEAKY_KO event=sched:rp_no_such_event
	dmesg | grep -q "probe leaky on sched:rp_no_such_event: no such event" ||
		fail "unknown event refusal not explained: $(dmesg | tail -3)"
	expect_eq 0 "$(probe_count)" "probes left by refused modules"
	insmod $LEAKY_KO event=sched:sched_process_fork
	trap "rmmod rp_leaky 2>/dev/null || true" EXIT
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p.get('name') == 'leaky'][0]")
	expect_eq sched:sched_process_fork \
		"$(json_get "$($CTL -j probe show $id)" 'j["symbol"]')" "the event, whole"
	fork_n 3
	expect_ge 3 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" \
		"forks seen by the module's handler"
	# (every command forks: the count is read once disarmed)
	$CTL probe disable "$id"
	h=$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')
	fork_n 3
	expect_eq "$h" "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" \
		"handler calls while disarmed"
	$CTL probe enable "$id"
	fork_n 3
	expect_ge $((h + 3)) "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" \
		"forks seen once armed again"
	rmmod rp_leaky
	expect_eq 0 "$(probe_count)" "the tracepoint probe removed with its module"
	dmesg | grep -q "rp_leaky left probe $id (leaky) registered" ||
		fail "leak not reported"
	fork_n 1	# the tracepoint calls nothing freed
	# a syscall's event, on raw_syscalls:sys_enter by its number
	insmod $LEAKY_KO event=syscalls:sys_enter_getppid
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p.get('name') == 'leaky'][0]")
	py 'import os
for _ in range(5):
    os.getppid()'
	expect_ge 5 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" \
		"getppid calls seen by the module's handler"
	rmmod rp_leaky
	expect_eq 0 "$(probe_count)" "the syscall event's probe removed with its module"
}

# A listener with a full accept queue drops SYNs: the client retransmits.
t_tcp_retransmit() {
	local n
	lo_up
	example_load tcp_retransmit tcp_retransmit_skb
	stream_all $S/tcp.json
	python3 - <<'PY'
import socket
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(0)
port = srv.getsockname()[1]
open("/tmp/rp-tcp-port", "w").write(str(port))
first = socket.create_connection(("127.0.0.1", port))
second = socket.socket()
second.settimeout(2.5)
try:
    second.connect(("127.0.0.1", port))
except OSError:
    pass
PY
	stream_stop
	n=$(count_records $S/tcp.json "r['probe_id'] == $EX_ID and r['args'][2] == $(cat /tmp/rp-tcp-port) and r['args'][0] == 2 and __import__('re').fullmatch(r'127\.0\.0\.1:\d+ -> 127\.0\.0\.1:$(cat /tmp/rp-tcp-port)', r['str'])")
	expect_ge 1 "$n" "a SYN retransmission with decoded addresses"
	example_unload tcp_retransmit
}

t_skb_drop() {
	local n
	lo_up
	example_load skb_drop "$(python3 -c 'import os; print("sk_skb_reason_drop" if tuple(map(int, os.uname().release.split(".")[:2])) >= (6, 11) else "kfree_skb_reason")')"
	stream_all $S/drop.json
	python3 -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(5): s.sendto(b"x", ("127.0.0.1", 9))'
	stream_stop
	n=$(count_records $S/drop.json "r['probe_id'] == $EX_ID and r['str'].startswith('__udp4_lib_rcv+0x') and r['args'][1] != 0")
	expect_ge 5 "$n" "UDP to a closed port dropped in __udp4_lib_rcv"
	example_unload skb_drop
}

t_error_inject() {
	local out rc=0 n
	cp /bin/busybox $S/busybox-victim
	expect_fail 1 "Invalid param" insmod "$EX/error_inject/error_inject.ko"
	example_load error_inject __x64_sys_openat comm=busybox-victim errno=5
	dmesg | grep -q "FAULT INJECTION ACTIVE" || fail "no warning in the log"
	stream_all $S/inj.json
	out=$($S/busybox-victim cat /etc/hostname 2>&1) || rc=$?
	cat /etc/hostname >/dev/null	# anyone else is untouched
	stream_stop
	expect_eq 1 "$rc" "the victim's cat failed"
	expect_match "Input/output error" "$out" "with EIO"
	n=$(count_records $S/inj.json "r['probe_id'] == $EX_ID and r['retval'] == -5 and r['comm'] == 'busybox-victim'")
	expect_ge 1 "$n" "injected faults recorded"
	example_unload error_inject
	$S/busybox-victim cat /etc/hostname >/dev/null
}

t_api_guard_rails() {
	local id
	# Override only at system call entry points.
	expect_fail 1 "Invalid param" insmod "$EX/error_inject/error_inject.ko" comm=x func=vfs_read
	dmesg | grep -q "only where callers expect failure" ||
		fail "override refusal not explained"
	# A module's probe is not deleted from user space, nor by del all.
	insmod $LEAKY_KO
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p.get('name') == 'leaky'][0]")
	expect_fail 1 "belongs to a module" $CTL probe del "$id"
	$CTL probe del all
	expect_eq 1 "$(probe_count)" "del all leaves module probes"
	python3 -c 'import os; [os.getpgid(0) for i in range(10)]'
	expect_ge 10 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["records"]')" "module probe records"
	# A module that unloads without unregistering loses its probe.
	rmmod rp_leaky
	expect_eq 0 "$(probe_count)" "leaked probe removed with its module"
	dmesg | grep -q "rp_leaky left probe $id (leaky) registered" ||
		fail "leak not reported"
}

# A handler that reserves and then gives up discards the record: the
# reader skips it and carries on, with no sequence gap.
# Records written from a work item, in process context, are written with
# preemption off from reserve to commit.
t_discard_and_process_context() {
	local id j n p=/sys/module/rp_writer/parameters
	insmod "$WRITER_KO"
	trap "rmmod rp_writer 2>/dev/null || true" EXIT
	wait_for "[ \"\$(cat $p/process_written)\" = 100 ]" 100 ||
		fail "the work item wrote $(cat $p/process_written) records"
	expect_eq 0 "$(cat $p/preemptible_writes)" "records written preemptible"
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p.get('name') == 'writer'][0]")
	stream_all $S/w.json
	python3 -c 'import os; [os.getpgid(0) for _ in range(1000)]'
	stream_stop
	n=$(count_records $S/w.json "r['probe_id'] == $id and r['comm'] == 'python3'")
	expect_eq 500 "$n" "every other hit committed, the others discarded"
	n=$(count_records $S/w.json "r['probe_id'] == $id and r['args'][0] >= 1000000")
	expect_eq 100 "$n" "records from process context"
	grep -q " 0 sequence gaps" $S/w.json.err || fail "summary: $(cat $S/w.json.err)"
	j=$($CTL -j probe show $id)
	expect_eq "$(json_get "$j" 'j["stats"]["hits"]')" \
		"$(json_get "$j" 'j["stats"]["records"] + j["stats"]["lost_ring"] + j["stats"]["filtered"]')" \
		"hits = records + lost + filtered"
	expect_ge 500 "$(json_get "$j" 'j["stats"]["filtered"]')" "discards counted as filtered"
	rmmod rp_writer
}

# A probe added over netlink on the module's target does not stop the
# module from loading with EEXIST, in either order: a module's probes
# are its own.
t_module_loads_beside_same_netlink_probe() {
	local id
	id=$($CTL probe add kprobe kernel_clone)
	example_load kprobe_minimal kernel_clone
	/bin/true
	expect_ge 1 "$(json_get "$($CTL -j probe show "$id")" 'j["stats"]["hits"]')" \
		"the netlink probe still fires"
	example_unload kprobe_minimal
	$CTL probe del "$id"
}

tests t_module_loads_beside_same_netlink_probe t_discard_and_process_context t_kprobe_minimal t_kretprobe_latency t_sleep_latency t_jprobe_openat2 t_tcp_retransmit \
	t_skb_drop t_error_inject t_api_guard_rails t_tp_sched_switch t_api_tracepoint
