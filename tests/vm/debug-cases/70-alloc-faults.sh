# SPDX-License-Identifier: GPL-2.0
# Allocation failures, one at a time, in every control operation. Needs CONFIG_FAULT_INJECTION with FAILSLAB and FAIL_PAGE_ALLOC
# (the KASAN kernel of tests/vm/debug-kernel.sh): make check-debug runs it.
# Sessions (RING_NEW, RING_DEL, probes into one) are driven with
# build/tools/nl_session, rawprobectl's netlink layer without its commands.
#
# For each operation, N = 1, 2, ...: build/tools/fail_nth.so makes the Nth
# slab or page allocation of the operation's system call fail (the task's
# fail-nth), until an attempt passes every allocation with none injected.
# Every attempt must end in success or in a clear error (exit 1, a message
# naming the errno), leave the state as it was (no probe, no ring change,
# module references as before), and the same operation without a fault
# must then work. The suite's kmemleak scan after the case finds leaks.

SHIM=$PWD/build/tools/fail_nth.so
SESS=build/tools/nl_session
REPORT=$T_SCRATCH/fail.report
MAX_POINTS=400			# a walk longer than this is a failure
TARGET_KO=$(dirname "$KO")/test-modules/rp_target.ko
FAULT_ATTRS="/sys/kernel/debug/failslab /sys/kernel/debug/fail_page_alloc"

# Every allocation may fail: GFP_KERNEL ones (the default skips those
# that may sleep) and order-0 pages (the default starts at order 1).
# Quiet: verbose 2 prints a stack, which the harness takes for a report.
faults_setup() {
	local d
	for d in $FAULT_ATTRS; do
		[ -d "$d" ] || fail "no $d: this kernel has no fault injection"
		echo N > "$d/ignore-gfp-wait"
		echo 0 > "$d/verbose"
	done
	echo 0 > /sys/kernel/debug/fail_page_alloc/min-order
}

module_refs() { cat /sys/module/rawprobe/refcnt; }

# A clear error: exit 1 and one "rawprobectl: what: reason (ENAME)" line
# (nl_session's: "nl_session: what: reason (ENAME)").
clean_error() {	# rc stderr
	[ "$1" = 1 ] || { fail "exit $1 (want 0 or 1): $2"; return 1; }
	printf '%s\n' "$2" | grep -Eq '^(rawprobectl|nl_session): .+ \(E[A-Z0-9]+\)$' ||
		fail "unclear error: $2"
}

# fault_walk CALL CHECK CLEANUP CMD...: walk CMD's allocation points in
# the CALL system call (see fail_nth.c). After each attempt, CHECK rc
# judges the state the attempt left and CLEANUP restores the starting
# state; after a failed attempt CMD must work without a fault. Prints
# the number of points walked.
fault_walk() {
	local call=$1 check=$2 cleanup=$3 n=1 rc err refs injected
	shift 3
	refs=$(module_refs)
	while [ $n -le $MAX_POINTS ]; do
		rm -f "$REPORT"
		rc=0
		err=$(RP_FAIL_CALL=$call RP_FAIL_NTH=$n RP_FAIL_REPORT=$REPORT \
		      LD_PRELOAD=$SHIM "$@" 2>&1 >/dev/null) || rc=$?
		injected=$(cat "$REPORT" 2>/dev/null) ||
			fail "point $n: the $call call never happened ($err)"
		[ "$rc" = 0 ] || clean_error "$rc" "$err" ||
			fail "point $n of '$*'"
		$check "$rc" ||
			fail "point $n of '$*': state after exit $rc ($err)"
		$cleanup
		expect_eq "$refs" "$(module_refs)" "module references after point $n"
		[ "$injected" = injected ] || break
		if [ "$rc" != 0 ]; then
			err=$("$@" 2>&1 >/dev/null) ||
				fail "'$*' without a fault, after point $n: $err"
			$cleanup
		fi
		n=$((n + 1))
	done
	[ $n -le $MAX_POINTS ] || fail "more than $MAX_POINTS points in '$*'"
	[ "$rc" = 0 ] || fail "'$*' failed with no fault injected: $err"
	echo "    $call '$*': $((n - 1)) allocation points" >&2
}

# --- checks: the state an attempt leaves, given its exit code ---

# A probe add: on success exactly the wanted probes, armed (not in some
# half state); on failure none.
added() {	# rc wanted
	local list
	list=$($CTL -j probe list)
	if [ "$1" = 0 ]; then
		expect_eq "$2" "$(printf '%s' "$list" | grep -o '"state":"armed"' | wc -l)" \
			"armed probes after a successful add"
	else
		expect_eq 0 "$(printf '%s' "$list" | grep -o '{"id":' | wc -l)" \
			"probes after a failed add"
	fi
}
added_one() { added "$1" 1; }
added_three() { added "$1" 3; }
del_all() { $CTL probe del all >/dev/null; }

t_faults_ready() {
	faults_setup
	[ -e /proc/thread-self/fail-nth ] || fail "no fail-nth"
	[ -x "$SHIM" ] || [ -f "$SHIM" ] || fail "no $SHIM (make ctl)"
}

# The first probe allocates the rings (kmod/ring.c): walk that with the
# smallest rings (4 pages a CPU), the module reloaded after each attempt
# so that each one is a first. A failed attempt leaves neither a probe
# nor the rings (it gives back what it allocated); a successful one both.
reload_small() {
	rmmod rawprobe && insmod "$KO" ring_records=64
}
added_first() {	# rc
	local bytes
	added_one "$1"
	bytes=$(json_get "$($CTL -j ring show)" 'j["allocated_bytes"]')
	if [ "$1" = 0 ]; then
		[ "$bytes" -gt 0 ] || fail "no rings after a successful first add"
	else
		expect_eq 0 "$bytes" "ring memory after a failed first add"
	fi
}
t_first_probe_allocates_rings() {
	reload_small
	fault_walk send added_first reload_small $CTL probe add kprobe vfs_read
	rmmod rawprobe && insmod "$KO"
	rings_allocate	# the walks below meet allocated rings
}

t_probe_add_kprobe() {
	fault_walk send added_one del_all $CTL probe add kprobe vfs_read
}

t_probe_add_kretprobe() {
	fault_walk send added_one del_all \
		$CTL probe add kretprobe vfs_read -m 64
}

t_probe_add_jprobe() {
	fault_walk send added_one del_all \
		$CTL probe add jprobe do_sys_openat2 --args s32,ustr,ptr
}

# Several symbols go as one batch request.
t_probe_add_batch() {
	fault_walk send added_three del_all \
		$CTL probe add kprobe vfs_read vfs_write do_sys_openat2
}

# Field fetches with a value filter, and a stack: attributes
# of their own in the same request (BTF: the debug kernels have it).
t_probe_add_fetch_filter() {
	fault_walk send added_one del_all \
		$CTL probe add kprobe vfs_read --args 'file->f_pos,count' \
		--filter 'count > 0'
}

t_probe_add_stack() {
	fault_walk send added_one del_all \
		$CTL probe add kretprobe vfs_read --stack
}

# Counting probes (RAWPROBE_F_AGG, kmod/agg.c rp_agg_alloc()): two
# tables a CPU and, with a stack key, the stack table, each kvzalloc'ed
# (a kmalloc, then vmalloc's pages when it fails). 16 keys, 32 slots:
# every allocation site without a walk over hundreds of vmalloc pages.
t_probe_add_count_stack() {
	fault_walk send added_one del_all \
		$CTL probe add kprobe vfs_read --count --by comm,stack \
		--max-keys 16
}

# Values and a log2 histogram: 69 words a slot; the kretprobe's instances.
t_probe_add_count_latency() {
	fault_walk send added_one del_all \
		$CTL probe add kretprobe vfs_read -m 16 --count \
		--stats latency --hist log2 --max-keys 16
}

t_probe_add_module_target() {
	insmod "$TARGET_KO"
	fault_walk send added_one del_all \
		$CTL probe add kprobe rp_target:rp_target_hit --args s32,str
	rmmod rp_target
}

# --- operations on an existing probe ---

# Operations on an existing probe use a breakpoint (int3) kprobe inside
# vfs_read, not one on its ftrace site: disarming an ftrace-based kprobe
# allocates (ftrace_set_filter_ip()), and when that fails the kernel
# WARNs and keeps the kprobe registered with its ftrace counters off by
# one, breaking every later ftrace-based probe of the boot. (rawprobe's
# side of that failure, never freeing a kprobe the kernel kept, is in
# kmod/registry_arm.c, rp_unregister_end().) The first offset past the entry
# that takes a kprobe off the ftrace site, found once.
int3_target() {
	local off id
	if [ ! -s "$T_SCRATCH/int3" ]; then
		for off in $(seq 1 32); do
			id=$($CTL probe add kprobe "vfs_read+$off" 2>/dev/null) || continue
			grep -q "vfs_read+0x$(printf %x "$off")" /sys/kernel/debug/kprobes/list &&
				! grep "vfs_read+0x$(printf %x "$off")" /sys/kernel/debug/kprobes/list |
					grep -q FTRACE &&
				echo "vfs_read+$off" > "$T_SCRATCH/int3"
			$CTL probe del "$id" >/dev/null
			[ -s "$T_SCRATCH/int3" ] && break
		done
	fi
	cat "$T_SCRATCH/int3"
}

PROBE_ID=
one_probe() {
	del_all
	PROBE_ID=$($CTL probe add kprobe "$(int3_target)")
}
# (grep, not python: python takes seconds to start on a KASAN guest)
probe_state() {
	$CTL -j probe show "$PROBE_ID" | grep -o '"state":"[a-z]*"' | cut -d'"' -f4
}

still_there_or_gone() {	# rc
	if [ "$1" = 0 ]; then
		expect_eq 0 "$(probe_count)" "probes after a successful del"
	else
		expect_eq armed "$(probe_state)" "the probe after a failed del"
	fi
}

# (the id changes with each new probe: read when the command runs)
del_current() { $CTL probe del "$PROBE_ID"; }

t_probe_del() {
	one_probe
	fault_walk send still_there_or_gone one_probe del_current
	one_probe
	fault_walk send still_there_or_gone one_probe $CTL probe del all
	del_all
}

# state_after rc STATE-IF-DONE STATE-IF-FAILED WHAT
state_after() {
	if [ "$1" = 0 ]; then
		expect_eq "$2" "$(probe_state)" "after a successful $4"
	else
		expect_eq "$3" "$(probe_state)" "after a failed $4"
	fi
}
disabled_or_armed() { state_after "$1" disabled armed disable; }
armed_or_disabled() { state_after "$1" armed disabled enable; }
rearm() { $CTL probe enable "$PROBE_ID" >/dev/null; }

t_probe_disable_enable() {
	one_probe
	fault_walk send disabled_or_armed rearm \
		$CTL probe disable "$PROBE_ID"
	$CTL probe disable "$PROBE_ID"
	fault_walk send armed_or_disabled disarm \
		$CTL probe enable "$PROBE_ID"
	del_all
}
disarm() { $CTL probe disable "$PROBE_ID" >/dev/null; }

stats_kept() { [ "$1" = 0 ] || expect_eq armed "$(probe_state)" "after a failed reset"; }
t_probe_reset() {
	one_probe
	fault_walk send stats_kept true $CTL probe reset all
	del_all
}

# --- reading a counting probe (AGG_READ, a dump) ---

# A persistent counting probe by comm and stack, with hits: 'agg show'
# gets it (PROBE_GET), then reads it, which ends the interval in the
# dump's start (kmod/agg.c rp_agg_read(): the snapshot, the stack
# bitmap, the stacks' copy) and sends the first round in the same send:
# on 6.12 all of an answer of up to some 32 KB, NLMSG_DONE included
# (RP_FAIL_CALL=recv walks the receives, where later rounds run: here
# none, and 800 processes' keys still fit). A failed read keeps the
# probe, armed and counting (that interval's counts are gone: a read
# clears the tables it takes, snapshot or not); the module frees the
# snapshot at the socket's close (kmemleak).
one_counting_probe() {	# KEYS MAX-KEYS
	del_all
	PROBE_ID=$($CTL probe add kprobe vfs_read --count --by "$1" \
		   --max-keys "$2")
}
agg_kept() {	# rc
	expect_eq armed "$(probe_state)" "the counting probe after a read"
	expect_eq 1 "$(probe_count)" "probes after a read"
}
# hits for the next read (each a vfs_read, by comm and stack)
agg_hits() { cat /proc/version /proc/self/stat >/dev/null; }
agg_show() { $CTL agg show "$PROBE_ID"; }

t_agg_show() {
	one_counting_probe comm,stack 16
	agg_hits
	# the read works, with entries to show
	agg_show | grep -q . || fail "agg show printed nothing"
	agg_hits
	RP_FAIL_SKIP=1 fault_walk send agg_kept agg_hits agg_show
	del_all
}

# --- the ring ---

ring_records() { $CTL -j ring show | grep -o '"records":[0-9]*' | cut -d: -f2; }
ring_resized_or_not() {	# rc
	if [ "$1" = 0 ]; then
		expect_eq 64 "$(ring_records)" "ring after a successful set"
	else
		expect_eq $RING_DEFAULT "$(ring_records)" "ring after a failed set"
	fi
}
ring_default() { $CTL ring set records $RING_DEFAULT >/dev/null; }

# The smallest rings (4 pages a CPU): every allocation site of a resize,
# without a walk over hundreds of pages.
t_ring_set() {
	fault_walk send ring_resized_or_not ring_default \
		$CTL ring set records 64
}

# --- the device and a stream (open, mmap, its owned probes, release) ---

nothing_left() {	# rc
	expect_eq 0 "$(probe_count)" "probes after a stream"
	expect_eq $RING_DEFAULT "$(ring_records)" "ring after a stream"
}

t_stream_open() {
	fault_walk open nothing_left true $CTL stream -d 0.2
}

t_stream_mmap_control() {
	fault_walk mmap nothing_left true $CTL stream -d 0.2
}

t_stream_mmap_records() {
	RP_FAIL_SKIP=1 fault_walk mmap nothing_left true $CTL stream -d 0.2
}

# A stream with probes makes a session of its own: the smallest rings
# (WALK_RECORDS), or its default size walks past MAX_POINTS, a page each.
t_stream_owned_probes() {
	fault_walk send nothing_left del_all \
		$CTL stream -e kprobe:vfs_read -e kretprobe:vfs_write -d 0.2 \
		--ring-records $WALK_RECORDS
}

t_stream_release() {
	fault_walk close nothing_left del_all \
		$CTL stream -e kprobe:vfs_read -d 0.2 --ring-records $WALK_RECORDS
}

# --- sessions (RING_NEW, RING_DEL, probes into one) ---

# One listing a check (each nl_session is a second or two on a KASAN
# guest): "id=N name=S records=N ... probes=N" a session; then the names
# ("-" for an unnamed session) and one session's field in it.
names_in() { printf '%s\n' "$1" | sed 's/^id=[0-9]* name=\([^ ]*\) .*/\1/' | xargs; }
field_in() {	# LISTING NAME FIELD
	printf '%s\n' "$1" | grep " name=$2 " | grep -o " $3=[0-9]*" | cut -d= -f2
}

# The smallest rings (4 pages a CPU): every allocation site of a
# session, without a walk over hundreds of pages (the automatic size is
# the default session's, 16,384 records).
WALK_RECORDS=64

# (Checks run on the left of ||, where set -e does not stop them: each
# joins its expectations with && to fail as a whole.)

# A named session: made whole (its size, no probe) or not at all.
named_or_none() {	# rc
	local l
	l=$($SESS list) || return
	if [ "$1" = 0 ]; then
		expect_eq "- rp-walk" "$(names_in "$l")" "sessions after RING_NEW" &&
		expect_eq $WALK_RECORDS "$(field_in "$l" rp-walk records)" \
			"the new session's records" &&
		expect_eq 0 "$(field_in "$l" rp-walk probes)" "its probes"
	else
		expect_eq "-" "$(names_in "$l")" "sessions after a failed RING_NEW"
	fi
}
del_walk_session() { $SESS del rp-walk >/dev/null 2>&1 || true; }

t_ring_new_named() {
	del_walk_session
	fault_walk send named_or_none del_walk_session \
		$SESS new rp-walk records $WALK_RECORDS mode 1
}

# An unnamed session is its socket's: whether RING_NEW worked or not,
# it is gone once the command has exited (the module's reaper, a work
# item: nl_session wait-default polls for it).
gone_with_socket() {	# rc
	{ $SESS wait-default 5000 ||
		fail "sessions left after the command: $($SESS list)"; } &&
	expect_eq 0 "$(probe_count)" "probes left after the command"
}

t_ring_new_unnamed() {
	del_walk_session
	fault_walk send gone_with_socket true \
		$SESS new - records $WALK_RECORDS
}

# A probe into a named session: on success one probe, armed, counted by
# the session; on failure none, and the session as it was.
added_into_session() {	# rc
	added_one "$1" || return
	if [ "$1" = 0 ]; then
		expect_eq 1 "$(field_in "$($SESS list)" rp-walk probes)" \
			"the session's probes"
	else
		expect_eq 0 "$(field_in "$($SESS list)" rp-walk probes)" \
			"the session's probes after a failed add"
	fi
}

t_probe_add_into_named_session() {
	del_walk_session
	$SESS new rp-walk records $WALK_RECORDS >/dev/null
	fault_walk send added_into_session del_all \
		$SESS add rp-walk vfs_read persistent
	del_all
	$SESS del rp-walk
}

# The socket's own session, then a probe into it (the second request:
# RP_FAIL_SKIP=1): whatever failed, both are gone with the command.
t_probe_add_into_unnamed_session() {
	del_walk_session
	RP_FAIL_SKIP=1 fault_walk send gone_with_socket true \
		$SESS new - records $WALK_RECORDS probe vfs_read
}

# RING_DEL answers from a message allocated before the session goes: a
# failed one keeps it, whole.
deleted_or_kept() {	# rc
	local l
	l=$($SESS list) || return
	if [ "$1" = 0 ]; then
		expect_eq "-" "$(names_in "$l")" "sessions after RING_DEL"
	else
		expect_eq "- rp-walk" "$(names_in "$l")" \
			"sessions after a failed RING_DEL" &&
		expect_eq $WALK_RECORDS "$(field_in "$l" rp-walk records)" \
			"the kept session's records"
	fi
}
remake_walk_session() {
	[ "$(names_in "$($SESS list)")" = "- rp-walk" ] ||
		$SESS new rp-walk records $WALK_RECORDS >/dev/null
}

t_ring_del() {
	del_walk_session
	remake_walk_session
	fault_walk send deleted_or_kept remake_walk_session $SESS del rp-walk
	del_walk_session
}

# After every walk above (probes of each kind, counting probes' tables,
# kretprobe instances, resizes, sessions): the memory budget that rings,
# kretprobe instances and tables share is all back. nl_session budget
# fills what the listed sessions leave of it with sessions of the
# largest sizes that fit, each admitted, then one of the smallest must
# get E2BIG: a charge that a failure path kept, or gave back twice,
# shows.
t_budget_back() {
	del_all
	del_walk_session
	expect_eq "-" "$(names_in "$($SESS list)")" "sessions left"
	$SESS budget
}

tests t_faults_ready t_first_probe_allocates_rings t_probe_add_kprobe t_probe_add_kretprobe \
	t_probe_add_jprobe t_probe_add_batch t_probe_add_fetch_filter \
	t_probe_add_stack t_probe_add_count_stack t_probe_add_count_latency \
	t_probe_add_module_target t_agg_show \
	t_probe_del t_probe_disable_enable t_probe_reset t_ring_set \
	t_ring_new_named t_ring_new_unnamed t_probe_add_into_named_session \
	t_probe_add_into_unnamed_session t_ring_del \
	t_stream_open t_stream_mmap_control t_stream_mmap_records \
	t_stream_owned_probes t_stream_release t_budget_back
