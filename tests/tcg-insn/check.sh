#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The TCG instruction counter (tools/tcg-insn) on the host, under QEMU's
# user mode (qemu-x86_64 -plugin, Debian's qemu-user: the same 7.2 plugin
# API as qemu-system-x86): insn_loop's measured regions (insn_loop.S)
# counted against what objdump says they execute, exactly, per TB and
# with exact=on; linearity in K; repeat runs; the early-exit limit of
# per-TB counting, measured; the plugin's argument errors; its loading
# into qemu-system-x86_64 with no machine (nothing boots). Ends with
# "N passed, N failed".
#   tests/tcg-insn/check.sh
# check() evals its conditions, single-quoted so they expand there:
# shellcheck disable=SC2016,SC2034
set -u
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo" || exit 2
PLUGIN=build/tcg-insn/libinsn.so
LOOP=build/tcg-insn/insn_loop
T=$(mktemp -d /tmp/rp-tcg-insn.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0

ok() {	# NAME
	pass=$((pass + 1)); echo "ok - tcg-insn: $1"
}

not_ok() {	# NAME WHY
	fail=$((fail + 1)); echo "not ok - tcg-insn: $1"; echo "    $2"
}

# check NAME COND WHY: ok if the shell condition COND holds
check() {
	if eval "$2"; then ok "$1"; else not_ok "$1" "$3"; fi
}

# count ARGS... -- PROG_ARGS...: run insn_loop under the plugin, the
# intervals into $T/out (summary line included), qemu's stderr in $T/err
count() {
	local args=()
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	qemu-x86_64 -plugin "$PLUGIN,$MARKS,out=$T/out${args[*]:+,${args[*]}}" \
		"$LOOP" "$@" 2>"$T/err"
}

# intervals: the counts of $T/out, one per line
intervals() { awk '!/^#/ { print $1 }' "$T/out"; }

# the instructions of SYMBOL's block in objdump -d, one per line
block() {
	awk -v s="<$1>:" '$2 == s { on = 1; next } on && /^$/ { exit }
		on && /:\t/ { print }' "$T/dis"
}

# --- the tools ---
check "qemu-x86_64 is QEMU 7.2 (plugin API 1; tools/deps.sh installs qemu-user)" \
	'qemu-x86_64 --version 2>/dev/null | grep -q "version 7\.2\."' \
	"qemu-x86_64 --version: $(qemu-x86_64 --version 2>&1 | head -1)"
if make --no-print-directory -s tcg-plugin >"$T/make" 2>&1; then
	ok "make tcg-plugin (warnings are errors)"
else
	not_ok "make tcg-plugin (warnings are errors)" "$(tail -20 "$T/make")"
	echo "$pass passed, $fail failed"
	exit 1
fi
exports=$(nm -D --defined-only "$PLUGIN" | awk '{ print $3 }' | sort | tr '\n' ' ')
check "the plugin exports only qemu_plugin_install and qemu_plugin_version" \
	'[ "$exports" = "qemu_plugin_install qemu_plugin_version " ]' "exports: $exports"
for q in qemu-x86_64 qemu-system-x86_64; do
	missing=$(comm -23 \
		<(nm -D --undefined-only "$PLUGIN" | awk '/qemu_plugin_/ { print $2 }' | sort) \
		<(nm -D --defined-only "$(command -v $q)" | awk '{ print $3 }' | sort))
	check "every qemu_plugin_* function the plugin calls is exported by $q" \
		'[ -z "$missing" ] && [ -x "$(command -v $q)" ]' "missing: $missing"
done
MARKS=$(tools/tcg-insn/marks.sh "$LOOP" 2>"$T/err")
check "marks.sh finds the markers in .rpmark (start=0x...,stop=0x...)" \
	'[[ $MARKS =~ ^start=0x[0-9a-f]+,stop=0x[0-9a-f]+$ ]]' "got '$MARKS': $(cat "$T/err")"
check "marks.sh refuses a program without markers" \
	'! tools/tcg-insn/marks.sh /bin/true >/dev/null 2>"$T/err" && grep -q "no rp_mark_start" "$T/err"' \
	"stderr: $(cat "$T/err")"

# --- what the regions execute, from objdump ---
objdump -d --no-show-raw-insn "$LOOP" > "$T/dis"
# START's instructions up to its ret (a naked function: ret, then ud2)
mark=$(block rp_mark_start | awk '{ n++ } /\tret/ { print n; exit }')
# rp_region: the call to START (before the interval), the rest counted;
# rp_loop: one turn; rp_loop_end: the call to STOP counted, not its ret
region=$(block rp_region | wc -l)
per=$(block rp_loop | wc -l)
fixed=$((mark + region - 1 + 1))
# rp_fault: the load that faults; rp_fault_next: the rest of its block
after_fault=$(block rp_fault_next | wc -l)
check "objdump: START is one ret, a turn of the loop two instructions" \
	'[ "$mark" = 1 ] && [ "$per" = 2 ] && [ "$after_fault" = 2 ]' \
	"mark=$mark per=$per after_fault=$after_fault (insn_loop.S changed?)"
echo "# per interval: $fixed + K * $per instructions"

# --- counts, exact ---
# expect_all NAME EXPECTED ROUNDS: every interval of $T/out is EXPECTED
expect_all() {
	local want=$2 rounds=$3 got n
	got=$(intervals | sort -u | tr '\n' ' ')
	n=$(intervals | wc -l)
	check "$1" '[ "$got" = "$want " ] && [ "$n" = "$rounds" ]' \
		"want $rounds intervals of $want, got $n: ${got:0:200}; stderr: $(head -3 "$T/err")"
}
for k in 0 1000 100000; do
	count -- 5 "$k"
	expect_all "K=$k, per TB: 5 intervals of $fixed + $k*$per" $((fixed + k * per)) 5
	cp "$T/out" "$T/tb-$k"
	count exact=on -- 5 "$k"
	expect_all "K=$k, exact=on: 5 intervals of $fixed + $k*$per" $((fixed + k * per)) 5
done
# Markers elsewhere in their blocks (the per-TB count corrects for the
# instructions of the block after the marker: 2 for test in [test, jz],
# 1 for the call at rp_loop_end): test, jz and K turns per interval.
# Then from jz to rp_loop's dec (second of [test, jz] to first of
# [dec, jnz]): jz alone, and every later dec is a STOP without START.
ret_addr=0x$(block rp_region | sed -n 2p | awk -F: '{ gsub(/ /, "", $1); print $1 }')
jz=0x$(block rp_region | tail -1 | awk -F: '{ gsub(/ /, "", $1); print $1 }')
sym() { echo "0x$(nm "$LOOP" | awk -v s="$1" '$3 == s { print $1 }')"; }
for mode in "per TB" exact=on; do
	MARKS_SAVED=$MARKS
	MARKS="start=$ret_addr,stop=$(sym rp_loop_end)"
	count "${mode/per TB/exact=off}" -- 3 1000
	expect_all "markers inside blocks, test to call ($mode): 3 intervals of 2 + 1000*$per" \
		$((2 + 1000 * per)) 3
	MARKS="start=$jz,stop=$(sym rp_loop)"
	count "${mode/per TB/exact=off}" -- 3 1000
	MARKS=$MARKS_SAVED
	expect_all "markers inside blocks, jz to dec ($mode): 3 intervals of 1" 1 3
	check "... and the summary counts 3 * 999 STOP without START ($mode)" \
		'grep -q "^# tcg-insn: 3 intervals.*0 START left open, 2997 STOP without START" "$T/out"' \
		"summary: $(grep "^#" "$T/out")"
done
c1=$(awk '!/^#/ { print $1; exit }' "$T/tb-1000")
c2=$(awk '!/^#/ { print $1; exit }' "$T/tb-100000")
check "linear: count(K=100000) - count(K=1000) = 99000 * $per" \
	'[ -n "$c1" ] && [ -n "$c2" ] && [ $((c2 - c1)) = $((99000 * per)) ]' \
	"count(1000)=$c1 count(100000)=$c2"
e=$((fixed + 100000 * per))
check "summary line: intervals, min, median, max" \
	'grep -qx "# tcg-insn: 5 intervals (per TB): min $e median $e max $e" "$T/tb-100000"' \
	"got: $(grep '^#' "$T/tb-100000")"
same=1
for i in 1 2 3; do
	count -- 3 100000
	cmp -s "$T/out" "$T/run1" 2>/dev/null || { [ $i = 1 ] || same=0; }
	cp "$T/out" "$T/run1"
done
check "three runs agree exactly" '[ $same = 1 ]' "last: $(head -c 300 "$T/out")"

# --- profile=: the blocks that ran inside an interval ---
count profile="$T/prof" -- 3 100000
loop_at=$(printf '0x%x' "$(sym rp_loop)")	# as the plugin writes it
loop_runs=$(awk -v a="$loop_at" '$1 == a { print $3 }' "$T/prof")
check "profile=: the loop's block ran 3 * 100000 times in the intervals" \
	'[ "$loop_runs" = 300000 ]' "rp_loop at $loop_at: '$loop_runs'; $(head -c 300 "$T/prof")"
prof_sum=$(awk '{ s += $2 * $3 } END { print s + 0 }' "$T/prof")
int_sum=$(intervals | awk '{ s += $1 } END { print s + 0 }')
check "profile=: its blocks add up to the intervals, within a marker a side" \
	'[ $((prof_sum - int_sum)) -le 6 ] && [ $((int_sum - prof_sum)) -le 6 ]' \
	"profile $prof_sum, intervals $int_sum"

# --- vCPU filter, output to stderr ---
count vcpu=1 -- 3 10
check "vcpu=1: a single-threaded program's markers (vCPU 0) are ignored" \
	'grep -qx "# tcg-insn: 0 intervals (per TB)" "$T/out" && [ -z "$(intervals)" ]' \
	"out: $(head -c 300 "$T/out")"
count vcpu=0 -- 3 10
expect_all "vcpu=0: its 3 intervals" $((fixed + 10 * per)) 3
qemu-x86_64 -plugin "$PLUGIN,$MARKS" "$LOOP" 2 7 >"$T/stdout" 2>"$T/err"
check "without out=, the lines and the summary go to stderr" \
	'[ "$(grep -c "^$((fixed + 7 * per)) 0$" "$T/err")" = 2 ] && grep -q "^# tcg-insn: 2 intervals" "$T/err"' \
	"stderr: $(head -c 300 "$T/err")"

# --- the early-exit limit: each load faults in its block's first
# instruction; per TB counts the rest of the block twice, exact=on not ---
count -- -f 2 1000
tb=$(intervals | sort -u)
count exact=on -- -f 2 1000
ex=$(intervals | sort -u)
check "early exits: per TB - exact = 1000 faults * $after_fault (the rest of the block)" \
	'[ "$(wc -w <<<"$tb $ex")" = 2 ] && [ $((tb - ex)) = $((1000 * after_fault)) ]' \
	"per TB: $tb, exact: $ex"
echo "# 1000 faulting loads per interval: per TB $tb, exact=on $ex"

# --- argument errors: QEMU refuses the plugin with its message ---
# refused NAME PLUGIN_ARGS STDERR_REGEX
refused() {
	local re=$3 rc=0
	qemu-x86_64 -plugin "$PLUGIN${2:+,$2}" "$LOOP" 1 1 >/dev/null 2>"$T/err" || rc=$?
	check "refused: $1" \
		'[ $rc != 0 ] && grep -Eq -- "$re" "$T/err" && grep -q "Could not load plugin" "$T/err"' \
		"exit $rc; stderr: $(head -c 400 "$T/err")"
}
start=${MARKS%%,*} stop=${MARKS#*,}
refused "no markers" "" "tcg-insn: give both markers"
refused "no stop" "$start" "tcg-insn: give both markers"
refused "no start" "$stop" "tcg-insn: give both markers"
refused "start is not an address" "start=main,$stop" "tcg-insn: start=main: not an address"
refused "stop is not an address" "$start,stop=0x12zz" "tcg-insn: stop=0x12zz: not an address"
refused "start = stop" "$start,stop=${start#start=}" "start and stop are the same address"
refused "unknown argument" "$MARKS,strat=1" "tcg-insn: unknown argument 'strat=1'"
refused "vcpu not a number" "$MARKS,vcpu=-1" "tcg-insn: vcpu=-1: not a vCPU index"
refused "exact neither on nor off" "$MARKS,exact=maybe" "tcg-insn: exact=maybe: give on or off"
refused "out= unwritable" "$MARKS,out=$T/no/such/dir" "tcg-insn: out=.*No such file"

# --- qemu-system-x86_64 loads it: no machine, no vCPU, nothing boots ---
printf '{"execute":"qmp_capabilities"}\n{"execute":"quit"}\n' |
	timeout 30 qemu-system-x86_64 -machine none -nodefaults -display none \
		-qmp stdio -plugin "$PLUGIN,$MARKS,out=$T/sys" >/dev/null 2>"$T/err"
check "qemu-system-x86_64 -machine none loads it and runs its exit summary" \
	'grep -qx "# tcg-insn: 0 intervals (per TB)" "$T/sys" 2>/dev/null' \
	"stderr: $(head -c 300 "$T/err")"
timeout 30 qemu-system-x86_64 -machine none -nodefaults -display none \
	-plugin "$PLUGIN,$MARKS,vcpu=3" </dev/null >/dev/null 2>"$T/err"
check "qemu-system-x86_64 refuses a vcpu= beyond the machine's" \
	'grep -q "tcg-insn: vcpu=3: the machine has 1 vCPUs" "$T/err" && grep -q "Could not load plugin" "$T/err"' \
	"stderr: $(head -c 300 "$T/err")"

# --- make bench's workload and report.py's pairing of counts and runs ---
# Under qemu-x86_64 the system call is emulated (no kernel): every call
# costs the loop's few instructions, so an interval of 2N calls counts
# exactly N calls' worth more than one of N.
MARKED=build/tcg-insn/getpgid_marked
bench_run() {	# INTERVALS CALLS: the counts appended to $T/counts
	qemu-x86_64 -plugin "$PLUGIN,$(tools/tcg-insn/marks.sh $MARKED),out=$T/one" \
		$MARKED -w 10 "$@" >"$T/made" 2>"$T/err" &&
		awk '!/^#/' "$T/one" >> "$T/counts"
}
: > "$T/counts"
bench_run 3 100 && bench_run 3 100 && bench_run 3 200 && bench_run 3 300
mapfile -t c < <(awk '{ print $1 }' "$T/counts")
check "getpgid_marked: 3 intervals a run, the same count each, each 100 calls more adding the same count" \
	'[ ${#c[@]} = 12 ] && [ "${c[0]}" = "${c[2]}" ] && [ "${c[6]}" = "${c[8]}" ] && [ $(( c[9] - c[6] )) = $(( c[6] - c[0] )) ] && [ $(( c[6] - c[0] )) -ge 300 ]' \
	"counts: ${c[*]}"
per100=$(( c[6] - c[0] ))	# 100 calls' instructions
head -9 "$T/counts" > "$T/counts9" && mv "$T/counts9" "$T/counts"
# The guest's lines as guest.sh -i prints them: a warm-up round (dropped),
# then "none" and "kprobe_empty" (claimed as 100 calls an interval, so
# its figure is the 200-call runs' count over 100).
printf '%s\n' "K test-kernel 2" "I 0 none 3 100" "I 1 none 3 100" \
	"U bpftrace_kprobe not installed" "I 1 kprobe_empty 3 100" > "$T/guest"
python3 tests/bench/report.py --insn "$T/guest" --insn-counts "$T/counts" \
	--command test > "$T/report" 2>&1
want_none=$(awk -v c="${c[0]}" 'BEGIN { printf "%.1f", c / 100 }')
want_over=$(awk -v d="$per100" 'BEGIN { printf "%+d", d / 100 }')
check "report.py: instructions per call from the run's own intervals, overhead over no probe" \
	'grep -q "^| no probe | $want_none | 0.00% | – | – | $want_none |" "$T/report" && grep -q "^| empty kprobe (the floor) | .* | $want_over | – |" "$T/report"' \
	"want $want_none and $want_over; got: $(grep -E "no probe|empty kprobe" "$T/report" | head -3)"
check "report.py: an unavailable configuration says why" \
	'grep -q "bpftrace kprobe, .* | unavailable: not installed" "$T/report"' \
	"$(grep bpftrace "$T/report")"
echo "1 0" >> "$T/counts"
check "report.py: counts that do not line up with the runs are refused" \
	'! python3 tests/bench/report.py --insn "$T/guest" --insn-counts "$T/counts" >"$T/report" 2>&1 && grep -q "do not line up" "$T/report"' \
	"$(head -c 300 "$T/report")"

# Each kernel's run rewrites its own blocks of the doc: 6.12's, not 6.1's.
sed -i '$d' "$T/counts"
printf '%s\n' "# doc" "<!-- bench:insn:begin (tests/bench/run.sh rewrites this part) -->" \
	"6.1's" "<!-- bench:insn:end -->" \
	"<!-- bench:insn:6.12:begin (tests/bench/run.sh -k 6.12 rewrites this part) -->" \
	"old" "<!-- bench:insn:6.12:end -->" > "$T/doc.md"
python3 tests/bench/report.py --insn "$T/guest" --insn-counts "$T/counts" \
	--command test --doc "$T/doc.md" --doc-kernel 6.12 > /dev/null 2>&1
check "report.py --doc-kernel 6.12: 6.12's block rewritten, 6.1's kept" \
	'sed -n "/insn:begin/,/insn:end/p" "$T/doc.md" | grep -qx "6.1'"'"'s" && sed -n "/insn:6.12:begin/,/insn:6.12:end/p" "$T/doc.md" | grep -q "^| no probe | $want_none |" && ! grep -qx old "$T/doc.md"' \
	"$(cat "$T/doc.md" | head -30)"
check "report.py: a kernel whose markers the doc lacks is refused" \
	'! python3 tests/bench/report.py --insn "$T/guest" --insn-counts "$T/counts" --command test --doc "$T/doc.md" --doc-kernel rt > "$T/report" 2>&1 && grep -q "no <!-- bench:insn:rt:begin" "$T/report"' \
	"$(head -c 300 "$T/report")"

# The add/remove comparison: each tool's adds set against the other's in
# the same arming order (rawprobe arms the list as given, ftrace reversed).
printf '%s\n' "K test-kernel 2" "S rawprobe 10 4000 1 10" \
	"S ftrace 10 3000 1 10" "S rawprobe_reversed 10 2000 1 10" \
	"S ftrace_reversed 10 5000 1 10" > "$T/scale"
python3 tests/bench/report.py "$T/scale" --command test > "$T/report" 2>&1
check "report.py: adds compared in the same arming order, met or missed" \
	'grep -q "^| rawprobe, list reversed | 2.0 s |" "$T/report" && grep -q "armed last: rawprobe 2.0 s, ftrace 3.0 s (0.67×) — met" "$T/report" && grep -q "armed first: rawprobe 4.0 s, ftrace 5.0 s (0.80×) — met" "$T/report"' \
	"$(grep -A4 'same arming order' "$T/report")"
sed -i 's/^S ftrace_reversed .*/S ftrace_reversed 10 3500 1 10/' "$T/scale"
python3 tests/bench/report.py "$T/scale" --command test > "$T/report" 2>&1
check "report.py: a slower add in the same order is MISSED" \
	'grep -q "armed first: rawprobe 4.0 s, ftrace 3.5 s (1.14×) — MISSED" "$T/report"' \
	"$(grep -A4 'same arming order' "$T/report")"

# A stream round that lost records names itself and what the guest's
# scheduler did to its reader (guest.sh W lines: before, then after).
printf '%s\n' "K test-kernel 2" \
	"R 1 none 400 1000 - - -" "R 2 none 400 1000 - - -" \
	"W 1 rawprobe_kprobe_mono 0.0 0.0 3 1.0 0.9 2.0 4 51.0" \
	"R 1 rawprobe_kprobe_mono 700 1000 1000 1000 0" \
	"W 2 rawprobe_kprobe_mono 0.0 0.0 3 1.0 17.2 20.5 10 61.0" \
	"R 2 rawprobe_kprobe_mono 700 1000 1000 900 100" \
	"R 0 rawprobe_kretprobe 900 1000 1000 980 20" \
	"R 1 rawprobe_kretprobe 900 1000 1000 1000 0" > "$T/loss"
python3 tests/bench/report.py "$T/loss" --command test > "$T/report" 2>&1
check "report.py: a losing round shows the reader's waits for its CPU" \
	'grep -q "rawprobe_kprobe_mono, zero records lost with the default ring: 100 of 2,000 lost — MISSED" "$T/report" && grep -q "^  - round 2: 100 (the reader waited for its CPU 17.2 ms at most, 20.5 ms in all, 7 involuntary switches, 60 ms on CPU)$" "$T/report" && grep -q "longest wait for their CPU in the guest, over every round: 17.2 ms" "$T/report"' \
	"$(grep -A2 'zero records' "$T/report")"
check "report.py: a loss in the warm-up round misses zero loss too" \
	'grep -q "rawprobe_kretprobe, zero records lost with the default ring: 0 of 1,000 lost, and 20 in the warm-up round — MISSED" "$T/report"' \
	"$(grep 'zero records' "$T/report")"

# The reader's speed against the calls' (guest.sh D lines, one a round).
printf '%s\n' "D 1 rawprobe_kprobe_mono 650 4000" \
	"D 2 rawprobe_kprobe_mono 810 16384" "D 0 rawprobe_kretprobe 650 12000" \
	"D 1 rawprobe_kretprobe 600 3000" >> "$T/loss"
python3 tests/bench/report.py "$T/loss" --command test > "$T/report" 2>&1
check "report.py: the reader's ns a record against the calls', slower rounds counted" \
	'grep -q "^  - the reader: 730 ns a record in full batches (median round; 810 in the slowest) against 700 ns a call; slower than the calls in 1 of 2 rounds; largest backlog 16,384 records$" "$T/report"' \
	"$(grep -A3 'rawprobe_kprobe_mono, zero' "$T/report")"
check "report.py: the largest backlog counts the warm-up round's" \
	'grep -q "largest backlog 12,000 records (in the warm-up round)$" "$T/report"' \
	"$(grep -A3 'rawprobe_kretprobe, zero' "$T/report")"

# --doc: the same report, its prose wrapped at 72 columns in the doc
# (tables and fenced blocks as they are); the rest of the doc untouched.
printf '%s\n' "# kept" \
	"<!-- bench:results:begin (tests/bench/run.sh rewrites this part) -->" \
	"old" "<!-- bench:results:end -->" "kept too" > "$T/doc.md"
python3 tests/bench/report.py "$T/loss" --command test --doc "$T/doc.md" >/dev/null 2>&1
check "report.py --doc: prose wrapped at 72 columns, the rest kept" \
	'grep -q "^  2,000 lost — MISSED$" "$T/doc.md" && ! grep -q "^old$" "$T/doc.md" && head -1 "$T/doc.md" | grep -q "^# kept$" && tail -1 "$T/doc.md" | grep -q "^kept too$" && python3 -c "import sys; sys.exit(any(len(l) > 72 and not l.startswith((\"|\", \"    \")) for l in open(sys.argv[1], encoding=\"utf-8\").read().splitlines()))" "$T/doc.md"' \
	"$(grep -B1 -A1 '2,000 lost' "$T/doc.md")"
# A run without --scale (times only) keeps the last run's scale block.
printf '%s\n' "<!-- bench:results:begin (tests/bench/run.sh rewrites this part) -->" \
	"old" "<!-- bench:results:end -->" \
	"<!-- bench:scale:begin (tests/bench/run.sh rewrites this part) -->" \
	"old scale" "<!-- bench:scale:end -->" > "$T/doc.md"
python3 tests/bench/report.py "$T/loss" --command test --doc "$T/doc.md" >/dev/null 2>&1
check "report.py --doc: times alone rewrite their block, the scale block kept" \
	'! grep -qx old "$T/doc.md" && grep -q "2,000 lost" "$T/doc.md" && sed -n "/bench:scale:begin/,/bench:scale:end/p" "$T/doc.md" | grep -qx "old scale" && ! sed -n "/bench:results:begin/,/bench:results:end/p" "$T/doc.md" | grep -q "Adding and removing"' \
	"$(cat "$T/doc.md")"

# drainlog.py: a reader level until one pass, the host's wait lined up by
# the log's "# end" and its modification time.
{
	echo "# rawprobectl drain log: 2 rings of 16384 records"
	echo "# start_ns poll_ns work_ns records backlog lost"
	for i in 0 1 2 3 4; do
		echo "$((1000000000 + i * 1000000)) 0 500000 1024 2000 0"
	done
	echo "1005000000 0 20000000 1024 2000 0"
	echo "1025000000 0 500000 1024 16384 700"
	echo "# end 2000000000"
} > "$T/drain.log"
touch -d "@1700000001" "$T/drain.log"	# guest 2.0 s = host 1700000001.0 s
echo "1700000000026000000 CPU_1/TCG 18000000" > "$T/events"
python3 tests/bench/drainlog.py --events "$T/events" "$T/drain.log" > "$T/dl" 2>&1
check "drainlog.py: the first loss, the reader's rate, the host's wait lined up" \
	'grep -q "700 records lost, the first seen by pass 6" "$T/dl" && grep -q "the reader was faster than the writers: the loss came from a stall" "$T/dl" && grep -q "^     1.00 CPU_1/TCG waited 18.0 ms$" "$T/dl"' \
	"$(cat "$T/dl")"

# A near miss: a reader asleep in poll() far past the watermark.
{
	echo "# rawprobectl drain log: 2 rings of 16384 records"
	for i in 0 1 2 3 4; do
		echo "$((1000000000 + i * 600000)) 0 500000 1024 3000 0"
	done
	echo "1003000000 0 10000 11 11 0"
	echo "1003010000 8000000 500000 1024 12000 0"
	echo "# end 2000000000"
} > "$T/late.log"
python3 tests/bench/drainlog.py "$T/late.log" > "$T/dl" 2>&1
check "drainlog.py: a sleep in poll() past the watermark is a late wakeup" \
	'grep -q "no record lost; the largest backlog, 12,000 records, seen by pass 6" "$T/dl" && grep -q "longest sleep in poll() 8.0 ms: the reader was asleep in poll() while 12,000 records came: a late wakeup (the default watermark is 2,048)" "$T/dl"' \
	"$(cat "$T/dl")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
