# SPDX-License-Identifier: GPL-2.0
# In-kernel filters beyond 40-cli's comm and pid: cpu, kretprobes (the
# filter runs at entry), identity with filters, bad values. Filters run
# in the handler before a hit is counted, so hits = records + lost_ring
# stays exact and the rejected hits are counted apart.

S=$T_SCRATCH

# getpgid_as COMM N [CPU]: N getpgid calls from a process named COMM.
getpgid_as() {
	cp "$(command -v python3)" "$S/$1" 2>/dev/null || true
	${3:+taskset -c $3} "$S/$1" -c "import os
for i in range($2): os.getpgid(0)"
}

stats_of() {	# ID KEY
	json_get "$($CTL -j probe show "$1")" "j['stats']['$2']"
}

t_cpu_filter() {
	local id
	id=$($CTL probe add kprobe __x64_sys_getpgid --cpu 1)
	getpgid_as rp-cpu0 25 0
	getpgid_as rp-cpu1 15 1
	expect_eq 15 "$(stats_of $id records)" "records: only CPU 1's calls"
	expect_ge 25 "$(stats_of $id filtered)" "filtered: CPU 0's"
}

t_pid_filter_kretprobe() {
	local id
	# the filter runs at entry: rejected calls take no instance
	id=$($CTL probe add kretprobe __x64_sys_getpgid --tgid 1)
	getpgid_as rp-notinit 10
	expect_eq 0 "$(stats_of $id records)" "no records from other processes"
	expect_ge 10 "$(stats_of $id filtered)" "counted as filtered"
	expect_eq "$(stats_of $id hits)" "$(stats_of $id filtered)" "hits, every one filtered"
	expect_eq 0 "$(stats_of $id missed_maxactive)" "no instance misses"
}

t_same_target_other_filter() {
	$CTL probe add kprobe __x64_sys_getpgid --comm a >/dev/null
	$CTL probe add kprobe __x64_sys_getpgid --comm b >/dev/null
	expect_fail 1 "identical probe" $CTL probe add kprobe __x64_sys_getpgid --comm b
}

t_bad_filters() {
	expect_fail 1 "no such CPU" $CTL probe add kprobe __x64_sys_getpgid --cpu 4095
	expect_eq 0 "$(probe_count)" "nothing left behind"
}

tests t_cpu_filter t_pid_filter_kretprobe \
	t_same_target_other_filter t_bad_filters
