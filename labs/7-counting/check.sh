# SPDX-License-Identifier: GPL-2.0
#
# Lab 7's checks (sourced by labs/guest.sh after labs/lib.sh).
LAB_SCRIPT=lab7.sh
export DURATION=5

# count_doc FILE: J, the last JSON document count wrote to FILE (the
# run's total), or a hint if it is not one
count_doc() {
	J=$(tail -n 1 "$1")
	json_get "$J" 'j["entries"]' >/dev/null 2>&1 ||
		hint "$1 holds no count JSON document (rawprobectl -j count)"
}

ex_comm() {
	local n
	student_bg __x64_sys_getpgid calls_by_comm $S/c.json
	$GETPGID_LOOP -w 0 300 >/dev/null
	wait $STUDENT_PID || hint "calls_by_comm failed"
	count_doc $S/c.json
	n=$(json_get "$J" "sum(e['count'] for e in j['entries'] if e.get('comm') == 'getpgid_loop')")
	[ "$n" != 0 ] || hint "no count for the command getpgid_loop: count by command name"
	[ "$n" = 300 ] || hint "getpgid_loop called getpgid 300 times; the counts say $n"
}

# The drop function, as the solution finds it.
drop_sym() {
	if grep -q ' sk_skb_reason_drop$' /proc/kallsyms; then
		echo sk_skb_reason_drop
	else
		echo kfree_skb_reason
	fi
}

# first_present must name what the kernel has, not what 6.1 or 6.12
# has: the check asks about names that differ between them, ordered
# either way, and names that are the start of another's.
ex_first_present() {
	local got want q
	for q in "sk_skb_reason_drop kfree_skb_reason:$(drop_sym)" \
		 "kfree_skb_reason sk_skb_reason_drop:$(drop_sym)" \
		 "lab7_no_such_function vfs_read:vfs_read" \
		 "kfree_skb_reas vfs_write vfs_read:vfs_write" \
		 "getpgid __x64_sys_getpgid:__x64_sys_getpgid"; do
		want=${q#*:}
		got=$(student first_present ${q%%:*}) || hint "first_present ${q%%:*} failed"
		[ "$got" = "$want" ] ||
			hint "first_present ${q%%:*} printed '$got': that is not the first of them this kernel has"
	done
}

ex_drops() {
	local n i
	ip link set lo up
	student_bg "$(drop_sym)" drops_by_caller $S/d.json
	# datagrams to a closed port: dropped, no socket to take them
	for i in 1 2 3 4 5; do echo drop > /dev/udp/127.0.0.1/9 || true; done
	wait $STUDENT_PID || hint "drops_by_caller failed"
	count_doc $S/d.json
	n=$(json_get "$J" "sum(e['count'] for e in j['entries'] if e.get('caller', '').startswith('__udp4_lib_rcv+'))")
	[ "$n" -ge 5 ] ||
		hint "5 UDP datagrams to a closed port were dropped, by $n calls from __udp4_lib_rcv in your counts: by caller?"
}

ex_stacks() {
	local n
	student_bg vfs_read read_stacks $S/s.txt
	head -c 81920 /dev/zero > /tmp/lab7.data
	dd if=/tmp/lab7.data of=/dev/null bs=4k count=20 2>/dev/null
	wait $STUDENT_PID || hint "read_stacks failed"
	[ -s $S/s.txt ] || hint "read_stacks wrote nothing to the file it was given"
	grep -Evq '^[^ ]+ [0-9]+$' $S/s.txt &&
		hint "not folded stacks: a line is '$(grep -Ev '^[^ ]+ [0-9]+$' $S/s.txt | head -1)'"
	n=$(awk '/;ksys_read;vfs_read [0-9]+$/ { s += $NF } END { print s + 0 }' $S/s.txt)
	[ "$n" -ge 20 ] ||
		hint "dd read 20 blocks through ksys_read; the stacks ending ksys_read;vfs_read count $n"
}

# The bytes each command read, summed in the kernel: busybox's dd asks
# for 3000 bytes 4 times and once more at the end, of a 10000-byte file.
ex_read_bytes() {
	local n
	cp /bin/busybox /tmp/busybox-lab7
	head -c 10000 /dev/zero > /tmp/lab7.data
	student_bg vfs_read read_bytes $S/b.json
	/tmp/busybox-lab7 dd if=/tmp/lab7.data of=/dev/null bs=3000 2>/dev/null
	wait $STUDENT_PID || hint "read_bytes failed"
	count_doc $S/b.json
	n=$(json_get "$J" "sum(e['count'] for e in j['entries'] if e.get('comm') == 'busybox-lab7')")
	[ "$n" != 0 ] || hint "no entry for the command busybox-lab7: by command name"
	n=$(json_get "$J" "[e.get('sum') for e in j['entries'] if e.get('comm') == 'busybox-lab7'][0]")
	[ "$n" != None ] || hint "busybox-lab7's entry has no sum: count the calls, and sum a value"
	[ "$n" = 10000 ] ||
		hint "busybox-lab7 read a file of 10000 bytes in blocks of 3000; the sum says $n"
}

lab_cleanup() { rm -f /tmp/lab7.data /tmp/busybox-lab7; }

exercise "calls_by_comm: getpgid's calls by command, counted in the kernel" ex_comm
exercise "first_present names the first function this kernel has" ex_first_present
exercise "drops_by_caller: UDP drops at a closed port, by caller" ex_drops
exercise "read_stacks: vfs_read's calls as folded kernel stacks" ex_stacks
exercise "read_bytes: the bytes vfs_read returned, summed per command" ex_read_bytes
