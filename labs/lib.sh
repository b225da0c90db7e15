# SPDX-License-Identifier: GPL-2.0
#
# The labs' check library, sourced in the guest by labs/guest.sh before a
# lab's check.sh. A check.sh defines one function per exercise and lists
# them with `exercise`; each runs in a subshell with `set -e` and looks at
# what the kernel did (probe statistics, records, kprobes/list, a system
# call's error), never at the student's source. A failing check says why
# with `hint`: what is wrong, not the answer.
#
# Set by guest.sh: LAB (number), LABDIR (labs/N-name), WORK (the sources
# under test), OBJ (where their module was built for this kernel).

CTL=${RAWPROBECTL:-rawprobectl}
REPO=${REPO:-$(pwd)}
export GETPGID_LOOP=$REPO/build/tools/getpgid_loop	# for the student's scripts
KPLIST=/sys/kernel/debug/kprobes/list
TRACEFS=/sys/kernel/tracing
S=$(mktemp -d /tmp/lab-check.XXXXXX)
HINT_FILE=$S/hint
# json_get, wait_for, probe_count, stream_all, stream_stop, count_records
. "$REPO/tools/ctl-helpers.sh"
EX_N=0
EX_PASS=0
EX_FAIL=0

# hint TEXT: fail the current exercise, saying what is wrong.
hint() {
	printf '%s\n' "$*" > "$HINT_FILE"
	return 1
}

# student FUNC ARGS...: run a function of the student's lab script in a
# fresh bash, bounded in time (a broken script must not hang the guest).
# Its stderr goes to $S/student.err, shown when the exercise fails.
student() {
	timeout -k 5 "${STUDENT_TIMEOUT:-60}" bash -c \
		'. "$1" || exit 99; shift; "$@"' _ "$WORK/${LAB_SCRIPT:?}" "$@" \
		2>>"$S/student.err"
}

# stat_of ID FIELD: one counter of a probe ("hits", "missed_maxactive", ...)
stat_of() {
	$CTL -j probe show "$1" | grep -o "\"$2\":[0-9]*" | cut -d: -f2
}

# Between exercises: no probe, no module or sysctl of the lab left over.
# A lab's check.sh may define lab_cleanup for its own state.
lab_cleanup() { :; }
cleanup_all() {
	lab_cleanup >/dev/null 2>&1
	$CTL probe del all >/dev/null 2>&1
	# Records nobody read (persistent probes fill the rings) would make
	# the next exercise's stream lose its first records: new, empty rings.
	$CTL ring set records "$($CTL -j ring show | grep -o '"records":[0-9]*' | cut -d: -f2)" \
		>/dev/null 2>&1
	return 0
}

# kill_tree PID: PID and its descendants, children first.
kill_tree() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		kill_tree "$c"
	done
	kill -TERM "$1" 2>/dev/null || true
}

# reap: end this (sub)shell's background jobs, wait for them (10 s).
reap() {
	local p n=100
	# (in an EXIT trap under set -e: a failed kill must not become the
	# exercise's status)
	set +e
	for p in $(jobs -p); do
		kill_tree "$p"
	done
	while [ -n "$(jobs -pr)" ] && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
	done
}

# exercise TITLE FUNC: run one check and print its line. With ONLY set
# (exercise numbers, e.g. "2 3": labs-selftest's wrong answers), the
# others are skipped.
exercise() {
	local title=$1 rc
	EX_N=$((EX_N + 1))
	if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $EX_N "* ]]; then
		return
	fi
	: > "$HINT_FILE"
	: > "$S/student.err"
	# A failed check leaves what it started in the background (a trace,
	# the student's function): end it with the exercise, or it holds the
	# rings and its probes into the next one. Its own stderr is kept: an
	# error it did not foresee becomes the hint's last line, not a
	# traceback.
	( set -e; trap reap EXIT; "$2" ) 2>"$S/check.err"
	rc=$?
	cleanup_all
	if [ $rc = 0 ]; then
		EX_PASS=$((EX_PASS + 1))
		echo "ok - lab$LAB.$EX_N $title"
		return
	fi
	EX_FAIL=$((EX_FAIL + 1))
	if [ -s "$HINT_FILE" ]; then
		echo "not ok - lab$LAB.$EX_N $title (hint: $(head -1 "$HINT_FILE"))"
	else
		echo "not ok - lab$LAB.$EX_N $title (hint: the check stopped at an unexpected error: $(grep -v '^ ' "$S/check.err" | tail -1))"
	fi
	if [ -s "$S/student.err" ]; then
		echo "    your script said:"
		tail -n 5 "$S/student.err" | sed 's/^/    | /'
	fi
}

# recs FILE PYEXPR: how many records r of FILE, written by the student's
# function as JSON lines, match PYEXPR (a record without a key PYEXPR
# reads does not match). A file that is not JSON lines fails the
# exercise with a hint, never a traceback. Use as n=$(recs ...).
recs() {
	python3 - "$1" "$2" 2>"$S/recs.err" <<'EOF' ||
import json
import sys

n = 0
with open(sys.argv[1], errors="replace") as f:
    for i, line in enumerate(f, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except ValueError:
            sys.exit("line %d is '%s'" % (i, line.strip()[:50]))
        if not isinstance(r, dict):
            sys.exit("line %d is not a record" % i)
        try:
            n += bool(eval(sys.argv[2]))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass
print(n)
EOF
	hint "${1##*/} is not JSON lines, one record a line ($(tail -1 "$S/recs.err")): did you pass -j?"
}

# probe_on SYMBOL: a probe on SYMBOL exists.
probe_on() {
	$CTL -j probe list 2>/dev/null | grep -q "\"target\":\"$1\""
}

# student_bg SYMBOL FUNC ARGS...: the student's FUNC in the background
# until a probe on SYMBOL appears, or FUNC has ended (it failed). Sets
# STUDENT_PID.
student_bg() {
	local sym=$1 rc=0
	shift
	student "$@" &
	STUDENT_PID=$!
	wait_for "probe_on $sym || ! kill -0 $STUDENT_PID 2>/dev/null" 150
	probe_on "$sym" && return 0
	kill -0 $STUDENT_PID 2>/dev/null && hint "no probe on $sym appeared in 15 s"
	wait $STUDENT_PID || rc=$?
	hint "$1 ended (exit status $rc) without a probe on $sym"
}

# unload_module NAME: rmmod the student's NAME, which must have
# unregistered its probe itself and logged "NAME: N hits, M records".
unload_module() {
	local before
	before=$(dmesg | wc -l)
	rmmod "$1"
	[ "$(probe_count)" = 0 ] || hint "the probe is still listed after rmmod"
	dmesg | tail -n +$((before + 1)) > $S/dmesg
	grep -q "left probe .* registered" $S/dmesg &&
		hint "the core had to remove the probe: the module's exit did not unregister it"
	grep -Eq "$1: [1-9][0-9]* hits, [1-9][0-9]* records" $S/dmesg ||
		hint "the exit line shows no hits and records: $(grep "$1:" $S/dmesg | tail -1)"
}

# load_module NAME [PARAM=VALUE...]: insmod the student's NAME.ko from
# $OBJ; LID is the id of the probe it registered under NAME.
load_module() {
	local name=$1 ko=$OBJ/$1.ko
	shift
	[ -f "$ko" ] || hint "no $name.ko: it did not build (the compiler's errors are above)"
	insmod "$ko" "$@" 2>$S/insmod.err ||
		hint "insmod failed: $(cat $S/insmod.err; dmesg | grep -E "$name|rawprobe" | tail -1)"
	LID=$(json_get "$($CTL -j probe list)" \
		"([p['id'] for p in j if p.get('name') == '$name'] + [''])[0]")
	[ -n "$LID" ] || hint "the module loaded but registered no probe named $name"
}
