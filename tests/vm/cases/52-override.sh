# SPDX-License-Identifier: GPL-2.0
# Return override and fault injection (--override, inject): the function
# returns the value only for the hits that pass the filters and limits,
# the kernel refuses every place, value and caller the policy rules out,
# and whatever the command does, nothing stays behind. On 6.1 the hooks
# are should_failslab/should_fail_alloc_page; on 6.12 (no FAILSLAB) the
# allocators' entry points.

S=$T_SCRATCH
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
PERFMON="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"

# kmemleak (the debug kernels) allocates its own object after each slab
# allocation, with the same task inside the same chain: a second eligible
# allocation per getcwd that succeeded, whose failure getcwd never sees.
kmemleak_on() {
	[ -e /sys/kernel/debug/kmemleak ]
}

# inject_getcwd OUT N INJECT-OPTION...: inject into getcwd while one
# process calls it N times; sets N_FAILED (getcwd's ENOMEMs) and K_FAILED
# (inject's count of the allocations it failed).
inject_getcwd() {
	local out=$1 n=$2
	shift 2
	bg_start $out inject kmalloc --in __x64_sys_getcwd "$@"
	N_FAILED=$(getcwd_fails "$n")
	bg_stop INT
	K_FAILED=$(sed -n 's/^\([0-9]*\) kmalloc allocations failed$/\1/p' $out.err)
	[ -n "$K_FAILED" ] || fail "inject printed no count: $(cat $out.err)"
}

# Python: getcwd_enomem(N) makes N getcwd() calls (one allocation each:
# __getname()) and returns how many failed with ENOMEM.
GETCWD_ENOMEM_PY='
import errno, os
def getcwd_enomem(calls):
    n = 0
    for _ in range(calls):
        try:
            os.getcwd()
        except OSError as e:
            if e.errno != errno.ENOMEM:
                raise
            n += 1
    return n
'

# N getcwd() calls in one process; prints how many failed with ENOMEM.
getcwd_fails() {
	python3 -c "$GETCWD_ENOMEM_PY"'
import sys
print(getcwd_enomem(int(sys.argv[1])))' "$1"
}

# bpftrace's override(1337) for one command: id says uid=1337, every
# other command sees the truth, and the truth comes back at the end.
t_override_getuid_for_id_only() {
	local j
	bg_start $S/uid.out trace kprobe:__x64_sys_getuid --comm id --override 1337
	expect_eq 1337 "$(id -ru)" "id -ru under the override"
	expect_eq 1337 "$(sh -c 'exec id -ru')" "id -ru again"
	expect_eq 0 "$(python3 -c 'import os; print(os.getuid())')" "python's getuid"
	j=$($CTL -j probe list)
	expect_eq 2 "$(json_get "$j" 'j[0]["stats"]["overridden"]')" "overridden"
	expect_eq 1337 "$(json_get "$j" 'j[0]["override"]["value"]')" "the value listed"
	expect_eq "$(json_get "$j" 'j[0]["stats"]["records"]')" 2 "records of the overridden hits"
	expect_eq "$(json_get "$j" 'j[0]["stats"]["hits"]')" \
		"$(json_get "$j" 'j[0]["stats"]["records"] + j[0]["stats"]["filtered"]')" \
		"hits = records + filtered"
	printf '%s\n' "$j" | schema probe_list
	expect_eq 2 "$(json_get "$($CTL -j stats)" 'j["total"]["overridden"]')" "stats' overridden"
	$CTL probe list | grep -q "override 1337 (2 done)" ||
		fail "probe list does not show the override: $($CTL probe list)"
	bg_stop INT
	expect_eq 0 "$(id -ru)" "id -ru after the trace"
	dmesg | grep -q "rawprobectl\[[0-9]*\] (uid 0) makes __x64_sys_getuid return 1337" ||
		fail "the override is not in the kernel log"
}

# Places whose callers do not expect failure, and values the place
# cannot return, are refused with the rule (-d: a probe wrongly taken
# ends the command).
t_override_refused_places_and_values() {
	local hook
	expect_fail 1 "only where callers expect failure" \
		$CTL trace kprobe:vfs_read --override 0 -d 1
	expect_fail 1 "for entry probes" \
		$CTL trace kretprobe:__x64_sys_getuid --override 1 -d 1
	expect_fail 1 "at offset 0" \
		$CTL trace kprobe:__x64_sys_getuid+4 --override 1 -d 1
	expect_fail 1 "by name" $CTL trace \
		"kprobe:0x$(awk '$3 == "__x64_sys_getuid" { print $1 }' /proc/kallsyms)" \
		--override 1 -d 1
	if grep -q ' should_failslab$' /proc/kallsyms; then
		expect_fail 1 "errno: the value must be -4095 to -1" \
			$CTL trace kprobe:should_failslab --override 12 -d 1
		expect_fail 1 "errno" $CTL trace kprobe:should_failslab --override -4096 -d 1
		expect_fail 1 "true to fail: the value must be 1" \
			$CTL trace kprobe:should_fail_alloc_page --override 0 -d 1
	else
		hook=__kmalloc_noprof
		expect_fail 1 "pointer: the value must be 0" \
			$CTL trace kprobe:$hook --override -12 -d 1
	fi
	expect_fail 2 "override takes the value" \
		$CTL trace kprobe:__x64_sys_getuid --override 13x
	expect_eq 0 "$(probe_count)" "probes left by the refusals"
}

# An override goes with the command that set it: probe add, whose probes
# persist, refuses --override and says what to use; the kernel refuses
# a persistent override too (nl_malformed, 20-netlink).
t_override_not_persistent() {
	expect_fail 2 "use 'trace KIND:TARGET --override VALUE' or 'inject'" \
		$CTL probe add kprobe __x64_sys_getuid --comm rp-nobody --override 1
	expect_eq 0 "$(probe_count)" "probes left by the refusal"
}

# An allocator's entry point takes an override on every kernel, where the
# fault hooks exist too (6.1): its callers handle NULL as the hooks'
# do, and it fails one allocator, not all of them. getcwd's __getname()
# is a kmem_cache_alloc(); the comm is set only around the calls.
t_override_allocator_entry_beside_hooks() {
	local fn=kmem_cache_alloc n
	grep -q ' kmem_cache_alloc_noprof$' /proc/kallsyms && fn=kmem_cache_alloc_noprof
	bg_start $S/entry.out trace kprobe:$fn --comm rp_kmfail --override 0
	n=$(python3 -c "$GETCWD_ENOMEM_PY"'
import ctypes
libc = ctypes.CDLL(None)
libc.prctl(15, b"rp_kmfail", 0, 0, 0)
n = getcwd_enomem(20)
libc.prctl(15, b"python3", 0, 0, 0)
print(n)')
	bg_stop INT
	expect_eq 20 "$n" "getcwd calls failed by $fn's override"
	expect_eq 0 "$(getcwd_fails 20)" "getcwd failures after the trace"
	if [ "$KREL" != "${KREL#6.1.}" ]; then
		grep -q ' should_failslab$' /proc/kallsyms ||
			fail "6.1 has should_failslab: the case tests the entry beside it"
	fi
}

# Root's in the initial namespace only: not uid 65534, not CAP_PERFMON
# alone, not a user namespace's root. count sets the override: it reads
# no ring (/dev/rawprobe is root's), so the kernel's check is what
# refuses.
t_override_refused_callers() {
	expect_fail 4 "CAP_PERFMON or CAP_SYS_ADMIN" \
		$NOBODY $CTL count kprobe:__x64_sys_getuid --override 1 -d 1
	expect_fail 4 "CAP_SYS_ADMIN in the initial user namespace" \
		$PERFMON $CTL count kprobe:__x64_sys_getuid --override 1 -d 1
	expect_fail 4 "CAP_SYS_ADMIN in the initial user namespace" \
		$PERFMON $CTL inject kmalloc --in __x64_sys_mount
	# The suite runs chrooted, where unshare(CLONE_NEWUSER) is EPERM: the
	# namespace is made from the initramfs' root, then chrooted back.
	expect_fail 4 "CAP_PERFMON or CAP_SYS_ADMIN" \
		chroot /proc/1/root /bin/busybox unshare -Ur \
		/bin/busybox chroot /mnt/root \
		$CTL count kprobe:__x64_sys_getuid --override 1 -d 1
	expect_eq 0 "$(probe_count)" "probes left by the refusals"
}

# An override is root's to take away or to re-arm, as to set: a
# CAP_PERFMON user can neither delete, disable nor enable one, by id or
# by "all" (which keeps it and says so); root can.
t_override_probe_refused_to_perfmon() {
	local j id out rule="overrides a return or injects faults.*CAP_SYS_ADMIN.*EPERM"
	bg_start $S/keep.out trace kprobe:__x64_sys_getuid --comm rp-nobody --override 1
	# a failed check ends the test here: the command goes too
	trap 'kill -INT $BG_PID 2>/dev/null || true' EXIT
	j=$($CTL -j probe list)
	expect_eq 1 "$(json_get "$j" 'j[0]["override"]["value"]')" "the trace's override"
	expect_eq armed "$(json_get "$j" 'j[0]["state"]')" "its state"
	id=$(json_get "$j" 'j[0]["id"]')
	expect_fail 4 "$rule" $PERFMON $CTL probe del "$id"
	expect_fail 4 "$rule" $PERFMON $CTL probe disable "$id"
	expect_fail 4 "$rule" $PERFMON $CTL probe enable "$id"
	out=$($PERFMON $CTL probe del all 2>&1) || fail "probe del all: $out"
	expect_match "1 probe kept" "$out" "probe del all's note"
	j=$($CTL -j probe list)
	expect_eq "[$id]" "$(json_get "$j" '[p["id"] for p in j]')" "probes after del all"
	expect_eq armed "$(json_get "$j" 'j[0]["state"]')" "the override after del all"
	$CTL probe disable "$id"
	$CTL probe enable "$id"
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes after root's del"
	kill -INT "$BG_PID"
	wait "$BG_PID" || true
}

# An injection's probes, its hooks' overrides and its call-chain step,
# are as root's: a CAP_PERFMON user can touch none of them.
t_inject_probes_refused_to_perfmon() {
	local j ids step rule="overrides a return or injects faults.*EPERM"
	bg_start $S/keepinj.out inject kmalloc --in __x64_sys_mount
	# a failed check ends the test here: the command goes too
	trap 'kill -INT $BG_PID 2>/dev/null || true' EXIT
	j=$($CTL -j probe list)
	ids=$(json_get "$j" '" ".join(str(p["id"]) for p in j)')
	step=$(json_get "$j" '[p["id"] for p in j if p.get("chain_step")][0]')
	expect_fail 4 "$rule" $PERFMON $CTL probe disable "$step"
	expect_fail 4 "$rule" $PERFMON $CTL probe del $ids
	expect_eq "$ids" "$(json_get "$($CTL -j probe list)" '" ".join(str(p["id"]) for p in j if p["state"] == "armed")')" \
		"armed probes after the refusals"
	bg_stop INT
}

# inject.py's kmalloc '__x64_sys_mount()': mount fails with ENOMEM,
# other processes allocate freely, and mount works again after.
t_inject_kmalloc_in_mount() {
	mkdir -p $S/mnt
	bg_start $S/inj.out inject kmalloc --in __x64_sys_mount
	grep -q "^Failing kmalloc" $S/inj.out.err || fail "no readiness line: $(cat $S/inj.out.err)"
	if mount -t tmpfs none $S/mnt 2>$S/mount.err; then
		umount $S/mnt
		fail "mount worked under the injection"
	fi
	grep -q "Cannot allocate memory" $S/mount.err || fail "mount: $(cat $S/mount.err)"
	expect_eq 0 "$(getcwd_fails 200)" "getcwd failures outside mount"
	ls -R /proc/self >/dev/null 2>&1 || fail "ls failed while mount's allocations fail"
	bg_stop INT
	grep -Eq "^[1-9][0-9]* kmalloc allocations? failed" $S/inj.out.err ||
		fail "no count of failures: $(cat $S/inj.out.err)"
	grep -q "__x64_sys_mount;" $S/inj.out || fail "no stack of a failure: $(cat $S/inj.out)"
	mount -t tmpfs none $S/mnt || fail "mount after the injection"
	umount $S/mnt
}

# --times 3: exactly 3 mounts fail, then the command ends by itself.
t_inject_times_exact() {
	local i fails=0
	mkdir -p $S/mnt
	bg_start $S/times.json -j inject kmalloc --in __x64_sys_mount --times 3
	for i in 1 2 3 4 5 6; do
		if mount -t tmpfs none $S/mnt 2>/dev/null; then
			umount $S/mnt
		else
			fails=$((fails + 1))
		fi
	done
	wait_for "! kill -0 $BG_PID 2>/dev/null" 100 || fail "inject did not end after 3"
	wait $BG_PID || fail "inject's exit status: $?"
	expect_eq 3 "$fails" "mounts that failed"
	expect_eq 3 "$(json_get "$(cat $S/times.json)" 'j["failed"]')" "failed, as inject counts"
	expect_eq 3 "$(json_get "$(cat $S/times.json)" 'sum(w["count"] for w in j["where"])')" \
		"failures by stack"
	expect_eq 0 "$(probe_count)" "probes after inject ended"
	schema inject $S/times.json
}

# --times counts down a signed int: a count past INT_MAX is refused, by
# the CLI and by the kernel's policy (nl_malformed), rather than taken as
# no limit; nothing is added, nothing fails.
t_inject_times_above_int_max() {
	expect_fail 2 "--times must be 1\.\.2147483647, not '3000000000'" \
		$CTL inject kmalloc --in __x64_sys_getcwd --times 3000000000 -d 1
	expect_eq 0 "$(probe_count)" "probes after the refusal"
	expect_eq 0 "$(getcwd_fails 50)" "getcwd failures after the refusal"
}

# --probability 50: getcwd's own allocation fails with p = 0.5, so of
# 2000 calls within 6 sigma (of 1000, 67); and every failure the kernel
# counted is one getcwd saw (with kmemleak: at least as many). Nothing
# else runs meanwhile: python's imports call getcwd too.
t_inject_probability() {
	local n k
	inject_getcwd $S/prob.out 2000 --probability 50
	n=$N_FAILED k=$K_FAILED
	if kmemleak_on; then
		expect_ge "$n" "$k" "inject's count against getcwd's failures"
	else
		expect_eq "$n" "$k" "inject's count = getcwd's failures"
	fi
	[ "$n" -ge 866 ] && [ "$n" -le 1134 ] ||
		fail "$n of 2000 failed at 50%: beyond 6 sigma"
}

# --interval 4: exactly every 4th eligible allocation: every 4th getcwd
# (with kmemleak, whose allocations interleave, at least 100 of the 400
# or more eligible fail, some of them getcwd's).
t_inject_interval() {
	local n k
	inject_getcwd $S/every.out 400 --interval 4
	n=$N_FAILED k=$K_FAILED
	if kmemleak_on; then
		expect_ge 100 "$k" "failed allocations, every 4th of at least 400"
		expect_ge "$n" "$k" "inject's count against getcwd's failures"
	else
		expect_eq 100 "$n" "getcwd failures, every 4th of 400"
		expect_eq 100 "$k" "failed allocations, as inject counts"
	fi
}

# A chain of two: only getcwd inside... a chain's later step must be
# entered inside the earlier one, so getcwd alone does not qualify.
t_inject_chain_order() {
	bg_start $S/chain.out inject kmalloc --in __x64_sys_mount,__x64_sys_getcwd
	expect_eq 0 "$(getcwd_fails 200)" "getcwd outside mount"
	bg_stop INT
	grep -q "^0 kmalloc allocations failed" $S/chain.out.err ||
		fail "$(cat $S/chain.out.err)"
}

# alloc_page: a pipe's first write allocates its buffer's page; under
# --times 1 in write(2), for one command, that write fails with ENOMEM
# and the next works.
t_inject_alloc_page_in_write() {
	local out
	bg_start $S/page.out inject alloc_page --in __x64_sys_write --comm rp-pipew --times 1
	out=$(python3 -c '
import ctypes, errno, os
ctypes.CDLL(None).prctl(15, b"rp-pipew", 0, 0, 0)
r, w = os.pipe()
try:
    os.write(w, b"x")
    print("first write worked")
except OSError as e:
    print("first write:", errno.errorcode[e.errno])
os.write(w, b"y")
print("second write worked")')
	wait_for "! kill -0 $BG_PID 2>/dev/null" 100 || fail "inject did not end after 1"
	wait $BG_PID || fail "inject's exit status: $?"
	expect_match "first write: ENOMEM" "$out" "the pipe's first write"
	expect_match "second write worked" "$out" "the second write"
	grep -q "^1 alloc_page allocation failed" $S/page.out.err ||
		fail "inject's count: $(cat $S/page.out.err)"
}

# SIGKILLed: the probes go with its socket, and allocations work.
t_inject_sigkill_leaves_nothing() {
	bg_start $S/kill.out inject kmalloc --in __x64_sys_getcwd
	expect_eq 50 "$(getcwd_fails 50)" "getcwd failures while injecting"
	kill -KILL $BG_PID
	wait $BG_PID 2>/dev/null || true
	wait_for "[ \$(probe_count) = 0 ]" 100 || fail "probes left: $($CTL probe list)"
	expect_eq 0 "$(getcwd_fails 50)" "getcwd failures after the kill"
}

# A call chain's step removed while a task is inside its function: the
# scope goes with the step, and the task's allocations work once it is
# out (no depth left up for the rest of its life).
t_inject_scope_ends_with_its_step() {
	local pid step
	bg_start $S/scope.out inject kmalloc --in __x64_sys_clock_nanosleep --comm rp_scope
	python3 -c "$GETCWD_ENOMEM_PY"'
import ctypes, signal, sys, time
ctypes.CDLL(None).prctl(15, b"rp_scope", 0, 0, 0)
def woken(sig, frame):
    raise InterruptedError
signal.signal(signal.SIGUSR1, woken)
open(sys.argv[1] + ".ready", "w").close()
try:
    time.sleep(600)
except InterruptedError:
    pass
print(getcwd_enomem(20))' $S/scope.res > $S/scope.res 2>&1 &
	pid=$!
	# inside: the ready file written, then clock_nanosleep (230) entered
	wait_for "[ -e $S/scope.res.ready ] && [ \"\$(cut -d' ' -f1 /proc/$pid/syscall 2>/dev/null)\" = 230 ]" 300 ||
		fail "the sleeper never slept: $(cat $S/scope.res)"
	step=$(json_get "$($CTL -j probe list)" \
		'[p["id"] for p in j if p["kind"] == "kretprobe"][0]')
	$CTL probe del "$step" || fail "could not delete the step $step"
	kill -USR1 $pid
	wait $pid || fail "the sleeper: $(cat $S/scope.res)"
	expect_eq 0 "$(cat $S/scope.res)" "getcwd failures after the scope's step went"
	kill -INT $BG_PID
	wait $BG_PID || true
	wait_for "[ \$(probe_count) = 0 ]" 100 || fail "probes left: $($CTL probe list)"
}

tests t_override_getuid_for_id_only t_override_refused_places_and_values \
	t_override_not_persistent t_override_refused_callers \
	t_override_probe_refused_to_perfmon t_inject_probes_refused_to_perfmon \
	t_inject_kmalloc_in_mount \
	t_override_allocator_entry_beside_hooks \
	t_inject_times_exact t_inject_times_above_int_max \
	t_inject_probability t_inject_interval \
	t_inject_chain_order t_inject_alloc_page_in_write \
	t_inject_sigkill_leaves_nothing t_inject_scope_ends_with_its_step
