# SPDX-License-Identifier: GPL-2.0
# Globs as targets: 'vfs_*' and 'tcp_*' expand to what
# ftrace lists in available_filter_functions, less kprobes' blacklist,
# the names several functions share and rawprobe's own module, computed
# here apart from the CLI; the cap and --max-probes; a glob with no
# match and a bad one; one batch, all or none; records and probe list
# name each probe's function; a killed trace leaves no probe; count
# counts per function; a glob's vmlinux functions are armed through
# rawprobe's ftrace_ops, a batch in one ftrace update.

S=$T_SCRATCH
AFL=$TRACING/available_filter_functions
BLACKLIST=/sys/kernel/debug/kprobes/blacklist

# expected GLOB: the functions a glob should make, "[MODULE:]NAME" a line,
# sorted; from ftrace's list, the blacklist and kallsyms, not the CLI.
expected() {
	python3 - "$1" "$AFL" "$BLACKLIST" <<'PY'
import collections, fnmatch, sys
pat, afl, bl = sys.argv[1:4]
listed = collections.Counter()
for line in open(afl):
    f = line.split()
    if not f or f[0].startswith("__ftrace_invalid_address__"):
        continue
    mod = f[1].strip("[]") if len(f) > 1 else ""
    if fnmatch.fnmatchcase(f[0], pat) and mod != "rawprobe":
        listed[(f[0], mod)] += 1
black = {l.split("\t")[1].split()[0] for l in open(bl) if "\t" in l}
text = collections.Counter()
for line in open("/proc/kallsyms"):
    f = line.split()
    if f[1] in "tTW":
        mod = f[3].strip("[]") if len(f) > 3 else ""
        text[(f[2], mod)] += 1
        text[(f[2], None)] += 1		# any module
out = []
for (name, mod), n in listed.items():
    if n > 1 or name in black:
        continue
    if text[(name, mod if mod else None)] > 1:
        continue
    out.append((mod + ":" if mod else "") + name)
print("\n".join(sorted(out)))
PY
}

# The CLI's expansion, from --dry-run: "[MODULE:]NAME" a line, sorted
dry_run() {
	$CTL probe add kprobe "$@" --dry-run 2>/dev/null |
		sed -E 's/^kprobe:([^ ]*) .*/\1/' | sort
}

# How many probes probe list -j says are armed through ftrace
ftrace_armed() {
	json_get "$($CTL -j probe list)" 'sum(1 for p in j if p.get("ftrace"))'
}

# Functions ftrace calls a handler at (any tracer's)
ftrace_enabled() {
	wc -l < $TRACING/enabled_functions
}

# hits_of FUNCTION IDS...: the hits of the probe on FUNCTION among IDS
hits_of() {
	local fn=$1
	shift
	json_get "$($CTL -j probe list)" "[p['stats']['hits'] for p in j
		if p['target'] == '$fn' and p['id'] in [$(echo "$@" | tr ' ' ,)]][0]"
}

# The functions of the probes that exist, as probe list -j names them
listed_targets() {
	json_get "$($CTL -j probe list)" \
		'"\n".join(sorted(p["target"] for p in j))'
}

t_glob_dry_run_equals_ftrace() {
	local g
	for g in 'vfs_*' 'tcp_*'; do
		expected "$g" > $S/want
		dry_run "$g" > $S/got
		expect_ge 10 "$(wc -l < $S/want)" "functions of '$g'"
		diff $S/want $S/got > $S/diff ||
			fail "'$g': ftrace's list vs --dry-run: $(head -20 $S/diff)"
		expect_eq 0 "$(probe_count)" "probes after --dry-run"
	done
}

# Added, probe list names each probe's function: the same list.
t_glob_probe_list_names_functions() {
	local n
	expected 'vfs_*' > $S/want
	n=$(wc -l < $S/want)
	$CTL probe add kprobe 'vfs_*' > $S/ids 2> $S/err ||
		fail "probe add 'vfs_*': $(cat $S/err)"
	expect_eq "$n" "$(wc -l < $S/ids)" "ids printed"
	expect_match "'kprobe:vfs_\*': $n functions" "$(cat $S/err)" "stderr"
	listed_targets > $S/got
	diff $S/want $S/got > $S/diff ||
		fail "ftrace's list vs probe list: $(head -20 $S/diff)"
	$CTL probe del $(cat $S/ids)
	expect_eq 0 "$(probe_count)" "probes after del"
}

# A glob making more than the cap is refused with its count and the
# option, before anything is added; --max-probes raises the cap.
t_glob_cap() {
	local n g
	n=$(expected 'tcp_*' | wc -l)
	expect_fail 2 "'kprobe:tcp_\*' makes $n probes, more than 20: .*--max-probes $n" \
		$CTL probe add kprobe 'tcp_*' --max-probes 20
	expect_fail 2 "makes $n probes, more than 20: .*--max-probes $n" \
		$CTL trace 'kprobe:tcp_*' --max-probes 20
	expect_fail 2 "makes $n probes, more than 20" \
		$CTL count 'kprobe:tcp_*' --max-probes 20
	expect_eq 0 "$(probe_count)" "probes after the refusals"
	expect_eq "$n" "$(dry_run 'tcp_*' --max-probes "$n" | wc -l)" \
		"--max-probes $n"
	# past the default of 1000: '*' (tens of thousands) is refused too
	expect_fail 2 "'kprobe:\*' makes [0-9]+ probes, more than the kernel's 16384" \
		$CTL probe add kprobe '*'
	# a letter's functions, past 1000 and within the kernel's 16384
	for g in 's*' 'c*' 'i*' 'd*' 'p*' 'n*'; do
		n=$(expected "$g" | wc -l)
		[ "$n" -gt 1000 ] && [ "$n" -le 16384 ] && break
	done
	expect_fail 2 "'kprobe:${g//\*/\\*}' makes $n probes, more than 1000: .*--max-probes $n" \
		$CTL probe add kprobe "$g"
	expect_eq 0 "$(probe_count)" "probes after the refusals"
}

t_glob_bad_input() {
	expect_fail 1 "'kprobe:zzz_no_such_fn_\*' matches no function" \
		$CTL probe add kprobe 'zzz_no_such_fn_*'
	expect_fail 1 "matches no function" $CTL trace 'kprobe:zzz_no_such_fn_*'
	expect_fail 2 "bad glob 'vfs_\[ab': a '\[' without its '\]'" \
		$CTL probe add kprobe 'vfs_[ab'
	expect_fail 2 "bad glob" $CTL count 'kprobe:vfs_[ab'
	expect_fail 2 "without \+OFFSET" $CTL probe add kprobe 'vfs_*+4'
	expect_eq 0 "$(probe_count)" "probes after bad input"
}

# One function of the glob cannot be taken (an identical probe exists:
# EEXIST), in its last batch (a batch is at most RAWPROBE_MAX_BATCH,
# 1,024 probes): the batches before it are removed, nothing of the glob
# is left.
t_glob_all_or_none() {
	local n last id g
	for g in 's*' 'd*' 'p*' 'i*'; do
		expected "$g" > $S/want
		n=$(wc -l < $S/want)
		[ "$n" -gt 1024 ] && break
	done
	last=$(tail -1 $S/want)
	expect_ge 1025 "$n" "$g past one batch of 1,024"
	id=$($CTL probe add kprobe "$last")
	expect_fail 1 "$last.*identical probe already exists" \
		$CTL probe add kprobe "$g" --max-probes "$n"
	expect_eq 1 "$(probe_count)" "probes left after the refused glob"
	expect_eq "$last" "$(listed_targets)" "the probe left"
	# the same from trace, whose probes go into a session of its own:
	# a duplicate there is its own second -e (--include-self: without
	# the filter that leaves trace out, the same probe)
	expect_fail 1 "identical probe already exists" \
		$CTL trace "kprobe:$g" --include-self \
		-e "kprobe:$last" --include-self --max-probes $((n + 1)) -d 1
	expect_eq 1 "$(probe_count)" "probes left after trace was refused"
	$CTL probe del "$id"
}

# Every record names its function; all of them armed before the load.
t_glob_trace_records_name_functions() {
	local n
	expected 'vfs_read*' > $S/want
	n=$(wc -l < $S/want)
	bg_start $S/tr.json -j trace 'kprobe:vfs_read*' --comm cat -d 60
	wait_for "[ \$(probe_count) = $n ]" 100 || fail "not all $n probes armed"
	cat /etc/hostname > /dev/null
	bg_stop INT
	json_get "$(grep -m1 . $S/tr.json)" 'j["probe"]' > /dev/null ||
		fail "no record: $(cat $S/tr.json.err)"
	python3 - $S/tr.json $S/want <<'PY' || fail "records' probes (see above)"
import json, sys
want = {"kprobe:" + l.strip() for l in open(sys.argv[2])}
seen = {json.loads(l)["probe"] for l in open(sys.argv[1]) if l.strip()}
if not seen <= want or "kprobe:vfs_read" not in seen:
    sys.exit("records named %s, of %d functions" % (sorted(seen), len(want)))
print("    records of %s" % sorted(seen))
PY
}

# SIGKILLed mid-run: its socket's probes (the glob's hundreds) all go.
t_glob_trace_killed_leaves_nothing() {
	local n
	n=$(expected 'tcp_*' | wc -l)
	bg_start $S/kill.out trace 'kprobe:tcp_*' --max-probes "$n" -q -d 120
	wait_for "[ \$(probe_count) = $n ]" 300 || fail "not all $n probes armed"
	kill -KILL $BG_PID
	wait $BG_PID 2>/dev/null || true
	wait_for "[ \$(probe_count) = 0 ]" 300 || fail "probes outlived trace"
}

# A Ctrl-C while a glob arms ends the command at once: the kernel's batch
# stops at its next probe and takes back what it armed, and the command
# exits 0 before its ready line, leaving nothing. (A script's background
# job starts with SIGINT ignored, as this one does: the command takes it
# back before it adds anything.) The kernel's kprobe list shows the batch
# arming: the registry lists a batch's probes only once all are armed.
t_glob_interrupted_while_arming() {
	local n pid rc=0
	n=$(expected 'tcp_*' | wc -l)
	# kprobes' arming, one probe at a time: ftrace's takes a batch at once
	stale_out $S/int.out
	RAWPROBE_ARM=kprobes $CTL count 'kprobe:tcp_*' --max-probes "$n" -d 600 \
		> $S/int.out 2> $S/int.err &
	pid=$!
	wait_for "grep -q ' tcp_' /sys/kernel/debug/kprobes/list ||
		  ! kill -0 $pid 2>/dev/null" 300 || fail "no probe armed"
	kill -INT $pid
	wait $pid || rc=$?
	expect_eq 0 "$rc" "exit status after SIGINT: $(cat $S/int.err)"
	! ready_line $S/int.err ||
		fail "it reached its ready line: the batch ran to its end"
	expect_eq 0 "$(grep -c ' tcp_' /sys/kernel/debug/kprobes/list)" \
		"kprobes left"
	expect_eq 0 "$(probe_count)" "probes left"
}

# count: one count per function, as bpftrace's @[func] = count().
t_glob_count_per_function() {
	local j
	bg_start $S/cnt.json -j count 'kprobe:vfs_read*' --comm dd
	wait_for "[ \$(probe_count) = $(expected 'vfs_read*' | wc -l) ]" 100 ||
		fail "not all probes armed"
	dd if=/dev/zero of=/dev/null bs=1 count=7 2>/dev/null
	bg_stop INT
	j=$(tail -n 1 $S/cnt.json)
	expect_ge 7 "$(json_get "$j" "[e['count'] for e in j['entries'] if e['func'] == 'vfs_read'][0]")" \
		"dd's vfs_read calls"
	expect_eq "$(json_get "$j" 'j["total"]["hits"]')" \
		"$(json_get "$j" 'sum(e["count"] for e in j["entries"]) + j["total"]["dropped"]')" \
		"hits = the functions' counts + dropped"
	schema count $S/cnt.json
}

# A glob's vmlinux functions are armed through rawprobe's ftrace_ops:
# probe list flags each, kprobes' list has none of them, ftrace calls a
# handler at each one more function (enabled_functions), and none once
# they are deleted. RAWPROBE_ARM=kprobes arms them through kprobes.
t_glob_armed_through_ftrace() {
	local n before
	n=$(expected 'vfs_read*' | wc -l)
	before=$(ftrace_enabled)
	$CTL probe add kprobe 'vfs_read*' > /dev/null
	expect_eq "$n" "$(ftrace_armed)" "probes armed through ftrace"
	expect_eq 0 "$(grep -c ' vfs_read' /sys/kernel/debug/kprobes/list)" \
		"kprobes of the glob"
	expect_eq $((before + n)) "$(ftrace_enabled)" "functions ftrace calls"
	$CTL probe del all
	expect_eq "$before" "$(ftrace_enabled)" "functions ftrace calls after del"
	RAWPROBE_ARM=kprobes $CTL probe add kprobe 'vfs_read*' > /dev/null
	expect_eq 0 "$(ftrace_armed)" "probes armed through ftrace, kprobes asked"
	expect_eq "$n" "$(grep -c ' vfs_read' /sys/kernel/debug/kprobes/list)" \
		"kprobes of the glob, kprobes asked"
	$CTL probe del all
}

# Two globs on the same functions share ftrace's sites: deleting one
# leaves the other counting; a disabled probe counts nothing (its site
# untraced: no other probe there), and counts again once enabled.
t_glob_ftrace_shared_sites() {
	local dd cat id h before
	dd=$($CTL probe add kprobe 'vfs_read*' --comm dd | xargs)
	cat=$($CTL probe add kprobe 'vfs_read*' --comm cat | xargs)
	before=$(ftrace_enabled)
	$CTL probe del $dd
	expect_eq "$before" "$(ftrace_enabled)" "functions ftrace calls, one glob left"
	h=$(hits_of vfs_read $cat)
	cat /etc/hostname > /dev/null
	expect_ge $((h + 1)) "$(hits_of vfs_read $cat)" "vfs_read hits after cat"
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['target'] == 'vfs_read'][0]")
	$CTL probe disable "$id"
	expect_eq $((before - 1)) "$(ftrace_enabled)" "functions ftrace calls, vfs_read disabled"
	h=$(hits_of vfs_read $cat)
	cat /etc/hostname > /dev/null
	expect_eq "$h" "$(hits_of vfs_read $cat)" "vfs_read hits while disabled"
	$CTL probe enable "$id"
	cat /etc/hostname > /dev/null
	expect_ge $((h + 1)) "$(hits_of vfs_read $cat)" "vfs_read hits once enabled"
	$CTL probe del all
}

# rmmod with a glob armed through ftrace: the module takes its handler
# out of ftrace's calls before it goes.
t_glob_ftrace_rmmod() {
	local before
	before=$(ftrace_enabled)
	$CTL probe add kprobe 'vfs_read*' > /dev/null
	rmmod rawprobe || fail "rmmod with ftrace-armed probes"
	expect_eq "$before" "$(ftrace_enabled)" "functions ftrace calls after rmmod"
	module_load
}

# root's copies of the lists a glob reads (userctl/lib/kallsyms_cache.c):
# ftrace's functions and kprobes' blacklist as the kernel lists them,
# root's alone, kept with kallsyms' for this boot and these modules. (A
# read of ftrace's list once differed from the one before it in a
# suite's run: the copy is compared with up to three reads.)
t_glob_list_copies() {
	local f
	rm -rf /run/rawprobe
	$CTL probe add kprobe 'vfs_read*' --dry-run > /dev/null
	for f in functions:$AFL blacklist:$BLACKLIST; do
		[ -f /run/rawprobe/${f%%:*}-* ] || fail "no copy of ${f#*:}"
		wait_for "diff /run/rawprobe/${f%%:*}-* ${f#*:} > $S/copy.diff" 3 ||
			fail "the copy of ${f#*:} differs from it: $(head -5 $S/copy.diff)"
		expect_eq "600 root" "$(stat -c '%a %U' /run/rawprobe/${f%%:*}-*)" \
			"the copy of ${f#*:}"
	done
}

tests t_glob_dry_run_equals_ftrace t_glob_probe_list_names_functions \
	t_glob_cap t_glob_bad_input t_glob_all_or_none \
	t_glob_trace_records_name_functions t_glob_trace_killed_leaves_nothing \
	t_glob_interrupted_while_arming t_glob_count_per_function \
	t_glob_armed_through_ftrace t_glob_ftrace_shared_sites t_glob_ftrace_rmmod \
	t_glob_list_copies
