# SPDX-License-Identifier: GPL-2.0
#
# Lab 7: counting in the kernel. Each function counts for $DURATION
# seconds while `make lab-check N=7` makes the calls; the check reads
# what it wrote.

DURATION=${DURATION:-6}

# Exercise 1: how often each command calls getpgid(2), counted in the
# kernel (no record per call), as JSON (-j) into $1.
calls_by_comm() {
	# TODO 1: rawprobectl count, on the system call's entry, by command
	# BEGIN SOLUTION
	rawprobectl -j count kprobe:__x64_sys_getpgid --by comm \
		-d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 2: a probe needs a name the running kernel has, and kernels
# differ. Print the first of the functions named in the arguments that
# this kernel has, a whole name (/proc/kallsyms lists them: address,
# type, name, [module]); nothing if it has none.
first_present() {
	# TODO 2: look each name up in /proc/kallsyms, in order
	# BEGIN SOLUTION
	local f
	for f in "$@"; do
		if awk -v f="$f" '$3 == f { found = 1; exit } END { exit !found }' /proc/kallsyms; then
			echo "$f"
			return 0
		fi
	done
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# The kernel function that frees a dropped packet, with its reason: on
# 6.1 kfree_skb_reason(); on 6.12 that is an inline wrapper around
# sk_skb_reason_drop(), so there is no kfree_skb_reason to probe.
drop_function() {
	first_present sk_skb_reason_drop kfree_skb_reason
}

# Exercise 3: dropwatch's question, where are packets dropped: the drops
# counted by the function that dropped them (its caller), JSON into $1.
drops_by_caller() {
	# TODO 3: count the drop function's calls by their caller
	# BEGIN SOLUTION
	rawprobectl -j count "kprobe:$(drop_function)" --by caller \
		-d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 4: vfs_read()'s calls by kernel stack, as folded stacks
# ("root;...;vfs_read COUNT" lines, what flamegraph.pl reads) into $1.
read_stacks() {
	# TODO 4: count by stack; the text output is folded already
	# BEGIN SOLUTION
	rawprobectl count kprobe:vfs_read --by stack -d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}

# Exercise 5: how many bytes vfs_read() gave each command, in all: the
# sum of its return values per command, counted in the kernel (no record
# per call), as JSON (-j) into $1.
read_bytes() {
	# TODO 5: rawprobectl count --help: a value summed per key
	# BEGIN SOLUTION
	rawprobectl -j count kretprobe:vfs_read --by comm --sum retval \
		-d "$DURATION" > "$1"
	# END SOLUTION
	# SKELETON: return 1	# not written yet: replace this line
}
