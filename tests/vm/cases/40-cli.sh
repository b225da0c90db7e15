# SPDX-License-Identifier: GPL-2.0
# rawprobectl on real workloads: trace, hist, exports (perfetto, CSV),
# doctor, stats, filters, and cleanup on SIGINT/SIGTERM. JSON output is
# validated against docs/schema/rawprobectl-v2.json.

S=$T_SCRATCH


t_doctor_all_good() {
	local out
	out=$($CTL doctor)
	expect_match "0 failed, 0 warnings" "$out" "doctor summary"
	expect_match "ok +module +rawprobe .* is loaded" "$out" "module check"
	expect_match "ok +lockdown" "$out" "lockdown check"
	$CTL -j doctor > $S/doctor.json
	schema doctor $S/doctor.json
	expect_eq "[]" "$(json_get "$(cat $S/doctor.json)" '[c["name"] for c in j["checks"] if c["status"] != "ok"]')" "checks not ok"
}

t_trace_kretprobe() {
	head -c 1000 /dev/zero > $S/in
	bg_start $S/trace.txt trace kretprobe:vfs_read -a 3 -d 60
	dd if=$S/in of=/dev/null bs=100 count=3 2>/dev/null
	bg_stop INT
	expect_eq 3 "$(grep -cE ' dd +kretprobe:vfs_read +\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x64\) = 100 \([0-9]+ ns\)' $S/trace.txt)" "dd's reads traced"
	expect_match "kretprobe:vfs_read +[0-9]+" "$(cat $S/trace.txt.err)" "summary per probe"
	expect_match "lost \(ring full\), 0 sequence gaps" "$(cat $S/trace.txt.err)" "loss summary"
}

t_trace_json_count() {
	bg_start $S/pg.json -j trace kprobe:__x64_sys_getpgid -c 5
	py 'import os
for i in range(20): os.getpgid(0)'
	wait "$BG_PID"
	expect_eq 5 "$(wc -l < $S/pg.json)" "--count 5 records"
	schema record $S/pg.json
	expect_eq 0 "$(probe_count)" "trace removed its probe"
}

t_hist_latency_by_comm() {
	local j
	head -c 2000 /dev/zero > $S/in
	bg_start $S/hist.json -j hist kretprobe:vfs_read --by comm -d 60
	dd if=$S/in of=/dev/null bs=100 count=20 2>/dev/null
	bg_stop TERM
	schema hist $S/hist.json
	j=$(grep '"comm":"dd"' $S/hist.json)
	expect_ge 20 "$(json_get "$j" 'j["count"]')" "dd's vfs_read returns"
	expect_eq "$(json_get "$j" 'j["count"]')" "$(json_get "$j" 'sum(b["count"] for b in j["buckets"])')" "buckets add up"
	expect_eq True "$(json_get "$j" 'j["min"] > 0 and all(b["high"] == 2 * b["low"] for b in j["buckets"])')" "log2 buckets of latency"
}

t_hist_arg_linear_text() {
	head -c 2000 /dev/zero > $S/in
	bg_start $S/hist.txt hist kretprobe:vfs_read -a 3 --arg 2 --linear 100 --by comm -d 60
	dd if=$S/in of=/dev/null bs=150 count=4 2>/dev/null
	bg_stop INT
	expect_match "@kretprobe:vfs_read\[dd\], arg2 \(linear\): count [4-9]" "$(cat $S/hist.txt)" "header"
	expect_match "\[100, 200\) +4 \|@{52}\|" "$(cat $S/hist.txt)" "one full bar of 4 reads of 150 bytes"
}

t_export_perfetto() {
	head -c 1000 /dev/zero > $S/in
	bg_start $S/out trace kretprobe:vfs_read -d 60 -f perfetto -o $S/trace.json
	dd if=$S/in of=/dev/null bs=100 count=5 2>/dev/null
	bg_stop INT
	schema perfetto- $S/trace.json
	py 'import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
dd = [e for e in ev if e["ph"] == "X" and names.get(e["tid"]) == "dd"]
assert len(dd) >= 5, len(dd)
assert all(e["dur"] > 0 and e["name"] == "kretprobe:vfs_read" for e in dd)
assert all(a["ts"] + a["dur"] <= b["ts"] + b["dur"] for a, b in zip(dd, dd[1:]))' $S/trace.json ||
		fail "perfetto slices"
}

t_export_csv() {
	local f=$S/csv-target-$$
	echo x > "$f"
	bg_start $S/out stream -e jprobe:do_sys_openat2 -a s32,ustr -f csv -o $S/open.csv
	cat "$f" "$f" >/dev/null
	bg_stop TERM
	expect_eq 2 "$(py 'import csv, sys
print(sum(1 for r in csv.DictReader(open(sys.argv[1]))
          if r["str"] == sys.argv[2] and r["comm"] == "cat" and r["arg0"] == "-100"))' $S/open.csv "$f")" "CSV rows of cat opening the file"
}

# Live records to CTF: babeltrace2 (a host package the guest shares)
# reads the directory back, with the file cat opened as the string.
t_export_ctf() {
	local f=$S/ctf-target-$$ out
	echo x > "$f"
	bg_start $S/out trace jprobe:do_sys_openat2 -a s32,ustr -d 60 -f ctf -o $S/ctf
	cat "$f" "$f" >/dev/null
	bg_stop INT
	out=$(babeltrace2 $S/ctf 2>$S/bt.err) || fail "babeltrace2: $(cat $S/bt.err)"
	[ ! -s $S/bt.err ] || fail "babeltrace2 warned: $(cat $S/bt.err)"
	expect_eq 2 "$(grep -F 'jprobe:do_sys_openat2:' <<<"$out" |
		grep -F 'comm = "cat"' | grep -cF "arg1 = \"$f\"")" "CTF events of cat opening the file"
}

t_signals_remove_probes() {
	bg_start $S/out trace -q kprobe:vfs_read kretprobe:vfs_write -d 60
	expect_eq 2 "$(probe_count)" "two probes while tracing"
	bg_stop TERM
	expect_match "records read" "$(cat $S/out.err)" "summary on SIGTERM"
	bg_start $S/out stream -q -e kprobe:vfs_read
	bg_stop INT
}

t_stats_show_schemas() {
	local id
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	py 'import os
for i in range(50): os.getpgid(0)'
	$CTL -j stats > $S/stats.json
	schema stats $S/stats.json
	expect_ge 50 "$(json_get "$(cat $S/stats.json)" 'j["total"]["hits"]')" "total hits"
	expect_match "hits +[0-9]+" "$($CTL probe show $id)" "probe show detail"
	$CTL -j probe show $id | schema probe
	$CTL -j probe list | schema probe_list
	$CTL -j ring show | schema ring
	$CTL -j version | schema version
	$CTL stats reset all
	expect_eq 0 "$(json_get "$($CTL -j stats $id)" 'j["total"]["hits"]')" "stats reset"
	$CTL probe del $id
}

t_symbol_suggestions() {
	expect_fail 1 "vfs_raed: unknown symbol" $CTL probe add kprobe vfs_raed
	expect_fail 1 "did you mean: vfs_read" $CTL probe add kprobe vfs_raed
	expect_fail 1 "did you mean: .*do_sys_openat2" $CTL trace kprobe:do_sys_openat
}

t_stream_filter_userspace() {
	local id
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	$CTL -j stream --comm rpfilt -i "$id" -d 60 > $S/f.json 2>$S/f.err &
	BG_PID=$!
	sleep 1		# no probe of its own to wait for
	py 'import os
for i in range(7): os.getpgid(0)'
	py 'import os
open("/proc/self/comm", "w").write("rpfilt")
for i in range(5): os.getpgid(0)'
	sleep 0.3
	kill -INT "$BG_PID"; wait "$BG_PID"
	expect_eq 5 "$(wc -l < $S/f.json)" "records of comm rpfilt only"
	expect_eq 5 "$(grep -c '"comm":"rpfilt"' $S/f.json)" "all of comm rpfilt"
	$CTL probe del "$id"
}

# Needs the module's in-kernel filters (RAWPROBE_A_FILTER_*).
t_kernel_filters() {
	local id j
	id=$($CTL probe add kprobe __x64_sys_getpgid --comm rpfilt)
	py 'import os
for i in range(7): os.getpgid(0)'
	py 'import os
open("/proc/self/comm", "w").write("rpfilt")
for i in range(5): os.getpgid(0)'
	j=$($CTL -j probe show "$id")
	expect_eq rpfilt "$(json_get "$j" 'j["filter"]["comm"]')" "filter shown"
	expect_eq 5 "$(json_get "$j" 'j["stats"]["records"]')" "records of comm rpfilt"
	expect_ge 7 "$(json_get "$j" 'j["stats"]["filtered"]')" "filtered in the kernel"
	expect_eq "$(json_get "$j" 'j["stats"]["hits"]')" \
		"$(json_get "$j" 'j["stats"]["records"] + j["stats"]["lost_ring"] + j["stats"]["filtered"]')" \
		"hits = records + lost + filtered"
	expect_match "filter +comm=rpfilt" "$($CTL probe show $id)" "probe show filter"
	$CTL probe del "$id"
	bg_start $S/k.out -j trace kprobe:__x64_sys_getpgid --pid $$ -d 60 -o $S/k.json
	py 'import os
for i in range(4): os.getpgid(0)'
	bg_stop INT
	expect_eq 0 "$(wc -l < $S/k.json)" "--pid of this shell: python's calls filtered"
	expect_match "kprobe:__x64_sys_getpgid +[0-9]+ +0 +0 +[1-9]" "$(cat $S/k.out.err)" "FILTERED in the summary"
}

# no_raw_escapes FILE: no ESC or BEL byte in it (a terminal would act on them)
no_raw_escapes() {
	if LC_ALL=C grep -q $'[\x1b\x07]' "$1"; then
		fail "raw ESC or BEL in $1: $(LC_ALL=C grep -a $'[\x1b\x07]' "$1" | cat -v | head -5)"
	fi
}

# A traced process names itself and a file with terminal escapes (a title,
# a screen clear): text output shows them escaped, never as raw bytes.
t_text_escapes_strings() {
	local name=$S/esc-$'\e[2J'-$'\e]0;file\a'-end
	bg_start $S/esc.txt stream -e jprobe:do_sys_openat2 -a s32,ustr -d 60
	py 'import sys
open("/proc/self/comm", "w").write("\x1b]0;pwned\x07")
open(sys.argv[1], "w").close()' "$name"
	bg_stop INT
	no_raw_escapes $S/esc.txt
	grep -F -q -- '\x1b]0;pwned\x07 jprobe:do_sys_openat2    (-100, "'"$S"'/esc-\x1b[2J-\x1b]0;file\x07-end")' $S/esc.txt ||
		fail "escaped comm and file name not found in: $(grep -F -- "$S/esc-" $S/esc.txt | cat -v)"
}

# A filter's comm, as the kernel reports it back, in probe list and show.
t_list_escapes_filter() {
	local id
	id=$($CTL probe add kprobe __x64_sys_getpgid --comm $'\e[2Jx')
	$CTL probe list > $S/list.txt
	$CTL probe show "$id" > $S/show.txt
	$CTL probe del "$id"
	no_raw_escapes $S/list.txt
	no_raw_escapes $S/show.txt
	expect_match '\[comm=\\x1b\[2Jx\]' "$(cat $S/list.txt)" "probe list filter"
	expect_match 'filter +comm=\\x1b\[2Jx$' "$(cat $S/show.txt)" "probe show filter"
}

# del, enable and disable take several ids: one the kernel refuses is
# reported, the others are still done, and the exit code says it failed.
t_several_ids() {
	local a b
	state() { json_get "$($CTL -j probe show $1)" 'j["state"]'; }
	read -r a b <<<"$($CTL probe add -d kprobe vfs_read vfs_write | xargs)"
	expect_fail 1 "probe enable 99999: " $CTL probe enable "$a" 99999 "$b"
	expect_eq "armed armed" "$(state $a) $(state $b)" "both enabled"
	$CTL probe disable "$a" "$b"
	expect_eq "disabled disabled" "$(state $a) $(state $b)" "both disabled"
	expect_fail 1 "probe del 99999: " $CTL probe del "$a" 99999 "$b"
	expect_eq 0 "$(probe_count)" "probes left"
}

# --args NAME:TYPE selects the parameter of that name
# where BTF knows the function (filename is do_sys_openat2's second).
t_args_name_selects() {
	local f=$S/named-$$
	echo x > "$f"
	bg_start $S/named.json -j trace jprobe:do_sys_openat2 --args filename:ustr -d 60
	cat "$f" >/dev/null
	bg_stop INT
	expect_eq 1 "$(grep -F '"comm":"cat"' $S/named.json | grep -cF "\"str\":\"$f\"")" "cat's open of the file, by the parameter's name"
	expect_fail 2 "'fd:s32': is not an argument of do_sys_openat2 \(its arguments: dfd, filename, how\)" \
		$CTL trace jprobe:do_sys_openat2 --args fd:s32 -d 1
	expect_eq 0 "$(probe_count)" "probes left"
}

# A command's probes leave rawprobectl out, in the
# kernel: tracing vfs_write, its own writes of the records it read are
# not records (each would wake it again). --include-self records them.
t_self_left_out() {
	local self n
	bg_start $S/self.err-only -j trace kprobe:vfs_write -d 60 -o $S/self.json
	self=$BG_PID
	expect_eq "$self" "$(json_get "$($CTL -j probe list)" 'j[0]["filter"]["not_tgid"]')" "the filter, as the kernel has it"
	dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null
	wait_for "[ \$(grep -c '\"comm\":\"dd\"' $S/self.json) -ge 20 ]" 100 ||
		fail "dd's writes not traced: $(head -c 300 $S/self.json)"
	bg_stop INT
	expect_eq 0 "$(grep -c "\"tgid\":$self," $S/self.json)" "records of rawprobectl ($self)"
	expect_match "kprobe:vfs_write +[0-9]+ +[0-9]+ +[0-9]+ +[1-9]" "$(cat $S/self.err-only.err)" "its writes counted as FILTERED"

	# with it, its writes are records, which it writes, which are
	# records: -c ends the loop (-d bounds it)
	$CTL -j trace kprobe:vfs_write --include-self -c 60 -d 30 \
		-o $S/self2.json 2>$S/self2.err &
	self=$!
	wait_for "[ \$(probe_count) -gt 0 ] || ! kill -0 $self 2>/dev/null" 100
	dd if=/dev/zero of=/dev/null bs=1 count=20 2>/dev/null
	wait "$self" || fail "trace --include-self: $(cat $S/self2.err)"
	n=$(grep -c "\"tgid\":$self," $S/self2.json) || true
	expect_ge 1 "$n" "records of rawprobectl ($self) with --include-self"
	expect_eq 0 "$(probe_count)" "probes left"
}

# ... its own work only: an interrupt or softirq that runs while it is
# on its CPU is kept. Its records go to a loopback socket: each segment
# it sends is received (tcp_v4_rcv) in the softirq its send runs when it
# enables bottom halves again, in its context. A connect to a closed
# port (a SYN, an RST, another task's) starts it; every record written
# then brings another, so -c ends it.
t_self_irq_kept() {
	local port self sink n
	ip link set lo up
	py 'import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
open(sys.argv[2], "w").write("%d\n" % s.getsockname()[1])
c, _ = s.accept()
with open(sys.argv[1], "wb") as f:
    while True:
        b = c.recv(65536)
        if not b:
            break
        f.write(b)' $S/irq.json $S/irq.port &
	sink=$!
	wait_for "[ -s $S/irq.port ]" 100 || { kill $sink; fail "no sink"; }
	port=$(cat $S/irq.port)
	$CTL -j trace kprobe:tcp_v4_rcv -c 40 -d 20 > /dev/tcp/127.0.0.1/$port 2> $S/irq.err &
	self=$!
	wait_for "! kill -0 $self 2>/dev/null || ready_line $S/irq.err" 300
	py 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
p = s.getsockname()[1]
s.close()
try:
    socket.create_connection(("127.0.0.1", p))
except OSError:
    pass'
	wait "$self" || { kill $sink; fail "trace: $(cat $S/irq.err)"; }
	# (the sink ends when rawprobectl's socket closes, at its exit)
	wait_for "! kill -0 $sink 2>/dev/null" 100 || kill $sink
	wait "$sink"
	n=$(grep -c "\"tgid\":$self," $S/irq.json) || true
	expect_ge 1 "$n" "its sends' receipt, in softirq, in its context ($self): $(head -c 600 $S/irq.json)"
	expect_eq 40 "$(grep -c '"probe_id"' $S/irq.json)" "records up to -c"
	expect_eq 0 "$(probe_count)" "probes left"
}

# Value formats. A loopback connect: tcp_connect's
# socket has 127.0.0.1 and the listener's port, big-endian in memory, and
# its sk_state_change is sock_def_wakeup.
t_value_formats() {
	local port
	ip link set lo up
	bg_start $S/fmt.txt trace kprobe:tcp_connect -d 60 \
		--args 'sk->__sk_common.skc_daddr:ip4,sk->__sk_common.skc_dport:be16,sk->sk_state_change:ksym,sk->__sk_common.skc_daddr:hex'
	port=$(py 'import socket
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1)
c = socket.create_connection(l.getsockname())
print(l.getsockname()[1])')
	bg_stop INT
	expect_match "kprobe:tcp_connect +\(sk->__sk_common.skc_daddr=127\.0\.0\.1, sk->__sk_common.skc_dport=$port, sk->sk_state_change=sock_def_wakeup\+0x0, sk->__sk_common.skc_daddr=0x100007f\)" \
		"$(cat $S/fmt.txt)" "daddr, port, callback"
}

# :ip6: the kernel copies the 16 bytes of a struct
# in6_addr into the string area; text and JSON show inet_ntop()'s form,
# beside another string (several strings a record) and alone.
t_value_format_ip6() {
	local sk='sk->__sk_common' port connect='import socket
l = socket.socket(socket.AF_INET6); l.bind(("::1", 0)); l.listen(1)
c = socket.create_connection(("::1", l.getsockname()[1]))
print(l.getsockname()[1])'
	ip link set lo up
	bg_start $S/ip6.txt trace kprobe:tcp_connect -d 60 \
		--args "$sk.skc_v6_daddr:ip6,$sk.skc_prot->name,$sk.skc_v6_rcv_saddr:ip6,$sk.skc_dport:be16"
	port=$(py "$connect")
	bg_stop INT
	expect_match "kprobe:tcp_connect +\($sk.skc_v6_daddr=\"::1\", $sk.skc_prot->name=\"TCPv6\", $sk.skc_v6_rcv_saddr=\"::1\", $sk.skc_dport=$port\)" \
		"$(cat $S/ip6.txt)" "two addresses and a name"
	bg_start $S/ip6.json -j trace kprobe:tcp_connect -d 60 --args "$sk.skc_v6_daddr:ip6"
	py "$connect" >/dev/null
	bg_stop INT
	expect_match '"str":"::1"' "$(grep tcp_connect $S/ip6.json)" "JSON, alone"
}

# :saddr, :daddr: one probe sees IPv4 and IPv6 connects, each address
# as its socket's family says, in text, --template and JSON.
t_value_format_inet() {
	local p4 p6
	ip link set lo up
	bg_start $S/inet.txt trace kprobe:tcp_connect -d 60 \
		--args 'sk:saddr,sk:daddr,sk->__sk_common.skc_dport:be16' \
		--template '{arg0} {arg1} {arg2}'
	p4=$(py 'import socket
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1)
c = socket.create_connection(l.getsockname())
print(l.getsockname()[1])')
	p6=$(py 'import socket
l = socket.socket(socket.AF_INET6); l.bind(("::1", 0)); l.listen(1)
c = socket.create_connection(("::1", l.getsockname()[1]))
print(l.getsockname()[1])')
	bg_stop INT
	expect_match "^127\.0\.0\.1 127\.0\.0\.1 $p4\$" "$(cat $S/inet.txt)" "IPv4's, by its family"
	expect_match "^::1 ::1 $p6\$" "$(cat $S/inet.txt)" "IPv6's, by its family"
	bg_start $S/inet.json -j trace kprobe:tcp_connect -d 60 --args 'sk:daddr'
	py 'import socket
l = socket.socket(socket.AF_INET6); l.bind(("::", 0)); l.listen(1)
c = socket.create_connection(("127.0.0.1", l.getsockname()[1]))' >/dev/null
	bg_stop INT
	expect_match '"str":"127\.0\.0\.1"' "$(grep tcp_connect $S/inet.json)" "JSON: an IPv4 connect"
	schema record $S/inet.json
}

# Lookups: a signal, an errno, a capability by name, in text, in
# JSON's args_text and as count's key (cap_capable's own parameter is
# named cap, as the format is).
t_value_lookups() {
	local sleeper
	sleep 60 &
	sleeper=$!
	bg_start $S/lk.txt trace kprobe:__x64_sys_kill -d 60 \
		--args 'pid,sig:signal' --filter "pid == $sleeper"
	kill -0 $sleeper
	kill -USR1 $sleeper
	wait $sleeper 2>/dev/null || true
	bg_stop INT
	expect_match "pid=$sleeper, sig=0\).*pid=$sleeper, sig=SIGUSR1\)" "$(cat $S/lk.txt | tr '\n' ' ')" \
		"0, then SIGUSR1 by name"
	bg_start $S/lk.json -j trace kretprobe:do_sys_openat2 -d 60 \
		--args 'retval:errno' --comm lkopen
	cp /bin/cat $S/lkopen
	! $S/lkopen /nonexistent/lookup 2>/dev/null
	bg_stop INT
	expect_match '"args_text":\["-ENOENT"\]' "$(cat $S/lk.json)" "errno by name in JSON"
	touch $S/lkfile
	cp /bin/chown $S/lkchown
	bg_start $S/lkc.json -j count kprobe:cap_capable -d 60 --args 'cap:cap' \
		--by cap --comm lkchown
	$S/lkchown 65534 $S/lkfile
	bg_stop INT
	expect_ge 1 "$(json_get "$(tail -1 $S/lkc.json)" 'sum(e["count"] for e in j["entries"] if e["cap"] == "CAP_CHOWN")')" \
		"CAP_CHOWN as count's key: $(cat $S/lkc.json)"
}

# Aliases and a cast (--args NAME=PATH, ((struct S *)PATH)) on a
# persistent probe, read by another command: stream shows each NAME, and
# labels the enum by its PATH (socket_state; tcp_connect runs before
# __inet_stream_connect sets SS_CONNECTING); the cast to the inet_sock
# that a TCP sock is reads the same port as the sock's own field.
t_alias_cast() {
	local id port connect='import socket
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1)
c = socket.create_connection(l.getsockname())
print(l.getsockname()[1])'
	ip link set lo up
	id=$($CTL probe add kprobe tcp_connect --args 'ss=sk->sk_socket->state,port=((struct inet_sock *)sk)->sk.__sk_common.skc_dport:be16,dport=sk->__sk_common.skc_dport:be16,daddr=sk->__sk_common.skc_daddr:ip4')
	expect_match "ss=sk->sk_socket->state:u32,port=\(\(struct inet_sock \*\)sk\)->sk.__sk_common.skc_dport:be16" \
		"$($CTL probe show "$id")" "probe show: the names and paths kept"
	$CTL stream -i "$id" -d 60 > $S/alias.txt 2>$S/alias.err &
	BG_PID=$!
	sleep 1		# no probe of its own to wait for
	port=$(py "$connect")
	sleep 0.3
	kill -INT "$BG_PID"; wait "$BG_PID"
	expect_match "kprobe:tcp_connect +\(ss=SS_UNCONNECTED, port=$port, dport=$port, daddr=127\.0\.0\.1\)" \
		"$(cat $S/alias.txt)" "the aliases, the enum by its path, the cast"
	$CTL stream -i "$id" -d 60 --template '{ss} {port} {daddr}' > $S/alias.tmpl 2>$S/alias.err &
	BG_PID=$!
	sleep 1
	py "$connect" >/dev/null
	sleep 0.3
	kill -INT "$BG_PID"; wait "$BG_PID"
	expect_match "^SS_UNCONNECTED [0-9]+ 127\.0\.0\.1$" "$(cat $S/alias.tmpl)" "a template by the aliases"
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes left"
}

# A command that brings its probes reads from the
# rings' current position. Records a deleted probe left unread must not
# come out as '?' records (stream -e) or as "filtered out here" (trace).
t_reader_starts_at_head() {
	local id
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	py 'import os
for i in range(40): os.getpgid(0)'
	expect_ge 40 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["records"]')" "records left in the rings"
	$CTL probe del "$id"
	bg_start $S/head.json -j stream -e kprobe:__x64_sys_getppid
	py 'import os
for i in range(3): os.getppid()'
	bg_stop INT
	expect_eq 0 "$(grep -c "\"probe_id\":$id," $S/head.json)" "records of the deleted probe $id"
	expect_ge 3 "$(grep -c '"probe":"kprobe:__x64_sys_getppid"' $S/head.json)" "records of the stream's probe"
	# the same with trace, after more records of a deleted probe
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	py 'import os
for i in range(40): os.getpgid(0)'
	$CTL probe del "$id"
	bg_start $S/head.txt trace kprobe:__x64_sys_getppid -d 60
	py 'import os
for i in range(3): os.getppid()'
	bg_stop INT
	expect_eq 0 "$(grep -cF ' ? ' $S/head.txt)" "'?' records"
	expect_match "records read" "$(cat $S/head.txt.err)" "summary"
	if grep -q "filtered out here" $S/head.txt.err; then
		fail "stale records counted: $(cat $S/head.txt.err)"
	fi
}

# Requests only the kernel can refuse, from the ASan+UBSan CLI
# (tests/cli/hostile.sh runs the rest on the host): each a clean error,
# no sanitizer report, no probe left.
t_hostile_kernel_errors() {
	local out
	[ -x build/asan/rawprobectl ] || fail "no build/asan/rawprobectl: make ctl-asan"
	out=$(tests/cli/hostile.sh --kernel build/asan/rawprobectl 2>&1) ||
		fail "$(grep -A20 '^not ok' <<<"$out")"
	# every request of kernel_errors(), and the probe list left as it was
	expect_match "^$(( $(sed -n '/^kernel_errors()/,/^}/p' tests/cli/hostile.sh | grep -c '^\s*try K ') + 1 )) passed, 0 failed" \
		"$(tail -1 <<<"$out")" "hostile --kernel"
}

# The readiness line comes once every probe is armed,
# so a workload started on it is seen whole, even where arming is slow
# (--args auto parses BTF first: over 1.5 s under QEMU).
t_ready_line_after_arming() {
	local pid armed n
	stale_out $S/ready.json
	$CTL -j trace kprobe:__x64_sys_getpgid --args auto \
		-e kretprobe:__x64_sys_getppid -d 120 -o $S/ready.json \
		2>$S/ready.err &
	pid=$!
	wait_for "ready_line $S/ready.err || ! kill -0 $pid 2>/dev/null" 300
	# what the kernel had armed when the line came (kprobes' list names
	# the kretprobe's function by its first name, __do_sys_getppid)
	armed=$(( $(armed_at __x64_sys_getpgid) + $(armed_at '__(x64|do)_sys_getppid') ))
	py 'import os
for i in range(300): os.getpgid(0); os.getppid()'
	kill -INT $pid
	wait $pid || fail "trace: $(cat $S/ready.err)"
	expect_eq 2 "$armed" "probes armed, enabled, at the readiness line"
	expect_match '^Tracing 2 probes \(kprobe:__x64_sys_getpgid, kretprobe:__x64_sys_getppid\)\. Hit Ctrl-C to end\.$' \
		"$(head -1 $S/ready.err)" "the readiness line"
	n=$(count_records $S/ready.json "r['comm'] == 'python3' and r['kind'] == 'kprobe'")
	expect_eq 300 "$n" "getpgid calls of the workload started on the line"
	n=$(count_records $S/ready.json "r['comm'] == 'python3' and r['kind'] == 'kretprobe'")
	expect_eq 300 "$n" "getppid returns of the workload started on the line"
	expect_eq 0 "$(probe_count)" "probes left"
}

tests t_doctor_all_good t_trace_kretprobe t_trace_json_count \
	t_hist_latency_by_comm t_hist_arg_linear_text t_export_perfetto \
	t_export_csv t_export_ctf t_signals_remove_probes t_stats_show_schemas \
	t_symbol_suggestions t_stream_filter_userspace t_kernel_filters \
	t_text_escapes_strings t_list_escapes_filter t_several_ids \
	t_reader_starts_at_head t_args_name_selects t_value_formats t_value_format_ip6 t_value_format_inet t_value_lookups \
	t_alias_cast t_self_left_out t_self_irq_kept t_ready_line_after_arming t_hostile_kernel_errors
