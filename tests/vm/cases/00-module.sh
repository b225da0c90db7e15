# SPDX-License-Identifier: GPL-2.0
# The foundation: load, device, netlink family, versions, privileges.

t_device() {
	[ -c /dev/rawprobe ] || fail "/dev/rawprobe is not a char device"
	expect_eq "crw-------" "$(stat -c %A /dev/rawprobe)" "device mode"
	grep -q ' rawprobe$' /proc/misc || fail "not a misc device"
}

t_version() {
	local out j abi
	# the header's number, not a copy of it that the next bump forgets
	abi=$(sed -n 's/^#define RAWPROBE_ABI_VERSION[[:space:]]*\([0-9]*\).*/\1/p' \
		uapi/rawprobe.h)
	out=$($CTL version)
	expect_match "^rawprobectl 0\.1\.0 \(ABI $abi\)" "$out" "CLI line"
	expect_match "module +0\.1\.0 \(ABI $abi\) on Linux $(uname -r | sed 's/[.+]/\\&/g')" \
		"$out" "module line"
	j=$($CTL -j version)
	expect_eq "$abi" "$(json_get "$j" 'j["module"]["abi"]')" "module abi"
	expect_eq True "$(json_get "$j" 'j["abi_match"]')" "abi_match"
	expect_eq "$(nproc --all)" "$(json_get "$j" 'j["module"]["rings"]')" "one ring per CPU"
}

t_pretty_json() {
	local out
	out=$($CTL -p version)
	expect_ge 10 "$(printf '%s\n' "$out" | wc -l)" "pretty JSON spans lines"
	json_get "$out" 'j["cli"]["version"]' >/dev/null
}

NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all"
# uid 65534 with CAP_PERFMON and nothing else
PERFMON="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"

# Versions are for everyone; probes, their filters and counters, and the
# events are not.
t_unprivileged_reads_versions_only() {
	local id
	$NOBODY $CTL version >/dev/null
	$NOBODY $CTL doctor >/dev/null || [ $? = 1 ]
	id=$($CTL probe add kprobe vfs_read --comm sshd --pid 1)
	expect_fail 4 "CAP_PERFMON or CAP_SYS_ADMIN.*EPERM" $NOBODY $CTL probe list
	expect_fail 4 "EPERM" $NOBODY $CTL -j probe list
	expect_fail 4 "EPERM" $NOBODY $CTL probe show "$id"
	expect_fail 4 "EPERM" $NOBODY $CTL stats
	expect_fail 4 "EPERM" $NOBODY $CTL monitor
	$PERFMON $CTL probe list | grep -q vfs_read ||
		fail "CAP_PERFMON cannot list probes"
	$CTL probe del "$id"
}

# CAP_PERFMON is enough for probes, not for the rings: they are memory
# on every CPU.
t_ring_changes_need_sys_admin() {
	local id
	id=$($PERFMON $CTL probe add kprobe vfs_read)
	$PERFMON $CTL probe del "$id"
	expect_fail 4 "needs CAP_SYS_ADMIN.*EPERM" $PERFMON $CTL ring set records 1048576
	expect_fail 4 "needs CAP_SYS_ADMIN.*EPERM" $PERFMON $CTL ring set mode overwrite
	expect_eq $RING_DEFAULT "$(json_get "$($CTL -j ring show)" 'j["records"]')" "rings unchanged"
}

# Even root cannot take more than the budget (a sixteenth of RAM) for
# rings, and what a resize takes is charged to the caller's memory cgroup and fails there,
# cleanly, without the OOM killer; the old rings stay.
t_ring_memory_bounded() {
	rings_allocate
	# 2 CPUs x 1M records x 256 bytes = 512 MiB of a 2 GiB guest
	expect_fail 1 "sixteenth of RAM.*E2BIG" $CTL ring set records 1048576
	cgroup_make rp-small 48M
	# 2 CPUs x 128K records x 256 bytes = 64 MiB > 48 MiB
	expect_fail 1 "not enough memory.*cgroup.*ENOMEM" \
		in_cgroup rp-small $CTL ring set records 131072
	rmdir $CGROOT/rp-small
	expect_eq $RING_DEFAULT "$(json_get "$($CTL -j ring show)" 'j["records"]')" "old rings kept"
	! dmesg | grep -Eq "invoked oom-killer|Out of memory" ||
		fail "the OOM killer ran: $(dmesg | grep -E 'oom' | head -3)"
	$CTL ring set records 4096
	$CTL ring set records $RING_DEFAULT
}

ring_bytes() { json_get "$($CTL -j ring show)" 'j["allocated_bytes"]'; }

# Memory follows use: insmod allocates no ring; the
# first probe does, at the size configured by then, charged to its
# adder's memory cgroup; a refused first allocation leaves no probe.
# What kretprobe instances pin (kernel memory, charged to no one):
# SUnreclaim (6.1's kmalloc'd instances) and vmalloc (6.12's objpools).
pinned_kb() {
	awk '/^(SUnreclaim|VmallocUsed):/ { kb += $2 } END { print kb }' /proc/meminfo
}

# System calls that return (kretprobes of the budget test): N-M of them.
syscalls() {
	awk '$3 ~ /^__x64_sys_/ && $3 !~ /exit|sigreturn|exec|clone|fork|ni_syscall|pause|vhangup|reboot/ { print $3 }' \
		/proc/kallsyms | sort -u | sed -n "$1p"
}

# A CAP_PERFMON caller adding kretprobes of 4096 instances each is
# refused at the budget all kretprobes share (1/16 of RAM: 126 MiB of
# the 2 GiB guest), before the kernel pins more (unbounded, 640 such
# probes would take 1.3 GB). 50 of them (1.2 MiB each on 6.12, 2 MiB on 6.1)
# fit; 60 more do not, and the batch adds none; the memory comes back
# with the probes.
t_kretprobe_instances_bounded() {
	local budget_kb before used_a out
	budget_kb=$(( $(awk '/^MemTotal:/ { print $2 }' /proc/meminfo) / 16 ))
	before=$(pinned_kb)
	$PERFMON $CTL probe add kretprobe $(syscalls 1,50) --maxactive 4096 --stack >/dev/null
	used_a=$(( $(pinned_kb) - before ))
	expect_ge $((50 * 1024)) "$used_a" "KiB pinned by 50 probes"
	[ $used_a -le $budget_kb ] ||
		fail "50 probes pin $used_a KiB, over the budget of $budget_kb KiB"
	out=$($PERFMON $CTL probe add kretprobe $(syscalls 51,110) --maxactive 4096 --stack 2>&1) &&
		fail "60 more were added: $(( $(pinned_kb) - before )) KiB pinned, the budget is $budget_kb KiB"
	expect_match "sixteenth of RAM.*E2BIG" "$out" "the refusal"
	expect_eq 50 "$(probe_count)" "probes after the refused batch"
	[ $(( $(pinned_kb) - before )) -le $((used_a + 4096)) ] ||
		fail "the refused batch kept memory: $(( $(pinned_kb) - before - used_a )) KiB"
	$CTL probe del all
	# (KASAN's quarantine holds freed objects back: on the debug kernels
	# the budget given back is what the add below checks)
	[ "$T_DEBUG_KERNEL" = 1 ] || [ $(( $(pinned_kb) - before )) -le 8192 ] ||
		fail "$(( $(pinned_kb) - before )) KiB still pinned after del all"
	$PERFMON $CTL probe add kretprobe $(syscalls 1,50) --maxactive 4096 --stack >/dev/null
	$CTL probe del all
}

t_rings_allocated_on_first_use() {
	local id cpus
	rmmod rawprobe
	insmod "$KO"
	expect_eq 0 "$(ring_bytes)" "ring memory after insmod"
	expect_eq $RING_DEFAULT "$(json_get "$($CTL -j ring show)" 'j["records"]')" \
		"default size before use"
	$CTL ring show | grep -q "not allocated yet" || fail "ring show: $($CTL ring show)"
	$CTL ring set records 256
	expect_eq 0 "$(ring_bytes)" "ring memory after a set before use"
	cpus=$(json_get "$($CTL -j ring show)" 'j["rings"]')
	id=$($CTL probe add kprobe vfs_read)
	expect_eq $((cpus * (256 * 256 + 4096))) "$(ring_bytes)" \
		"ring memory after the first probe"
	$CTL probe del "$id"
	expect_eq $((cpus * (256 * 256 + 4096))) "$(ring_bytes)" \
		"ring memory kept after the last probe"
	expect_fail 1 "ENOENT" $CTL probe add kprobe rp_no_such_function
	expect_eq $((cpus * (256 * 256 + 4096))) "$(ring_bytes)" \
		"ring memory kept after a refused add that did not allocate it"

	# A refused first add gives back what it allocated: a typo, a
	# blacklisted function, a duplicate in the batch.
	rmmod rawprobe
	insmod "$KO"
	expect_fail 1 "ENOENT" $CTL probe add kprobe rp_no_such_function
	expect_eq 0 "$(ring_bytes)" "ring memory after a refused first add"
	expect_fail 1 "blacklisted.*EINVAL" $CTL probe add kprobe rawprobe:rp_kprobe_pre
	expect_eq 0 "$(ring_bytes)" "ring memory after a blacklisted first add"
	printf 'vfs_read\nvfs_read\n' > $T_SCRATCH/dup-batch
	expect_fail 1 "identical probe.*EEXIST" $CTL probe add kprobe - < $T_SCRATCH/dup-batch
	expect_eq 0 "$(ring_bytes)" "ring memory after a refused first batch"
	expect_eq 0 "$(probe_count)" "probes after the refused first adds"
	# the next reader and the next add allocate them again
	$CTL stream -d 0.1 > /dev/null || fail "stream after the refused adds"
	[ "$(ring_bytes)" -gt 0 ] || fail "no rings after a reader mapped them"
	id=$($CTL probe add kprobe vfs_read)
	$CTL probe del "$id"

	rmmod rawprobe
	insmod "$KO"
	# 2 CPUs x 128K records x 256 bytes = 64 MiB > 48 MiB
	$CTL ring set records 131072
	cgroup_make rp-first 48M
	expect_fail 1 "could not allocate the record rings.*ENOMEM" \
		in_cgroup rp-first $CTL probe add kprobe vfs_read
	rmdir $CGROOT/rp-first
	expect_eq 0 "$(probe_count)" "probes after a refused first allocation"
	expect_eq 0 "$(ring_bytes)" "ring memory after a refused first allocation"
	rmmod rawprobe
	insmod "$KO"
}

t_unprivileged_cannot_mutate() {
	local nobody=$NOBODY
	local id
	id=$($CTL probe add kprobe vfs_read)
	expect_fail 4 "CAP_PERFMON or CAP_SYS_ADMIN.*EPERM" $nobody $CTL probe add kprobe vfs_write
	expect_fail 4 "EPERM" $nobody $CTL probe del "$id"
	expect_fail 4 "EPERM" $nobody $CTL probe del all
	expect_fail 4 "EPERM" $nobody $CTL probe disable "$id"
	expect_fail 4 "EPERM" $nobody $CTL probe enable "$id"
	expect_fail 4 "EPERM" $nobody $CTL probe reset all
	expect_fail 4 "EPERM" $nobody $CTL ring set records 128
	expect_eq 1 "$(probe_count)" "the probe survived"
	$CTL probe del "$id"
	expect_eq 0 "$(probe_count)" "probes after del"
}

t_device_needs_root() {
	expect_fail 4 "Permission denied" setpriv --reuid=65534 --regid=65534 \
		--clear-groups --inh-caps=-all $CTL stream -d 0.1
}

t_cli_usage_errors() {
	expect_fail 2 "unknown command" $CTL probe frobnicate
	expect_fail 2 "ambiguous" $CTL probe d 1
	expect_fail 2 "unknown probe kind" $CTL probe add uprobe vfs_read
	expect_fail 2 "not a probe id" $CTL probe del 12x
	expect_fail 2 "maxactive must be" $CTL probe add kretprobe vfs_read -m 0
	expect_fail 2 "bad --args" $CTL probe add kprobe vfs_read --args 7
	expect_fail 2 "bad --args" $CTL probe add kprobe vfs_read --args s32,bogus
	$CTL probe help >/dev/null
	$CTL probe add --help | grep -q "maxactive"
	$CTL stream --help | grep -q "duration"
}

t_prefixes() {
	$CTL pro li >/dev/null
	$CTL ver >/dev/null
}

t_ring_show_set() {
	local j
	j=$($CTL -j ring show)
	expect_eq $RING_DEFAULT "$(json_get "$j" 'j["records"]')" "default ring size"
	$CTL ring set records 256 mode overwrite
	j=$($CTL -j ring show)
	expect_eq 256 "$(json_get "$j" 'j["records"]')" "resized"
	expect_eq overwrite "$(json_get "$j" 'j["mode"]')" "mode"
	expect_fail 2 "power of two" $CTL ring set records 100
	$CTL ring set records $RING_DEFAULT mode discard
}

t_module_params() {
	rmmod rawprobe
	expect_fail 1 "Invalid parameters" insmod "$KO" ring_records=100
	[ ! -e /dev/rawprobe ] || fail "device left by a failed load"
	insmod "$KO" ring_records=128 ring_mode=1
	expect_eq 128 "$(json_get "$($CTL -j ring show)" 'j["records"]')" "ring_records param"
	rmmod rawprobe
	insmod "$KO"
}

t_no_module() {
	rmmod rawprobe
	expect_fail 3 "module is not loaded" $CTL version
	expect_fail 3 "module is not loaded" $CTL probe list
	insmod "$KO"
}

tests t_device t_version t_pretty_json t_unprivileged_reads_versions_only \
	t_ring_changes_need_sys_admin t_ring_memory_bounded t_kretprobe_instances_bounded \
	t_rings_allocated_on_first_use \
	t_unprivileged_cannot_mutate t_device_needs_root t_cli_usage_errors \
	t_prefixes t_ring_show_set t_module_params t_no_module
