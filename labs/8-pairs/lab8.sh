# SPDX-License-Identifier: GPL-2.0
#
# Lab 8: pairs, the time between two probes. Each function measures for
# $DURATION seconds while `make lab-check N=8` runs the workload; the
# check reads what it wrote.

DURATION=${DURATION:-6}

# Exercise 1: how long the command named $1 sleeps: from its
# clock_nanosleep(2) system call to the wakeup of its task, as JSON (-j)
# histograms into $2. The start runs in the sleeper, the end in whoever
# wakes it (a timer interrupt): each side names the task its own way.
sleeps() {
	# TODO 1: rawprobectl latency, from the system call's entry to
	# try_to_wake_up(p, ...), keyed by the sleeper's pid on both sides
	# BEGIN SOLUTION
	rawprobectl -j latency --comm "$1" \
		--from kprobe:__x64_sys_clock_nanosleep --from-key pid \
		--to kprobe:try_to_wake_up --to-key 'p->pid' \
		-d "$DURATION" -o "$2"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: biolatency. Every block request from its issue
# (blk_mq_start_request) to its completion (blk_mq_end_request), keyed
# by the request, as JSON (-j) histograms into $1.
block_latency() {
	# TODO 2: the same request is the first argument of both
	# BEGIN SOLUTION
	rawprobectl -j latency --key rq \
		--from kprobe:blk_mq_start_request \
		--to kprobe:blk_mq_end_request -d "$DURATION" -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 3: tcplife's lifetime column. A TCP session from its connect
# (tcp_v4_connect) to the moment its socket's state becomes TCP_CLOSE
# (tcp_set_state(sk, 7)), keyed by the socket, in linear buckets of
# 100 ms, as JSON (-j) histograms into $1.
tcp_lifetimes() {
	# TODO 3: an end only when the new state is TCP_CLOSE: --filter
	# BEGIN SOLUTION
	rawprobectl -j latency --key sk --linear 100000000 \
		--from kprobe:tcp_v4_connect \
		--to kprobe:tcp_set_state --filter 'state == 7' \
		-d "$DURATION" -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
