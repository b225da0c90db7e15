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
	[[ $f0 =~ ^[0-9]+$ ]] || hint "ftrace_hits printed '$f0', not a number of hits"
	a0=$(stat_of "$id" hits)
	calls 2000
	a1=$(stat_of "$id" hits)
	f1=$(student ftrace_hits) || hint "ftrace_hits failed"
	[[ $f1 =~ ^[0-9]+$ ]] || hint "ftrace_hits printed '$f1', not a number of hits"
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

# armed TARGET: how the kprobes list shows TARGET (ftrace, optimized,
# int3; empty: not listed)
armed() {
	awk -v t="$1" '$3 == t {
		if (/\[FTRACE\]/) print "ftrace"
		else if (/\[OPTIMIZED\]/) print "optimized"
		else print "int3"
		exit }' $KPLIST
}

# ask TARGET WANT: landed TARGET must print WANT, and the probe must stay
# WANT while it is asked
ask() {
	local got
	[ "$(armed "$1")" = "$2" ] || { echo "$1 is $(armed "$1"), not $2, before asking" >&2; return 1; }
	got=$(student landed "$1") || hint "landed $1 failed"
	[ "$(armed "$1")" = "$2" ] || { echo "$1 is $(armed "$1"), not $2, after asking" >&2; return 1; }
	[ "$got" = "$2" ] || hint "landed $1 printed '$got'; the kprobes list shows it as ${3:-$2}"
}

# Each of the three states, on each kernel: the entry's ftrace site; an
# offset the optimizer turns into a jump (+0x14 on 6.1, +0x18 on 6.12);
# an offset it leaves a breakpoint although it is on (+0x5 on 6.1, +0x9
# on 6.12: these go first, then any other accepted offset); and the jump
# made a breakpoint again with the optimizer off.
ex_landed() {
	local entry off t opt="" keep=""
	entry=$(probe_at $SYM)
	ask "$entry" ftrace
	$CTL probe del all >/dev/null
	for off in 0x14 0x18 0x5 0x9 $(seq 1 48); do
		[ -n "$opt" ] && [ -n "$keep" ] && break
		t=$(probe_at "$SYM+$off") || continue
		# (past the function's end kprobes names the next function)
		if [[ $t == "$SYM+"* ]] && [ "$(armed "$t")" != ftrace ]; then
			if wait_for "[ \"\$(armed $t)\" = optimized ]" 50; then
				[ -n "$opt" ] || opt=$t
			elif [ -z "$keep" ]; then
				keep=$t
			fi
		fi
		$CTL probe del all >/dev/null
	done
	[ -n "$opt" ] && [ -n "$keep" ] ||
		{ echo "no offset of $SYM the optimizer takes ('$opt') or leaves ('$keep')" >&2; return 1; }
	probe_at "$keep" >/dev/null
	ask "$keep" int3 "a breakpoint, no flag (the optimizer is on, but did not take it)"
	$CTL probe del all >/dev/null
	probe_at "$opt" >/dev/null
	wait_for "[ \"\$(armed $opt)\" = optimized ]" 100 || { echo "$opt not optimized again" >&2; return 1; }
	ask "$opt" optimized "[OPTIMIZED]"
	sysctl -qw debug.kprobes-optimization=0
	wait_for "[ \"\$(armed $opt)\" = int3 ]" 50 || { echo "$opt still optimized" >&2; return 1; }
	ask "$opt" int3 "a breakpoint with the optimizer off"
}

# The check's stand-in for $GETPGID_LOOP, which cost must measure with:
# it runs the real loop and notes the kernel's probes on getpgid (the
# kprobes list's lines, rawprobe's probes and their hits) just before
# and just after, in $S/run.N.*.
spy_loop() {
	cat > $S/getpgid_loop <<EOF
#!/bin/bash
n=\$(ls $S/run.*.out 2>/dev/null | wc -l)
$CTL -j probe list > $S/run.\$n.before 2>/dev/null
grep ' $SYM+' $KPLIST > $S/run.\$n.kpbefore
$GETPGID_LOOP "\$@" > $S/run.\$n.out
rc=\$?
$CTL -j probe list > $S/run.\$n.after 2>/dev/null
grep ' $SYM+' $KPLIST > $S/run.\$n.kpafter
cat $S/run.\$n.out
exit \$rc
EOF
	chmod +x $S/getpgid_loop
}

# runs: one line per loop cost ran: "HOW NS" where HOW is how the one
# probe on getpgid was armed through the whole run and saw each of its
# calls (ftrace, int3, optimized), or why the run measured no such probe
# ("none", "several", "changed", "missed")
runs() {
	python3 - $S <<'EOF'
import glob, json, re, sys

S = sys.argv[1]
def load(f):
    try:
        return {p["id"]: p for p in json.load(open(f)) if p.get("symbol") == "__x64_sys_getpgid"}
    except (ValueError, OSError, TypeError, KeyError):
        return {}
def how(f):
    return [("ftrace" if "[FTRACE]" in l else "optimized" if "[OPTIMIZED]" in l else "int3")
            for l in open(f) if l.strip()]
n = 0
while True:
    out = "%s/run.%d.out" % (S, n)
    try:
        words = open(out).read().split()
    except OSError:
        break
    ns = words[0] if words else "?"
    calls = int(words[1]) if len(words) > 1 and words[1].isdigit() else 0
    b, a = load("%s/run.%d.before" % (S, n)), load("%s/run.%d.after" % (S, n))
    kb, ka = how("%s/run.%d.kpbefore" % (S, n)), how("%s/run.%d.kpafter" % (S, n))
    if not ka and not kb:
        what = "none"
    elif len(kb) != 1 or len(ka) != 1 or len(a) != 1 or a.keys() != b.keys():
        what = "several"
    elif kb != ka:
        what = "changed"
    else:
        i = list(a)[0]
        seen = a[i]["stats"]["hits"] - b[i]["stats"]["hits"]
        what = ka[0] if seen >= calls > 0 else "missed"
    print(what, ns)
    n += 1
EOF
}

ex_cost() {
	local out ftrace int3 r
	spy_loop
	out=$(GETPGID_LOOP=$S/getpgid_loop STUDENT_TIMEOUT=300 student cost) || hint "cost failed"
	ftrace=$(awk '$1 == "ftrace" { print $2 }' <<< "$out")
	int3=$(awk '$1 == "int3" { print $2 }' <<< "$out")
	is_number "$ftrace" && is_number "$int3" ||
		hint "cost printed '$(tr '\n' ' ' <<< "$out")', not 'ftrace NS' and 'int3 NS' lines"
	[ "$(probe_count)" = 0 ] || hint "cost left $(probe_count) probe(s) behind"
	[ "$(sysctl -n debug.kprobes-optimization)" = 1 ] ||
		hint "cost left the kprobe optimizer off; it found it on"
	runs > $S/runs
	[ -s $S/runs ] || hint "cost printed figures, but ran no \$GETPGID_LOOP: measure with it"
	grep -qx "ftrace $ftrace" $S/runs ||
		hint "no run of \$GETPGID_LOOP printed $ftrace ns with one probe on getpgid, on its ftrace site, seeing every call (runs seen: $(tr '\n' ',' < $S/runs))"
	grep -qx "int3 $int3" $S/runs || {
		grep -qx "optimized $int3" $S/runs &&
			hint "the probe of the run that printed $int3 ns was [OPTIMIZED], a jump, not a breakpoint"
		grep -qx "changed $int3" $S/runs &&
			hint "the probe of the run that printed $int3 ns changed during the run (the optimizer took it?)"
		hint "no run of \$GETPGID_LOOP printed $int3 ns with one probe on getpgid, a breakpoint, seeing every call (runs seen: $(tr '\n' ',' < $S/runs))"
	}
	# a breakpoint is a trap: it costs more than ftrace's call, by far
	python3 -c "import sys; sys.exit(not $int3 > $ftrace)" ||
		hint "int3 ($int3 ns) is not dearer than ftrace ($ftrace ns): was the offset probe really a breakpoint?"
}

# One command's calls recorded, the others' filtered in the kernel.
ex_mine() {
	local id r0 f0 r1 f1
	cp "$GETPGID_LOOP" $S/lab1-mine
	cp "$GETPGID_LOOP" $S/lab1-other
	id=$(student add_mine lab1-mine) || hint "add_mine failed"
	[[ $id =~ ^[0-9]+$ ]] || hint "add_mine printed '$id', not a probe id"
	$CTL -j probe show "$id" > $S/m.json 2>/dev/null ||
		hint "there is no probe $id (was it deleted, or not persistent?)"
	[ "$(json_get "$(cat $S/m.json)" 'j["kind"], j["symbol"], j["offset"]')" = "('kprobe', '$SYM', 0)" ] ||
		hint "probe $id is not a kprobe on the entry of getpgid's system call"
	r0=$(stat_of "$id" records)
	f0=$(stat_of "$id" filtered)
	$S/lab1-mine -w 0 300 >/dev/null
	$S/lab1-other -w 0 200 >/dev/null
	r1=$(stat_of "$id" records)
	f1=$(stat_of "$id" filtered)
	[ $((r1 - r0)) = 300 ] ||
		hint "lab1-mine made 300 calls and lab1-other 200; the probe wrote $((r1 - r0)) records"
	[ $((f1 - f0)) -ge 200 ] ||
		hint "the probe's filtered counter grew by $((f1 - f0)) over lab1-other's 200 calls: leave them out in the kernel"
}

exercise "a kprobe on getpgid's entry sees every call" ex_add_probe
exercise "hits prints the probe's hit count" ex_hits
exercise "an ftrace kprobe event on the same function counts the same calls" ex_ftrace
exercise "landed tells ftrace, optimized and int3 probes apart" ex_landed
exercise "cost measures an entry probe and a breakpoint" ex_cost
exercise "add_mine records one command's calls, filtered in the kernel" ex_mine
