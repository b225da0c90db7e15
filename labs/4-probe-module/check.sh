# SPDX-License-Identifier: GPL-2.0
#
# Lab 4's checks (sourced by labs/guest.sh after labs/lib.sh): the
# student's module, built on the host for this kernel in $OBJ.
D=/tmp/lab4

lab_cleanup() {
	rmmod lab4_unlink 2>/dev/null
	rm -rf $D
}

# load [PARAM=VALUE]: insmod the module (LID: its probe), and a scratch dir
load() {
	load_module lab4_unlink "$@"
	mkdir -p $D
}

# unlinks OUT CMD...: stream while CMD runs, JSON records in OUT.
unlinks() {
	local out=$1
	shift
	stream_all "$out" -i "$LID"
	"$@"
	stream_stop
}

rm_three() {
	touch $D/a $D/b $D/c
	rm $D/a $D/b $D/c
}

ex_loads() {
	local j
	load
	j=$($CTL -j probe show "$LID")
	[ "$(json_get "$j" 'j["symbol"], j["kind"], j["owner_module"]')" = "('do_unlinkat', 'jprobe', 'lab4_unlink')" ] ||
		hint "probe $LID is not the module's jprobe on do_unlinkat"
	[ "$(json_get "$j" 'j["state"]')" = armed ] || hint "probe $LID is $(json_get "$j" 'j["state"]'), not armed"
}

ex_names() {
	local n
	load
	unlinks $S/n.json rm_three
	n=$(count_records $S/n.json "r['kind'] == 'jprobe' and r.get('str') in ('$D/a', '$D/b', '$D/c')")
	[ "$n" = 3 ] || hint "3 files removed, $n records with their names (record flags: $(count_records $S/n.json "'str' in r") of $(count_records $S/n.json True) have a string)"
}

# unlinkat(dirfd, name, 0): dfd is the directory's fd, not AT_FDCWD.
ex_dfd() {
	local n
	load
	touch $D/x $D/y
	unlinks $S/d.json python3 -c "
import os
os.unlink('$D/x')
fd = os.open('$D', os.O_RDONLY)
os.unlink('y', dir_fd=fd)
open('$S/fd', 'w').write(str(fd))"
	n=$(count_records $S/d.json "len(r.get('args', [])) == 1 and r['args'][0] % 2**32 == 2**32 - 100 and r.get('str') == '$D/x'")
	[ "$n" = 1 ] || hint "unlink('$D/x'): no record with dfd AT_FDCWD (-100) as its one argument"
	n=$(count_records $S/d.json "len(r.get('args', [])) == 1 and r['args'][0] == $(cat $S/fd) and r.get('str') == 'y'")
	[ "$n" = 1 ] || hint "unlinkat(fd $(cat $S/fd), 'y'): no record with that dfd as its one argument"
}

ex_prefix() {
	local kept others filtered
	load prefix=$D/keep
	unlinks $S/p.json bash -c "touch $D/keep1 $D/keep2 $D/drop1 $D/drop2 $D/drop3 &&
		rm $D/keep1 $D/drop1 $D/keep2 $D/drop2 $D/drop3"
	kept=$(count_records $S/p.json "r.get('str', '').startswith('$D/keep')")
	others=$(count_records $S/p.json "not r.get('str', '').startswith('$D/keep')")
	filtered=$(stat_of "$LID" filtered)
	[ "$kept" = 2 ] || hint "prefix=$D/keep: $kept records of the 2 names under it"
	[ "$others" = 0 ] || hint "prefix=$D/keep: $others records of other names"
	[ "$filtered" -ge 3 ] || hint "the probe's filtered counter is $filtered: names left out must be given up (discarded), not just left uncommitted or committed"
}

ex_unload() {
	load
	rm_three
	unload_module lab4_unlink
}

# comm=: the command is current's; its name equal, not a prefix
ex_comm() {
	local n others filtered
	load comm=busybox-lab4
	cp /bin/busybox $D/busybox-lab4
	cp /bin/busybox $D/busybox-lab4x
	touch $D/mine1 $D/mine2 $D/x1 $D/x2 $D/rm1
	unlinks $S/c.json bash -c "$D/busybox-lab4 rm $D/mine1 $D/mine2 &&
		$D/busybox-lab4x rm $D/x1 $D/x2 && rm $D/rm1"
	n=$(count_records $S/c.json "r.get('str') in ('$D/mine1', '$D/mine2')")
	others=$(count_records $S/c.json "r.get('str') not in ('$D/mine1', '$D/mine2')")
	filtered=$(stat_of "$LID" filtered)
	[ "$n" = 2 ] || hint "comm=busybox-lab4: $n records of the 2 files busybox-lab4 removed"
	[ "$others" = 0 ] ||
		hint "comm=busybox-lab4: $others records of files other commands removed ($(count_records $S/c.json "r['comm'] == 'busybox-lab4x'") by busybox-lab4x)"
	[ "$filtered" -ge 3 ] || hint "the probe's filtered counter is $filtered: the other commands' files must be given up (discarded)"
}

exercise "the module loads and registers its jprobe on do_unlinkat" ex_loads
exercise "each unlink gives a record with the file's name" ex_names
exercise "records carry do_unlinkat's directory fd" ex_dfd
exercise "prefix= keeps the names under it and discards the others" ex_prefix
exercise "rmmod unregisters the probe and logs its statistics" ex_unload
exercise "comm= keeps the files one command removes and discards the others" ex_comm
