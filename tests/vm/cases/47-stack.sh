# SPDX-License-Identifier: GPL-2.0
# Kernel stacks: where vfs_read was called from, as
# rawprobe records and symbolizes it, against ftrace's stacktrace trigger
# on the same calls; folded stacks for flame graphs; a kretprobe's stack
# (taken at entry).

S=$T_SCRATCH

# The function names of a stack, one per line, offsets dropped.
names() {
	sed -E 's/^[[:space:]]*(=> )?//; s/[+].*//; s/ .*//' | grep -v '^$'
}

t_stack_matches_ftrace() {
	ftrace_add vfs_read 'vfs_read'
	echo stacktrace > $TRACING/events/rp_test/vfs_read/trigger
	bg_start $S/stack.json -j trace kprobe:vfs_read --stack --comm dd -d 60
	dd if=/etc/hostname of=/dev/null bs=1 count=1 2>/dev/null
	bg_stop INT
	echo '!stacktrace' > $TRACING/events/rp_test/vfs_read/trigger
	echo 0 > $TRACING/events/rp_test/vfs_read/enable
	cp $TRACING/trace $S/ftrace.txt
	ftrace_del
	# rawprobe: the first dd read's stack
	json_get "$(grep -m1 '"comm":"dd"' $S/stack.json)" '"\n".join(j["stack"])' | names > $S/rp.names
	expect_eq ksys_read "$(head -1 $S/rp.names)" "vfs_read's caller"
	grep -qx do_syscall_64 $S/rp.names || fail "no do_syscall_64 in $(paste -sd' ' $S/rp.names)"
	# ftrace: the stack after dd's first event, from the caller on
	awk '/ dd-[0-9]+ .* vfs_read: / && !seen { seen = 1; next }
	     seen && /=>/ { print; next } seen && n++ { exit }' $S/ftrace.txt |
		names | sed -n '/^ksys_read$/,$p' > $S/ft.names
	expect_ge 2 "$(wc -l < $S/ft.names)" "ftrace's stack from ksys_read on: $(head -12 $S/ftrace.txt)"
	cmp -s $S/rp.names <(head -n "$(wc -l < $S/rp.names)" $S/ft.names) ||
		fail "stacks differ: rawprobe $(paste -sd' ' $S/rp.names), ftrace $(paste -sd' ' $S/ft.names)"
}

# Text shows one frame per line under the record; folded is one line per
# stack, root first, the probed function last, for flamegraph.pl.
t_stack_text_and_folded() {
	bg_start $S/stack.txt trace kprobe:vfs_read --stack --comm dd -d 60
	dd if=/etc/hostname of=/dev/null bs=1 count=1 2>/dev/null
	bg_stop INT
	grep -A1 -m1 ' dd .*kprobe:vfs_read' $S/stack.txt | tail -1 | grep -qE '^[[:space:]]+ksys_read\+0x[0-9a-f]+$' ||
		fail "text: $(head -5 $S/stack.txt)"
	bg_start $S/folded.txt stream -e kprobe:vfs_read --stack --comm dd -f folded -d 60
	dd if=/etc/hostname of=/dev/null bs=1 count=1 2>/dev/null
	bg_stop INT
	grep -m1 -qE '^dd;(.+;)?do_syscall_64;(.+;)?ksys_read;vfs_read [0-9]+$' $S/folded.txt ||
		fail "folded: $(head -3 $S/folded.txt)"
}

# A kretprobe records the stack its function was entered with.
t_stack_kretprobe() {
	bg_start $S/ret.json -j trace kretprobe:vfs_read --stack --comm dd -d 60
	dd if=/etc/hostname of=/dev/null bs=1 count=1 2>/dev/null
	bg_stop INT
	expect_eq ksys_read "$(json_get "$(grep -m1 '"comm":"dd"' $S/ret.json)" 'j["stack"][0]' | names)" \
		"the caller, at return"
}

tests t_stack_matches_ftrace t_stack_text_and_folded t_stack_kretprobe
