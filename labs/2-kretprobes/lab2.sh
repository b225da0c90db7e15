# SPDX-License-Identifier: GPL-2.0
#
# Lab 2: kretprobes and maxactive. One function per exercise; `make
# lab-check N=2` runs each in the guest and looks at the probe's counters.
# Try them by hand in `make lab N=2`: . ./lab2.sh; sleepers 8 1
#
# The workload sleeps in hrtimer_nanosleep(): every sleep(1) command
# spends its second inside that function, so N sleepers started
# together are N calls in flight at once.

# sleepers N SECS: N sleep commands at once; returns when all are done.
sleepers() {
	local i pids=()
	for i in $(seq "$1"); do
		sleep "$2" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# Exercise 1: add a persistent kretprobe on hrtimer_nanosleep that can
# follow one call at a time, and print its id.
add_one() {
	# TODO 1: rawprobectl probe add kretprobe ... (see --help for the pool size)
	# BEGIN SOLUTION
	rawprobectl probe add kretprobe hrtimer_nanosleep --maxactive 1
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: add a persistent kretprobe on hrtimer_nanosleep that sees
# every one of $1 sleepers started together, and print its id.
add_enough() {
	# TODO 2: how many instances do $1 calls in flight need?
	# BEGIN SOLUTION
	rawprobectl probe add kretprobe hrtimer_nanosleep --maxactive "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 3: print the number of instances the kernel gives a kretprobe
# when none is asked for (a number alone), and leave no probe behind.
default_maxactive() {
	# TODO 3: add one without --maxactive and read what probe show reports
	# BEGIN SOLUTION
	local id
	id=$(rawprobectl probe add kretprobe hrtimer_nanosleep) || return 1
	rawprobectl -j probe show "$id" | grep -o '"maxactive":[0-9]*' | cut -d: -f2
	rawprobectl probe del "$id"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 4: add a persistent kretprobe on hrtimer_nanosleep that
# records only the sleeps that did not end as asked (a signal cut them
# short), the others dropped in the kernel, and print its id.
add_cut_short() {
	# TODO 4: what does hrtimer_nanosleep return then? rawprobectl probe
	# add --help: a filter on the return value
	# BEGIN SOLUTION
	rawprobectl probe add kretprobe hrtimer_nanosleep --filter 'retval < 0'
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
