# SPDX-License-Identifier: GPL-2.0
#
# Lab 1's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab1.sh
SYM=__x64_sys_getpgid

lab_cleanup() {
	echo 0 > $TRACEFS/events/lab1/getpgid/enable 2>/dev/null
	echo '-:lab1/getpgid' >> $TRACEFS/kprobe_events 2>/dev/null
	sysctl -qw debug.kprobes-optimization=1
}

calls() {	# N: exactly N getpgid() calls
	$GETPGID_LOOP -w 0 "$1" >/dev/null
}

is_number() {
	[[ $1 =~ ^[0-9]+([.][0-9]+)?$ ]]
}

ex_add_probe() {
	local id before after
	id=$(student add_probe) || hint "add_probe failed"
	[[ $id =~ ^[0-9]+$ ]] || hint "add_probe printed '$id', not a probe id"
	$CTL -j probe show "$id" > $S/p.json 2>/dev/null ||
		hint "there is no probe $id (was it deleted, or not persistent?)"
	[ "$(json_get "$(cat $S/p.json)" 'j["kind"]')" = kprobe ] ||
		hint "probe $id is not a kprobe"
	[ "$(json_get "$(cat $S/p.json)" 'j["symbol"], j["offset"]')" = "('$SYM', 0)" ] ||
		hint "probe $id is on $(json_get "$(cat $S/p.json)" 'j["target"]'), not the entry of getpgid's system call"
	before=$(stat_of "$id" hits)
	calls 1000
	after=$(stat_of "$id" hits)
	[ $((after - before)) -ge 1000 ] ||
		hint "the probe saw $((after - before)) of 1000 getpgid() calls"
}

ex_hits() {
	local id n
	id=$($CTL probe add kprobe $SYM)
	calls 1234
	n=$(student hits "$id") || hint "hits failed"
	is_number "$n" || hint "hits printed '$n', not a number"
	[ "$n" = "$(stat_of "$id" hits)" ] ||
		hint "hits printed $n; the probe's hit counter says $(stat_of "$id" hits)"
}

# Both probes sit on the same instruction: each call fires both.
ex_ftrace() {
	local id a0 a1 f0 f1
	student ftrace_add || hint "ftrace_add failed"
	grep -q 'lab1/getpgid' $TRACEFS/kprobe_events ||
		hint "no kprobe event lab1/getpgid in kprobe_events"
	[ "$(cat $TRACEFS/events/lab1/getpgid/enable)" = 1 ] ||
		hint "the event is defined but not enabled: a disabled event is not armed"
	id=$($CTL probe add kprobe $SYM)
	f0=$(student ftrace_hits) || hint "ftrace_hits failed"
	is_number "$f0" || hint "ftrace_hits printed '$f0', not a number"
	a0=$(stat_of "$id" hits)
	calls 2000
	a1=$(stat_of "$id" hits)
	f1=$(student ftrace_hits)
	[ $((a1 - a0)) -ge 2000 ] ||
		hint "rawprobe saw $((a1 - a0)) of 2000 calls: is lab1/getpgid on $SYM?"
	[ $((f1 - f0)) -ge 2000 ] ||
		hint "ftrace_hits went from $f0 to $f1 over 2000 calls: is lab1/getpgid on $SYM, and is that its hit column?"
	[ $((f1 - f0 - a1 + a0)) -le 5 ] && [ $((a1 - a0 - f1 + f0)) -le 5 ] ||
		hint "over the same calls ftrace counted $((f1 - f0)) and rawprobe $((a1 - a0))"
}

# probe_at TARGET: add a kprobe, print the list's name of where it landed
# (kprobes may move a probe, e.g. past an endbr64 instruction).
probe_at() {
	awk '{ print $3 }' $KPLIST | sort > $S/before
	$CTL probe add kprobe "$1" >/dev/null 2>&1 || return 1
	awk '{ print $3 }' $KPLIST | sort | comm -13 $S/before - | head -1
}

# The optimizer may or may not turn an offset probe into a jump (it needs
# 5 bytes of whole, copyable instructions): the check asks about the
# states the kernel shows.
ex_landed() {
	local entry off t got
	entry=$(probe_at $SYM)
	grep -q "$entry *\[FTRACE\]" $KPLIST || { echo "entry probe not on ftrace" >&2; return 1; }
	got=$(student landed "$entry") || hint "landed failed"
	[ "$got" = ftrace ] || hint "landed $entry printed '$got'; look at its line in $KPLIST again"
	# the first instruction past the ftrace site that kprobes accepts
	for off in $(seq 1 16); do
		t=$(probe_at "$SYM+$off") || continue
		[ -n "$t" ] && [ "$t" != "$entry" ] && ! grep -q "$t *\[FTRACE\]" $KPLIST && break
	done
	if wait_for "grep -q '$t *\[OPTIMIZED\]' $KPLIST" 30; then
		got=$(student landed "$t")
		[ "$got" = optimized ] || hint "landed $t printed '$got', but the optimizer has turned it into a jump"
	fi
	sysctl -qw debug.kprobes-optimization=0
	grep -q "$t *\[OPTIMIZED\]" $KPLIST && { echo "still optimized" >&2; return 1; }
	got=$(student landed "$t")
	[ "$got" = int3 ] || hint "landed $t printed '$got' with the optimizer off"
}

ex_cost() {
	local out ftrace int3
	out=$(STUDENT_TIMEOUT=300 student cost) || hint "cost failed"
	ftrace=$(awk '$1 == "ftrace" { print $2 }' <<< "$out")
	int3=$(awk '$1 == "int3" { print $2 }' <<< "$out")
	is_number "$ftrace" && is_number "$int3" ||
		hint "cost printed '$(tr '\n' ' ' <<< "$out")', not 'ftrace NS' and 'int3 NS' lines"
	[ "$(probe_count)" = 0 ] || hint "cost left $(probe_count) probe(s) behind"
	[ "$(sysctl -n debug.kprobes-optimization)" = 1 ] ||
		hint "cost left the kprobe optimizer off"
	# a breakpoint is a trap: it costs more than ftrace's call, by far
	python3 -c "import sys; sys.exit(not $int3 > $ftrace)" ||
		hint "int3 ($int3 ns) is not dearer than ftrace ($ftrace ns): was the offset probe really a breakpoint?"
}

exercise "a kprobe on getpgid's entry sees every call" ex_add_probe
exercise "hits prints the probe's hit count" ex_hits
exercise "an ftrace kprobe event on the same function counts the same calls" ex_ftrace
exercise "landed tells ftrace, optimized and int3 probes apart" ex_landed
exercise "cost measures an entry probe and a breakpoint" ex_cost
