#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where arming many kprobes goes, rawprobe beside ftrace: N kprobes
# registered disabled, then armed in one step and profiled with
# `perf record -a -g` (rawprobe: `probe enable ID...`; ftrace: the event
# group's enable). Prints each tool's time and its top kernel symbols.
# Runs in a guest, on one host thread (QEMU 7.2's multi-threaded TCG runs
# stale translations of text patched this fast, docs/reliability.md):
#
#   tests/vm/run -k 6.1 --tcg-single -t 1500 -- env N=2000 \
#       tests/bench/arm-profile.sh
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/vm/lib.sh

N=${N:-2000}
TR=/sys/kernel/tracing
S=$T_SCRATCH

ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
top() {	# PERF.DATA: the 25 hottest symbols, callers folded in
	perf report -i "$1" --no-children --stdio --sort sym 2>/dev/null |
		grep -v '^#' | grep '%' | head -25
}

probeable_functions "$N" > $S/funcs
echo "functions: $(wc -l < $S/funcs)"

ids=$($CTL probe add kprobe - --disabled < $S/funcs) || exit 1
t0=$(date +%s%N)
# shellcheck disable=SC2086
perf record -a -g -o $S/rp.data -- $CTL probe enable $ids >/dev/null \
	2>$S/perf.err || { cat $S/perf.err; exit 1; }
echo "rawprobe: arming $N registered kprobes (probe enable): $(ms_since "$t0") ms"
$CTL probe del all >/dev/null
top $S/rp.data

awk '{ print "p:rpscale/e" NR " " $1 }' $S/funcs |
	while read -r l; do echo "$l" >> $TR/kprobe_events; done
t0=$(date +%s%N)
perf record -a -g -o $S/ft.data -- \
	sh -c "echo 1 > $TR/events/rpscale/enable" 2>$S/perf.err ||
	{ cat $S/perf.err; exit 1; }
echo "ftrace: arming $N registered kprobe events (enable): $(ms_since "$t0") ms"
echo 0 > $TR/events/rpscale/enable
echo > $TR/kprobe_events
top $S/ft.data
