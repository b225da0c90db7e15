# SPDX-License-Identifier: GPL-2.0
#
# Lab 3's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab3.sh
export DURATION=5
D=/tmp/lab3
CGROOT=/sys/fs/cgroup
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
	recs "$1" "r.get('str') == '$2' and r['comm'] == '$3'"
}

lab_cleanup() {
	rm -f $D/created $D/appended2
	rmdir $CGROOT/lab3/web $CGROOT/lab3 $CGROOT/lab3other 2>/dev/null
}

ex_open() {
	local f=$D/appended n
	student_bg __x64_sys_openat trace_open $S/open.json
	bash -c "echo x >> $f"
	finish $S/open.json
	n=$(recs $S/open.json "r.get('str') == '$f'")
	[ "$n" -ge 1 ] || hint "no record carries the file name '$f': capture the user string argument"
	n=$(recs $S/open.json "r.get('str') == '$f' and len(r['args']) >= 3 and r['args'][0] % 2**32 == 2**32 - 100")
	[ "$n" -ge 1 ] || hint "the records of '$f' do not start with the directory fd AT_FDCWD (-100)"
	n=$(recs $S/open.json "r.get('str') == '$f' and len(r['args']) >= 3 and r['args'][2] == $FLAGS")
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
	others=$(recs $S/comm.json "r['comm'] != 'busybox-lab3'")
	[ "$others" = 0 ] || hint "$others records of other commands"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel: the other commands' calls were dropped later, or not at all"
}

# workers: in the background, a process of three threads, each opening
# $D/one every 0.3 s (a job of the exercise: it ends with it)
workers() {
	python3 -c "
import threading, time
def loop():
    while True:
        open('$D/one').close()
        time.sleep(0.3)
for i in range(2):
    threading.Thread(target=loop, daemon=True).start()
loop()" &
}

ex_process() {
	local n others bg1 bg2 threads
	echo data > $D/one
	# two processes of one command, each of three threads
	workers
	bg1=$!
	workers
	bg2=$!
	student_bg __x64_sys_openat trace_process $S/proc.json $bg1
	# until the kernel has filtered a call (the other process opens
	# every 0.3 s), not a fixed time: a loaded host can take the trace's
	# whole duration to get there
	wait_for 'FILTERED_SEEN=$(openat_filtered) && [ "$FILTERED_SEEN" -ge 1 ]' 50 || true
	finish $S/proc.json
	n=$(recs $S/proc.json "r['tgid'] == $bg1 and r.get('str') == '$D/one'")
	[ "$n" -ge 1 ] || hint "no record of process $bg1 opening $D/one"
	threads=$(python3 -c "
import json
print(len({r['pid'] for r in map(json.loads, open('$S/proc.json'))
           if r.get('tgid') == $bg1 and r.get('str') == '$D/one'}))")
	[ "$threads" -ge 3 ] ||
		hint "records of $threads of process $bg1's 3 threads (its pids are $(ls /proc/$bg1/task | tr '\n' ' ')): a process is all its threads"
	others=$(recs $S/proc.json "r['tgid'] != $bg1")
	[ "$others" = 0 ] || hint "$others records of other processes"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel"
}

# Only the calls that may create a file: O_CREAT (0x40) in the flags,
# whatever else is there, tested in the kernel.
ex_creates() {
	local n
	echo data > $D/mine
	student_bg __x64_sys_openat trace_creates $S/creat.json
	bash -c ": > $D/created; echo x >> $D/appended2; cat $D/mine > /dev/null"
	$D/busybox-lab3 cat $D/mine > /dev/null
	finish $S/creat.json
	n=$(recs $S/creat.json "r.get('str') == '$D/created'")
	[ "$n" -ge 1 ] || hint "no record of bash's ': > $D/created' (O_WRONLY|O_CREAT|O_TRUNC)"
	n=$(recs $S/creat.json "r.get('str') == '$D/appended2'")
	[ "$n" -ge 1 ] || hint "no record of bash's 'echo x >> $D/appended2' (O_WRONLY|O_CREAT|O_APPEND)"
	n=$(recs $S/creat.json "r.get('str') == '$D/mine'")
	[ "$n" = 0 ] || hint "$n records of $D/mine opened for reading, without O_CREAT"
	n=$(recs $S/creat.json "len(r['args']) < 3 or not r['args'][2] & 0x40")
	[ "$n" = 0 ] || hint "$n records whose flags (the third argument) lack O_CREAT"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel: the other calls were dropped later, or not at all"
}

# Only the calls that open one file, its name compared in the kernel.
ex_file() {
	local f=$D/wanted n
	echo data > $f; echo data > $D/unwanted
	student_bg __x64_sys_openat trace_file $S/file.json $f
	bash -c "cat $f $D/unwanted $f > /dev/null"
	$D/busybox-lab3 cat $f $D/wanted2 > /dev/null 2>&1 || true
	finish $S/file.json
	n=$(recs $S/file.json "r.get('str') == '$f'")
	[ "$n" -ge 3 ] || hint "$n records of '$f' (cat opened it twice, busybox-lab3 once)"
	n=$(recs $S/file.json "r.get('str') != '$f'")
	[ "$n" = 0 ] || hint "$n records of other files: the name must equal '$f', not begin with it"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel: the other files' calls were dropped later, or not at all"
}

# opener CGROUP FILE: a process in CGROUP (under $CGROOT) opens FILE
# every 0.2 s for 8 s (the trace takes 5); its pid joins OPENERS.
opener() {
	sh -c 'echo $$ > "$0/cgroup.procs" && exec python3 -c "
import time
for i in range(40):
    open(\"$1\").close(); time.sleep(0.2)"' "$CGROOT/$1" "$2" &
	OPENERS="${OPENERS:-} $!"
}

# Only the calls of one cgroup's tasks, and of the cgroups below it.
ex_cgroup() {
	local n
	mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
	mkdir -p $CGROOT/lab3/web $CGROOT/lab3other
	echo data > $D/in-lab3; echo data > $D/in-web; echo data > $D/outside
	opener lab3 $D/in-lab3
	opener lab3/web $D/in-web
	opener lab3other $D/outside
	student_bg __x64_sys_openat trace_cgroup $S/cg.json $CGROOT/lab3
	wait_for 'FILTERED_SEEN=$(openat_filtered) && [ "$FILTERED_SEEN" -ge 1 ]' 50 || true
	finish $S/cg.json
	kill $OPENERS 2>/dev/null || true
	wait $OPENERS 2>/dev/null || true
	n=$(recs $S/cg.json "r.get('str') == '$D/in-lab3'")
	[ "$n" -ge 1 ] || hint "no record of the task in $CGROOT/lab3 opening $D/in-lab3"
	n=$(recs $S/cg.json "r.get('str') == '$D/in-web'")
	[ "$n" -ge 1 ] || hint "no record of the task in $CGROOT/lab3/web: a cgroup's tasks include those of the cgroups below it"
	n=$(recs $S/cg.json "r.get('str') == '$D/outside'")
	[ "$n" = 0 ] || hint "$n records of the task in $CGROOT/lab3other"
	[ "$FILTERED" -ge 1 ] || hint "the probe filtered nothing in the kernel"
}

exercise "trace_open records openat's file name, directory fd and flags" ex_open
exercise "trace_comm keeps one command's calls, filtered in the kernel" ex_comm
exercise "trace_process keeps one process's calls, filtered in the kernel" ex_process
exercise "trace_creates keeps the calls that may create a file, in the kernel" ex_creates
exercise "trace_file keeps the calls that open one file, in the kernel" ex_file
exercise "trace_cgroup keeps one cgroup's calls, and its children's, in the kernel" ex_cgroup
