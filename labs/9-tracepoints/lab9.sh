# SPDX-License-Identifier: GPL-2.0
#
# Lab 9: tracepoints. Each function traces or counts for $DURATION
# seconds while `make lab-check N=9` runs the workload; the check reads
# what it wrote. (Exercises 3 and 4 are lab9_exec.c, a module.)

DURATION=${DURATION:-6}

# Exercise 1: how many programs each command starts. Count the
# scheduler's sched_process_exec event (one per successful execve), by
# the command's name, as JSON (-j) into $1.
execs_by_comm() {
	# TODO 1: rawprobectl count on the event, by comm
	# BEGIN SOLUTION
	rawprobectl -j count tracepoint:sched:sched_process_exec --by comm \
		-d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: who hands the CPU to whom. A record per context switch
# away from the command named $1 (sched:sched_switch, filtered to it),
# its two arguments the pid of the task switched out and the pid of the
# task switched in, by name, as JSON (-j) records into $2.
switches() {
	# TODO 2: rawprobectl trace on the event, --args by name (the
	# event's arguments are in `rawprobectl btf show`)
	# BEGIN SOLUTION
	rawprobectl -j trace tracepoint:sched:sched_switch \
		--args 'prev->pid,next->pid' --comm "$1" \
		-d "$DURATION" -o "$2"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
