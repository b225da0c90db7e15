# SPDX-License-Identifier: GPL-2.0
# The kernel failing to disarm a probe (out of memory in kprobes' ftrace
# disarm, made to fail by the test module rp_ftfail): the probe stays
# registered and armed, working, its removal says so and can be tried
# again, and nothing is unregistered twice. On a kretprobe rawprobe used
# to unregister it again after the kernel had freed its rethook: a panic
# in rethook_free_rcu (6.1) or objpool_fini (6.12). rp_ftfail fails the
# disarm of the last armed ftrace-based kprobe, so each test arms its
# ftrace-based probes itself and removes them all.

FTFAIL_KO=$(dirname "$KO")/test-modules/rp_ftfail.ko
FTFAIL=/sys/module/rp_ftfail/parameters
LOOP=build/tools/getpgid_loop
SYS=__x64_sys_getpgid

# ftfail_load: the failure injector, unloaded when the test ends.
ftfail_load() {
	insmod "$FTFAIL_KO"
	trap 'rmmod rp_ftfail 2>/dev/null || true' EXIT
}

# ftfail_arm: the next disarm of the last ftrace-based kprobe fails.
ftfail_arm() {
	echo 1 > $FTFAIL/fail_count
}

stat_of() {	# ID FIELD
	json_get "$($CTL -j probe show "$1")" "j[\"stats\"][\"$2\"]"
}

# The kernel's state is as it was: a new ftrace-based kprobe fires
# (kprobes', not rawprobe's ftrace_ops, whose state the faults are in).
ftrace_probes_fire() {
	local id
	id=$(RAWPROBE_ARM=kprobes $CTL probe add kprobe $SYS)
	$LOOP -w 0 10 >/dev/null
	expect_ge 10 "$(stat_of "$id" hits)" "a new ftrace-based kprobe's hits"
	$CTL probe del "$id"
}

t_kretprobe_del_after_failed_disarm() {
	local id r0 r1
	ftfail_load
	id=$($CTL probe add kretprobe $SYS)
	ftfail_arm
	expect_fail 1 "could not unregister.*try again.*ENOMEM" $CTL probe del "$id"
	expect_eq 1 "$(cat $FTFAIL/injected)" "disarms failed"
	# still the kernel's and rawprobe's: listed, armed, working
	expect_eq armed "$(json_get "$($CTL -j probe show "$id")" 'j["state"]')" "state"
	r0=$(stat_of "$id" records)
	$LOOP -w 0 100 >/dev/null
	r1=$(stat_of "$id" records)
	expect_ge $((r0 + 100)) "$r1" "return records after the failed removal"
	# the second try disarms, then unregisters: once
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes left"
	ftrace_probes_fire
}

# A batch removal (of several ids): what could be disarmed goes, the
# probe whose disarm failed (the last one) stays.
t_batch_del_keeps_what_failed() {
	local a b c
	ftfail_load
	a=$($CTL probe add kretprobe $SYS)
	b=$($CTL probe add kretprobe __x64_sys_getppid)
	# a kprobe: rawprobe's ftrace_ops disarms without a failure to inject
	c=$(RAWPROBE_ARM=kprobes $CTL probe add kprobe vfs_read)
	ftfail_arm
	expect_fail 1 "ENOMEM" $CTL probe del "$a" "$b" "$c"
	expect_eq "$c" "$($CTL -j probe list | grep -o '"id":[0-9]*' | cut -d: -f2 | xargs)" \
		"only the probe that failed stays"
	$CTL probe del "$c"
	expect_eq 0 "$(probe_count)" "probes left"
	ftrace_probes_fire
}

# A socket's probes go with it; one the kernel could not disarm stays,
# without an owner, until deleted.
t_owner_release_keeps_what_failed() {
	local id pid
	ftfail_load
	bg_start $T_SCRATCH/own.out trace kretprobe:$SYS
	pid=$BG_PID
	id=$(json_get "$($CTL -j probe list)" "[p['id'] for p in j if p['symbol'] == '$SYS'][0]")
	ftfail_arm
	{ kill -KILL $pid; wait $pid; } 2>/dev/null || true
	wait_for "[ \$(cat $FTFAIL/injected) = 1 ]" 100 ||
		fail "the release did not try to remove the probe"
	expect_eq 1 "$($CTL -j probe list | grep -c "\"id\":$id,")" "kept after the release"
	$CTL probe del "$id"
	ftrace_probes_fire
}

# rmmod waits out a failed disarm (it retries) instead of freeing an
# armed probe: on 6.12 the old code panicked in objpool_fini here.
t_rmmod_retries_failed_disarm() {
	local id
	ftfail_load
	id=$($CTL probe add kretprobe $SYS)
	ftfail_arm
	rmmod rawprobe
	expect_eq 1 "$(cat $FTFAIL/injected)" "disarms failed"
	dmesg | grep -q "probe $id on $SYS: the kernel could not disarm it" ||
		fail "the failed disarm was not logged"
	module_load
	ftrace_probes_fire
}

# A glob armed through rawprobe's ftrace_ops: the failed unregister of
# the ops (its last sites) cannot fail the removal, since what fires is
# rawprobe's table; the sites stay traced for nothing until the ops goes.
# A new glob arms on the ops still registered, fires, and its removal
# takes every site out; rmmod after another failure retries.
t_ftrace_batch_removal_survives_failed_unregister() {
	local before ids h
	ftfail_load
	before=$(wc -l < $TRACING/enabled_functions)
	$CTL probe add kprobe 'vfs_read*' > /dev/null
	ftfail_arm
	$CTL probe del all
	expect_eq 1 "$(cat $FTFAIL/injected)" "unregisters failed"
	expect_eq 0 "$(probe_count)" "probes left"
	dmesg | grep -q "ftrace kept .* functions traced" ||
		fail "the failed unregister was not logged"
	ids=$($CTL probe add kprobe 'vfs_read*' | xargs)
	h=$(json_get "$($CTL -j probe list)" "[p['stats']['hits'] for p in j if p['target'] == 'vfs_read'][0]")
	cat /etc/hostname > /dev/null
	expect_ge $((h + 1)) "$(json_get "$($CTL -j probe list)" "[p['stats']['hits'] for p in j if p['target'] == 'vfs_read'][0]")" \
		"vfs_read hits on the ops left registered"
	$CTL probe del $ids
	expect_eq "$before" "$(wc -l < $TRACING/enabled_functions)" "functions traced after del"
	$CTL probe add kprobe 'vfs_read*' > /dev/null
	ftfail_arm
	rmmod rawprobe
	expect_eq 2 "$(cat $FTFAIL/injected)" "unregisters failed"
	expect_eq "$before" "$(wc -l < $TRACING/enabled_functions)" "functions traced after rmmod"
	module_load
	ftrace_probes_fire
}

tests t_kretprobe_del_after_failed_disarm t_batch_del_keeps_what_failed \
	t_owner_release_keeps_what_failed t_rmmod_retries_failed_disarm \
	t_ftrace_batch_removal_survives_failed_unregister
