#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where arming many kprobes goes, rawprobe beside ftrace, profiled with
# `perf record -F FREQ -a -g`. MODE=enable (the default): N kprobes
# registered disabled, then armed in one step (rawprobe: `probe enable
# ID...`; ftrace: the event group's enable). MODE=add: the whole add, as
# make bench times it (rawprobe: `probe add kprobe -`, registered and
# armed batch by batch; ftrace: every `p:` line, then the group's
# enable). Prints each tool's time and its top kernel symbols. Runs in a
# guest, on one host thread (QEMU 7.2's multi-threaded TCG runs stale
# translations of text patched this fast, docs/reliability.md). The
# samples stay in the guest's RAM: at 10,000 probes, perf's default
# 4,000 Hz in a 2 GiB guest ended the script after 25 minutes with no
# output; 97 Hz in 4 GiB finished (36 minutes for both tools).
#
#   tests/vm/run -k 6.1 --tcg-single -t 1500 -- env N=2000 \
#       tests/bench/arm-profile.sh
#   tests/vm/run -k 6.1 --tcg-single --mem 4096 -t 6000 -- \
#       env N=10000 MODE=add tests/bench/arm-profile.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh

N=${N:-2000}
MODE=${MODE:-enable}
FREQ=${FREQ:-97}
TR=/sys/kernel/tracing
S=$T_SCRATCH

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
top() {	# PERF.DATA: the 25 hottest symbols, callers folded in
	perf report -i "$1" --no-children --stdio --sort sym 2>/dev/null |
		grep -v '^#' | grep '%' | head -25
}

probeable_functions "$N" > $S/funcs
echo "functions: $(wc -l < $S/funcs)"

# perf record ARGS...: the command profiled into $S/$OUT (set by caller)
profile() {
	perf record -F "$FREQ" -a -g -o "$S/$OUT" -- "$@" >/dev/null \
		2>$S/perf.err || { cat $S/perf.err; exit 1; }
}

if [ "$MODE" = add ]; then
	OUT=rp.data
	t0=$(date +%s%N)
	profile $CTL probe add kprobe - < $S/funcs
	echo "rawprobe: adding $N kprobes (probe add kprobe -): $(ms_since "$t0") ms"
else
	ids=$($CTL probe add kprobe - --disabled < $S/funcs) || exit 1
	OUT=rp.data
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	profile $CTL probe enable $ids
	echo "rawprobe: arming $N registered kprobes (probe enable): $(ms_since "$t0") ms"
fi
$CTL probe del all >/dev/null
top $S/rp.data

awk '{ print "p:rpscale/e" NR " " $1 }' $S/funcs > $S/events
OUT=ft.data
if [ "$MODE" = add ]; then
	t0=$(date +%s%N)
	profile sh -c "while read -r l; do echo \"\$l\" >> $TR/kprobe_events || exit 1; done < $S/events &&
		echo 1 > $TR/events/rpscale/enable"
	echo "ftrace: adding $N kprobe events (p: lines, enable): $(ms_since "$t0") ms"
else
	while read -r l; do echo "$l" >> $TR/kprobe_events; done < $S/events
	t0=$(date +%s%N)
	profile sh -c "echo 1 > $TR/events/rpscale/enable"
	echo "ftrace: arming $N registered kprobe events (enable): $(ms_since "$t0") ms"
fi
echo 0 > $TR/events/rpscale/enable
echo > $TR/kprobe_events
top $S/ft.data
