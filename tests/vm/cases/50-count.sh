# SPDX-License-Identifier: GPL-2.0
# count: hits aggregated in the kernel (RAWPROBE_F_AGG), no record per
# hit. Exact counts by key on known workloads, exact intervals (each hit
# in exactly one, their sum the probe's HITS), keys past the table's room
# counted as dropped, values' stats, callers, bad input, and a killed
# command leaving nothing behind.

S=$T_SCRATCH
LOOP=build/tools/getpgid_loop
SYS=__x64_sys_getpgid

# count_bg OUT ARGS...: count in the background (JSON into OUT) until its
# probe is armed. Sets BG_PID.
count_bg() {
	local out=$1
	shift
	bg_start "$out" -j count "$@"
}

# The last JSON document of OUT: the run's last interval, with totals.
count_last() {
	tail -n 1 "$1"
}

# One getpgid_loop of N calls is counted N times under its name, in the
# kernel: the probe writes no record, its hits are the counts.
t_count_by_comm_exact() {
	local j id
	count_bg $S/comm.json kprobe:$SYS --by comm
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['symbol'] == '$SYS'][0]")
	$LOOP -w 0 2000 >/dev/null
	j=$($CTL -j probe show "$id")
	expect_eq 0 "$(json_get "$j" 'j["stats"]["records"]')" "records of a counting probe"
	expect_ge 2000 "$(json_get "$j" 'j["stats"]["hits"]')" "hits while counting"
	bg_stop INT
	j=$(count_last $S/comm.json)
	expect_eq 2000 "$(json_get "$j" "[e['count'] for e in j['entries'] if e['comm'] == 'getpgid_loop'][0]")" \
		"getpgid_loop's calls"
	expect_eq "$(json_get "$j" 'j["total"]["hits"]')" \
		"$(json_get "$j" 'j["total"]["counted"] + j["total"]["dropped"]')" "hits = counted + dropped"
	schema count $S/comm.json
}

# Intervals of 0.2 s under a load: every interval's entries add up to its
# hits, and the intervals to the probe's HITS: no hit between two reads
# is lost, none counted twice.
t_count_intervals_exact() {
	count_bg $S/iv.json kprobe:vfs_read -i 0.2
	( while :; do head -c 4096 /dev/zero | cat >/dev/null; done ) &
	local load=$!
	wait_for "[ \$(wc -l < $S/iv.json) -ge 5 ]" 100 ||
		fail "fewer than 5 intervals: $(cat $S/iv.json.err)"
	kill $load; wait $load 2>/dev/null || true
	bg_stop INT
	python3 - $S/iv.json <<'PY' || fail "intervals not exact (see above)"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
hits = 0
for d in docs:
    i = d["interval"]
    n = sum(e["count"] for e in d["entries"])
    if n + i["dropped"] != i["hits"]:
        sys.exit("interval %s: %d counted + %d dropped != %d hits" % (i, n, i["dropped"], i["hits"]))
    hits += i["hits"]
t = docs[-1]["total"]
if hits != t["hits"] or len(docs) < 5:
    sys.exit("%d intervals' hits %d != the probe's %d" % (len(docs), hits, t["hits"]))
print("    %d intervals, %d hits" % (len(docs), hits))
PY
	schema count $S/iv.json
}

# A keyless count's intervals without a hit say 0 (as bpftrace's
# count() does), not an empty COUNT column; the one with the calls says
# how many.
t_count_keyless_quiet() {
	cp $LOOP $S/rp-quiet
	bg_start $S/q.txt count kprobe:$SYS --comm rp-quiet -i 0.2
	wait_for "[ \$(grep -c COUNT $S/q.txt) -ge 3 ]" 100 ||
		fail "fewer than 3 intervals: $(cat $S/q.txt.err)"
	$S/rp-quiet -w 0 100 >/dev/null
	wait_for "[ \$(grep -c COUNT $S/q.txt) -ge 6 ]" 100 ||
		fail "fewer than 6 intervals: $(cat $S/q.txt.err)"
	bg_stop INT
	expect_eq "" "$(awk '/COUNT/ { getline; if ($1 !~ /^[0-9]+$/) print "no count: " $0 }' $S/q.txt)" \
		"every interval has its count: $(cat $S/q.txt)"
	expect_eq 100 "$(awk '/COUNT/ { getline; s += $1 } END { print s }' $S/q.txt)" \
		"the intervals add up to the calls"
	expect_ge 2 "$(awk '/COUNT/ { getline; z += ($1 == "0") } END { print z }' $S/q.txt)" \
		"quiet intervals say 0"
}

# Several targets, counted per function as a glob's are (vfsstat's
# form): a command's 5 getpgid, 7 getppid and 3 umask calls, each under
# its own function (umask by a glob); each function once.
t_count_several_targets() {
	local j
	count_bg $S/st.json kprobe:$SYS kprobe:__x64_sys_getppid \
		'kprobe:__x64_sys_umas*' --comm rp-several
	python3 -c 'import os
open("/proc/self/comm", "w").write("rp-several")
for _ in range(5): os.getpgid(0)
for _ in range(7): os.getppid()
for _ in range(3): os.umask(0o22)'
	bg_stop INT
	j=$(count_last $S/st.json)
	expect_eq "__x64_sys_getpgid 5 __x64_sys_getppid 7 __x64_sys_umask 3" \
		"$(json_get "$j" '" ".join("%s %d" % (e["func"], e["count"]) for e in sorted(j["entries"], key=lambda e: e["func"]))')" \
		"each function's calls: $j"
	schema count $S/st.json
	expect_fail 2 "is in two of count's targets" $CTL count kprobe:$SYS 'kprobe:__x64_sys_getpg*'
	expect_eq 0 "$(probe_count)" "probes left"
}

# Two commands taking turns on one CPU, counted by comm in intervals of
# 0.2 s: the table's last-slot shortcut (agg_core.h) changes key at every
# switch and every interval, and still each command's calls are counted
# exactly, each interval's entries add up to its hits.
t_count_by_comm_interleaved() {
	local n=20000
	cp $LOOP $S/loop_a
	cp $LOOP $S/loop_b
	count_bg $S/ab.json kprobe:$SYS --by comm -i 0.2
	taskset -c 0 $S/loop_a -w 0 $n >/dev/null &
	local a=$!
	taskset -c 0 $S/loop_b -w 0 $n >/dev/null
	wait $a
	wait_for "[ \$(wc -l < $S/ab.json) -ge 3 ]" 100 ||
		fail "fewer than 3 intervals: $(cat $S/ab.json.err)"
	bg_stop INT
	python3 - $S/ab.json $n <<'PY' || fail "by comm, interleaved: not exact (see above)"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
n, by, both = int(sys.argv[2]), {}, 0
for d in docs:
    i = d["interval"]
    if sum(e["count"] for e in d["entries"]) + i["dropped"] != i["hits"]:
        sys.exit("interval %s: entries do not add up to its hits" % i)
    seen = set()
    for e in d["entries"]:
        by[e["comm"]] = by.get(e["comm"], 0) + e["count"]
        seen.add(e["comm"])
    both += {"loop_a", "loop_b"} <= seen
if by.get("loop_a") != n or by.get("loop_b") != n:
    sys.exit("loop_a %s, loop_b %s calls counted, %d each made" % (by.get("loop_a"), by.get("loop_b"), n))
print("    %d intervals, %d with both commands" % (len(docs), both))
PY
}

# A table of one key a CPU (two slots): the other pids' hits are counted
# as dropped, never lost.
t_count_key_overflow_counted() {
	local j i
	count_bg $S/ovf.json kprobe:$SYS --by pid --max-keys 1
	for i in 1 2 3 4 5 6; do $LOOP -w 0 100 >/dev/null; done
	bg_stop INT
	j=$(count_last $S/ovf.json)
	expect_ge 1 "$(json_get "$j" 'j["total"]["dropped"]')" "hits dropped"
	expect_eq 600 "$(json_get "$j" 'j["total"]["counted"] + j["total"]["dropped"]')" \
		"counted + dropped: every call"
}

# Values: getpgid(0) returns the caller's process group, which setsid
# makes its own pid: retval's count, min, max and sum, against the pid key.
t_count_retval_stats() {
	local j
	count_bg $S/st.json kretprobe:$SYS --by comm,pid --stats retval
	setsid $LOOP -w 0 300 >/dev/null
	bg_stop INT
	j=$(count_last $S/st.json)
	expect_eq "300 1 1 1" \
		"$(json_get "$j" "' '.join(str(x) for e in j['entries'] if e['comm'] == 'getpgid_loop' for x in (e['count'], int(e['min'] == e['pid']), int(e['max'] == e['pid']), int(e['sum'] == 300 * e['pid'])))")" \
		"count; min, max = pid; sum = 300 x pid"
	schema count $S/st.json
}

# Histograms in the kernel: dd's reads of 100 bytes in [64, 128) (log2)
# and in [100, 150) (linear), every count in a bucket.
t_count_hist_buckets() {
	local j
	head -c 1000 /dev/zero > $S/k1
	count_bg $S/h2.json kretprobe:vfs_read --by comm --stats retval --hist log2
	dd if=$S/k1 of=/dev/null bs=100 2>/dev/null
	bg_stop INT
	j=$(count_last $S/h2.json)
	expect_ge 10 "$(json_get "$j" "[b['count'] for e in j['entries'] if e['comm'] == 'dd' for b in e['buckets'] if b.get('lo') == 64 and b['hi'] == 128][0]")" \
		"dd's 100-byte reads in [64, 128)"
	expect_eq True "$(json_get "$j" "all(sum(b['count'] for b in e['buckets']) == e['count'] for e in j['entries'])")" \
		"every count in a bucket"
	schema count $S/h2.json
	count_bg $S/hl.json kretprobe:vfs_read --by comm --stats retval --lhist 0,200,50
	dd if=$S/k1 of=/dev/null bs=100 2>/dev/null
	bg_stop INT
	j=$(count_last $S/hl.json)
	expect_ge 10 "$(json_get "$j" "[b['count'] for e in j['entries'] if e['comm'] == 'dd' for b in e['buckets'] if b.get('lo') == 100 and b.get('hi') == 150][0]")" \
		"dd's 100-byte reads in [100, 150)"
	bg_start $S/h.txt count kretprobe:vfs_read --stats retval --hist log2
	dd if=$S/k1 of=/dev/null bs=100 2>/dev/null
	bg_stop INT
	grep -Eq '^\[64, 128\) +[0-9]+ \|@+ *\|$' $S/h.txt ||
		fail "no text histogram: $(cat $S/h.txt)"
}

# The caller key: the function that called the probed one, symbolized.
t_count_by_caller() {
	local j
	count_bg $S/caller.json kprobe:vfs_read --by caller,comm
	cat /etc/hostname >/dev/null
	bg_stop INT
	j=$(count_last $S/caller.json)
	expect_match "ksys_read\\+0x" \
		"$(json_get "$j" "[e['caller'] for e in j['entries'] if e['comm'] == 'cat']")" "cat's reads' caller"
}

# Stacks, interned in the kernel: getpgid_loop calls from one place, so
# one stack (the syscall's entry down) has all its calls, and the text is
# folded (root first, the probed function last) for flamegraph.pl.
t_count_by_stack() {
	local j
	count_bg $S/stk.json kprobe:$SYS --by comm,stack
	$LOOP -w 0 500 >/dev/null
	bg_stop INT
	j=$(count_last $S/stk.json)
	expect_eq "500 1" \
		"$(json_get "$j" "' '.join(str(x) for x in (sum(e['count'] for e in j['entries'] if e['comm'] == 'getpgid_loop'), len([e for e in j['entries'] if e['comm'] == 'getpgid_loop'])))")" \
		"getpgid_loop's calls, and their stacks"
	expect_match "^(x64_sys_call|do_syscall_64)\\+0x" \
		"$(json_get "$j" "[e['stack'] for e in j['entries'] if e['comm'] == 'getpgid_loop'][0][0]")" \
		"the innermost frame: the syscall's caller"
	schema count $S/stk.json
	bg_start $S/stk.txt count kretprobe:$SYS --by stack,comm
	$LOOP -w 0 300 >/dev/null
	bg_stop INT
	expect_match "do_syscall_64;(x64_sys_call;)?$SYS;getpgid_loop 300\$" \
		"$(grep getpgid_loop $S/stk.txt)" "folded, a kretprobe's stack taken at entry"
	grep -q "total: .* hits" $S/stk.txt.err || fail "no totals on stderr: $(cat $S/stk.txt.err)"
	# a stack label: folded, as the text shows it
	bg_start $S/stk.prom count kprobe:$SYS --by stack,comm -f openmetrics
	$LOOP -w 0 200 >/dev/null
	bg_stop INT
	promtool_ok $S/stk.prom
	expect_match "stack=\"[^\"]*do_syscall_64;(x64_sys_call;)?$SYS\",comm=\"getpgid_loop\"} 200\$" \
		"$(grep getpgid_loop $S/stk.prom | tail -n 1)" "a stack as a Prometheus label"
}

# -f folded, svg and speedscope: one getpgid_loop of 400 calls, so one
# stack, the same in each. The graph's frames are the folded line's,
# merged (tests/cli/flame_check.py), its one leaf the probed function,
# 400 wide; the speedscope profile holds the same stack and count.
t_count_flame() {
	local f fmt chk=tests/cli/flame_check.py
	for fmt in folded svg speedscope; do
		f=$S/flame.$fmt
		bg_start $f count kprobe:$SYS --by stack --comm getpgid_loop -f $fmt -d 60
		$LOOP -w 0 400 >/dev/null
		bg_stop INT
		grep -q "total: .* hits" $f.err || fail "-f $fmt: no totals on stderr: $(cat $f.err)"
	done
	python3 $chk leaf $S/flame.folded $SYS > $S/flame.chk || fail "folded: $(cat $S/flame.chk)"
	expect_eq 400 "$(awk '{ n += $NF } END { print n }' $S/flame.folded)" "the folded counts"
	python3 $chk svg $S/flame.folded $S/flame.svg > $S/flame.chk ||
		fail "svg against folded: $(cat $S/flame.chk); $(cat $S/flame.folded)"
	expect_eq "$SYS 400" "$(python3 $chk leaves $S/flame.svg)" "the graph's leaf frame"
	expect_eq 400 "$(sed -n 's/.*<svg [^>]* data-total="\([0-9]*\)".*/\1/p' $S/flame.svg)" "the graph's total"
	python3 $chk speedscope $S/flame.folded $S/flame.speedscope > $S/flame.chk ||
		fail "speedscope against folded: $(cat $S/flame.chk)"
	schema speedscope- $S/flame.speedscope
}

# Two slots for stacks, and kfree's many callers: the stacks past them
# are counted as dropped, never lost.
t_count_stack_overflow_counted() {
	local j
	count_bg $S/stko.json kprobe:kfree --by stack --max-keys 1
	ls -R /sys/kernel >/dev/null 2>&1
	bg_stop INT
	j=$(count_last $S/stko.json)
	expect_ge 1 "$(json_get "$j" 'j["total"]["dropped"]')" "stacks dropped"
	expect_eq "$(json_get "$j" 'j["total"]["hits"]')" \
		"$(json_get "$j" 'j["total"]["counted"] + j["total"]["dropped"]')" "hits = counted + dropped"
}

# The same calls seen by ftrace's own kprobe event: its kprobe_profile
# hit count moves by what count counted.
t_count_equals_kprobe_profile() {
	local n0 n1 j
	ftrace_add rpcnt "$SYS"
	count_bg $S/prof.json kprobe:$SYS
	n0=$(awk '$1 ~ /rpcnt$/ { print $2 }' $TRACING/kprobe_profile)
	$LOOP -w 0 1000 >/dev/null
	n1=$(awk '$1 ~ /rpcnt$/ { print $2 }' $TRACING/kprobe_profile)
	bg_stop INT
	ftrace_del
	j=$(count_last $S/prof.json)
	expect_ge 1000 "$((n1 - n0))" "kprobe_profile's hits"
	expect_eq "$((n1 - n0))" "$(json_get "$j" 'j["total"]["counted"]')" \
		"count against kprobe_profile"
}

# dropwatch's question: a UDP datagram to a closed port is freed as a
# drop (SKB_DROP_REASON_NO_SOCKET) by __udp4_lib_rcv, the drop's caller.
t_count_udp_drops_by_caller() {
	local sym=kfree_skb_reason j i
	# 6.12: kfree_skb_reason() is inline, around sk_skb_reason_drop()
	grep -q ' sk_skb_reason_drop$' /proc/kallsyms && sym=sk_skb_reason_drop
	ip link set lo up
	count_bg $S/drop.json kprobe:$sym --by caller
	for i in 1 2 3 4 5; do echo drop > /dev/udp/127.0.0.1/9 || true; done
	bg_stop INT
	j=$(count_last $S/drop.json)
	expect_ge 5 "$(json_get "$j" "sum(e['count'] for e in j['entries'] if e['caller'].startswith('__udp4_lib_rcv+0x'))")" \
		"drops by __udp4_lib_rcv: $(json_get "$j" "[(e['caller'], e['count']) for e in j['entries']]")"
}

# rmmod while a command reads its tables every 0.1 s under a load: the
# module goes (or says it is busy, and goes once the reads stop), the
# command ends with an error, the kernel stays whole (the suite checks
# its log). Loaded again for the cases after.
t_count_rmmod_while_reading() {
	local i rc=1
	bg_start $S/rm.txt count kprobe:vfs_read --by comm,stack -i 0.1
	( while :; do cat /etc/hostname >/dev/null; done ) &
	local load=$!
	wait_for "[ \$(grep -c 'hits' $S/rm.txt.err) -ge 3 ]" 100 ||
		fail "fewer than 3 intervals: $(cat $S/rm.txt.err)"
	for i in $(seq 50); do
		rmmod rawprobe 2>/dev/null && { rc=0; break; }
		sleep 0.1
	done
	kill $load; wait $load 2>/dev/null || true
	expect_eq 0 "$rc" "rmmod while reading"
	rc=0
	wait "$BG_PID" || rc=$?
	expect_ge 1 "$rc" "count's exit status once the module went"
	module_load
}

# promtool check metrics on a file (or stdin): exit 0, not a word of lint
# (Debian's prometheus: the guest runs the host's root, deps.sh's).
promtool_ok() {	# FILE
	local said
	command -v promtool >/dev/null ||
		fail "no promtool (tools/deps.sh installs Debian's prometheus)" || return
	said=$(promtool check metrics < "$1" 2>&1) ||
		fail "promtool refused $1: $said: $(head -c 2000 "$1")" || return
	[ -z "$said" ] || fail "promtool on $1: $said"
}

# -f openmetrics: Prometheus' text format, which promtool accepts, with
# getpgid_loop's calls under its command; with -i the counts are running
# totals (a Prometheus counter only grows: rate() reads a fall as a
# restart), each interval's exposition checked on its own; a histogram's
# cumulative buckets of dd's 100-byte reads.
t_count_openmetrics() {
	local j
	bg_start $S/om.prom count kprobe:$SYS --by comm -d 3 -f openmetrics
	$LOOP -w 0 500 >/dev/null
	wait $BG_PID || fail "count -d 3 -f openmetrics: exit $?: $(cat $S/om.prom.err)"
	promtool_ok $S/om.prom
	expect_eq 500 "$(sed -n 's/^rawprobe_hits_total{probe="kprobe:'$SYS'",comm="getpgid_loop"} //p' $S/om.prom)" \
		"getpgid_loop's calls, as a Prometheus counter"
	expect_eq 1 "$(grep -c '^# TYPE rawprobe_hits_total counter$' $S/om.prom)" "one TYPE line"

	bg_start $S/omi.prom count kprobe:$SYS --by comm -i 0.3 -f openmetrics
	$LOOP -w 0 300 >/dev/null
	wait_for "grep -q '\"getpgid_loop\"} 300\$' $S/omi.prom" 150 ||
		fail "no exposition with the first 300 calls: $(tail -n 5 $S/omi.prom)"
	$LOOP -w 0 200 >/dev/null
	sleep 0.5
	bg_stop INT
	python3 - $S/omi.prom <<'PY' || fail "not running totals (see above)"
import re, subprocess, sys
docs = [d for d in open(sys.argv[1]).read().split("\n\n") if d.strip()]
counts = []
for d in docs:
    p = subprocess.run(["promtool", "check", "metrics"], input=d + "\n",
                       capture_output=True, text=True)
    if p.returncode or p.stdout or p.stderr:
        sys.exit("promtool: exit %d %s%s on:\n%s" % (p.returncode, p.stdout, p.stderr, d))
    m = re.search(r'^rawprobe_hits_total\{probe="[^"]*",comm="getpgid_loop"\} (\d+)$', d, re.M)
    counts.append(int(m.group(1)) if m else 0)
if len(docs) < 3 or counts != sorted(counts) or 300 not in counts or counts[-1] != 500:
    sys.exit("getpgid_loop in %d expositions: %s, not running totals to 500" % (len(docs), counts))
print("    %d expositions, getpgid_loop %s..%s" % (len(docs), counts[0], counts[-1]))
PY

	head -c 1000 /dev/zero > $S/k1
	bg_start $S/omh.prom count kretprobe:vfs_read --by comm --stats retval --hist log2 -f openmetrics
	dd if=$S/k1 of=/dev/null bs=100 2>/dev/null
	bg_stop INT
	promtool_ok $S/omh.prom
	# [64, 128) is le="127" less le="63"
	j=$(awk '/^rawprobe_retval_bucket\{.*comm="dd",le="127"\}/ { a = $2 }
		 /^rawprobe_retval_bucket\{.*comm="dd",le="63"\}/ { b = $2 }
		 END { print a - b }' $S/omh.prom)
	expect_ge 10 "$j" "dd's 100-byte reads in le=\"127\" but not le=\"63\""
	expect_eq "$(sed -n 's/^rawprobe_retval_count{.*comm="dd"} //p' $S/omh.prom)" \
		"$(sed -n 's/^rawprobe_retval_bucket{.*comm="dd",le="+Inf"} //p' $S/omh.prom)" "+Inf = _count"
}

t_count_bad_input() {
	expect_fail 2 "format is text, json, openmetrics, folded, svg or speedscope, not 'xml'" $CTL count kprobe:vfs_read -f xml
	expect_fail 2 "unknown key 'stak'" $CTL count kprobe:vfs_read --by stak
	expect_fail 2 "stack: the callers are known at a function's entry" $CTL count kprobe:vfs_read+0x4 --by stack
	expect_fail 2 "only a kretprobe sees a return value" $CTL count kprobe:vfs_read --by retval
	expect_fail 2 "only a kretprobe sees a return" $CTL count kprobe:vfs_read --stats latency
	expect_fail 2 "caller: the callers are known at a function's entry" $CTL count kprobe:vfs_read+0x4 --by caller
	expect_fail 2 "max-keys wants" $CTL count kprobe:vfs_read --max-keys 0
	expect_fail 2 "histogram needs a value" $CTL count kretprobe:vfs_read --hist log2
	expect_fail 1 "unknown symbol|not found" $CTL count kprobe:no_such_function_rp
	expect_eq 0 "$(probe_count)" "probes left"
}

# A string argument as a key (its first 31 bytes), read in the kernel at
# the hit, as bpftrace's @[str(args->filename)]; an ip6 address as one.
t_count_by_string() {
	local j long=/tmp/rpk-$(printf '%040d' 0)
	count_bg $S/str.json kprobe:do_sys_openat2 --args filename:ustr --by comm,filename
	py "import os
open('/proc/self/comm', 'w').write('rp-open')
for n in ['/tmp/rpk-a'] * 3 + ['/tmp/rpk-b'] * 2 + ['$long']:
    try:
        os.close(os.open(n, os.O_RDONLY | os.O_CREAT))
    except OSError:
        pass"
	bg_stop INT
	schema count $S/str.json
	j=$(count_last $S/str.json)
	expect_eq "{'${long:0:31}': 1, '/tmp/rpk-a': 3, '/tmp/rpk-b': 2}" \
		"$(json_get "$j" "dict(sorted((e['filename'], e['count']) for e in j['entries'] if e['comm'] == 'rp-open'))")" \
		"rp-open's opens by file name, a long one cut at 31 bytes"
	ip link set lo up
	count_bg $S/ip6.json kprobe:tcp_connect --args 'sk->__sk_common.skc_v6_daddr:ip6' --by arg0
	py 'import socket
l = socket.socket(socket.AF_INET6); l.bind(("::1", 0)); l.listen(2)
for i in range(2):
    socket.create_connection(("::1", l.getsockname()[1]))'
	bg_stop INT
	expect_eq 2 "$(json_get "$(count_last $S/ip6.json)" "sum(e['count'] for e in j['entries'] if e['sk->__sk_common.skc_v6_daddr'] == '::1')")" \
		"connections to ::1 by address"
	expect_fail 1 "a string key is read at an entry probe's hit" \
		$CTL count kretprobe:do_sys_openat2 --args filename:ustr --by filename -d 5
	expect_fail 1 "a string argument is only a key" \
		$CTL count kprobe:do_sys_openat2 --args filename:ustr --by comm -d 5
	expect_fail 1 "the keys take more than 64 bytes" \
		$CTL count kprobe:do_renameat2 --args 'from->name:str,to->name:str' --by comm,arg0,arg1 -d 5
	expect_eq 0 "$(probe_count)" "probes left"
}

# A string key whose length is another argument (buf:str:c): pty_write's
# buffer is the tty's write buffer, kept from write to write, so a short
# write leaves the end of a longer one after its c bytes. Those bytes are
# not the string's: the short writes are one key, not one per leftover.
t_count_by_string_length() {
	count_bg $S/strlen.json kprobe:pty_write --comm rp-ptyw \
		--args 'buf:str:c,c' --by buf
	py 'import ctypes, os, pty, tty
ctypes.CDLL(None).prctl(15, b"rp-ptyw", 0, 0, 0)
m, s = pty.openpty(); tty.setraw(s)
for t in b"123":
    os.write(s, b"hello" + bytes([t]) * 10)
    os.write(s, b"hello")'
	bg_stop INT
	schema count $S/strlen.json
	expect_eq "{'hello': 3, 'hello1111111111': 1, 'hello2222222222': 1, 'hello3333333333': 1}" \
		"$(json_get "$(count_last $S/strlen.json)" "dict(sorted((e['buf'], e['count']) for e in j['entries']))")" \
		"pty writes by their c bytes"
}

# sleeper: a process named rp-sleep asleep in clock_nanosleep (entered,
# not returned) until killed, at the latest when the test ends; sets
# SLEEPER.
sleeper() {
	python3 -c 'import ctypes, time
ctypes.CDLL(None).prctl(15, b"rp-sleep", 0, 0, 0)
time.sleep(120)' </dev/null >/dev/null 2>&1 &
	SLEEPER=$!
	trap 'kill $SLEEPER 2>/dev/null || true' EXIT
	wait_for "[ \"\$(cut -d' ' -f1 /proc/$SLEEPER/syscall 2>/dev/null)\" = 230 ]" 100 ||
		fail "rp-sleep never slept in clock_nanosleep"
}

# A kretprobe counts at return, and a call still asleep when count ends
# returns after the last read: count does not wait for it (it may never
# return) but says how many: the intervals' hits and the calls in flight
# add up to HITS. hist says so too.
t_count_kretprobe_in_flight() {
	count_bg $S/fl.json kretprobe:__x64_sys_clock_nanosleep --comm rp-sleep \
		--stats latency -i 0.2
	py 'import ctypes, time
ctypes.CDLL(None).prctl(15, b"rp-sleep", 0, 0, 0)
for i in range(5): time.sleep(0.01)'
	sleeper
	bg_stop INT
	kill $SLEEPER; wait $SLEEPER 2>/dev/null || true
	schema count $S/fl.json
	python3 - $S/fl.json <<'PY' || fail "intervals + in flight != HITS (see above)"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
t = docs[-1]["total"]
n = sum(d["interval"]["hits"] for d in docs)
print("    %d intervals: %d hits, %s in flight, HITS %d" % (len(docs), n, t.get("in_flight"), t["hits"]))
if t.get("in_flight") != 1 or n != 5 or n + t["in_flight"] != t["hits"]:
    sys.exit("want 5 counted and 1 in flight, adding up to HITS")
PY
	bg_start $S/flh.txt hist kretprobe:__x64_sys_clock_nanosleep --comm rp-sleep
	sleeper
	bg_stop INT
	kill $SLEEPER; wait $SLEEPER 2>/dev/null || true
	grep -q ": 1 call in flight at the end, not counted$" $S/flh.txt.err ||
		fail "hist's summary: $(cat $S/flh.txt.err)"
}

# A persistent counting probe (probe add --count), as ftrace's hist
# trigger on an event: listed, read by agg show (each show an interval),
# cleared, deleted like any probe.
t_agg_persistent() {
	local id j
	id=$($CTL probe add kprobe $SYS --by comm)
	$CTL -j probe show "$id" > $S/agg-probe.json
	expect_eq "['comm']" "$(json_get "$(cat $S/agg-probe.json)" 'j["aggregate"]["by"]')" "listed as counting by comm"
	schema probe $S/agg-probe.json
	$LOOP -w 0 300 >/dev/null
	$CTL -j agg show "$id" > $S/agg1.json
	j=$(cat $S/agg1.json)
	expect_eq 300 "$(json_get "$j" "[e['count'] for e in j['entries'] if e['comm'] == 'getpgid_loop'][0]")" "first show"
	schema count $S/agg1.json
	$LOOP -w 0 200 >/dev/null
	j=$($CTL -j agg show "$id")
	expect_eq 200 "$(json_get "$j" "[e['count'] for e in j['entries'] if e['comm'] == 'getpgid_loop'][0]")" \
		"the second show: only what came after the first"
	$LOOP -w 0 100 >/dev/null
	$CTL agg clear "$id"
	j=$($CTL -j agg show "$id")
	expect_eq 0 "$(json_get "$j" "len([e for e in j['entries'] if e['comm'] == 'getpgid_loop'])")" "cleared"
	$LOOP -w 0 70 >/dev/null
	$CTL agg show "$id" -f openmetrics > $S/agg.prom
	promtool_ok $S/agg.prom
	expect_eq 70 "$(sed -n 's/^rawprobe_hits_total{probe="'$SYS'",comm="getpgid_loop"} //p' $S/agg.prom)" \
		"agg show -f openmetrics"
	expect_fail 2 "format is text, json, openmetrics, folded, svg or speedscope" $CTL agg show "$id" -f xml
	expect_fail 1 "does not count" $CTL agg show "$($CTL probe add kprobe vfs_read)"
	expect_fail 2 "Usage: rawprobectl agg show ID" $CTL agg show x
	$CTL probe del all
}

# Another command's tables are its own: a show from outside is refused.
t_agg_owned_refused() {
	local id
	count_bg $S/own.json kprobe:$SYS --by comm
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['symbol'] == '$SYS'][0]")
	expect_fail 4 "belong to the command that added it.*EACCES" $CTL agg show "$id"
	bg_stop INT
}

# SIGKILLed: its socket's probe and tables go with it.
t_count_killed_leaves_nothing() {
	count_bg $S/kill.json kprobe:vfs_read --by comm,pid
	kill -KILL $BG_PID
	wait $BG_PID 2>/dev/null || true
	wait_for "[ \$(probe_count) = 0 ]" 100 || fail "the probe outlived its command"
}

# Tables past the sixteenth of RAM all probes share (the widest the
# policy allows: about 1 GiB on two CPUs), asked for by a CAP_PERFMON
# caller: refused with E2BIG before anything is allocated. The caller's
# memory cgroup (allocations are charged to it) says what was taken;
# its limit keeps the OOM killer, had the tables been allocated, inside.
t_agg_tables_past_budget_take_nothing() {
	local cg=rp-agg-budget out peak ooms
	ooms=$(dmesg | grep -c "invoked oom-killer" || true)
	cgroup_make $cg 768M
	out=$(in_cgroup $cg setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+perfmon --ambient-caps=+perfmon \
		$CTL count kretprobe:vfs_read --by comm,pid,tgid,cpu \
		--stats latency --lhist 0,255000,1000 --max-keys 65536 -d 1 2>&1) &&
		fail "tables past the budget were accepted: $out"
	expect_match "sixteenth of RAM" "$out" "the refusal"
	peak=$(cat $CGROOT/$cg/memory.peak)
	[ "$peak" -lt $((64 << 20)) ] ||
		fail "the refused batch took $((peak >> 20)) MiB of the caller's cgroup"
	expect_eq 0 "$(probe_count)" "probes left by the refusal"
	expect_eq "$ooms" "$(dmesg | grep -c "invoked oom-killer" || true)" "OOM kills"
	rmdir $CGROOT/$cg
	# the same tables, narrower: accepted, and read
	count_bg $S/budget.json kretprobe:vfs_read --by comm --max-keys 65536
	bg_stop INT
}

tests t_count_by_comm_exact t_count_intervals_exact t_count_keyless_quiet t_count_several_targets t_count_by_comm_interleaved t_count_key_overflow_counted \
	t_count_retval_stats t_count_hist_buckets t_count_by_caller t_count_by_stack t_count_flame \
	t_count_stack_overflow_counted t_count_openmetrics t_count_bad_input \
	t_count_killed_leaves_nothing t_agg_persistent t_agg_owned_refused \
	t_count_equals_kprobe_profile t_count_udp_drops_by_caller t_count_rmmod_while_reading \
	t_count_by_string t_agg_tables_past_budget_take_nothing \
	t_count_by_string_length t_count_kretprobe_in_flight
