# SPDX-License-Identifier: GPL-2.0
#
# Lab 6: latency, from a kretprobe to a histogram and a Perfetto trace.
# The first two functions record for $DURATION seconds while `make
# lab-check N=6` runs dd; the check reads what they wrote.

DURATION=${DURATION:-6}

# Exercise 1: a log2 histogram of vfs_read()'s latency, one per command
# name, written to $1 as rawprobectl prints it.
hist_reads() {
	# TODO 1: rawprobectl hist, with a kretprobe of its own
	# BEGIN SOLUTION
	rawprobectl hist kretprobe:vfs_read --by comm -d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: the calls of vfs_read() made by dd, as a Perfetto trace in
# $1: each call a slice from its entry to its return.
perfetto_reads() {
	# TODO 2: trace them, only dd's (in the kernel), in the perfetto format
	# BEGIN SOLUTION
	rawprobectl trace kretprobe:vfs_read --comm dd -d "$DURATION" \
		-f perfetto -o "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 4: how long the command $2's sleeps take, to 10 ms: a
# histogram of hrtimer_nanosleep()'s latency, only $2's calls (filtered
# in the kernel), in linear buckets 10 ms wide, written to $1 as
# rawprobectl prints it.
hist_sleeps() {
	# TODO 4: rawprobectl hist --help: the buckets' width, and its unit
	# BEGIN SOLUTION
	rawprobectl hist kretprobe:hrtimer_nanosleep --comm "$2" \
		--linear 10000000 -d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 3: read a Perfetto trace ($1): print "NS COMM" for its longest
# slice, its duration in nanoseconds (an integer) and its thread's name.
# (Open the same file in ui.perfetto.dev and find that slice.)
slowest() {
	# TODO 3: ts and dur are in microseconds; thread names are "M"
	# (metadata) events that name a tid
	# BEGIN SOLUTION
	python3 - "$1" <<'EOF'
import json
import sys

ev = json.load(open(sys.argv[1]))["traceEvents"]
names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M"}
top = max((e for e in ev if e["ph"] == "X"), key=lambda e: e["dur"])
print(round(top["dur"] * 1000), names.get(top["tid"], "?"))
EOF
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
