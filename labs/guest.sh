#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the guest: run the checks of one or more labs, each against its own
# sources, in one boot (labs/lab.sh boots the guest with this).
#
#   labs/guest.sh N:TAG:WORK:OBJ[:ONLY]...
#     N     the lab's number (labs/N-*/check.sh)
#     TAG   a name for the run (work, skeleton, solution, wrong-...),
#           printed in the "## TAG N" line that opens its results
#     WORK  the sources under test (the student's working copy)
#     OBJ   their module built for this kernel (empty: none)
#     ONLY  the exercises to run, by number ("2,3"; empty: all)
#
# Prints one "ok - ..." / "not ok - ... (hint: ...)" line per exercise.
set -u
cd "$(dirname "$0")/.." || exit 2
REPO=$(pwd)
export REPO

# one N:TAG:WORK:OBJ, in this process
run_one() {
	local n tag work obj only labdir
	IFS=: read -r n tag work obj only <<< "$1"
	labdir=$(echo labs/"$n"-*/)
	labdir=${labdir%/}
	echo "## $tag $n"
	if [ ! -f "$labdir/check.sh" ]; then
		echo "not ok - lab$n (no such lab)"
		return 1
	fi
	# in a subshell: the lab's functions and state end with it (not
	# "( ... ) || rc=1": on the left of || bash ignores set -e, inside
	# too, and the checks rely on it)
	(
		LAB=$n LABDIR=$labdir WORK=$work OBJ=$obj ONLY=${only//,/ }
		. labs/lib.sh
		[ ! -f "$labdir/env" ] || . "$labdir/env"	# as its shell has it
		. "$labdir/check.sh"
		cleanup_all
		rm -rf "$S"
		[ "$EX_FAIL" = 0 ]
	)
}

if [ "${1:-}" = --one ]; then
	run_one "$2"
	rc=$?
	# Whatever the lab left running (a check that failed before ending
	# its background jobs) is in this process group: end it, or it
	# keeps the guest's output open and the guest up.
	for p in $(pgrep -g $$); do
		[ "$p" != $$ ] && kill -TERM "$p" 2>/dev/null
	done
	exit $rc
fi

# each lab in a process group of its own (setsid)
rc=0
for item in "$@"; do
	setsid -w "$REPO/labs/guest.sh" --one "$item" || rc=1
done
exit $rc
