# SPDX-License-Identifier: GPL-2.0
#
# In-guest test library. A case file defines functions named t_*; they
# run in definition order, each in a subshell with `set -e`, so any
# failing command fails the test. Assertions print what they expected.
# Output: one "ok - NAME" / "not ok - NAME" line per test, then the
# totals line "N passed, N failed".

CTL=${RAWPROBECTL:?}
KO=${RAWPROBE_KO:?}
RING_DEFAULT=16384	# ring_records's default (module/main.c): tests restore it
			# (a 2-CPU guest: kmod/ring.c shrinks it for many CPUs)
# A debug kernel of tests/vm/debug-kernel.sh (6.12.N-rawprobe-VARIANT):
# several times slower, so scale tests take fewer of what they scale.
case $(uname -r) in
*-rawprobe-*)	T_DEBUG_KERNEL=1 ;;
*)		T_DEBUG_KERNEL=0 ;;
esac
T_PASS=0
T_FAIL=0
T_SKIP=0
T_SCRATCH=$(mktemp -d /tmp/rp-test.XXXXXX)
# json_get, wait_for, probe_count, stream_all, stream_stop, count_records
. "$(dirname "${BASH_SOURCE[0]}")/../../tools/ctl-helpers.sh"

# py CODE [ARG]...: a Python one-off, as python3 -c.
py() { python3 -c "$@"; }

# The rings are allocated by the first probe or reader (kmod/ring.c):
# a test of what a resize of allocated rings does allocates them first.
rings_allocate() {
	$CTL probe del "$($CTL probe add kprobe vfs_read)" >/dev/null
}

# cgroup_make NAME [MAX]: a memory cgroup (cgroup2 mounted if it was not),
# memory.max MAX if given; in_cgroup NAME CMD...: CMD run inside it.
CGROOT=/sys/fs/cgroup
cgroup_make() {
	mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
	echo +memory > $CGROOT/cgroup.subtree_control
	mkdir -p "$CGROOT/$1"
	[ -z "${2:-}" ] || echo "$2" > "$CGROOT/$1/memory.max"
}
in_cgroup() {
	local cg=$CGROOT/$1
	shift
	sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$cg" "$@"
}

fail() {
	echo "    FAIL: $*" >&2
	return 1
}

# schema DEF [FILE]: FILE's JSON documents (or stdin's) against
# docs/schema's $defs/DEF (DEF- : the whole input is one document),
# checked after the case's tests in one run of tests/cli/validate_json.py
# (run_schemas): jsonschema's import takes seconds a start in a TCG
# guest, where a case has a dozen documents. Each document's check is a
# test of its own, named after the test that wrote it.
T_SCHEMAS=$T_SCRATCH/.schemas
schema() {	# DEF [FILE]
	local to=$T_SCHEMAS/${T_TEST:-none}~$1~$BASHPID-$RANDOM

	mkdir -p "$T_SCHEMAS"
	if [ $# -gt 1 ]; then
		cp "$2" "$to"
	else
		cat > "$to"
	fi
}

run_schemas() {
	local line n=0 want

	[ -d "$T_SCHEMAS" ] || return 0
	want=$(ls "$T_SCHEMAS" | wc -l)
	while IFS= read -r line; do
		echo "$line"
		case $line in
		"ok - "*)	T_PASS=$((T_PASS + 1)) n=$((n + 1)) ;;
		"not ok - "*)	T_FAIL=$((T_FAIL + 1)) n=$((n + 1)) ;;
		esac
	done < <(T_CASE=${T_CASE:-} tests/cli/validate_json.py --batch "$T_SCHEMAS")
	# (validate_json.py exits 1 for a bad document: it said which)
	if [ "$n" != "$want" ]; then
		T_FAIL=$((T_FAIL + 1))
		echo "not ok - ${T_CASE:-}schemas: $((want - n)) of $want documents unchecked"
	fi
	rm -rf "$T_SCHEMAS"
}

# skip REASON: end the test, counted as skipped (not passed): what it
# needs, this kernel has not (say which, and why that is no failure)
skip() {
	echo "$*" > "$T_SCRATCH/.skip"
	exit 0
}

expect_eq() {	# expected actual what
	[ "$1" = "$2" ] || fail "$3: expected '$1', got '$2'"
}

expect_ge() {	# min actual what
	[ "$2" -ge "$1" ] 2>/dev/null || fail "$3: expected >= $1, got '$2'"
}

expect_match() {	# regex text what
	printf '%s' "$2" | grep -Eq -- "$1" ||
		fail "$3: '$1' not found in: $2"
}

# expect_fail CODE REGEX CMD...: CMD exits with CODE and stderr matches.
expect_fail() {
	local code=$1 re=$2 rc=0 err
	shift 2
	err=$("$@" 2>&1 >/dev/null) || rc=$?
	[ "$rc" = "$code" ] || fail "'$*': exit $rc, expected $code ($err)"
	printf '%s' "$err" | grep -Eq -- "$re" ||
		fail "'$*': stderr '$err' does not match '$re'"
}

module_load() {
	grep -q '^rawprobe ' /proc/modules || insmod "$KO" "$@"
}

module_unload() {
	if grep -q '^rawprobe ' /proc/modules; then rmmod rawprobe; fi
}

# probeable_functions N: N kernel functions a kprobe can take, one a line.
# ftrace-able functions are kprobe-able; compiler variants and names that
# several functions share (the CLI refuses ambiguity) are left out.
probeable_functions() {
	awk '$2 ~ /^[tT]$/ { n[$3]++ } END { for (s in n) if (n[s] == 1) print s }' \
		/proc/kallsyms | sort > "$T_SCRATCH/.unique"
	awk '{ print $1 }' /sys/kernel/tracing/available_filter_functions |
		grep -v '\.' | grep -v '^__ftrace_invalid' | sort -u |
		comm -12 - "$T_SCRATCH/.unique" |
		grep -vxF -f <(awk '{ print $2 }' /sys/kernel/debug/kprobes/blacklist) |
		head -"$1"
}

# armed_at FUNCTION: how many of rawprobe's probes are armed on the
# function's entry (FUNCTION an extended regex): kprobes' (their list, not [DISABLED]; +0x4 past
# 6.12's endbr64) and those armed through rawprobe's ftrace_ops (ftrace's
# enabled_functions names its callback), which an entry probe at +0 on
# a vmlinux function is unless RAWPROBE_ARM=kprobes.
armed_at() {
	{ grep -E " $1\+0x[04] +(\[FTRACE\])?\$" /sys/kernel/debug/kprobes/list
	  grep -E "^$1 .*rp_fentry_func" /sys/kernel/tracing/enabled_functions
	} | grep -c '' || true
}

# fentry_left: rawprobe's ftrace_ops still on a function (none once every
# probe is gone: the filter is never left empty, kmod/fentry.c)
fentry_left() {
	grep -c "rp_fentry_func" /sys/kernel/tracing/enabled_functions || true
}

# kprobes_total: the kprobes the kernel has registered, whoever owns
# them. Its list names the probed function and that function's module,
# never the probe's owner: a test compares this with the total it
# started from.
kprobes_total() {
	grep -c '' /sys/kernel/debug/kprobes/list || true
}

# ready_line ERRFILE: has the command printed its readiness line ("...
# Hit Ctrl-C to end."), which comes once its probes are armed?
ready_line() {
	has_text "$1" $'Hit Ctrl-C to end.\n'
}

# null_blk_up: /dev/nullb0, a null_blk device that completes in the
# submitter's context (irqmode=0), removed when the test's shell exits;
# the test is skipped where the kernel has none (the debug kernels:
# tinyconfig and fragments).
null_blk_up() {
	grep -qs '^CONFIG_BLK_DEV_NULL_BLK=[ym]' "$KMOD_ROOT/config" ||
		skip "this kernel has no null_blk (CONFIG_BLK_DEV_NULL_BLK)"
	modprobe -d "$KMOD_ROOT" null_blk nr_devices=1 irqmode=0 ||
		fail "modprobe null_blk, which this kernel's config has"
	trap 'rmmod null_blk 2>/dev/null || true' EXIT
	wait_for "[ -b /dev/nullb0 ]" 100 || fail "no /dev/nullb0"
}

# bg_start OUT ARGS...: rawprobectl ARGS in the background, stdout to
# OUT, stderr to OUT.err; waits for its readiness line (or its death).
# Sets BG_PID, and BG_HAD: the probes there were before it.
bg_start() {
	local out=$1
	shift
	BG_HAD=$(probe_count)
	stale_out "$out"
	$CTL "$@" > "$out" 2> "$out.err" &
	BG_PID=$!
	wait_for "! kill -0 $BG_PID 2>/dev/null || ready_line $out.err" 300
	kill -0 "$BG_PID" 2>/dev/null && ready_line "$out.err" ||
		fail "'$*' never said it was ready: $(cat "$out.err")"
}

# bg_stop SIGNAL: stop it, expect exit 0 and nothing of its left behind.
bg_stop() {
	local rc=0
	kill "-$1" "$BG_PID"
	wait "$BG_PID" || rc=$?
	expect_eq 0 "$rc" "exit status after SIG$1"
	expect_eq "${BG_HAD:-0}" "$(probe_count)" "probes left after SIG$1"
}

run_tests() {
	local t rc start
	for t in $T_ORDER; do
		# T_ONLY=REGEX: only the tests it matches (when working on some)
		[ -n "${T_ONLY:-}" ] && ! [[ $t =~ $T_ONLY ]] && continue
		start=$SECONDS
		# not "|| rc=$?": bash ignores set -e on the left of ||
		( set -e; T_TEST=${t#t_}; "$t" )
		rc=$?
		# where a slow suite's time goes (a debug kernel's above all)
		[ $((SECONDS - start)) -ge 10 ] &&
			echo "# ${T_CASE:-}${t#t_}: $((SECONDS - start)) s"
		# isolation: a failed test must not leave probes to the next
		if grep -q '^rawprobe ' /proc/modules; then
			$CTL probe del all >/dev/null 2>&1
		fi
		if [ $rc = 0 ] && [ -s "$T_SCRATCH/.skip" ]; then
			T_SKIP=$((T_SKIP + 1))
			echo "ok - ${T_CASE:-}${t#t_} # SKIP $(cat "$T_SCRATCH/.skip")"
			rm -f "$T_SCRATCH/.skip"
		elif [ $rc = 0 ]; then
			T_PASS=$((T_PASS + 1))
			echo "ok - ${T_CASE:-}${t#t_}"
		else
			T_FAIL=$((T_FAIL + 1))
			echo "not ok - ${T_CASE:-}${t#t_}"
		fi
	done
	run_schemas
}

# --- ftrace, to compare with ---

TRACING=/sys/kernel/tracing

# An ftrace kprobe event rp_test/NAME with fetchargs (DEFINITION
# "p:..." or "r:...", or without one: "p:"), enabled; removed by
# ftrace_del (and at the test's exit, whatever happened).
ftrace_add() {	# NAME DEFINITION
	echo "-:rp_test/$1" >> $TRACING/kprobe_events 2>/dev/null || true
	case $2 in
	[pr]:*) echo "${2%%:*}:rp_test/$1 ${2#?:}" ;;
	*) echo "p:rp_test/$1 $2" ;;
	esac >> $TRACING/kprobe_events
	echo > $TRACING/trace
	echo 1 > $TRACING/events/rp_test/$1/enable
	FTRACE_EVENT=$1
	trap ftrace_del EXIT
}

ftrace_del() {
	[ -n "${FTRACE_EVENT:-}" ] || return 0
	echo 0 > $TRACING/events/rp_test/$FTRACE_EVENT/enable 2>/dev/null || true
	echo "-:rp_test/$FTRACE_EVENT" >> $TRACING/kprobe_events 2>/dev/null || true
	FTRACE_EVENT=
}

# --- streams ---

# stream_bg OUT ARGS...: start a JSON stream in the background and wait
# for its readiness line. Sets STREAM_PID.
stream_bg() {
	local out=$1
	shift
	stale_out "$out"
	$CTL -j stream -o "$out" "$@" 2>"$out.err" &
	STREAM_PID=$!
	wait_for "ready_line $out.err" 300 ||
		fail "stream never said it was ready: $(cat "$out.err")"
}

# Case files call this after defining their tests, in order.
tests() {
	T_ORDER="$*"
}
