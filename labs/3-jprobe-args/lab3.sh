# SPDX-License-Identifier: GPL-2.0
#
# Lab 3: jprobe-style arguments and in-kernel filters. Each function
# traces openat() for $DURATION seconds while `make lab-check N=3` runs a
# workload, and writes the records as JSON lines to the file it is given;
# the check reads them and the probe's counters.
#
#   int openat(int dirfd, const char *pathname, int flags, mode_t mode);
#
# Its x86-64 entry point is __x64_sys_openat; rawprobectl reads a system
# call's arguments from the pt_regs that entry point is passed.

DURATION=${DURATION:-6}

# Exercise 1: every openat() with its directory fd, file name and flags.
# A trace's probe belongs to the command: it goes when the trace ends.
trace_open() {
	# TODO 1: the probe: KIND:TARGET and its argument types (--args)
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		-d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: the same, but only the calls of commands named $2, the
# others dropped in the kernel, before a record is written.
trace_comm() {
	# TODO 2: an in-kernel filter on the command name
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--comm "$2" -d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 3: the same, but only the calls of process $2 (all its
# threads), filtered in the kernel.
trace_process() {
	# TODO 3: a process is a thread group: its id is the tgid
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--tgid "$2" -d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 4: the same, but only the calls that may create a file:
# O_CREAT (0x40) among the flags, whatever else is there. Filtered in
# the kernel; the Steps do not show how.
trace_creates() {
	# TODO 4: rawprobectl probe add --help: --filter, and its operators
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--filter 'arg2 & 0x40' -d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 5: the same, but only the calls that open the file named $2,
# compared as a string in the kernel: the other calls make no record.
trace_file() {
	# TODO 5: a --filter on the file name argument, a string constant
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--filter "filename == \"$2\"" -d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 6: the same, but only the calls of the tasks in the cgroup v2
# $2 (a directory under /sys/fs/cgroup) and in the cgroups below it, as
# a container's or a systemd service's tasks are.
trace_cgroup() {
	# TODO 6: rawprobectl probe add --help: a task filter of its own
	# BEGIN SOLUTION
	rawprobectl trace jprobe:__x64_sys_openat --args s32,ustr,u32 \
		--cgroup "$2" -d "$DURATION" -f json -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
