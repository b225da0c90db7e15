# SPDX-License-Identifier: GPL-2.0
#
# Lab 5's checks (sourced by labs/guest.sh after labs/lib.sh): the
# student's module, built on the host for this kernel in $OBJ. The victim
# is busybox under another name: its cat makes exactly one openat().
D=/tmp/lab5
mkdir -p $D
cp /bin/busybox $D/busybox-lab5
echo hello > $D/file

lab_cleanup() {
	rmmod lab5_inject 2>/dev/null
}

load() {
	load_module lab5_inject "$@"
}

# victim: the victim's cat; prints its stderr, returns its status
victim() {
	$D/busybox-lab5 cat $D/file 2>&1 >/dev/null
}

ex_fails() {
	local out rc=0
	load comm=busybox-lab5 errno=28
	out=$(victim) || rc=$?
	[ $rc != 0 ] || hint "the victim's cat worked: its openat() was not overridden"
	[[ $out == *"No space left on device"* ]] ||
		hint "the victim's cat failed with '$out', not with errno=28 (ENOSPC)"
	out=$(cat $D/file 2>&1) || hint "cat (another command) failed too: '$out'"
}

ex_every() {
	local i pattern=""
	load comm=busybox-lab5 errno=28 every=3
	# other commands' opens in between must not count
	for i in 1 2 3 4 5 6; do
		cat $D/file >/dev/null || hint "cat (another command) failed"
		if victim >/dev/null; then pattern+=o; else pattern+=x; fi
	done
	[ "$pattern" = ooxoox ] ||
		hint "every=3, six victim runs: got $pattern (o: worked, x: failed), expected ooxoox"
}

ex_records() {
	local n fails=0 i
	load comm=busybox-lab5 errno=13
	stream_all $S/r.json -i "$LID"
	for i in 1 2 3; do victim >/dev/null || fails=$((fails + 1)); done
	cat $D/file >/dev/null
	stream_stop
	[ $fails = 3 ] || hint "$fails of 3 victim runs failed: the fault is not injected"
	n=$(count_records $S/r.json "r['comm'] == 'busybox-lab5' and r.get('retval') == -13")
	[ "$n" = 3 ] || hint "3 faults injected, $n records with the victim's name and the error (-13) as return value"
	n=$(count_records $S/r.json True)
	[ "$n" = 3 ] || hint "$n records for 3 faults"
}

# path=: only the opens of that file, its name equal (read from the
# user's registers), not a prefix
ex_path() {
	local out rc=0 f
	echo secret > $D/secret
	echo secret > $D/secret2
	load comm=busybox-lab5 errno=28 path=$D/secret
	out=$($D/busybox-lab5 cat $D/secret 2>&1 >/dev/null) || rc=$?
	[ $rc != 0 ] || hint "the victim's cat $D/secret worked: its openat() was not overridden"
	[[ $out == *"No space left on device"* ]] ||
		hint "the victim's cat $D/secret failed with '$out', not with errno=28 (ENOSPC)"
	for f in $D/file $D/secret2; do
		out=$($D/busybox-lab5 cat $f 2>&1 >/dev/null) ||
			hint "the victim's cat $f failed too ('$out'): only $D/secret must fail"
	done
	out=$(cat $D/secret 2>&1 >/dev/null) || hint "cat (another command) failed too: '$out'"
}

exercise "the victim's openat fails with the chosen errno, others' work" ex_fails
exercise "every=3 fails the victim's 3rd and 6th calls only" ex_every
exercise "each injected fault is recorded with its error" ex_records
exercise "path= fails the victim's opens of one file only" ex_path
