# SPDX-License-Identifier: GPL-2.0
#
# Lab 1: your first kprobe. One function per exercise; `make lab-check
# N=1` runs each in the guest and looks at what the kernel did. Try them
# by hand in `make lab N=1`: . ./lab1.sh; add_probe
#
# Runs as root in the guest: rawprobectl is on PATH, the workload is
# $GETPGID_LOOP (build/tools/getpgid_loop: "getpgid_loop -w 0 N" makes N
# getpgid() calls; "getpgid_loop -b 5 N" prints the median ns per call).

# Exercise 1: add a persistent kprobe on the entry of the getpgid()
# system call and print its id (only the id).
add_probe() {
	# TODO 1: on x86-64 the system call's entry point is __x64_sys_getpgid
	# BEGIN SOLUTION
	rawprobectl probe add kprobe __x64_sys_getpgid
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: print how many times probe $1 has fired, a number alone.
hits() {
	# TODO 2: rawprobectl -j probe show ID prints the probe's counters
	# BEGIN SOLUTION
	rawprobectl -j probe show "$1" | grep -o '"hits":[0-9]*' | cut -d: -f2
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 3: the same probe through ftrace. ftrace_add defines a kprobe
# event lab1/getpgid on the same function and enables it; ftrace_hits
# prints its hit count.
ftrace_add() {
	# TODO 3: write the definition to /sys/kernel/tracing/kprobe_events,
	# then 1 to the event's enable file
	# BEGIN SOLUTION
	echo 'p:lab1/getpgid __x64_sys_getpgid' >> /sys/kernel/tracing/kprobe_events
	echo 1 > /sys/kernel/tracing/events/lab1/getpgid/enable
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

ftrace_hits() {
	# TODO 4: /sys/kernel/tracing/kprobe_profile: event, hits, misses
	# BEGIN SOLUTION
	awk '$1 == "getpgid" || $1 == "lab1/getpgid" { print $2 }' \
		/sys/kernel/tracing/kprobe_profile
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 4: how is the probe at $1 (as /sys/kernel/debug/kprobes/list
# spells it, e.g. __x64_sys_getpgid+0x0) armed? Print one word: ftrace
# (a call from the function's ftrace site), optimized (a jump) or int3
# (a breakpoint).
landed() {
	# TODO 5: find the line of $1 in the list and read its flags
	# BEGIN SOLUTION
	awk -v t="$1" '$3 == t {
		if (/\[FTRACE\]/) print "ftrace"
		else if (/\[OPTIMIZED\]/) print "optimized"
		else print "int3"
		exit }' /sys/kernel/debug/kprobes/list
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 5: what does each cost? Print two lines, "ftrace NS" and
# "int3 NS": the median ns per getpgid() call (getpgid_loop -b 5 100000)
# with a kprobe on the function's entry, then with one at an offset into
# it armed as a breakpoint, each alone. Leave no probe behind and the
# kprobe optimizer as you found it (sysctl debug.kprobes-optimization).
# The check looks at the probes while each $GETPGID_LOOP runs: measure
# with it.
cost() {
	# TODO 6: find an offset that kprobes accepts (rawprobectl says when
	# one is not an instruction boundary), make sure it is not optimized
	# BEGIN SOLUTION
	local id off ns was
	was=$(sysctl -n debug.kprobes-optimization)
	id=$(rawprobectl probe add kprobe __x64_sys_getpgid) || return 1
	ns=$($GETPGID_LOOP -b 5 100000 | cut -d' ' -f1)
	rawprobectl probe del "$id"
	echo "ftrace $ns"
	sysctl -qw debug.kprobes-optimization=0
	# the first offset that is a breakpoint: with IBT (6.12) the entry's
	# ftrace site is at +0x4, after an endbr64
	for off in $(seq 1 16); do
		id=$(rawprobectl probe add kprobe "__x64_sys_getpgid+$off" 2>/dev/null) ||
			continue
		[ "$(landed "__x64_sys_getpgid+$(printf '%#x' "$off")")" = int3 ] &&
			break
		rawprobectl probe del "$id"
	done
	ns=$($GETPGID_LOOP -b 5 100000 | cut -d' ' -f1)
	rawprobectl probe del "$id"
	sysctl -qw debug.kprobes-optimization="$was"
	echo "int3 $ns"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 6: add a persistent kprobe on the entry of getpgid() that
# records only the calls of the command named $1: the kernel leaves the
# others out, before a record is written. Print its id.
add_mine() {
	# TODO 7: the Steps do not show it: rawprobectl probe add --help
	# BEGIN SOLUTION
	rawprobectl probe add kprobe __x64_sys_getpgid --comm "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
