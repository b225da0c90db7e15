# SPDX-License-Identifier: GPL-2.0
#
# Lab 3's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab3.sh
export DURATION=5
D=/tmp/lab3
FLAGS=$((0x441))	# O_WRONLY | O_CREAT | O_APPEND: bash's ">>"
mkdir -p $D
cp /bin/busybox $D/busybox-lab3

# The filtered count of the trace's probe (nothing once it is gone).
openat_filtered() {
	local id
	id=$($CTL -j probe list | grep -o '"id":[0-9]*,"kind":"[a-z]*","target":"__x64_sys_openat"' |
		head -1 | cut -d: -f2 | cut -d, -f1)
	[ -n "$id" ] && stat_of "$id" filtered
}

# finish: wait for the trace to end; FILTERED: its probe's filtered count
# just before (or as last seen, if the trace ended first).
finish() {
	FILTERED=$(openat_filtered) || FILTERED=${FILTERED_SEEN:-0}
	wait $STUDENT_PID || hint "the trace failed (exit status $?)"
	[ -s "$1" ] || hint "the trace wrote no record to the file it was given"
}

has_open() {	# FILE PATH COMM: records of COMM opening PATH
	count_records "$1" "r.get('str') == '$2' and r['comm'] == '$3'"
}

ex_open() {
	local f=$D/appended n
	student_bg __x64_sys_openat trace_open $S/open.json
	bash -c "echo x >> $f"
	finish $S/open.json
	n=$(count_records $S/open.json "r.get('str') == '$f'")
	[ "$n" -ge 1 ] || hint "no record carries the file name '$f': capture the user string argument"
	n=$(count_records $S/open.json "r.get('str') == '$f' and len(r['args']) >= 3 and r['args'][0] % 2**32 == 2**32 - 100")
	[ "$n" -ge 1 ] || hint "the records of '$f' do not start with the directory fd AT_FDCWD (-100)"
	n=$(count_records $S/open.json "r.get('str') == '$f' and len(r['args']) >= 3 and r['args'][2] == $FLAGS")
	[ "$n" -ge 1 ] || hint "the records of '$f' lack its flags, $FLAGS (O_WRONLY|O_CREAT|O_APPEND), as the third argument"
}

ex_comm() {
	local n others
	echo data > $D/mine; echo data > $D/theirs
	student_bg __x64_sys_openat trace_comm $S/comm.json busybox-lab3
	$D/busybox-lab3 cat $D/mine >/dev/null
	cat $D/theirs >/dev/null
	finish $S/comm.json
	n=$(has_open $S/comm.json $D/mine busybox-lab3)
	[ "$n" -ge 1 ] || hint "no record of busybox-lab3 opening $D/mine"
	others=$(count_records $S/comm.json "r['comm'] != 'busybox-lab3'")
	[ "$others" = 0 ] || hint "$others records of other commands"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel: the other commands' calls were dropped later, or not at all"
}

ex_process() {
	local n others bg1 bg2
	echo data > $D/one
	# two processes of one name, each opening the file itself (a
	# builtin's redirection opens in the shell's own process)
	bash -c "while :; do read -r x < $D/one; sleep 0.3; done" &
	bg1=$!
	bash -c "while :; do read -r x < $D/one; sleep 0.3; done" &
	bg2=$!
	student_bg __x64_sys_openat trace_process $S/proc.json $bg1
	# until the kernel has filtered a call (the other process reads every
	# 0.3 s), not a fixed time: a loaded host can take the trace's whole
	# duration to get there
	wait_for 'FILTERED_SEEN=$(openat_filtered) && [ "$FILTERED_SEEN" -ge 1 ]' 50 || true
	finish $S/proc.json
	n=$(count_records $S/proc.json "r['tgid'] == $bg1 and r.get('str') == '$D/one'")
	[ "$n" -ge 1 ] || hint "no record of process $bg1 opening $D/one"
	others=$(count_records $S/proc.json "r['tgid'] != $bg1")
	[ "$others" = 0 ] || hint "$others records of other processes"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel"
}

exercise "trace_open records openat's file name, directory fd and flags" ex_open
exercise "trace_comm keeps one command's calls, filtered in the kernel" ex_comm
exercise "trace_process keeps one process's calls, filtered in the kernel" ex_process
