# SPDX-License-Identifier: GPL-2.0
# Fields behind pointers and value filters:
# what the kernel computes from the CLI's BTF-compiled fetches, checked
# against what the workload makes true (a file's offsets and inode, its
# name) and against ftrace's fetchargs on the same calls; a fetch through
# NULL is flagged, not fatal; filters keep exactly the matching calls.

S=$T_SCRATCH

# A file of 5 blocks of 4096 bytes, read by dd from the start.
data_file() {
	[ -f $S/data ] || head -c 20480 /dev/zero > $S/data
}

# ftrace's spelling of argument I of probe add's --dry-run JSON: the
# register, then +OFF(...) for each load, then TYPE.
ftrace_fetch() {	# DRY-RUN-JSON I TYPE
	printf '%s' "$1" | python3 -c '
import json, sys
f = json.load(sys.stdin)["fetch"][int(sys.argv[1])]
e = ["%di", "%si", "%dx", "%cx", "%r8", "%r9"][f["src"]]
for off in f["loads"]:
    e = "+%d(%s)" % (off, e)
if sys.argv[2] == "string":
    e = "+%d(%s)" % (f["add"], e)
print(e + ":" + sys.argv[2])' "$2" "$3"
}

# The id of the (only) probe on FUNCTION.
probe_on() {	# FUNCTION
	json_get "$($CTL -j probe list)" "[p['id'] for p in j if p.get('symbol') == '$1'][0]"
}

# dd's reads at offsets 0, 4096, 8192 of a file: the file's position and
# inode number through the struct file, exactly, and as ftrace reads them.
t_fields_match_workload_and_ftrace() {
	local args='file->f_pos,count,file->f_inode->i_ino' dry ino
	data_file
	ino=$(stat -c %i $S/data)
	dry=$($CTL -j probe add jprobe vfs_read --args "$args" --dry-run)
	ftrace_add vfs_read "vfs_read pos=$(ftrace_fetch "$dry" 0 s64) count=%dx:u64 ino=$(ftrace_fetch "$dry" 2 u64)"
	bg_start $S/fields.txt trace jprobe:vfs_read --args "$args" --comm dd -d 60
	dd if=$S/data of=/dev/null bs=4096 count=3 2>/dev/null
	bg_stop INT
	echo 0 > $TRACING/events/rp_test/vfs_read/enable
	cp $TRACING/trace $S/ftrace.txt
	ftrace_del
	sed -nE 's/.* dd +jprobe:vfs_read +\(file->f_pos=([0-9]+), count=4096, file->f_inode->i_ino=([0-9]+)\)$/\1 \2/p' \
		$S/fields.txt > $S/rp.vals
	expect_eq "0 $ino
4096 $ino
8192 $ino" "$(cat $S/rp.vals)" "dd's positions and the file's inode"
	sed -nE 's/^ *dd-[0-9]+ .* pos=([0-9]+) count=4096 ino=([0-9]+)$/\1 \2/p' \
		$S/ftrace.txt > $S/ft.vals
	cmp -s $S/rp.vals $S/ft.vals ||
		fail "rawprobe and ftrace differ: $(diff $S/rp.vals $S/ft.vals | head -10)"
}

# Two dereferences and a string: the name of the file being read.
t_path_string_matches_ftrace() {
	local args='file->f_path.dentry->d_name.name:str' dry
	data_file
	dry=$($CTL -j probe add jprobe vfs_read --args "$args" --dry-run)
	ftrace_add vfs_read "vfs_read name=$(ftrace_fetch "$dry" 0 string)"
	bg_start $S/name.txt trace jprobe:vfs_read --args "$args" --comm dd -d 60
	dd if=$S/data of=/dev/null bs=4096 count=2 2>/dev/null
	bg_stop INT
	echo 0 > $TRACING/events/rp_test/vfs_read/enable
	cp $TRACING/trace $S/ftrace-name.txt
	ftrace_del
	sed -nE 's/.* dd +jprobe:vfs_read +\(file->f_path.dentry->d_name.name="([^"]*)"\)$/\1/p' \
		$S/name.txt > $S/rp-name.vals
	expect_eq "data
data" "$(grep -x data $S/rp-name.vals)" "the file's name, twice"
	sed -nE 's/^ *dd-[0-9]+ .* name="([^"]*)"$/\1/p' $S/ftrace-name.txt > $S/ft-name.vals
	cmp -s $S/rp-name.vals $S/ft-name.vals ||
		fail "rawprobe and ftrace differ: $(diff $S/rp-name.vals $S/ft-name.vals | head -10)"
}

# vfs_read's pos is NULL for a socket (a stream: no position), a
# pointer to the position for a file: the read through NULL is flagged
# as a fault, counted, and the probe goes on. (Pipes are streams too
# from 6.12 on, not on 6.1.)
t_null_pointer_flagged() {
	local id
	data_file
	bg_start $S/pos.txt trace jprobe:vfs_read --args 'pos[0]' -d 60
	python3 -c 'import os, socket; a, b = socket.socketpair(); a.send(b"x"); os.read(b.fileno(), 1)'
	dd if=$S/data of=/dev/null bs=4096 skip=1 count=1 2>/dev/null
	id=$(probe_on vfs_read)
	$CTL -j probe show $id > $S/pos-show.json
	bg_stop INT
	expect_ge 1 "$(grep -cE 'python3 +jprobe:vfs_read +\(pos\[0\]=\(fault\)\)$' $S/pos.txt)" "the socket's read: a fault"
	expect_eq 1 "$(grep -cE ' dd +jprobe:vfs_read +\(pos\[0\]=4096\)$' $S/pos.txt)" "the file's read at 4096"
	expect_ge 1 "$(json_get "$(cat $S/pos-show.json)" 'j["stats"]["fetch_faults"]')" "fetch_faults counted"
}

# Reads of 777, 555 and 333 bytes; each filter keeps exactly its own.
filter_reads() {	# OUT FILTER [ARGS...]
	local out=$1 filter=$2
	shift 2
	data_file
	bg_start $out trace jprobe:vfs_read --args count --comm dd --filter "$filter" "$@" -d 60
	local bs
	for bs in 777 555 333; do
		dd if=$S/data of=/dev/null bs=$bs count=2 2>/dev/null
	done
	bg_stop INT
	sed -nE 's/.* dd +jprobe:vfs_read +\(count=([0-9]+)\)$/\1/p' $out | sort | uniq -c |
		awk '{ print $2 "x" $1 }' | paste -sd' '
}

t_filter_equal_or() {
	expect_eq "555x2 777x2" "$(filter_reads $S/or.txt 'count == 777 || count == 555')" "== ... || =="
}

t_filter_mask_and_range() {
	# 777 = 0x309, 555 = 0x22b, 333 = 0x14d
	# (dd's loader reads 784 and 832 bytes, with 0x100 set, first)
	expect_eq "333x2 777x2" "$(filter_reads $S/mask.txt 'count & 0x100 && count < 780')" "& 0x100 &&"
	expect_eq "555x2" "$(filter_reads $S/range.txt 'count > 400 && count < 700')" "> && <"
	expect_eq "" "$(filter_reads $S/none.txt 'count == 1')" "no match"
}

# A field in a filter: only the reads past the first block.
t_filter_on_field() {
	data_file
	bg_start $S/ff.txt trace jprobe:vfs_read --args 'file->f_pos' --comm dd \
		--filter 'file->f_pos >= 4096' -d 60
	dd if=$S/data of=/dev/null bs=4096 count=3 2>/dev/null
	bg_stop INT
	expect_eq "4096 8192" "$(sed -nE 's/.* dd +jprobe:vfs_read +\(file->f_pos=([0-9]+)\)$/\1/p' $S/ff.txt | paste -sd' ')" \
		"positions >= 4096"
}

# At return: the failed opens only, each with its negative errno; the
# hits the filter refused are counted as filtered.
t_filter_retval() {
	local id
	bg_start $S/ret.txt trace kretprobe:do_sys_openat2 --comm cat --filter 'retval < 0' -d 60
	cat /nonexistent-rp-1 /etc/hostname /nonexistent-rp-2 >/dev/null 2>&1 || true
	id=$(probe_on do_sys_openat2)
	$CTL -j probe show $id > $S/ret-show.json
	bg_stop INT
	expect_ge 2 "$(grep -cE ' cat +kretprobe:do_sys_openat2 += -2 ' $S/ret.txt)" "cat's two ENOENT opens"
	expect_eq 0 "$(grep -cE ' cat +kretprobe:do_sys_openat2 += [0-9]' $S/ret.txt)" "no successful open"
	expect_ge 1 "$(json_get "$(cat $S/ret-show.json)" 'j["stats"]["filtered"]')" "the successful opens, filtered"
}

# A kretprobe's string: read at entry from an argument (the failed
# opens with their names, in one probe), or at return from the return
# value (getname's struct filename, retval->name).
t_kretprobe_strings() {
	bg_start $S/kstr.json -j trace kretprobe:do_sys_openat2 --comm cat \
		--args s32,ustr --filter 'retval < 0'
	cat /nonexistent-rp-3 /etc/hostname >/dev/null 2>&1 || true
	bg_stop INT
	expect_eq 1 "$(count_records $S/kstr.json "r.get('str') == '/nonexistent-rp-3' and r['retval'] == -2")" \
		"the failed open, its name taken at entry"
	expect_eq 1 "$(count_records $S/kstr.json True)" "records: the failed open only"
	bg_start $S/gname.json -j trace kretprobe:getname --comm cat --args 'retval->name:str'
	cat /etc/hostname >/dev/null
	bg_stop INT
	expect_ge 1 "$(count_records $S/gname.json "r.get('str') == '/etc/hostname'")" \
		"getname's name, read from the return value"
}

# uid 65534 with CAP_PERFMON alone, and with CAP_BPF beside it
PERFMON="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon --ambient-caps=+perfmon"
PERFMON_BPF="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+perfmon,+bpf --ambient-caps=+perfmon,+bpf"
NEEDS_READ_CAPS="needs CAP_SYS_ADMIN, or CAP_PERFMON with CAP_BPF.*EPERM"

# A probe that loads from an address its hits choose reads any memory a
# process names (a close() of any number, fetched through, read kernel
# text for uid 65534): CAP_PERFMON alone may not; with CAP_BPF, or
# CAP_SYS_ADMIN, it may. Registers and stacks stay CAP_PERFMON's, as in
# perf.
t_memory_reads_need_bpf_or_admin() {
	local id
	expect_fail 4 "$NEEDS_READ_CAPS" $PERFMON $CTL probe add jprobe vfs_read --args 'file->f_pos'
	expect_fail 4 "$NEEDS_READ_CAPS" $PERFMON $CTL probe add kprobe do_sys_openat2 --args s32,ustr
	expect_fail 4 "$NEEDS_READ_CAPS" $PERFMON $CTL probe add kprobe vfs_read --args ptr,str
	expect_fail 4 "$NEEDS_READ_CAPS" $PERFMON $CTL probe add jprobe vfs_read --args count \
		--filter 'file->f_pos >= 4096'
	expect_eq 0 "$(probe_count)" "nothing added"
	id=$($PERFMON $CTL probe add kprobe vfs_read --args 3 --filter 'arg2 > 1' --stack)
	$CTL probe del "$id"
	id=$($PERFMON_BPF $CTL probe add jprobe vfs_read --args 'file->f_pos')
	$CTL probe del "$id"
	id=$($CTL probe add kprobe do_sys_openat2 --args s32,ustr)
	$CTL probe del "$id"
}

tests t_memory_reads_need_bpf_or_admin t_fields_match_workload_and_ftrace t_path_string_matches_ftrace \
	t_null_pointer_flagged t_filter_equal_or t_filter_mask_and_range \
	t_filter_on_field t_filter_retval t_kretprobe_strings
