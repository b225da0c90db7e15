# SPDX-License-Identifier: GPL-2.0
# Probe kinds on real workloads, statistics, bad input, ownership, module
# targets.

TARGET_KO=$(dirname "$KO")/test-modules/rp_target.ko
S=$T_SCRATCH

t_jprobe_filename() {
	local f=$S/opened-by-test-$$ n
	echo data > "$f"
	stream_bg $S/open.json -e jprobe:do_sys_openat2 -a s32,ustr
	for n in 1 2 3 4 5; do cat "$f" >/dev/null; done
	stream_stop
	n=$(count_records $S/open.json "r.get('str') == '$f' and r['comm'] == 'cat'")
	expect_eq 5 "$n" "records with the file name"
	n=$(count_records $S/open.json "r.get('str') == '$f' and r['args'][0] == -100")
	expect_eq 5 "$n" "dfd decoded as s32 AT_FDCWD"
	expect_eq 0 "$(probe_count)" "stream probes removed at exit"
}

# The string slot holds str_len bytes and a NUL, nothing of what follows
# the NUL in the traced process's memory. The raw
# capture holds the record's whole string slot as the kernel wrote it.
t_string_tail_not_leaked() {
	local n
	$CTL stream -f raw -o $S/tail.cap -e jprobe:do_sys_openat2 -a s32,ustr \
		2>$S/tail.err &
	STREAM_PID=$!
	wait_for '[ $(probe_count) -gt 0 ]' 100 || fail "no probe: $(cat $S/tail.err)"
	python3 -c 'import ctypes
libc = ctypes.CDLL(None)
for _ in range(3): libc.open(b"ab\0SECRET-SECRET!", 0)'
	stream_stop
	$CTL -j stream -r $S/tail.cap > $S/tail.json
	n=$(count_records $S/tail.json "r.get('str') == 'ab' and r['comm'] == 'python3'")
	expect_eq 3 "$n" "records of the short name"
	! grep -q SECRET $S/tail.cap ||
		fail "bytes after the NUL reached the ring: $(grep -ao 'ab.SECRET[-A-Z]*' $S/tail.cap | head -1)"
}

t_jprobe_syscall_regs() {
	local f=$S/syscall-open-$$ n j
	echo data > "$f"
	stream_bg $S/sys.json -e jprobe:__x64_sys_openat -a s32,ustr
	j=$($CTL -j probe list)
	expect_eq True "$(json_get "$j" 'j[0]["syscall_args"]')" "syscall wrapper detected"
	for n in 1 2 3; do cat "$f" >/dev/null; done
	stream_stop
	n=$(count_records $S/sys.json "r.get('str') == '$f'")
	expect_eq 3 "$n" "file name read from the user pt_regs"
}

t_kretprobe_vfs_read() {
	local f=$S/hundreds n
	head -c 1000 /dev/zero > "$f"
	stream_bg $S/read.json -e kretprobe:vfs_read -a 3
	dd if="$f" of=/dev/null bs=100 count=3 2>/dev/null
	stream_stop
	n=$(count_records $S/read.json "r['comm'] == 'dd' and r['args'][2] == 100 and r['retval'] == 100 and r['latency_ns'] > 0")
	expect_eq 3 "$n" "vfs_read returns of 100 bytes with latency"
}

t_exact_accounting() {
	local id j hits rec lost
	id=$($CTL probe add kprobe __x64_sys_getpgid)
	python3 -c 'import os
for i in range(2000): os.getpgid(0)'
	j=$($CTL -j probe show "$id")
	hits=$(json_get "$j" 'j["stats"]["hits"]')
	rec=$(json_get "$j" 'j["stats"]["records"]')
	lost=$(json_get "$j" 'j["stats"]["lost_ring"]')
	expect_ge 2000 "$hits" "hits"
	expect_eq "$hits" "$((rec + lost))" "hits = records + lost"
	$CTL probe del "$id"
}

t_stream_delivers_all() {
	local n id
	stream_bg $S/pg.json -e kprobe:__x64_sys_getpgid
	id=$(json_get "$($CTL -j probe list)" 'j[-1]["id"]')
	python3 -c 'import os
for i in range(3000): os.getpgid(0)'
	stream_stop
	n=$(count_records $S/pg.json "r['comm'] == 'python3' and r['probe_id'] == $id")
	expect_eq 3000 "$n" "records delivered by the stream"
	grep -q "0 lost (ring full), 0 sequence gaps" $S/pg.json.err ||
		fail "summary: $(cat $S/pg.json.err)"
}

t_maxactive() {
	local id j
	id=$($CTL probe add kretprobe hrtimer_nanosleep --maxactive 1)
	j=$($CTL -j probe show "$id")
	expect_eq 1 "$(json_get "$j" 'j["maxactive"]')" "maxactive reported"
	sleep 0.5 & sleep 0.5 & sleep 0.5 & wait
	j=$($CTL -j probe show "$id")
	expect_ge 1 "$(json_get "$j" 'j["stats"]["missed_maxactive"]')" "missed (maxactive)"
	expect_ge 1 "$(json_get "$j" 'j["stats"]["hits"]')" "returns recorded"
	$CTL probe del "$id"
	id=$($CTL probe add kretprobe hrtimer_nanosleep)
	expect_ge 1 "$(json_get "$($CTL -j probe show "$id")" 'j["maxactive"]')" "default maxactive shown"
	$CTL probe del "$id"
}

t_enable_disable_reset() {
	local id h1 h2
	id=$($CTL probe add kprobe __x64_sys_getpgid --disabled)
	expect_eq disabled "$(json_get "$($CTL -j probe show $id)" 'j["state"]')" "added disabled"
	python3 -c 'import os; [os.getpgid(0) for i in range(10)]'
	expect_eq 0 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "no hits while disabled"
	$CTL probe enable "$id"
	python3 -c 'import os; [os.getpgid(0) for i in range(10)]'
	h1=$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')
	expect_ge 10 "$h1" "hits once enabled"
	$CTL probe disable "$id"
	python3 -c 'import os; [os.getpgid(0) for i in range(10)]'
	h2=$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')
	expect_eq "$h1" "$h2" "no hits after disable"
	$CTL probe reset "$id"
	expect_eq 0 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "reset"
	$CTL probe del "$id"
}

t_bad_input() {
	local bl amb id
	expect_fail 1 "unknown symbol.*ENOENT" $CTL probe add kprobe no_such_function_rp
	expect_fail 1 "instruction boundary.*EILSEQ" $CTL probe add kprobe vfs_read+1
	expect_fail 1 "function entry.*EINVAL" $CTL probe add kretprobe vfs_read+4
	expect_fail 1 "only defined at function entry" $CTL probe add kprobe vfs_read+4 --args 2
	expect_fail 1 "module not loaded.*ENOENT" $CTL probe add kprobe no_such_mod:foo
	bl=$(awk '{ print $2; exit }' /sys/kernel/debug/kprobes/blacklist)
	expect_fail 1 "blacklisted.*EINVAL" $CTL probe add kprobe "$bl"
	id=$($CTL probe add kprobe vfs_read)
	expect_fail 1 "identical probe.*EEXIST" $CTL probe add kprobe vfs_read
	$CTL probe del "$id"
	amb=$(awk '$2 ~ /^[tT]$/ && NF == 3 { n[$3]++ } END { for (s in n) if (n[s] > 1) { print s; exit } }' /proc/kallsyms)
	if [ -n "$amb" ]; then
		expect_fail 1 "ambiguous" $CTL probe add kprobe "$amb"
	fi
	expect_fail 1 "no probe with this id.*ENOENT" $CTL probe del 4242
	expect_fail 1 "maxactive applies to kretprobes" $CTL probe add kprobe vfs_read -m 4
	expect_eq 0 "$(probe_count)" "nothing left by failures"
}

t_killed_stream_leaves_nothing() {
	$CTL stream -q -e kprobe:vfs_read -e kretprobe:vfs_write >/dev/null 2>&1 &
	local pid=$!
	wait_for '[ $(probe_count) = 2 ]' 100 || fail "stream probes not added"
	kill -9 $pid
	wait $pid || true
	wait_for '[ $(probe_count) = 0 ]' 50 || fail "probes left after SIGKILL: $($CTL probe list)"
}

t_raw_address() {
	local addr id
	addr=$(awk '$3 == "__x64_sys_getpgid" && $2 ~ /^[tT]$/ { print "0x" $1; exit }' /proc/kallsyms)
	id=$($CTL probe add kprobe "$addr")
	python3 -c 'import os; [os.getpgid(0) for _ in range(10)]'
	expect_ge 10 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "hits at $addr"
	# with IBT (6.12) kprobes step over the ENDBR64 at a function entry
	expect_eq True "$(json_get "$($CTL -j probe show $id)" \
		"0 <= int(j['address'], 16) - $addr <= 4")" "probed address near $addr"
	$CTL probe del "$id"
}

t_string_fault_counted() {
	local id j
	# the first argument of do_sys_openat2 is a dfd (-100), not a pointer
	id=$($CTL probe add jprobe do_sys_openat2 --args ustr)
	cat /etc/hostname >/dev/null
	j=$($CTL -j probe show $id)
	expect_ge 1 "$(json_get "$j" 'j["stats"]["string_faults"]')" "string faults"
	expect_eq "$(json_get "$j" 'j["stats"]["hits"]')" \
		"$(json_get "$j" 'j["stats"]["records"]')" "faulting probes still record"
	$CTL probe del "$id"
}

t_persistent_survives_cli() {
	local id
	id=$($CTL probe add kprobe vfs_read)
	sleep 0.2
	expect_eq 1 "$(probe_count)" "persistent probe outlives the CLI"
	$CTL probe del "$id"
}

t_module_gone_and_rearm() {
	local id j
	insmod "$TARGET_KO"
	id=$($CTL probe add kprobe rp_target:rp_target_hit --args s32,str)
	cat /proc/rp_target >/dev/null
	expect_eq 1 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "hit in module"
	rmmod rp_target
	expect_eq gone "$(json_get "$($CTL -j probe show $id)" 'j["state"]')" "gone after rmmod"
	insmod "$TARGET_KO"
	expect_eq armed "$(json_get "$($CTL -j probe show $id)" 'j["state"]')" "re-armed on insmod"
	cat /proc/rp_target >/dev/null
	expect_eq 2 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "hit after re-arm"
	$CTL -j stream -d 0.5 -o $S/mod.json 2>/dev/null
	expect_eq 2 "$(count_records $S/mod.json "r['probe_id'] == $id and r.get('str') == 'rp-target-label' and r['args'][0] == 21")" "records before and after re-arm"
	$CTL probe del "$id"
	rmmod rp_target
}

# A probe in a module's code goes gone with the module however it was
# named; a symbol re-arms on reload, a raw address cannot.
t_module_target_by_name_and_address() {
	local byname byaddr addr
	probe_state() { json_get "$($CTL -j probe show $1)" 'j["state"]'; }
	probe_hits() { json_get "$($CTL -j probe show $1)" 'j["stats"]["hits"]'; }
	insmod "$TARGET_KO"
	addr=$(awk '$3 == "rp_target_hit" { print "0x" $1; exit }' /proc/kallsyms)
	byname=$($CTL probe add kprobe rp_target_hit)
	byaddr=$($CTL probe add kprobe "$addr")
	cat /proc/rp_target >/dev/null
	expect_eq 1 "$(probe_hits $byname)" "hit by name"
	expect_eq 1 "$(probe_hits $byaddr)" "hit by address"
	rmmod rp_target
	expect_eq gone "$(probe_state $byname)" "by name: gone after rmmod"
	expect_eq gone "$(probe_state $byaddr)" "by address: gone after rmmod"
	insmod "$TARGET_KO"
	expect_eq armed "$(probe_state $byname)" "by name: re-armed on insmod"
	expect_eq gone "$(probe_state $byaddr)" "by address: stays gone"
	dmesg | grep -q "probe $byaddr: not re-armed in rp_target: raw address" ||
		fail "the raw address's fate is not logged"
	cat /proc/rp_target >/dev/null
	expect_eq 2 "$(probe_hits $byname)" "by name: hit after re-arm"
	$CTL probe del "$byname"
	$CTL probe del "$byaddr"
	rmmod rp_target
}

# A glob's probe on a module's function is armed through rawprobe's
# ftrace_ops, as vmlinux's are (one update a batch): it leaves ftrace's
# filter when the module goes, lets the module go, and re-arms through
# kprobes when it comes back (its code moved).
t_module_glob_through_ftrace() {
	local id
	traced() { grep -c "^rp_target_hit .*rp_fentry_func" \
		/sys/kernel/tracing/enabled_functions || true; }
	insmod "$TARGET_KO"
	id=$($CTL probe add kprobe 'rp_target_h*' 2>/dev/null)
	expect_eq true "$(json_get "$($CTL -j probe show $id)" 'str(j.get("ftrace", False)).lower()')" \
		"armed through ftrace"
	expect_eq 1 "$(traced)" "in rawprobe's ftrace filter"
	grep -q rp_target_hit /sys/kernel/debug/kprobes/list &&
		fail "a kprobe was registered too"
	cat /proc/rp_target >/dev/null
	expect_eq 1 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "hit through ftrace"
	rmmod rp_target || fail "the module is held"
	expect_eq gone "$(json_get "$($CTL -j probe show $id)" 'j["state"]')" "gone after rmmod"
	expect_eq 0 "$(traced)" "out of the filter with the module"
	insmod "$TARGET_KO"
	expect_eq armed "$(json_get "$($CTL -j probe show $id)" 'j["state"]')" "re-armed on insmod"
	cat /proc/rp_target >/dev/null
	expect_eq 2 "$(json_get "$($CTL -j probe show $id)" 'j["stats"]["hits"]')" "hit after re-arm"
	$CTL probe del "$id"
	rmmod rp_target
}

# Argument registers mean what the prototype says only at a function's
# entry, which a raw address does not promise.
t_raw_address_refuses_args() {
	local addr
	addr=$(awk '$3 == "__x64_sys_getpgid" && $2 ~ /^[tT]$/ { print "0x" $1; exit }' /proc/kallsyms)
	expect_fail 1 "arguments need a function entry.*EINVAL" \
		$CTL probe add kprobe "$addr" --args 2
	expect_fail 1 "arguments need a function entry.*EINVAL" \
		$CTL probe add jprobe "$addr" --args ustr
	expect_eq 0 "$(probe_count)" "nothing added"
}

# The core's own handlers are NOKPROBE_SYMBOL: a probe on one would
# recurse into it on every hit.
t_handlers_not_probeable() {
	local f
	for f in rp_kprobe_pre rp_kret_entry rp_kret_return rp_custom_pre \
		rp_custom_kret_entry rp_custom_kret_return rp_args_fetch \
		rp_args_decode rp_record_str rawprobe_reserve; do
		grep -qw "$f" /sys/kernel/debug/kprobes/blacklist ||
			fail "$f is not in the kprobe blacklist"
	done
	expect_fail 1 "blacklisted.*EINVAL" $CTL probe add kprobe rawprobe:rp_kprobe_pre
	expect_fail 1 "blacklisted.*EINVAL" $CTL probe add kprobe rawprobe:rp_args_decode
}

# 1,000 in one batch; 200 on the debug kernels, where arming each one
# takes half a second (the same paths, a fifth of the minutes).
t_many_probes() {
	local start ms n=1000
	[ "$T_DEBUG_KERNEL" = 1 ] && n=200
	probeable_functions $n > $S/funcs
	start=$(date +%s%N)
	$CTL probe add kprobe - < $S/funcs > $S/ids
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo "    $n probes added in $ms ms" >&2
	expect_eq $n "$(wc -l < $S/ids)" "ids printed"
	expect_eq $n "$(probe_count)" "probes listed"
	start=$(date +%s%N)
	$CTL probe del all
	ms=$(( ($(date +%s%N) - start) / 1000000 ))
	echo "    $n probes removed in $ms ms" >&2
	expect_eq 0 "$(probe_count)" "all removed"
}

# root's copy of kallsyms (userctl/lib/kallsyms_cache.c): one per boot and
# set of modules, root's alone, made anew when a module loads, so that a
# new module's functions can be named at once; older copies go.
t_kallsyms_copy() {
	local copies first
	rm -rf /run/rawprobe
	$CTL probe add kprobe vfs_read >/dev/null
	copies=$(ls /run/rawprobe)
	expect_eq 1 "$(printf '%s\n' "$copies" | wc -l)" "copies after an add"
	first=/run/rawprobe/$copies
	expect_eq "700 root" "$(stat -c '%a %U' /run/rawprobe)" "the directory"
	expect_eq "600 root" "$(stat -c '%a %U' "$first")" "the copy"
	expect_eq "$(grep -c ' vfs_read$' /proc/kallsyms)" \
		"$(grep -c ' vfs_read$' "$first")" "vfs_read in the copy"
	$CTL probe del all
	insmod "$TARGET_KO"
	$CTL probe add kprobe rp_target:rp_target_hit >/dev/null
	copies=$(ls /run/rawprobe)
	expect_eq 1 "$(printf '%s\n' "$copies" | wc -l)" "copies after a module load"
	[ "/run/rawprobe/$copies" != "$first" ] ||
		fail "the copy of before the module load was used"
	expect_eq 1 "$(grep -c ' rp_target_hit\s\[rp_target\]$' "/run/rawprobe/$copies")" \
		"the module's function in the new copy"
	$CTL probe del all
	rmmod rp_target
	# not root: no copy, /proc/kallsyms itself (its addresses are 0)
	rm -rf /run/rawprobe
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		$CTL probe add kprobe vfs_read >/dev/null 2>&1 || true
	[ ! -e /run/rawprobe ] || fail "a user's rawprobectl made a copy"
}

t_batch_all_or_nothing() {
	expect_fail 1 "no_such_fn_rp.*unknown symbol" \
		$CTL probe add kprobe vfs_read vfs_write no_such_fn_rp
	expect_eq 0 "$(probe_count)" "a failed batch leaves nothing"
	$CTL probe add kretprobe vfs_read vfs_write >/dev/null
	expect_eq 2 "$(probe_count)" "batch of two"
	$CTL probe del all
}

# The duplicate check (a hash of the table by target): inside a batch and
# against the table, and nothing stale left in it by a refused batch or a
# deletion (a stale entry would be a freed probe: KASAN's to find).
t_duplicate_check() {
	local id
	expect_fail 1 "identical probe.*EEXIST" \
		$CTL probe add kprobe vfs_read vfs_write vfs_read
	expect_eq 0 "$(probe_count)" "a batch with a duplicate leaves nothing"
	id=$($CTL probe add kprobe vfs_read) ||
		fail "vfs_read refused after the refused batch"
	$CTL probe del "$id"
	id=$($CTL probe add kprobe vfs_read) ||
		fail "vfs_read refused after its deletion"
	expect_fail 1 "identical probe.*EEXIST" \
		$CTL probe add kprobe vfs_write vfs_read
	expect_eq 1 "$(probe_count)" "a batch refused against the table leaves nothing"
	$CTL probe add kretprobe vfs_read >/dev/null ||
		fail "a kretprobe on the same function is not the same probe"
	$CTL probe add kprobe vfs_read --comm x >/dev/null ||
		fail "another filter is not the same probe"
	expect_eq 3 "$(probe_count)" "three probes on vfs_read"
	$CTL probe del all
}

tests t_jprobe_filename t_jprobe_syscall_regs t_kretprobe_vfs_read \
	t_exact_accounting t_stream_delivers_all t_maxactive \
	t_enable_disable_reset t_bad_input t_killed_stream_leaves_nothing \
	t_raw_address t_string_fault_counted t_string_tail_not_leaked \
	t_module_target_by_name_and_address t_module_glob_through_ftrace \
	t_raw_address_refuses_args \
	t_handlers_not_probeable \
	t_persistent_survives_cli t_module_gone_and_rearm t_many_probes \
	t_kallsyms_copy t_batch_all_or_nothing t_duplicate_check
