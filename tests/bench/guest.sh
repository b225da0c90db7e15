#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-guest half of the benchmark (tests/bench/run.sh boots the guest
# with tests/vm/run -n and runs this). A getpgid loop on cpu0 with each
# probe configuration in turn, the readers on cpu1; configurations are
# interleaved, rotated every round. Prints raw result lines for
# tests/bench/report.py:
#   K <uname -r> <cpus>                       the guest
#   R <round> <config> <ns/call> <calls> <produced> <delivered> <lost>
#                                             (round 0: the warm-up)
#   U <config> <reason>                       configuration unavailable
#   S <tool> <n> <add ms> <remove ms> <armed> n kprobes added and removed,
#                                             rawprobe (batches) and ftrace
#                                             (kprobe_events), same symbols;
#                                             *_unarmed: registered only;
#                                             *_reversed: the list reversed
#   I <round> <config> <intervals> <calls>    (-i) the marked workload ran:
#                                             its intervals are the next
#                                             ones in the plugin's output
#   W <round> <config> <max> <sum> <nivcsw> <cpu> (the same, after)
#                                             a stream reader's scheduling
#                                             around the workload (ms;
#                                             reader_sched), times only
#   D <round> <config> <ns> <backlog>         a stream reader's ns a record
#                                             in full batches, its largest
#                                             backlog (its drain log)
#   G rawprobe[_kprobes] <glob> <n> <expand ms> <arm ms> <disarm ms>
#     <start-up ms>                           (-g) probe add --dry-run (the
#                                             CLI's part), probe add and
#                                             probe del of its n probes
#                                             (_kprobes: RAWPROBE_ARM=kprobes),
#                                             and a run of rawprobectl
#                                             version (its start-up); one
#                                             line a round (-g ROUNDS)
#   G bpftrace[_multi] <glob> <attached> - <run ms> <BEGIN-only ms>
#                                             (-g) a run that attaches the
#                                             glob and exits at BEGIN, and a
#                                             run of BEGIN alone (kprobe.multi
#                                             where bpftrace --info says so)
#   GS <tool> <glob> <why...>                 (-g) a row not run, and why
# Beside the configurations compared, rawprobe_*_ring are a
# diagnosis: the same probes writing every record into the default ring
# in overwrite mode, with no reader competing for the host's CPUs. The
# feature rows are ring rows too, each one option over its base row:
# --args auto, --filter (passing every call), --stack on getpgid, and
# one field fetch (pid->numbers[0].nr) on pid_vnr, which every
# getpgid(0) calls once, beside a plain probe there. rawprobe_kprobe_ring_1000
# is the ring row with 1,000 other probes registered as users add them
# (disabled, so that none fires in the workload: in rawprobe's ftrace
# table); kprobe_empty_1000 the empty probe with 1,000 kprobes
# (RAWPROBE_ARM=kprobes: in kprobes' table, where every hit's lookup
# walks them); rawprobe_kprobe_kprobes_ring the ring row armed by kprobes.
#
# With -i, the instruction count (docs/performance.md): the guest runs
# under the TCG plugin tools/tcg-insn, and the workload is
# build/tcg-insn/getpgid_marked, INTERVALS intervals of CALLS calls
# between the plugin's markers per run; the host pairs the plugin's
# counts with the I lines in order. Its configurations add jprobe-style
# rows and the staircase, step<N>_*_ring: the ring row on a copy of the
# core cut short at step N (make bench-steps, kmod/record.h).
#
# With -P too, the plugin also profiles the intervals by block (run.sh
# --profile) and each configuration's /proc/kallsyms goes to the output
# directory, to name the blocks.
#
#   guest.sh [-i [-P]] [-r ROUNDS] [-n CALLS] [-c "CONFIG..."] [-s "N..."]
#            [-f rawprobe|ftrace] [-R] [-g]
# -s: the probe counts of the add/remove comparison (default "1000 10000";
# "" for none); -f: which tool adds and removes them first (rawprobe);
# -R: each tool again on the same functions in the reverse order.
# -g ROUNDS: only the globs' arming and disarming (G lines): tcp_* and the globs
# whose functions come nearest 100, 1,000 and 10,000.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh

INSN=0
ROUNDS=""
CALLS=""
CONFIGS=""
INTERVALS=21	# per run, with -i
SCALE="1000 10000"
OPTION_ROWS="rawprobe_args_auto_ring rawprobe_filter_ring rawprobe_stack_ring
	rawprobe_pid_vnr_ring rawprobe_field_ring rawprobe_override_skip
	rawprobe_filter_str_ring rawprobe_filter_glob_ring rawprobe_cgroup_ring"
# Tracepoints: raw_syscalls:sys_enter, which every getpgid call hits
# once (its probes put every syscall on the entry's slow path, as they
# do for bpftrace and ftrace): an empty probe, rawprobe's count and
# record, bpftrace's count, perf's count and record; and the syscall
# event syscalls:sys_enter_getpgid (a probe on raw_syscalls:sys_enter
# that compares the number), alone and among all of them (a glob)
TP_ROWS="tracepoint_empty cmd_tp_count rawprobe_tp_ring bpftrace_tp_count
	perf_tp_count perf_tp_record cmd_sys_count cmd_sys_glob_count"
# The second data path: counts in the kernel, beside bpftrace's maps and
# ftrace's hist trigger doing the same
AGG_ROWS="rawprobe_count rawprobe_count_comm rawprobe_count_stack
	rawprobe_hist_latency cmd_count cmd_count_comm cmd_hist
	cmd_count_latency cmd_trace bpftrace_count bpftrace_count_comm
	bpftrace_count_stack bpftrace_hist_latency ftrace_hist_pid
	cmd_latency bpftrace_pair_latency $TP_ROWS"
TIME_CONFIGS="none kprobe_empty kretprobe_empty rawprobe_kprobe
	rawprobe_kretprobe rawprobe_kprobe_ring rawprobe_kretprobe_ring
	rawprobe_kprobe_mono rawprobe_kretprobe_mono
	ftrace_kprobe ftrace_kretprobe bpftrace_kprobe $OPTION_ROWS $AGG_ROWS"
INSN_CONFIGS="$TIME_CONFIGS rawprobe_kprobe_mono_ring rawprobe_kretprobe_mono_ring
	rawprobe_kprobe_kprobes_ring
	rawprobe_kprobe_ring_1000 kprobe_empty_1000
	rawprobe_jprobe rawprobe_jprobe_ring
	step1_kprobe_ring step2_kprobe_ring step3_kprobe_ring
	step1_kretprobe_ring step2_kretprobe_ring step3_kretprobe_ring"
SCALE_FIRST=rawprobe
SCALE_HOW=""	# "" (the sorted list), reversed, unarmed
GLOBS=0
GLOB_ROUNDS=3
PROFILE=0
while getopts "ir:n:c:s:f:Rg:P" opt; do
	case $opt in
	i)	INSN=1 ;;
	P)	PROFILE=1 ;;
	g)	GLOBS=1 GLOB_ROUNDS=$OPTARG ;;
	s)	SCALE=$OPTARG ;;
	f)	SCALE_FIRST=$OPTARG ;;
	R)	SCALE_HOW=reversed ;;
	r)	ROUNDS=$OPTARG ;;
	n)	CALLS=$OPTARG ;;
	c)	CONFIGS=$OPTARG ;;
	*)	exit 2 ;;
	esac
done
# Counts do not vary like times: fewer rounds, short intervals (a timer
# tick lands in few of them, and the median interval has none).
if [ $INSN = 1 ]; then
	: "${ROUNDS:=3}" "${CALLS:=256}" "${CONFIGS:=$INSN_CONFIGS}"
else
	: "${ROUNDS:=11}" "${CALLS:=100000}" "${CONFIGS:=$TIME_CONFIGS}"
	# for reader_sched's waits (Debian builds CONFIG_SCHEDSTATS, off)
	echo 1 >/proc/sys/kernel/sched_schedstats 2>/dev/null
fi

SYM=__x64_sys_getpgid
FIELD_SYM=pid_vnr	# getpgid(0) -> do_getpgid() -> pid_vnr(task_pgrp(current))
LOOP=build/tools/getpgid_loop
MARKED=build/tcg-insn/getpgid_marked
EMPTY=$(dirname "$KO")/bench/rp_bench_empty.ko
TR=/sys/kernel/tracing
KPLIST=/sys/kernel/debug/kprobes/list
OUT=$T_SCRATCH
declare -A UNAVAILABLE=()

# The workload, on cpu0: median ns/call of 5 batches, and the calls made.
# With -i: "- CALLS_MADE", after an I line on the real output (fd 3). A
# marked run that fails leaves the plugin's intervals out of step with the
# I lines: the pass ends (the main loop sees insn.broken).
workload() {
	local n
	if [ $INSN = 0 ]; then
		taskset -c 0 $LOOP -b 5 "$CALLS"
		return
	fi
	if ! n=$(taskset -c 0 $MARKED "$INTERVALS" "$CALLS"); then
		touch "$OUT/insn.broken"
		return 1
	fi
	echo "I $ROUND $CONFIG $INTERVALS $CALLS" >&3
	# -P: the symbols the plugin's profile is named by, modules' included
	[ $PROFILE = 1 ] && cat /proc/kallsyms > "/rawprobe-out/kallsyms.$CONFIG"
	echo "- $n"
}

# alive PID: running, not a zombie waiting for us to reap it
alive() {
	local st
	read -r _ _ st _ 2>/dev/null < /proc/"$1"/stat && [ "$st" != Z ]
}

# stop PID SIGNAL: signal a reader and wait for it, 30 s at most; one that
# does not end is shown (state, kernel stack) and killed. Fails then.
# The signal is sent again every second: bpftrace 0.17 can miss a SIGINT
# that arrives just before it blocks in epoll_wait() with no timeout.
stop() {
	local n=300
	kill -"$2" "$1" 2>/dev/null
	while alive "$1" && [ $n -gt 0 ]; do
		sleep 0.1
		n=$((n - 1))
		[ $((n % 10)) = 0 ] && kill -"$2" "$1" 2>/dev/null
	done
	if alive "$1"; then
		echo "bench: pid $1 ignored SIG$2 for 30 s:" >&2
		ps -o pid,stat,wchan:32,args -p "$1" >&2
		cat /proc/"$1"/stack >&2 2>/dev/null
		kill -9 "$1"
		wait "$1" 2>/dev/null
		return 1
	fi
	wait "$1" 2>/dev/null
	return 0
}

# Is any kprobe on the symbol (default: getpgid's) registered, or an
# ftrace_ops tracing it (a pair's probes, a glob's: kmod/fentry.c)?
probe_armed() {
	grep -q " ${1:-$SYM}+0x" $KPLIST ||
		grep -q "^${1:-$SYM} " $TR/enabled_functions
}

# result CONFIG "NS CALLS" PRODUCED DELIVERED LOST
result() {
	echo "R $ROUND $1 $2 $3 $4 $5"
}

unavailable() {	# CONFIG REASON
	UNAVAILABLE[$1]=1
	echo "U $1 $2"
}

run_none() {
	result none "$(workload)" - - -
}

run_empty() {	# kprobe | kretprobe
	insmod "$EMPTY" kind="$1" symbol=$SYM || return 1
	result "$1_empty" "$(workload)" - - -
	rmmod rp_bench_empty
}
run_kprobe_empty() { run_empty kprobe; }
run_tracepoint_empty() {
	insmod "$EMPTY" kind=tracepoint symbol=sys_enter || return 1
	result tracepoint_empty "$(workload)" - - -
	rmmod rp_bench_empty
}
run_kretprobe_empty() { run_empty kretprobe; }

# What the scheduler did to a reader: the reader's longest and total wait
# for its CPU (runnable, not running; the guest's schedstats, reset by
# reader_sched_reset), its involuntary switches and its CPU time, in ms.
# A round that loses records says from this whether the guest kept the
# reader off its CPU. Times only: schedstats add instructions to every
# switch, which the counted rows' wakeups would carry.
reader_sched_reset() {	# PID
	[ $INSN = 0 ] && echo 0 >/proc/"$1"/sched 2>/dev/null
}
reader_sched() {	# PID: "WAIT_MAX WAIT_SUM NIVCSW CPU"
	[ $INSN = 0 ] || return 0
	awk '$1 == "se.sum_exec_runtime" { cpu = $3 }
	     $1 == "wait_max" { max = $3 }
	     $1 == "wait_sum" { sum = $3 }
	     $1 == "nr_involuntary_switches" { inv = $3 }
	     END { printf "%.1f %.1f %d %.1f\n", max, sum, inv, cpu }' \
		/proc/"$1"/sched 2>/dev/null
}

# Times only: every stream logs its drains (stream --drain-log) into the
# host's output directory, where the file's modification time is the
# host's clock at its last line; a round that lost records, or whose
# backlog passed half the ring, keeps its log as drain-ROUND-CONFIG.log,
# for tests/bench/drainlog.py to line up with
# tests/bench/hostwait.py's samples of the same seconds.
DRAIN_DIR=/rawprobe-out
drain_log_opt() {
	[ $INSN = 0 ] && [ -w $DRAIN_DIR ] &&
		echo "--drain-log $DRAIN_DIR/drain.log"
}
drain_log_keep() {	# CONFIG LOST
	local d
	[ -f $DRAIN_DIR/drain.log ] || return 0
	# the reader's ns a record in full batches, the largest backlog; a
	# log whose backlog passed half the ring is kept as a near miss
	d=$(awk -v r="$ROUND" -v c="$1" '
		/^# rawprobectl drain log:/ { ring = $8; next }
		/^#/ { next }
		$4 >= 1024 { work += $3; n += $4 }
		$5 > max { max = $5 }
		END { if (n) printf "D %s %s %.0f %d %d\n", r, c, work / n,
				   max, (max * 2 >= ring) }' $DRAIN_DIR/drain.log)
	[ -n "$d" ] && echo "${d% *}"
	if { [ "${2:-0}" != 0 ] && [ "$2" != - ]; } || [ "${d##* }" = 1 ]; then
		mv $DRAIN_DIR/drain.log "$DRAIN_DIR/drain-$ROUND-$1.log"
	else
		rm -f $DRAIN_DIR/drain.log
	fi
}

# rawprobectl stream owns the probe and prints every record to /dev/null;
# its summary (PROBE HITS RECORDS LOST FILTERED DELIVERED) gives the counts.
run_rawprobe() {	# kprobe | kretprobe | jprobe [STREAM OPTION...]
	local pid res before after counts
	taskset -c 1 $CTL stream -e "$1:$SYM" "${@:2}" $(drain_log_opt) \
		>/dev/null 2>"$OUT/stream.err" &
	pid=$!
	wait_for probe_armed 200 || { stop $pid INT; return 1; }
	reader_sched_reset $pid
	before=$(reader_sched $pid)
	res=$(workload)
	after=$(reader_sched $pid)
	stop $pid INT || return 1
	[ -n "$before" ] && [ -n "$after" ] &&
		echo "W $ROUND ${ROW:-rawprobe_$1} $before $after"
	# columns by their header's names, which have grown before
	counts=$(awk -v p="$1:$SYM" '
		$1 == "PROBE" { for (i = 2; i <= NF; i++) col[$i] = i }
		$1 == p { print $col["HITS"], $col["DELIVERED"], $col["LOST"] }
		' "$OUT/stream.err")
	result "${ROW:-rawprobe_$1}" "$res" $counts
	drain_log_keep "${ROW:-rawprobe_$1}" "${counts##* }"
}
run_rawprobe_kprobe() { run_rawprobe kprobe; }
run_rawprobe_kretprobe() { run_rawprobe kretprobe; }
run_rawprobe_jprobe() { run_rawprobe jprobe --args auto; }

# The same with the mono clock, the fallback where the kernel's
# clocksource is not tsc (ring set clock mono, no probe registered).
with_mono() {	# CMD...
	local rc
	$CTL ring set clock mono || return 1
	"$@"
	rc=$?
	$CTL ring set clock auto || return 1
	return $rc
}
run_rawprobe_kprobe_mono() { ROW=rawprobe_kprobe_mono with_mono run_rawprobe kprobe; }
run_rawprobe_kretprobe_mono() {
	ROW=rawprobe_kretprobe_mono with_mono run_rawprobe kretprobe
}

# json_num JSON KEY: a number from rawprobectl's JSON (no python: it is slow)
json_num() {
	printf '%s' "$1" | grep -o "\"$2\":[0-9]*" | head -1 | cut -d: -f2
}

# Diagnosis: the record path alone. The default ring in overwrite mode
# (a flight recorder) with no reader: every hit writes a record into the
# same 4 MiB a stream would use, and no reader competes for the host.
# "Delivered" is the records committed to the ring.
# AFTER_ADD, if set, is a command run once the probe is in.
ring_row() {	# CONFIG KIND SYMBOL [PROBE ADD OPTION...]
	local cfg=$1 kind=$2 sym=$3 id res j
	shift 3
	$CTL ring set mode overwrite || return 1
	id=$($CTL probe add "$kind" "$sym" "$@") || return 1
	if [ -n "${AFTER_ADD:-}" ] && ! $AFTER_ADD; then
		$CTL probe del "$id"
		return 1
	fi
	res=$(workload)
	j=$($CTL -j probe show "$id")
	$CTL probe del "$id"
	$CTL ring set mode discard
	result "$cfg" "$res" "$(json_num "$j" hits)" \
		"$(json_num "$j" records)" "$(json_num "$j" lost_ring)"
}
run_rawprobe_kprobe_ring() { ring_row rawprobe_kprobe_ring kprobe $SYM; }
# The same armed by kprobes, not through rawprobe's ftrace_ops
run_rawprobe_kprobe_kprobes_ring() {
	RAWPROBE_ARM=kprobes ring_row rawprobe_kprobe_kprobes_ring kprobe $SYM
}
run_rawprobe_kretprobe_ring() { ring_row rawprobe_kretprobe_ring kretprobe $SYM; }
run_rawprobe_kprobe_mono_ring() {
	with_mono ring_row rawprobe_kprobe_mono_ring kprobe $SYM
}
run_rawprobe_kretprobe_mono_ring() {
	with_mono ring_row rawprobe_kretprobe_mono_ring kretprobe $SYM
}
run_rawprobe_jprobe_ring() {
	ring_row rawprobe_jprobe_ring jprobe $SYM --args auto
}
# The others go in after getpgid's probe: the kernel's kprobe table puts
# a new probe at the head of its hash chain, where a lookup finds it first.
add_1000_disabled() {
	head -1000 "$OUT/funcs" | $CTL probe add kprobe - --disabled >/dev/null
}
run_rawprobe_kprobe_ring_1000() {
	local rc
	AFTER_ADD=add_1000_disabled ring_row rawprobe_kprobe_ring_1000 kprobe $SYM
	rc=$?
	$CTL probe del all >/dev/null
	return $rc
}
# The floor with 1,000 kprobes behind it: what kprobes' lookup costs.
run_kprobe_empty_1000() {
	local rc=0
	insmod "$EMPTY" kind=kprobe symbol=$SYM || return 1
	if RAWPROBE_ARM=kprobes add_1000_disabled; then
		result kprobe_empty_1000 "$(workload)" - - -
	else
		rc=1
	fi
	$CTL probe del all >/dev/null
	rmmod rp_bench_empty
	return $rc
}

# The staircase: the ring row on a copy of the core whose record path
# stops at step N (kmod/record.h), loaded in place of the core.
step_row() {	# N KIND
	local ko rc
	ko=$(dirname "$KO")/bench-step$1/rawprobe.ko
	if [ ! -f "$ko" ]; then
		unavailable "step$1_$2_ring" "no $ko (make bench-steps)"
		return 0
	fi
	module_unload
	insmod "$ko" || { module_load; return 1; }
	ring_row "step$1_$2_ring" "$2" $SYM
	rc=$?
	rmmod rawprobe
	module_load
	return $rc
}
for step in 1 2 3; do
	for kind in kprobe kretprobe; do
		eval "run_step${step}_${kind}_ring() { step_row $step $kind; }"
	done
done
# What each fetch option adds to the plain record (getpgid(0): pid 0)
run_rawprobe_args_auto_ring() {
	ring_row rawprobe_args_auto_ring kprobe $SYM --args auto
}
run_rawprobe_filter_ring() {
	ring_row rawprobe_filter_ring kprobe $SYM --args auto --filter 'pid == 0'
}
run_rawprobe_stack_ring() { ring_row rawprobe_stack_ring kprobe $SYM --stack; }
run_rawprobe_pid_vnr_ring() { ring_row rawprobe_pid_vnr_ring kprobe $FIELD_SYM; }
run_rawprobe_field_ring() {
	ring_row rawprobe_field_ring kprobe $FIELD_SYM --args 'pid->numbers[0].nr'
}

# String terms, on pid_vnr beside rawprobe_pid_vnr_ring: the
# struct pid its argument points to, read as a string (its refcount's
# low byte, then a NUL), compared with a constant or matched by a glob;
# both pass, so every call makes its record.
run_rawprobe_filter_str_ring() {
	ring_row rawprobe_filter_str_ring kprobe $FIELD_SYM --filter 'pid:str != "x"'
}
run_rawprobe_filter_glob_ring() {
	ring_row rawprobe_filter_glob_ring kprobe $FIELD_SYM --filter 'pid:str !~ "*x*"'
}
# --cgroup on the root cgroup v2, which every task is in or below: the
# ancestry test on every hit.
run_rawprobe_cgroup_ring() {
	mountpoint -q $CGROOT || mount -t cgroup2 none $CGROOT
	ring_row rawprobe_cgroup_ring kprobe $SYM --cgroup $CGROOT
}

# An override whose filter rejects every hit (the function runs): what an
# injection costs the calls it does not fail, as on a hot allocator. An
# override goes with its command: trace's, which reads no record.
run_rawprobe_override_skip() {
	local pid res j
	taskset -c 1 $CTL trace kprobe:$SYM --override -1 --comm rp-bench-none \
		>/dev/null 2>"$OUT/override.err" &
	pid=$!
	wait_for probe_armed 200 || { stop $pid INT; return 1; }
	res=$(workload)
	j=$($CTL -j probe list)
	stop $pid INT || return 1
	result rawprobe_override_skip "$res" "$(json_num "$j" filtered)" - -
}

# A counting probe (probe add --count ...): no record, no reader. Produced
# is the probe's hits, delivered the interval's counted hits (agg show),
# lost its dropped keys.
agg_row() {	# CONFIG KIND [PROBE ADD OPTION...]
	local cfg=$1 kind=$2 id res j a hits dropped
	shift 2
	id=$($CTL probe add "$kind" $SYM --count "$@") || return 1
	res=$(workload)
	j=$($CTL -j probe show "$id")
	a=$($CTL -j agg show "$id")
	$CTL probe del "$id"
	hits=$(json_num "$a" hits)
	dropped=$(json_num "$a" dropped)
	result "$cfg" "$res" "$(json_num "$j" hits)" "$((hits - dropped))" \
		"$dropped"
}
# The aggregation commands as users type them: a session, an owner and
# the command's own process left out, which persistent probes have not.
# (ARMED: what says the command's probe is armed, probe_armed by default)
cmd_row() {	# CONFIG COMMAND...
	local cfg=$1 pid res
	shift
	taskset -c 1 $CTL "$@" >"$OUT/cmd.out" 2>"$OUT/cmd.err" &
	pid=$!
	wait_for "${ARMED:-probe_armed}" 200 || { stop $pid INT; return 1; }
	res=$(workload)
	stop $pid INT || return 1
	result "$cfg" "$res" - - -
}
run_cmd_count() { cmd_row cmd_count count "kprobe:$SYM"; }
tp_armed() { $CTL probe list | grep -q 'tracepoint *raw_syscalls:sys_enter'; }
run_cmd_tp_count() {
	ARMED=tp_armed cmd_row cmd_tp_count count tracepoint:raw_syscalls:sys_enter
}
run_rawprobe_tp_ring() {
	ring_row rawprobe_tp_ring tracepoint raw_syscalls:sys_enter
}
sys_armed() { $CTL probe list | grep -q 'tracepoint *syscalls:sys_enter_getpgid'; }
run_cmd_sys_count() {
	ARMED=sys_armed cmd_row cmd_sys_count count tracepoint:syscalls:sys_enter_getpgid
}
# every probe of the glob armed: count says so once they are
glob_armed() { grep -q '^Counting' "$OUT/cmd.err"; }
run_cmd_sys_glob_count() {
	ARMED=glob_armed cmd_row cmd_sys_glob_count count 'tracepoint:syscalls:sys_enter_*'
}

# perf on the same event: perf stat counting it, perf record writing
# each hit to its ring and a file, system-wide; started with the event
# off (-D -1) and turned on through perf's control fifo, which
# acknowledges once it is
run_perf_tp() {	# CONFIG stat|record
	local pid res ack ctl=$OUT/perf.ctl ackf=$OUT/perf.ack out=(-o "$OUT/perf.out")
	rm -f "$ctl" "$ackf" "$OUT/perf.out"
	mkfifo "$ctl" "$ackf"
	[ "$2" = record ] && out=(-q -o "$OUT/perf.out")
	taskset -c 1 perf "$2" -a -e raw_syscalls:sys_enter "${out[@]}" -D -1 \
		--control "fifo:$ctl,$ackf" >/dev/null 2>"$OUT/perf.err" &
	pid=$!
	exec 8<>"$ctl" 9<>"$ackf"
	echo enable >&8
	if ! read -r -t 60 ack <&9 || [ "$ack" != ack ]; then
		exec 8>&- 9>&-
		stop $pid TERM
		unavailable "$1" "$(grep -m1 . "$OUT/perf.err" || echo 'perf did not enable its event in 60 s')"
		return 0
	fi
	res=$(workload)
	stop $pid INT || { exec 8>&- 9>&-; return 1; }
	exec 8>&- 9>&-
	result "$1" "$res" - - -
}
run_perf_tp_count() { run_perf_tp perf_tp_count stat; }
run_perf_tp_record() { run_perf_tp perf_tp_record record; }
run_cmd_count_comm() { cmd_row cmd_count_comm count "kprobe:$SYM" --by comm; }
run_cmd_hist() { cmd_row cmd_hist hist "kretprobe:$SYM"; }
run_cmd_count_latency() {
	cmd_row cmd_count_latency count "kretprobe:$SYM" --stats latency \
		--hist log2
}
run_cmd_trace() { cmd_row cmd_trace trace "kprobe:$SYM"; }
# A pair over the same call as hist's kretprobe: getpgid's entry to the
# pid_vnr() it calls once, keyed by the task
run_cmd_latency() {
	cmd_row cmd_latency latency --key pid --from "kprobe:$SYM" \
		--to kprobe:pid_vnr
}

run_rawprobe_count() { agg_row rawprobe_count kprobe; }
run_rawprobe_count_comm() { agg_row rawprobe_count_comm kprobe --by comm; }
run_rawprobe_count_stack() { agg_row rawprobe_count_stack kprobe --by stack; }
run_rawprobe_hist_latency() {
	agg_row rawprobe_hist_latency kretprobe --stats latency --hist log2
}

# bpftrace with a map: the program runs per hit, the map is printed at
# exit. Delivered: the counts it prints (the histogram's too), added up.
run_bpftrace_map() {	# CONFIG PROBE PROGRAM
	local pid res n
	taskset -c 1 bpftrace -o "$OUT/bt.out" -e "$2:$SYM { $3 }" \
		>/dev/null 2>"$OUT/bt.err" &
	pid=$!
	if ! wait_for "probe_armed || ! alive $pid" 600 ||
	   ! probe_armed; then
		stop $pid TERM
		unavailable "$1" \
			"$(grep -m1 . "$OUT/bt.err" || echo 'did not attach in 60 s')"
		return 0
	fi
	res=$(workload)
	stop $pid INT || return 1
	# "@: N", "@[comm]: N", a stack's "]: N", a bucket's "[a, b) N |@@|"
	n=$(awk '/: [0-9]+$/ { s += $NF } /^\[.*\) +[0-9]+ \|/ { h += $(NF - 1) }
		 END { print (h ? h : s) + 0 }' "$OUT/bt.out")
	result "$1" "$res" "${res#* }" "$n" -
}
run_bpftrace_count() { run_bpftrace_map bpftrace_count kprobe '@ = count();'; }
# bpftrace runs BEGIN once every probe is attached: its file says so
# (a printf would wait in bpftrace's buffer)
run_bpftrace_tp_count() {
	local pid res
	rm -f "$OUT/bt.ready"
	taskset -c 1 bpftrace --unsafe -o "$OUT/bt.out" -e "BEGIN { system(\"touch $OUT/bt.ready\"); }
		tracepoint:raw_syscalls:sys_enter { @ = count(); }" \
		>/dev/null 2>"$OUT/bt.err" &
	pid=$!
	if ! wait_for "[ -e $OUT/bt.ready ] || ! alive $pid" 600 ||
	   ! [ -e "$OUT/bt.ready" ]; then
		stop $pid TERM
		unavailable bpftrace_tp_count \
			"$(grep -m1 . "$OUT/bt.err" || echo 'did not attach in 60 s')"
		return 0
	fi
	res=$(workload)
	stop $pid INT || return 1
	result bpftrace_tp_count "$res" - - -
}
run_bpftrace_count_comm() {
	run_bpftrace_map bpftrace_count_comm kprobe '@[comm] = count();'
}
run_bpftrace_count_stack() {
	run_bpftrace_map bpftrace_count_stack kprobe '@[kstack] = count();'
}
run_bpftrace_hist_latency() {
	local prog='@s[tid] = nsecs; } kretprobe:'$SYM' /@s[tid]/ {
		@ = hist(nsecs - @s[tid]); delete(@s[tid]);'
	run_bpftrace_map bpftrace_hist_latency kprobe "$prog"
}
run_bpftrace_pair_latency() {
	local prog='@s[tid] = nsecs; } kprobe:pid_vnr /@s[tid]/ {
		@ = hist(nsecs - @s[tid]); delete(@s[tid]);'
	run_bpftrace_map bpftrace_pair_latency kprobe "$prog"
}

# ftrace's hist trigger on a p: event, keyed by pid: no ring reader, the
# event soft-enabled by its trigger. Produced: kprobe_profile's hits;
# delivered: the histogram's Hits.
run_ftrace_hist_pid() {
	local ev=rpbench/getpgid_h res hits n
	echo "p:$ev $SYM" >> $TR/kprobe_events || return 1
	echo 'hist:keys=common_pid' > $TR/events/$ev/trigger || return 1
	res=$(workload)
	n=$(awk '/^ *Hits:/ { print $2 }' $TR/events/$ev/hist)
	hits=$(awk '$1 == "getpgid_h" { print $2 }' $TR/kprobe_profile)
	echo '!hist:keys=common_pid' > $TR/events/$ev/trigger
	echo "-:$ev" >> $TR/kprobe_events
	result ftrace_hist_pid "$res" "$hits" "$n" -
}

ftrace_drained() {
	! grep -q '^entries: [1-9]' $TR/per_cpu/cpu*/stats
}

# kprobe_events: a p: or r: event, a trace_pipe reader to a tmpfs file.
# Produced: the event's hits (kprobe_profile); lost: the ring buffer's
# overruns and drops.
run_ftrace() {	# p | r
	local ev=rpbench/getpgid_$1 pid res hits lost
	echo "$1:$ev $SYM" >> $TR/kprobe_events
	echo > $TR/trace
	taskset -c 1 cat $TR/trace_pipe > "$OUT/ftrace.out" &
	pid=$!
	echo 1 > $TR/events/$ev/enable
	res=$(workload)
	echo 0 > $TR/events/$ev/enable
	wait_for ftrace_drained 100
	sleep 0.2
	stop $pid TERM
	hits=$(awk -v e="getpgid_$1" '$1 == e { print $2 }' $TR/kprobe_profile)
	lost=$(awk '/^(overrun|dropped events):/ { s += $NF } END { print s + 0 }' \
		$TR/per_cpu/cpu*/stats)
	echo "-:$ev" >> $TR/kprobe_events
	result "ftrace_$2" "$res" "$hits" \
		"$(grep -vc 'LOST.*EVENTS' "$OUT/ftrace.out")" "$lost"
}
run_ftrace_kprobe() { run_ftrace p kprobe; }
run_ftrace_kretprobe() { run_ftrace r kretprobe; }

# bpftrace printing one line per hit to a tmpfs file. It has no hit
# counter of its own: produced is the calls made; lost is what it reports.
run_bpftrace_kprobe() {
	local pid res n lost
	taskset -c 1 bpftrace -o "$OUT/bt.out" \
		-e "kprobe:$SYM { printf(\"%d\\n\", pid); }" \
		>/dev/null 2>"$OUT/bt.err" &
	pid=$!
	if ! wait_for "probe_armed || ! alive $pid" 600 ||
	   ! probe_armed; then
		stop $pid TERM
		unavailable bpftrace_kprobe \
			"$(grep -m1 . "$OUT/bt.err" || echo 'did not attach in 60 s')"
		return 0
	fi
	sleep 0.5	# attached, now polling its buffers
	res=$(workload)
	sleep 0.5
	stop $pid INT || return 1
	n=$(grep -c '^[0-9]' "$OUT/bt.out")
	lost=$(cat "$OUT/bt.out" "$OUT/bt.err" |
		awk '/^Lost [0-9]+ events/ { s += $2 } END { print s + 0 }')
	result bpftrace_kprobe "$res" "${res#* }" "$n" "$lost"
}

check_clean() {	# nothing may be left on the symbols between configurations
	local sym
	for sym in $SYM $FIELD_SYM; do
		! probe_armed $sym ||
			{ echo "bench: a probe was left on $sym" >&2; exit 1; }
	done
	! tp_armed ||
		{ echo "bench: a probe was left on sys_enter" >&2; exit 1; }
}

# n kprobes from $OUT/funcs added then removed by rawprobe (batches of
# 256, then probe del all) and by ftrace (kprobe_events: create, enable,
# disable, clear); armed: the kprobes debugfs lists not disabled. The
# _unarmed rows register the same kprobes without arming them (rawprobe
# --disabled; ftrace events never enabled): the difference is the arming,
# the text patching. The _reversed rows take the same functions in the
# other order, which turns round the order each tool arms them in:
# rawprobe arms in the order given, ftrace's group enable newest-first.
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
scale_funcs() {	# N [reversed]
	if [ "${2:-}" = reversed ]; then
		head -"$1" "$OUT/funcs" | tac
	else
		head -"$1" "$OUT/funcs"
	fi
}
# rawprobe's rows arm as users get it (through rawprobe's ftrace_ops, a
# batch of 1,024 in one update); rawprobe_kprobes each probe by kprobes,
# as ftrace's kprobe_events do. armed: kprobes' list not disabled and
# the sites rawprobe's ftrace_ops traces.
scale_rawprobe() {	# N [unarmed|reversed|kprobes]
	local t0 add n tool=rawprobe${2:+_$2} opt=()
	[ "${2:-}" = unarmed ] && opt=(--disabled)
	[ "${2:-}" = kprobes ] && local -x RAWPROBE_ARM=kprobes
	scale_funcs "$1" "${2:-}" > "$OUT/scale"
	t0=$(date +%s%N)
	$CTL probe add kprobe - "${opt[@]}" < "$OUT/scale" >/dev/null ||
		return 1
	add=$(ms_since "$t0")
	n=$(( $(grep -vc DISABLED $KPLIST) +
	      $(grep -c rp_fentry_func $TR/enabled_functions) ))
	t0=$(date +%s%N)
	$CTL probe del all >/dev/null || return 1
	echo "S $tool $1 $add $(ms_since "$t0") $n"
}
# One write per event, through one open file: kprobe_events stops a
# multi-line write at the first line it refuses (a symbol it will not
# take), and the refusals are counted instead (then "armed" says so).
scale_ftrace() {	# N [unarmed|reversed]
	local t0 add n tool=ftrace${2:+_$2} line refused=0 arm=1
	[ "${2:-}" = unarmed ] && arm=0
	scale_funcs "$1" "${2:-}" |
		awk '{ print "p:rpscale/e" NR " " $1 }' > "$OUT/scale"
	echo > $TR/error_log
	t0=$(date +%s%N)
	exec 4>> $TR/kprobe_events
	while read -r line; do
		echo "$line" >&4 2>/dev/null || refused=$((refused + 1))
	done < "$OUT/scale"
	exec 4>&-
	if [ $arm = 1 ] && ! echo 1 > $TR/events/rpscale/enable; then
		echo > $TR/kprobe_events	# nothing left for the next step
		return 1
	fi
	add=$(ms_since "$t0")
	n=$(grep -vc DISABLED $KPLIST)
	t0=$(date +%s%N)
	[ $arm = 0 ] || echo 0 > $TR/events/rpscale/enable
	echo > $TR/kprobe_events || return 1
	echo "S $tool $1 $add $(ms_since "$t0") $n"
	[ $refused = 0 ] || echo "bench: kprobe_events refused $refused of" \
		"$1 events; the first: $(grep -m1 -A2 . $TR/error_log)" >&2
}

# glob_near N: the globs whose functions (in ftrace's list, once each)
# come nearest N, whatever the kernel: a name's first one to three
# characters ("ext*"), or a run of first letters ("q*,r*,s*"; bpftrace
# takes no "[q-s]*"), comma-separated.
glob_near() {
	awk '{ print $1 }' $TR/available_filter_functions | sort -u |
		awk -v want="$1" '
		function out(n, g) { d = n - want; print (d < 0 ? -d : d), g }
		{ for (k = 1; k <= 3; k++) n[substr($1, 1, k)]++
		  c = substr($1, 1, 1); if (c ~ /^[a-z]$/) first[c]++ }
		END {
			for (p in n) out(n[p], p "*")
			split("abcdefghijklmnopqrstuvwxyz", L, "")
			for (i = 1; i < 26; i++) {
				s = first[L[i]] + 0
				g = L[i] "*"
				for (j = i + 1; j <= 26; j++) {
					s += first[L[j]]
					g = g "," L[j] "*"
					out(s, g)
				}
			}
		}' | sort -n | awk 'NR == 1 { print $2 }'
}

# rawprobe: the glob expanded alone (--dry-run: ftrace's list, the
# blacklist, kallsyms, after a first run that made the kallsyms cache),
# then added as one batch (probes armed as they are registered), then its
# probes removed in one PROBE_DEL.
glob_rawprobe() {	# TOOL GLOBS (rawprobe_kprobes: RAWPROBE_ARM=kprobes)
	local t0 arm disarm expand tool=$1 g
	shift
	# local: an early return must not leave the next rows on kprobes
	[ "$tool" = rawprobe ] || local -x RAWPROBE_ARM=kprobes
	IFS=, read -r -a g <<< "$1"
	$CTL probe add kprobe "${g[@]}" --max-probes 16384 --dry-run >/dev/null 2>&1
	t0=$(date +%s%N)
	$CTL probe add kprobe "${g[@]}" --max-probes 16384 --dry-run >/dev/null 2>&1
	expand=$(ms_since "$t0")
	t0=$(date +%s%N)
	$CTL probe add kprobe "${g[@]}" --max-probes 16384 > "$OUT/glob.ids" \
		2> "$OUT/glob.err" || { cat "$OUT/glob.err" >&2; return 1; }
	arm=$(ms_since "$t0")
	t0=$(date +%s%N)
	$CTL probe del $(cat "$OUT/glob.ids") || return 1
	disarm=$(ms_since "$t0")
	t0=$(date +%s%N)
	$CTL version >/dev/null || return 1
	echo "G $tool $1 $(wc -l < "$OUT/glob.ids") $expand $arm $disarm $(ms_since "$t0")"
}

# bpftrace attaches every probe before BEGIN runs, and exit() detaches
# them: a run with BEGIN { exit(); } is start-up, attach and detach; a run
# of BEGIN alone is the start-up (parsing, BTF, code generation).
glob_bpftrace() {	# GLOB SIZE
	local t0 all base n tool=bpftrace
	bpftrace --info 2>&1 | grep -Eq 'kprobe_multi: yes' && tool=bpftrace_multi
	if [ $tool = bpftrace ] && [ "$2" -gt 1000 ]; then
		echo "GS bpftrace $1 no kprobe.multi here: a kprobe and a BPF program each"
		return 0
	fi
	t0=$(date +%s%N)
	BPFTRACE_MAX_PROBES=16384 bpftrace -e "kprobe:${1//,/,kprobe:} { } BEGIN { exit(); }" \
		> "$OUT/bt.out" 2>&1 || { cat "$OUT/bt.out" >&2; return 1; }
	all=$(ms_since "$t0")
	n=$(sed -n 's/^Attaching \([0-9]*\) probes.*/\1/p' "$OUT/bt.out")
	t0=$(date +%s%N)
	bpftrace -e 'BEGIN { exit(); }' > /dev/null 2>&1 || return 1
	base=$(ms_since "$t0")
	echo "G $tool $1 ${n:-0} - $all $base"
}

# Each glob by rawprobe (a batch at a time through its ftrace_ops) and
# by bpftrace, -g's ROUNDS times, the two in turn (the report takes the
# medians: one run of each moved by a second from run to run on a shared
# host), and once by rawprobe through kprobes (one at a time: not at
# 10,000, which takes many minutes). bpftrace without kprobe.multi
# (0.17, on 6.1) attaches a kprobe and a BPF program each: not at
# 10,000 either.
glob_rows() {
	local g size round
	for size in 100 388 1000 10000; do
		if [ $size = 388 ]; then g='tcp_*'; else g=$(glob_near $size); fi
		echo "globs: $g (about $size)" >&2
		for round in $(seq "$GLOB_ROUNDS"); do
			glob_rawprobe rawprobe "$g" ||
				echo "bench: rawprobe failed on $g" >&2
			command -v bpftrace >/dev/null || continue
			glob_bpftrace "$g" $size ||
				echo "bench: bpftrace failed on $g" >&2
		done
		if [ $size -le 1000 ]; then
			glob_rawprobe rawprobe_kprobes "$g" ||
				echo "bench: rawprobe_kprobes failed on $g" >&2
		else
			echo "GS rawprobe_kprobes $g one kprobe update each: many minutes"
		fi
	done
}

for c in bpftrace_kprobe bpftrace_count bpftrace_count_comm \
	 bpftrace_count_stack bpftrace_hist_latency bpftrace_pair_latency; do
	command -v bpftrace >/dev/null ||
		unavailable $c "bpftrace is not installed"
done
exec 3>&1
echo "K $(uname -r) $(nproc)"
module_load
check_clean
if [ $GLOBS = 1 ]; then
	glob_rows
	module_unload
	rm -rf "$T_SCRATCH"
	exit 0
fi
# the largest scale step's functions, none of them the workload's
max=1000
for n in $SCALE; do [ "$n" -gt $max ] && max=$n; done
probeable_functions $((max + 10)) | grep -vx -e $SYM -e $FIELD_SYM |
	head -$max > "$OUT/funcs"
set -- $CONFIGS
nconf=$#
# Round 0 is a warm-up whose results report.py drops: under TCG the first
# run of any code path pays for its translation (a stream's first 100,000
# records lost 20% to it and its next millions none), a cost hardware
# does not have.
for ((ROUND = 0; ROUND <= ROUNDS; ROUND++)); do
	echo "round $ROUND/$ROUNDS" >&2
	for ((i = 0; i < nconf; i++)); do
		idx=$(( (i + ROUND) % nconf + 1 ))
		c=${!idx}
		[ -n "${UNAVAILABLE[$c]:-}" ] && continue
		CONFIG=$c
		"run_$c" || echo "bench: $c failed in round $ROUND" >&2
		if [ -e "$OUT/insn.broken" ]; then
			echo "bench: the marked workload failed ($c, round" \
				"$ROUND): the instruction counts stop here" >&2
			exit 1
		fi
		check_clean
	done
done
[ $INSN = 1 ] && { module_unload; rm -rf "$T_SCRATCH"; exit 0; }

# Adding and removing many kprobes, rawprobe then ftrace on the same ones
# (-f ftrace: ftrace first, to see what the order does).
for n in $SCALE; do
	echo "scale: $n kprobes, $SCALE_FIRST first" >&2
	order="rawprobe ftrace"
	[ "$SCALE_FIRST" = ftrace ] && order="ftrace rawprobe"
	for how in "" kprobes $SCALE_HOW unarmed; do
		for tool in $order; do
			[ "$tool$how" = ftracekprobes ] && continue	# they are
			scale_$tool "$n" $how || echo "bench: $tool failed" \
				"to add $n${how:+ ($how)}" >&2
		done
	done
done
module_unload
rm -rf "$T_SCRATCH"
